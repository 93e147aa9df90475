# shellcheck shell=bash
# apt with private lists, for Debian packages the system's apt sources do
# not offer (sourced by fetch-tree.sh and check-apply-others.sh, after
# lib.sh). /etc/apt is never changed and root is not needed: the sources
# list, the lists and the cache live in $WORK_ROOT/apt/$TREE, and the
# downloaded packages in $WORK_ROOT/debs.
#
# The mirror is the one the system's apt already uses (apt-get
# indextargets); DEBIAN_MIRROR= and DEBIAN_SECURITY_MIRROR= override it.
# Packages are checked against debian-archive-keyring, as apt always does.

DEBS=$WORK_ROOT/debs
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

# apt_dir DIR: private lists, cache and sources.list in DIR ($APT_DIR,
# $apt_opts).
apt_dir() {
	APT_DIR=$1
	apt_opts=(-q -o "Dir::Etc::SourceList=$APT_DIR/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$APT_DIR/lists" -o "Dir::Cache=$APT_DIR/cache" -o Dir::State::status=/dev/null
		-o Acquire::Languages=none)
	[ "$(id -u)" != 0 ] || apt_opts+=(-o APT::Sandbox::User=root)	# _apt cannot write here
}
apt_dir "$WORK_ROOT/apt/$TREE"

# The suites of the private lists: the pinned tree's and the others the
# tree's check-apply looks at, one a line.
tree_suites() {
	# shellcheck disable=SC2086
	printf '%s\n' $PIN_SUITE ${OTHER_SUITES:-} | awk '!seen[$0]++'
}

# debian_mirror [security]: the URI of the system's Debian (or Debian
# security) archive, from apt's own configuration.
debian_mirror() {
	local want=${1:-main} uri
	if [ "$want" = security ]; then uri=${DEBIAN_SECURITY_MIRROR:-}; else uri=${DEBIAN_MIRROR:-}; fi
	if [ -z "$uri" ]; then
		# shellcheck disable=SC2016
		uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null | awk -v w="$want" '
			w == "security" && $2 ~ /^[a-z]+-security$/ { print $1; exit }
			w == "main" && $2 ~ /^[a-z]+(-updates|-backports|-proposed-updates)?$/ && $1 ~ /\/debian\/?$/ { print $1; exit }')
	fi
	[ -n "$uri" ] || die "no Debian $want archive in the system's apt sources (apt-get indextargets)" \
		"set DEBIAN_MIRROR=http://<mirror>/debian (and DEBIAN_SECURITY_MIRROR=) for this command"
	printf '%s\n' "${uri%/}"
}

# apt_private_update SUITE...: the private sources list for SUITEs;
# apt-get update when it is new or changed, or with APT_FORCE_UPDATE=1.
# APT_KIND=deb-src lists source packages instead.
apt_private_update() {
	local s want main sec='' kind=${APT_KIND:-deb}
	[ -f "$KEYRING" ] || die "no $KEYRING" "apt-get install debian-archive-keyring"
	need apt-get dpkg-deb
	mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial"
	main=$(debian_mirror main)
	case " $* " in *-security\ *) sec=$(debian_mirror security) ;; esac
	want=$(for s in "$@"; do
		case $s in
		*-security) printf '%s [signed-by=%s] %s %s main\n' "$kind" "$KEYRING" "$sec" "$s" ;;
		*) printf '%s [signed-by=%s] %s %s main\n' "$kind" "$KEYRING" "$main" "$s" ;;
		esac
	done)
	if [ "${APT_FORCE_UPDATE:-0}" = 1 ] || [ ! -f "$APT_DIR/sources.list" ] ||
	   [ "$(cat "$APT_DIR/sources.list")" != "$want" ] || ! ls "$APT_DIR/lists/"*Packages* >/dev/null 2>&1; then
		printf '%s\n' "$want" >"$APT_DIR/sources.list"
		say "apt-get update (private lists in $APT_DIR: $*; mirror $main${sec:+, security $sec}, from the system's apt sources unless DEBIAN_MIRROR= is set)"
		apt-get "${apt_opts[@]}" update >"$APT_DIR/update.log" 2>&1 || {
			sed 's/^/    /' "$APT_DIR/update.log" >&2
			die "apt-get update of the private lists failed ($*)" "check the network and the suites in patches/$TREE/tree.env"
		}
		! grep '^[WE]:' "$APT_DIR/update.log" >&2 || true
	fi
}

# offered PKG VERSION: true when the private lists offer PKG at VERSION.
offered() {
	apt-cache "${apt_opts[@]}" madison "$1" 2>/dev/null |
		awk -F' *[|] *' -v v="$2" '$2 == v { f = 1 } END { exit !f }'
}

# on_offer PKG: "VERSION SUITE" of every PKG the private lists offer.
on_offer() {
	apt-cache "${apt_opts[@]}" madison "$1" 2>/dev/null |
		awk -F' *[|] *' '{ split($3, u, " "); s = u[2]; sub(/\/.*/, "", s); print $2, s }'
}

# offer_list PKG: what on_offer says, on one line: "V1 (suite), V2 (suite)".
offer_list() {
	on_offer "$1" | awk '{ printf "%s%s (%s)", (NR > 1 ? ", " : ""), $1, $2 }'
}

# apt_private_fetch PKG VERSION SUITE...: the package's .deb in $DEBS,
# downloaded once; its path in $deb.
apt_private_fetch() {
	local pkg=$1 v=$2
	shift 2
	local base=$DEBS/${pkg}_${v//:/%3a}
	deb=$(ls "${base}"_*.deb 2>/dev/null | head -1)
	[ -z "$deb" ] || return 0
	apt_private_update "$@"
	offered "$pkg" "$v" || {
		APT_FORCE_UPDATE=1 apt_private_update "$@"
		offered "$pkg" "$v" || {
			local offer unread
			# Lists apt could not fetch (the network, DNS, the mirror
			# down) say nothing of what the archive holds.
			unread=$(grep -E '^(Err:|W: Failed to fetch|E: Failed to fetch)' "$APT_DIR/update.log" | head -3)
			[ -z "$unread" ] ||
				die "apt-get update could not read the lists of $* from the mirror $(debian_mirror main):
$unread" "check the network (or DEBIAN_MIRROR=URL for another mirror), then run the same command again"
			offer=$(offer_list "$pkg")
			[ "$pkg $v" = "$PIN_PKG $PIN_VERSION" ] ||
				die "$pkg $v is not offered by $* (mirror $(debian_mirror main)); on offer: ${offer:-none}" \
					"pick one of those"
			die "the pinned $pkg $v is gone from every suite the lists know ($*, mirror $(debian_mirror main)): the archive keeps only recent versions. On offer: ${offer:-none}" \
				"make repin TREE=$TREE VERSION=<one of them>   (records the new pin in patches/$TREE/tree.env, extracts it, runs check-apply)"
		}
	}
	say "downloading $pkg=$v"
	mkdir -p "$DEBS"
	(cd "$DEBS" && apt-get "${apt_opts[@]}" download "$pkg=$v" >"$APT_DIR/download.log" 2>&1) || {
		sed 's/^/    /' "$APT_DIR/download.log" >&2
		die "apt-get download $pkg=$v failed" "retry (a network error?), or check the mirror"
	}
	deb=$(ls "${base}"_*.deb 2>/dev/null | head -1)
	[ -n "$deb" ] || die "apt-get download did not leave ${base}_*.deb" "ls $DEBS"
}

# tarball_from_deb DEB PKG OUT: the source tarball usr/src/PKG.tar.xz of a
# linux-source .deb, to OUT (the .deb is removed when it has none).
tarball_from_deb() {
	mkdir -p "$(dirname "$3")"
	dpkg-deb --fsys-tarfile "$1" | tar -xOf - "./usr/src/$2.tar.xz" >"$3.tmp" ||
		{ rm -f "$3.tmp" "$1"; die "$1 holds no usr/src/$2.tar.xz (removed it)" "make tree (downloads it again)"; }
	mv "$3.tmp" "$3"
}

# apt_private_source PKG SUITE DIR: the Debian source package PKG of SUITE
# (.dsc and tarballs, checked against the signed Sources index) into DIR,
# once; its .dsc's path in $dsc.
apt_private_source() {
	local pkg=$1 suite=$2 dir=$3
	dsc=$(ls "$dir/${pkg}"_*.dsc 2>/dev/null | head -1)
	[ -z "$dsc" ] || return 0
	apt_dir "$WORK_ROOT/apt/src-$suite"
	APT_KIND=deb-src apt_private_update "$suite"
	say "downloading the source package $pkg ($suite)"
	mkdir -p "$dir"
	(cd "$dir" && apt-get "${apt_opts[@]}" source --download-only "$pkg" >"$APT_DIR/source.log" 2>&1) || {
		sed 's/^/    /' "$APT_DIR/source.log" >&2
		die "apt-get source $pkg ($suite) failed" "retry (a network error?), or check the mirror"
	}
	dsc=$(ls "$dir/${pkg}"_*.dsc 2>/dev/null | head -1)
	[ -n "$dsc" ] || die "apt-get source left no ${pkg}_*.dsc in $dir" "ls $dir"
}

# in_root DIR LOG CMD...: CMD in a chroot of the Debian tree DIR with
# /proc and /dev mounted (a kernel package's postinst runs
# initramfs-tools), its output appended to LOG. The mounts go when it
# returns; the EXIT trap takes them down if the script dies meanwhile.
root_mounts=()
root_umount() {
	local m
	for m in "${root_mounts[@]}"; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
	root_mounts=()
}
in_root() {
	local d=$1 log=$2 rc=0
	shift 2
	trap root_umount EXIT
	mount -t proc proc "$d/proc" && root_mounts+=("$d/proc")
	mount --bind /dev "$d/dev" && root_mounts+=("$d/dev")
	chroot "$d" env DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@" >>"$log" 2>&1 || rc=$?
	root_umount
	trap - EXIT
	return $rc
}

# root_install DIR LOG NEXT PKG...: install those of the PKGs the Debian
# tree DIR lacks with its own apt (a tree made before a package joined a
# list gets it this way); dies naming LOG and NEXT, the command to run
# after fixing the cause.
root_install() {
	local dir=$1 log=$2 next=$3 p missing
	shift 3
	missing=$(for p in "$@"; do
		chroot "$dir" dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || echo "$p"
	done)
	[ -n "$missing" ] || return 0
	say "installing into $dir: $(echo $missing)"
	: >"$log"
	# shellcheck disable=SC2086
	in_root "$dir" "$log" apt-get -q update &&
	in_root "$dir" "$log" apt-get -q install -y --no-install-recommends $missing || {
		tail -20 "$log" >&2
		die "apt-get install $(echo $missing) in $dir failed (log: $log)" "$next"
	}
	rm -rf "$dir"/var/cache/apt/archives/*.deb
}
