# shellcheck shell=bash
# Common settings and helpers, sourced by every script in scripts/.
#
# Variables a user may set (make passes them through the environment):
#   TREE        which pinned tree and series: a directory patches/TREE/
#               holding tree.env (the pin) and series (default: 7.3)
#   WORK        work directory of that tree (default: ./work/TREE)
#   WORK_ROOT   what the trees share: downloaded packages, apt lists,
#               tarballs, root file systems (default: ./work)
#   KERNEL_SRC  kernel tree to use instead of the pinned Debian tree
#   KCONFIG     config variant: "default" or "debug" (adds debug.config)
#   PATCHES     patch directory holding "series" (default: patches/TREE)
#
# Only what the user gave is exported again (normalized); everything
# computed here (BUILD, the pinned KERNEL_SRC, ...) is computed afresh by
# every script that sources this file, so a child script never mistakes
# a parent's computed value for a user's choice.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
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

WORK_ROOT=$(realpath -m "${WORK_ROOT:-$TOP/work}")
[ -z "${WORK:-}" ] || { WORK=$(realpath -m "$WORK"); export WORK; }
WORK=${WORK:-$WORK_ROOT/$TREE}
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
case $KCONFIG in default|debug) ;; *)
	echo "error: KCONFIG=$KCONFIG: expected 'default' or 'debug'" >&2
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
	KERNEL_SRC=$WORK/$PIN_TOPDIR
	TREE_TAG=pinned
	PINNED=1
fi
BUILD=${BUILD:-$WORK/build/$TREE_TAG-$KCONFIG}
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
# workdir DIR: make DIR, marked when it is the project's: new, empty, or
# inside a work directory. A directory holding someone's files is used
# as it is, unmarked (and the clean targets refuse it).
workdir() {
	if [ ! -d "$1" ] || [ -z "$(ls -A "$1")" ] || is_workdir "$1" || is_workdir "$(dirname "$1")"; then
		mkdir -p "$1" && : >>"$1/$WORK_MARK"
	fi
}

# mkwork: create $WORK (and WORK_ROOT, when WORK is in it), or say why
# it cannot be (read-only or another user's checkout).
mkwork() {
	case $WORK in "$WORK_ROOT"/*) workdir "$WORK_ROOT" 2>/dev/null || true ;; esac
	{ workdir "$WORK" && [ -w "$WORK" ]; } 2>/dev/null ||
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

# A guest whose PCI devices got no interrupt: it cannot finish any I/O
# (qemu.sh stops it at once, results.sh names the reason).
# shellcheck disable=SC2034 # qemu.sh's and results.sh's
NOIRQ_RE='AE_AML_LOOP_TIMEOUT|PCI INT [A-D]: no GSI'

# The guest's test list: tests/kselftests.list, plus
# tests/kselftests-debug.list for KCONFIG=debug. Entries under guest/ are
# scripts from tests/guest/tests/, the others kselftests of the tree.
test_list() {
	local f=$TOP/tests/kselftests.list
	[ "$KCONFIG" != debug ] || f="$f $TOP/tests/kselftests-debug.list"
	# shellcheck disable=SC2086
	cat $f | grep -v '^#' | awk 'NF'
}

# patch_whole FILE: say why a patch mail is not whole, or nothing. Its
# diffstat summary ("N files changed, X insertions(+), Y deletions(-)")
# must match what the diff itself holds (git apply --numstat), and the
# mail must end with format-patch's "-- " signature: a mail cut off at a
# file boundary still applies, but lacks files its diffstat names.
patch_whole() {
	local f=$1 stat want got
	stat=$(grep -m1 -E '^ [0-9]+ files? changed' "$f" || true)
	[ -n "$stat" ] || { echo "no diffstat summary line"; return 0; }
	want=$(printf '%s\n' "$stat" | awk '{ f = $1; i = 0; d = 0
		for (k = 2; k <= NF; k++) { if ($k ~ /^insertion/) i = $(k - 1); if ($k ~ /^deletion/) d = $(k - 1) }
		print f, i, d }')
	got=$(git apply --numstat "$f" 2>/dev/null | awk '{ n++; i += $1; d += $2 } END { print n + 0, i + 0, d + 0 }')
	[ "$want" = "$got" ] ||
		echo "its diffstat says $(echo "$want" | awk '{ print $1 " file(s), +" $2 " -" $3 }') but its diff holds $(echo "$got" | awk '{ print $1 " file(s), +" $2 " -" $3 }') (cut off?)"
	grep -qx -- '-- ' "$f" || echo "no '-- ' signature line at its end (cut off?)"
	! grep -qE '^(Index: |={60,}$)' "$f" ||
		echo "quilt's format (Index: lines), not a mail's: after a fix in the tree, write it with make refresh P=..."
}

# fragment_for_tree FRAGMENT: the config fragment as TREE's Kconfig should
# read it. The project's fragments serve every tree; a line that only some
# trees have says so at its end ("CONFIG_ZPOOL=y	# only 6.12", or
# "# only 6.12 7.2"): it is kept, without the mark, only for those trees.
fragment_for_tree() {
	awk -v tree="$TREE" '
		match($0, /[ \t]*#[ \t]*only[ \t]+[^#]*$/) {
			n = split(substr($0, RSTART), w, /[ \t#]+/); keep = 0
			for (j = 1; j <= n; j++) if (w[j] == tree) keep = 1
			if (keep) print substr($0, 1, RSTART - 1)
			next
		}
		{ print }' "$1"
}

# merge_fragments DIR BASE FRAG...: DIR/.config from the tree's
# merge_config.sh, for make config and make deb alike. BASE "allno"
# starts from allnoconfig (the guest's config); else BASE is a whole
# config (Debian's) that alldefconfig completes. Every option of the
# FRAGs that Kconfig dropped stops it, named with its fragment and line
# and whether this tree's Kconfig has the symbol at all (a dependency, a
# typo, another tree's symbol).
merge_fragments() {
	local dir=$1 base=$2 log c where why dropped=
	shift 2
	log=$LOGS/config-$TREE_TAG-$KCONFIG$([ "$base" = allno ] || echo -deb).log
	rm -rf "$dir" && mkdir -p "$dir" "$LOGS"
	local args=(-O "$dir")
	if [ "$base" = allno ]; then args=(-n "${args[@]}"); else args+=("$base"); fi
	# merge_config.sh runs make in the current directory: the tree.
	(cd "$KERNEL_SRC" && KCONFIG_CONFIG=$dir/.config CC=gcc ARCH=x86_64 \
		scripts/kconfig/merge_config.sh "${args[@]}" "$@") >"$log" 2>&1 ||
		{ tail -20 "$log" >&2; die "merge_config.sh failed (log: $log)"; }
	# "Value requested for CONFIG_X not in final .config" (7.x: with a
	# "WARNING: " in front), for the FRAGs' options only (not the base's).
	for c in $(sed -n 's/^\(WARNING: \)\{0,1\}Value requested for \(CONFIG_[A-Za-z0-9_]*\) not in final .config$/\2/p' "$log"); do
		grep -qwe "$c" "$@" || continue
		dropped="$dropped $c"
		where=$(grep -nwe "$c" "$@" | tail -1 | sed 's|^[^:]*/\([^/:]*:[0-9]*:\)|\1|; s|^[0-9]*-||')
		if grep -rqsE "^[[:space:]]*(menu)?config ${c#CONFIG_}\$" --include='Kconfig*' "$KERNEL_SRC"; then
			why="requested, got \"$(grep -we "$c" "$dir/.config" || echo 'not set')\": check its dependencies"
		else
			why="no such symbol in this tree's Kconfig: mark the line \"# only <tree>\" if another tree has it"
		fi
		printf '  %s (%s): %s\n' "$c" "$where" "$why" >&2
	done
	[ -z "$dropped" ] ||
		die "Kconfig of TREE=$TREE ($KERNEL_SRC) dropped $(echo $dropped | wc -w) requested option(s):$dropped" \
			"fix kernel-config/ (dependencies: make -C $KERNEL_SRC O=$dir menuconfig, search with /)"
}

# q QUILT-ARGS...: quilt in $KERNEL_SRC on the series snapshot $SNAP
# (apply-series.sh keeps it; refresh-patch.sh writes into it), with no
# user quiltrc.
SNAP=.series
q() { (cd "$KERNEL_SRC" && QUILT_PATCHES=$SNAP quilt --quiltrc - "$@"); }

# checkpatch_strict TREE MAIL: TREE's scripts/checkpatch.pl --strict -q on
# MAIL (lint, check-series and outgoing all ask this one question). Prints
# what it found; true only when it found nothing: a CHECK fails too,
# though checkpatch.pl exits 0 on one.
checkpatch_strict() {
	local out rc=0
	[ -x "$1/scripts/checkpatch.pl" ] || { echo "no scripts/checkpatch.pl in $1 (make tree)"; return 2; }
	out=$(cd "$1" && ./scripts/checkpatch.pl --strict -q "$2" 2>&1) || rc=$?
	[ -z "$out" ] || printf '%s\n' "$out"
	[ $rc = 0 ] && [ -z "$out" ]
}

# Active (non-comment) entries of a series file, one patch name a line
# (CRLF line ends read as LF).
series_entries() {
	[ -f "$1" ] || return 0
	sed -e 's/\r$//' -e 's/#.*//' "$1" | awk 'NF { print $1 }'
}

# series_load [FILE]: the series (default $PATCHES/series) into SERIES[],
# checked once for every script: each entry's file exists and is listed
# once; every *.patch file beside it is listed, or disabled by a comment
# ("# grp/0003-x.patch", as quilt users do). SERIES_UPTO=K keeps the
# first K (check-series and bench build the points of the series so);
# SERIES_EXTRA adds one disabled entry after them (bench's variants).
# series_point NAME-PART first|last: the position (1..) in the loaded
# SERIES of the first or last patch whose name contains NAME-PART;
# status 1 when none does.
series_point() {
	local i n=${#SERIES[@]}
	if [ "$2" = first ]; then
		for ((i = 0; i < n; i++)); do
			case ${SERIES[$i]} in *"$1"*) echo $((i + 1)); return ;; esac
		done
	else
		for ((i = n - 1; i >= 0; i--)); do
			case ${SERIES[$i]} in *"$1"*) echo $((i + 1)); return ;; esac
		done
	fi
	return 1
}

series_load() {
	local series=${1:-$PATCHES/series} dir p unlisted shown
	local -A seen=() disabled=()
	dir=$(dirname "$series")
	shown=${series#"$TOP"/}
	[ -f "$series" ] || die "no series file: $series" "create it (an empty file is a valid series)"
	mapfile -t SERIES < <(series_entries "$series")
	for p in "${SERIES[@]}"; do
		[ -f "$dir/$p" ] ||
			die "$shown names '$p' but ${dir#"$TOP"/}/$p does not exist" \
				"add the file or remove the line from $shown"
		[ -z "${seen[$p]:-}" ] ||
			die "$shown lists '$p' twice" "remove one of the lines: grep -n '$p' $shown"
		seen[$p]=1
	done
	while read -r p; do seen[$p]=1 disabled[$p]=1; done < <(sed -n 's/\r$//; s/^[[:space:]]*#[[:space:]]*\([^[:space:]]*\.patch\).*/\1/p' "$series")
	unlisted=$(cd "$dir" && find . -name '*.patch' | sed 's|^\./||' | LC_ALL=C sort |
		while read -r p; do [ -n "${seen[$p]:-}" ] || echo "$p"; done)
	[ -z "$unlisted" ] ||
		die "patch files not listed in $shown: $(echo $unlisted)" \
			"list them in $shown, disable them with a '# name' line, or delete them"
	case ${SERIES_UPTO:-} in
	'') ;;
	*[!0-9]*) die "SERIES_UPTO=$SERIES_UPTO: expected a number of patches" ;;
	*) [ "$SERIES_UPTO" -le ${#SERIES[@]} ] ||
		die "SERIES_UPTO=$SERIES_UPTO: the series has ${#SERIES[@]} patches"
	   SERIES=("${SERIES[@]:0:$SERIES_UPTO}") ;;
	esac
	# SERIES_EXTRA=variants/NAME.patch: a patch kept beside the series,
	# disabled in it, applied after the others (make bench's variants).
	if [ -n "${SERIES_EXTRA:-}" ]; then
		[ -n "${disabled[$SERIES_EXTRA]:-}" ] && [ -f "$dir/$SERIES_EXTRA" ] ||
			die "SERIES_EXTRA=$SERIES_EXTRA is not a disabled entry ('# $SERIES_EXTRA') of $shown" \
				"ls $(dirname "$shown")/variants/"
		SERIES+=("$SERIES_EXTRA")
	fi
}

# The text of every patch the series in $PATCHES applies, in order.
series_text() {
	series_entries "$PATCHES/series" | while read -r p; do cat "$PATCHES/$p"; done
}

# The local version make deb gives the kernel: -zswap-stack-<patches>-<hash
# of the series>, e.g. -zswap-stack-12-1a2b3c4d.
deb_localversion() {
	echo "-zswap-stack-$(series_entries "$PATCHES/series" | wc -l)-$(series_text | sha1sum | cut -c1-8)"
}

# ccache: key on paths relative to the checkout, so that another clone (CI)
# hits the cache a previous one filled.
# (make gitlab-ci gives its jobs, each in a copy of the checkout, the
# checkout's own.)
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$TOP} CCACHE_NOHASHDIR=1

# The kernel's make, out of tree, with ccache when present.
kmake() {
	local cc=gcc
	command -v ccache >/dev/null 2>&1 && cc="ccache gcc"
	make -C "$KERNEL_SRC" O="$BUILD" ARCH=x86_64 CC="$cc" HOSTCC="$cc" \
		-j"$(nproc)" "$@"
}

# check_settings: stop on a bad guest or bench setting, each bad one
# named. The entry points that take these settings (pipeline.sh, and
# the scripts that boot a guest when run directly) call it first, so that
# a typo stops before anything runs (not after the tree, the build and
# the initramfs); a script that boots no guest does not refuse them.
check_settings() {
	local v x what bad=0
	for v in VM_MEM VM_CPUS SWAP_MB VM_TIMEOUT VM_SILENCE SWAP_BPS BENCH_N FUZZ_MINUTES FUZZ_SEED; do
		x=${!v:-}
		case $v in
		VM_MEM) what="MiB of guest memory, a whole number of at least 256 (default 1024)" ;;
		VM_CPUS) what="guest vCPUs, a whole number from 1 to 255 (default 2)" ;;
		SWAP_MB) what="MiB of guest swap disk, a positive whole number (default 1024)" ;;
		VM_TIMEOUT|VM_SILENCE) what="seconds, a positive whole number" ;;
		SWAP_BPS) what="bytes per second, a positive number: SWAP_BPS=4194304 (4 MiB/s), or leave it unset" ;;
		BENCH_N) what="runs per kernel, a positive whole number" ;;
		FUZZ_MINUTES) what="minutes of fuzzing, a positive whole number (default 3)" ;;
		FUZZ_SEED) what="trinity's seed, a positive whole number (default 1)" ;;
		esac
		case $x in
		'') continue ;;
		*[!0-9]*|0*) ;;
		*) case $v in
		   VM_MEM) [ ${#x} -gt 3 ] || [ "$x" -ge 256 ] && continue ;;
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
		IFS=, read -ra names <<<"${!v:-}"
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
	[ -z "${KERNEL_IMAGE:-}" ] || [ -f "$KERNEL_IMAGE" ] || {
		echo "error: KERNEL_IMAGE=$KERNEL_IMAGE: no such file (a bzImage to boot instead of this build's)" >&2
		bad=1
	}
	case ${SOAK_ARGS:-} in *[[:space:]]*)
		echo "error: SOAK_ARGS=$SOAK_ARGS: the soak's arguments joined by commas, no spaces (SOAK_ARGS=-d,600,-m,24)" >&2
		bad=1 ;;
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
