#!/bin/bash
# gitlab-ci-report.sh [--all] DIR: the report job of .gitlab-ci.yml. DIR
# holds the other jobs' artifacts (gitlab-ci-job.sh): DIR/check-series/
# TREE/K/ of each point's job, DIR/jobs/NAME/ of the others. It merges
# the points' matrix.tsv rows (point K and its "K<" rows from the job of
# point K; a job that walked from an earlier point has their rows too,
# which their own jobs give) into one table per tree in check-series'
# matrix.txt format, then a line per other job, and a verdict. With
# --all every point of every tree's series must have its result (the
# whole pipeline); without, the points whose jobs ran (a slice).
# Writes DIR/report/matrix.txt and DIR/report/matrix-TREE.tsv (the rows
# in check-series' matrix.tsv format); exits 1 unless the verdict is PASS.
set -eu
. "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/check-series-judge.sh
. "$(dirname "$0")/check-series-judge.sh"
all=0
[ "${1:-}" != --all ] || { all=1; shift; }
[ $# = 1 ] || die "usage: gitlab-ci-report.sh [--all] DIR"
IN=${1%/}
[ -d "$IN" ] || die "no directory $IN (the jobs' artifacts)" "run the jobs first: make gitlab-ci JOBS=..."
OUT=$IN/report
rm -rf "$OUT" && mkdir -p "$OUT"
txt=$OUT/matrix.txt
: >"$txt"

# check-series' row of matrix.txt.
row() { matrix_row "$@" | tee -a "$txt"; }
# bad_row N APPLY BUILD W1 CKPATCH BOOT KSFT: does check-series count
# row N as failed? A point's row as check-series judges it; a "K<" row
# (a test on the kernel before its fix) fails with "-" in its ksft
# column, where check-series writes it when the test did not fail there.
bad_row() {
	case $1:$7 in *'<:-') return 0 ;; esac
	shift
	point_failed "$@"
}

pass=0 failn=0 failed=()
points=$("$TOP/scripts/gitlab-ci-points.sh")
trees=$(printf '%s\n' "$points" | cut -f1 | awk '!seen[$0]++')
for tree in $trees; do
	d=$IN/check-series/$tree
	tsv=$OUT/matrix-$tree.tsv
	: >"$tsv"
	# The points to report: all of the series, or those whose job ran.
	want=$(printf '%s\n' "$points" | awk -F'\t' -v t="$tree" '$1 == t { print $2 }')
	[ $all = 1 ] || want=$(for k in $want; do [ ! -d "$d/$k" ] || echo "$k"; done)
	[ -n "$want" ] || continue
	echo "==> $tree: $(echo "$want" | wc -w) of $(printf '%s\n' "$points" | awk -F'\t' -v t="$tree" '$1 == t' | wc -l) points (patches/$tree/series)" | tee -a "$txt"
	row "#" patch apply build W=1 ckpatch boot "ksft p/f/s/xf" time notes
	for k in $want; do
		p=$(printf '%s\n' "$points" | awk -F'\t' -v t="$tree" -v k="$k" '$1 == t && $2 == k { print $4 }')
		rc=$(cat "$d/$k/rc" 2>/dev/null || echo none)
		rows=$(awk -F'\t' -v k="$k" '$1 == k || $1 == k "<"' "$d/$k/matrix.tsv" 2>/dev/null || true)
		if ! printf '%s\n' "$rows" | grep -q "^$k	"; then
			why="no result: the job of this point did not run or wrote no matrix"
			[ "$rc" = none ] || why="no row for point $k (check-series exited $rc): see $d/$k/output.log"
			row "$k" "$p" - - - - - none 0 "$why"
			printf '%s\t%s\t-\t-\t-\t-\t-\tnone\t0\n' "$k" "$p" >>"$tsv"
			failn=$((failn + 1)) failed+=("$tree/$k")
			continue
		fi
		bad_point=0
		while IFS=$'\t' read -r n name apply build w1 ck boot ksft dt; do
			printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$name" "$apply" "$build" "$w1" "$ck" "$boot" "$ksft" "$dt" >>"$tsv"
			note=
			if bad_row "$n" "$apply" "$build" "$w1" "$ck" "$boot" "$ksft"; then
				bad_point=1 failn=$((failn + 1)) failed+=("$tree/$n")
				note="FAILED: see $d/$k/ (output.log, points/)"
			else
				pass=$((pass + 1))
			fi
			case $n in
			*'<') [ -n "$note" ] || note="fails on the kernel before its fix (point ${name##* }): old behaviour"
			      name="  ${name% on point *} on the kernel of point ${name##* }" ;;
			esac
			row "$n" "$name" "$apply" "$build" "$w1" "$ck" "$boot" "$ksft" "$dt" "$note"
		done <<<"$rows"
		# A failure check-series gives no row for (a before-fix kernel
		# that did not build) fails the job all the same.
		if [ "$rc" != 0 ] && [ $bad_point = 0 ]; then
			echo "    point $k: check-series exited $rc though its rows passed: see $d/$k/output.log" | tee -a "$txt"
			failn=$((failn + 1)) failed+=("$tree/$k")
		fi
	done
	echo | tee -a "$txt"
done

# The other jobs: exit status and the closing count line of their output.
if [ -d "$IN/jobs" ]; then
	echo "==> jobs" | tee -a "$txt"
	printf '%-40s %-4s %s\n' job rc "last count line" | tee -a "$txt"
	for j in "$IN"/jobs/*/; do
		j=${j%/}
		rc=$(cat "$j/rc" 2>/dev/null || echo none)
		counts=$(grep -E '^(total: )?[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$j/output.log" 2>/dev/null | tail -1 || true)
		printf '%-40s %-4s %s\n' "$(basename "$j")" "$rc" "${counts:--}" | tee -a "$txt"
		if [ "$rc" = 0 ]; then pass=$((pass + 1)); else failn=$((failn + 1)) failed+=("jobs/$(basename "$j")"); fi
	done
	echo | tee -a "$txt"
fi

[ $((pass + failn)) -gt 0 ] || die "no job results in $IN" "run the jobs first: make gitlab-ci JOBS=..."
if [ $failn = 0 ]; then
	echo "verdict: PASS" | tee -a "$txt"
else
	echo "verdict: FAIL: ${failed[*]}" | tee -a "$txt"
fi
echo "report: $txt"
echo "$pass passed, $failn failed, 0 skipped" | tee -a "$txt"
[ $failn = 0 ]
