#!/bin/bash
# make bench: A/B the guest workloads on two points of the series, built
# from the pinned tree with the same config:
#   BENCH_BASE=K   base = pinned tree + the first K patches (default 0),
#                  or a name part of the last patch it takes
#                  (BENCH_BASE=readahead/: up to the readahead group's end)
#   BENCH_UPTO=K   the other side (default: the whole series), likewise
#   BENCH_VARIANT=NAME  the other side also takes patches/TREE/variants/
#                  NAME.patch (a disabled entry of the series: a build of
#                  an alternative design); BENCH_BASE may then equal
#                  BENCH_UPTO, to compare the variant with its point
#   BENCH_N=n      runs per kernel, alternating kernels (default 3; 5 when
#                  a workload of tests/bench/debian.list is asked for)
#   BENCH_WORKLOADS=a,b   workloads of tests/bench/workloads.list (booted
#                  with the test initramfs; all of them by default) or of
#                  tests/bench/debian.list (booted on the Debian root file
#                  system: the build workloads, only when named)
# Every run is kept by tree and point in $WORK_ROOT/bench-runs/$TREE/
# p<K>-<hash>/<workload>/<run>.csv, the hash over the pin, the diffs of
# the first K patches (not their changelogs), the kernel's .config, the
# workload's own line and programs and the guest's settings: a
# later make bench with either point boots only for the runs it lacks, and
# neither a changelog edit nor a new workload orphans the runs kept.
# The full series is the regular tree in $WORK; other points get their own
# WORK ($WORK/bench/pK), so nothing is rebuilt when switching.
# The report (CSV, text tables with noise marks, a PNG per workload) goes
# to $WORK/bench/results-<time>/ (or BENCH_OUT).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-guest.sh"
check_settings
S=$TOP/scripts
[ "$PINNED" = 1 ] || die "make bench compares points of the series on the pinned tree; unset KERNEL_SRC"

series_load
all=("${SERIES[@]}")
total=${#all[@]}
# A point (into $point): a number of patches, or the last patch matching
# a name part.
point() {
	case $2 in ''|*[!0-9]*) ;; *) point=$2; return ;; esac
	point=$(series_point "$2" last) ||
		die "$1=$2: no patch in $PATCHES_SHOWN/series matches" "grep -v '^#' $PATCHES_SHOWN/series"
}
point BENCH_BASE "${BENCH_BASE:-0}"; base=$point
point BENCH_UPTO "${BENCH_UPTO:-$total}"; upto=$point
variant=${BENCH_VARIANT:-}
if [ -n "$variant" ]; then
	[ -f "$PATCHES/variants/$variant.patch" ] ||
		die "BENCH_VARIANT=$variant: no $PATCHES_SHOWN/variants/$variant.patch" "ls $PATCHES_SHOWN/variants/"
	[ "$base" -ge 0 ] && [ "$upto" -le "$total" ] && [ "$base" -le "$upto" ] ||
		die "need 0 <= BENCH_BASE ($base) <= BENCH_UPTO ($upto) <= $total patches"
else
	[ "$base" -ge 0 ] && [ "$upto" -le "$total" ] && [ "$base" -lt "$upto" ] ||
		die "need 0 <= BENCH_BASE ($base) < BENCH_UPTO ($upto) <= $total patches"
fi

# The workloads asked for, by boot medium.
names() { awk '!/^[[:space:]]*(#|$)/ { print $1 }' "$1"; }
ram=() deb=()
if [ -z "${BENCH_WORKLOADS:-}" ]; then
	mapfile -t ram < <(names "$TOP/tests/bench/workloads.list")
else
	for w in ${BENCH_WORKLOADS//,/ }; do
		if names "$TOP/tests/bench/workloads.list" | grep -qx -- "$w"; then ram+=("$w")
		elif names "$TOP/tests/bench/debian.list" | grep -qx -- "$w"; then deb+=("$w")
		else die "BENCH_WORKLOADS: no workload '$w'" \
			"one of: $(names "$TOP/tests/bench/workloads.list" | paste -sd' ') $(names "$TOP/tests/bench/debian.list" | paste -sd' ')"
		fi
	done
fi
n=${BENCH_N:-$([ ${#deb[@]} = 0 ] && echo 3 || echo 5)}
case $n in ''|*[!0-9]*|0) die "BENCH_N=$n: expected a number of runs >= 1" ;; esac
out=${BENCH_OUT:-$(bench_dir)/results-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"

# The two sides: b (base) and u (the other), each a point and, for u,
# the variant's patch on top of it.
declare -A K=([b]=$base [u]=$upto) X=([b]="" [u]=${variant:+variants/$variant.patch})
side_id() { echo "p${K[$1]}${X[$1]:+-$variant}"; }
point_work() {
	if [ "${K[$1]}" = "$total" ] && [ -z "${X[$1]}" ]; then echo "$WORK"
	else echo "$(bench_dir)/$(side_id "$1")"; fi
}
point_label() { if [ "$1" = b ]; then echo base; else echo series; fi; }
point_desc() { echo "pinned + ${K[$1]} patch(es)${X[$1]:+ + ${X[$1]}}"; }

# The sources of the bench programs workload WL runs (/tests/bin/NAME in
# its command: tests/bench/NAME.c), so that a new program keeps the runs.
workload_sources() {
	awk -v w="$1" '$1 == w' "$TOP"/tests/bench/*.list | { grep -o '/tests/bin/[A-Za-z0-9_-]*' || true; } |
		sort -u | while read -r b; do
			[ ! -f "$TOP/tests/bench/${b##*/}.c" ] || echo "$TOP/tests/bench/${b##*/}.c"
		done
}

# point_runs SIDE WL: where the runs of workload WL on a side are kept.
point_runs() {
	local h src
	mapfile -t src < <(workload_sources "$2")
	h=$({ echo "$PIN_PKG $PIN_VERSION $KCONFIG ${VM_MEM:-1024} ${VM_CPUS:-2} ${SWAP_MB:-1024} ${SWAP_BPS:-} ${APPEND:-}"
		[ "${SWAP:-disk}" = disk ] || echo "swap=$SWAP"
		for p in "${all[@]:0:${K[$1]}}" ${X[$1]}; do sed -n '/^diff --git /,$p' "$PATCHES/$p"; done
		awk -v w="$2" '$1 == w' "$TOP"/tests/bench/*.list
		cat "$(build_dir "$(point_work "$1")")/.config" "${src[@]}" "$TOP"/tests/lib/*.h \
			"$TOP"/tests/guest/bench-run "$TOP"/tests/guest/build-workload "$TOP"/tests/guest/zram-swap
	} | sha1sum | cut -c1-10)
	echo "$WORK_ROOT/bench-runs/$TREE/$(side_id "$1")-$h/$2"
}

# Bring the kernel of a side up to date (tree, first K patches and the
# variant, config, build, initramfs) with the normal pipeline.
prepare() {
	local w
	w=$(point_work "$1")
	say "bench: preparing the kernel with $(point_desc "$1") (WORK=$w)"
	env WORK="$w" SERIES_UPTO="${K[$1]}" SERIES_EXTRA="${X[$1]}" \
		"$S/pipeline.sh" tree series config build initramfs
}
# One bench at a time per WORK: the points' work directories and the
# report directory are its own. Each boot holds its point's work lock.
mkwork
lock "$WORK/.bench-lock" "make bench in $WORK"
prepare b
prepare u
[ ${#deb[@]} = 0 ] || ROOTFS_BENCH=1 "$S/mkrootfs.sh"

# boot SIDE R MEDIUM WORKLOAD...: one guest on a side's kernel running
# the workloads; each one's lines kept as run R of that side.
boot() {
	local k=$1 r=$2 medium=$3 w name log rd bad rootfs=()
	shift 3
	[ "$medium" != debian ] || rootfs=(ROOTFS=debian)
	w=$(point_work "$k")
	name=bench-$(side_id "$k")-$r-$medium
	log=$(serial_log "$name" "$w")
	say "bench: run $r/$n of $(point_desc "$k") ($(point_label "$k")), $medium: $*"
	(lock "$w/.lock" "make in $w" 8
		env WORK="$w" BENCH_WORKLOADS="$(IFS=,; echo "$*")" \
			"${rootfs[@]}" "$S/qemu.sh" bench --name "$name") ||
		die "bench guest run failed ($(point_desc "$k"), run $r)" "see $log"
	for wl in "$@"; do
		rd=$(point_runs "$k" "$wl")
		bad=$(tr -d '\r' <"$log" | awk -v wl="$wl" '$1 == "BENCH" && $2 == wl &&
			(($3 == "status" && $4 != "ok") || ($3 == "verify_errors" && $4 != 0)) { print $3 "=" $4 }')
		[ -z "$bad" ] || die "workload $wl failed or lost data on $(point_desc "$k"), run $r: $bad" "see $log"
		mkdir -p "$rd"
		tr -d '\r' <"$log" | awk -v wl="$wl" -v a="$(cat "$log.accel")" '$1 == "BENCH" && $2 == wl && NF == 4 { print $3 "," $4 }
			END { print "accel," a }' >"$rd/$r.csv.tmp"
		grep -q '^status,ok$' "$rd/$r.csv.tmp" || die "workload $wl printed no status on $(point_desc "$k"), run $r" "see $log"
		mv "$rd/$r.csv.tmp" "$rd/$r.csv"
		cp "$log" "$rd/$r.serial.log"
	done
}

# The runs each side lacks, alternating kernels run by run.
for ((r = 1; r <= n; r++)); do
	for k in b u; do
		for medium in initramfs debian; do
			if [ $medium = initramfs ]; then set -- "${ram[@]}"; else set -- "${deb[@]}"; fi
			todo=()
			for wl in "$@"; do [ -f "$(point_runs "$k" "$wl")/$r.csv" ] || todo+=("$wl"); done
			[ ${#todo[@]} = 0 ] || boot "$k" "$r" "$medium" "${todo[@]}"
		done
	done
done

# The report's CSV from the kept runs 1..n of both points.
csv=$out/results.csv
echo "kernel,patches,run,workload,metric,value" >"$csv"
accel=
for k in b u; do
	for wl in "${ram[@]}" "${deb[@]}"; do
		rd=$(point_runs "$k" "$wl")
		echo "$(point_label "$k") ($(point_desc "$k")), $wl: $rd" >>"$out/runs.txt"
		for ((r = 1; r <= n; r++)); do
			awk -F, -v l="$(point_label "$k")" -v k="$(side_id "$k")" -v r="$r" -v wl="$wl" \
				'$1 != "accel" { print l "," k "," r "," wl "," $1 "," $2 }' "$rd/$r.csv" >>"$csv"
			accel=$(awk -F, '$1 == "accel" { print $2 }' "$rd/$r.csv")
		done
	done
done

"$S/bench-report.sh" "$csv" "$out" "$accel" "$n" \
	"base = $(point_desc b), series = $(point_desc u)"
