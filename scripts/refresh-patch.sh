#!/bin/bash
# make refresh P=NAME: write the topmost applied patch of the tree back to
# patches/TREE/NAME as a mail, after it was fixed by hand in the tree
# (quilt push -f, edit, as apply-series.sh's advice says). The mail keeps
# its header, changelog and signature; its diff and diffstat are the
# tree's, as git format-patch writes them (below). quilt refresh is run
# too, so the next make series finds the tree and the series in agreement.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
need quilt git
[ -n "${P:-}" ] || die "which patch? P= names it as in patches/$TREE/series" "make refresh P=group/0001-name.patch"
need_tree
series_load
printf '%s\n' "${SERIES[@]}" | grep -qxF "$P" ||
	die "P=$P is not in $PATCHES_SHOWN/series" "grep -v '^#' $PATCHES_SHOWN/series"

# P must be the top: below it, pop down to it (make series pushes the
# rest again); not applied, push up to it.
top=$(q top 2>/dev/null || true)
if [ "$top" != "$P" ]; then
	if q applied 2>/dev/null | grep -qxF "$P"; then
		die "$P is applied below the topmost patch of $KERNEL_SRC ('$top'): make it the top first" \
			"cd $KERNEL_SRC && QUILT_PATCHES=$SNAP quilt pop $P; edit its files; then make refresh P=$P TREE=$TREE, make series"
	fi
	die "$P is not applied in $KERNEL_SRC (its topmost patch: '${top:-none}')" \
		"cd $KERNEL_SRC && QUILT_PATCHES=$SNAP quilt push -f --fuzz=0 $P; fix it; then make refresh P=$P TREE=$TREE"
fi
if find "$KERNEL_SRC" -path "$KERNEL_SRC/.pc" -prune -o -name '*.rej' -print | grep -q .; then
	die "reject files are left in $KERNEL_SRC: fix and delete them first" \
		"find $KERNEL_SRC -name '*.rej'"
fi

mail=$PATCHES/$P
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The tree's diff of the patch, as git format-patch writes it: the files
# before the patch (quilt's backups; an empty one is a file the patch
# creates) and after it, as two trees of a scratch repository, compared
# with the tree's .gitattributes (function context of C hunks), index
# lines and modes.
g() { git -C "$tmp/g" -c core.abbrev=7 -c diff.noprefix=false \
	-c diff.mnemonicPrefix=false -c color.ui=never "$@"; }
git init -q "$tmp/g"
[ ! -f "$KERNEL_SRC/.gitattributes" ] || cp "$KERNEL_SRC/.gitattributes" "$tmp/g/.git/info/attributes"
q files "$P" >"$tmp/files"
# take DIR: the patch's files that exist in DIR, as the scratch tree
take() {
	local f
	find "$tmp/g" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
	while IFS= read -r f; do
		[ -s "$1/$f" ] || { [ "$1" = "$KERNEL_SRC" ] && [ -e "$1/$f" ]; } || continue
		mkdir -p "$tmp/g/$(dirname "$f")"
		cp -p "$1/$f" "$tmp/g/$f"
	done <"$tmp/files"
	g add -A && g write-tree
}
old=$(take "$KERNEL_SRC/.pc/$P")
new=$(take "$KERNEL_SRC")
g diff "$old" "$new" >"$tmp/diff"
[ -s "$tmp/diff" ] || die "the diff of $P in $KERNEL_SRC is empty" "is it applied? cd $KERNEL_SRC && QUILT_PATCHES=$SNAP quilt files"
git apply --check --reverse --directory=. "$tmp/diff" 2>/dev/null ||
	(cd "$KERNEL_SRC" && git apply --check --reverse "$tmp/diff") ||
	die "the rewritten diff of $P does not match the tree" "report this; the mail is unchanged"

# Header: everything before the old diffstat (or before the diff when it
# has none); the signature: from "-- " to the end.
awk '/^---$/ { sep = 1 }
	sep && (/^ [^ ].* \| +[0-9]+/ || /^ [0-9]+ files? changed/) { exit }
	/^diff / || /^--- (a\/|\/dev\/null)/ || /^Index: / { exit }
	{ print }' "$mail" >"$tmp/head"
grep -qx -- '---' "$tmp/head" || echo '---' >>"$tmp/head"
sed -i -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$tmp/head"	# trailing blank lines
awk '/^-- $/ { s = 1 } s' "$mail" >"$tmp/sig"
[ -s "$tmp/sig" ] || printf -- '-- \n%s\n' "$(git --version | sed 's/^git version //')" >"$tmp/sig"
{
	cat "$tmp/head"
	g diff --stat=72 --summary "$old" "$new"
	echo
	cat "$tmp/diff"
	cat "$tmp/sig"
} >"$tmp/mail"
why=$(patch_whole "$tmp/mail" | paste -sd';')
[ -z "$why" ] || die "the rewritten mail of $P is not whole: $why" "report this; the mail is unchanged"

# quilt's own record (timestamps for pop), then the snapshot = the mail,
# so that make series sees nothing to do.
q refresh >/dev/null
cp "$tmp/mail" "$KERNEL_SRC/$SNAP/$P"
if cmp -s "$tmp/mail" "$mail"; then
	say "$P unchanged"
else
	cp "$tmp/mail" "$mail"
	say "$P rewritten from the tree: $(git apply --numstat "$tmp/diff" | awk '{ i += $1; d += $2 } END { print NR " file(s), +" i " -" d }')"
	say "next: make series (applies the rest), make lint, then commit $PATCHES_SHOWN/$P"
fi
