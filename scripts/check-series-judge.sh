# shellcheck shell=bash
# check-series' judgement of a point's kselftest results against
# patches/TREE/series-expect.txt, which names the patch that fixes each
# feature test: before that patch the test must fail (the old behaviour),
# from it on pass. Sourced by check-series.sh after lib.sh; the host
# tests call these functions on their own.
#
# fixed_by[bin:test]: the 1-based point (patch index) of the test's fix.
# proven[bin:test]: set once the test failed on the kernel before its fix.
declare -A fixed_by=() proven=()

# expect_load FILE PATCH...: fixed_by[] from FILE's "bin:test<TAB>patch"
# lines, the patch found among PATCHes (the series, in order).
expect_load() {
	local file=$1 t p i
	shift
	[ -f "$file" ] || return 0
	while IFS=$'\t' read -r t p; do
		case $t in ''|'#'*) continue ;; esac
		fixed_by[$t]=0
		for ((i = 1; i <= $#; i++)); do
			[ "${!i}" = "$p" ] && fixed_by[$t]=$i
		done
		[ "${fixed_by[$t]}" != 0 ] ||
			die "$file: $t names '$p', which is not in $PATCHES_SHOWN/series"
	done <"$file"
}

# judge_point K RESULTS: a verdict per row of the results.tsv (bin, test,
# result, note) of the point with K patches applied, one line each:
#   CHECK<TAB>COLUMN<TAB>NOTE
# CHECK is ok or FAIL (or - for a skip, no check); COLUMN the count of
# "ksft p/f/s/xf" it adds to: p, f, s or x. A test before its fix (its
# fix after K) must fail: x, the old behaviour; a pass there is f. Known
# failures (xfail) are x too.
judge_point() {
	local k=$1 bin test res fix
	[ -f "$2" ] || return 0
	while IFS=$'\t' read -r bin test res _; do
		fix=${fixed_by[$bin:$test]:-0}
		if [ "$fix" -gt "$k" ]; then
			if [ "$res" = fail ]; then
				printf 'ok\tx\t%s\n' "$test fails: old behaviour (fixed by patch $fix)"
			else
				printf 'FAIL\tf\t%s\n' "$test: $res before its fix (patch $fix): does not show the old behaviour"
			fi
			continue
		fi
		case $res in
		pass|xpass) printf 'ok\tp\t%s\n' "$([ "$fix" != "$k" ] || echo "$test passes: fixed here")" ;;
		fail) printf 'FAIL\tf\t%s\n' "FAIL $bin:$test" ;;
		xfail) printf 'ok\tx\t\n' ;;
		skip) printf -- '-\ts\t\n' ;;
		esac
	done <"$2"
}

# before_fix_due K FROM RESULTS: the feature tests (bin:test) whose fix is
# at a point of FROM..K, that pass in the point's RESULTS and are not
# proven yet: each must also fail on the kernel of the point before its
# fix.
before_fix_due() {
	local key f
	for key in "${!fixed_by[@]}"; do
		f=${fixed_by[$key]}
		[ "$f" -ge "$2" ] && [ "$f" -le "$1" ] && [ -z "${proven[$key]:-}" ] || continue
		awk -F'\t' -v b="${key%%:*}" -v t="${key#*:}" '$1 == b && $2 == t && $3 == "pass" { ok = 1 } END { exit !ok }' \
			"$3" 2>/dev/null || continue
		echo "$key"
	done
}

# point_failed APPLY BUILD W1 CKPATCH BOOT KSFT: does this point's row
# (matrix.tsv's columns 3 to 8) fail the walk? A failed apply, build,
# checkpatch or boot, a warning W=1 added, no kselftest result, or a
# kselftest failure.
point_failed() {
	local v
	for v in "$1" "$2" "$4" "$5"; do [ "$v" != FAIL ] || return 0; done
	case $3 in +*) return 0 ;; esac
	case $6 in none|*/[1-9]*/*/*) return 0 ;; esac
	return 1
}

# matrix_row N PATCH APPLY BUILD W1 CKPATCH BOOT KSFT SECONDS NOTES: a
# line of check-series' matrix.txt (N "#": the header, whose SECONDS
# column says "time").
matrix_row() {
	local s=s
	[ "$1" != "#" ] || s=' '
	printf "%-3s %-92s %-7s %-6s %-6s %-7s %-5s %-16s %5s$s  %s\n" "$@"
}

# tap_ran_tests TAP-LOG: did the guest's first test binary get as far as
# its plan or a first result? (6.12's cgroup kselftests print no plan.)
tap_ran_tests() {
	grep -aqE '^# (1\.\.[0-9]|(not )?ok [0-9])' "$1" 2>/dev/null
}
