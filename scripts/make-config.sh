#!/bin/bash
# Generate $BUILD/.config from kernel-config/ fragments with the tree's
# merge_config.sh (allnoconfig base), and fail on any requested option that
# Kconfig dropped. The .config is replaced only when its content changes,
# so an unchanged config never triggers a rebuild.
set -eu
. "$(dirname "$0")/lib.sh"

frags=("$TOP/kernel-config/base.config"
       "$TOP/kernel-config/qemu-guest.config"
       "$TOP/kernel-config/zswap-memcg.config")
sel=$KERNEL_SRC/tools/testing/selftests/cgroup/config
[ -f "$sel" ] && frags+=("$sel")
[ "$KCONFIG" = debug ] && frags+=("$TOP/kernel-config/debug.config")
# Extra fragments for experiments and tests: EXTRA_CONFIG="a.config b.config"
for f in ${EXTRA_CONFIG:-}; do frags+=("$(realpath -m "$f")"); done
need_tree

mkdir -p "$BUILD" "$LOGS"

# The project's fragments serve every tree. A line that only one tree's
# Kconfig has says so at its end: "CONFIG_ZPOOL=y	# only 6.12" (or
# "# only 6.12 7.2"). For TREE, such lines of other trees are left out and
# the marks taken off, in a copy of the fragment under $BUILD/fragments/.
fragdir=$BUILD/fragments
mkdir -p "$fragdir"
for i in "${!frags[@]}"; do
	f=${frags[$i]}
	[ -f "$f" ] || die "config fragment $f does not exist" "check EXTRA_CONFIG= and kernel-config/"
	# Kconfig ignores a line it cannot read (no CONFIG_, "=yes"): say so.
	bad=$(awk '/^[ \t]*$/ || /^[ \t]*#/ { next }
		/^CONFIG_[A-Za-z0-9_]+=(y|m|n|"[^"]*"|-?[0-9]+|0x[0-9a-fA-F]+)([ \t]*#.*)?[ \t]*$/ { next }
		{ printf "  %s:%d: %s\n", FILENAME, FNR, $0 }' "$f")
	[ -z "$bad" ] || { printf '%s\n' "$bad" >&2
		die "config fragment $f has $(printf '%s\n' "$bad" | wc -l) line(s) Kconfig would ignore" \
			"write CONFIG_NAME=y|m|n|\"string\"|number, or \"# CONFIG_NAME is not set\""; }
	case $f in "$KERNEL_SRC"/*) continue ;; esac	# the tree's own fragment
	out=$fragdir/$i-$(basename "$f")
	awk -v tree="$TREE" '
		match($0, /[ \t]*#[ \t]*only[ \t]+[^#]*$/) {
			n = split(substr($0, RSTART), w, /[ \t#]+/); keep = 0
			for (j = 1; j <= n; j++) if (w[j] == tree) keep = 1
			if (keep) print substr($0, 1, RSTART - 1)
			next
		}
		{ print }' "$f" >"$out.new"
	cmp -s "$out.new" "$out" && rm "$out.new" || mv "$out.new" "$out"
	frags[$i]=$out
done
# Skip the merge (it builds kconfig afresh, ~10 s) when its inputs are as
# they were: the same fragments, none of them and no Kconfig file of the
# tree newer than the last merge.
stamp=$BUILD/.config-inputs
inputs=$(printf '%s\n' "${frags[@]}")
if [ -f "$BUILD/.config" ] && stamped "$stamp" "$inputs" &&
   [ -z "$(find "${frags[@]}" -newer "$stamp" 2>/dev/null)" ] &&
   [ -z "$(find "$KERNEL_SRC" -path "$KERNEL_SRC/.pc" -prune -o -name 'Kconfig*' \
		-newer "$stamp" -print -quit)" ]; then
	say "config inputs unchanged: $BUILD/.config"
	exit 0
fi
rm -f "$stamp"
tmp=$BUILD/.config-new.d
rm -rf "$tmp" && mkdir -p "$tmp"
log=$LOGS/config-$TREE_TAG-$KCONFIG.log
say "merging ${#frags[@]} config fragments into $BUILD/.config"
# merge_config.sh runs make in the current directory: it must be the tree.
(cd "$KERNEL_SRC" &&
 KCONFIG_CONFIG=$tmp/.config CC=gcc ARCH=x86_64 \
	scripts/kconfig/merge_config.sh -n -O "$tmp" "${frags[@]}") >"$log" 2>&1 ||
	{ tail -20 "$log" >&2; die "merge_config.sh failed (log: $log)"; }

# merge_config.sh prints "Value requested for CONFIG_X not in final
# .config" (7.x: with a "WARNING: " in front) for every option Kconfig
# did not keep: a dropped dependency, a typo, or a symbol this tree lacks.
dropped=$(sed -n 's/^\(WARNING: \)\{0,1\}Value requested for \(CONFIG_[A-Za-z0-9_]*\) not in final .config$/\2/p' "$log")
if [ -n "$dropped" ]; then
	for c in $dropped; do
		where=$(grep -nwe "$c" "${frags[@]}" | tail -1 | sed "s|^$fragdir/[0-9]*-||")
		if grep -rqsE "^[[:space:]]*(menu)?config ${c#CONFIG_}\$" --include='Kconfig*' "$KERNEL_SRC"; then
			why="requested, got \"$(grep -we "$c" "$tmp/.config" || echo 'not set')\": check its dependencies"
		else
			why="no such symbol in this tree's Kconfig: mark the line \"# only <tree>\" if another tree has it"
		fi
		printf '  %s (%s): %s\n' "$c" "$where" "$why" >&2
	done
	die "Kconfig of TREE=$TREE ($KERNEL_SRC) dropped $(echo "$dropped" | wc -w) requested option(s): $(echo $dropped)" \
		"fix kernel-config/ (dependencies: make -C $KERNEL_SRC O=$tmp menuconfig, search with /)"
fi

if cmp -s "$tmp/.config" "$BUILD/.config"; then
	say "config unchanged"
else
	cp "$tmp/.config" "$BUILD/.config"
	say "config written: $BUILD/.config"
fi
rm -rf "$tmp"
printf '%s\n' "$inputs" >"$stamp"
