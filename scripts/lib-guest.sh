# shellcheck shell=bash
# The guest: its test list, the reasons it stops early, and the check of
# the guest's and the bench's settings. Sourced after lib.sh by the
# scripts that build, pack or boot the guest's tests.

# A guest whose PCI devices got no interrupt: it cannot finish any I/O
# (qemu.sh stops it at once, results.sh names the reason).
# shellcheck disable=SC2034 # qemu.sh's and results.sh's
NOIRQ_RE='AE_AML_LOOP_TIMEOUT|PCI INT [A-D]: no GSI'

# A kernel report on the guest's console (after a printk timestamp):
# results.sh fails the run on one, fuzz.sh counts them per seed.
# shellcheck disable=SC2034 # results.sh's and fuzz.sh's
KERNEL_REPORT_RE='\] (Kernel panic|Oops|BUG:|kernel BUG at|WARNING:|general protection fault|KASAN:|UBSAN:|INFO: task .* blocked|possible (circular|recursive) locking|inconsistent lock state|kmemleak: [0-9]+ new suspected)'

# The guest's test list: tests/kselftests.list, plus
# tests/kselftests-debug.list for KCONFIG=debug. Entries under guest/ are
# scripts from tests/guest/tests/, the others kselftests of the tree.
test_list() {
	local f=$TOP/tests/kselftests.list
	[ "$KCONFIG" != debug ] || f="$f $TOP/tests/kselftests-debug.list"
	# shellcheck disable=SC2086
	cat $f | grep -v '^#' | awk 'NF'
}

# tests_named LIST: a comma list of tests (TESTS=, CHECK_TESTS=) as the
# lists name them, DIR/BINARY. The kselftest runner's COLLECTION:TEST
# (run_kselftest.sh -t, the install's kselftest-list.txt) is taken too.
# The lists keep DIR/BINARY: the known-failure and expectation files
# write BINARY:TEST with a colon, and guest/ names are not kselftests.
tests_named() {
	local t names given=()
	IFS=, read -ra names <<<"$1"
	for t in "${names[@]}"; do
		case $t in '') continue ;; */*) ;; *:*) t=${t%%:*}/${t#*:} ;; esac
		given+=("$t")
	done
	(IFS=,; echo "${given[*]}")
}

# check_settings: stop on a bad guest or bench setting, each bad one
# named. The entry points that take these settings (pipeline.sh, and
# the scripts that boot a guest when run directly) call it first, so that
# a typo stops before anything runs (not after the tree, the build and
# the initramfs); a script that boots no guest does not refuse them.
check_settings() {
	local v x what bad=0
	for v in VM_MEM VM_CPUS SWAP_MB VM_TIMEOUT VM_SILENCE SWAP_BPS BENCH_N FUZZ_MINUTES FUZZ_SEED KCSAN_BASE_RUNS; do
		x=${!v:-}
		case $v in
		VM_MEM) what="MiB of guest memory, a whole number from 256 to the host's $(host_mib) (default 1024)" ;;
		VM_CPUS) what="guest vCPUs, a whole number from 1 to 255 (default 2)" ;;
		SWAP_MB) what="MiB of guest swap disk, a positive whole number (default 1024)" ;;
		VM_TIMEOUT|VM_SILENCE) what="seconds, a positive whole number" ;;
		SWAP_BPS) what="bytes per second, a positive number: SWAP_BPS=4194304 (4 MiB/s), or leave it unset" ;;
		BENCH_N) what="runs per kernel, a positive whole number" ;;
		FUZZ_MINUTES) what="minutes of fuzzing, a positive whole number (default 3)" ;;
		FUZZ_SEED) what="trinity's seed, a positive whole number (default 1)" ;;
		KCSAN_BASE_RUNS) what="the unpatched KCSAN runs at most, a positive whole number (default 3)" ;;
		esac
		case $x in
		'') continue ;;
		*[!0-9]*|0*) ;;
		*) case $v in
		   VM_MEM) [ ${#x} -ge 3 ] && [ ${#x} -le 7 ] && [ "$x" -ge 256 ] && [ "$x" -le "$(host_mib)" ] && continue ;;
		   VM_CPUS) [ ${#x} -le 3 ] && [ "$x" -le 255 ] && continue ;;
		   *) continue ;;
		   esac ;;
		esac
		echo "error: $v=$x: $what" >&2
		bad=1
	done
	# Test names: the lists' entries (the debug list's too: make fuzz
	# runs guest/fuzz on any kernel). The guest would skip another name,
	# and the run pass.
	local known unknown t names
	known=$(KCONFIG=debug test_list)
	for v in TESTS CHECK_TESTS; do
		unknown=
		IFS=, read -ra names <<<"$(tests_named "${!v:-}")"
		[ -z "${!v:-}" ] || [ ${#names[@]} -gt 0 ] || unknown=" (no test named)"
		for t in "${names[@]}"; do
			[ -n "$t" ] || continue
			printf '%s\n' "$known" | grep -qxF -- "$t" || unknown="$unknown $t"
		done
		[ -z "$unknown" ] || {
			echo "error: $v=${!v}: not in tests/kselftests.list or tests/kselftests-debug.list:$unknown" >&2
			echo "  the tests: $(printf '%s\n' "$known" | paste -sd,)" >&2
			bad=1
		}
	done
	case ${ROOTFS:-} in ''|debian) ;; *)
		echo "error: ROOTFS=$ROOTFS: only ROOTFS=debian is known (make vm on a Debian root file system), or leave it unset" >&2
		bad=1 ;;
	esac
	if [ -n "${KERNEL_IMAGE:-}" ] && [ ! -f "$KERNEL_IMAGE" ]; then
		echo "error: KERNEL_IMAGE=$KERNEL_IMAGE: no such file (a bzImage to boot instead of this build's)" >&2
		bad=1
	elif [ -n "${KERNEL_IMAGE:-}" ] && [ "$(dd if="$KERNEL_IMAGE" bs=1 skip=514 count=4 2>/dev/null)" != HdrS ]; then
		# The x86 boot protocol's header signature, at 0x202.
		echo "error: KERNEL_IMAGE=$KERNEL_IMAGE: not an x86 bzImage (no boot header; arch/x86/boot/bzImage of a build)" >&2
		bad=1
	fi
	check_build_settings || bad=1
	if [ -n "${FUZZ_SEEDS+set}" ] && ! printf '%s\n' "$FUZZ_SEEDS" | tr ', ' '\n\n' | awk 'NF' |
		awk '!/^[1-9][0-9]*$/ { bad = 1 } END { exit bad || !NR }'; then
		echo "error: FUZZ_SEEDS=$FUZZ_SEEDS: trinity's seeds, positive whole numbers separated by spaces or commas" >&2
		bad=1
	fi
	case ${SOAK_ARGS:-} in *[[:space:]]*)
		echo "error: SOAK_ARGS=$SOAK_ARGS: the soak's arguments joined by commas, no spaces (SOAK_ARGS=-d,600,-m,24)" >&2
		bad=1 ;;
	*) soak_args_known || bad=1 ;;
	esac
	case ${SWAP:-disk} in disk|zram) ;; *)
		echo "error: SWAP=$SWAP: expected disk (the default: a virtio disk) or zram (/dev/zram0, zstd)" >&2
		bad=1 ;;
	esac
	if [ "${SWAP:-disk}" = zram ] && [ -n "${SWAP_BPS:-}" ]; then
		echo "error: SWAP_BPS=$SWAP_BPS throttles the swap disk, which SWAP=zram does not use" >&2
		bad=1
	fi
	case ${ACCEL:-auto} in auto|kvm|tcg) ;; *)
		echo "error: ACCEL=$ACCEL: expected auto (probe KVM, else TCG), kvm or tcg" >&2
		bad=1 ;;
	esac
	[ $bad = 0 ] || die "bad setting(s) above: nothing was run" "fix or unset them and run the same command again"
}

host_mib() { awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo; }

# soak_args_known: SOAK_ARGS's options are the soak's own, those of the
# getopt() string in tests/soak/soak.c (the guest would stop at its
# usage message after the whole build).
soak_args_known() {
	local opts o OPTIND=1 OPTARG args
	opts=$(sed -n 's/.*getopt(argc, argv, "\([^"]*\)").*/\1/p' "$TOP/tests/soak/soak.c")
	IFS=, read -ra args <<<"${SOAK_ARGS:-}"
	for o in "${args[@]}"; do
		case $o in --*) echo "error: SOAK_ARGS=$SOAK_ARGS: $o: the soak takes short options (tests/soak/soak.c: $opts)" >&2; return 1 ;; esac
	done
	while getopts ":$opts" o "${args[@]}"; do
		case $o in
		'?') echo "error: SOAK_ARGS=$SOAK_ARGS: -$OPTARG is not an option of the soak (tests/soak/soak.c: $opts)" >&2; return 1 ;;
		:) echo "error: SOAK_ARGS=$SOAK_ARGS: -$OPTARG takes a value (-$OPTARG,N)" >&2; return 1 ;;
		esac
	done
	[ $OPTIND -gt ${#args[@]} ] ||
		{ echo "error: SOAK_ARGS=$SOAK_ARGS: '${args[$((OPTIND - 1))]}' is not an option (-d,600,-m,24)" >&2; return 1; }
}

# check_build_settings: the tree's and the series' settings that no stage
# reads before the tree is downloaded: checked with the guest's.
check_build_settings() {
	local v x f n bad=0
	n=$(series_entries "$PATCHES/series" | wc -l)
	case ${SERIES_UPTO-} in
	'') ;;
	*[!0-9]*) echo "error: SERIES_UPTO=$SERIES_UPTO: a number of patches, from 0 to $n" >&2; bad=1 ;;
	*) [ "${#SERIES_UPTO}" -le 4 ] && [ "$SERIES_UPTO" -le "$n" ] ||
		{ echo "error: SERIES_UPTO=$SERIES_UPTO: $PATCHES_SHOWN/series has $n patches" >&2; bad=1; } ;;
	esac
	for v in BENCH_BASE BENCH_UPTO; do
		x=${!v:-}
		case $x in
		'') ;;
		*[!0-9]*) series_entries "$PATCHES/series" | grep -qF -- "$x" ||
			{ echo "error: $v=$x: no patch in $PATCHES_SHOWN/series matches (a number of patches or a part of a patch's name)" >&2; bad=1; } ;;
		*) [ ${#x} -le 4 ] && [ "$x" -le "$n" ] ||
			{ echo "error: $v=$x: $PATCHES_SHOWN/series has $n patches" >&2; bad=1; } ;;
		esac
	done
	for f in ${EXTRA_CONFIG:-}; do
		[ -f "$f" ] || { echo "error: EXTRA_CONFIG: no file $f (a config fragment)" >&2; bad=1; continue; }
		grep -qE '^(# )?CONFIG_' "$f" ||
			{ echo "error: EXTRA_CONFIG: $f has no CONFIG_ line (a config fragment: CONFIG_X=y)" >&2; bad=1; }
	done
	[ -z "${DEB_CONFIG_VERSION:-}" ] || debian_version "$DEB_CONFIG_VERSION" ||
		{ echo "error: DEB_CONFIG_VERSION=$DEB_CONFIG_VERSION: not a Debian version (as $PIN_VERSION)" >&2; bad=1; }
	for v in DEB_PREVIOUS BENCH_SRC_PKG; do
		[ -z "${!v:-}" ] || debian_package "${!v}" ||
			{ echo "error: $v=${!v}: not a Debian package name" >&2; bad=1; }
	done
	case ${DEB_FLAVOUR:-guest} in *[!a-z0-9_-]*|src)	# src: deb_dir src is make deb's copy of the tree
		echo "error: DEB_FLAVOUR=$DEB_FLAVOUR: a flavour as Debian names it (amd64_none_amd64), or guest" >&2; bad=1 ;;
	esac
	for v in QEMU_SHOW ROOTFS_REBUILD GITLAB_CI_FAKE; do
		case ${!v:-0} in 0|1) ;; *) echo "error: $v=${!v}: 1 (on) or 0 (off)" >&2; bad=1 ;; esac
	done
	return $bad
}
