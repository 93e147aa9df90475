#!/bin/bash
# The A/B of make test KCONFIG=kcsan (its last stage, after the series'
# guest): the same kernel config and tests on the unpatched tree (its own
# work directory, WORK/kcsan-base: tree, build and logs), then
# kcsan-judge.sh on the two runs' data-race lists. A test failure of the
# base run is reported, not judged: the series' run judged its own.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-guest.sh"
S=$TOP/scripts
[ "$KCONFIG" = kcsan ] || die "kcsan-ab.sh compares KCSAN runs: KCONFIG=kcsan"
[ "$PINNED" = 1 ] || die "the A/B runs the pinned tree unpatched; unset KERNEL_SRC"
mine=$(kcsan_list "$TREE_TAG-kcsan")
[ -f "$mine" ] || die "no KCSAN list of the series' run ($mine)" "make kselftests KCONFIG=kcsan"
bw=$WORK/kcsan-base
workdir "$bw"
say "the unpatched tree with the same config and tests (in $bw)"
env WORK="$bw" SERIES_UPTO=0 "$S/pipeline.sh" tree series config build initramfs
base=$(kcsan_list "$TREE_TAG-kcsan" "$bw")
env WORK="$bw" SERIES_UPTO=0 "$S/qemu.sh" test ||
	warn "the unpatched run had failures of its own (above); its KCSAN reports are judged all the same"
[ -f "$base" ] || die "the unpatched run wrote no KCSAN list ($base): it did not finish" \
	"the console: $(serial_log "$TREE_TAG-kcsan" "$bw")"
say "KCSAN: the series' run against the unpatched one"
"$S/kcsan-judge.sh" "$mine" "$base"
