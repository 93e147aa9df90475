#!/bin/bash
# Bad input through make, as a user types it: each case is a make command
# line with a wrong setting, and must stop with exit status 2 and an
# error that names the setting and what it takes, before any work starts.
# "Before any work": no download tool, QEMU or npm was called (fakes on
# PATH record a call), no stage after deps ran, and, for the settings the
# entry points check, no work directory was made. The cases that clean
# must leave a user's directory whole.
# TAP output, closing line "N passed, N failed, N skipped".
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
# The parent make's settings (make test KCONFIG=debug) reach here through
# the environment and MAKEFLAGS: each case gives its own.
for v in $(sed -n 's/^#h //p' "$TOP/Makefile" | grep -oE '\b[A-Z][A-Z0-9_]*=' | tr -d = | sort -u); do
	unset "$v"
done
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES PATCHES BUILD CHECK_TESTS
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# shellcheck source=tests/host/harness.sh
. "$TOP/tests/host/harness.sh"

mkdir -p "$T/bin"
for t in apt-get apt-cache curl wget qemu-system-x86_64 debootstrap npm; do
	printf '#!/bin/sh\necho "%s $*" >>"%s/called"\nexit 99\n' "$t" "$T" >"$T/bin/$t"
	chmod +x "$T/bin/$t"
done
# A user's directory: what the clean targets and WORK= must not touch.
mkuser() { rm -rf "$T/user" && mkdir -p "$T/user/build" "$T/user/logs" && echo mine >"$T/user/build/notes"; }

# bad [-w] 'ARGS' ERE: make ARGS (one word a setting, split at the spaces
# outside quotes) stops with ERE in its output and has started nothing;
# -w: nor made its work directory.
bad() {
	local nowork=0
	[ "$1" != -w ] || { nowork=1; shift; }
	rm -rf "$T/wr" "$T/called"
	eval "set -- $1 \"\$2\""
	local ere=${!#}
	run env PATH="$T/bin:$PATH" make -C "$TOP" --no-print-directory WORK_ROOT="$T/wr" "${@:1:$#-1}"
	expect_rc 2 && expect_out "$ere" || return 1
	[ ! -f "$T/called" ] || fail "make ${*:1:$#-1}: work started: $(cat "$T/called")" || return 1
	expect_no_out '^==> stage (tree|series|config|build|initramfs|kselftests|soak|fuzz|vm)$' \
		"make ${*:1:$#-1}: a stage after deps ran" || return 1
	[ $nowork = 0 ] || [ ! -e "$T/wr" ] || fail "make ${*:1:$#-1}: made the work directory $T/wr"
}

t_a_typo_in_a_settings_name_or_a_target_is_refused() {
	bad -w 'test VM_MEMORY=2048' 'VM_MEMORY: no such setting; make help lists them' &&
		bad -w 'nosuchtarget' "error: no target 'nosuchtarget' \(make help lists them\)"
}

t_tree_settings_are_checked_before_the_tree() {
	bad -w 'test TREE=' 'error: TREE is empty' &&
		bad -w 'test TREE=../patches/7.3' 'TREE=../patches/7.3 is a path' &&
		bad -w 'test KCONFIG=kasan' "KCONFIG=kasan: expected 'default', 'debug' or 'kcsan'" &&
		bad -w 'series KERNEL_SRC=/nonexistent' 'KERNEL_SRC=/nonexistent: no such directory' &&
		bad -w 'test SERIES_UPTO=abc' 'SERIES_UPTO=abc: a number of patches, from 0 to [0-9]+' &&
		bad -w 'test SERIES_UPTO=999' 'SERIES_UPTO=999: patches/[0-9.]+/series has [0-9]+ patches' &&
		bad -w 'test EXTRA_CONFIG=/nonexistent.config' 'EXTRA_CONFIG: no file /nonexistent.config' &&
		bad -w 'test EXTRA_CONFIG=/etc/hostname' 'EXTRA_CONFIG: /etc/hostname has no CONFIG_ line'
}

t_guest_settings_are_checked_before_the_tree() {
	bad -w 'test VM_MEM=99999999' 'VM_MEM=99999999: MiB of guest memory, a whole number from 256 to the host' &&
		bad -w 'test VM_CPUS=999' 'VM_CPUS=999: guest vCPUs, a whole number from 1 to 255' &&
		bad -w 'test TESTS=,,' 'TESTS=,,: .*\(no test named\)' &&
		bad -w 'test TESTS=cgroup:nosuch' 'TESTS=cgroup:nosuch: not in tests/kselftests.list' &&
		bad -w 'kselftests KERNEL_IMAGE=/etc/hostname' 'KERNEL_IMAGE=/etc/hostname: not an x86 bzImage' &&
		bad -w 'vm ROOTFS=ubuntu' 'ROOTFS=ubuntu: only ROOTFS=debian' &&
		bad -w 'vm ROOTFS=debian ROOTFS_REBUILD=yes' 'ROOTFS_REBUILD=yes: 1 \(on\) or 0 \(off\)' &&
		bad -w 'kselftests QEMU_SHOW=yes' 'QEMU_SHOW=yes: 1 \(on\) or 0 \(off\)' &&
		bad -w 'fuzz FUZZ_MINUTES=0' 'FUZZ_MINUTES=0: minutes of fuzzing' &&
		bad -w 'test SWAP=zram SWAP_BPS=1000000' 'SWAP_BPS=1000000 throttles the swap disk, which SWAP=zram does not use'
}

t_soak_arguments_are_the_soaks_options() {
	bad -w 'soak SOAK_ARGS=--bogus' 'SOAK_ARGS=--bogus: --bogus: the soak takes short options \(tests/soak/soak.c: ' &&
		bad -w 'soak SOAK_ARGS=-q,1' 'SOAK_ARGS=-q,1: -q is not an option of the soak' &&
		bad -w 'soak SOAK_ARGS=-d' 'SOAK_ARGS=-d: -d takes a value' &&
		bad -w 'soak SOAK_ARGS=-d,600,junk' "SOAK_ARGS=-d,600,junk: 'junk' is not an option" &&
		bad -w "soak SOAK_ARGS='-d 600'" 'SOAK_ARGS=-d 600: the soak.s arguments joined by commas'
}

t_bench_check_series_and_package_settings_are_checked_first() {
	bad -w 'bench BENCH_BASE=nosuchname' 'BENCH_BASE=nosuchname: no patch in patches/[0-9.]+/series matches' &&
		bad -w 'bench BENCH_UPTO=999' 'BENCH_UPTO=999: patches/[0-9.]+/series has' &&
		bad -w "bench BENCH_SRC_PKG='x y'" 'BENCH_SRC_PKG=x y: not a Debian package name' &&
		bad -w 'deb DEB_CONFIG_VERSION=bad,version' 'DEB_CONFIG_VERSION=bad,version: not a Debian version' &&
		bad -w 'deb DEB_FLAVOUR=../x' 'DEB_FLAVOUR=../x: a flavour as Debian names it' &&
		bad -w 'deb DEB_FLAVOUR=src' 'DEB_FLAVOUR=src: a flavour as Debian names it' &&
		bad -w "deb-boot DEB_PREVIOUS='Bad Pkg'" 'DEB_PREVIOUS=Bad Pkg: not a Debian package name' &&
		bad 'check-series FROM=999' 'no patch number 999' &&
		bad 'check-series FROM=5 TO=2' 'FROM \(5\) comes after TO \(2\)'
}

t_mail_and_pin_settings_are_checked_before_apt() {
	bad -w 'outgoing VERSION=x' 'VERSION=x: expected the reroll count' &&
		bad -w 'outgoing SENDER=garbage' "SENDER=garbage: expected 'Full Name <email>'" &&
		bad -w "repin VERSION='x y'" 'VERSION=x y: not a Debian version' &&
		bad -w 'check-apply CHECK_VERSIONS=!!x' "'!!x': expected \[PACKAGE=\]VERSION"
}

# WORK= and WORK_ROOT= naming a directory with someone's files: nothing
# is written there, and nothing of it is removed.
t_a_directory_with_someones_files_is_neither_used_nor_cleaned() {
	local a
	for a in "test WORK=$T/user" "test WORK_ROOT=$T/user" "clean WORK=$T/user" "distclean WORK_ROOT=$T/user" \
		'distclean WORK_ROOT=/'; do
		mkuser
		bad "$a" "(WORK|WORK_ROOT)=[^ ]* (holds files this project did not make|is not a work directory of this project)" ||
			return 1
		[ "$(find "$T/user" | wc -l)" = 4 ] && [ "$(cat "$T/user/build/notes")" = mine ] ||
			fail "make $a changed the user's directory: $(find "$T/user")" || return 1
	done
}

run_cases "$@"
