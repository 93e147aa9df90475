#!/bin/bash
# fake-make.sh TARGET... [VAR=VALUE...]: stands in for make in the jobs of
# .gitlab-ci.yml when GITLAB_CI_FAKE=1 (make gitlab-ci's dry run, and the
# host tests): it builds and boots nothing, and writes what the real
# target would leave in WORK for the job to keep, in the same formats:
#   check-series  $WORK/check-series/matrix.tsv and matrix.txt, one row
#                 per point FROM..TO (a "K<" row at a point after its
#                 group's fix), and points/NN-NAME/ with a log each
#   anything else $WORK/stage-times, results/fake.tsv, logs/fake.log
# It prints a stage table's closing count line. FAKE_FAIL=TREE/K fails
# that point's kselftests (and make check-series, with exit status 2, as
# make's); FAKE_FAIL=TARGET fails that target.
set -eu
targets=()
for a in "$@"; do
	case $a in
	*=*) export "${a?}" ;;
	*) targets+=("$a") ;;
	esac
done
. "$(dirname "$0")/../../scripts/lib.sh"
mkwork
rc=0
for t in "${targets[@]}"; do
	say "stage $t (fake: nothing is built or booted)"
	if [ "$t" != check-series ]; then
		res=$(results_tsv fake)
		mkdir -p "$(dirname "$res")" "$LOGS"
		if [ "${FAKE_FAIL:-}" = "$t" ]; then
			printf '%s\t1\tFAILED\n' "$t" >>"$WORK/stage-times"
			printf 'fake\t%s\tfail\t\n' "$t" >"$res"
			echo "0 passed, 1 failed, 0 skipped"
			rc=2
		else
			printf '%s\t1\tok\n' "$t" >>"$WORK/stage-times"
			printf 'fake\t%s\tpass\t\n' "$t" >"$res"
			echo "1 passed, 0 failed, 0 skipped"
		fi
		echo "fake $t ${KCONFIG:-default} ${SWAP:-disk}" >"$LOGS/fake.log"
		continue
	fi
	cw=$(walk_dir)
	mkdir -p "$cw/points"
	: >"$cw/matrix.tsv"
	: >"$cw/matrix.txt"
	"$TOP/scripts/gitlab-ci-points.sh" "$TREE" | while IFS=$'\t' read -r _ k from p; do
		[ "$k" -ge "$FROM" ] && [ "$k" -le "$TO" ] || continue
		ksft=30/0/0/0
		[ "${FAKE_FAIL:-}" != "$TREE/$k" ] || ksft=29/1/0/0
		mkdir -p "$cw/points/$(printf %02d "$k")-$(basename "$p" .patch)"
		echo "fake point $k" >"$cw/points/$(printf %02d "$k")-$(basename "$p" .patch)/prepare.log"
		printf '%s\t%s\tok\tok\tn/a\tok\tok\t%s\t1\n' "$k" "$p" "$ksft" >>"$cw/matrix.tsv"
		[ "$from" = "$k" ] || [ "$FROM" -gt "$from" ] ||
			printf '%s<\ttest_fake on point %s\t-\t-\t-\t-\t-\t0/0/0/1\t1\n' "$k" $((from - 1)) >>"$cw/matrix.tsv"
		printf '%s %s (fake)\n' "$k" "$p" >>"$cw/matrix.txt"
	done
	echo "matrix: $cw/matrix.txt"
	case ${FAKE_FAIL:-} in "$TREE"/*) [ "${FAKE_FAIL#*/}" -lt "$FROM" ] || [ "${FAKE_FAIL#*/}" -gt "$TO" ] || rc=2 ;; esac
done
exit $rc
