#!/bin/bash
# make fuzz: the fuzz test alone (tests/guest/tests/fuzz: trinity on the mm
# syscalls in a small memcg while reclaim and zswap churn), FUZZ_MINUTES
# (default 3) per seed, FUZZ_SEED (default 1) or a campaign of several,
# FUZZ_SEEDS='1 2 3 4' (or 1,2,3,4), one boot each. The kernel's verdict
# is the results table's (KASAN, lockdep, BUG, WARN, hung task:
# results.sh); then what the fuzzer did. Each seed keeps its logs and
# results under its own name (fuzz-TREE-KCONFIG-sSEED); a campaign ends
# with a table (seed, syscalls, swapoff/swapon cycles, kernel reports,
# verdict), also in results/fuzz-TREE-KCONFIG.campaign.tsv, and each
# failing seed's replay command.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-guest.sh"
check_settings
[ "$KCONFIG" = debug ] ||
	warn "KCONFIG=$KCONFIG: without KASAN, lockdep and DEBUG_VM (KCONFIG=debug) only crashes and WARNs are found"
minutes=${FUZZ_MINUTES:-3}
seeds=$(echo "${FUZZ_SEEDS:-${FUZZ_SEED:-1}}" | tr ',' ' ')
# The debug kernel's kmemleak scans what the fuzz left behind.
tests=guest/fuzz
[ "$KCONFIG" != debug ] || tests=guest/fuzz,guest/kmemleak
table=$(results_tsv "fuzz-$TREE_TAG-$KCONFIG.campaign")
mkdir -p "$(dirname "$table")"
printf 'seed\tminutes\tsyscalls\tswapoff_swapon\tkernel_reports\tverdict\n' >"$table"
failed=
for seed in $seeds; do
	name=fuzz-$TREE_TAG-$KCONFIG-s$seed
	say "fuzz: seed $seed, $minutes minute(s) ($name)"
	rc=0
	TESTS=$tests FUZZ_MINUTES=$minutes FUZZ_SEED=$seed "$TOP/scripts/qemu.sh" test --name "$name" || rc=$?
	echo
	tap=$(tap_log "$name")
	sed -n 's/^# # fuzz: //p' "$tap" 2>/dev/null | tr -d '\r' | sed 's/^/fuzz: /'
	calls=$(sed -n 's/^# # fuzz: .*syscalls executed: \([0-9]*\).*/\1/p' "$tap" 2>/dev/null | head -1)
	cycles=$(sed -n 's/^# # fuzz: churner steps: .*swapoff-swapon \([0-9]*\).*/\1/p' "$tap" 2>/dev/null | head -1)
	reports=$(tr -d '\r' <"$(serial_log "$name")" 2>/dev/null | grep -cE "$KERNEL_REPORT_RE" || true)
	# A skipped or cut-short fuzz is no verdict: it must have run syscalls.
	case ${calls:-0} in 0)
		[ "$rc" != 0 ] || rc=1
		warn "seed $seed: the fuzz test ran no syscall (skipped or cut short): no verdict" ;;
	esac
	verdict=pass
	[ "$rc" = 0 ] || { verdict=FAIL; failed="$failed $seed"; }
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$seed" "$minutes" "${calls:-none}" "${cycles:-0}" "$reports" "$verdict" >>"$table"
done
echo
say "fuzz: $(echo "$seeds" | wc -w) seed(s) x $minutes minute(s) on $TREE_TAG-$KCONFIG ($table)"
column -t -s $'\t' "$table" | sed 's/^/    /'
for seed in $failed; do
	echo "seed $seed failed: logs $(serial_log "fuzz-$TREE_TAG-$KCONFIG-s$seed"); replay: make fuzz TREE=$TREE KCONFIG=$KCONFIG FUZZ_SEED=$seed FUZZ_MINUTES=$minutes (unpatched: add SERIES_UPTO=0 WORK=work/$TREE-base)"
done
[ -z "$failed" ] || die "the fuzz run failed for seed(s)$failed (above)"
