#!/bin/bash
# Run pipeline stages in order, timing each, and print a stage table at
# the end (also when a stage fails). Stages:
#   deps tree series config build initramfs kselftests host-tests lint
set -eu
. "$(dirname "$0")/lib.sh"
S=$TOP/scripts

stage() {
	case $1 in
	deps)       "$S/deps.sh" ;;
	tree)       "$S/fetch-tree.sh" ;;
	series)     "$S/apply-series.sh" ;;
	config)     "$S/make-config.sh" ;;
	build)      "$S/build.sh" ;;
	initramfs)  "$S/mkinitramfs.sh" ;;
	kselftests) "$S/qemu.sh" test ;;
	host-tests) local r=0; "$TOP/tests/host/test-scripts.sh" || r=1; "$TOP/tests/host/test-docs.sh" || r=1; return $r ;;
	lint)       local r=0; "$S/lint-shell.sh" || r=1; "$S/lint-series.sh" || r=1; return $r ;;
	*) die "unknown stage '$1'" ;;
	esac
}

mkwork
lock "$WORK/.lock" "make in $WORK"
: >"$WORK/stage-times"
export COUNTS=$WORK/stage-counts
: >"$COUNTS"
table() {
	echo
	echo "stage        seconds  result"
	awk -F'\t' '{ printf "%-12s %7d  %s\n", $1, $2, $3; t += $2 }
		END { printf "%-12s %7d\n", "total", t }' "$WORK/stage-times"
	[ -s "$COUNTS" ] || return 0
	awk -F'\t' '{ p += $2; f += $3; s += $4 }
		END { printf "total: %d passed, %d failed, %d skipped\n", p, f, s }' "$COUNTS"
}
trap table EXIT
for s in "$@"; do
	say "stage $s"
	timed "$s" stage "$s"
done
