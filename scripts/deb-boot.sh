#!/bin/bash
# make deb-boot: the packaged kernel as a Debian user gets it. The
# linux-image package make deb built (DEB_FLAVOUR, default guest) is
# installed with dpkg into a copy of the Debian root file system of
# make vm ROOTFS=debian that has initramfs-tools and Debian's own cloud
# kernel (the "previous kernel"), so the package's postinst makes its
# initrd as on a real system. The guest then boots the newest
# /boot/vmlinuz-* with its /boot/initrd.img-*, as a boot loader would:
# it must be the package's, and it runs the test list of make test (the
# kselftests, stress-ng, the soak) with the same results table. Last,
# dpkg -r removes the package, and the guest must boot the previous
# kernel.
#   DEB_FLAVOUR    which of make deb's packages (guest, amd64_none_cloud-amd64, ...)
#   DEB_PREVIOUS   the Debian kernel package installed first (linux-image-cloud-amd64)
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-guest.sh"
check_settings
. "$TOP/scripts/debian-apt.sh"
flavour=${DEB_FLAVOUR:-guest}
previous=${DEB_PREVIOUS:-linux-image-cloud-amd64}
suite=${ROOTFS_SUITE:-bookworm}
need chroot dpkg-deb mke2fs
[ "$(id -u)" = 0 ] || die "dpkg in a chroot needs root" "sudo make deb-boot"
mkdir -p "$LOGS"

lv=$(deb_localversion)
deb=$(ls "$(deb_dir "$flavour")/linux-image-"*"$lv"_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] ||
	die "no linux-image package of this series ($lv, flavour $flavour) in $(deb_dir "$flavour")" \
		"make deb DEB_FLAVOUR=$flavour"
pkg=$(dpkg-deb -f "$deb" Package)
kver=${pkg#linux-image-}
tests=$BUILD/initramfs.d
[ -f "$tests/etc/tests.list" ] || die "no test programs in $tests" "make build initramfs"

# The Debian tree with initramfs-tools and the previous kernel: a copy of
# make vm's tree, kept in $WORK_ROOT/rootfs/<suite>-deb.d.
base=$WORK_ROOT/rootfs/$suite-deb.d
if [ ! -d "$base" ]; then
	"$TOP/scripts/mkrootfs.sh"
	say "copying make vm's tree to $base (once)"
	rm -rf "$base.tmp"
	cp -a "$WORK_ROOT/rootfs/$suite.d" "$base.tmp"
	mv "$base.tmp" "$base"
fi
# What it needs beyond make vm's tree, installed with the tree's own apt
# when missing: initramfs-tools, Debian's kernel, and ip(8), with which
# the init brings up the loopback device (test_memcg_sock uses it).
# shellcheck disable=SC2086
root_install "$base" "$LOGS/deb-boot-base.log" "check the mirror, then: make deb-boot" \
	initramfs-tools iproute2 $previous

run=$WORK/deb-boot
root=$run/root.d
img=$run/root.img
log=$LOGS/deb-boot-dpkg.log
: >"$log"
say "copying $base to $root"
rm -rf "$root"
mkdir -p "$run"
cp -a "$base" "$root"
# The test programs where the guest's init looks for them; localhost
# resolves from /etc/hosts, as in the initramfs.
cp -a "$tests/tests" "$root/tests"
cp "$tests/etc/tests.list" "$root/etc/tests.list"
[ -f "$root/etc/hosts" ] || printf '127.0.0.1 localhost\n::1 localhost\n' >"$root/etc/hosts"
cp "$TOP/tests/guest/init" "$root/sbin/zswap-stack-init"
install -m 755 "$TOP/tests/guest/zram-swap" "$root/usr/local/bin/"

# newest: the newest kernel in /boot with its initrd, as a boot loader
# would pick it.
newest() { (cd "$root/boot" && ls vmlinuz-* 2>/dev/null | sed 's/^vmlinuz-//' | sort -V | tail -1); }
# image: the tree as the guest's root file system.
image() {
	rm -f "$img"
	mke2fs -q -t ext2 -d "$root" "$img" "${ROOTFS_SIZE:-3G}" || die "mke2fs of $img failed" "df -h $WORK"
}

say "dpkg -i $(basename "$deb") (log: $log)"
cp "$deb" "$root/tmp/"
in_root "$root" "$log" dpkg -i "/tmp/$(basename "$deb")" || {
	tail -20 "$log" >&2
	die "dpkg -i of $(basename "$deb") failed in $root (log: $log)" "fix the package, then: make deb-boot"
}
rm -f "$root/tmp/$(basename "$deb")"
for f in vmlinuz initrd.img config System.map; do
	[ -f "$root/boot/$f-$kver" ] ||
		die "dpkg -i left no /boot/$f-$kver (log: $log)" "ls $root/boot; tail $log"
done
say "installed: $(cd "$root/boot" && ls vmlinuz-* initrd.img-* | paste -sd' ')"
[ "$(newest)" = "$kver" ] || die "the newest kernel in /boot is $(newest), not the package's $kver" "ls $root/boot"
image
export ROOTFS=debian
say "booting the package's /boot/vmlinuz-$kver with /boot/initrd.img-$kver"
# The tree's known failures, and those of a disk-backed Debian root.
known=$run/known-failures.txt
cat "$TREE_DIR/known-failures.txt" "$TOP/tests/rootfs-known-failures.txt" >"$known"
rc=0
KERNEL_IMAGE=$root/boot/vmlinuz-$kver "$TOP/scripts/qemu.sh" test --name "deb-boot-$flavour" --known "$known" \
	--image "$img" --initrd "$root/boot/initrd.img-$kver" || rc=$?
slog=$(serial_log "deb-boot-$flavour")
tr -d '\r' <"$slog" | grep -q "^guest: $kver, " ||
	die "the guest did not run the package's kernel $kver (log: $slog)"
[ $rc = 0 ] || die "the tests failed on the installed package (kernel $kver)" "see the table above"

say "dpkg -r $pkg"
owned=$(chroot "$root" dpkg-query -L "$pkg")
in_root "$root" "$log" dpkg -r "$pkg" || {
	tail -20 "$log" >&2
	die "dpkg -r $pkg failed (log: $log)"
}
# Every file the package owned, and the initrd its hook wrote, must be
# gone. depmod's output in /lib/modules/<version> is no package's:
# bindeb-pkg's postrm leaves it (Debian's own kernel packages delete it).
for f in $owned "/boot/initrd.img-$kver"; do
	[ -d "$root$f" ] || [ ! -e "$root$f" ] || die "dpkg -r $pkg left $f behind" "ls $root$(dirname "$f")"
done
left=$(find "$root/lib/modules/$kver" -type f 2>/dev/null | wc -l)
[ "$left" = 0 ] || warn "dpkg -r left $left files depmod generated in /lib/modules/$kver (no package owns them)"
prev=$(newest)
[ -n "$prev" ] && [ -f "$root/boot/initrd.img-$prev" ] ||
	die "no kernel with an initrd is left in /boot after dpkg -r" "ls $root/boot"
image
say "booting the previous kernel, /boot/vmlinuz-$prev"
KERNEL_IMAGE=$root/boot/vmlinuz-$prev VM_RUN='uname -r' "$TOP/scripts/qemu.sh" run \
	--image "$img" --initrd "$root/boot/initrd.img-$prev"
slog=$(serial_log rootfs)
tr -d '\r' <"$slog" | grep -qx "$prev" ||
	die "the guest did not come up on the previous kernel $prev (log: $slog)"
say "deb-boot: $pkg installed, booted and tested; removed, and $prev boots"
