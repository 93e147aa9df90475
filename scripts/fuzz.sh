#!/bin/bash
# make fuzz: the fuzz test alone (tests/guest/tests/fuzz: trinity on the mm
# syscalls in a small memcg while reclaim and zswap churn), FUZZ_MINUTES
# (default 3) and FUZZ_SEED (default 1). The kernel's verdict is the
# results table's (KASAN, lockdep, BUG, WARN, hung task: results.sh); then
# what the fuzzer did: syscalls executed, seed, minutes.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-guest.sh"
check_settings
[ "$KCONFIG" = debug ] ||
	warn "KCONFIG=$KCONFIG: without KASAN, lockdep and DEBUG_VM (KCONFIG=debug) only crashes and WARNs are found"
name=fuzz-$TREE_TAG-$KCONFIG
# The debug kernel's kmemleak scans what the fuzz left behind.
tests=guest/fuzz
[ "$KCONFIG" != debug ] || tests=guest/fuzz,guest/kmemleak
rc=0
TESTS=$tests FUZZ_MINUTES=${FUZZ_MINUTES:-3} FUZZ_SEED=${FUZZ_SEED:-1} \
	"$TOP/scripts/qemu.sh" test --name "$name" || rc=$?
echo
tap=$(tap_log "$name")
sed -n 's/^# # fuzz: //p' "$tap" | tr -d '\r' | sed 's/^/fuzz: /'
# A skipped or cut-short fuzz is no verdict: it must have run syscalls.
grep -aq '^# # fuzz: .*syscalls executed: [1-9]' "$tap" ||
	{ [ "$rc" != 0 ] || rc=1; warn "the fuzz test ran no syscall (skipped or cut short): no verdict"; }
[ "$rc" = 0 ] || die "the fuzz run failed (above)" \
	"replay: make fuzz KCONFIG=$KCONFIG FUZZ_SEED=${FUZZ_SEED:-1} FUZZ_MINUTES=${FUZZ_MINUTES:-3}; the same on the unpatched kernel: add SERIES_UPTO=0 WORK=work/$TREE-base"
