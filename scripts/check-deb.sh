#!/bin/bash
# check-deb.sh LINUX-IMAGE.deb: the package make deb built is what a user
# installs: its metadata names a kernel image package, it carries the
# kernel, its config and (with CONFIG_MODULES) modules, the config has
# every option of kernel-config/zswap-memcg.config, and its System.map has
# every global function the series adds (the kernel is the patched one).
# With CONFIG_MODULES, the linux-headers package of the same kernel beside
# it must carry what out-of-tree modules build against.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-build.sh"
deb=${1:?usage: check-deb.sh linux-image-....deb}
[ -f "$deb" ] || die "no package $deb" "make deb"
need dpkg-deb
bad=0
no() { printf '  FAIL %s\n' "$*"; bad=1; }
ok() { printf '  ok   %s\n' "$*"; }

info=$(dpkg-deb -I "$deb")
pkg=$(dpkg-deb -f "$deb" Package)
ver=$(dpkg-deb -f "$deb" Version)
arch=$(dpkg-deb -f "$deb" Architecture)
kver=${pkg#linux-image-}
say "checking $deb: $pkg $ver $arch"
case $pkg in linux-image-*-zswap-stack-*) ok "package $pkg names the series" ;;
*) no "package name $pkg lacks the series' local version" ;; esac
[ "$arch" = amd64 ] && ok "architecture amd64" || no "architecture $arch"
printf '%s\n' "$info" | grep -q '^ *Description:' && ok "has a description" || no "no Description"

list=$(dpkg-deb -c "$deb" | awk '{ print $6 }')
has() { printf '%s\n' "$list" | grep -qE "$1"; }
has "^\./boot/vmlinuz-$kver\$" && ok "kernel ./boot/vmlinuz-$kver" || no "no ./boot/vmlinuz-$kver"
has "^\./boot/config-$kver\$" && ok "config ./boot/config-$kver" || no "no ./boot/config-$kver"
has "^\./boot/System.map-$kver\$" && ok "System.map" || no "no System.map"

member() { dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "$1" 2>/dev/null || true; }
cfg=$(member "./boot/config-$kver")
while read -r line; do
	grep -qxF "$line" <<<"$cfg" && ok "config has $line" || no "config lacks $line"
done < <(fragment_for_tree "$TOP/kernel-config/zswap-memcg.config" | grep -E '^CONFIG_[A-Z0-9_]+=')

# Functions the series adds at file scope outside tools/ and not static.
syms=$(series_text |
	awk '/^\+\+\+ / { f = $2 } f !~ /^b\/tools\// && /^\+[a-z]/ && !/^\+static/ &&
		!/;$/ && match($0, /[a-z_0-9]+\(/) { print substr($0, RSTART, RLENGTH - 1) }' | sort -u)
map=$(member "./boot/System.map-$kver")
for s in $syms; do
	grep -qE " [Tt] $s\$" <<<"$map" && ok "System.map has $s (added by the series)" ||
		no "System.map lacks $s: not built from this series?"
done

if grep -qx 'CONFIG_MODULES=y' <<<"$cfg"; then
	n=$(printf '%s\n' "$list" | grep -cE "^\./lib/modules/$kver/.*\.ko(\.xz|\.zst|\.gz)?\$" || true)
	[ "$n" -gt 0 ] && ok "$n module(s) in ./lib/modules/$kver" || no "CONFIG_MODULES=y but no module"
	hdr=$(ls "$(dirname "$deb")/linux-headers-${kver}_"*.deb 2>/dev/null | head -1 || true)
	[ -n "$hdr" ] || no "no linux-headers-${kver}_*.deb beside $deb"
fi
if [ -n "${hdr:-}" ]; then
	hlist=$(dpkg-deb -c "$hdr" | awk '{ print $6 }')
	for f in usr/src/linux-headers-$kver/{Makefile,Module.symvers,include/config/auto.conf,scripts/mod/modpost} \
		lib/modules/$kver/build; do
		printf '%s\n' "$hlist" | grep -qxF "./$f" && ok "headers: ./$f" || no "$(basename "$hdr") lacks ./$f"
	done
fi
[ $bad = 0 ] || die "$deb does not carry what make deb promises (above)"
say "$deb: all checks passed"
