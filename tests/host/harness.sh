# shellcheck shell=bash
# The harness of the host tests (test-scripts.sh, test-bad-input.sh,
# test-gitlab-ci.sh):
# helpers for the cases and run_cases. A case is a function t_NAME that
# chains its checks with || return 1 (set -e does not apply inside an if
# condition) and prints "SKIP: why" when it cannot run. Sourced after the
# caller set T (its scratch directory).

# run CMD...: capture status and output into $rc and $out.
run() { out=$("$@" 2>&1) && rc=0 || rc=$?; }
fail() { printf '# %s\n' "$@"; printf '%s\n' "${out:-}" | sed 's/^/#   | /'; return 1; }
expect_rc() { [ "$rc" = "$1" ] || { [ "$1" = nonzero ] && [ "$rc" != 0 ]; } || fail "exit status $rc, expected $1"; }
expect_out() { printf '%s\n' "$out" | grep -qE -- "$1" || fail "output lacks /$1/"; }
# expect_no_out ERE [WHY]: no line of the output matches ERE (WHY: what
# such a line would mean). Silent when it holds.
expect_no_out() { ! printf '%s\n' "$out" | grep -qE -- "$1" || fail "${2:-output has /$1/}"; }

# run_cases [ERE]: every case (those whose name matches ERE) in a
# subshell, as TAP, then "N passed, N failed, N skipped"; fails if one did.
run_cases() {
	local cases c n pass=0 failn=0 skipn=0 i=0
	cases=$(declare -F | awk '$3 ~ /^t_/ { print $3 }')
	[ $# = 0 ] || cases=$(echo "$cases" | grep -E -- "$1") || { echo "no case matches $1" >&2; return 1; }
	n=$(echo "$cases" | wc -l)
	echo "TAP version 13"
	echo "1..$n"
	for c in $cases; do
		i=$((i + 1))
		if ($c) >"$T/case.out" 2>&1; then
			if grep -q '^SKIP: ' "$T/case.out"; then
				echo "ok $i ${c#t_} # SKIP $(sed -n 's/^SKIP: //p' "$T/case.out")"
				skipn=$((skipn + 1))
			else
				echo "ok $i ${c#t_}"
				pass=$((pass + 1))
			fi
		else
			echo "not ok $i ${c#t_}"
			cat "$T/case.out"
			failn=$((failn + 1))
		fi
	done
	echo "$pass passed, $failn failed, $skipn skipped"
	[ "$failn" = 0 ]
}
