#!/bin/bash
# make check-series: walk the stack from the base to the top, one patch at
# a time, in a work directory of its own ($WORK/check-series: its own tree
# and build dir, sharing ccache with the main one). At every point:
#   apply    the patch pushed by quilt at fuzz 0 (or "offsets")
#   build    incremental kernel build, the selftests, the guest programs
#   W=1      the kernel .c files the patch touches, compiled with W=1 before
#            and after it: any warning the patch adds fails the point
#   ckpatch  scripts/checkpatch.pl --strict on the patch mail
#   boot     the guest reached the end of its run with no kernel report
#   ksft     the tree's kselftests of tests/kselftests.list (CHECK_TESTS=
#            overrides) passed/failed/skipped; patches/TREE/series-expect.txt names
#            the patch that fixes each feature test: before it, the test
#            must fail (the old behaviour, shown as "xf"), from it on pass.
#            A test that comes after its fix (as linux-mm wants it) is
#            also run, at the point that adds it, on the kernel of the
#            point before its fix: a row "k<" that must show it failing.
# FROM= and TO= limit the walk: a 1-based index, or a string matching a
# patch name (FROM: first match, TO: last match), e.g. FROM=writeback-off/
# TO=writeback-off/ for one group. The point before FROM is built, not
# booted. The "k<" rows are for the tests whose fix is in the walk: a
# test fixed before FROM was proven by the walk of its own group, and its
# before-fix kernel would be a build of its own (a cold one after a
# header change). Each point's logs are kept in $WORK/check-series/points/.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-guest.sh"
. "$(dirname "$0")/lib-build.sh"
check_settings
# shellcheck source=scripts/check-series-judge.sh
. "$(dirname "$0")/check-series-judge.sh"
[ "$PINNED" = 1 ] || die "check-series walks the series on the pinned tree; unset KERNEL_SRC"
S=$TOP/scripts
CW=$(walk_dir)
EXPECT=${SERIES_EXPECT:-$TREE_DIR/series-expect.txt}
series_load
all=("${SERIES[@]}")
n=${#all[@]}
[ "$n" -gt 0 ] || die "$PATCHES_SHOWN/series is empty: nothing to walk"

# index SPEC first|last: a 1-based point number from a number or a name.
index() {
	case $1 in
	''|*[!0-9]*) ;;
	*) [ "$1" -ge 1 ] && [ "$1" -le "$n" ] || die "no patch number $1 (1..$n)"
	   echo "$1"; return ;;
	esac
	series_point "$1" "$2" ||
		die "no patch in $PATCHES_SHOWN/series matches '$1'" "see: grep -v '^#' $PATCHES_SHOWN/series"
}
from=1 to=$n
[ -z "${FROM:-}" ] || from=$(index "$FROM" first)
[ -z "${TO:-}" ] || to=$(index "$TO" last)
[ "$from" -le "$to" ] || die "FROM ($from) comes after TO ($to)"

# Patch index (1-based) that makes each expected test pass.
expect_load "$EXPECT" "${all[@]}"

# The kselftests of the tree (not the project's guest/ tests, which do not
# change along the series); CHECK_TESTS=a,b overrides.
tests=$(tests_named "${CHECK_TESTS:-$(test_list | grep -v '^guest/' | paste -sd,)}")

mkdir -p "$CW/points"
lock "$CW/.walk-lock" "check-series in $CW"
matrix=$CW/matrix.txt
: >"$matrix"
tsv=$CW/matrix.tsv
: >"$tsv"
checks_pass=0 checks_fail=0
t_walk=$(date +%s)

# Run in the check-series work dir: own tree, build dir (a BUILD= of
# the caller's is not the walk's) and lock.
cw() { env -u BUILD WORK="$CW" "$@"; }
tree=$(pinned_tree "$CW")

# guest_run NAME OUT VAR=VALUE...: a kselftest boot (qemu.sh test with the
# settings given). A guest whose first test binary never printed its plan
# or a result (it died or hung while booting) gave no verdict on the kernel: its
# console's tail is shown and it is booted once more; the first attempt
# stays in OUT.try1 and OUT.try1.serial.
guest_run() {
	local name=$1 out=$2 slog
	slog=$(serial_log "$1" "$CW")
	shift 2
	cw "$@" "$S/qemu.sh" test --name "$name" >"$out" 2>&1 || true
	tap_ran_tests "$(tap_log "$name" "$CW")" && return 0
	warn "guest $name ran no test (its console's tail below): booting it once more"
	tail -20 "$slog" 2>/dev/null | sed 's/^/    | /' >&2
	mv "$out" "$out.try1"
	cp "$slog" "$out.try1.serial" 2>/dev/null || true
	rm -f "$(results_tsv "$name" "$CW")"
	cw "$@" "$S/qemu.sh" test --name "$name" >"$out" 2>&1 || true
}

# prepare K: the tree and build at point K (K patches), quietly logged.
prepare() {
	cw SERIES_UPTO="$1" "$S/pipeline.sh" tree series config build initramfs
}

# Kernel .c files a patch touches (tools/ excluded: not kbuild objects).
touched_c() {
	sed -n 's|^+++ b/\(.*\.c\)$|\1|p' "$1" | grep -v '^tools/' || true
}

# w1 OUT FILE...: compile FILEs with W=1; warnings (line numbers dropped)
# for each file go to OUT.
w1() {
	local out=$1 f
	shift
	: >"$out"
	for f in "$@"; do
		[ -f "$tree/$f" ] || continue
		(KERNEL_SRC=$tree BUILD=$(build_dir "$CW"); kmake W=1 "${f%.c}.o") 2>&1 |
			grep -E 'warning:' | sed -E 's/:[0-9]+:[0-9]+:/:/' | sort -u >>"$out" || true
	done
}

row() { matrix_row "$@" | tee -a "$matrix"; }
check() { if [ "$1" = ok ]; then checks_pass=$((checks_pass + 1)); else checks_fail=$((checks_fail + 1)); fi; }

say "check-series: points $from..$to of $n (work dir $CW)"
early=0
for key in "${!fixed_by[@]}"; do [ "${fixed_by[$key]}" -ge "$from" ] || early=$((early + 1)); done
[ "$early" = 0 ] || say "  $early feature test(s) fixed before point $from: not run on their before-fix kernels (make check-series FROM=<their fix> does)"
prev=$((from - 1))
say "preparing the starting point: $prev patch(es)"
t0=$(date +%s)
log=$CW/points/$(printf %02d "$prev")-start.log
if ! prepare "$prev" >"$log" 2>&1; then
	tail -20 "$log" >&2
	die "could not build the starting point ($prev patches; log: $log)" "make series build"
fi
# The bzImage of every point built in this walk, for the before-fix runs.
KDIR=$CW/kernels
rm -rf "$KDIR" "$CW"/results/check-series-*-before-*
mkdir -p "$KDIR"
save_kernel() { cp "$(build_dir "$CW")/arch/x86/boot/bzImage" "$KDIR/$(printf %02d "$1").bzImage"; }
save_kernel "$prev"
row "#" patch apply build W=1 ckpatch boot "ksft p/f/s/xf" time notes
row "$prev" "$([ "$prev" = 0 ] && echo '(base)' || echo "${all[$((prev - 1))]}")" - built - - - - \
	"$(($(date +%s) - t0))" "starting point, built only"

failed_points=()
for ((k = from; k <= to; k++)); do
	p=${all[$((k - 1))]}
	pdir=$CW/points/$(printf %02d "$k")-$(basename "$p" .patch)
	rm -rf "$pdir"
	mkdir -p "$pdir"
	t0=$(date +%s)
	say "[$k/$n] $p"
	notes=() apply=- build=- wnew=- ck=- boot=- ksft=-
	mapfile -t cfiles < <(touched_c "$PATCHES/$p")
	[ ${#cfiles[@]} = 0 ] || w1 "$pdir/w1-before.txt" "${cfiles[@]}"

	if prepare "$k" >"$pdir/prepare.log" 2>&1; then
		apply=ok build=ok
		save_kernel "$k"
		grep -q 'offset' "$pdir/prepare.log" && apply=offsets
	else
		if grep -q 'series: FAILED' "$pdir/prepare.log"; then apply=FAIL; else apply=ok build=FAIL; fi
		grep -E '^error:|^  next:|FAILED|Hunk' "$pdir/prepare.log" | head -5 | sed 's/^/    /' >&2
		notes+=("see $pdir/prepare.log")
	fi
	check "$([ "$apply" = FAIL ] && echo FAIL || echo ok)"
	[ "$apply" = FAIL ] || check "$build"

	if [ "$build" = ok ]; then
		if [ ${#cfiles[@]} = 0 ]; then
			wnew="n/a"
		else
			w1 "$pdir/w1-after.txt" "${cfiles[@]}"
			comm -13 "$pdir/w1-before.txt" "$pdir/w1-after.txt" >"$pdir/w1-new.txt"
			if [ -s "$pdir/w1-new.txt" ]; then
				wnew="+$(wc -l <"$pdir/w1-new.txt")"
				notes+=("new W=1 warnings: $pdir/w1-new.txt")
				sed 's/^/    /' "$pdir/w1-new.txt" >&2
				check FAIL
			else
				wnew=0
				check ok
			fi
		fi
	fi

	if checkpatch_strict "$tree" "$PATCHES/$p" >"$pdir/checkpatch.txt"; then
		ck=ok
	else
		ck=FAIL
		notes+=("checkpatch: $pdir/checkpatch.txt")
	fi
	check "$ck"

	if [ "$build" = ok ]; then
		name=check-series-$(printf %02d "$k")
		guest_run "$name" "$pdir/kselftests.txt" TESTS="$tests"
		slog=$(serial_log "$name" "$CW")
		cp "$slog" "$pdir/serial.log" 2>/dev/null || true
		cp "$(tap_log "$name" "$CW")" "$pdir/tap.log" 2>/dev/null || true
		res=$(results_tsv "$name" "$CW")
		if grep -q '<<< ksft-guest-done >>>' "$slog" 2>/dev/null &&
		   ! grep -q $'^kernel\t' "$res" 2>/dev/null; then
			boot=ok
		else
			boot=FAIL
			notes+=("guest: $pdir/kselftests.txt")
		fi
		check "$boot"
		# Feature tests before their fix must fail: that is the old
		# behaviour, "xf". Known failures of the base also count as xf.
		kp=0 kf=0 ks=0 kx=0
		while IFS=$'\t' read -r verdict col note; do
			case $col in p) kp=$((kp + 1)) ;; f) kf=$((kf + 1)) ;; s) ks=$((ks + 1)) ;; x) kx=$((kx + 1)) ;; esac
			[ "$verdict" = - ] || check "$verdict"
			[ -z "$note" ] || notes+=("$note")
		done < <(judge_point "$k" "$res")
		ksft=$kp/$kf/$ks/$kx
		[ -s "$res" ] || { ksft=none; check FAIL; notes+=("no kselftest result"); }
		cp "$res" "$pdir/results.tsv" 2>/dev/null || true
	fi

	dt=$(($(date +%s) - t0))
	! point_failed "$apply" "$build" "$wnew" "$ck" "$boot" "$ksft" || failed_points+=("$k")
	row "$k" "$p" "$apply" "$build" "$wnew" "$ck" "$boot" "$ksft" "$dt" \
		"$(IFS=';'; echo "${notes[*]:-}" | sed 's/;/; /g')"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$p" "$apply" "$build" "$wnew" "$ck" \
		"$boot" "$ksft" "$dt" >>"$tsv"
	# Tests after their fix, passing here for the first time: the same
	# test binary on the kernel of the point before the fix must fail.
	before=()
	[ "$build" != ok ] || mapfile -t before < <(before_fix_due "$k" "$from" "$res")
	for key in "${before[@]}"; do
		f=${fixed_by[$key]}
		bk=$KDIR/$(printf %02d $((f - 1))).bzImage
		tb=$(date +%s) bnotes=()
		if [ ! -f "$bk" ]; then
			# Not built in this walk (FROM= past it): build it, then
			# bring the tree back to this point.
			say "building point $((f - 1)) for the before-fix run of ${key#*:}"
			if prepare $((f - 1)) >"$pdir/prepare-before.log" 2>&1 && save_kernel $((f - 1)) &&
			   prepare "$k" >>"$pdir/prepare-before.log" 2>&1; then :; else
				row "$k<" "  ${key#*:} on point $((f - 1))" - FAIL - - - - "$(($(date +%s) - tb))" \
					"could not build point $((f - 1)): $pdir/prepare-before.log"
				printf '%s\t%s\t-\tFAIL\t-\t-\t-\t-\t%s\n' "$k<" "${key#*:} on point $((f - 1))" \
					"$(($(date +%s) - tb))" >>"$tsv"
				check FAIL
				failed_points+=("$k<")
				continue
			fi
		fi
		# One boot per test binary and kernel serves all its tests.
		name=check-series-$(printf %02d "$k")-before-$(printf %02d $((f - 1)))-${key%%:*}
		name=${name//\//-}
		bfx=$pdir/before-fix-$((f - 1)).txt
		[ -f "$(results_tsv "$name" "$CW")" ] ||
			guest_run "$name" "$bfx" TESTS="${key%%:*}" KERNEL_IMAGE="$bk"
		bres=$(awk -F'\t' -v b="${key%%:*}" -v t="${key#*:}" '$1 == b && $2 == t { print $3 }' \
			"$(results_tsv "$name" "$CW")" 2>/dev/null)
		if [ "$bres" = fail ]; then
			bst=0/0/0/1
			bnotes+=("fails on the kernel before its fix (point $((f - 1))): old behaviour")
			check ok
			proven[$key]=1
		else
			bst=-
			tail -12 "$bfx" | sed 's/^/    /' >&2
			bnotes+=("${bres:-no result} on the kernel before its fix (point $((f - 1))): does not show the old behaviour; see $pdir/before-fix-$((f - 1)).txt")
			check FAIL
			failed_points+=("$k<")
		fi
		row "$k<" "  ${key#*:} on the kernel of point $((f - 1))" - - - - - "$bst" \
			"$(($(date +%s) - tb))" "${bnotes[*]}"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$k<" "${key#*:} on point $((f - 1))" - - - - - \
			"$bst" "$(($(date +%s) - tb))" >>"$tsv"
	done

	[ "$apply" != FAIL ] && [ "$build" != FAIL ] || break
done

echo
echo "matrix: $matrix (logs per point in $CW/points/)"
echo "walk took $(($(date +%s) - t_walk))s for points $from..$to"
if [ ${#failed_points[@]} -gt 0 ]; then
	for k in "${failed_points[@]}"; do
		case $k in
		*'<') echo "FAILED at point $k: a test of ${all[$((${k%<} - 1))]} did not fail on the kernel before its fix" ;;
		*) echo "FAILED at point $k: ${all[$((k - 1))]}" ;;
		esac
	done
fi
echo "total: $checks_pass passed, $checks_fail failed, 0 skipped (checks over points $from..$to)"
[ ${#failed_points[@]} = 0 ]
