#!/bin/bash
# make deb: installable Debian packages of the patched kernel, built with
# the kernel's bindeb-pkg in $WORK/build/<tree>-deb-<flavour>/ (O=), the
# .debs in $WORK/deb/<flavour>/. The config is Debian's own for the pinned
# version (package linux-config-X.Y of the tree, fetched with apt:
# config.<flavour>.xz, flavour amd64_none_amd64 by default,
# DEB_FLAVOUR=amd64_none_cloud-amd64 for the smaller cloud kernel;
# DEB_CONFIG_VERSION= another build), with kernel-config/zswap-memcg.config on
# top, no debug info and no signing keys from Debian's build. The local
# version names the series: -zswap-stack-<N patches>-<hash of the series>.
# DEB_FLAVOUR=guest packages the project's own minimal guest config
# instead (minutes, not hours: the same objects as make build, so ccache
# has them; no modules): for checking the packaging itself.
# Debian's configs take hours, so they build from a copy of the patched
# tree in $WORK/deb/src/: the work tree may move on (make series, make
# check-series) while the packages build.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$(dirname "$0")/lib-build.sh"
mkdir -p "$LOGS"
# bindeb-pkg runs dpkg-buildpackage and debhelper's dh_* commands.
if ! command -v dpkg-buildpackage >/dev/null 2>&1 || ! command -v dh_builddeb >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || die "dpkg-dev or debhelper is not installed" \
		"sudo apt-get install dpkg-dev debhelper"
	say "installing dpkg-dev and debhelper (bindeb-pkg needs them)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		dpkg-dev debhelper >"$LOGS/apt-deb.log" 2>&1 ||
		die "could not install dpkg-dev debhelper (log: $LOGS/apt-deb.log)"
fi
need dpkg-deb xz
flavour=${DEB_FLAVOUR:-amd64_none_amd64}
need_tree
mkdir -p "$WORK/deb"
# make deb takes its stages' lock only for deps/tree/series; two builds
# would share work/deb/src/ and the build dir.
lock "$WORK/.deb.lock" "make deb in $WORK"

localversion=$(deb_localversion)
n=$(series_entries "$PATCHES/series" | wc -l)

out=$(deb_build_dir "$flavour")
mkdir -p "$out"
if [ "$flavour" = guest ]; then
	src=$BUILD/.config
	[ -f "$src" ] || die "no guest config at $src" "make config"
	cp "$src" "$out/.config.base"
	: >"$out/.config.extra"
else
	# One path for every series: ccache keys on it, so a new series
	# recompiles only what it changed. Files get the copy's time (-m), so
	# make never keeps an object older than a file that went back to an
	# older version.
	snap=$WORK/deb/src
	if [ "$(cat "$snap/.zswap-stack-complete" 2>/dev/null)" != "$localversion" ]; then
		say "copying the patched tree to $snap"
		rm -rf "$snap"
		mkdir -p "$snap"
		tar -C "$KERNEL_SRC" --exclude=./.pc --exclude=./patches -cf - . | tar -C "$snap" -m -xf -
		echo "$localversion" >"$snap/.zswap-stack-complete"
	fi
	KERNEL_SRC=$snap
	# Debian's configs of the pinned version: linux-config-X.Y, fetched
	# with apt's private lists like the tree itself.
	cfgpkg=${PIN_PKG/source/config}
	cfgver=${DEB_CONFIG_VERSION:-$PIN_VERSION}
	cfgdir=$WORK_ROOT/$cfgpkg-$cfgver
	if [ ! -d "$cfgdir/usr/src/$cfgpkg" ] && [ -z "${DEB_CONFIG_VERSION:-}" ]; then
		# the other build of the same release an earlier make deb took (below)
		for d in "$WORK_ROOT/$cfgpkg-${PIN_VERSION%%-*}"-*/usr/src/"$cfgpkg"; do
			case $d in *.tmp/*) continue ;; esac
			[ -d "$d" ] || continue
			cfgdir=${d%/usr/src/*}; cfgver=${cfgdir##*/"$cfgpkg"-}
			break
		done
	fi
	if [ ! -d "$cfgdir/usr/src/$cfgpkg" ]; then
		. "$TOP/scripts/debian-apt.sh"
		mapfile -t suites < <(tree_suites)
		apt_private_update "${suites[@]}"
		# linux-config is built per architecture, and the archive keeps
		# only the newest build of those: the pinned one can be gone while
		# its linux-source (arch all) is still there. Then take the same
		# upstream release's config from another suite (6.12.117-1 for
		# 6.12.117-1~deb12u1: the same source, built for the next Debian).
		if [ -z "${DEB_CONFIG_VERSION:-}" ] && ! offered "$cfgpkg" "$cfgver"; then
			alt=$(on_offer "$cfgpkg" | awk -v u="${PIN_VERSION%%-*}" 'index($1, u "-") == 1 { print $1; exit }')
			[ -n "$alt" ] || die "$cfgpkg $cfgver is not offered, nor another build of ${PIN_VERSION%%-*}; on offer: $(offer_list "$cfgpkg")" \
				"make deb DEB_CONFIG_VERSION=<one of them>   (a config of another release: say so when you report)"
			say "$cfgpkg $cfgver is gone from the archive; using $alt, the same upstream release's config"
			cfgver=$alt
			cfgdir=$WORK_ROOT/$cfgpkg-$cfgver
		fi
		apt_private_fetch "$cfgpkg" "$cfgver" "${suites[@]}"
		rm -rf "$cfgdir.tmp"
		dpkg-deb -x "$deb" "$cfgdir.tmp" || die "could not unpack $deb"
		mv "$cfgdir.tmp" "$cfgdir"
	fi
	src=$cfgdir/usr/src/$cfgpkg/config.$flavour.xz
	[ -f "$src" ] || die "no config.$flavour.xz in $cfgpkg $cfgver" "ls $cfgdir/usr/src/$cfgpkg/   # the flavours"
	xz -dc "$src" >"$out/.config.base"
	# Debian's build signs with keys that are not here: each key file
	# the config names is replaced (only those it sets: the merge checks
	# that every line it is given survives). No debug info, which takes
	# hours more; BTF and the DWARF choices go with it.
	{
		for k in SYSTEM_TRUSTED_KEYS=\"\" SYSTEM_REVOCATION_KEYS=\"\" MODULE_SIG_KEY=\"certs/signing_key.pem\"; do
			! grep -q "^CONFIG_${k%%=*}=" "$out/.config.base" || echo "CONFIG_$k"
		done
		echo CONFIG_DEBUG_INFO_NONE=y
	} >"$out/.config.extra"
fi
# The project's options on Debian's config, merged and checked as make
# config does (lib.sh merge_fragments: every option must survive).
fragment_for_tree "$TOP/kernel-config/zswap-memcg.config" >"$out/.config.zswap-memcg"
say "merging kernel-config/zswap-memcg.config into $(basename "$src" .xz)"
merge_fragments "$out/.config-new.d" "$out/.config.base" "$out/.config.zswap-memcg" "$out/.config.extra"
mv "$out/.config-new.d/.config" "$out/.config"
rm -rf "$out/.config-new.d"

say "building packages ($flavour, LOCALVERSION=$localversion) in $out; log: $LOGS/deb-$flavour.log"
[ "$flavour" = guest ] || say "  Debian's full config: hours on a small machine (see README)"
t0=$(date +%s)
rm -f "$WORK/build/"*.deb "$WORK/build/"*.buildinfo "$WORK/build/"*.changes
# -d: the generated debian/control asks for gcc-x86-64-linux-gnu, a
# package bookworm does not have; make deps installed the real tools.
BUILD=$out kmake LOCALVERSION="$localversion" KDEB_PKGVERSION="$PIN_VERSION+zs$n" \
	DPKG_FLAGS=-d bindeb-pkg >"$LOGS/deb-$flavour.log" 2>&1 || {
	grep -E 'error|Error' "$LOGS/deb-$flavour.log" | head -20 >&2
	die "bindeb-pkg failed (log: $LOGS/deb-$flavour.log)" "fix the error, then: make deb"
}
# Every flavour's packages have the same names: one directory each.
debs=$(deb_dir "$flavour")
rm -rf "$debs"
mkdir -p "$debs"
mv "$WORK/build/"*.deb "$debs/"
rm -f "$WORK/build/"*.buildinfo "$WORK/build/"*.changes
say "packages built in $(($(date +%s) - t0))s:"
ls -l "$debs/"*.deb
"$TOP/scripts/check-deb.sh" "$debs/linux-image-"*"$localversion"_*.deb
