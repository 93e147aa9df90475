#!/bin/bash
# Run pipeline stages in order, timing each, and print a stage table at
# the end (also when a stage fails). Stages:
#   deps tree series config build initramfs kselftests host-tests lint
#   kcsan-ab (make test KCONFIG=kcsan: the unpatched run, then the judge)
# and the guests that make soak, make fuzz and make vm boot: every stage
# runs under the work lock, so no make in the same WORK rebuilds the
# kernel or the initramfs under a running guest.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-guest.sh"
check_settings	# the guest's settings: a typo stops before any stage runs
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
	host-tests) local r=0 t; for t in "$TOP"/tests/host/test-*.sh; do "$t" || r=1; done; return $r ;;
	lint)       local r=0; "$S/lint-shell.sh" || r=1; "$S/lint-series.sh" || r=1; return $r ;;
	soak)       TESTS=guest/soak VM_TIMEOUT=${VM_TIMEOUT:-3600} \
			APPEND="${APPEND:-} ksft.timeout=3000 ksft.soak=${SOAK_ARGS:--d,600,-m,24}" "$S/qemu.sh" test ;;
	fuzz)       "$S/fuzz.sh" ;;
	vm)         [ -z "${ROOTFS:-}" ] || "$S/mkrootfs.sh"; "$S/qemu.sh" shell ;;
	kcsan-ab)   "$S/kcsan-ab.sh" ;;
	*) die "unknown stage '$1'" ;;
	esac
}

mkwork
lock "$WORK/.lock" "make in $WORK"
: >"$WORK/stage-times"
# Each stage's output is kept in $WORK/stage-out/STAGE.log as well. The
# checks of a stage close with "N passed, M failed, K skipped" lines,
# which the table adds up: nothing passes between the scripts but that.
outs=$WORK/stage-out
rm -rf "$outs" && mkdir -p "$outs"
rm -f "$WORK/stage-counts"	# the old side channel's file
run_stage() {
	# make vm's console is the terminal's, not a pipe's.
	[ "$1" != vm ] || { stage vm; return; }
	set -o pipefail
	stage "$1" | tee "$outs/$1.log"
}
table() {
	echo
	echo "stage        seconds  result"
	awk -F'\t' '{ printf "%-12s %7d  %s\n", $1, $2, $3; t += $2 }
		END { printf "%-12s %7d\n", "total", t }' "$WORK/stage-times"
	cat "$outs"/*.log 2>/dev/null |
		awk '/^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { p += $1; f += $3; s += $5; n++ }
			END { if (n) printf "total: %d passed, %d failed, %d skipped\n", p, f, s }'
}
trap table EXIT
for s in "$@"; do
	say "stage $s"
	timed "$s" run_stage "$s"
done
