#!/bin/bash
# bench-src.sh ROOTFS_DIR: the sources of make bench's build workload in the
# Debian root file system, with their reference build. The source package
# (BENCH_SRC_PKG, default lua5.4) comes from the root file system's suite
# with apt's private lists (cached in $WORK_ROOT/bench-src); its tree is
# built once on the host in ROOTFS_DIR with chroot (BENCH_SRC_MAKE, default
# "-C src posix": Lua's 33 translation units and two links), and the
# sha256 sums of every file of the built tree are what every guest build
# must reproduce (tests/guest/build-workload). Kept in
# $WORK_ROOT/bench-src/build (src.tar, make-args, ref.sha256), copied to
# ROOTFS_DIR/opt/zswap-stack/build.
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/debian-apt.sh"
root=$1
suite=${ROOTFS_SUITE:-bookworm}
pkg=${BENCH_SRC_PKG:-lua5.4}
make_args=${BENCH_SRC_MAKE:-"-C src posix"}
out=$WORK_ROOT/bench-src/build
mkdir -p "$LOGS"
[ -x "$root/usr/bin/gcc" ] && [ -x "$root/usr/bin/make" ] ||
	die "no gcc or make in $root" "make vm ROOTFS=debian (installs them)"

apt_private_source "$pkg" "$suite" "$WORK_ROOT/bench-src"
orig=
for f in "$WORK_ROOT/bench-src/${pkg}"_*.orig.tar.*; do
	case $f in *.asc) ;; *) [ -f "$f" ] && orig=$f && break ;; esac
done
[ -n "$orig" ] || die "no orig tarball next to $dsc" "ls $WORK_ROOT/bench-src"

# Made again only when the sources, the make arguments or the compiler
# changed.
key="$(basename "$orig") $make_args $(chroot "$root" gcc --version | head -1)"
install_build() {
	rm -rf "$root/opt/zswap-stack/build"
	mkdir -p "$root/opt/zswap-stack"
	cp -r "$out" "$root/opt/zswap-stack/build"
}
if [ -f "$out/key" ] && [ "$(cat "$out/key")" = "$key" ]; then
	say "build workload: $(basename "$orig"), reference build cached in $out"
	install_build
	exit 0
fi
say "build workload: $(basename "$orig"), reference build on the host (chroot $root, make $make_args)"
rm -rf "$out" "$root/tmp/bench-ref"
mkdir -p "$out" "$root/tmp/bench-ref"
tar -xf "$orig" -C "$root/tmp/bench-ref"
top=$(cd "$root/tmp/bench-ref" && ls)
[ "$(echo "$top" | wc -l)" = 1 ] || die "$orig does not hold one top directory" "BENCH_SRC_PKG=<another package>"
tar -cf "$out/src.tar" -C "$root/tmp/bench-ref" "$top"
# shellcheck disable=SC2086
chroot "$root" sh -c "cd /tmp/bench-ref/$top && make -j$(nproc) $make_args" >"$LOGS/bench-ref.log" 2>&1 ||
	{ tail -20 "$LOGS/bench-ref.log" >&2; die "the reference build of $pkg failed (log: $LOGS/bench-ref.log)" \
		"BENCH_SRC_MAKE='<make arguments>' or BENCH_SRC_PKG=<another package>"; }
(cd "$root/tmp/bench-ref/$top" && find . -type f | sort | xargs -r sha256sum) >"$out/ref.sha256"
[ -s "$out/ref.sha256" ] || die "the reference build of $pkg made no object file" "BENCH_SRC_MAKE=..."
printf '%s\n' "$make_args" >"$out/make-args"
printf '%s\n' "$key" >"$out/key"
rm -rf "$root/tmp/bench-ref"
install_build
say "build workload: $(wc -l <"$out/ref.sha256") reference files in $out/ref.sha256"
