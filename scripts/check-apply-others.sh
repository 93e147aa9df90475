#!/bin/bash
# Check the series against other Debian builds of the kernel source
# (make check-apply CHECK_VERSIONS="6.12.118-1 linux-source-7.2=7.2.13-1").
#
#   check-apply-others.sh --list            versions the suites offer
#   check-apply-others.sh [PKG=]VERSION...  fetch each and run check-apply on it
#   check-apply-others.sh --others          the same for CHECK_OTHER of tree.env
#
# PKG defaults to the tree's own package (PIN_PKG of patches/$TREE/tree.env);
# another one (sid's linux-source-7.2 for the 7.3 series) is named with
# PKG=VERSION. apt runs with private lists (scripts/debian-apt.sh) for the
# tree's OTHER_SUITES, so /etc/apt is not changed and root is not needed.
# Each .deb is kept in $WORK_ROOT/debs; from its tarball only the files the
# series touches (and the top Makefile, for the version) are extracted,
# into $OTHER_TREES/PKG_VERSION/PKG, again when the series touches new
# files. With more than one VERSION a patch x version table follows the
# per-version tables. Exit status 1 when the series does not apply
# cleanly (at fuzz 0) to one of them.
#
# OTHER_TREES  cache directory (default $WORK/other-trees)
# OTHER_SUITES suites to offer, besides PIN_SUITE (default: patches/$TREE/tree.env)
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/debian-apt.sh"
S=$TOP/scripts
need apt-get dpkg-deb xz tar

OTHER_TREES=$(realpath -m "${OTHER_TREES:-$WORK/other-trees}")
mapfile -t suites < <(tree_suites)

[ $# -gt 0 ] || die "usage: check-apply-others.sh --list | [PKG=]VERSION..." \
	"scripts/check-apply-others.sh --list   # versions on offer"

# --others: the other builds patches/$TREE/tree.env names (CHECK_OTHER).
if [ "$1" = --others ]; then
	# shellcheck disable=SC2086
	set -- $CHECK_OTHER
	[ $# -gt 0 ] || { say "patches/$TREE/tree.env names no other builds (CHECK_OTHER)"; exit 0; }
fi
if [ "$1" = --list ]; then
	apt_private_update "${suites[@]}"
	mapfile -t pkgs < <(for s in $CHECK_OTHER; do case $s in *=*) echo "${s%%=*}" ;; esac; done)
	apt-cache "${apt_opts[@]}" madison "$PIN_PKG" "${pkgs[@]}" 2>/dev/null | sort -u
	exit 0
fi

# extract NAME PKG DEB: the files the series touches, into $OTHER_TREES/NAME/PKG.
extract() {
	local v=$1 pkg=$2 deb=$3 dir=$OTHER_TREES/$1 rc
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
	sed "s|^|$pkg/|" "$dir.want" >"$dir.tmp/members"
	dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/src/$pkg.tar.xz" | nice xz -dc |
		tar -x -C "$dir.tmp" -T "$dir.tmp/members" 2>"$dir.tmp/tar.err" && rc=0 || rc=$?
	# Files the series creates are not in the tarball; anything else is an error.
	if [ $rc != 0 ] && grep -v -e 'Not found in archive' -e 'Exiting with failure status' "$dir.tmp/tar.err" >&2; then
		die "extracting from $deb failed" "rm $deb and re-run to download it again"
	fi
	[ -f "$dir.tmp/$pkg/Makefile" ] || die "$deb holds no $pkg/Makefile" "is it a kernel source package?"
	mkdir -p "$dir"
	mv "$dir.tmp/$pkg" "$dir/$pkg"
	mv "$dir.want" "$dir/files.list"
	rm -rf "$dir.tmp"
}

for spec in "$@"; do
	case $spec in *=*) pkg=${spec%%=*} v=${spec#*=} ;; *) pkg=$PIN_PKG v=$spec ;; esac
	debian_package "$pkg" && debian_version "$v" ||
		die "'$spec': expected [PACKAGE=]VERSION, a Debian version (as $PIN_VERSION) of $PIN_PKG or of the package named" \
			"scripts/check-apply-others.sh --list   # versions on offer"
done
mkdir -p "$OTHER_TREES"
rc=0 done_v=()
for spec in "$@"; do
	case $spec in *=*) pkg=${spec%%=*} v=${spec#*=} ;; *) pkg=$PIN_PKG v=$spec ;; esac
	name=$v
	[ "$pkg" = "$PIN_PKG" ] || name=$pkg=$v
	apt_private_fetch "$pkg" "$v" "${suites[@]}"
	extract "${name/=/_}" "$pkg" "$deb"
	echo
	KERNEL_SRC=$OTHER_TREES/${name/=/_}/$pkg "$S/check-apply.sh" \
		--label "$pkg $v (only the files the series touches)" --tsv "$OTHER_TREES/${name/=/_}/check-apply.tsv" || rc=1
	done_v+=("$name")
done

if [ ${#done_v[@]} -gt 1 ]; then
	echo
	say "patch x version"
	for v in "${done_v[@]}"; do
		awk -F'\t' -v v="$v" '{ print v "\t" $1 "\t" $2 }' "$OTHER_TREES/${v/=/_}/check-apply.tsv"
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
