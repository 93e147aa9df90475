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
for f in ${EXTRA_CONFIG:-}; do frags+=("$(realpath "$f")"); done

mkdir -p "$BUILD" "$LOGS"
# Skip the merge (it builds kconfig afresh, ~10 s) when its inputs are as
# they were: the same fragments, none of them and no Kconfig file of the
# tree newer than the last merge.
stamp=$BUILD/.config-inputs
inputs=$(printf '%s\n' "${frags[@]}")
if [ -f "$BUILD/.config" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$inputs" ] &&
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

dropped=$(sed -n 's/^Value requested for \(CONFIG_[A-Za-z0-9_]*\) not in final .config$/\1/p' "$log")
if [ -n "$dropped" ]; then
	for c in $dropped; do
		printf '  %s: requested "%s", got "%s"\n' "$c" \
			"$(grep -hwe "$c" "${frags[@]}" | tail -1)" \
			"$(grep -we "$c" "$tmp/.config" || echo 'not present')" >&2
	done
	die "Kconfig dropped $(echo "$dropped" | wc -w) requested option(s): $(echo $dropped)" \
		"check their dependencies (make -C $KERNEL_SRC O=$tmp menuconfig, search with /) and fix kernel-config/"
fi

if cmp -s "$tmp/.config" "$BUILD/.config"; then
	say "config unchanged"
else
	cp "$tmp/.config" "$BUILD/.config"
	say "config written: $BUILD/.config"
fi
rm -rf "$tmp"
printf '%s\n' "$inputs" >"$stamp"
