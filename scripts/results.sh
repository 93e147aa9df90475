#!/bin/bash
# Judge a guest's run: kernel reports (panic, oops, BUG, WARN, KASAN,
# lockdep, UBSAN, hung task) in its console log fail the run and are
# printed; its TAP log (ttyS1, in kselftest runner.sh's format: a plan,
# "# selftests: DIR: NAME", the binary's output prefixed "# ", and
# "ok|not ok N selftests: DIR: NAME [# SKIP|# TIMEOUT|# exit=N]") is
# parsed into results/<name>.tsv, each binary's results counted against
# its own plan and the run's against the top plan, and a closing line
# "N passed, N failed, N skipped". Tests listed in patches/$TREE/known-failures.txt
# are reported as known failures, never as passes; a failure of a test in
# patches/$TREE/known-flaky.txt likewise, while its passes count as passes;
# a known-flaky entry whose third field names the series patch that fixes
# the test no longer applies once that patch is applied in the tree the
# run built (quilt's .pc/applied-patches there). Exit 1 on any other
# failure.
#
#   results.sh [options] CONSOLE-LOG [TAP-LOG]
#   --kernel-only   judge the console log alone (a benchmark run)
#   --cpus N        the vCPUs the guest was given: it must have seen them
#   --known FILE    the known failures (default the tree's known-failures.txt)
#   --flaky FILE    the known-flaky tests (default the tree's known-flaky.txt)
#   --kcsan FILE    a KCSAN kernel's run: its data-race reports do not fail
#                   it here; their function pairs ("f1 / f2", offsets and
#                   .constprop-like suffixes dropped), one a report, go to
#                   FILE for kcsan-judge.sh's A/B against the base
#   -h              this text
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-guest.sh"
kernel_only=0 expect_cpus='' kcsan='' known=$TREE_DIR/known-failures.txt flaky=$TREE_DIR/known-flaky.txt
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--kernel-only) kernel_only=1; shift ;;
	--cpus|--known|--flaky|--kcsan) [ $# -ge 2 ] || die "results.sh: $1 needs a value" "scripts/results.sh -h" ;;&
	--kcsan) kcsan=$2; shift 2 ;;
	--cpus) expect_cpus=$2; shift 2 ;;
	--known) known=$2; shift 2 ;;
	--flaky) flaky=$2; shift 2 ;;
	-*) die "results.sh: unknown option '$1'" "scripts/results.sh -h" ;;
	*) break ;;
	esac
done
log=${1:?usage: results.sh [--kernel-only] [--cpus N] [--known FILE] [--flaky FILE] CONSOLE-LOG [TAP-LOG]}
[ -f "$log" ] || die "no serial log $log"
tap=${2:-}
[ $kernel_only = 1 ] || [ -f "$tap" ] || die "no TAP log ${tap:-given} (the guest's ttyS1)" "usage: results.sh CONSOLE-LOG TAP-LOG"
name=$(basename "$log" .log)
name=${name#serial-}
out=$(results_tsv "$name")
mkdir -p "$(dirname "$out")"
bad=0

clean=$(mktemp) tapc=$(mktemp)
trap 'rm -f "$clean" "$tapc"' EXIT
tr -d '\r' <"$log" >"$clean"
[ -z "$tap" ] || tr -d '\r' <"$tap" >"$tapc"

# Kernel reports, as printed on the console (after a printk timestamp).
re=$KERNEL_REPORT_RE
# A KCSAN kernel's data-race reports go to the --kcsan list (an assert
# violation, "BUG: KCSAN: assert: ...", still fails the run).
kcsan_re='\] BUG: KCSAN: data-race in '
if [ -n "$kcsan" ]; then
	mkdir -p "$(dirname "$kcsan")"
	sed -nE "s/.*$kcsan_re(.*)\$/\\1/p" "$clean" |
		sed -E 's/\+0x[0-9a-f]+\/0x[0-9a-f]+//g; s/\.(constprop|isra|part|cold)(\.[0-9]+)?//g' >"$kcsan"
	[ ! -s "$kcsan" ] || say "KCSAN: $(wc -l <"$kcsan") data-race report(s), $(sort -u "$kcsan" | wc -l) function pair(s): $kcsan"
	grep -vE "$kcsan_re" "$clean" >"$clean.k" || true
	mv "$clean.k" "$clean"
	# No report says nothing unless KCSAN watched: the guest prints its
	# counters at the end (allnoconfig once left it off, 0 watchpoints).
	w=$(sed -n 's/^kcsan: setup_watchpoints: \([0-9]*\)$/\1/p' "$clean" | tail -1)
	if [ "${w:-0}" -gt 0 ]; then
		say "KCSAN: $w watchpoint(s) set up"
	else
		echo "==> KCSAN watched nothing in $log (setup_watchpoints: ${w:-not printed}; enabled?)" >&2
		bad=1
	fi
fi
if grep -qE "$re" "$clean"; then
	echo "==> kernel reports in $log:" >&2
	grep -nE "$re" "$clean" | head -5 | while IFS=: read -r n _; do
		sed -n "$n,$((n + 40))p" "$clean" | sed 's/^/    /' >&2
		echo "    ..." >&2
	done
	bad=1
	kreport=1
fi
if grep -qE "$NOIRQ_RE" "$clean"; then
	echo "==> a PCI device of the guest got no interrupt, so its I/O cannot complete:" >&2
	grep -nE "$NOIRQ_RE" "$clean" | head -4 | sed 's/^/    /' >&2
	echo "    (ACPI's _PRT ran past its loop timeout: the guest should be a q35 machine, whose virtio disks take MSI-X; QEMU_SHOW=1 prints its command line)" >&2
	bad=1
	noirq=1
fi
if [ $kernel_only = 1 ] && ! grep -q '<<< ksft-guest-done >>>' "$clean"; then
	echo "==> the guest did not finish its run (timeout, hang or crash); last lines:" >&2
	tail -30 "$clean" | sed 's/^/    /' >&2
	bad=1
	unfinished=1
fi

# The guest must see the vCPUs it was given (--cpus, from qemu.sh):
# races the tests look for need them, and so do the benchmark numbers.
cpus=$(sed -n 's/^guest: .* \([0-9][0-9]*\) cpu(s),.*/\1/p' "$clean" | head -1)
if [ -n "$expect_cpus" ] && [ -n "$cpus" ] && [ "$cpus" != "$expect_cpus" ]; then
	echo "==> the guest saw $cpus of the $expect_cpus vCPUs it was given (kernel config: ACPI?)" >&2
	bad=1
	cpufail=1
fi

# --kernel-only: a benchmark run, judged by its kernel log alone.
[ $kernel_only = 0 ] || exit $bad

applied=$KERNEL_SRC/.pc/applied-patches
[ -f "$applied" ] || applied=/dev/null
awk -v known="$known" -v flaky="$flaky" -v applied="$applied" '
BEGIN {
	FS = "\t"
	while ((getline line < known) > 0) {
		if (line ~ /^#/ || line ~ /^[ \t]*$/) continue
		split(line, f, "\t"); kf[f[1]] = f[2]
	}
	while ((getline line < applied) > 0) ap[line] = 1
	while ((getline line < flaky) > 0) {
		if (line ~ /^#/ || line ~ /^[ \t]*$/) continue
		split(line, f, "\t")
		if (f[3] != "" && f[3] in ap) continue
		fl[f[1]] = f[2]
	}
	FS = " "
}
function emit(res, test, note) {
	key = bin ":" test
	if (res == "fail" && key in fl) { res = "xfail"; note = "known flaky: " fl[key] }
	else if (res == "fail" && key in kf) { res = "xfail"; note = kf[key] }
	else if (res == "pass" && key in kf) { res = "xpass"; note = "listed as known failure but passed" }
	printf "%s\t%s\t%s\t%s\n", bin, test, res, note
	n[bin]++
}
# The run: its plan and one result line per binary.
/^1\.\.[0-9]+[ \t]*$/ && !inb { top = substr($1, 4) + 0; next }
/^# selftests: [^ ]+: [^ ]+$/ && !inb {
	bin = $3 "/" $4; sub(/:\//, "/", bin)
	# Output that repeats (a binary or a result twice) counts nothing twice.
	if (bin in seen) twice[bin] = 1
	seen[bin] = 1
	n[bin] = 0; nres[bin] = 0; plan[bin] = -1; inb = 1; next
}
/^(not )?ok [0-9]+ selftests: / && inb {
	ntop++
	rc = 0
	if ($0 ~ / # SKIP/) rc = 4
	else if ($0 ~ / # TIMEOUT/) rc = 124
	else if (match($0, / # exit=[0-9]+/)) rc = substr($0, RSTART + 8) + 0
	else if ($1 == "not") rc = 1
	if (n[bin] == 0) {
		if (rc == 4) emit("skip", "(all)", "binary skipped: " reason)
		else if (rc == 0) emit("fail", "(all)", "binary ran no test")
		else emit("fail", "(all)", "binary exited " rc " without TAP results")
	} else if (rc != 0 && rc != 4 && nfail[bin] == 0 && rc != 124)
		emit("fail", "(exit)", "binary exited " rc " with no failed test")
	if (rc == 124) emit("fail", "(timeout)", "binary killed by the per-test timeout")
	# A binary that stops early, after its plan, must not pass.
	else if (plan[bin] > 0 && nres[bin] < plan[bin])
		emit("fail", "(plan)", "planned " plan[bin] " tests, reported " nres[bin])
	inb = 0; reason = ""; next
}
!inb { next }
# Inside a binary: its own output, one "# " taken off.
{ if (substr($0, 1, 2) == "# ") $0 = substr($0, 3); else if ($0 == "#") $0 = "" }
/^1\.\.0 # SKIP/ { reason = $0; sub(/^1\.\.0 # SKIP */, "", reason); next }
/^1\.\.[0-9]+[ \t]*$/ { if (plan[bin] < 0) plan[bin] = substr($1, 4) + 0; next }
/^(not )?ok [0-9]+/ {
	line = $0; res = ($1 == "not") ? "fail" : "pass"
	sub(/^(not )?ok [0-9]+ */, "", line)
	if (line ~ /^# SKIP/) { res = "skip"; sub(/^# SKIP */, "", line) }
	else if (line ~ /^# XFAIL/) { res = "pass"; sub(/^# XFAIL */, "", line) }
	else if (line ~ /^# error/) { res = "fail"; sub(/^# error */, "", line) }
	else if (line ~ / # SKIP/) { res = "skip"; sub(/ # SKIP.*/, "", line) }
	if (res == "fail") nfail[bin]++
	nres[bin]++
	if ((bin, line) in got) { emit("fail", line, "reported again: the output is duplicated"); next }
	got[bin, line] = 1
	emit(res, line, "")
}
END {
	if (inb) emit("fail", "(end)", "no result line: the run stopped inside this binary")
	for (b in twice) printf "%s\t(twice)\tfail\tthe binary was reported more than once: the output is duplicated\n", b
	if (top < 0) printf "guest\t(run)\tfail\tguest did not finish: no TAP plan on ttyS1\n"
	else if (ntop < top) printf "guest\t(run)\tfail\tguest did not finish: %d of %d test binaries reported\n", ntop, top
	else if (ntop > top) printf "guest\t(run)\tfail\t%d results for a plan of %d test binaries: the output is duplicated\n", ntop, top
}
' top=-1 "$tapc" >"$out"
if grep -q $'^guest\t(run)\tfail' "$out"; then
	echo "==> the guest did not finish its run (timeout, hang or crash); last console lines:" >&2
	tail -30 "$clean" | sed 's/^/    /' >&2
	bad=1
fi
# A kernel report or an unfinished run is a failure of its own.
[ -z "${kreport:-}" ] || printf 'kernel\t(log)\tfail\tkernel report in the serial log\n' >>"$out"
[ -z "${unfinished:-}" ] || printf 'guest\t(run)\tfail\tguest did not finish\n' >>"$out"
[ -z "${cpufail:-}" ] || printf 'guest\t(cpus)\tfail\tguest saw %s of %s vCPUs\n' "$cpus" "$expect_cpus" >>"$out"
[ -z "${noirq:-}" ] || printf 'guest\t(irq)\tfail\ta PCI device got no interrupt (ACPI AML timeout / no GSI)\n' >>"$out"

count() { awk -F'\t' -v r="$1" '$3 == r' "$out" | wc -l; }
pass=$(count pass) fail=$(count fail) skip=$(count skip)
xfail=$(count xfail) xpass=$(count xpass)
echo "==> results ($out):"
awk -F'\t' '{ printf "    %-5s %s:%s%s\n", toupper($3), $1, $2, ($4 == "" ? "" : "  (" $4 ")") }' "$out"
[ "$xfail" = 0 ] || echo "known failures: $xfail (reasons above, from ${known#"$TOP"/} and ${flaky#"$TOP"/}; not counted as passed)"
[ "$xpass" = 0 ] || echo "known failures that passed: $xpass (update ${known#"$TOP"/})"
total=$((pass + fail + skip + xfail + xpass))
[ "$total" -gt 0 ] || { echo "==> no kselftest result found in $log" >&2; bad=1; }
[ "$fail" = 0 ] || bad=1
[ "$bad" = 0 ] || echo "==> FAILED: see above; serial log kept at $log"
echo "$((pass + xpass)) passed, $fail failed, $skip skipped"
exit $bad
