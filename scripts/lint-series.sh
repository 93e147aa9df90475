#!/bin/bash
# Series checks, per patch: a complete format-patch mail (From, Subject,
# changelog, Signed-off-by, diffstat), its origin and upstream status
# (DEP-3 fields, scripts/dep3.sh) and checkpatch.pl --strict from the
# tree, clean. Zero fuzz is enforced by apply-series.sh (quilt --fuzz=0),
# which must have run first. Prints TAP and a closing count line.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$TOP/scripts/dep3.sh"
[ -x "$KERNEL_SRC/scripts/checkpatch.pl" ] || die "no checkpatch.pl in $KERNEL_SRC" "make tree"
series_load
want=("${SERIES[@]}")
applied=0
[ -f "$KERNEL_SRC/.pc/applied-patches" ] && applied=$(wc -l <"$KERNEL_SRC/.pc/applied-patches")
[ "$applied" = ${#want[@]} ] ||
	die "only $applied of ${#want[@]} patches are applied to $KERNEL_SRC" "make series"

pass=0 fail=0 i=0
echo "TAP version 13"
kf=$PATCHES/known-flaky.txt
nkf=0
[ ! -f "$kf" ] || nkf=1
echo "1..$((${#want[@]} * 3 + nkf))"
for p in "${want[@]}"; do
	f=$PATCHES/$p
	why=
	grep -q '^From: .*<.*@.*>' "$f" || why="$why no From: line;"
	grep -q '^Subject: \[PATCH' "$f" || why="$why no 'Subject: [PATCH...' line;"
	grep -q '^Signed-off-by: .*<.*@.*>' "$f" || why="$why no Signed-off-by:;"
	whole=$(patch_whole "$f" | paste -sd';')
	[ -z "$whole" ] || why="$why $whole;"
	body=$(awk '/^$/ && !h { h = 1; next } h && /^---$/ { exit } h' "$f" | grep -vc '^\(Signed-off-by\|Cc\|Link\|[A-Z][a-z-]*-by\):' || true)
	[ "$body" -ge 3 ] || why="$why changelog shorter than 3 lines;"
	! awk '/^---$/ { exit } 1' "$f" | grep -qE 'MEASURED-RESULTS|TO BE MEASURED|TODO|XXX|FIXME' ||
		why="$why changelog has a placeholder (TO BE MEASURED/TODO/XXX/FIXME);"
	! awk '/^---$/ { exit } 1' "$f" | grep -qE '[A-Z]+-(RESULTS|LATER)|PLACEHOLDER' ||
		why="$why changelog has a placeholder (...-RESULTS, ...-LATER, PLACEHOLDER);"
	i=$((i + 1))
	if [ -z "$why" ]; then echo "ok $i $p: mail format"; pass=$((pass + 1))
	else echo "not ok $i $p: mail format:$why"; fail=$((fail + 1)); fi

	i=$((i + 1))
	why=$(dep3_problems "$f" | paste -sd';')
	if [ -z "$why" ]; then echo "ok $i $p: origin ($(dep3_status "$f"))"; pass=$((pass + 1))
	else echo "not ok $i $p: origin: $why"; fail=$((fail + 1)); fi

	i=$((i + 1))
	if out=$(checkpatch_strict "$KERNEL_SRC" "$f"); then
		echo "ok $i $p: checkpatch --strict"; pass=$((pass + 1))
	else
		echo "not ok $i $p: checkpatch --strict"
		printf '%s\n' "$out" | sed 's/^/# /'
		fail=$((fail + 1))
	fi
done
# known-flaky.txt's third field names the series patch that fixes a test
# (results.sh stops applying the entry once it is applied): one that is
# not in the series would never stop applying.
if [ $nkf = 1 ]; then
	i=$((i + 1))
	why=$(awk -F'\t' '!/^#/ && NF >= 3 { print $3 }' "$kf" |
		while read -r fx; do printf '%s\n' "${want[@]}" | grep -qxF "$fx" || echo "$fx"; done | sort -u | paste -sd' ')
	if [ -z "$why" ]; then echo "ok $i known-flaky.txt: fixing patches are in the series"; pass=$((pass + 1))
	else echo "not ok $i known-flaky.txt: not in $PATCHES_SHOWN/series: $why"; fail=$((fail + 1)); fi
fi
echo "$pass passed, $fail failed, 0 skipped"
[ $fail = 0 ]
