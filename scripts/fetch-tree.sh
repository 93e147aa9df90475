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
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$PIN_SHA256" ] &&
   [ -f "$KERNEL_SRC/Makefile" ]; then
	say "pinned tree present: $KERNEL_SRC ($PIN_PKG $PIN_VERSION)"
	exit 0
fi

if [ ! -f "$PIN_TARBALL" ]; then
	mapfile -t suites < <(tree_suites)
	apt_private_fetch "$PIN_PKG" "$PIN_VERSION" "${suites[@]}"
	say "taking $PIN_PKG.tar.xz out of $(basename "$deb")"
	mkdir -p "$(dirname "$PIN_TARBALL")"
	dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/src/$PIN_PKG.tar.xz" >"$PIN_TARBALL.tmp" ||
		{ rm -f "$PIN_TARBALL.tmp" "$deb"; die "$deb holds no usr/src/$PIN_PKG.tar.xz (removed it)" "make tree (downloads it again)"; }
	mv "$PIN_TARBALL.tmp" "$PIN_TARBALL"
fi

say "checking sha256 of $PIN_TARBALL"
sum=$(sha256sum "$PIN_TARBALL" | cut -d' ' -f1)
[ "$sum" = "$PIN_SHA256" ] ||
	die "checksum mismatch for $PIN_TARBALL: got $sum, pinned $PIN_SHA256" \
		"rm $PIN_TARBALL and make tree (downloads it again), or fix patches/$TREE/tree.env"

say "extracting $PIN_TARBALL into $WORK"
mkdir -p "$WORK"
rm -rf "$KERNEL_SRC" "$WORK/.extract.tmp"
mkdir "$WORK/.extract.tmp"
tar -C "$WORK/.extract.tmp" -xf "$PIN_TARBALL" ||
	die "extracting $PIN_TARBALL failed (disk full?)" "df -h $WORK; then re-run make"
mv "$WORK/.extract.tmp/$PIN_TOPDIR" "$KERNEL_SRC"
rmdir "$WORK/.extract.tmp"
echo "$PIN_SHA256" >"$stamp"
say "pinned tree ready: $KERNEL_SRC"
