#!/bin/bash
# Boot the built kernel with the test initramfs and a virtio swap disk.
#
#   qemu.sh test    run the kselftests, keep the serial log, check it
#   qemu.sh bench   run the benchmark workloads (BENCH_WORKLOADS=a,b)
#   qemu.sh shell   interactive serial console (make vm)
#
# Environment: ACCEL=auto|kvm|tcg (auto probes KVM with a timeout and falls
# back to TCG), VM_MEM (MiB, 1024), VM_CPUS (2), SWAP_MB (1024), SWAP_BPS
# (bytes/s the swap disk is throttled to, e.g. 4194304 for a slow disk),
# VM_TIMEOUT (s, hard limit of a test run, 2400), VM_SILENCE (s without serial
# output after which the guest counts as hung, 600), TESTS (comma list),
# APPEND (extra kernel parameters), RUN_NAME (log/result name),
# KERNEL_IMAGE (another bzImage, with this build's initramfs).
set -eu
. "$(dirname "$0")/lib.sh"
need qemu-system-x86_64 timeout
mode=${1:-test}
kernel=${KERNEL_IMAGE:-$BUILD/arch/x86/boot/bzImage}
initrd=$BUILD/initramfs.cpio.gz
[ -f "$kernel" ] || die "no kernel at $kernel" "make build"
[ -f "$initrd" ] || die "no initramfs at $initrd" "make initramfs"

# accel: "kvm" only when a probe guest reached /init within 20 s. The answer
# is cached for the host's boot (KVM does not heal or break in between).
pick_accel() {
	case ${ACCEL:-auto} in kvm|tcg) echo "$ACCEL"; return ;; esac
	[ -w "${KVM_DEV:-/dev/kvm}" ] || { echo tcg; return; }
	local cache=$WORK/kvm-probe boot
	boot=$(cat /proc/sys/kernel/random/boot_id)
	if [ -f "$cache" ] && [ "$(head -1 "$cache")" = "$boot" ]; then
		sed -n 2p "$cache"
		return
	fi
	local log=$LOGS/kvm-probe.log r=tcg
	local t=${KVM_PROBE_TIMEOUT:-20}
	say "probing KVM (${t}s timeout)" >&2
	timeout -k 5 "$t" qemu-system-x86_64 -accel kvm -cpu host -m 256 -nodefaults \
		-display none -no-reboot -serial "file:$log" \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 ksft.mode=probe" >/dev/null 2>&1 || true
	grep -q 'ksft-guest-probe ok' "$log" 2>/dev/null && r=kvm
	printf '%s\n%s\n' "$boot" "$r" >"$cache"
	echo "$r"
}

mkdir -p "$LOGS"
accel=$(pick_accel)
if [ "$accel" = kvm ]; then cpu=(-accel kvm -cpu host); else cpu=(-accel tcg -cpu max); fi
[ "$accel" = tcg ] && [ "${ACCEL:-auto}" = auto ] && [ -e "${KVM_DEV:-/dev/kvm}" ] &&
	say "KVM does not work here (probe cached in $WORK/kvm-probe): using TCG"

# Disks: swap (vda) and a scratch file system (vdb), sparse, new each boot.
swap=$WORK/swap-$TREE_TAG-$KCONFIG.img
scratch=$WORK/scratch-$TREE_TAG-$KCONFIG.img
rm -f "$swap" "$scratch"
truncate -s "${SWAP_MB:-1024}M" "$swap"
throttle=	# SWAP_BPS was checked by lib.sh
if [ -n "${SWAP_BPS:-}" ]; then
	throttle=",throttling.bps-total=$SWAP_BPS"
	say "swap disk throttled to $SWAP_BPS bytes/s"
fi
truncate -s 1G "$scratch"
args=(qemu-system-x86_64 "${cpu[@]}" -smp "${VM_CPUS:-2}" -m "${VM_MEM:-1024}"
      -nodefaults -no-reboot -kernel "$kernel" -initrd "$initrd"
      -drive "file=$swap,if=virtio,format=raw,cache=unsafe$throttle"
      -drive "file=$scratch,if=virtio,format=raw,cache=unsafe")
cmdline="console=ttyS0 panic=-1 ${APPEND:-}"
# The debug kernel (KASAN inline) under TCG interprets ACPI's AML so
# slowly that the PCI interrupt routing method (_PRT) runs past ACPICA's
# 30 s loop timeout: the virtio devices get no interrupt ("no GSI") and
# the first disk I/O never completes. pci=noacpi routes PCI interrupts
# from the firmware's PIRQ table instead; ACPI still finds the vCPUs
# (MADT). The default kernel evaluates _PRT in well under a second.
[ "$KCONFIG" != debug ] || cmdline="$cmdline pci=noacpi"

# ROOTFS=debian: the Debian image of scripts/mkrootfs.sh as /dev/vdc and
# root, instead of the initramfs; VM_RUN='cmd' runs cmd there and powers
# off (log in $LOGS/serial-rootfs.log), else an interactive console.
if [ -n "${ROOTFS:-}" ]; then
	[ "$ROOTFS" = debian ] || die "ROOTFS=$ROOTFS: only 'debian' is known"
	img=$WORK_ROOT/rootfs/${ROOTFS_SUITE:-bookworm}.img
	[ -f "$img" ] || die "no root file system image $img" "make vm ROOTFS=debian"
	keep=()
	for a in "${args[@]}"; do
		[ "$a" = -initrd ] || [ "$a" = "$initrd" ] || keep+=("$a")
	done
	args=("${keep[@]}")
	args+=(-drive "file=$img,if=virtio,format=raw,cache=unsafe")
	cmdline="$cmdline root=/dev/vdc rw init=/sbin/zswap-stack-init"
	if [ -n "${VM_RUN:-}" ]; then
		log=$LOGS/serial-rootfs.log
		say "booting $kernel on $img ($accel), running: $VM_RUN"
		: >"$log"
		rc=0
		timeout -k 10 "${VM_TIMEOUT:-600}" "${args[@]}" -display none -monitor none \
			-serial "file:$log" -append "$cmdline ksft.run=$(printf %s "$VM_RUN" | base64 -w0)" </dev/null || rc=$?
		# The command's output without the kernel's lines (all in $log),
		# then how the guest ended; a guest that never ran it: the tail.
		if grep -q '^zswap-stack: running:' "$log"; then
			sed -n '/^zswap-stack: /,$p' "$log" | grep -av '^\[ *[0-9]*\.[0-9]*\] ' || true
			tail -2 "$log"
		else
			tail -25 "$log"
		fi
		grep -q '^zswap-stack: exit status 0' "$log" ||
			die "the Debian guest did not run '$VM_RUN' to success (qemu exit $rc; log: $log)"
		exit 0
	fi
	say "booting $kernel on $img ($accel); quit with 'exit' or Ctrl-A X"
	exec "${args[@]}" -nographic -serial mon:stdio -append "$cmdline"
fi

if [ "$mode" = shell ]; then
	say "booting $kernel ($accel); quit with 'reboot -f' or Ctrl-A X"
	exec "${args[@]}" -nographic -serial mon:stdio \
		-append "$cmdline ksft.mode=shell"
fi

name=${RUN_NAME:-$TREE_TAG-$KCONFIG}
log=$LOGS/serial-$name.log
# The tests' TAP comes on the second serial port (ttyS1), the kernel's
# console on the first.
tap=$LOGS/tap-$name.log
tmo=${VM_TIMEOUT:-2400}
tests=${TESTS:+ksft.tests=$TESTS}
say "booting $kernel ($accel, ${VM_CPUS:-2} cpus, ${VM_MEM:-1024} MiB, timeout ${tmo}s); console: $log, TAP: $tap"
case $mode in
test) guest="ksft.mode=test $tests" ;;
bench) guest="ksft.mode=bench${BENCH_WORKLOADS:+ ksft.bench=$BENCH_WORKLOADS}" ;;
*) die "unknown mode '$mode' (test, bench or shell)" ;;
esac
rm -f "$log.accel"
: >"$log"	# never judge a previous run's log
: >"$tap"
t0=$(date +%s)
rc=0
# A guest whose serial log stays the same for VM_SILENCE seconds (600) is
# hung (a boot stuck on a device, a deadlock): stop it then, not at the
# hard timeout. qemu runs in the background for that, so pass a Ctrl-C on.
timeout -k 10 "$tmo" "${args[@]}" -display none -monitor none -serial "file:$log" -serial "file:$tap" \
	-append "$cmdline oops=panic $guest" </dev/null &
qpid=$!
trap 'kill "$qpid" 2>/dev/null' EXIT
trap 'kill "$qpid" 2>/dev/null; exit 130' INT TERM
silence=${VM_SILENCE:-600} quiet=0 size=0 hung= noirq=
while kill -0 "$qpid" 2>/dev/null; do
	sleep 2
	s=$(($(stat -c %s "$log" 2>/dev/null || echo 0) + $(stat -c %s "$tap" 2>/dev/null || echo 0)))
	if [ "$s" != "$size" ]; then size=$s quiet=0; else quiet=$((quiet + 2)); fi
	# A device without an interrupt never finishes its I/O: stop now.
	if [ -z "$noirq" ] && grep -aqE "$NOIRQ_RE" "$log" 2>/dev/null; then
		noirq=1
		kill "$qpid" 2>/dev/null || true
		break
	fi
	if [ "$quiet" -ge "$silence" ]; then
		hung=1
		kill "$qpid" 2>/dev/null || true
		break
	fi
done
wait "$qpid" || rc=$?
trap - EXIT INT TERM
say "guest ran $(($(date +%s) - t0))s ($accel)"
# How long each test took, by the guest's clock.
times=$(tr -d '\r' <"$log" | sed -n 's/^ksft: \[[0-9/]*\] \(.*\) rc=[0-9]* \([0-9]*s\)$/\1 \2/p' | paste -sd, | sed 's/,/, /g')
[ -z "$times" ] || say "test times: $times"
echo "$accel" >"$log.accel"
[ $rc = 124 ] && warn "the guest hit the ${tmo}s timeout and was killed"
[ -z "$hung" ] || warn "the guest wrote nothing to its serial logs for ${silence}s and was stopped as hung"
[ -z "$noirq" ] || warn "a device got no interrupt (ACPI AML timeout or no GSI): the guest was stopped at once"
export EXPECT_CPUS=${VM_CPUS:-2}
if [ "$mode" = bench ]; then
	exec "$TOP/scripts/results.sh" --kernel-only "$log"
fi
exec "$TOP/scripts/results.sh" "$log" "$tap"
