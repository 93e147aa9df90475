#!/bin/bash
# Boot the built kernel with the test initramfs and a virtio swap disk.
#
#   qemu.sh test    run the kselftests, keep the serial log, check it
#   qemu.sh bench   run the benchmark workloads (BENCH_WORKLOADS=a,b)
#   qemu.sh shell   interactive serial console (make vm)
#   qemu.sh run     VM_RUN's command on the Debian root file system
# Options (after the mode), for the scripts that boot a guest of their own:
#   --name NAME     the logs' and the results' name (default
#                   TREE_TAG-KCONFIG, -zram added for SWAP=zram)
#   --known FILE    the known failures (default the tree's
#                   known-failures.txt, known-failures-zram.txt for zram)
#   --image FILE    with ROOTFS=debian: this root file system image
#                   instead of mkrootfs.sh's (make deb-boot's)
#   --initrd FILE   with ROOTFS=debian: boot with this initrd
#   -h              this text
#
# Environment: ACCEL=auto|kvm|tcg (auto probes KVM with a timeout and falls
# back to TCG), VM_MEM (MiB, 1024), VM_CPUS (2), SWAP_MB (1024), SWAP_BPS
# (bytes/s the swap disk is throttled to, e.g. 4194304 for a slow disk),
# SWAP=zram (swap on /dev/zram0 of SWAP_MB, zstd, instead of the disk),
# VM_TIMEOUT (s, hard limit of a test run, 2400), VM_SILENCE (s without serial
# output after which the guest counts as hung, 600), TESTS (comma list),
# APPEND (extra kernel parameters),
# KERNEL_IMAGE (another bzImage, with this build's initramfs), ROOTFS=debian
# (boot on the Debian image of mkrootfs.sh), QEMU_SHOW=1
# (print QEMU's command line instead of booting), FUZZ_MINUTES and
# FUZZ_SEED (the fuzz test's).
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-guest.sh"
case ${1:-} in -h|--help) usage; exit 0 ;; esac
check_settings
need qemu-system-x86_64 timeout
mode=${1:-test}
[ $# = 0 ] || shift
name='' known='' root_image='' root_initrd=''
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--name|--known|--image|--initrd) [ $# -ge 2 ] || die "qemu.sh: $1 needs a value" "scripts/qemu.sh -h" ;;&
	--name) name=$2; shift 2 ;;
	--known) known=$2; shift 2 ;;
	--image) root_image=$2; shift 2 ;;
	--initrd) root_initrd=$2; shift 2 ;;
	*) die "qemu.sh: unknown argument '$1'" "scripts/qemu.sh -h" ;;
	esac
done
# run: VM_RUN's command on the Debian root file system (make vm sets both).
[ "$mode" != run ] || { [ -n "${ROOTFS:-}" ] && [ -n "${VM_RUN:-}" ]; } ||
	die "qemu.sh run runs VM_RUN='cmd' on the Debian root file system: it needs ROOTFS=debian and VM_RUN" \
		"make vm ROOTFS=debian VM_RUN='cmd'"
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
	timeout -k 5 "$t" qemu-system-x86_64 -machine q35 -accel kvm -cpu host -m 256 -nodefaults \
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
throttle=	# SWAP_BPS was checked by check_settings
if [ -n "${SWAP_BPS:-}" ]; then
	throttle=",throttling.bps-total=$SWAP_BPS"
	say "swap disk throttled to $SWAP_BPS bytes/s"
fi
truncate -s 1G "$scratch"

# QEMU's arguments, from parts: the machine, its disks, the boot medium
# (the initramfs, or ROOTFS=debian's image as root), then per mode the
# console (interactive, or the serial ports to log files).
machine=(qemu-system-x86_64 -machine q35 "${cpu[@]}" -smp "${VM_CPUS:-2}" -m "${VM_MEM:-1024}" -nodefaults -no-reboot
	-drive "file=$swap,if=virtio,format=raw,cache=unsafe$throttle"
	-drive "file=$scratch,if=virtio,format=raw,cache=unsafe")
# SWAP=zram (checked by check_settings): the guest's init swaps on zram0 instead;
# the disk stays attached, unused.
zram=
[ "${SWAP:-disk}" = disk ] || zram=${SWAP_MB:-1024}M
# no5lvl: 4-level paging, as on most x86 hardware (TCG's "max" CPU has
# LA57). With 5-level paging the debug kernel printed a false KASAN
# report ("wild-memory-access in do_raw_spin_lock", from an interrupt)
# in about one boot of 100: identify_cpu() clears the boot CPU's
# feature bits with interrupts on, and KASAN's shadow bounds follow the
# LA57 bit (docs/reliability.md).
cmdline="console=ttyS0 panic=-1 no5lvl${zram:+ ksft.zram=$zram} ${APPEND:-}"
# The machine is q35 (PCI Express, ICH9): its virtio-pci devices take
# MSI-X interrupts, and the debug kernel (KASAN inline) under TCG runs
# ACPI's PCI routing methods in about 5 s. On QEMU's default i440fx
# machine that kernel ran _PRT past ACPICA's 30 s loop timeout (the
# disks got no interrupt; it needed pci=noacpi, legacy PIRQ routing).
# slab_nomerge: the soak's failslab is aimed at zswap's and zsmalloc's
# caches by their failslab flag, which the kernel refuses on a merged
# cache.
[ "$KCONFIG" != debug ] || cmdline="$cmdline slab_nomerge"
# kselftest's per-binary timeouts (45 s unless a settings file says
# otherwise), scaled for an emulated CPU: times 3 under TCG, which runs
# the tests several times slower than hardware and slower still while
# the host builds a kernel beside it (6.12's test_zswap, whose tests
# still wait fixed times: 58 to 80 s that way, 2026-12-04); times 20 for
# the debug kernel (KASAN, lockdep, kmemleak) and the KCSAN kernel (7.3's
# test_zswap with KCSAN on took more than 450 s beside two other jobs,
# 2026-12-07, b871749). The guest prints each binary's time against its
# unscaled timeout.
scale=1
[ "$accel" != tcg ] || scale=3
case $KCONFIG in debug | kcsan) scale=20 ;; esac
cmdline="$cmdline ksft.timeout_scale=$scale"
# The fuzz test's time and seed (guest/fuzz; checked by check_settings): a longer
# fuzz gets the per-binary and the whole run's timeouts it needs.
if [ -n "${FUZZ_MINUTES:-}" ]; then
	cmdline="$cmdline ksft.fuzz_minutes=$FUZZ_MINUTES ksft.timeout=$((FUZZ_MINUTES * 60 + 1200))"
	VM_TIMEOUT=${VM_TIMEOUT:-$((FUZZ_MINUTES * 60 + 2400))}
fi
[ -z "${FUZZ_SEED:-}" ] || cmdline="$cmdline ksft.fuzz_seed=$FUZZ_SEED"
if [ -n "${ROOTFS:-}" ]; then
	# ROOTFS=debian: the Debian image of scripts/mkrootfs.sh as /dev/vdc
	# and root; VM_RUN='cmd' runs cmd there and powers off, "bench" runs
	# its workloads (tests/bench/debian.list), "test" the test list of
	# /etc/tests.list (make deb-boot's image), else an interactive console.
	# (check_settings refused any other ROOTFS.)
	img=${root_image:-$WORK_ROOT/rootfs/${ROOTFS_SUITE:-bookworm}.img}
	[ -f "$img" ] || die "no root file system image $img" "make vm ROOTFS=debian"
	lock "$img.lock" "guest on (or build of) the root file system $img" 8 \
		"wait for it: the guests of every tree and WORK share this image"
	medium=(-kernel "$kernel" -drive "file=$img,if=virtio,format=raw,cache=unsafe")
	[ -z "$root_initrd" ] || medium+=(-initrd "$root_initrd")
	cmdline="$cmdline root=/dev/vdc rw init=/sbin/zswap-stack-init"
	if [ -n "${VM_RUN:-}" ]; then mode=run
	elif [ "$mode" != bench ] && [ "$mode" != test ]; then mode=shell; fi
else
	# The image holds the kselftests, guest programs and tests/guest as
	# mkinitramfs.sh packed them: one rebuilt or edited since is not
	# what would run.
	stale=$(find "$BUILD/kselftest" "$BUILD/guest-bin" "$TOP/tests/guest" \
		-type f -newer "$initrd" -print -quit 2>/dev/null || true)
	[ -z "$stale" ] || die "the initramfs is older than $stale: the guest would run the tests it was packed with" \
		"make initramfs kselftests (make alone runs every stage)"
	medium=(-kernel "$kernel" -initrd "$initrd")
fi
interactive=(-nographic -serial mon:stdio)

# show CMD...: with QEMU_SHOW=1, print the command line (and the caller
# exits instead of booting).
show() {
	[ "${QEMU_SHOW:-0}" = 1 ] || return 1
	printf '%q ' "$@"
	echo
}

# run_logged LOG TAP APPEND: the guest in the background, its console in
# LOG and its second serial port in TAP, under the hard timeout
# (VM_TIMEOUT, 2400 s) and the silence watchdog (VM_SILENCE, 600 s: no
# output on either port means hung); a device that got no interrupt
# stops it at once. Sets $rc, $hung, $noirq.
run_logged() {
	local log=$1 tap=$2 append=$3 tmo=${VM_TIMEOUT:-2400} silence=${VM_SILENCE:-600}
	local cmd=(timeout -k 10 "$tmo" "${machine[@]}" "${medium[@]}" -display none -monitor none
		-serial "file:$log" -serial "file:$tap" -append "$append")
	if show "${cmd[@]}"; then exit 0; fi
	rm -f "$log.accel"
	: >"$log"	# never judge a previous run's log
	: >"$tap"
	t0=$(date +%s) rc=0 hung='' noirq=''
	# qemu runs in the background for the watchdog: pass a Ctrl-C on.
	"${cmd[@]}" </dev/null &
	local qpid=$! quiet=0 size=0 s
	trap 'kill "$qpid" 2>/dev/null' EXIT
	trap 'kill "$qpid" 2>/dev/null; exit 130' INT TERM
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
	echo "$accel" >"$log.accel"
	[ $rc != 124 ] || warn "the guest hit the ${tmo}s timeout and was killed"
	[ -z "$hung" ] || warn "the guest wrote nothing to its serial logs for ${silence}s and was stopped as hung"
	[ -z "$noirq" ] || warn "a device got no interrupt (ACPI AML timeout or no GSI): the guest was stopped at once"
}

case $mode in
shell)
	cmd=("${machine[@]}" "${medium[@]}" "${interactive[@]}")
	if [ -n "${ROOTFS:-}" ]; then
		cmd+=(-append "$cmdline")
		show "${cmd[@]}" || say "booting $kernel on $img ($accel); quit with 'exit' or Ctrl-A X"
	else
		cmd+=(-append "$cmdline ksft.mode=shell")
		show "${cmd[@]}" || say "booting $kernel ($accel); quit with 'reboot -f' or Ctrl-A X"
	fi
	[ "${QEMU_SHOW:-0}" = 1 ] || exec "${cmd[@]}"
	exit 0 ;;
run)
	# The command's output without the kernel's lines (all in $log),
	# then how the guest ended; a guest that never ran it: the tail.
	log=$(serial_log rootfs)
	[ "${QEMU_SHOW:-0}" = 1 ] || say "booting $kernel on $img ($accel), running: $VM_RUN"
	run_logged "$log" "$(tap_log rootfs)" "$cmdline ksft.run=$(printf %s "$VM_RUN" | base64 -w0)"
	if grep -q '^zswap-stack: running:' "$log"; then
		sed -n '/^zswap-stack: /,$p' "$log" | grep -av '^\[ *[0-9]*\.[0-9]*\] ' || true
		tail -2 "$log"
	else
		tail -25 "$log"
	fi
	grep -q '^zswap-stack: exit status 0' "$log" ||
		die "the Debian guest did not run '$VM_RUN' to success (qemu exit $rc; log: $log)"
	exit 0 ;;
test)	# APPEND=ksft.mode=runner: kselftest's own runner instead of the list
	m='test'
	case " ${APPEND:-} " in *" ksft.mode=runner "*) m=runner ;; esac
	guest="ksft.mode=$m${TESTS:+ ksft.tests=$(tests_named "$TESTS")}" ;;
bench) guest="ksft.mode=bench${BENCH_WORKLOADS:+ ksft.bench=$BENCH_WORKLOADS}" ;;
*) die "unknown mode '$mode' (test, bench or shell)" ;;
esac

name=${name:-$TREE_TAG-$KCONFIG${zram:+-zram}}
log=$(serial_log "$name")
# The tests' TAP comes on the second serial port (ttyS1), the kernel's
# console on the first.
tap=$(tap_log "$name")
[ "${QEMU_SHOW:-0}" = 1 ] ||
	say "booting $kernel ($accel, ${VM_CPUS:-2} cpus, ${VM_MEM:-1024} MiB, timeout ${VM_TIMEOUT:-2400}s); console: $log, TAP: $tap"
run_logged "$log" "$tap" "$cmdline oops=panic $guest"
[ -z "$zram" ] || grep -q '^swap: /dev/zram0 on' "$log" ||
	die "SWAP=zram, but the guest did not swap on zram (console: $log)" \
		"grep -n 'swap:\|zram' $log"
# How long each test took, by the guest's clock.
times=$(tr -d '\r' <"$log" | sed -n 's/^ksft: \[[0-9/]*\] \(.*\) rc=[0-9]* \([0-9]*s\)\( (timeout [0-9]*s)\)\{0,1\}$/\1 \2/p' |
	paste -sd, | sed 's/,/, /g')
[ -z "$times" ] || say "test times: $times"
# A zram run has known failures of its own: the tree's list is for the
# default swap, a rotational disk.
[ -z "$zram" ] || known=${known:-$TREE_DIR/known-failures-zram.txt}
judge=("$TOP/scripts/results.sh" --cpus "${VM_CPUS:-2}" ${known:+--known "$known"})
[ "$KCONFIG" != kcsan ] || judge+=(--kcsan "$(kcsan_list "$name")")
# A KCSAN kernel is several times slower: tests bounded in time that it
# fails now and then, on the base as well, are in known-flaky-kcsan.txt.
if [ "$KCONFIG" = kcsan ] && [ -f "$TREE_DIR/known-flaky-kcsan.txt" ]; then
	flaky=$WORK/results/known-flaky-$name.txt
	cat "$TREE_DIR/known-flaky.txt" "$TREE_DIR/known-flaky-kcsan.txt" >"$flaky"
	judge+=(--flaky "$flaky")
fi
if [ "$mode" = bench ]; then
	exec "${judge[@]}" --kernel-only "$log"
fi
exec "${judge[@]}" "$log" "$tap"
