#!/bin/bash
# Check the series against other Debian builds of linux-source-6.12
# (make check-apply CHECK_VERSIONS="6.12.118-1 6.12.95-1~bpo12+1").
#
#   fetch-other-tree.sh --list         versions Debian offers
#   fetch-other-tree.sh VERSION...     fetch each and run check-apply on it
#
# apt runs with its own sources list and state under $OTHER_TREES/apt
# (bookworm, trixie, their -updates, -security and -backports suites from
# $DEBIAN_MIRROR, signed with the system's debian-archive-keyring), so
# /etc/apt is not changed and root is not needed. Each .deb is kept in
# $OTHER_TREES/debs; from its tarball only the files the series touches
# (and the top Makefile, for the version) are extracted, into
# $OTHER_TREES/VERSION/linux-source-6.12, again when the series touches
# new files. With more than one VERSION a patch x version table follows
# the per-version tables. Exit status 1 when the series does not apply
# cleanly (at fuzz 0) to one of them.
#
# OTHER_TREES  cache directory (default $WORK/other-trees)
# OTHER_SUITES suites to offer (default below); DEBIAN_MIRROR (default
#              http://deb.debian.org)
set -eu
. "$(dirname "$0")/lib.sh"
S=$TOP/scripts
need apt-get dpkg-deb xz tar

OTHER_TREES=$(realpath -m "${OTHER_TREES:-$WORK/other-trees}")
OTHER_SUITES=${OTHER_SUITES:-"bookworm bookworm-updates bookworm-backports bookworm-security
	trixie trixie-updates trixie-backports trixie-security"}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
A=$OTHER_TREES/apt

[ $# -gt 0 ] || die "usage: fetch-other-tree.sh --list | VERSION..." \
	"scripts/fetch-other-tree.sh --list   # versions on offer"

apt_opts=(-q -o "Dir::Etc::SourceList=$A/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$A/lists" -o "Dir::Cache=$A/cache" -o Dir::State::status=/dev/null
	-o Acquire::Languages=none)
[ "$(id -u)" != 0 ] || apt_opts+=(-o APT::Sandbox::User=root)	# _apt cannot write here

# The private sources list; apt-get update when it is new or changed, or
# when asked (apt_update force).
apt_update() {
	local s want
	[ -f "$KEYRING" ] || die "no $KEYRING" "apt-get install debian-archive-keyring"
	mkdir -p "$A/lists/partial" "$A/cache/archives/partial"
	want=$(for s in $OTHER_SUITES; do
		case $s in *-security) printf 'deb [signed-by=%s] %s/debian-security %s main\n' "$KEYRING" "$DEBIAN_MIRROR" "$s" ;;
		*) printf 'deb [signed-by=%s] %s/debian %s main\n' "$KEYRING" "$DEBIAN_MIRROR" "$s" ;; esac
	done)
	if [ "${1:-}" = force ] || [ ! -f "$A/sources.list" ] ||
	   [ "$(cat "$A/sources.list")" != "$want" ] || ! ls "$A/lists/"*Packages* >/dev/null 2>&1; then
		printf '%s\n' "$want" >"$A/sources.list"
		say "apt-get update (own lists in $A: $(echo $OTHER_SUITES))"
		apt-get "${apt_opts[@]}" update >"$A/update.log" 2>&1 || {
			sed 's/^/    /' "$A/update.log" >&2
			die "apt-get update failed for $DEBIAN_MIRROR" "check the network, or set OTHER_SUITES= to suites that exist"
		}
		! grep '^[WE]:' "$A/update.log" >&2 || true
	fi
}
offered() { apt-cache "${apt_opts[@]}" madison "$PIN_PKG" 2>/dev/null; }

apt_update
if [ "$1" = --list ]; then
	offered
	exit 0
fi

# fetch VERSION: the .deb in $OTHER_TREES/debs, downloaded once, into $deb.
fetch() {
	local v=$1
	deb=$OTHER_TREES/debs/${PIN_PKG}_${v/:/%3a}_all.deb
	if [ ! -f "$deb" ]; then
		offered | awk -F' *[|] *' -v v="$v" '$2 == v { f = 1 } END { exit !f }' || {
			apt_update force
			offered | awk -F' *[|] *' -v v="$v" '$2 == v { f = 1 } END { exit !f }' ||
				die "$PIN_PKG $v is not offered by $(echo $OTHER_SUITES)" \
					"scripts/fetch-other-tree.sh --list   # or add its suite to OTHER_SUITES="
		}
		say "downloading $PIN_PKG=$v"
		mkdir -p "$OTHER_TREES/debs"
		(cd "$OTHER_TREES/debs" && apt-get "${apt_opts[@]}" download "$PIN_PKG=$v" >"$A/download.log" 2>&1) || {
			sed 's/^/    /' "$A/download.log" >&2
			die "apt-get download $PIN_PKG=$v failed" "retry; or scripts/fetch-other-tree.sh --list"
		}
		[ -f "$deb" ] || die "apt-get download did not leave $deb" "ls $OTHER_TREES/debs"
	fi
}

# extract VERSION DEB: the files the series touches, into $OTHER_TREES/VERSION.
extract() {
	local v=$1 deb=$2 dir=$OTHER_TREES/$1 rc
	"$S/check-apply.sh" --list-files >"$dir.want" || die "could not list the files of the series"
	echo Makefile >>"$dir.want"
	sort -u -o "$dir.want" "$dir.want"
	if [ -f "$dir/files.list" ] && [ -z "$(comm -23 "$dir.want" "$dir/files.list")" ]; then
		rm -f "$dir.want"
		return 0
	fi
	say "extracting $(wc -l <"$dir.want") file(s) from $(basename "$deb")"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	sed "s|^|$PIN_TOPDIR/|" "$dir.want" >"$dir.tmp/members"
	dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/src/$PIN_PKG.tar.xz" | nice xz -dc |
		tar -x -C "$dir.tmp" -T "$dir.tmp/members" 2>"$dir.tmp/tar.err" && rc=0 || rc=$?
	# Files the series creates are not in the tarball; anything else is an error.
	if [ $rc != 0 ] && grep -v -e 'Not found in archive' -e 'Exiting with failure status' "$dir.tmp/tar.err" >&2; then
		die "extracting from $deb failed" "rm $deb and re-run to download it again"
	fi
	[ -f "$dir.tmp/$PIN_TOPDIR/Makefile" ] || die "$deb holds no $PIN_TOPDIR/Makefile" "is it a $PIN_PKG package?"
	mkdir -p "$dir"
	mv "$dir.tmp/$PIN_TOPDIR" "$dir/$PIN_TOPDIR"
	mv "$dir.want" "$dir/files.list"
	rm -rf "$dir.tmp"
}

rc=0 done_v=()
for v in "$@"; do
	fetch "$v"
	extract "$v" "$deb"
	echo
	KERNEL_SRC=$OTHER_TREES/$v/$PIN_TOPDIR CHECK_TSV=$OTHER_TREES/$v/check-apply.tsv \
		CHECK_LABEL="$PIN_PKG $v (only the files the series touches)" \
		"$S/check-apply.sh" || rc=1
	done_v+=("$v")
done

if [ ${#done_v[@]} -gt 1 ]; then
	echo
	say "patch x version"
	for v in "${done_v[@]}"; do
		awk -F'\t' -v v="$v" '{ print v "\t" $1 "\t" $2 }' "$OTHER_TREES/$v/check-apply.tsv"
	done | awk -F'\t' '
		!($1 in seen) { seen[$1] = 1; vs[++nv] = $1; w[nv] = length($1) > 7 ? length($1) : 7 }
		!($2 in row) { row[$2] = 1; ps[++np] = $2; if (length($2) > pw) pw = length($2) }
		{ r[$2, $1] = $3 }
		END {
			printf "%-*s", pw, "patch"; for (i = 1; i <= nv; i++) printf "  %-*s", w[i], vs[i]; print ""
			for (j = 1; j <= np; j++) {
				printf "%-*s", pw, ps[j]
				for (i = 1; i <= nv; i++) printf "  %-*s", w[i], r[ps[j], vs[i]]
				print ""
			}
		}'
fi
exit $rc
