#!/bin/bash
# make repin VERSION=V [TREE=...]: move the pinned base of TREE to another
# Debian build of the same source package, when the archive dropped the
# pinned one (security suites keep only recent versions). Finds the suite
# that offers V, downloads it, records version, suite and the tarball's
# sha256 in patches/TREE/tree.env, extracts the new tree and runs
# check-apply on it. The series is not changed: what check-apply reports
# is the work left (refresh what fails, then make test).
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/debian-apt.sh"
[ "$PINNED" = 1 ] || die "repin moves the pinned tree; unset KERNEL_SRC"
v=${VERSION:-}
[ -n "$v" ] || die "which version? VERSION= names the Debian version of $PIN_PKG" \
	"make repin TREE=$TREE VERSION=...   (make tree lists the versions on offer)"
debian_version "$v" || die "VERSION=$v: not a Debian version (as $PIN_VERSION)" \
	"make repin TREE=$TREE VERSION=...   (make tree lists the versions on offer)"
[ "$v" != "$PIN_VERSION" ] || die "$PIN_PKG $v is already the pin of TREE=$TREE" "make tree"

mapfile -t suites < <(tree_suites)
apt_private_update "${suites[@]}"
suite=$(on_offer "$PIN_PKG" | awk -v v="$v" '$1 == v { print $2; exit }')
[ -n "$suite" ] ||
	die "$PIN_PKG $v is not offered by ${suites[*]}; on offer: $(offer_list "$PIN_PKG")" \
		"make repin TREE=$TREE VERSION=<one of them>"
apt_private_fetch "$PIN_PKG" "$v" "${suites[@]}"
tarball=$WORK_ROOT/tarballs/${PIN_PKG}_${v//:/%3a}.tar.xz
[ -f "$tarball" ] || tarball_from_deb "$deb" "$PIN_PKG" "$tarball"
sum=$(sha256sum "$tarball" | cut -d' ' -f1)

say "pinning $PIN_PKG $v ($suite, sha256 $sum) in $TREE_ENV (was $PIN_VERSION, $PIN_SUITE)"
sed -i -e "s|^PIN_VERSION=.*|PIN_VERSION=$v|" -e "s|^PIN_SUITE=.*|PIN_SUITE=$suite|" \
	-e "s|^PIN_TARBALL_SHA256=.*|PIN_TARBALL_SHA256=$sum|" "$TREE_ENV"
# The scripts below read the new pin afresh.
unset PIN_TARBALL PIN_SHA256 PIN_VERSION PIN_SUITE PIN_TARBALL_SHA256
"$TOP/scripts/fetch-tree.sh"
rc=0
"$TOP/scripts/check-apply.sh" || rc=$?
if [ $rc = 0 ]; then
	say "the series applies cleanly to $PIN_PKG $v"
	say "next: make test TREE=$TREE, then commit $TREE_ENV"
else
	warn "the series does not apply cleanly to $PIN_PKG $v (table above)"
	say "next: make series TREE=$TREE, fix what fails (its advice, then make refresh P=...), make test; commit $TREE_ENV with the refreshed patches"
fi
exit $rc
