# shellcheck shell=bash
# The kernel build: config fragments merged with the tree's
# merge_config.sh, and the kernel's make (out of tree, ccache). Sourced
# after lib.sh by the scripts that configure or build a kernel.

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
