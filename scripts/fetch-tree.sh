#!/bin/bash
# Make the pinned Debian kernel tree of TREE available under $WORK, once.
#
# patches/$TREE/tree.env names the package, version and suite. The .deb
# is downloaded with apt using private lists (scripts/debian-apt.sh: the
# system's apt sources are not changed), its tarball taken out into
# $WORK_ROOT/tarballs/, checked against the pinned sha256 and extracted.
# A tree already extracted from the same tarball is left alone. With
# KERNEL_SRC= set this only checks that tree.
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/debian-apt.sh"

if [ "$PINNED" = 0 ]; then
	[ -f "$KERNEL_SRC/Makefile" ] && [ -d "$KERNEL_SRC/mm" ] ||
		die "KERNEL_SRC=$KERNEL_SRC does not look like a kernel tree (no Makefile or mm/)" \
			"point KERNEL_SRC at the top of a kernel source tree"
	say "using KERNEL_SRC=$KERNEL_SRC (the pinned tree is not touched)"
	exit 0
fi

stamp=$WORK/.tree-extracted
if stamped "$stamp" "$PIN_SHA256" && [ -f "$KERNEL_SRC/Makefile" ]; then
	say "pinned tree present: $KERNEL_SRC ($PIN_PKG $PIN_VERSION)"
	exit 0
fi

if [ ! -f "$PIN_TARBALL" ]; then
	mapfile -t suites < <(tree_suites)
	apt_private_fetch "$PIN_PKG" "$PIN_VERSION" "${suites[@]}"
	say "taking $PIN_PKG.tar.xz out of $(basename "$deb")"
	tarball_from_deb "$deb" "$PIN_PKG" "$PIN_TARBALL"
fi

say "checking sha256 of $PIN_TARBALL"
sum=$(sha256sum "$PIN_TARBALL" | cut -d' ' -f1)
[ "$sum" = "$PIN_SHA256" ] ||
	die "checksum mismatch for $PIN_TARBALL: got $sum, pinned $PIN_SHA256" \
		"rm $PIN_TARBALL and make tree (downloads it again), or fix patches/$TREE/tree.env"

mkdir -p "$WORK"
rm -rf "$KERNEL_SRC" "$WORK/.extract.tmp"
# Room for the tree: the tarball's unpacked size (xz's index) and a tenth
# for file system blocks. TREE_MIN_MB overrides.
tar_mb=$(xz --robot -l "$PIN_TARBALL" 2>/dev/null | awk '$1 == "totals" { print int($5 / 1048576) }')
min=${TREE_MIN_MB:-$((${tar_mb:-2000} * 11 / 10))}
free=$(df -Pm "$WORK" | awk 'NR == 2 { print $4 }')
[ "$free" -ge "$min" ] ||
	die "only $free MiB free for $WORK; the $PIN_PKG tree needs about $min MiB" \
		"free space (df -h $WORK), or use WORK= on a bigger disk; then re-run make"

say "extracting $PIN_TARBALL into $WORK ($min MiB)"
mkdir "$WORK/.extract.tmp"
# tar's errors are kept in memory: a full disk has no room for a log.
if ! errs=$(tar -C "$WORK/.extract.tmp" -xf "$PIN_TARBALL" 2>&1); then
	rm -rf "$WORK/.extract.tmp"
	printf '%s\n' "$errs" | head -3 | sed 's/^/  /' >&2
	die "extracting $PIN_TARBALL failed: $(printf '%s\n' "$errs" | wc -l) tar errors (the partial tree is removed)" \
		"df -h $WORK; then re-run make"
fi
mv "$WORK/.extract.tmp/$PIN_TOPDIR" "$KERNEL_SRC"
rmdir "$WORK/.extract.tmp"
echo "$PIN_SHA256" >"$stamp"
say "pinned tree ready: $KERNEL_SRC"
