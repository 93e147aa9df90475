#!/bin/bash
# gitlab-ci-job.sh: one job of .gitlab-ci.yml. It runs the make command a
# user would and keeps what the report job needs in ci-results/ (the
# job's artifacts):
#   gitlab-ci-job.sh point TREE K
#       make check-series TREE=TREE FROM=F TO=K (F from gitlab-ci-points.sh);
#       ci-results/check-series/TREE/K/: matrix.tsv, matrix.txt, the
#       walk's points/ logs
#   gitlab-ci-job.sh run NAME MAKE-ARGS...
#       make MAKE-ARGS; ci-results/jobs/NAME/ (NAME's other characters
#       than letters, digits, . _ - made _): stage-times, results/, logs/
# Both keep make's output (output.log) and exit status (rc) there, and
# exit with make's status. GITLAB_CI_FAKE=1 runs tests/host/fake-make.sh
# instead of make: fixture results, no kernel (make gitlab-ci's dry run).
set -eu
. "$(dirname "$0")/lib.sh"
MAKE='make'
[ "${GITLAB_CI_FAKE:-0}" = 0 ] || MAKE=$TOP/tests/host/fake-make.sh
OUT=$TOP/ci-results

# keep DIR MAKE-ARGS...: run make with MAKE-ARGS in the checkout, its
# output to the log and DIR/output.log, its status in DIR/rc and $rc.
keep() {
	local dir=$1
	shift
	rm -rf "$dir" && mkdir -p "$dir"
	: >"$dir/started"
	say "job: $MAKE $*"
	rc=0
	(cd "$TOP" && set -o pipefail && "$MAKE" "$@" </dev/null 2>&1 | tee "$dir/output.log") || rc=$?
	echo "$rc" >"$dir/rc"
	say "job: make $1 exited $rc"
}

case ${1:-} in
point)
	[ $# = 3 ] || die "usage: gitlab-ci-job.sh point TREE K"
	tree=$2 k=$3
	line=$("$TOP/scripts/gitlab-ci-points.sh" "$tree" | awk -F'\t' -v k="$k" '$2 == k')
	[ -n "$line" ] || die "patches/$tree/series has no point $k" "make gitlab-ci-yml (the pipeline is out of date)"
	from=$(printf '%s\n' "$line" | cut -f3)
	dir=$OUT/check-series/$tree/$k
	keep "$dir" check-series TREE="$tree" FROM="$from" TO="$k"
	cw=$(walk_dir "$(work_dir "$tree")")
	# This walk's matrix: one a walk that stopped early did not write is
	# an older walk's.
	for f in matrix.tsv matrix.txt; do
		[ ! "$cw/$f" -nt "$dir/started" ] || cp "$cw/$f" "$dir/"
	done
	# This walk's points only (a work directory keeps older walks' too).
	mkdir -p "$dir/points"
	for ((i = from - 1; i <= k; i++)); do
		cp -a "$cw/points/$(printf %02d "$i")"-* "$dir/points/" 2>/dev/null || true
	done
	;;
run)
	[ $# -ge 3 ] || die "usage: gitlab-ci-job.sh run NAME MAKE-ARGS..."
	name=${2//[^A-Za-z0-9._-]/_}
	shift 2
	dir=$OUT/jobs/$name
	keep "$dir" "$@"
	# The tree the make command named (TREE=), else the environment's.
	tree=$TREE
	for a in "$@"; do case $a in TREE=*) tree=${a#TREE=} ;; esac; done
	work=$(work_dir "$tree")
	cp "$work/stage-times" "$dir/" 2>/dev/null || true
	for d in results logs; do
		[ ! -d "$work/$d" ] || cp -a "$work/$d" "$dir/"
	done
	;;
*) die "usage: gitlab-ci-job.sh point TREE K | run NAME MAKE-ARGS..." ;;
esac
exit "$rc"
