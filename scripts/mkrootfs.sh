#!/bin/bash
# A Debian root file system for make vm ROOTFS=debian: debootstrap from
# Debian's mirror into $WORK_ROOT/rootfs/<suite>.d (cached: made once, again
# only with ROOTFS_REBUILD=1), then an ext2 image with the project's test
# programs and an init that sets up swap and zswap, written anew each time
# from the cached tree (seconds). ext2 because the guest kernel has it
# built in (kernel-config/qemu-guest.config); no initramfs is needed.
#   ROOTFS_SUITE   Debian suite (default bookworm)
#   ROOTFS_MIRROR  mirror (default: the system's Debian mirror)
#   ROOTFS_SIZE    image size (default 2G, sparse)
#   ROOTFS_BENCH=1 add the build workload's sources (make bench does)
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/debian-apt.sh"
suite=${ROOTFS_SUITE:-bookworm}
mirror=${ROOTFS_MIRROR:-$(debian_mirror main)}
dir=$WORK_ROOT/rootfs/$suite.d
img=$WORK_ROOT/rootfs/$suite.img
need mke2fs
mkdir -p "$LOGS"
lock "$img.lock" "guest on (or build of) the root file system $img" 8 \
	"wait for it: the guests of every tree and WORK share this image"

# What the guests need besides minbase: the tests' tools, and a compiler
# for make bench's build workload (ROOTFS_PACKAGES= overrides the list).
packages=${ROOTFS_PACKAGES-procps stress-ng kmod util-linux gcc make libc6-dev}

if [ "${ROOTFS_REBUILD:-0}" = 1 ] || [ ! -f "$dir/.complete" ]; then
	need debootstrap
	[ "$(id -u)" = 0 ] || die "debootstrap needs root" "sudo make vm ROOTFS=debian"
	say "debootstrap $suite from $mirror into $dir (a few minutes, once)"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$(dirname "$dir")"
	debootstrap --variant=minbase --include="$(echo $packages | tr ' ' ,)" \
		"$suite" "$dir.tmp" "$mirror" >"$LOGS/debootstrap.log" 2>&1 ||
		{ tail -20 "$LOGS/debootstrap.log" >&2
		  die "debootstrap failed (log: $LOGS/debootstrap.log)" "check the mirror, then: make vm ROOTFS=debian ROOTFS_REBUILD=1"; }
	rm -rf "$dir.tmp"/var/cache/apt/archives/*.deb
	touch "$dir.tmp/.complete"
	mv "$dir.tmp" "$dir"
else
	say "cached Debian root file system: $dir (ROOTFS_REBUILD=1 makes it again)"
fi
# A cached tree from before a package joined the list gets it now.
# shellcheck disable=SC2086
root_install "$dir" "$LOGS/rootfs-apt.log" "make vm ROOTFS=debian ROOTFS_REBUILD=1" $packages

# The project's programs (the init is copied below).
opt=$dir/opt/zswap-stack
rm -rf "$opt"
mkdir -p "$opt/bin" "$opt/kselftest"
cp -r "$BUILD/kselftest/." "$opt/kselftest/" 2>/dev/null || true
cp "$BUILD"/guest-bin/* "$opt/bin/" 2>/dev/null || true
cp "$TOP/tests/guest/bench-run" "$TOP/tests/bench/workloads.list" "$opt/"
# make bench's Debian workloads (bench-run in bench mode reads
# /etc/bench.list) and, for make bench (ROOTFS_BENCH=1), the build
# workload's sources.
mkdir -p "$dir/usr/local/bin" "$dir/etc"
install -m 755 "$TOP/tests/guest/bench-run" "$TOP/tests/guest/build-workload" \
	"$TOP/tests/guest/zram-swap" "$dir/usr/local/bin/"
cp "$TOP/tests/bench/debian.list" "$dir/etc/bench.list"
[ "${ROOTFS_BENCH:-0}" != 1 ] || "$TOP/scripts/bench-src.sh" "$dir"
cp -r "$TOP/tests/guest/tests" "$opt/tests"
# The same init as the initramfs' (tests/guest/init): on Debian it sets
# up swap and zswap, then runs ksft.run's command or a login shell.
cp "$TOP/tests/guest/init" "$dir/sbin/zswap-stack-init"
chmod 755 "$dir/sbin/zswap-stack-init"

say "writing $img from $dir"
rm -f "$img"
mke2fs -q -t ext2 -d "$dir" "$img" "${ROOTFS_SIZE:-2G}" ||
	die "mke2fs of $img failed" "df -h $WORK"
say "rootfs image ready: $img"
