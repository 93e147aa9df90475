#!/bin/bash
# Generate $BUILD/.config from kernel-config/ fragments with the tree's
# merge_config.sh (allnoconfig base), and fail on any requested option that
# Kconfig dropped. The .config is replaced only when its content changes,
# so an unchanged config never triggers a rebuild.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-build.sh"

frags=("$TOP/kernel-config/base.config"
       "$TOP/kernel-config/qemu-guest.config"
       "$TOP/kernel-config/zswap-memcg.config")
sel=$KERNEL_SRC/tools/testing/selftests/cgroup/config
[ -f "$sel" ] && frags+=("$sel")
[ "$KCONFIG" = default ] || frags+=("$TOP/kernel-config/$KCONFIG.config")
# Extra fragments for experiments and tests: EXTRA_CONFIG="a.config b.config"
for f in ${EXTRA_CONFIG:-}; do frags+=("$(realpath -m "$f")"); done
need_tree

mkdir -p "$BUILD" "$LOGS"

# Each fragment as TREE reads it (lib.sh fragment_for_tree: lines marked
# "# only OTHER-TREE" left out), copied under $BUILD/fragments/.
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
	fragment_for_tree "$f" >"$out.new"
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
say "merging ${#frags[@]} config fragments into $BUILD/.config"
merge_fragments "$tmp" allno "${frags[@]}"

if cmp -s "$tmp/.config" "$BUILD/.config"; then
	say "config unchanged"
else
	cp "$tmp/.config" "$BUILD/.config"
	say "config written: $BUILD/.config"
fi
rm -rf "$tmp"
printf '%s\n' "$inputs" >"$stamp"
