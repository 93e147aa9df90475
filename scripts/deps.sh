#!/bin/bash
# Install the Debian packages the pipeline needs, only those missing.
# Not root: print the apt-get command and stop.
set -eu
. "$(dirname "$0")/lib.sh"

# package:command-or-file that proves it is installed
pkgs="quilt:quilt qemu-system-x86:qemu-system-x86_64 busybox-static:/bin/busybox
cpio:cpio ccache:ccache gcc:gcc make:make bc:bc flex:flex bison:bison
libelf-dev:/usr/include/libelf.h libssl-dev:/usr/include/openssl/ssl.h
zstd:zstd xz-utils:xz perl:perl python3:python3 gawk:gawk gnuplot-nox:gnuplot
stress-ng:stress-ng trinity:trinity git:git debootstrap:debootstrap rsync:rsync shellcheck:shellcheck"
missing=
for pc in $pkgs; do
	p=${pc%%:*} c=${pc#*:}
	case $c in
	/*) [ -e "$c" ] || missing="$missing $p" ;;
	*) command -v "$c" >/dev/null 2>&1 || missing="$missing $p" ;;
	esac
done
# busybox (dynamic) also provides /bin/busybox; the guest needs the static one.
if [ -x /bin/busybox ] && readelf -l /bin/busybox 2>/dev/null | grep -q 'program interpreter'; then
	missing="$missing busybox-static"
fi
if [ -z "$missing" ]; then
	say "build and test dependencies present"
	exit 0
fi
cmd="apt-get install -y --no-install-recommends$missing"
[ "$(id -u)" = 0 ] || die "missing packages:$missing" "sudo apt-get update && sudo $cmd"
say "installing:$missing"
apt-get update -q >/dev/null || die "apt-get update failed"
DEBIAN_FRONTEND=noninteractive $cmd >"$WORK/apt.log" 2>&1 ||
	{ tail -20 "$WORK/apt.log" >&2; die "apt-get install failed (log: $WORK/apt.log)"; }
say "installed:$missing"
