#!/bin/bash
# Build bzImage and the uapi headers in $BUILD (O=), then the kselftests
# named in tests/kselftests.list, statically linked, from the same tree.
# Kbuild and make decide what is stale: unchanged inputs rebuild nothing.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-guest.sh"
. "$(dirname "$0")/lib-build.sh"
need_tree
[ -f "$BUILD/.config" ] || die "no $BUILD/.config" "make config"
mkdir -p "$LOGS"

# Room for the build: a first build of the guest kernel takes about 300
# MiB (KASAN: more), a rebuild little. BUILD_MIN_MB overrides.
free_mb=$(df -Pm "$BUILD" | awk 'NR == 2 { print $4 }')
if [ -f "$BUILD/vmlinux" ]; then min=${BUILD_MIN_MB:-100}; else min=${BUILD_MIN_MB:-600}; fi
[ "$free_mb" -ge "$min" ] ||
	die "only $free_mb MiB free for the build directory $BUILD (needs about $min MiB)" \
		"free space there (df -h $BUILD), or use WORK= on a bigger disk; then: make build"

# run_logged NAME LOG CMD...: run with output to LOG, a progress line
# every 30 s, and the log's tail on failure.
run_logged() {
	local name=$1 log=$2 pid t0 rc=0
	shift 2
	t0=$(date +%s)
	"$@" >"$log" 2>&1 &
	pid=$!
	while ! wait_for "$pid" 30; do
		say "  $name: $(grep -cE '^  (CC|AS|LD|AR)' "$log") objects built, $(($(date +%s) - t0))s"
	done
	wait "$pid" || rc=$?
	if [ $rc != 0 ]; then
		grep -E 'error|Error' "$log" | head -20 >&2 || true
		tail -15 "$log" >&2
		return $rc
	fi
}
# wait_for PID SECONDS: true when PID has exited within SECONDS.
wait_for() {
	local i
	for ((i = 0; i < $2; i++)); do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 1
	done
	return 1
}

log=$LOGS/kernel-$TREE_TAG-$KCONFIG.log
say "building bzImage in $BUILD (-j$(nproc)$(command -v ccache >/dev/null && echo ', ccache'))"
if ! run_logged kernel "$log" kmake bzImage headers; then
	grep -q 'No space left on device' "$log" &&
		die "the disk of $BUILD filled up during the build (log: $log)" \
			"free space (df -h $BUILD), then: make build (it resumes)"
	die "kernel build failed (log: $log)" "fix the error above, then: make build"
fi
n=$(grep -cE '^  (CC|AS|LD|AR)' "$log" || true)
say "kernel: $n object(s) rebuilt; $(ls -l "$BUILD/arch/x86/boot/bzImage" | awk '{print $5}') bytes bzImage"

# Selftests: static, with this tree's headers, objects out of tree.
cc=gcc
command -v ccache >/dev/null 2>&1 && cc="ccache gcc"
kst=$BUILD/kselftest
while read -r t; do
	dir=${t%/*} bin=${t##*/}
	[ "$dir" != guest ] || continue	# tests/guest/tests/: scripts
	src=$KERNEL_SRC/tools/testing/selftests/$dir
	if [ ! -f "$src/$bin.c" ]; then
		say "selftest $t: not in this tree, skipped"
		continue
	fi
	mkdir -p "$kst/$dir"
	slog=$LOGS/selftest-$TREE_TAG-$KCONFIG-${t//\//-}.log
	make -C "$src" OUTPUT="$kst/$dir" CC="$cc" \
		KHDR_INCLUDES="-isystem $BUILD/usr/include" USERLDFLAGS=-static \
		"$kst/$dir/$bin" >"$slog" 2>&1 ||
		{ cat "$slog" >&2; die "building selftest $t failed (log: $slog)"; }
	grep -q 'is up to date' "$slog" && s="up to date" || s=built
	say "selftest $t: $s"
done < <(test_list)

# kselftest's own install of the cgroup collection (run_kselftest.sh,
# the runner, static binaries), for the guest's runner mode (make
# kselftests APPEND=ksft.mode=runner). Not fatal: only that mode needs it.
ilog=$LOGS/selftest-install-$TREE_TAG-$KCONFIG.log
if make -C "$KERNEL_SRC/tools/testing/selftests" TARGETS=cgroup \
	O="$BUILD/kselftest-build" CC="$cc" USERLDFLAGS=-static \
	KHDR_INCLUDES="-isystem $BUILD/usr/include" \
	INSTALL_PATH="$BUILD/kselftest-install" install >"$ilog" 2>&1; then
	say "kselftest install (cgroup): $BUILD/kselftest-install"
else
	rm -rf "$BUILD/kselftest-install"
	say "kselftest install (cgroup) failed (log: $ilog): the runner mode will say so"
fi

# Guest programs (benchmark workloads, the soak, ptyrun that runs each
# test on a terminal): static, built with the host's gcc, with the tree's
# kselftest.h.
mkdir -p "$BUILD/guest-bin"
for c in "$TOP"/tests/bench/*.c "$TOP"/tests/soak/*.c "$TOP"/tests/guest/*.c; do
	[ -e "$c" ] || continue
	b=$BUILD/guest-bin/$(basename "$c" .c)
	newer=1
	for d in "$c" "$(dirname "$c")"/*.h "$TOP"/tests/lib/*.h; do
		[ -e "$d" ] && [ ! "$b" -nt "$d" ] && newer=0
	done
	[ $newer = 1 ] && continue
	gcc -O2 -Wall -Wextra -static -I "$TOP/tests/lib" \
		-I "$KERNEL_SRC/tools/testing/selftests" -o "$b" "$c" ||
		die "building guest program $c failed"
	say "guest program $(basename "$b"): built"
done
