# shellcheck shell=bash
# The core of the scripts' library, sourced by every script in scripts/:
# the tree, work and build paths, messages (say, warn, die with a next
# step), need, locks, stamps, series_entries, work directories and timed.
# The rest is in parts a script sources after this file when it does that
# job:
#   lib-series.sh  the series: series_load, quilt (q), patch_whole,
#                  checkpatch_strict, deb_localversion
#   lib-build.sh   config fragments (merge_fragments) and the kernel's make
#   lib-guest.sh   the guest's test list and check_settings, the check of
#                  the guest's and the bench's settings that the entry
#                  points taking them call first
# Sourcing any of them only defines variables and functions, except that
# a bad TREE, KCONFIG or KERNEL_SRC stops here (below).
#
# Variables a user may set (make passes them through the environment):
#   TREE        which pinned tree and series: a directory patches/TREE/
#               holding tree.env (the pin) and series (default: 7.3)
#   WORK        work directory of that tree (default: ./work/TREE)
#   WORK_ROOT   what the trees share: downloaded packages, apt lists,
#               tarballs, root file systems (default: ./work)
#   KERNEL_SRC  kernel tree to use instead of the pinned Debian tree
#   KCONFIG     config variant: "default", "debug" (adds debug.config) or
#               "kcsan" (adds kcsan.config)
#   PATCHES     patch directory holding "series" (default: patches/TREE)
#
# Only what the user gave is exported again (normalized); everything
# computed here (BUILD, the pinned KERNEL_SRC, ...) is computed afresh by
# every script that sources this file, so a child script never mistakes
# a parent's computed value for a user's choice.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# A bad TREE, KCONFIG or KERNEL_SRC stops here, when the file is sourced
# (exit 2): every path below derives from them and every script uses
# those paths, so no script could go on; a check each script had to call
# would be one a new script could forget.
# TREE is the name of a directory of patches/, not a path: it names the
# work directory and its lock too. Set but empty is a mistake, not 7.3.
case ${TREE-7.3} in
'') _bad="TREE is empty" ;;
*/*|.*) _bad="TREE=$TREE is a path: give a tree's name" ;;
*) _bad= ;;
esac
TREE=${TREE:-7.3}
# (PIN_ENV= points the host tests at a copy of a tree.env.)
TREE_ENV=${PIN_ENV:-$TOP/patches/$TREE/tree.env}
[ -n "$_bad" ] || [ -f "$TREE_ENV" ] || _bad="TREE=$TREE: no $TREE_ENV"
if [ -n "$_bad" ]; then
	echo "error: $_bad" >&2
	echo "  next: use one of: $(cd "$TOP/patches" && ls -d -- */ 2>/dev/null | tr -d / | paste -sd' ')" >&2
	exit 2
fi
unset _bad
# shellcheck source=patches/7.3/tree.env
. "$TREE_ENV"

# The work layout, written once: the scripts name a tree's directories
# and files with these functions. WORK is this tree's; the optional WORK
# argument names another work directory (check-series' walk, a bench
# point's), which holds the same layout.
# work_dir TREE: TREE's work directory: the user's WORK= (make gives it
# to every script, whatever the tree), else WORK_ROOT/TREE.
work_dir() { echo "${_work_given:-$WORK_ROOT/$1}"; }
# pinned_tree [WORK]: where the pinned tree is extracted.
pinned_tree() { echo "${1:-$WORK}/$PIN_TOPDIR"; }
# build_dir [WORK]: the kernel's O= directory for this tree and config.
build_dir() { echo "${1:-$WORK}/build/$TREE_TAG-$KCONFIG"; }
# walk_dir [WORK]: make check-series' work directory (its own tree and build).
walk_dir() { echo "${1:-$WORK}/check-series"; }
# serial_log, tap_log NAME [WORK]: a guest run's console and TAP logs.
serial_log() { echo "${2:-$WORK}/logs/serial-$1.log"; }
tap_log() { echo "${2:-$WORK}/logs/tap-$1.log"; }
# results_tsv NAME [WORK]: that run's results as results.sh parsed them.
results_tsv() { echo "${2:-$WORK}/results/$1.tsv"; }
# kcsan_list NAME [WORK]: that run's KCSAN reports, one "f1 / f2" a line.
kcsan_list() { echo "${2:-$WORK}/results/$1.kcsan"; }
# deb_dir FLAVOUR: make deb's packages of that flavour; deb_build_dir
# FLAVOUR: their kernel build (O=); bench_dir: make bench's points and
# reports.
deb_dir() { echo "$WORK/deb/$1"; }
deb_build_dir() { echo "$WORK/build/$TREE_TAG-deb-$1"; }
bench_dir() { echo "$WORK/bench"; }
# gcl_dir: where deps.sh installs gitlab-ci-local and its Node.js.
gcl_dir() { echo "$WORK_ROOT/tools/gitlab-ci-local"; }

WORK_ROOT=$(realpath -m "${WORK_ROOT:-$TOP/work}")
_work_given=
[ -z "${WORK:-}" ] || { _work_given=$(realpath -m "$WORK"); export WORK=$_work_given; }
WORK=$(work_dir "$TREE")
# The pinned tarball, taken out of the Debian package by fetch-tree.sh.
# (The host tests point PIN_TARBALL/PIN_SHA256 at bad inputs.)
PIN_TARBALL=${PIN_TARBALL:-$WORK_ROOT/tarballs/${PIN_PKG}_${PIN_VERSION//:/%3a}.tar.xz}
PIN_SHA256=${PIN_SHA256:-$PIN_TARBALL_SHA256}
TREE_DIR=$TOP/patches/$TREE
PATCHES=${PATCHES:-$TREE_DIR}
# The patch directory as the messages name it: patches/TREE in the checkout.
# shellcheck disable=SC2034 # the scripts'
PATCHES_SHOWN=${PATCHES#"$TOP"/}
KCONFIG=${KCONFIG:-default}
case $KCONFIG in default|debug|kcsan) ;; *)
	echo "error: KCONFIG=$KCONFIG: expected 'default', 'debug' or 'kcsan'" >&2
	exit 2 ;;
esac

if [ -n "${KERNEL_SRC:-}" ]; then
	_src=$KERNEL_SRC
	KERNEL_SRC=$(cd "$_src" 2>/dev/null && pwd) || {
		if [ -e "$_src" ]; then
			echo "error: KERNEL_SRC=$_src is a file, not a kernel tree's directory" >&2
		else
			echo "error: KERNEL_SRC=$_src: no such directory" >&2
		fi
		echo "  next: point KERNEL_SRC at the top of a kernel source tree, or unset it for the pinned $TREE tree" >&2
		exit 2
	}
	export KERNEL_SRC
	TREE_TAG=src-$(printf %s "$KERNEL_SRC" | sha1sum | cut -c1-8)
	PINNED=0
else
	KERNEL_SRC=$(pinned_tree "$WORK")
	TREE_TAG=pinned
	PINNED=1
fi
BUILD=${BUILD:-$(build_dir "$WORK")}
# shellcheck disable=SC2034 # the scripts'
LOGS=$WORK/logs

say()  { printf '==> %s\n' "$*"; }
# usage: the calling script's header comment, which is its usage (-h).
usage() { sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
# The settings a user gave that pick this run's tree, config and work
# directory: a next step "make X" must carry them to reach the same state.
_given=()
for _v in TREE KCONFIG KERNEL_SRC WORK WORK_ROOT PATCHES; do
	case $_v:${!_v} in
	TREE:7.3|KCONFIG:default|WORK:"$WORK_ROOT/$TREE") ;;
	WORK_ROOT:"$TOP/work"|PATCHES:"$TREE_DIR"|KERNEL_SRC:*) ;;
	*) [ -z "${!_v}" ] || _given+=("$_v=${!_v}") ;;
	esac
done
[ "$PINNED" = 1 ] || _given+=("KERNEL_SRC=$KERNEL_SRC")
# next_step TEXT: TEXT with the user's settings added to each "make
# TARGET..." in it that does not already set them (make deps needs none).
# Bash alone: it runs where a tool is missing, to name the package.
next_step() {
	local add='' v w core rest out='' inmake=0 seen=0 targets=' ' line
	local -a words
	for v in ${_given[@]+"${_given[@]}"}; do
		case $1 in *"${v%%=*}="*) ;; *) add="$add $v" ;; esac
	done
	[ -n "$add" ] || { printf %s "$1"; return; }
	while IFS= read -r line; do
		[[ $line =~ ^([a-z][a-z0-9\ -]*): ]] && targets="$targets${BASH_REMATCH[1]} "
	done <"$TOP/Makefile"
	targets=${targets/ deps / }
	read -ra words <<<"$1"
	for w in "${words[@]}"; do
		core=${w%%[!a-z0-9-]*}
		rest=${w#"$core"}
		if [ $inmake = 1 ] && [ -n "$core" ] && [[ $targets == *" $core "* ]]; then
			seen=1
			if [ -n "$rest" ]; then out="$out $core$add$rest"; inmake=0; else out="$out $w"; fi
			continue
		fi
		[ $inmake = 0 ] || [ $seen = 0 ] || out="$out$add"
		inmake=0
		[ "$w" != make ] || { inmake=1; seen=0; }
		out="$out $w"
	done
	[ $inmake = 0 ] || [ $seen = 0 ] || out="$out$add"
	printf %s "${out# }"
}
# die MESSAGE [NEXT-STEP]: stop with what failed and what to run next.
die() {
	printf 'error: %s\n' "$1" >&2
	[ $# -lt 2 ] || printf '  next: %s\n' "$(next_step "$2")" >&2
	exit 1
}
need() {
	local t
	for t in "$@"; do
		command -v "$t" >/dev/null 2>&1 ||
			die "'$t' is not installed" "make deps (or: apt-get install $(pkg_for "$t"))"
	done
}
# pkg_for COMMAND: the Debian package that has it.
pkg_for() {
	case $1 in
	qemu-system-x86_64) echo qemu-system-x86 ;;
	busybox) echo busybox-static ;;
	timeout|chroot) echo coreutils ;;
	xz) echo xz-utils ;;
	dpkg-deb) echo dpkg ;;
	mke2fs) echo e2fsprogs ;;
	apt-get) echo apt ;;
	*) echo "$1" ;;
	esac
}

# need_tree: stop unless $KERNEL_SRC is a kernel tree, with the step that
# makes one (make tree for the pinned tree; a user's KERNEL_SRC is theirs).
# The pinned tree counts only with its stamp (make tree's own test): a
# tree an interrupted extraction or clean-tree left is not one.
need_tree() {
	if [ "$PINNED" = 1 ]; then
		[ -d "$KERNEL_SRC" ] || die "the pinned $TREE tree is not extracted yet ($KERNEL_SRC)" "make tree TREE=$TREE"
		stamped "$WORK/.tree-extracted" "$PIN_SHA256" && [ -f "$KERNEL_SRC/Makefile" ] && [ -d "$KERNEL_SRC/mm" ] ||
			die "the pinned $TREE tree in $KERNEL_SRC is not whole (an interrupted make tree or clean-tree) or not of the pin" \
				"make tree TREE=$TREE (extracts it again)"
		return 0
	fi
	[ -f "$KERNEL_SRC/Makefile" ] && [ -d "$KERNEL_SRC/mm" ] && return 0
	die "KERNEL_SRC=$KERNEL_SRC is not a kernel tree (no Makefile or mm/)" \
		"point KERNEL_SRC at the top of a kernel source tree, or unset it for the pinned $TREE tree"
}

# lock FILE WHAT [FD [NEXT]]: hold FILE's lock (on FD, default 9) until the
# script exits, or stop because another WHAT holds it. The locks:
# $WORK/.lock (a pipeline, and a bench boot in a point's work directory),
# $WORK/check-series/.walk-lock, $WORK/.deb.lock, $WORK/.outgoing.lock,
# $WORK/.bench-lock (a whole make bench), and on fd 8 IMAGE.lock (a guest
# booted from a root file system image, or mkrootfs.sh rewriting it: the
# image is shared by the trees and written by the guest).
lock() {
	local fd=${3:-9}
	mkdir -p "$(dirname "$1")"
	eval "exec $fd>\"\$1\""
	flock -n "$fd" || die "another $2 is running (lock: $1)" "${4:-wait for it, or use another WORK=}"
}

# Stamps (a file whose content says what was done, compared before
# redoing it): $WORK/.tree-extracted (the tarball's sha256),
# $BUILD/.config-inputs (the fragment list), outgoing-base.git/
# zswap-stack-base (sha256 and base commit), .series/ in the tree (the
# patches applied, with .in-progress during a quilt push or pop).
# stamped FILE CONTENT: FILE holds exactly CONTENT.
stamped() { [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]; }

# Active (non-comment) entries of a series file, one patch name a line
# (CRLF line ends read as LF).
series_entries() {
	[ -f "$1" ] || return 0
	sed -e 's/\r$//' -e 's/#.*//' "$1" | awk 'NF { print $1 }'
}

# debian_version V / debian_package P: V is a Debian version (epoch:,
# upstream, -revision; no spaces), P a package name, as policy spells
# them; checked before apt is asked for either.
debian_version() { printf '%s\n' "$1" | grep -qxE '([0-9]+:)?[0-9][A-Za-z0-9.+~-]*'; }
debian_package() { printf '%s\n' "$1" | grep -qxE '[a-z0-9][a-z0-9+.-]+'; }

# The work directories the project makes (WORK, WORK_ROOT, and those of
# check-series and bench) hold this file; the clean targets remove
# nothing from a directory without it.
WORK_MARK=.zswap-stack-work
# is_workdir DIR: DIR is a work directory of the project: marked, or the
# checkout's own ./work or a directory under it.
is_workdir() {
	[ -f "$1/$WORK_MARK" ] && return 0
	case $(realpath -m "$1")/ in "$(realpath -m "$TOP/work")"/*) return 0 ;; esac
	return 1
}
# workdir DIR [VAR]: make DIR, marked as the project's: new, empty, or
# inside a work directory. A directory holding someone's files is
# refused (VAR: the setting that named it): the stages write build/,
# logs/ and more into it, and the clean targets would not remove them.
workdir() {
	if [ ! -d "$1" ] || [ -z "$(ls -A "$1")" ] || is_workdir "$1" || is_workdir "$(dirname "$1")"; then
		{ mkdir -p "$1" && : >>"$1/$WORK_MARK"; } 2>/dev/null
	else
		die "${2:+$2=}$1 holds files this project did not make (no $WORK_MARK in it): nothing was written there" \
			"give a new or empty directory, or, if an older version of this project made it: touch $1/$WORK_MARK"
	fi
}

# mkwork: create $WORK (and WORK_ROOT, when WORK is in it), or say why
# it cannot be (someone's files, read-only or another user's checkout).
mkwork() {
	case $WORK in "$WORK_ROOT"/*) workdir "$WORK_ROOT" WORK_ROOT || true ;; esac
	workdir "$WORK" WORK && [ -w "$WORK" ] ||
		die "cannot write the work directory $WORK (as $(id -un); owner of $(dirname "$WORK"): $(stat -c %U "$(dirname "$WORK")" 2>/dev/null || echo none))" \
			"use WORK=DIR (or WORK_ROOT=DIR) on a disk you can write, or run as the checkout's owner"
}

# Time a step: timed NAME CMD...; prints and records its duration.
timed() {
	local name=$1 t0 rc=0
	shift
	t0=$(date +%s)
	"$@" || rc=$?
	local dt=$(($(date +%s) - t0))
	mkdir -p "$WORK"
	printf '%s\t%s\t%s\n' "$name" "$dt" "$([ $rc = 0 ] && echo ok || echo FAILED)" \
		>>"$WORK/stage-times"
	say "$name: $([ $rc = 0 ] && echo 'done' || echo FAILED) in ${dt}s"
	return $rc
}
