#!/bin/bash
# kcsan-judge.sh SERIES-LIST BASE-LIST: judge a KCSAN run of the series
# against the same run on the unpatched tree (the lists results.sh
# --kcsan writes: one "f1 / f2" function pair a data-race report).
# A pair fails when one of its functions is one the series adds or
# changes (series_functions: the functions its hunks are in, and those it
# defines), or when the base run does not show it; the others are the
# base's and are listed with their counts. Prints the table; exit 1 on a
# failing pair.
#   -h   this text
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
[ "${1:-}" != -h ] || { usage; exit 0; }
[ $# = 2 ] || die "usage: kcsan-judge.sh SERIES-LIST BASE-LIST" "scripts/kcsan-judge.sh -h"
for f in "$@"; do [ -f "$f" ] || die "no KCSAN list $f" "make test KCONFIG=kcsan writes both"; done
series_load
funcs=$(series_functions "${SERIES[@]/#/$PATCHES/}")

awk -v funcs="$funcs" '
	BEGIN { n = split(funcs, f, "\n"); for (i = 1; i <= n; i++) ours[f[i]] = 1 }
	FNR == NR { base[$0]++; next }
	{ ser[$0]++ }
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
		printf "%d pair(s), %d failing\n", length(all), bad
		exit bad > 0
	}' "$2" "$1"
