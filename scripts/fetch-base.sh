#!/bin/bash
# The release the outgoing mails are based on (tree.env's BASE_NAME): the
# orig tarball of Debian's source package BASE_SRC_PKG at
# BASE_SRC_VERSION, which is the upstream release without Debian's
# patches. apt-get source downloads it once into $WORK_ROOT/base-src/
# with private deb-src lists (apt checks every file against the signed
# Sources index); BASE_ORIG_SHA256, when tree.env pins it, is checked
# too. Prints the tarball's path last.
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/debian-apt.sh"
[ -n "${BASE_NAME:-}" ] || die "patches/$TREE/tree.env names no release to base the mails on (BASE_NAME=)" \
	"TREE=$TREE is not the upstream-facing tree; use TREE=7.3"
dir=$WORK_ROOT/base-src/$BASE_SRC_PKG-$BASE_SRC_VERSION
orig=$dir/$BASE_ORIG
if [ ! -f "$orig" ]; then
	apt_dir "$WORK_ROOT/apt/src-$TREE"
	mapfile -t suites < <(tree_suites)
	APT_KIND=deb-src apt_private_update "${suites[@]}"
	say "downloading the source package $BASE_SRC_PKG=$BASE_SRC_VERSION for $BASE_ORIG (about 150 MB)"
	rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
	(cd "$dir.tmp" && apt-get "${apt_opts[@]}" source --download-only "$BASE_SRC_PKG=$BASE_SRC_VERSION" \
		>"$APT_DIR/source.log" 2>&1) || {
		sed 's/^/    /' "$APT_DIR/source.log" | tail -5 >&2
		rm -rf "$dir.tmp"
		die "apt-get source $BASE_SRC_PKG=$BASE_SRC_VERSION failed (suites: ${suites[*]})" \
			"retry (a network error?); if the archive dropped that version, set BASE_SRC_VERSION in patches/$TREE/tree.env to a build of the same release"
	}
	[ -f "$dir.tmp/$BASE_ORIG" ] || { rm -rf "$dir.tmp"; die "apt-get source left no $BASE_ORIG" "check BASE_ORIG in patches/$TREE/tree.env"; }
	rm -rf "$dir" && mkdir -p "$(dirname "$dir")" && mv "$dir.tmp" "$dir"
fi
if [ -n "${BASE_ORIG_SHA256:-}" ]; then
	[ "$(sha256sum "$orig" | cut -d' ' -f1)" = "$BASE_ORIG_SHA256" ] ||
		die "checksum mismatch for $orig (pinned BASE_ORIG_SHA256=$BASE_ORIG_SHA256)" "rm -r $dir; make outgoing (downloads it again)"
fi
echo "$orig"
