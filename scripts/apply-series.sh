#!/bin/bash
# Bring the kernel tree to "base + patches/series" with quilt, at zero fuzz.
#
# The tree keeps a snapshot of the patches it has applied (in .series/,
# quilt's QUILT_PATCHES) next to quilt's own .pc/. A run compares the
# wanted series with that snapshot, pops back to the first patch that
# differs (changed, removed, reordered) and pushes from there; when nothing
# changed nothing is touched. A patch that does not apply is rolled back by
# quilt, so the tree stays at the patch before it.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
need quilt

series_load
need_tree

# What quilt is doing, for the message after an interruption: "push" or
# "pop" while it runs, removed when it returns.
OP=$KERNEL_SRC/$SNAP/.in-progress
qop() { mkdir -p "$KERNEL_SRC/$SNAP"; echo "$1" >"$OP"; q "$@"; local rc=$?; rm -f "$OP"; return $rc; }

want=("${SERIES[@]}")

have=()
[ -f "$KERNEL_SRC/.pc/applied-patches" ] && mapfile -t have <"$KERNEL_SRC/.pc/applied-patches"

# A push cut short (Ctrl-C, kill, a full disk) leaves quilt's backups of
# the patch's files in .pc/<patch>/ without the patch in applied-patches,
# and the tree half-patched. Put those files back, as quilt's pop would.
backup_files=/usr/share/quilt/scripts/backup-files
# reextract TEXT: TEXT for the pinned tree; a KERNEL_SRC tree is the
# user's, which make clean-tree refuses to remove.
reextract() {
	if [ "$PINNED" = 1 ]; then printf %s "$1"
	else printf ' (KERNEL_SRC=%s is yours: restore it from where it came)' "$KERNEL_SRC"; fi
}
if [ -d "$KERNEL_SRC/.pc" ]; then
	while read -r d; do
		p=${d#"$KERNEL_SRC/.pc/"}
		printf '%s\n' "${have[@]}" | grep -qxF "$p" && continue
		op=$(cat "$OP" 2>/dev/null || echo "push or pop")
		warn "$p: a quilt $op of it was interrupted; restoring the files it had changed"
		[ -x "$backup_files" ] || die "quilt's $backup_files is missing" "apt-get install --reinstall quilt"
		(cd "$KERNEL_SRC" && "$backup_files" -B ".pc/$p/" -r -t -s -) ||
			die "could not restore the files of $p from $KERNEL_SRC/.pc/$p" \
				"$(reextract "make clean-tree TREE=$TREE, then make (re-extracts this tree only)")"
		rm -rf "$d"
		rm -f "$OP"
	done < <(find "$KERNEL_SRC/.pc" -mindepth 1 -type d -name '*.patch' -prune)
fi

# The diff of a patch mail: from its first "diff"/"---" header to the
# end, without the signature. A changelog-only edit changes nothing in
# the tree, so it must not pop and re-push (and rebuild) anything.
diffpart() { awk '/^(diff |--- |Index: )/ { d = 1 } d && /^-- $/ { exit } d' "$1"; }

# Length of the common prefix: same name and same diff.
k=0
while [ $k -lt ${#have[@]} ] && [ $k -lt ${#want[@]} ] &&
      [ "${have[$k]}" = "${want[$k]}" ] &&
      [ "$(diffpart "$KERNEL_SRC/$SNAP/${have[$k]}")" = "$(diffpart "$PATCHES/${want[$k]}")" ]; do
	cmp -s "$KERNEL_SRC/$SNAP/${have[$k]}" "$PATCHES/${want[$k]}" ||
		cp "$PATCHES/${want[$k]}" "$KERNEL_SRC/$SNAP/${have[$k]}"	# changelog only
	k=$((k + 1))
done

if [ $k = ${#have[@]} ] && [ $k = ${#want[@]} ]; then
	say "series up to date: ${#want[@]} patch(es) applied to $KERNEL_SRC"
	exit 0
fi

if [ $k -lt ${#have[@]} ]; then
	say "popping $((${#have[@]} - k)) patch(es) down to the first change (${have[$k]})"
	if [ $k = 0 ]; then target=(-a); else target=("${have[$((k - 1))]}"); fi
	out=$(qop pop -q "${target[@]}" 2>&1) || {
		printf '%s\n' "$out" >&2
		die "quilt could not pop back to before ${have[$k]}: the tree has local edits to patched files" \
			"inspect with: cd $KERNEL_SRC && QUILT_PATCHES=$SNAP quilt diff -z; then 'quilt pop -f' there$(reextract ", or make clean-tree TREE=$TREE to re-extract this tree")"
	}
fi

# Snapshot the wanted series; entries below k are unchanged by definition.
mkdir -p "$KERNEL_SRC/$SNAP"
for ((i = k; i < ${#want[@]}; i++)); do
	mkdir -p "$(dirname "$KERNEL_SRC/$SNAP/${want[$i]}")"
	cp "$PATCHES/${want[$i]}" "$KERNEL_SRC/$SNAP/${want[$i]}"
done
printf '%s\n' "${want[@]}" >"$KERNEL_SRC/$SNAP/series"

for ((i = k; i < ${#want[@]}; i++)); do
	p=${want[$i]}
	whole=$(patch_whole "$PATCHES/$p" | paste -sd';')
	[ -z "$whole" ] ||
		die "patch $p is not whole: $whole (tree left at the patch before it)" \
			"restore $PATCHES_SHOWN/$p (git checkout, or git format-patch it again)"
	say "applying [$((i + 1))/${#want[@]}] $p"
	if ! out=$(qop push --fuzz=0 2>&1); then
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		# A full disk fails a push too: not the patch's fault.
		! printf '%s\n' "$out" | grep -qE 'No space left on device|Disk quota exceeded' ||
			die "the disk filled while quilt applied $p to $KERNEL_SRC" \
				"free space (df -h $KERNEL_SRC), then make series TREE=$TREE (it puts back what a cut push left)"
		where=$(printf '%s\n' "$out" | grep -E 'FAILED|can.t find file|malformed|Only garbage|No such file' |
			sed 's/^/    /')
		die "patch $p does not apply at fuzz 0 to $KERNEL_SRC (tree left at the patch before it):
$where" "fix it in the tree: cd $KERNEL_SRC && QUILT_PATCHES=$SNAP quilt push -f --fuzz=0; edit the files its *.rej name, delete the .rej; then back here: make refresh P=$p TREE=$TREE (writes patches/$TREE/$p back as a mail), make series"
	fi
	printf '%s\n' "$out" | grep -q 'with fuzz' &&
		die "patch $p applied only with fuzz" "refresh $PATCHES_SHOWN/$p against the tree (make refresh P=$p TREE=$TREE)"
	printf '%s\n' "$out" | grep 'offset' | sed 's/^/    /' || true
done
say "series applied: ${#want[@]} patch(es) on $KERNEL_SRC"
