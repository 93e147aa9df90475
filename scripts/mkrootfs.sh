#!/bin/bash
# A Debian root file system for make vm ROOTFS=debian: debootstrap from
# Debian's mirror into $WORK_ROOT/rootfs/<suite>.d (cached: made once, again
# only with ROOTFS_REBUILD=1), then an ext2 image with the project's test
# programs and an init that sets up swap and zswap, written anew each time
# from the cached tree (seconds). ext2 because the guest kernel has it
# built in (kernel-config/qemu-guest.config); no initramfs is needed.
#   ROOTFS_SUITE   Debian suite (default bookworm)
#   ROOTFS_MIRROR  mirror (default: the system's Debian mirror)
#   ROOTFS_SIZE    image size (default 2G, sparse)
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/debian-apt.sh"
suite=${ROOTFS_SUITE:-bookworm}
mirror=${ROOTFS_MIRROR:-$(debian_mirror main)}
dir=$WORK_ROOT/rootfs/$suite.d
img=$WORK_ROOT/rootfs/$suite.img
need mke2fs

if [ "${ROOTFS_REBUILD:-0}" = 1 ] || [ ! -f "$dir/.complete" ]; then
	need debootstrap
	[ "$(id -u)" = 0 ] || die "debootstrap needs root" "sudo make vm ROOTFS=debian"
	say "debootstrap $suite from $mirror into $dir (a few minutes, once)"
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$(dirname "$dir")"
	debootstrap --variant=minbase --include=procps,stress-ng,kmod,util-linux \
		"$suite" "$dir.tmp" "$mirror" >"$LOGS/debootstrap.log" 2>&1 ||
		{ tail -20 "$LOGS/debootstrap.log" >&2
		  die "debootstrap failed (log: $LOGS/debootstrap.log)" "check the mirror, then: make vm ROOTFS=debian ROOTFS_REBUILD=1"; }
	rm -rf "$dir.tmp"/var/cache/apt/archives/*.deb
	touch "$dir.tmp/.complete"
	mv "$dir.tmp" "$dir"
else
	say "cached Debian root file system: $dir (ROOTFS_REBUILD=1 makes it again)"
fi

# The project's programs and an init that needs nothing but bash.
opt=$dir/opt/zswap-stack
rm -rf "$opt"
mkdir -p "$opt/bin" "$opt/kselftest"
cp -r "$BUILD/kselftest/." "$opt/kselftest/" 2>/dev/null || true
cp "$BUILD"/guest-bin/* "$opt/bin/" 2>/dev/null || true
cp "$TOP/tests/guest/bench-run" "$TOP/tests/bench/workloads.list" "$opt/"
cp -r "$TOP/tests/guest/tests" "$opt/tests"
cat >"$dir/sbin/zswap-stack-init" <<'EOF'
#!/bin/bash
# PID 1 of make vm ROOTFS=debian: mounts, swap on /dev/vda, zswap on, a
# login shell on the serial console; ksft.run=BASE64 runs the command it
# encodes (base64: any command survives the kernel command line) instead
# and powers off.
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /run /tmp
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup
echo +memory >/sys/fs/cgroup/cgroup.subtree_control
mount -t debugfs debugfs /sys/kernel/debug
mount -o remount,rw /
hostname zswap-stack
mkswap /dev/vda >/dev/null && swapon /dev/vda
echo Y >/sys/module/zswap/parameters/enabled
echo "zswap-stack: $(uname -r), $(nproc) cpu(s), swap: $(swapon --show=NAME --noheadings)," \
	"zswap $(cat /sys/module/zswap/parameters/enabled)/$(cat /sys/module/zswap/parameters/compressor)"
echo "zswap-stack: test programs in /opt/zswap-stack (kselftest/, bin/, tests/)"
run=
for a in $(cat /proc/cmdline); do
	case $a in ksft.run=*) run=$(echo "${a#*=}" | base64 -d) ;; esac
done
if [ -n "$run" ]; then
	echo "zswap-stack: running: $run"
	bash -c "$run"
	echo "zswap-stack: exit status $?"
else
	setsid -c bash -l </dev/ttyS0 >/dev/ttyS0 2>&1
fi
sync
# minbase has no poweroff: reboot(2) with LINUX_REBOOT_CMD_POWER_OFF
perl -e 'syscall(169, 0xfee1dead, 672274793, 0x4321fedc)'
EOF
chmod 755 "$dir/sbin/zswap-stack-init"

say "writing $img from $dir"
rm -f "$img"
mke2fs -q -t ext2 -d "$dir" "$img" "${ROOTFS_SIZE:-2G}" ||
	die "mke2fs of $img failed" "df -h $WORK"
say "rootfs image ready: $img"
