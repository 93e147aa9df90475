#!/bin/bash
# kcsan-judge.sh SERIES-LIST BASE-LIST...: judge a KCSAN run of the series
# against the same run on the unpatched tree, once or more (the lists
# results.sh --kcsan writes: one "f1 / f2" function pair a data-race
# report). A pair fails when one of its functions is one the series adds
# or changes (series_functions: the functions its hunks are in, and those
# it defines), or when no base run shows it; the others are the base's
# and are listed with their counts (the base's summed over its runs).
# Prints the table; exit 1 on a failing pair.
#   -h   this text
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
[ "${1:-}" != -h ] || { usage; exit 0; }
[ $# -ge 2 ] || die "usage: kcsan-judge.sh SERIES-LIST BASE-LIST..." "scripts/kcsan-judge.sh -h"
for f in "$@"; do [ -f "$f" ] || die "no KCSAN list $f" "make test KCONFIG=kcsan writes both"; done
series_load
funcs=$(series_functions "${SERIES[@]/#/$PATCHES/}")

# The file name tells the series' list from the base's (FNR == NR would
# take an empty first list's successor for it).
awk -v funcs="$funcs" -v mine="$1" -v runs=$(($# - 1)) '
	BEGIN { n = split(funcs, f, "\n"); for (i = 1; i <= n; i++) ours[f[i]] = 1 }
	FILENAME == mine { ser[$0]++; next }
	{ base[$0]++ }
	END {
		printf "%-64s %6s %6s  %s\n", "data race (function pair)", "series", "base", "verdict"
		for (p in base) all[p] = 1
		for (p in ser) all[p] = 1
		for (p in all) {
			v = "the base'"'"'s"
			split(p, fn, " / ")
			if ((fn[1] in ours) || (fn[2] in ours)) v = "FAIL: in a function of the series"
			else if ((p in ser) && !(p in base)) v = "FAIL: not in the base run"
			if (!(p in ser)) v = "the base'"'"'s (not seen with the series)"
			printf "%-64s %6d %6d  %s\n", p, ser[p], base[p], v
			if (v ~ /^FAIL/) bad++
		}
		printf "%d pair(s), %d failing; the base run %d time(s)\n", length(all), bad, runs
		exit bad > 0
	}' "$@"
