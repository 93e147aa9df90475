#!/bin/bash
# Does the series apply to a kernel tree? (make check-apply KERNEL_SRC=DIR)
#
# Prints one line per patch of patches/series:
#   clean     applies as is
#   offsets   applies at fuzz 0, some hunks at other line numbers
#   fuzz N    applies only with fuzz (at most N context lines ignored);
#             make series (quilt --fuzz=0) would refuse it
#   FAILS     does not apply even at fuzz 3: the file and hunk that fail
# then "N clean, N offsets, N fuzz, N failed". Exit status 1 when a patch
# FAILS or needs fuzz (when make series KERNEL_SRC=DIR would stop), after
# the whole table.
#
# KERNEL_SRC is only read. The files the series touches are copied to a
# scratch directory and the patches applied there in series order, each
# on the result of the ones before it. A patch that fails is left out and
# the next ones are still tried (other groups, other files usually still
# apply); a later patch that touches a file of a failed one is marked
# "after failed P", as its result may be a consequence of the failure.
#
# The base: KERNEL_SRC as it is; a tree with quilt patches applied (the
# pinned tree after make series) is read as quilt saved it in .pc/, i.e.
# unpatched; with no KERNEL_SRC and no extracted pinned tree, the pinned
# tarball.
#
#   check-apply.sh [--label TEXT] [--tsv FILE]
#   --label TEXT    names the tree in the output
#   --tsv FILE      also writes "patch<TAB>result<TAB>detail" lines there
#   --list-files    prints the files the series touches, one a line
#                   (check-apply-others.sh extracts only those)
#   -h              this text
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"

series=$PATCHES/series
series_load
want=("${SERIES[@]}")

# Files a patch touches (old and new names, -p1), from its ---/+++ pairs
# and git headers (a pure rename has no ---/+++).
patch_files() {
	awk '/^diff --git [^ ]+ [^ ]+$/ { a = $3; b = $4; sub(/^[^\/]*\//, "", a); sub(/^[^\/]*\//, "", b); print a; print b }
	prev ~ /^--- / && /^\+\+\+ / {
		for (i = 0; i < 2; i++) {
			l = i ? $0 : prev; sub(/^(---|\+\+\+) /, "", l); sub(/\t.*/, "", l)
			if (l != "/dev/null") { sub(/^[^\/]*\//, "", l); print l }
		}
	} { prev = $0 }' "$1" | sort -u
}
all_files() { for p in "${want[@]}"; do patch_files "$PATCHES/$p"; done | sort -u; }

label='' tsv=''
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) usage; exit 0 ;;
	--list-files) all_files; exit 0 ;;
	--label|--tsv) [ $# -ge 2 ] || die "check-apply.sh: $1 needs a value" "scripts/check-apply.sh -h" ;;&
	--label) label=$2; shift 2 ;;
	--tsv) tsv=$2; shift 2 ;;
	*) die "check-apply.sh: unknown argument '$1'" "scripts/check-apply.sh -h; set KERNEL_SRC=DIR to check another tree" ;;
	esac
done
need patch

[ "$PINNED" = 1 ] || need_tree
T=$(mktemp -d "${TMPDIR:-/tmp}/check-apply.XXXXXX")
trap 'rm -rf "$T"' EXIT
D=$T/tree
mkdir -p "$D"
all_files >"$T/files"

# Copy the unpatched versions of the touched files into $D.
if [ "$PINNED" = 1 ] && [ ! -f "$KERNEL_SRC/Makefile" ]; then
	[ -f "$PIN_TARBALL" ] || die "no pinned tree at $KERNEL_SRC and no $PIN_TARBALL" "make tree"
	base="$PIN_PKG $PIN_VERSION ($PIN_TARBALL)"
	sed "s|^|$PIN_TOPDIR/|" "$T/files" >"$T/members"
	echo "$PIN_TOPDIR/Makefile" >>"$T/members"
	say "extracting $(wc -l <"$T/files") file(s) from $PIN_TARBALL"
	tar -C "$T" -xJf "$PIN_TARBALL" -T "$T/members" 2>"$T/tar.err" ||
		! grep -v -e 'Not found in archive' -e 'Exiting with failure status' "$T/tar.err" >&2 ||
		die "extracting from $PIN_TARBALL failed" "make tree (checks the tarball)"
	mv "$T/$PIN_TOPDIR/Makefile" "$T/Makefile.top"
	grep -qx Makefile "$T/files" && cp "$T/Makefile.top" "$T/$PIN_TOPDIR/Makefile"
	cp -a "$T/$PIN_TOPDIR/." "$D/"
	rm -rf "${T:?}/$PIN_TOPDIR"
else
	[ -d "$KERNEL_SRC" ] || die "no kernel tree at $KERNEL_SRC" "make tree, or set KERNEL_SRC=DIR"
	base=$KERNEL_SRC
	applied=()
	[ -s "$KERNEL_SRC/.pc/applied-patches" ] && mapfile -t applied <"$KERNEL_SRC/.pc/applied-patches"
	[ ${#applied[@]} = 0 ] ||
		say "$KERNEL_SRC has ${#applied[@]} quilt patch(es) applied: checking against the unpatched files quilt saved in .pc/"
	while read -r f; do
		src=$KERNEL_SRC/$f
		# quilt keeps a file's original in .pc/<first patch touching it>/;
		# an empty backup means the file did not exist before that patch.
		for a in "${applied[@]}"; do
			[ -e "$KERNEL_SRC/.pc/$a/$f" ] || continue
			src=$KERNEL_SRC/.pc/$a/$f
			[ -s "$src" ] || src=
			break
		done
		[ -n "$src" ] && [ -f "$src" ] || continue
		mkdir -p "$D/$(dirname "$f")"
		cp "$src" "$D/$f"
	done <"$T/files"
	[ ! -f "$KERNEL_SRC/Makefile" ] || cp "$KERNEL_SRC/Makefile" "$T/Makefile.top"
fi
# The tree's kernel version, from its top Makefile.
kver=$(awk -F' *= *' '$1 ~ /^(VERSION|PATCHLEVEL|SUBLEVEL)$/ { v = v (v == "" ? "" : ".") $2 }
	$1 == "EXTRAVERSION" { print v $2; exit }' "$T/Makefile.top" 2>/dev/null || true)
say "check-apply: ${#want[@]} patch(es) of $series"
say "on ${label:-$base}${kver:+ (Linux $kver)}"

# GNU patch on the copy: patch FUZZ [--dry-run] <PATCH
p1() { (cd "$D" && patch -p1 --batch --forward --no-backup-if-mismatch \
	--fuzz="$1" ${2:+"$2"} <"$3") 2>&1; }

# Summarise patch's messages as "result<TAB>detail".
classify() {
	awk '
	/^(checking|patching) file / { f = $3; next }
	/^\|\+\+\+ / { nf = $2; sub(/^[^\/]*\//, "", nf); next }
	/^can.t find file to patch/ { missing = 1; next }
	/^No file to patch/ { bad = bad "; " (nf != "" ? nf : "?") ": missing in the tree"; next }
	/^Reversed \(or previously applied\) patch detected/ { bad = bad "; " f ": already applied?"; next }
	/^The next patch would create the file/ { nf = $8; sub(/,$/, "", nf); next }
	/^which already exists/ { bad = bad "; " nf ": would be created but exists"; next }
	/^Hunk #[0-9]+ FAILED at/ { h = $2; sub(/#/, "", h); bad = bad "; " f ": hunk #" h " FAILED (" f "@" h "@" $5 + 0 ")"; next }
	/^Hunk #[0-9]+ succeeded at/ {
		h = $2; sub(/#/, "", h)
		if (match($0, /with fuzz [0-9]+/)) {
			z = substr($0, RSTART + 10, RLENGTH - 10) + 0
			if (z > fuzz) fuzz = z
			fz = fz "; " f ": hunk #" h " fuzz " z
		}
		if (match($0, /offset -?[0-9]+ line/)) {
			o = substr($0, RSTART + 7, RLENGTH - 12) + 0
			if (f != lastf) { off = off "; " f ":"; lastf = f }
			off = off " #" h "(" (o > 0 ? "+" : "") o ")"
		}
	}
	END {
		if (bad != "") { print "FAILS\t" substr(bad, 3); exit }
		if (fuzz > 0) { print "fuzz " fuzz "\t" substr(fz, 3); exit }
		if (off != "") { print "offsets\t" substr(off, 3); exit }
		print "clean\t"
	}'
}

# where PATCH: a failed hunk "FILE@H@LINE" in classify's detail becomes
# "expected at line LINE of FILE, patch line N" (N: the hunk's @@ line in
# the mail, where to look; LINE: where the unpatched file should have it).
where() {
	local d=$2 loc file h line n
	while [[ $d =~ \(([^@\(]+)@([0-9]+)@([0-9]+)\) ]]; do
		loc=${BASH_REMATCH[0]} file=${BASH_REMATCH[1]} h=${BASH_REMATCH[2]} line=${BASH_REMATCH[3]}
		n=$(awk -v f="$file" -v h="$h" '/^\+\+\+ / { g = $2; sub(/^[^\/]*\//, "", g); k = 0; next }
			/^@@ / && g == f && ++k == h { print NR; exit }' "$1")
		d=${d/"$loc"/"(expected at line $line of the file; patch line ${n:-?})"}
	done
	printf '%s' "$d"
}

declare -A failed_by	# file -> failed patch that touches it
rows=() nclean=0 noff=0 nfuzz=0 nfail=0
for p in "${want[@]}"; do
	f=$PATCHES/$p
	whole=$(patch_whole "$f" | paste -sd';')
	if [ -n "$whole" ]; then
		res="FAILS	not whole: $whole"
	elif out=$(p1 0 --dry-run "$f"); then
		res=$(printf '%s\n' "$out" | classify)
		p1 0 "" "$f" >/dev/null || die "patch $p passed the dry run but did not apply" "report this"
	elif out3=$(p1 3 --dry-run "$f"); then
		res=$(printf '%s\n' "$out3" | classify)
		p1 3 "" "$f" >/dev/null || die "patch $p passed the dry run but did not apply" "report this"
	else
		res=$(printf '%s\n' "$out3" | classify)
		case $res in FAILS*) ;; *) res="FAILS	$(printf '%s\n' "$out3" | tail -1)" ;; esac
	fi
	after=
	while read -r pf; do
		[ -n "${failed_by[$pf]:-}" ] || continue
		case " $after " in *" ${failed_by[$pf]} "*) ;; *) after="$after ${failed_by[$pf]}" ;; esac
	done < <(patch_files "$f")
	case $res in FAILS*)
		while read -r pf; do failed_by[$pf]=${failed_by[$pf]:-$p}; done < <(patch_files "$f") ;;
	esac
	r=${res%%	*} d=$(where "$f" "${res#*	}")
	[ -z "$after" ] || d="${d:+$d; }after failed$after"
	case $r in clean) nclean=$((nclean + 1)) ;; offsets) noff=$((noff + 1)) ;;
		fuzz*) nfuzz=$((nfuzz + 1)) ;; *) nfail=$((nfail + 1)) ;; esac
	rows+=("$p	$r	$d")
done

w=5
for p in "${want[@]}"; do [ ${#p} -le $w ] || w=${#p}; done
printf '%-*s  %-7s  %s\n' "$w" patch result detail
for r in "${rows[@]}"; do
	IFS='	' read -r p res d <<<"$r"
	printf '%-*s  %-7s  %s\n' "$w" "$p" "$res" "$d"
done
[ -z "$tsv" ] || printf '%s\n' "${rows[@]}" >"$tsv"
echo "$nclean clean, $noff offsets, $nfuzz fuzz, $nfail failed"
[ $nfail = 0 ] && [ $nfuzz = 0 ]
