#!/bin/bash
# Make the pinned Debian kernel tree available under $WORK, once.
#
# Installs linux-source-6.12 at the pinned version with apt when the
# tarball is missing (as root; otherwise prints the command), checks its
# sha256, and extracts it. A tree already extracted from the same tarball
# is left alone. With KERNEL_SRC= set this only checks that tree.
set -eu
. "$(dirname "$0")/lib.sh"

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
	say "pinned tree present: $KERNEL_SRC"
	exit 0
fi

if [ ! -f "$PIN_TARBALL" ] ||
   [ "$(dpkg-query -W -f='${Version}' "$PIN_PKG" 2>/dev/null)" != "$PIN_VERSION" ]; then
	cmd="apt-get install -y --no-install-recommends $PIN_PKG=$PIN_VERSION"
	[ "$(id -u)" = 0 ] ||
		die "$PIN_PKG $PIN_VERSION is not installed and this is not root" \
			"sudo apt-get update && sudo $cmd"
	say "installing $PIN_PKG=$PIN_VERSION with apt"
	apt-get update -q >/dev/null || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive $cmd ||
		die "could not install $PIN_PKG=$PIN_VERSION" \
			"apt-cache policy $PIN_PKG   # is that version still offered?"
fi

say "checking sha256 of $PIN_TARBALL"
sum=$(sha256sum "$PIN_TARBALL" | cut -d' ' -f1)
[ "$sum" = "$PIN_SHA256" ] ||
	die "checksum mismatch for $PIN_TARBALL: got $sum, pinned $PIN_SHA256" \
		"apt-get install --reinstall $PIN_PKG=$PIN_VERSION (or fix scripts/pinned-tree.env)"

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
