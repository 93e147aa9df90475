#!/bin/bash
# Pack the guest initramfs: Debian's busybox-static, tests/guest/init, the
# kselftest binaries built for this tree and the guest test programs.
# The image is replaced only when its content changed.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-guest.sh"
need cpio gzip
bb=/bin/busybox
[ -x "$bb" ] && ! readelf -l "$bb" 2>/dev/null | grep -q 'program interpreter' ||
	die "a static busybox is needed at $bb" "make deps (or: apt-get install busybox-static)"

out=$BUILD/initramfs.cpio.gz
stage=$BUILD/initramfs.d
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,etc,proc,sys,dev,tmp,run,tests}
cp "$bb" "$stage/bin/busybox"
ln -s busybox "$stage/bin/sh"	# the init's interpreter
cp "$TOP/tests/guest/init" "$stage/init"
# Static glibc resolves "localhost" (test_memcg_sock) from /etc/hosts.
printf '127.0.0.1 localhost\n::1 localhost\n' >"$stage/etc/hosts"
echo 'hosts: files' >"$stage/etc/nsswitch.conf"
chmod 755 "$stage/init"

: >"$stage/etc/tests.list"
missing=()
while read -r t; do
	if [ -x "$BUILD/kselftest/$t" ]; then
		mkdir -p "$stage/tests/${t%/*}"
		cp "$BUILD/kselftest/$t" "$stage/tests/$t"
		# kselftest's per-directory timeout, if the tree sets one
		s=$KERNEL_SRC/tools/testing/selftests/${t%/*}/settings
		[ ! -f "$s" ] || cp "$s" "$stage/tests/${t%/*}/settings"
	elif [ "${t%%/*}" != guest ]; then
		missing+=("$t")
	fi
	if [ "${t%%/*}" = guest ]; then
		mkdir -p "$stage/tests/guest"
		install -m 755 "$TOP/tests/guest/tests/${t#guest/}" "$stage/tests/$t"
	fi
	echo "$t" >>"$stage/etc/tests.list"
done < <(test_list)
[ -x "$BUILD/guest-bin/ptyrun" ] || missing+=("ptyrun (tests/guest/ptyrun.c)")
# An image without its kselftests would boot and report them all as not
# run: refuse it (nothing written).
if [ ${#missing[@]} -gt 0 ]; then
	rm -rf "$stage"
	die "${#missing[@]} kselftest binaries are not built in $BUILD: ${missing[*]}" "make build"
fi
# Debian's stress-ng and trinity (the fuzz test's fuzzer), dynamically
# linked, with the libraries they need; tests that find one missing say so.
for prog in stress-ng trinity; do
	p=$(command -v "$prog") || continue
	cp "$p" "$stage/bin/$prog"
	ldd "$p" | grep -oE '/[^ ]+' | while read -r lib; do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
done
# Benchmark workloads (built by build.sh from tests/bench/*.c) and their
# runner.
mkdir -p "$stage/tests/bin"
for f in "$BUILD"/guest-bin/*; do
	[ -e "$f" ] && cp "$f" "$stage/tests/bin/"
done
cp "$TOP/tests/guest/bench-run" "$TOP/tests/guest/zram-swap" \
	"$TOP/tests/guest/zswap-nondefault" "$stage/bin/"
# The runner mode: kselftest's install, and a timeout that takes the
# runner's --foreground (busybox's does not)
if [ -d "$BUILD/kselftest-install" ]; then
	cp -a "$BUILD/kselftest-install" "$stage/ksft"
	mkdir -p "$stage/usr/bin"
	printf '#!/bin/sh\n[ "$1" != --foreground ] || shift\nexec /bin/timeout "$@"\n' \
		>"$stage/usr/bin/timeout"
	chmod 755 "$stage/usr/bin/timeout"
fi
cp "$TOP/tests/bench/workloads.list" "$stage/etc/bench.list"

# Fixed mtimes and order make the archive reproducible, so "unchanged"
# can be decided by comparing bytes.
find "$stage" -exec touch -h -d @0 {} +
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -n -1 >"$out.new"
if cmp -s "$out.new" "$out"; then
	rm "$out.new"
	touch "$out"	# checked against today's inputs (qemu.sh compares)
	say "initramfs unchanged: $out"
else
	mv "$out.new" "$out"
	say "initramfs written: $out ($(du -h "$out" | cut -f1))"
fi
