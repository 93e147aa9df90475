# shellcheck shell=bash
# The series and its patch mails: loading and checking patches/TREE/series,
# quilt on the tree's snapshot of it, a mail's wholeness and checkpatch.pl,
# the package version the series gives. Sourced after lib.sh by the
# scripts that read the series.

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

# series_functions PATCH...: the kernel functions the patches add or
# change, one a line: each added or removed line counts for the function
# it is in, followed through the hunk from its header's context (a
# definition at column 0 starts a function, a "}" there ends it);
# tools/ left out. A prototype split over lines in a header counts as a
# definition: the list may name a function too many, for a stricter judge.
series_functions() {
	awk '
	function name(s) {
		if (!match(s, /[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(/))
			return ""
		s = substr(s, RSTART, RLENGTH)
		sub(/[[:space:]]*\($/, "", s)
		return s
	}
	/^\+\+\+ / { kern = $2 ~ /^b\/.*\.[ch]$/ && $2 !~ /^b\/tools\//; next }
	!kern { next }
	/^@@ / { s = $0; sub(/^@@ [^@]*@@ ?/, "", s); cur = s ~ /;[[:space:]]*$/ ? "" : name(s); next }
	/^[-+ ]/ {
		t = substr($0, 2)
		if (t ~ /^}/)
			cur = ""
		else if (t ~ /^[A-Za-z_]/ && t !~ /;[[:space:]]*$/ && name(t) != "")
			cur = name(t)
		if ($0 ~ /^[-+]/ && cur != "")
			print cur
	}
	' "$@" | sort -u
}

# The local version make deb gives the kernel: -zswap-stack-<patches>-<hash
# of the series>, e.g. -zswap-stack-12-1a2b3c4d.
deb_localversion() {
	echo "-zswap-stack-$(series_entries "$PATCHES/series" | wc -l)-$(series_text | sha1sum | cut -c1-8)"
}
