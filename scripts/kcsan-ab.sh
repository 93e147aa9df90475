#!/bin/bash
# The A/B of make test KCONFIG=kcsan (its last stage, after the series'
# guest): the same kernel config and tests on the unpatched tree (its own
# work directory, WORK/kcsan-base: tree, build and logs), then
# kcsan-judge.sh on the runs' data-race lists. KCSAN samples: one run of
# either kernel shows a rare race or not by chance, so while the series'
# run has a pair that no base run showed, the base runs again, up to
# KCSAN_BASE_RUNS times (3); a pair the base shows is the base's. A test
# failure of a base run is reported, not judged: the series' run judged
# its own.
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
runs=${KCSAN_BASE_RUNS:-3}
lists=()
for i in $(seq "$runs"); do
	name=$TREE_TAG-kcsan
	[ "$i" = 1 ] || name=$name-r$i
	say "the unpatched run $i of at most $runs ($name)"
	env WORK="$bw" SERIES_UPTO=0 "$S/qemu.sh" test --name "$name" ||
		warn "the unpatched run had failures of its own (above); its KCSAN reports are judged all the same"
	base=$(kcsan_list "$name" "$bw")
	[ -f "$base" ] || die "the unpatched run wrote no KCSAN list ($base): it did not finish" \
		"the console: $(serial_log "$name" "$bw")"
	lists+=("$base")
	# The series' pairs no base run has shown yet.
	unseen=$(sort -u "$mine" | grep -vxF -f <(cat "${lists[@]}") || true)
	[ -n "$unseen" ] || break
	[ "$i" = "$runs" ] || say "not seen on the base yet: $(echo "$unseen" | paste -sd, -)"
done
say "KCSAN: the series' run against the unpatched one"
"$S/kcsan-judge.sh" "$mine" "${lists[@]}"
