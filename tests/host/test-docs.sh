#!/bin/bash
# Host-side checks that keep README.md and docs/ honest: every make
# variable they name (NAME= in upper case) is in `make help`; every
# relative link resolves to a file of the checkout (not an ignored one,
# such as work/, which a clone lacks) and no path leads out of it; no
# line refers to the project's work history.
# TAP output, closing line "N passed, N failed, N skipped".
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
cd "$TOP"
docs=$( { echo README.md; find docs -name '*.md' 2>/dev/null; } | LC_ALL=C sort)

# The checkout's files as a clone has them: tracked or addable (not
# ignored, as work/ is); every file on disk outside git.
T=$(mktemp)
trap 'rm -f "$T"' EXIT
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -co --exclude-standard >"$T"
else
	find . -type f | sed 's|^\./||' >"$T"
fi
# in_checkout PATH: PATH (relative to TOP) is such a file, or a directory
# holding one.
in_checkout() { [ -e "$1" ] && grep -qE "^$(printf '%s' "${1%/}" | sed 's/[.[\*^$+?(){}|]/\\&/g')(/|\$)" "$T"; }

# Each check prints "FILE:LINE: what is wrong", one a line, or nothing.
t_variables_in_make_help() {
	local known
	# make help's variables; fields of tree.env and kernel config symbols
	# are not make variables.
	known=$( { make -s --no-print-directory -C "$TOP" help |
		grep -oE '(^|[^A-Za-z0-9_])[A-Z][A-Z0-9_]+=' | sed 's/^[^A-Z]//'
		sed -n 's/^\([A-Z][A-Z0-9_]*=\).*/\1/p' patches/*/tree.env; } | sort -u | paste -sd' ')
	# shellcheck disable=SC2086
	awk -v known=" $known " '
		{ s = $0
		  while (match(s, /(^|[^A-Za-z0-9_$.-])[A-Z][A-Z0-9_]+=/)) {
			v = substr(s, RSTART, RLENGTH); s = substr(s, RSTART + RLENGTH)
			sub(/^[^A-Z]/, "", v)
			if (v !~ /^CONFIG_/ && index(known, " " v " ") == 0)
				printf "%s:%d: %s is not in make help\n", FILENAME, FNR, v
		  } }' $docs
}

t_links_resolve() {
	local f n t p dir
	for f in $docs; do
		dir=$(dirname "$f")
		# [text](target) and reference definitions "[id]: target".
		{ grep -noE '\]\([^)]+\)' "$f" | sed 's/^\([0-9]*\):](\(.*\))$/\1:\2/'
		  grep -noE '^ {0,3}\[[^]]+\]: *[^ ]+' "$f" | sed 's/^\([0-9]*\):[^]]*\]: *\(.*\)$/\1:\2/'
		} | while IFS=: read -r n t; do
			t=${t%% *}
			case $t in '#'*|[a-z]*://*|mailto:*) continue ;; esac
			p=$(realpath -m --relative-to="$TOP" "$dir/${t%%#*}")
			case $p in ../*|/*) echo "$f:$n: link $t leads out of the repository"; continue ;; esac
			in_checkout "$p" || echo "$f:$n: link $t: no such file in the repository ($p)"
		done
		# A path in backquotes that climbs up (../x): as for links.
		# shellcheck disable=SC2016
		grep -noE '`\.\./[^` ]*`' "$f" | while IFS=: read -r n t; do
			t=${t//\`/}
			p=$(realpath -m --relative-to="$TOP" "$dir/$t")
			case $p in
			../*) echo "$f:$n: path $t is outside the repository" ;;
			*) in_checkout "$p" || echo "$f:$n: path $t: no such file in the repository ($p)" ;;
			esac
		done
	done
}

t_no_work_history() {
	local f
	for f in $docs; do
		grep -inE '\b(sessions?|issues? #?[0-9]+|rounds? [0-9]+|stop [0-9]+|earlier work|last time|work history)\b' "$f" |
			sed "s|^\([0-9]*\):|$f:\1: work history: |" || true
	done
}

# --- harness (as tests/host/test-scripts.sh) ---------------------------
cases=$(declare -F | awk '$3 ~ /^t_/ { print $3 }')
n=$(echo "$cases" | wc -l)
pass=0 failn=0 i=0
echo "TAP version 13"
echo "1..$n"
for c in $cases; do
	i=$((i + 1))
	out=$($c 2>&1) || out="$out${out:+$'\n'}(the check itself failed)"
	if [ -z "$out" ]; then
		echo "ok $i ${c#t_}"
		pass=$((pass + 1))
	else
		echo "not ok $i ${c#t_}"
		printf '%s\n' "$out" | sed 's/^/# /'
		failn=$((failn + 1))
	fi
done
echo "$pass passed, $failn failed, 0 skipped"
[ "$failn" = 0 ]
