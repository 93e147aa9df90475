#!/bin/bash
# gitlab-ci-points.sh [TREE...]: the check-series jobs of .gitlab-ci.yml,
# one line per point of each tree's series (default: every tree of
# patches/ with a series, the newest first), tab-separated:
#   TREE  K  FROM  PATCH
# The job of point K runs make check-series FROM=FROM TO=K. FROM is K,
# except at a point after a fix of its own group (series-expect.txt): a
# test that comes after its fix (as linux-mm wants it) is run on the
# kernel before the fix only by a walk that holds the fix, so that job
# walks from the group's first fix up to K and gives point K the "K<"
# rows the whole walk gives it (docs/gitlab-ci.md).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
# shellcheck source=scripts/check-series-judge.sh
. "$(dirname "$0")/check-series-judge.sh"
if [ $# = 0 ]; then
	for d in $(cd "$TOP/patches" && ls -d -- */ | tr -d / | sort -Vr); do
		[ -f "$TOP/patches/$d/series" ] && [ -f "$TOP/patches/$d/tree.env" ] && set -- "$@" "$d"
	done
fi
for tree in "$@"; do
	[ -f "$TOP/patches/$tree/series" ] || die "no patches/$tree/series" "ls patches/"
	PATCHES=$TOP/patches/$tree PATCHES_SHOWN=patches/$tree
	series_load "$PATCHES/series"
	fixed_by=()
	expect_load "$PATCHES/series-expect.txt" "${SERIES[@]}"
	# The points that fix a test, once each.
	fixes=$(printf '%s\n' "${fixed_by[@]}" | sort -nu)
	for ((k = 1; k <= ${#SERIES[@]}; k++)); do
		p=${SERIES[$((k - 1))]} from=$k
		for f in $fixes; do
			[ "$f" -lt "$from" ] && [ "${SERIES[$((f - 1))]%%/*}" = "${p%%/*}" ] && from=$f
		done
		printf '%s\t%s\t%s\t%s\n' "$tree" "$k" "$from" "$p"
	done
done
