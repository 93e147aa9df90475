#!/bin/bash
# make bench: A/B the guest workloads of tests/bench/workloads.list on two
# points of the series, built from the pinned tree with the same config:
#   BENCH_BASE=K   base = pinned tree + the first K patches (default 0)
#   BENCH_UPTO=K   the other side (default: the whole series)
#   BENCH_N=n      runs per kernel, alternating kernels (default 3)
#   BENCH_WORKLOADS=a,b   a subset of the workloads
# The full series is the regular tree in $WORK; other points get their own
# WORK ($WORK/bench/pK) so that nothing is rebuilt when switching between
# them. Results: CSV, text tables and a PNG per workload in
# $WORK/bench/results-<time>/ (or BENCH_OUT).
set -eu
. "$(dirname "$0")/lib.sh"
S=$TOP/scripts
[ "$PINNED" = 1 ] || die "make bench compares points of the series on the pinned tree; unset KERNEL_SRC"

series_load
all=("${SERIES[@]}")
total=${#all[@]}
base=${BENCH_BASE:-0} upto=${BENCH_UPTO:-$total} n=${BENCH_N:-3}
[ "$base" -ge 0 ] && [ "$upto" -le "$total" ] && [ "$base" -lt "$upto" ] ||
	die "need 0 <= BENCH_BASE ($base) < BENCH_UPTO ($upto) <= $total patches"
out=${BENCH_OUT:-$WORK/bench/results-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"

point_work() { if [ "$1" = "$total" ]; then echo "$WORK"; else echo "$WORK/bench/p$1"; fi; }
point_label() { if [ "$1" = "$base" ]; then echo base; else echo series; fi; }

# Bring the kernel of point K up to date (tree, first K patches, config,
# build, initramfs) with the normal pipeline.
prepare() {
	local k=$1 w
	w=$(point_work "$k")
	say "bench: preparing the kernel with $k of $total patches (WORK=$w)"
	env -u COUNTS WORK="$w" SERIES_UPTO="$k" \
		"$S/pipeline.sh" tree series config build initramfs
}
prepare "$base"
prepare "$upto"

csv=$out/results.csv
echo "kernel,patches,run,workload,metric,value" >"$csv"
accel=
for ((r = 1; r <= n; r++)); do
	for k in "$base" "$upto"; do
		w=$(point_work "$k")
		label=$(point_label "$k")
		say "bench: run $r/$n, $label kernel ($k patches)"
		env WORK="$w" RUN_NAME="bench-$label-$r" \
			"$S/qemu.sh" bench || die "bench guest run failed ($label, run $r)" \
			"see $w/logs/serial-bench-$label-$r.log"
		log=$w/logs/serial-bench-$label-$r.log
		accel=$(cat "$log.accel")
		cp "$log" "$out/serial-$label-$r.log"
		tr -d '\r' <"$log" | awk -v l="$label" -v k="$k" -v r="$r" \
			'$1 == "BENCH" && NF == 4 { print l "," k "," r "," $2 "," $3 "," $4 }' >>"$csv"
	done
done

# Every workload must have run cleanly and verified its data.
bad=$(awk -F, '($5 == "status" && $6 != "ok") || ($5 == "verify_errors" && $6 != 0)' "$csv")
[ -z "$bad" ] || die "workloads failed or lost data:
$bad" "see the serial logs in $out"

"$S/bench-report.sh" "$csv" "$out" "$accel" "$n" \
	"base = pinned + $base patch(es), series = pinned + $upto patch(es)"
