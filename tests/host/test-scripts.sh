#!/bin/bash
# Host-side tests of scripts/: each case feeds a script bad or changing
# input (against a small fake tree, or the real one where Kconfig is
# needed) and checks its exit status, its message and the state it leaves.
# TAP output, closing line "N passed, N failed, N skipped".
set -eu
TOP=$(cd "$(dirname "$0")/../.." && pwd)
S=$TOP/scripts
# The user's make variables (make test KCONFIG=debug SWAP=zram ...: every
# one make help lists) reach this script through the environment; each
# case sets what it tests. Only TREE stays: it picks the real tree (a
# KERNEL_SRC= is the real tree).
REAL_TREE=${KERNEL_SRC:-}
for v in $(sed -n 's/^#h //p' "$TOP/Makefile" | grep -oE '\b[A-Z][A-Z0-9_]{2,}=' | tr -d = | sort -u); do
	[ "$v" = TREE ] || unset "$v"
done
unset PATCHES BUILD CHECK_TESTS
# The tree's pinned source (TREE=, default 7.3) and its top directory.
read -r PIN_SRC PIN_TOPDIR < <(bash -c '. "$1/lib.sh"; echo "$KERNEL_SRC $PIN_TOPDIR"' _ "$S")
REAL_TREE=${REAL_TREE:-$PIN_SRC}

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# --- helpers -----------------------------------------------------------
# shellcheck source=tests/host/harness.sh
. "$TOP/tests/host/harness.sh"
# hold FILE: hold FILE's lock in the background, as a running make
# would, until unhold.
hold() { (exec 8>"$1" && flock 8 && exec sleep 60) & holder=$!; sleep 1; }
unhold() { kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null || true; }
tree_sum() { (cd "$1" && find . -path ./.pc -prune -o -path ./.series -prune -o -type f -print0 |
	sort -z | xargs -0 sha1sum | sha1sum); }

# A fake kernel tree (Makefile, mm/) and a patch directory.
mktree() {
	rm -rf "$T/tree" "$T/p" "$T/orig"
	mkdir -p "$T/tree/mm" "$T/p"
	echo 'all:' >"$T/tree/Makefile"
	seq 1 40 | sed 's/^/int a_line_/; s/$/;/' >"$T/tree/mm/a.c"
	seq 1 40 | sed 's/^/int b_line_/; s/$/;/' >"$T/tree/mm/b.c"
	cp -a "$T/tree" "$T/orig"
	: >"$T/p/series"
}
# mkpatch NAME FILE SED-EXPR: a patch of FILE (as in $T/orig, after the
# patches before it were applied to $T/orig) edited by SED-EXPR.
mkpatch() {
	local name=$1 file=$2 expr=$3
	cp "$T/orig/$file" "$T/new"
	sed -i "$expr" "$T/new"
	diff -u --label "a/$file" --label "b/$file" "$T/orig/$file" "$T/new" >"$T/diff" || true
	mkmail "$name" "$T/diff"
	cp "$T/new" "$T/orig/$file"
	echo "$name" >>"$T/p/series"
}
# mkmail NAME DIFF: $T/p/NAME, a format-patch-like mail of DIFF (header
# with the DEP-3 fields $DEP3, by default the project's own patch;
# diffstat summary, the diff, the "-- " signature).
DEP3_OWN=$'Origin: vendor\nForwarded: no\nLast-Update: 2026-12-03'
mkmail() {
	{
		printf 'From: Test <test@example.org>\nSubject: [PATCH] %s\n%s\n\n---\n' "$1" "${DEP3:-$DEP3_OWN}"
		git apply --numstat "$2" | awk '{ n++; i += $1; d += $2 }
			END { printf " %d file%s changed, %d insertions(+), %d deletions(-)\n\n", n, n == 1 ? "" : "s", i, d }'
		cat "$2"
		printf -- '-- \n2.39.5\n'
	} >"$T/p/$1"
}
apply() { run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$S/apply-series.sh"; }

# --- cases -------------------------------------------------------------
# The checks print only when they fail: a case that passes has no
# diagnostics in its output, and one that fails names the check.
t_harness_checks_are_silent_when_they_hold() {
	local said
	out='a line' rc=0
	said=$(expect_rc 0 && expect_out '^a line$' && expect_no_out 'other' 2>&1) ||
		{ out=$said; fail "a check that holds failed"; return 1; }
	[ -z "$said" ] || { out=$said; fail "a check that holds printed a diagnostic"; return 1; }
	said=$(expect_no_out 'a line' 2>&1) && { fail "expect_no_out held on a matching line"; return 1; }
	printf '%s\n' "$said" | grep -q 'output has /a line/' || { out=$said; fail "no diagnostic from a check that failed"; }
}

t_empty_series_is_valid() {
	mktree
	apply; expect_rc 0 && expect_out '0 patch\(es\)'
}

t_series_applies_and_second_run_touches_nothing() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-b.patch mm/b.c 's/b_line_7;/b_line_7_y;/'
	apply; expect_rc 0 || return 1
	[ "$(tree_sum "$T/tree")" = "$(tree_sum "$T/orig")" ] || fail "tree differs from the expected result" || return 1
	touch -d @1 "$T/tree/mm/a.c" "$T/tree/mm/b.c"
	apply; expect_rc 0 && expect_out 'up to date' || return 1
	[ "$(stat -c %Y "$T/tree/mm/a.c" "$T/tree/mm/b.c" | sort -u)" = 1 ] || fail "a re-run touched patched files"
}

t_changed_patch_reapplies_from_the_first_change() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-b.patch mm/b.c 's/b_line_7;/b_line_7_y;/'
	apply; expect_rc 0 || return 1
	touch -d @1 "$T/tree/mm/a.c"
	# Rewrite 0002 on top of 0001's result.
	cp "$T/tree/mm/b.c" "$T/orig/mm/b.c" 2>/dev/null
	sed -i 's/b_line_7_y;/b_line_7;/' "$T/orig/mm/b.c"
	sed -i '/0002-b.patch/d' "$T/p/series"
	mkpatch 0002-b.patch mm/b.c 's/b_line_9;/b_line_9_z;/'
	apply; expect_rc 0 && expect_out 'popping 1 patch\(es\) down to the first change \(0002-b.patch\)' || return 1
	[ "$(tree_sum "$T/tree")" = "$(tree_sum "$T/orig")" ] || fail "tree differs from the changed series" || return 1
	[ "$(stat -c %Y "$T/tree/mm/a.c")" = 1 ] || fail "the unchanged first patch was re-applied"
}

t_changelog_only_edit_reapplies_nothing() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	apply; expect_rc 0 || return 1
	touch -d @1 "$T/tree/mm/a.c"
	sed -i 's/^Subject: \[PATCH\] 0001-a.patch/Subject: [PATCH] mm: a: better words/' "$T/p/0001-a.patch"
	apply; expect_rc 0 && expect_out 'up to date' || return 1
	[ "$(stat -c %Y "$T/tree/mm/a.c")" = 1 ] || fail "a changelog edit re-applied the patch" || return 1
	cmp -s "$T/p/0001-a.patch" "$T/tree/.series/0001-a.patch" || fail "the snapshot kept the old changelog"
}

t_added_patch_applies_only_itself() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	apply; expect_rc 0 || return 1
	mkpatch 0002-b.patch mm/b.c 's/b_line_7;/b_line_7_y;/'
	apply; expect_rc 0 && expect_out 'applying \[2/2\] 0002-b.patch' || return 1
	expect_no_out 'applying \[1/2\]' "0001 was re-applied"
}

t_bad_patch_names_patch_and_hunk_and_leaves_tree_before_it() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-b.patch mm/b.c 's/b_line_7;/b_line_7_y;/'
	mkpatch 0003-a.patch mm/a.c 's/a_line_30;/a_line_30_w;/'
	sed -i 's/^ int b_line_6;/ int b_line_6_CHANGED;/' "$T/p/0002-b.patch"
	cp "$T/tree/mm/a.c" "$T/a.base"; sed 's/a_line_5;/a_line_5_x;/' "$T/a.base" >"$T/a.want"
	apply; expect_rc 1 || return 1
	expect_out 'patch 0002-b.patch does not apply' && expect_out 'mm/b.c' &&
		expect_out 'FAILED' || return 1
	cmp -s "$T/tree/mm/a.c" "$T/a.want" || fail "mm/a.c is not at 0001's result" || return 1
	! grep -q b_line_7_y "$T/tree/mm/b.c" || fail "0002 was half-applied" || return 1
	! ls "$T/tree/mm/"*.rej "$T/tree/mm/"*.orig >/dev/null 2>&1 || fail "reject files left behind" || return 1
	[ "$(cat "$T/tree/.pc/applied-patches")" = 0001-a.patch ] || fail "quilt state is not 0001 only"
}

t_series_comments_crlf_duplicates_and_cut_hunks() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-b.patch mm/b.c 's/b_line_7;/b_line_7_y;/'
	# A patch disabled the quilt way is not "unlisted".
	printf '0001-a.patch\n# 0002-b.patch\n' >"$T/p/series"
	apply; expect_rc 0 && expect_out 'applied' || return 1
	! grep -q b_line_7_y "$T/tree/mm/b.c" || fail "the disabled patch was applied" || return 1
	# CRLF line ends.
	printf '0001-a.patch\r\n0002-b.patch\r\n' >"$T/p/series"
	apply; expect_rc 0 || return 1
	grep -q b_line_7_y "$T/tree/mm/b.c" || fail "0002 not applied from a CRLF series" || return 1
	# The first K of the series only (check-series and bench points).
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" SERIES_UPTO=1 "$S/apply-series.sh"
	expect_rc 0 && [ "$(cat "$T/tree/.pc/applied-patches")" = 0001-a.patch ] || fail "SERIES_UPTO=1 did not stop at 0001" || return 1
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" SERIES_UPTO=3 "$S/apply-series.sh"
	expect_rc 1 && expect_out 'SERIES_UPTO=3: the series has 2 patches' || return 1
	apply; expect_rc 0 || return 1
	# A duplicate line.
	printf '0001-a.patch\n0002-b.patch\n0001-a.patch\n' >"$T/p/series"
	apply; expect_rc 1 && expect_out "lists '0001-a.patch' twice" || return 1
	# A patch cut in the middle of its hunk: named, with what is wrong.
	printf '0001-a.patch\n0002-b.patch\n' >"$T/p/series"
	mkpatch 0003-a.patch mm/a.c 's/a_line_20;/a_line_20_z;/'
	head -n -5 "$T/p/0003-a.patch" >"$T/cut" && mv "$T/cut" "$T/p/0003-a.patch"
	apply; expect_rc 1 && expect_out '0003-a.patch' && expect_out 'cut off|malformed|truncated' || return 1
	! grep -q a_line_20_z "$T/tree/mm/a.c" || fail "the cut patch was applied"
}

# After a patch fails: the advice's commands, then make refresh, give a
# mail in its own format (header, changelog, diffstat, git diff,
# signature) that lint accepts, and make series goes on from there.
t_fix_by_hand_then_refresh_keeps_the_mail_format() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-a.patch mm/a.c 's/a_line_12;/a_line_12_w;/'
	sed -i 's/^Subject: .*/&\n\nThe changelog.\n\nSigned-off-by: Test <test@example.org>/' "$T/p/0002-a.patch"
	sed -i 's/int a_line_12;/int a_line_12_moved;/' "$T/tree/mm/a.c"	# upstream moved on
	apply; expect_rc 1 && expect_out 'make refresh .*P=0002-a.patch' || return 1
	local cmd
	cmd=$(printf '%s\n' "$out" | sed -n 's/.*next: fix it in the tree: \(cd [^;]*\);.*/\1/p')
	[ -n "$cmd" ] || fail "no command in the advice" || return 1
	(eval "$cmd") >/dev/null 2>&1 || true
	ls "$T/tree/mm/a.c.rej" >/dev/null 2>&1 || fail "quilt push -f left no reject" || return 1
	sed -i 's/int a_line_12_moved;/int a_line_12_w;/' "$T/tree/mm/a.c"
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" P=0002-a.patch "$S/refresh-patch.sh"
	expect_rc 1 && expect_out 'reject files are left' || return 1
	rm "$T/tree/mm/a.c.rej"
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" P=0002-a.patch "$S/refresh-patch.sh"
	expect_rc 0 && expect_out '0002-a.patch rewritten from the tree: 1 file\(s\), \+1 -1' || return 1
	local m=$T/p/0002-a.patch
	grep -q '^Subject: \[PATCH\] 0002-a.patch' "$m" && grep -q '^Signed-off-by: Test' "$m" &&
		grep -q '^diff --git a/mm/a.c b/mm/a.c$' "$m" && grep -q '^-int a_line_12_moved;$' "$m" &&
		grep -qx -- '-- ' "$m" && ! grep -qE '^(Index:|====)' "$m" ||
		{ out=$(cat "$m"); fail "the mail lost its format"; return 1; }
	out=$(bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; patch_whole "$2"' _ "$S" "$m")
	[ -z "$out" ] || fail "patch_whole: $out" || return 1
	apply; expect_rc 0 && expect_out 'series up to date: 2 patch' || return 1
	# A mail in quilt's format is named as such.
	sed -i '/^diff --git/i Index: a/mm/a.c\n===================================================================' "$m"
	out=$(bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; patch_whole "$2"' _ "$S" "$m")
	expect_out "quilt's format"
}

# make refresh of a patch below the top: the advice brings it to the top,
# and from there the fix reaches the mail and make series the rest.
t_refresh_of_a_patch_below_the_top_says_how_to_reach_it() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-b.patch mm/b.c 's/b_line_7;/b_line_7_y;/'
	apply; expect_rc 0 || return 1
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" P=0001-a.patch "$S/refresh-patch.sh"
	expect_rc 1 && expect_out "0001-a.patch is applied below the topmost patch of $T/tree \('0002-b.patch'\)" || return 1
	local cmd
	cmd=$(printf '%s\n' "$out" | sed -n 's/^  next: \(cd [^;]*\);.*/\1/p')
	[ -n "$cmd" ] || fail "no command in the advice" || return 1
	(eval "$cmd") >/dev/null 2>&1 || { fail "the advice's command failed: $cmd"; return 1; }
	sed -i 's/int a_line_5_x;/int a_line_5_fixed;/' "$T/tree/mm/a.c"
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" P=0001-a.patch "$S/refresh-patch.sh"
	expect_rc 0 && expect_out '0001-a.patch rewritten from the tree' || return 1
	apply; expect_rc 0 && expect_out 'applying \[2/2\] 0002-b.patch' || return 1
	grep -q a_line_5_fixed "$T/p/0001-a.patch" && grep -q b_line_7_y "$T/tree/mm/b.c" || fail "the fix or the patch above is missing"
}

# A mail git format-patch wrote (index lines, function context from the
# tree's .gitattributes, a new executable file) comes back from make
# refresh byte for byte when nothing was changed, and a fix by hand gets
# the index line of the new file.
t_refresh_keeps_git_format_patch_output() {
	mktree
	printf '%s\n' '*.[ch] diff=cpp' >"$T/tree/.gitattributes"
	{ echo 'static int f(void)'; echo '{'; seq 1 12 | sed 's/.*/\tint x&;/'; echo '}'; } >"$T/tree/mm/c.c"
	rm -rf "$T/g"; cp -a "$T/tree" "$T/g"
	local git="git -C $T/g -c user.name=Test -c user.email=test@example.org -c core.abbrev=7"
	$git init -q && $git add -A && $git commit -qm base || return 1
	sed -i 's/int x9;/int x9_y;/' "$T/g/mm/c.c"
	mkdir "$T/g/tools"; printf '#!/bin/sh\necho t\n' >"$T/g/tools/t.sh"; chmod 755 "$T/g/tools/t.sh"
	$git add -A && $git commit -qm 'mm: change f' && $git format-patch -q --stdout -1 >"$T/p/0001-c.patch" || return 1
	grep -q '^@@ .* @@ static int f(void)$' "$T/p/0001-c.patch" &&
		grep -q '^ create mode 100755 tools/t.sh$' "$T/p/0001-c.patch" ||
		{ out=$(cat "$T/p/0001-c.patch"); fail "format-patch wrote no function context or mode"; return 1; }
	echo 0001-c.patch >"$T/p/series"
	cp "$T/p/0001-c.patch" "$T/want"
	apply; expect_rc 0 || return 1
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" P=0001-c.patch "$S/refresh-patch.sh"
	expect_rc 0 && expect_out '0001-c.patch unchanged' || { out="$out
$(diff "$T/want" "$T/p/0001-c.patch")"; fail "the mail changed"; return 1; }
	sed -i 's/int x11;/int x11_z;/' "$T/tree/mm/c.c"
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" P=0001-c.patch "$S/refresh-patch.sh"
	expect_rc 0 && expect_out 'rewritten from the tree: 2 file' || return 1
	local h; h=$(git hash-object "$T/tree/mm/c.c" | cut -c1-7)
	grep -q "^index [0-9a-f]\{7\}\.\.$h 100644\$" "$T/p/0001-c.patch" &&
		grep -q '^+	int x11_z;$' "$T/p/0001-c.patch" &&
		grep -q '^ mm/c.c     | 4 ++--$' "$T/p/0001-c.patch" ||
		{ out=$(cat "$T/p/0001-c.patch"); fail "no index line with the new file's hash, or a wrong diffstat"; return 1; }
}

# The state a Ctrl-C in the middle of "quilt push" leaves: the patch's
# backups in .pc/, the patch not recorded, its files partly changed.
t_interrupted_push_is_rolled_back_and_redone() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-ab.patch mm/a.c 's/a_line_30;/a_line_30_w;/'
	cp "$T/orig/mm/b.c" "$T/new"; sed -i 's/b_line_7;/b_line_7_y;/' "$T/new"
	diff -u --label a/mm/b.c --label b/mm/b.c "$T/orig/mm/b.c" "$T/new" >>"$T/diff" || true
	mkmail 0002-ab.patch "$T/diff"
	cp "$T/new" "$T/orig/mm/b.c"
	apply; expect_rc 0 || return 1
	# Undo the record of 0002 and half of its change: mm/b.c as before it.
	sed -i '/0002-ab.patch/d' "$T/tree/.pc/applied-patches"
	cp "$T/tree/.pc/0002-ab.patch/mm/b.c" "$T/tree/mm/b.c"
	echo push >"$T/tree/.series/.in-progress"
	apply; expect_rc 0 && expect_out '0002-ab.patch: a quilt push of it was interrupted' &&
		expect_out 'applying \[2/2\] 0002-ab.patch' || return 1
	[ "$(tree_sum "$T/tree")" = "$(tree_sum "$T/orig")" ] || fail "tree differs from the series after recovery" || return 1
	# The same state left by a pop cut short (quilt pop restores the files,
	# then drops the patch from applied-patches): named as a pop.
	sed -i '/0002-ab.patch/d' "$T/tree/.pc/applied-patches"
	cp "$T/tree/.pc/0002-ab.patch/mm/b.c" "$T/tree/mm/b.c"
	echo pop >"$T/tree/.series/.in-progress"
	apply; expect_rc 0 && expect_out '0002-ab.patch: a quilt pop of it was interrupted' || return 1
	[ ! -e "$T/tree/.series/.in-progress" ] || fail "the in-progress mark was left"
}

# Run a command with SIGINT at its default action. A shell without job
# control starts background jobs with SIGINT ignored (make test run as
# "make test &"), an ignored signal stays ignored across exec, and a
# script cannot trap or reset it: perl can.
sigint_default() {
	perl -e '$SIG{INT} = "DEFAULT"; exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\n"' "$@"
}

# A real SIGINT while quilt pushes a long series, then a re-run.
t_ctrl_c_during_apply_then_rerun_completes() {
	mktree
	local i
	for i in $(seq 1 40); do
		mkpatch "$(printf %04d "$i")-a.patch" mm/a.c "s/a_line_$i;/a_line_${i}_x;/"
	done
	# A slow patch(1), so that the signal lands in the middle of the run.
	mkdir -p "$T/slow"
	printf '#!/bin/sh\nsleep 0.2\nexec %s "$@"\n' "$(command -v patch)" >"$T/slow/patch"
	chmod +x "$T/slow/patch"
	# Job control: the run gets a process group of its own, as at a
	# terminal, and the signal goes to all of it (quilt, patch).
	set -m
	sigint_default env PATH="$T/slow:$PATH" KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" \
		"$S/apply-series.sh" >"$T/int.out" 2>&1 &
	local pid=$!
	set +m
	for i in $(seq 1 100); do
		grep -q 'applying \[5/' "$T/int.out" 2>/dev/null && break
		sleep 0.1
	done
	kill -INT -- -"$pid" 2>/dev/null || true
	wait "$pid" || true
	! grep -q 'series applied' "$T/int.out" || { out=$(cat "$T/int.out"); fail "the run was not interrupted"; } || return 1
	apply; expect_rc 0 && expect_out 'series applied: 40 patch' || return 1
	[ "$(tree_sum "$T/tree")" = "$(tree_sum "$T/orig")" ] || fail "tree differs after the interrupted run and a re-run"
}

t_missing_tool_names_the_package() {
	mktree
	local c b=$T/few-tools
	rm -rf "$b" && mkdir -p "$b"
	for c in bash dirname realpath cat sed awk grep find mkdir cp sha1sum cut printf; do
		ln -sf "$(command -v "$c")" "$b/$c" 2>/dev/null || true
	done
	run env PATH="$b" KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$b/bash" "$S/apply-series.sh"
	expect_rc 1 && expect_out "'quilt' is not installed" && expect_out 'next: make deps' || return 1
	# The package of each command the scripts need, where its name is not
	# the command's.
	for c in timeout:coreutils chroot:coreutils xz:xz-utils dpkg-deb:dpkg mke2fs:e2fsprogs apt-get:apt \
		qemu-system-x86_64:qemu-system-x86 quilt:quilt; do
		run env PATH="$b" "$b/bash" -c '. "$1/lib.sh"; need "$2"' _ "$S" "${c%%:*}"
		expect_rc 1 && expect_out "'${c%%:*}' is not installed" && expect_out "next: make deps \(or: apt-get install ${c#*:}\)" &&
			expect_no_out 'command not found' "lib.sh needs a tool it does not check for" || return 1
	done
}

t_corrupt_patch_is_named_and_tree_left_before_it() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-b.patch mm/b.c 's/b_line_7;/b_line_7_y;/'
	# Truncate 0002 in the middle of its hunk, as a broken download would.
	head -c 150 "$T/p/0002-b.patch" >"$T/trunc" && mv "$T/trunc" "$T/p/0002-b.patch"
	apply; expect_rc 1 && expect_out 'patch 0002-b.patch (does not apply|is not whole)' || return 1
	[ "$(cat "$T/tree/.pc/applied-patches")" = 0001-a.patch ] || fail "quilt state is not 0001 only" || return 1
	! grep -q b_line_7_y "$T/tree/mm/b.c" || fail "0002 was half-applied"
}

# A mail cut off at a file boundary applies cleanly but lacks files its
# diffstat names: lint and make series name it, nothing of it applied.
t_patch_cut_at_a_file_boundary_is_refused() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	cp "$T/orig/mm/b.c" "$T/new-b" && sed -i 's/b_line_7;/b_line_7_y;/' "$T/new-b"
	# 0002 changes both files; then lose its second file and signature.
	cp "$T/orig/mm/a.c" "$T/new-a" && sed -i 's/a_line_9;/a_line_9_y;/' "$T/new-a"
	{ diff -u --label a/mm/a.c --label b/mm/a.c "$T/orig/mm/a.c" "$T/new-a"
	  diff -u --label a/mm/b.c --label b/mm/b.c "$T/orig/mm/b.c" "$T/new-b"; } >"$T/diff2"
	{ printf 'From: Test <test@example.org>\nSubject: [PATCH] two files\n\n---\n'
	  printf ' 2 files changed, 2 insertions(+), 2 deletions(-)\n\n'
	  sed '/^--- a\/mm\/b.c/,$d' "$T/diff2"; } >"$T/p/0002-ab.patch"
	echo 0002-ab.patch >>"$T/p/series"
	apply; expect_rc 1 && expect_out 'patch 0002-ab.patch is not whole: its diffstat says 2 file\(s\), \+2 -2 but its diff holds 1 file\(s\), \+1 -1' &&
		expect_out "next: restore $T/p/0002-ab.patch" || return 1
	[ "$(cat "$T/tree/.pc/applied-patches")" = 0001-a.patch ] || fail "quilt state is not 0001 only" || return 1
	! grep -q a_line_9_y "$T/tree/mm/a.c" || fail "part of the cut patch was applied"
}

# A disk that fills while quilt pushes is named, not taken for a patch
# that does not apply.
t_full_disk_during_series_is_not_a_patch_that_does_not_apply() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkdir -p "$T/full"
	printf '#!/bin/sh\necho "patch: **** write error : No space left on device" >&2\nexit 2\n' >"$T/full/patch"
	chmod +x "$T/full/patch"
	run env PATH="$T/full:$PATH" KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$S/apply-series.sh"
	expect_rc 1 && expect_out 'error: the disk filled while quilt applied 0001-a.patch' && expect_out 'next: free space' &&
		expect_no_out 'error: patch .* does not apply' "a full disk reported as a patch that does not apply" || return 1
	apply; expect_rc 0 && expect_out 'series applied: 1 patch'
}

t_patch_needing_fuzz_is_refused() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_20;/a_line_20_x;/'
	# Break one outer context line: applies with fuzz 1, not with fuzz 0.
	sed -i 's/^ int a_line_17;/ int a_line_17_other;/' "$T/p/0001-a.patch"
	apply; expect_rc 1 && expect_out 'does not apply at fuzz 0'
}

t_series_names_missing_file() {
	mktree
	echo 0001-missing.patch >"$T/p/series"
	apply; expect_rc 1 && expect_out "names '0001-missing.patch' but .* does not exist"
}

t_patch_file_not_in_series() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	: >"$T/p/series"
	apply; expect_rc 1 && expect_out "not listed in $T/p/series: 0001-a.patch"
}

t_missing_tree() {
	mktree
	run env KERNEL_SRC="$T/nonexistent" "$S/apply-series.sh"
	expect_rc 2 && expect_out 'KERNEL_SRC=.*nonexistent: no such directory' || return 1
	mkdir -p "$T/empty"
	run env KERNEL_SRC="$T/empty" "$S/fetch-tree.sh"
	expect_rc 1 && expect_out 'does not look like a kernel tree'
}

t_no_tree_no_work_bad_kernel_src_each_named() {
	mktree
	# make config before make tree: the step to run first.
	run env WORK="$T/nt" "$S/make-config.sh"
	expect_rc 1 && expect_out 'the pinned [0-9.]+ tree is not extracted yet' &&
		expect_out 'next: make tree' || return 1
	# A fragment that is not there.
	run env KERNEL_SRC="$T/tree" WORK="$T/nt" BUILD="$T/nt/b" EXTRA_CONFIG="$T/no/such.config" "$S/make-config.sh"
	expect_rc 1 && expect_out "config fragment $T/no/such.config does not exist" || return 1
	# A work directory that cannot be made.
	run env WORK=/proc/no-such/w "$S/pipeline.sh" series
	expect_rc 1 && expect_out 'cannot write the work directory /proc/no-such/w' &&
		expect_out 'next: use WORK=DIR' || return 1
	# KERNEL_SRC: an empty directory, a file; the advice is never make tree.
	mkdir -p "$T/empty"
	for s in check-apply.sh apply-series.sh make-config.sh build.sh; do
		run env KERNEL_SRC="$T/empty" PATCHES="$T/p" WORK="$T/nt" BUILD="$T/nt/b" "$S/$s"
		expect_rc 1 && expect_out "KERNEL_SRC=$T/empty is not a kernel tree" || return 1
		expect_no_out 'next: make tree' "$s advises make tree for a KERNEL_SRC" || return 1
	done
	run env KERNEL_SRC="$T/tree/Makefile" "$S/apply-series.sh"
	expect_rc 2 && expect_out 'KERNEL_SRC=.*Makefile is a file, not'
}

t_unknown_tree_names_the_trees() {
	run env TREE=no-such-tree "$S/fetch-tree.sh"
	expect_rc 2 && expect_out 'TREE=no-such-tree: no .*patches/no-such-tree/tree.env' &&
		expect_out 'next: use one of: .*6\.12.*7\.3' || return 1
	# A path would name a work directory (and its lock) in the checkout;
	# an empty TREE is a mistake, not the default.
	run env TREE=../patches/7.3 bash -c '. "$1/lib.sh"' _ "$S"
	expect_rc 2 && expect_out 'TREE=../patches/7.3 is a path' && expect_out 'next: use one of: .*7\.3' || return 1
	run env TREE= bash -c '. "$1/lib.sh"' _ "$S"
	expect_rc 2 && expect_out 'error: TREE is empty'
}

# make lint runs shellcheck over every script: a warning fails the file
# (with shellcheck's code); the project's own scripts are clean, unused variables
# (SC2034) included.
t_lint_shell_fails_a_warning_and_passes_the_project() {
	printf '#!/bin/bash\nset -eu\nf() { local x=$(date); echo "$x"; }\nf\n' >"$T/bad.sh"
	printf '#!/bin/sh\n[ -n "$1" -a -n "$2" ] && echo ok\n' >"$T/bad-guest"
	run "$S/lint-shell.sh" "$T/bad.sh" "$T/bad-guest"
	expect_rc 1 && expect_out "not ok 1 shellcheck $T/bad.sh" && expect_out 'SC2155' &&
		expect_out "not ok 2 shellcheck $T/bad-guest" && expect_out 'SC2166' || return 1
	run "$S/lint-shell.sh"
	expect_rc 0 && expect_out ' 0 failed'
}

# A next step reaches the state the user is in: "make build KCONFIG=debug"
# without a config says "make config KCONFIG=debug", not "make config"
# (which would configure the default kernel).
t_next_step_carries_the_users_settings() {
	# (make test TREE=6.12 KCONFIG=debug runs this too: the user's
	# settings are the case's own.)
	local clean=(env -u TREE -u KCONFIG -u KERNEL_SRC -u WORK -u WORK_ROOT -u PATCHES)
	mktree
	run "${clean[@]}" KCONFIG=debug WORK="$T/ns" KERNEL_SRC="$T/tree" "$S/build.sh"
	expect_rc 1 && expect_out "next: make config KCONFIG=debug WORK=$T/ns KERNEL_SRC=$T/tree\$" || return 1
	run "${clean[@]}" TREE=6.12 KERNEL_SRC="$T" bash -c '. "$1/lib.sh"; die x "make tree TREE=6.12, then make deps"' _ "$S"
	expect_rc 1 && expect_out "next: make tree KERNEL_SRC=$T TREE=6.12, then make deps\$" || return 1
	run "${clean[@]}" bash -c '. "$1/lib.sh"; die x "make config"' _ "$S"
	expect_out 'next: make config$'
}

# lib.sh exports what the user gave, normalized, and nothing it computed.
t_lib_exports_only_what_the_user_gave() {
	run env -u KERNEL_SRC -u BUILD -u WORK bash -c '. "$1/lib.sh"; env' _ "$S"
	expect_no_out '^(KERNEL_SRC|BUILD|WORK|PATCHES)=' "lib.sh exported a value it computed" || return 1
	mkdir -p "$T/ksrc"
	run env KERNEL_SRC="$T/ksrc/." WORK="$T/w/../w2" bash -c '. "$1/lib.sh"; env' _ "$S"
	expect_out "^KERNEL_SRC=$T/ksrc\$" && expect_out "^WORK=$T/w2\$"
}

t_wrong_checksum() {
	echo garbage >"$T/fake.tar.xz"
	run env WORK="$T/w" PIN_TARBALL="$T/fake.tar.xz" "$S/fetch-tree.sh"
	expect_rc 1 && expect_out 'checksum mismatch' || return 1
	[ ! -e "$T/w/$PIN_TOPDIR" ] || fail "a tree was extracted from a bad tarball"
}

t_full_disk_for_the_tree_leaves_nothing_half_extracted() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to mount a small tmpfs"; return 0; }
	mkdir -p "$T/tt/$PIN_TOPDIR" "$T/tw"
	head -c 8M /dev/zero >"$T/tt/$PIN_TOPDIR/big"
	tar -C "$T/tt" -cJf "$T/big.tar.xz" "$PIN_TOPDIR"
	local sum
	sum=$(sha256sum "$T/big.tar.xz" | cut -d' ' -f1)
	mount -t tmpfs -o size=4M tmpfs "$T/tw" 2>/dev/null || { echo "SKIP: cannot mount tmpfs here"; return 0; }
	run env WORK="$T/tw" PIN_TARBALL="$T/big.tar.xz" PIN_SHA256="$sum" "$S/fetch-tree.sh"
	expect_rc 1 && expect_out "only [0-9]+ MiB free for $T/tw; the .* tree needs about 8 MiB" ||
		{ umount "$T/tw"; return 1; }
	# Past the check, tar fills the disk: its errors are counted, the
	# partial tree removed.
	run env WORK="$T/tw" PIN_TARBALL="$T/big.tar.xz" PIN_SHA256="$sum" TREE_MIN_MB=0 "$S/fetch-tree.sh"
	local left
	left=$(ls -A "$T/tw")
	umount "$T/tw"
	expect_rc 1 && expect_out 'failed: [1-9][0-9]* tar errors \(the partial tree is removed\)' && expect_out 'tar: .*(No space left|Wrote only)' || return 1
	[ -z "$left" ] || fail "left behind: $left"
}

# A fake apt for the pinned package: apt-cache madison offers the
# versions in $T/offer ("VERSION SUITE" lines); apt-get download builds a
# linux-source .deb around a small tree of that version. False, with a
# SKIP line, where the real apt parts it needs are missing.
fakeapt() {
	command -v dpkg-deb >/dev/null && [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] ||
		{ echo "SKIP: needs dpkg-deb and debian-archive-keyring"; return 1; }
	mkdir -p "$T/fakebin"
	cat >"$T/fakebin/apt-cache" <<-'EOF'
	#!/bin/sh
	for a; do last=$a; done
	while read -r v s; do echo " $last | $v | http://mirror.invalid/debian $s/main amd64 Packages"; done <"$FAKE_OFFER"
	EOF
	cat >"$T/fakebin/apt-get" <<-'EOF'
	#!/bin/sh
	for a; do last=$a; done
	case " $* " in *" update "*)
		# FAKE_UNREACHABLE=1: a mirror apt cannot reach (it exits 0).
		[ -z "${FAKE_UNREACHABLE:-}" ] || printf '%s\n' 'Err:1 http://mirror.invalid/debian bookworm InRelease' \
			"  Temporary failure resolving 'mirror.invalid'" \
			"W: Failed to fetch http://mirror.invalid/debian/dists/bookworm/InRelease  Temporary failure resolving 'mirror.invalid'" \
			'W: Some index files failed to download. They have been ignored, or old ones used instead.'
		exit 0 ;;
	esac
	pkg=${last%%=*} v=${last#*=} d=$(mktemp -d)
	grep -q "^$v " "$FAKE_OFFER" || exit 100
	mkdir -p "$d/deb/DEBIAN" "$d/deb/usr/src" "$d/$pkg/mm"
	printf 'Package: %s
Version: %s
Architecture: all
Maintainer: x <x@example.org>
Description: fake
' "$pkg" "$v" >"$d/deb/DEBIAN/control"
	echo "all:" >"$d/$pkg/Makefile"; echo "/* $v */" >"$d/$pkg/mm/a.c"
	# FAKE_SRC_<version with dots as _>: the mm/a.c of that version.
	src=$(printenv "FAKE_SRC_$(echo "$v" | tr -c 'A-Za-z0-9\n' _)" || true)
	[ -z "$src" ] || cp "$src" "$d/$pkg/mm/a.c"
	tar -C "$d" -cJf "$d/deb/usr/src/$pkg.tar.xz" "$pkg"
	dpkg-deb --build "$d/deb" "${pkg}_${v}_all.deb" >/dev/null
	EOF
	chmod +x "$T/fakebin/"*
}

t_pin_gone_from_the_archive_then_repin() {
	fakeapt || return 0
	printf '6.12.119-1~deb12u1 bookworm-security\n6.12.118-1 bookworm\n' >"$T/offer"
	cp "$TOP/patches/6.12/tree.env" "$T/tree.env"
	local e=(env PATH="$T/fakebin:$PATH" FAKE_OFFER="$T/offer" DEBIAN_MIRROR=http://mirror.invalid/debian
		DEBIAN_SECURITY_MIRROR=http://mirror.invalid/debian-security TREE=6.12 PIN_ENV="$T/tree.env"
		WORK_ROOT="$T/rw" PATCHES="$T/p")
	# A mirror that cannot be reached is not an archive without the pin.
	: >"$T/offer-none"
	run "${e[@]}" FAKE_OFFER="$T/offer-none" FAKE_UNREACHABLE=1 WORK_ROOT="$T/rw-unreached" "$S/fetch-tree.sh"
	expect_rc 1 && expect_out 'apt-get update could not read the lists of bookworm.* from the mirror http://mirror.invalid/debian' &&
		expect_out "Temporary failure resolving 'mirror.invalid'" && expect_out 'next: check the network' &&
		expect_no_out 'gone|repin' "an unreachable mirror reported as the pin gone" || return 1
	run "${e[@]}" "$S/fetch-tree.sh"
	expect_rc 1 && expect_out 'the pinned linux-source-6.12 6.12.117-1~deb12u1 is gone from every suite' &&
		expect_out 'On offer: 6.12.119-1~deb12u1 \(bookworm-security\), 6.12.118-1 \(bookworm\)' &&
		expect_out 'next: make repin .*TREE=6.12 VERSION=' || return 1
	mktree; mkdir -p "$T/p"; : >"$T/p/series"
	run "${e[@]}" VERSION=6.12.200 "$S/repin.sh"
	expect_rc 1 && expect_out 'not offered by .*; on offer: 6.12.119' || return 1
	run "${e[@]}" VERSION=6.12.118-1 "$S/repin.sh"
	expect_rc 0 && expect_out 'pinning linux-source-6.12 6.12.118-1 \(bookworm,' &&
		expect_out 'pinned tree ready' && expect_out 'applies cleanly' || return 1
	grep -qx 'PIN_VERSION=6.12.118-1' "$T/tree.env" && grep -qx 'PIN_SUITE=bookworm' "$T/tree.env" &&
		grep -q '/\* 6.12.118-1 \*/' "$T/rw/6.12/linux-source-6.12/mm/a.c" || fail "the pin or the tree is not the new one" || return 1
	# The next make tree takes the new pin as it is.
	run "${e[@]}" "$S/fetch-tree.sh"
	expect_rc 0 && expect_out 'pinned tree present'
}

# make deb: the archive keeps only the newest build of linux-config (it is
# per architecture); a pinned build that is gone is replaced by another
# build of the same upstream release, said so; with none, the run stops
# and names DEB_CONFIG_VERSION=.
t_deb_config_of_a_gone_build_takes_its_release() {
	fakeapt || return 0
	# deb.sh checks for the packaging tools first; the run stops before
	# it would use them.
	printf '#!/bin/sh\nexit 1\n' >"$T/fakebin/dpkg-buildpackage"
	cp "$T/fakebin/dpkg-buildpackage" "$T/fakebin/dh_builddeb"
	chmod +x "$T/fakebin/"*
	mktree
	local e=(env PATH="$T/fakebin:$PATH" FAKE_OFFER="$T/offer" DEBIAN_MIRROR=http://mirror.invalid/debian
		DEBIAN_SECURITY_MIRROR=http://mirror.invalid/debian-security TREE=6.12 KERNEL_SRC="$T/tree"
		PATCHES="$T/p" WORK_ROOT="$T/dw" DEB_FLAVOUR=amd64_none_cloud-amd64)
	printf '6.12.118-1~deb12u1 bookworm-security\n6.12.117-1 trixie\n' >"$T/offer"
	# The fake package has no config.*.xz: the run stops there, after
	# the choice.
	run "${e[@]}" "$S/deb.sh"
	expect_rc 1 && expect_out 'linux-config-6.12 6.12.117-1~deb12u1 is gone from the archive; using 6.12.117-1,' &&
		expect_out 'no config.amd64_none_cloud-amd64.xz in linux-config-6.12 6.12.117-1' || return 1
	printf '6.12.118-1~deb12u1 bookworm-security\n' >"$T/offer"
	run "${e[@]}" WORK_ROOT="$T/dw2" "$S/deb.sh"
	expect_rc 1 && expect_out 'linux-config-6.12 6.12.117-1~deb12u1 is not offered, nor another build of 6.12.117; on offer: 6.12.118-1~deb12u1 \(bookworm-security\)' &&
		expect_out 'next: make deb .*DEB_CONFIG_VERSION='
}

# check-apply-others: each other Debian build fetched, only the touched
# files extracted, a table per version and a patch x version table.
t_check_apply_others_table_per_version() {
	fakeapt || return 0
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	sed 's/a_line_5;/a_line_5_moved;/' "$T/tree/mm/a.c" >"$T/a-moved.c"
	printf '6.12.120-1 bookworm\n6.12.121-1 trixie\n' >"$T/offer"
	run env PATH="$T/fakebin:$PATH" FAKE_OFFER="$T/offer" DEBIAN_MIRROR=http://mirror.invalid/debian \
		DEBIAN_SECURITY_MIRROR=http://mirror.invalid/debian-security \
		FAKE_SRC_6_12_120_1="$T/tree/mm/a.c" FAKE_SRC_6_12_121_1="$T/a-moved.c" \
		TREE=6.12 WORK_ROOT="$T/ow" PATCHES="$T/p" "$S/check-apply-others.sh" 6.12.120-1 6.12.121-1
	expect_rc 1 && expect_out 'linux-source-6.12 6.12.120-1 \(only the files the series touches\)' &&
		expect_out '^patch +6\.12\.120-1 +6\.12\.121-1' && expect_out '^0001-a.patch +clean +FAILS' || return 1
	[ -f "$T/ow/6.12/other-trees/6.12.120-1/linux-source-6.12/mm/a.c" ] &&
		[ ! -e "$T/ow/6.12/other-trees/6.12.120-1/linux-source-6.12/mm/b.c" ] || fail "not only the touched files were extracted"
}

t_dropped_config_option_is_an_error() {
	[ -f "$REAL_TREE/scripts/kconfig/merge_config.sh" ] || { echo "SKIP: no kernel tree at $REAL_TREE (make tree)"; return 0; }
	echo 'CONFIG_DRM_VIRTIO_GPU=y' >"$T/drop.config"
	run env KERNEL_SRC="$REAL_TREE" BUILD="$T/build" WORK="$T/w" EXTRA_CONFIG="$T/drop.config" \
		"$S/make-config.sh"
	expect_rc 1 && expect_out 'Kconfig of TREE=[^ ]+ .* dropped 1 requested option\(s\): CONFIG_DRM_VIRTIO_GPU' &&
		expect_out 'CONFIG_DRM_VIRTIO_GPU \(drop.config:1:.*check its dependencies' || return 1
	[ ! -e "$T/build/.config" ] || fail "a .config was written despite the dropped option"
}

t_config_line_kconfig_would_ignore_is_named() {
	mktree
	printf '%s\n' '# a comment' 'CONFIG_ZSWAP=y' 'ZSWAP_SHRINKER_DEFAULT_ON=y' 'CONFIG_X=yes' \
		'# CONFIG_Y is not set' 'CONFIG_S="a b"' 'CONFIG_N=0x10	# only 6.12' >"$T/syntax.config"
	run env KERNEL_SRC="$T/tree" BUILD="$T/sb" WORK="$T/w" EXTRA_CONFIG="$T/syntax.config" "$S/make-config.sh"
	expect_rc 1 && expect_out 'syntax.config:3: ZSWAP_SHRINKER_DEFAULT_ON=y' &&
		expect_out 'syntax.config:4: CONFIG_X=yes' && expect_out 'has 2 line\(s\) Kconfig would ignore' || return 1
	[ ! -e "$T/sb/.config" ] || fail "a .config was written"
}

# A symbol the tree's Kconfig lacks is named as such; one marked for
# another tree ("# only OTHER") is left out for this one.
t_config_symbol_of_another_tree() {
	[ -f "$REAL_TREE/scripts/kconfig/merge_config.sh" ] || { echo "SKIP: no kernel tree at $REAL_TREE (make tree)"; return 0; }
	printf 'CONFIG_ZSWAPP=y\n' >"$T/typo.config"
	run env KERNEL_SRC="$REAL_TREE" BUILD="$T/build-marks" WORK="$T/w" EXTRA_CONFIG="$T/typo.config" \
		"$S/make-config.sh"
	expect_rc 1 && expect_out 'CONFIG_ZSWAPP \(typo.config:1:.*no such symbol in this tree' || return 1
	printf 'CONFIG_ZSWAPP=y\t# only no-such-tree\n' >"$T/typo.config"
	run env KERNEL_SRC="$REAL_TREE" BUILD="$T/build-marks" WORK="$T/w" EXTRA_CONFIG="$T/typo.config" \
		"$S/make-config.sh"
	expect_rc 0 || return 1
	! grep -q ZSWAPP "$T/build-marks/.config" || fail "the line marked for another tree reached the .config"
}

t_local_edit_blocks_pop_with_a_clear_message() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	apply; expect_rc 0 || return 1
	echo 'int hand_edit;' >>"$T/tree/mm/a.c"
	: >"$T/p/series"; rm "$T/p/0001-a.patch"
	apply; expect_rc 1 && expect_out 'local edits to patched files' || return 1
	# The tree is the user's KERNEL_SRC: make clean-tree would refuse it.
	expect_out "next:.*quilt pop -f' there \(KERNEL_SRC=$T/tree is yours" || return 1
	expect_no_out clean-tree "the advice names a target that refuses this tree"
}

t_clean_tree_removes_only_the_tree() {
	mkdir -p "$T/ct/linux-source-7.3/mm" "$T/ct/build/x" "$T/ct/outgoing-base.git" "$T/ct/logs"
	touch "$T/ct/.zswap-stack-work" "$T/ct/.tree-extracted" "$T/ct/build/x/.config"
	run make -C "$TOP" clean-tree TREE=7.3 WORK="$T/ct"
	expect_rc 0 || return 1
	[ ! -e "$T/ct/linux-source-7.3" ] && [ ! -e "$T/ct/.tree-extracted" ] || fail "the tree is still there" || return 1
	[ -e "$T/ct/build/x/.config" ] && [ -d "$T/ct/outgoing-base.git" ] || fail "clean-tree removed more than the tree"
}

# clean-tree takes the work lock: never a tree under a running make. What
# an interrupted one leaves (the tree without its stamp) is no tree to
# make series either, and make tree's to repair.
t_clean_tree_waits_for_the_lock_and_an_interrupted_one_is_no_tree() {
	local pin=$T/ci/$PIN_TOPDIR
	mkdir -p "$pin/mm" && touch "$T/ci/.zswap-stack-work" "$pin/Makefile"
	bash -c '. "$1/lib.sh"; echo "$PIN_SHA256"' _ "$S" >"$T/ci/.tree-extracted"
	hold "$T/ci/.lock"
	run make -C "$TOP" --no-print-directory clean-tree WORK="$T/ci"
	unhold
	expect_rc 2 && expect_out "another make in $T/ci is running" || return 1
	[ -f "$pin/Makefile" ] && [ -f "$T/ci/.tree-extracted" ] || fail "clean-tree removed the tree under a running make" || return 1
	# Interrupted after the stamp went: make series says make tree.
	rm "$T/ci/.tree-extracted"
	run env WORK="$T/ci" "$S/apply-series.sh"
	expect_rc 1 && expect_out 'is not whole' && expect_out 'next: make tree' || return 1
	run make -C "$TOP" --no-print-directory clean-tree WORK="$T/ci"
	expect_rc 0 && [ ! -e "$pin" ] && [ ! -e "$T/ci/.extract.tmp" ] || fail "the tree or its rename is left: $(ls -A "$T/ci")"
}

# The clean targets remove only what the project made: a directory of
# the user's (no work mark) is refused whole; a TREE they cannot place
# is an error, not a clean of nothing.
t_clean_targets_remove_only_the_projects_work_directories() {
	local tree=${TREE:-7.3} m
	mkdir -p "$T/u/build" "$T/u/logs" "$T/u/results"
	touch "$T/u/build/mine" "$T/u/notes"
	for m in "clean WORK=$T/u" "clean-tree WORK=$T/u" "distclean WORK_ROOT=$T/u"; do
		# shellcheck disable=SC2086
		run make -C "$TOP" --no-print-directory $m
		expect_rc 2 && expect_out "WORK(_ROOT)?=$T/u is not a work directory of this project" &&
			expect_out "next: .*touch $T/u/.zswap-stack-work" || return 1
	done
	# The pipeline refuses a user's directory: it would write build/ and
	# more into it, which no clean target removes.
	run env WORK="$T/u" "$S/pipeline.sh"
	expect_rc 1 && expect_out "WORK=$T/u holds files this project did not make" || return 1
	[ ! -e "$T/u/.zswap-stack-work" ] || fail "the user's directory was marked" || return 1
	run make -C "$TOP" --no-print-directory clean WORK="$T/u"
	expect_rc 2 || return 1
	[ -f "$T/u/build/mine" ] && [ -f "$T/u/notes" ] && [ -d "$T/u/logs" ] && [ -d "$T/u/results" ] ||
		fail "a clean target removed the user's files" || return 1
	for m in "clean TREE=" "clean-tree TREE=" "clean TREE=no-such-tree" "distclean TREE=../patches/7.3"; do
		# shellcheck disable=SC2086
		run make -C "$TOP" --no-print-directory $m WORK_ROOT="$T/u"
		expect_rc 2 && expect_out 'error: TREE' && expect_out 'next: use one of' || return 1
	done
	# What the pipeline made is marked and cleaned; a running make holds it.
	run env WORK_ROOT="$T/r" "$S/pipeline.sh"
	expect_rc 0 && [ -f "$T/r/.zswap-stack-work" ] && [ -f "$T/r/$tree/.zswap-stack-work" ] ||
		fail "the work directories the pipeline made are not marked" || return 1
	mkdir -p "$T/r/$tree/build/x" "$T/r/$tree/logs" "$T/r/$tree/results" "$T/r/tarballs"
	run make -C "$TOP" --no-print-directory clean WORK_ROOT="$T/r"
	expect_rc 0 && [ ! -e "$T/r/$tree/build" ] && [ ! -e "$T/r/$tree/logs" ] && [ ! -e "$T/r/$tree/results" ] &&
		[ -d "$T/r/tarballs" ] || fail "make clean did not remove build/, logs/, results/ alone" || return 1
	hold "$T/r/$tree/.lock"
	run make -C "$TOP" --no-print-directory distclean WORK_ROOT="$T/r"
	unhold
	expect_rc 2 && expect_out "a make is running in $T/r/$tree" && [ -d "$T/r/tarballs" ] || return 1
	run make -C "$TOP" --no-print-directory distclean WORK_ROOT="$T/r"
	expect_rc 0 && [ ! -e "$T/r" ] || fail "make distclean left $T/r"
}

# The guest config is allnoconfig plus every fragment of kernel-config/:
# a symbol set in two fragments is set by whichever merge_config.sh
# reads last, which nobody chose. (merge_config.sh -s would refuse that,
# but also every requested option Kconfig drops, which make config
# reports itself, per option, with its fragment and line.)
# The variants' fragments (debug.config, kcsan.config: KCONFIG=) are
# merged one at a time, each with the others.
t_config_fragments_set_each_symbol_once() {
	local dup v k=$TOP/kernel-config
	for v in "$k"/debug.config "$k"/kcsan.config; do
		dup=$(for f in "$k"/base.config "$k"/qemu-guest.config "$k"/zswap-memcg.config "$v"; do
			sed -nE 's/^(# )?(CONFIG_[A-Za-z0-9_]+)[= ].*/\2/p' "$f" | sort -u | sed "s|\$| ${f##*/}|"
		done | awk '{ n[$1]++; w[$1] = w[$1] " " $2 } END { for (c in n) if (n[c] > 1) print c ":" w[c] }')
		[ -z "$dup" ] || fail "set in more than one fragment: $dup" || return 1
	done
	[ "$(ls "$k"/*.config | wc -l)" = 5 ] || fail "a fragment this case does not know: $(ls "$k")"
}

# Every VAR= the README or a doc in docs/ tells users to set, make help lists.
t_make_help_lists_every_variable_the_docs_name() {
	local v missing=
	run make -C "$TOP" --no-print-directory help
	expect_rc 0 || return 1
	for v in $(grep -ohE '\b[A-Z][A-Z0-9_]{2,}=' "$TOP/README.md" "$TOP"/docs/*.md | grep -v '^CONFIG_' | sort -u); do
		printf '%s\n' "$out" | grep -qF -- "$v" || missing="$missing $v"
	done
	[ -z "$missing" ] || fail "make help lacks:$missing" || return 1
	for v in deps tree series config build initramfs kselftests host-tests lint; do
		expect_out "^  $v +[a-z]" || return 1
	done
}

# make test KCONFIG=debug (or SWAP=zram, VM_MEM=) runs these tests with the
# variable set: the cases that look at a guest's names and settings must
# not see it.
t_make_variables_do_not_reach_the_cases() {
	run env KCONFIG=debug SWAP=zram VM_MEM=2048 VM_CPUS=3 TESTS=x/y APPEND=z \
		bash "$0" '^t_(one_launcher_for_every_mode|swap_zram_reaches_the_guest_or_is_refused)$'
	expect_rc 0 && expect_out '^2 passed, 0 failed, 0 skipped$'
}

# make soak hands the guest its arguments whole, the default's too
# (make's $(or) split it at its commas); make soak's and make vm's guests
# boot under the work lock (no make in that WORK rebuilds under them).
t_soak_and_vm_get_their_arguments_under_the_lock() {
	mkfakeqemu
	local a want
	for a in 'SOAK_ARGS=' 'SOAK_ARGS=-d,60,-m,8'; do
		want=${a#SOAK_ARGS=}
		rm -f "$T/sa"
		run env -u APPEND -u VM_TIMEOUT PATH="$T/bin:$PATH" WORK="$T/sw" BUILD="$T/qb" ACCEL=tcg \
			FAKE_ARGS="$T/sa" FAKE_LOCK="$T/sw/.lock" "$a" "$S/pipeline.sh" soak
		grep -Eq "ksft\.soak=${want:--d,600,-m,24}( |\$)" "$T/sa" ||
			fail "$a: the guest's command line has no ksft.soak=${want:--d,600,-m,24}" || return 1
		grep -q '^lock held$' "$T/sa" || fail "$a: the soak's guest booted without the work lock" || return 1
	done
	rm -f "$T/sa"
	run env PATH="$T/bin:$PATH" WORK="$T/sw" BUILD="$T/qb" ACCEL=tcg FAKE_ARGS="$T/sa" FAKE_LOCK="$T/sw/.lock" \
		"$S/pipeline.sh" vm </dev/null
	grep -q '^lock held$' "$T/sa" || fail "make vm's guest booted without the work lock"
}

t_lint_rejects_incomplete_mails() {
	mktree
	mkdir -p "$T/tree/scripts"
	printf '#!/bin/sh\nexit 0\n' >"$T/tree/scripts/checkpatch.pl"	# style is not tested here
	chmod +x "$T/tree/scripts/checkpatch.pl"
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	# A complete mail: changelog, sign-off, diffstat.
	{ printf 'From: Test <test@example.org>\nSubject: [PATCH] mm: a: change a line\n%s\n\n' "$DEP3_OWN"
	  printf 'Why this is needed.\nWhat it does.\nWhat it measured.\n\n'
	  printf 'Signed-off-by: Test <test@example.org>\n---\n mm/a.c | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n\n'
	  sed -n '/^--- a/,$p' "$T/p/0001-a.patch"; } >"$T/good" && cp "$T/good" "$T/p/0001-a.patch"
	apply; expect_rc 0 || return 1
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$S/lint-series.sh"
	expect_rc 0 && expect_out '^3 passed, 0 failed' || return 1
	sed -i 's/^What it measured./MEASURED-RESULTS-GO-HERE/; /^Signed-off-by/d' "$T/p/0001-a.patch"
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$S/lint-series.sh"
	expect_rc 1 && expect_out 'no Signed-off-by' && expect_out 'placeholder' || return 1
	# known-flaky.txt's fixing patch (third field) must be in the series.
	cp "$T/good" "$T/p/0001-a.patch"
	printf 'cgroup/t:x\twhy\tnope.patch\n' >"$T/p/known-flaky.txt"
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$S/lint-series.sh"
	expect_rc 1 && expect_out 'not ok 4 known-flaky.txt: not in .*series: nope.patch' || return 1
	printf 'cgroup/t:x\twhy\t0001-a.patch\n' >"$T/p/known-flaky.txt"
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$S/lint-series.sh"
	rm "$T/p/known-flaky.txt"
	expect_rc 0 && expect_out '^4 passed, 0 failed' || return 1
	# A CHECK from checkpatch.pl fails lint, though checkpatch exits 0.
	printf '#!/bin/sh\necho "CHECK: Alignment should match open parenthesis"\nexit 0\n' >"$T/tree/scripts/checkpatch.pl"
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$S/lint-series.sh"
	expect_rc 1 && expect_out 'not ok 3 0001-a.patch: checkpatch --strict' && expect_out '# CHECK: Alignment' || return 1
	run bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; checkpatch_strict "$2" "$3"' _ "$S" "$T/tree" "$T/good"
	expect_rc 1 && expect_out 'CHECK: Alignment' || return 1
	# make lint's stage: shellcheck, then the series; the table adds up
	# both closing count lines, from the stage's own output.
	local nsh
	nsh=$("$S/lint-shell.sh" | sed -n 's/^\([0-9]*\) passed, 0 failed, 0 skipped$/\1/p')
	[ -n "$nsh" ] || fail "lint-shell fails on the project" || return 1
	run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$S/pipeline.sh" lint
	expect_rc 1 && expect_out '^lint +[0-9]+ +FAILED' &&
		expect_out "^total: $((nsh + 2)) passed, 1 failed, 0 skipped\$" || return 1
	[ -s "$T/work/stage-out/lint.log" ] || fail "no stage-out/lint.log"
}


# lint: every patch says where it came from and where it stands upstream.
lint() { run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$S/lint-series.sh"; }
# lint_edited SED-EXPR: lint with $T/good edited by SED-EXPR as the patch
lint_edited() { cp "$T/good" "$T/p/0001-a.patch" && sed -i "$1" "$T/p/0001-a.patch" && lint; }
t_lint_checks_each_patchs_origin_and_status() {
	mktree
	mkdir -p "$T/tree/scripts"
	printf '#!/bin/sh\nexit 0\n' >"$T/tree/scripts/checkpatch.pl"
	chmod +x "$T/tree/scripts/checkpatch.pl"
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	sed -i 's/^---$/Why.\nWhat.\nMeasured.\n\nSigned-off-by: Test <test@example.org>\n---/' "$T/p/0001-a.patch"
	cp "$T/p/0001-a.patch" "$T/good"
	apply; expect_rc 0 || return 1
	lint; expect_rc 0 && expect_out '^ok 2 0001-a.patch: origin \(not submitted\)' || return 1
	# A missing field
	lint_edited '/^Last-Update:/d'
	expect_rc 1 && expect_out 'not ok 2 0001-a.patch: origin: no Last-Update: field' || return 1
	# An unknown status, and a tree nobody queues in
	lint_edited 's/^Forwarded: no$/Forwarded: maybe later/'
	expect_rc 1 && expect_out "unknown status Forwarded: 'maybe later'" || return 1
	lint_edited 's/^Forwarded: no$/Forwarded: no\nApplied-Upstream: my-tree/'
	expect_rc 1 && expect_out "unknown status Applied-Upstream: 'my-tree'" || return 1
	# A changelog line is not a field.
	lint_edited '/^Origin:/d; s/^Why.$/Origin: vendor/'
	expect_rc 1 && expect_out 'no Origin: field' || return 1
	# What is queued upstream passes, and says so.
	lint_edited 's|^Origin: vendor$|Origin: other, https://lore.kernel.org/linux-mm/1-a@example.org/|; s/^Forwarded: no$/Forwarded: not-needed\nApplied-Upstream: mm-unstable/'
	expect_rc 0 && expect_out 'origin \(queued in mm-unstable\)'
}

# A port of someone else's posting must not be sent as the project's.
t_lint_rejects_a_port_that_outgoing_would_post_as_ours() {
	mktree
	mkdir -p "$T/tree/scripts"
	printf '#!/bin/sh\nexit 0\n' >"$T/tree/scripts/checkpatch.pl"
	chmod +x "$T/tree/scripts/checkpatch.pl"
	DEP3=$'Origin: other, https://lore.kernel.org/linux-mm/1-a@example.org/\nForwarded: no\nLast-Update: 2026-12-03' \
		mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	sed -i 's/^---$/Why.\nWhat.\nMeasured.\n\nSigned-off-by: Test <test@example.org>\n---/' "$T/p/0001-a.patch"
	apply; expect_rc 0 || return 1
	lint; expect_rc 1 && expect_out "Origin says 'other' but Forwarded: no: make outgoing would post someone else's patch as ours" || return 1
	# A port marked as the project's own, which its changelog gives away
	sed -i 's|^Origin: other, .*|Origin: vendor|; s/^Why.$/This is patch 1 of Jane Doe'"'"'s "[PATCH v2 0\/3] mm: a thing"./' "$T/p/0001-a.patch"
	lint; expect_rc 1 && expect_out 'the changelog says the patch ports another.s posting, but Origin: vendor'
}

check_apply() { run env KERNEL_SRC="$T/tree" PATCHES="$T/p" WORK="$T/work" "$S/check-apply.sh" "$@"; }
# mknewfile NAME FILE: a patch creating FILE (one line).
mknewfile() {
	printf -- '--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+int created;\n' "$2" >"$T/diff"
	mkmail "$1" "$T/diff"
	echo "$1" >>"$T/p/series"
}
# row PATCH RESULT [DETAIL-ERE]: the table has this row.
row() { expect_out "^$1 +$2( +${3:-.*})?\$"; }

t_check_apply_reports_clean_offsets_fuzz_and_failure() {
	mktree
	mkpatch 0001-clean.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-offsets.patch mm/b.c 's/b_line_20;/b_line_20_y;/'
	mkpatch 0003-fuzz.patch mm/a.c 's/a_line_20;/a_line_20_z;/'
	mkpatch 0004-fails.patch mm/a.c 's/a_line_12;/a_line_12_w;/'
	mkpatch 0005-after.patch mm/a.c 's/a_line_35;/a_line_35_v;/'
	sed -i '1i int inserted_1;\nint inserted_2;\nint inserted_3;' "$T/tree/mm/b.c"	# moves 0002 by 3
	sed -i 's/^ int a_line_17;/ int a_line_17_other;/' "$T/p/0003-fuzz.patch"	# outer context: fuzz 1
	sed -i 's/^-int a_line_12;/-int a_line_12_gone;/' "$T/p/0004-fails.patch"	# a removed line the tree lacks
	sed -i '7a A changelog,\nof two lines.' "$T/p/0004-fails.patch"	# its hunk: patch line 14, file line 9
	local before
	before=$(tree_sum "$T/tree")
	check_apply; expect_rc 1 || return 1
	row 0001-clean.patch clean '' &&
		row 0002-offsets.patch offsets 'mm/b.c: #1\(\+3\)' &&
		row 0003-fuzz.patch 'fuzz 1' 'mm/a.c: hunk #1 fuzz 1' &&
		row 0004-fails.patch FAILS 'mm/a.c: hunk #1 FAILED \(expected at line 9 of the file; patch line 14\)' &&
		row 0005-after.patch clean 'after failed 0004-fails.patch' &&
		expect_out '^2 clean, 1 offsets, 1 fuzz, 1 failed$' || return 1
	# The whole table, in series order, before the count.
	[ "$(printf '%s\n' "$out" | grep -oE '^000[1-5]-[a-z]+\.patch' | tr '\n' ' ')" = \
	  "0001-clean.patch 0002-offsets.patch 0003-fuzz.patch 0004-fails.patch 0005-after.patch " ] ||
		fail "the table does not list every patch once, in series order" || return 1
	[ "$(tree_sum "$T/tree")" = "$before" ] || fail "check-apply changed KERNEL_SRC" || return 1
	! find "$T/tree" -name '*.orig' -o -name '*.rej' | grep -q . || fail "backup or reject files left in KERNEL_SRC"
}

t_check_apply_clean_series_exits_0() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-a.patch mm/a.c 's/a_line_5_x;/a_line_5_xx;/'	# needs 0001 applied first
	mknewfile 0003-new.patch mm/new.c
	check_apply; expect_rc 0 || return 1
	row 0002-a.patch clean '' && row 0003-new.patch clean '' &&
		expect_out '^3 clean, 0 offsets, 0 fuzz, 0 failed$' || return 1
	# check-apply-others.sh names each tree and keeps its table.
	check_apply --label 'a tree of mine' --tsv "$T/ca.tsv"
	expect_rc 0 && expect_out '^==> on a tree of mine' || return 1
	[ "$(cut -f1,2 "$T/ca.tsv" | paste -sd' ')" = "0001-a.patch	clean 0002-a.patch	clean 0003-new.patch	clean" ] ||
		fail "--tsv wrote: $(cat "$T/ca.tsv")"
}

t_check_apply_names_missing_and_already_applied_files() {
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkpatch 0002-b.patch mm/b.c 's/b_line_7;/b_line_7_y;/'
	sed -i 's/a_line_5;/a_line_5_x;/' "$T/tree/mm/a.c"	# 0001 is already in the tree
	rm "$T/tree/mm/b.c"
	check_apply; expect_rc 1 || return 1
	row 0001-a.patch FAILS 'mm/a.c: already applied\?' &&
		row 0002-b.patch FAILS 'mm/b.c: missing in the tree' &&
		expect_out '^0 clean, 0 offsets, 0 fuzz, 2 failed$'
}

t_check_apply_reads_a_quilt_tree_unpatched() {
	command -v quilt >/dev/null || { echo "SKIP: quilt is not installed"; return 0; }
	mktree
	mkpatch 0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mknewfile 0002-new.patch mm/new.c
	apply; expect_rc 0 || return 1
	local before
	before=$(tree_sum "$T/tree")
	check_apply; expect_rc 0 || return 1
	expect_out 'quilt patch\(es\) applied' && row 0001-a.patch clean '' && row 0002-new.patch clean '' || return 1
	[ "$(tree_sum "$T/tree")" = "$before" ] || fail "check-apply changed the quilt tree"
}

t_check_apply_missing_series_entry() {
	mktree
	echo 0001-missing.patch >"$T/p/series"
	check_apply; expect_rc 1 && expect_out "names '0001-missing.patch' but .* does not exist"
}

# --- outgoing.sh: its checks of the cover letters (they run before the
# base tree is imported, so a fake pinned tree is enough).
outgoing() {
	mkdir -p "$T/wo/$PIN_TOPDIR/scripts"
	touch "$T/wo/$PIN_TOPDIR/MAINTAINERS"
	printf '#!/bin/sh\nexit 0\n' >"$T/wo/$PIN_TOPDIR/scripts/checkpatch.pl"
	chmod +x "$T/wo/$PIN_TOPDIR/scripts/checkpatch.pl"
	run env WORK="$T/wo" PATCHES="$T/p" PIN_TARBALL="$T/no-tarball" "$@" "$S/outgoing.sh"
}

t_outgoing_names_the_missing_or_incomplete_cover_file() {
	mktree
	mkdir -p "$T/p/grp"
	mkpatch grp/0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	outgoing; expect_rc 1 && expect_out 'missing cover letter' && expect_out "$T/p/grp/cover.txt" || return 1
	printf 'Subject: mm: a: change a line\n\nWhy and what.\n' >"$T/p/grp/cover.txt"
	outgoing; expect_rc 1 && expect_out 'no A/B table' || return 1
	printf '\nA/B:\n  metric base series\n' >>"$T/p/grp/cover.txt"
	outgoing VERSION=2; expect_rc 1 && expect_out "no 'Changes since v1' section" || return 1
	[ ! -e "$T/wo/outgoing-base.git" ] || fail "the base was imported before the covers were checked"
}

# The pinned tree.env without the release base (BASE_*): the host tests
# never download it.
pinenv_nobase() { grep -v '^BASE_' "$TOP/patches/${TREE:-7.3}/tree.env" >"$T/tree.env"; }
# mkbase: $T/base.tar.xz, the fake tree before the series with a
# checkpatch.pl that passes and a get_maintainer.pl naming a maintainer
# and a list; and the pinned tree of $T/wo2 made of it.
mkbase() {
	local src=$T/tb/$PIN_TOPDIR
	rm -rf "$T/tb" "$T/wo2"
	mkdir -p "$src/scripts" && cp -a "$T/orig/." "$src/" 2>/dev/null || true
	rm -rf "$src/mm" && cp -a "$T/tree/mm" "$src/mm"
	touch "$src/MAINTAINERS"
	printf '#!/bin/sh\nexit 0\n' >"$src/scripts/checkpatch.pl"
	printf '#!/bin/sh\necho "A Maintainer <m@example.org>"\necho "linux-mm@kvack.org"\n' >"$src/scripts/get_maintainer.pl"
	chmod +x "$src/scripts/"*.pl
	tar -C "$T/tb" -cJf "$T/base.tar.xz" "$PIN_TOPDIR"
	mkdir -p "$T/wo2" && cp -a "$src" "$T/wo2/"
	pinenv_nobase
}
outgoing2() {
	run env WORK="$T/wo2" PATCHES="$T/p" PIN_ENV="$T/tree.env" PIN_TARBALL="$T/base.tar.xz" \
		PIN_SHA256="$(sha256sum "$T/base.tar.xz" | cut -d' ' -f1)" "$@" "$S/outgoing.sh"
}

# The first import of the base: progress lines while it runs; without a
# SENDER the closing lines never say "send with".
t_outgoing_base_import_shows_progress_and_no_send_advice() {
	mktree
	mkdir -p "$T/p/grp"
	mkpatch grp/0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	printf 'Subject: mm: a: change a line\n\nWhy and what.\n\nA/B:\n  metric base series\n' >"$T/p/grp/cover.txt"
	mkbase
	outgoing2
	expect_rc 0 && expect_out 'base import \[1/4\] extracting' && expect_out 'base import \[2/4\] adding [0-9]+ files' &&
		expect_out 'base import \[4/4\] packing' && expect_out 'imported in [0-9]+ s' || return 1
	expect_out 'MUST NOT be sent' || return 1
	expect_no_out 'send with: git send-email' "it says 'send with' for mails that must not be sent"
}

# A post's cover.txt may carry its own subject prefix (an RFC among
# PATCH posts); a reply may not.
t_outgoing_prefix_of_a_post_is_its_own() {
	mktree
	mkdir -p "$T/p/grp" "$T/p/port"
	mkpatch grp/0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	DEP3=$'Origin: other, https://lore.kernel.org/linux-mm/1-jane@example.org/\nForwarded: not-needed\nLast-Update: 2026-12-03' \
		mkpatch port/0001-b.patch mm/b.c 's/b_line_5;/b_line_5_ported;/'
	mkpatch port/0002-a.patch mm/a.c 's/a_line_9;/a_line_9_test;/'
	printf 'Subject: Re: [PATCH] mm: b: x\nPrefix: RFC PATCH\n\nWhy.\n\nA/B:\n  m\n' >"$T/p/port/cover.txt"
	printf 'Subject: mm: a: change a line\n\nWhy.\n\nA/B:\n  m\n' >"$T/p/grp/cover.txt"
	outgoing; expect_rc 1 && expect_out 'Prefix: is for a post' || return 1
	rm -rf "$T/p/port" && sed -i "/^port\//d" "$T/p/series"
	printf 'Subject: mm: a: change a line\nPrefix: RFC PATCH\n\nWhy and what.\n\nA/B:\n  metric base series\n' >"$T/p/grp/cover.txt"
	mkbase
	outgoing2
	expect_rc 0 || return 1
	grep -q '^Subject: \[RFC PATCH 0/1\] mm: a: change a line$' "$T/wo2/outgoing/grp/0000-cover-letter.patch" &&
		grep -q '^Subject: \[RFC PATCH 1/1\]' "$T/wo2/outgoing/grp/0001-"*.patch ||
		fail "the prefix is not the cover's: $(grep -h '^Subject' "$T/wo2/outgoing/grp/"*)"
}

# What goes out follows each patch's origin: our group is posted; a port
# of a posting in review is not re-posted, a reply and our test go to its
# thread; of a queued series only our patch goes, as a follow-up.
# SENDER authors and signs off our patches only.
t_outgoing_sends_by_origin_and_sender_authors_only_ours() {
	mktree
	mkdir -p "$T/p/own" "$T/p/port" "$T/p/queued"
	local port=$'Origin: other, https://lore.kernel.org/linux-mm/1-jane@example.org/\nForwarded: not-needed\nLast-Update: 2026-12-03'
	mkpatch own/0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	DEP3=$port mkpatch port/0001-b.patch mm/b.c 's/b_line_5;/b_line_5_ported;/'
	mkpatch port/0002-a.patch mm/a.c 's/a_line_9;/a_line_9_test;/'
	DEP3=$'Origin: other, https://lore.kernel.org/linux-mm/2-joe@example.org/\nForwarded: not-needed\nApplied-Upstream: mm-unstable\nLast-Update: 2026-12-03' \
		mkpatch queued/0001-b.patch mm/b.c 's/b_line_9;/b_line_9_queued;/'
	mkpatch queued/0002-a.patch mm/a.c 's/a_line_12;/a_line_12_test;/'
	printf 'Subject: mm: a: change a line\n\nWhy and what.\n\nA/B:\n  metric base series\n' >"$T/p/own/cover.txt"
	printf 'Subject: Re: [PATCH] mm: b: a thing\nTo: Jane Doe <jane@example.org>\n\nOur results.\n\nA/B:\n  metric\n' >"$T/p/port/cover.txt"
	printf 'Subject: Re: [PATCH v6 0/1] mm: b: another\nTo: Joe Bloggs <joe@example.org>\n\nOurs.\n\nA/B:\n  metric\n' >"$T/p/queued/cover.txt"
	# Our patches are the project's (a list: not a person), as in patches/.
	local f ident='Zswap Stack Developers <zswap-stack@lists.example.org>'
	sed -i "s/^From: Test <test@example.org>\$/From: $ident/; s/^---\$/Signed-off-by: $ident\n---/" "$T"/p/*/*.patch
	mkbase
	outgoing2 SENDER='Sam Sender <sam@example.org>'
	expect_rc 0 || return 1
	expect_out 'own: a new series of 1 patch' && expect_out 'port: a reply to https://lore.kernel.org/linux-mm/1-jane@example.org/' &&
		expect_out 'queued: follow-ups in the thread of https://lore.kernel.org/linux-mm/2-joe@example.org/' || return 1
	local o=$T/wo2/outgoing
	[ "$(ls "$o/own")" = "$(printf '0000-cover-letter.patch\n0001-own-0001-a.patch.patch')" ] || fail "own: $(ls "$o/own")" || return 1
	[ "$(ls "$o/port")" = "$(printf '0000-reply.eml\n0001-port-0002-a.patch.patch')" ] || fail "port: $(ls "$o/port")" || return 1
	[ "$(ls "$o/queued")" = "$(printf '0000-reply.eml\n0001-queued-0002-a.patch.patch')" ] || fail "queued: $(ls "$o/queued")" || return 1
	# Nobody else's patch goes out, and nothing carries a DEP-3 field.
	! grep -rlE 'b_line_5_ported|b_line_9_queued|^(Origin|Forwarded|Last-Update): ' "$o" >"$T/leak" ||
		fail "sent what is not ours: $(cat "$T/leak")" || return 1
	for f in "$o"/*/0*.patch "$o"/*/*.eml; do
		grep -q '^From: Sam Sender <sam@example.org>$' "$f" || fail "$f: not from the sender" || return 1
	done
	for f in "$o"/*/000[1-9]*.patch; do
		grep -q '^Signed-off-by: Sam Sender <sam@example.org>$' "$f" && ! grep -q "^Signed-off-by: $ident" "$f" ||
			fail "$f: not signed off by the sender alone" || return 1
	done
	grep -q '^In-Reply-To: <1-jane@example.org>$' "$o/port/0000-reply.eml" &&
		grep -q '^In-Reply-To: <1-jane@example.org>$' "$o/port/0001-port-0002-a.patch.patch" &&
		grep -q '^To: Jane Doe <jane@example.org>' "$o/port/0001-port-0002-a.patch.patch" &&
		grep -q '^Subject: Re: \[PATCH\] mm: b: a thing$' "$o/port/0000-reply.eml" &&
		grep -q '^In-Reply-To: <2-joe@example.org>$' "$o/queued/0001-queued-0002-a.patch.patch" ||
		fail "the reply or our patch is not in the posting's thread, or not to its author" || return 1
	expect_out 'self-test: git am of 3 mail\(s\), the ported patches between them' || return 1
	[ ! -e "$o/NOT-FOR-SENDING" ] || fail "NOT-FOR-SENDING: $(cat "$o/NOT-FOR-SENDING")"
}

# A port's posting without a Message-ID or its author's address: the
# mails are written, and held back with the reason.
t_outgoing_holds_back_a_reply_it_cannot_thread() {
	mktree
	mkdir -p "$T/p/port"
	DEP3=$'Origin: other, "[PATCH v1] mm: b: a thing"\nForwarded: not-needed\nLast-Update: 2026-12-03' \
		mkpatch port/0001-b.patch mm/b.c 's/b_line_5;/b_line_5_ported;/'
	mkpatch port/0002-a.patch mm/a.c 's/a_line_9;/a_line_9_test;/'
	printf 'Subject: Re: [PATCH v1] mm: b: a thing\n\nOur results.\n\nA/B:\n  metric\n' >"$T/p/port/cover.txt"
	mkbase
	outgoing2 SENDER='Sam Sender <sam@example.org>'
	expect_rc 0 && expect_out "not ready to send: port: the posting's Message-ID is not known" &&
		expect_out "not ready to send: port: no address for the posting's author" || return 1
	grep -q "Message-ID is not known" "$T/wo2/outgoing/NOT-FOR-SENDING" || fail "no NOT-FOR-SENDING with the reason" || return 1
	expect_no_out 'send with:' "it says 'send with' while a group is held" || return 1
	# A Hold: line in a cover holds its group, with the reason.
	sed -i '1a Hold: not run on the posting itself yet' "$T/p/port/cover.txt"
	outgoing2 SENDER='Sam Sender <sam@example.org>'
	expect_rc 0 && expect_out 'not ready to send: port: not run on the posting itself yet' || return 1
	# The list's address is not a person's.
	outgoing2 SENDER='Sam Sender <zswap-stack@lists.example.org>'
	expect_rc 1 && expect_out "has the project's address, which is a list"
}

# A tree with nothing for upstream (the 6.12 backport) sends nothing.
t_outgoing_of_a_tree_with_nothing_ours_to_send_says_so() {
	mktree
	mkdir -p "$T/p/grp"
	DEP3=$'Origin: vendor\nForwarded: not-needed\nLast-Update: 2026-12-03' mkpatch grp/0001-a.patch mm/a.c 's/a_line_5;/a_line_5_x;/'
	mkbase
	outgoing2
	expect_rc 1 && expect_out 'nothing in the .* series is for upstream' && expect_out 'grp: nothing'
}

# --- build.sh against a fake kernel tree whose Makefile writes $(O) ----
mkfakekernel() {
	rm -rf "$T/ktree" "$T/kbuild"
	mkdir -p "$T/ktree/mm" "$T/kbuild"
	printf '%s\n' 'bzImage:' \
		'	@mkdir -p $(O)/arch/x86/boot' \
		'	@sleep $${FAKE_SLEEP:-0}' \
		'	@dd if=/dev/zero of=$(O)/arch/x86/boot/bzImage bs=1M count=$${FAKE_MB:-1} 2>&1' \
		"	@echo '  LD      arch/x86/boot/bzImage'" \
		'headers:' '	@:' >"$T/ktree/Makefile"
	# What the guest programs use of the tree's kselftest.h.
	mkdir -p "$T/ktree/tools/testing/selftests"
	printf '%s\n' '#include <stdio.h>' '#include <stdlib.h>' '#define KSFT_FAIL 1' \
		'#define ksft_print_header()' '#define ksft_set_plan(n)' \
		'#define ksft_print_msg(...) printf(__VA_ARGS__)' \
		'#define ksft_test_result(c, ...) printf(__VA_ARGS__)' \
		'#define ksft_test_result_skip(...) printf(__VA_ARGS__)' \
		'#define ksft_exit_skip(...) exit(4)' '#define ksft_exit_fail_msg(...) exit(1)' \
		'#define ksft_finished() exit(0)' >"$T/ktree/tools/testing/selftests/kselftest.h"
	echo 'CONFIG_X=y' >"$T/kbuild/.config"
}
fakebuild() { run env KERNEL_SRC="$T/ktree" BUILD="$T/kbuild" WORK="$T/kw" "$@" "$S/build.sh"; }

t_full_disk_for_the_build_dir_is_named() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to mount a small tmpfs"; return 0; }
	mkfakekernel
	mount -t tmpfs -o size=4M tmpfs "$T/kbuild" 2>/dev/null || { echo "SKIP: cannot mount tmpfs here"; return 0; }
	echo 'CONFIG_X=y' >"$T/kbuild/.config"
	fakebuild; expect_rc 1 && expect_out 'MiB free for the build directory' &&
		expect_out 'next: free space there' || { umount "$T/kbuild"; return 1; }
	# Past the check, the disk fills up during the build.
	FAKE_MB=8 fakebuild BUILD_MIN_MB=0 FAKE_MB=8
	umount "$T/kbuild"
	expect_rc 1 && expect_out 'filled up during the build' && expect_out 'it resumes'
}

t_interrupted_build_resumes_on_rerun() {
	mkfakekernel
	set -m
	sigint_default env KERNEL_SRC="$T/ktree" BUILD="$T/kbuild" WORK="$T/kw" FAKE_SLEEP=5 \
		"$S/build.sh" >"$T/b.out" 2>&1 &
	local pid=$!
	set +m
	sleep 1
	kill -INT -- -"$pid" 2>/dev/null || true
	wait "$pid" && { out=$(cat "$T/b.out"); fail "the build was not interrupted"; return 1; }
	[ ! -e "$T/kbuild/arch/x86/boot/bzImage" ] || fail "an interrupted build left its target" || return 1
	fakebuild; expect_rc 0 && expect_out 'bytes bzImage'
}

# A run as the guest writes it: the console log $T/serial-x.log (the
# kernel's lines, $1 spliced in) and the TAP log $T/tap-x.log (runner.sh's
# format; $2, when given, is a sed expression applied to it).
mklog() {
	local done_mark='<<< ksft-guest-done >>>'
	cat >"$T/serial-x.log" <<-LOG
	[    1.000000] Run /init as init process
	ksft: [1/1] cgroup/test_a rc=1 3s
	$1
	$done_mark
	LOG
	cat <<-EOT | sed "${2:-}" >"$T/tap-x.log"
	TAP version 13
	1..1
	# selftests: cgroup: test_a
	# TAP version 13
	# 1..3
	# ok 1 test_one
	# not ok 2 test_two
	# ok 3 # SKIP test_three
	not ok 1 selftests: cgroup: test_a # exit=1
	EOT
}
# The same run with test_two passing.
passing='s/^# not ok 2/# ok 2/; s/^not ok 1 \(.*\) # exit=1$/ok 1 \1/'
# results [results.sh OPTIONS]: judge $T's logs, with no known failures
# or flaky tests unless the options name some.
results() { run env WORK="$T/w" "$S/results.sh" --known /dev/null --flaky /dev/null "$@" "$T/serial-x.log" "$T/tap-x.log"; }

t_results_counts_pass_fail_skip() {
	mklog ''
	results; expect_rc 1 && expect_out '^1 passed, 1 failed, 1 skipped$'
}

# A binary that prints its plan and stops early (crash, exit) fails.
t_results_checks_each_binarys_plan() {
	mklog ''
	printf '%s\n' 'TAP version 13' '1..1' '# selftests: cgroup: test_a' '# TAP version 13' '# 1..5' \
		'# ok 1 test_one' '# ok 2 test_two' 'ok 1 selftests: cgroup: test_a' >"$T/tap-x.log"
	results; expect_rc 1 && expect_out 'planned 5 tests, reported 2' && expect_out '^2 passed, 1 failed, 0 skipped$'
}

# A kernel message on the console can no longer split a result line: the
# console and the TAP are separate files.
t_results_come_from_the_tap_log_not_the_console() {
	mklog '[   35.196734] [    119] ok 7 test_from_a_kernel_line' "$passing"
	results; expect_rc 0 && expect_out '^2 passed, 0 failed, 1 skipped$' || return 1
	expect_no_out 'test_from_a_kernel_line' "a console line became a result" || return 1
	# A run that stopped inside a binary (a crash, the timeout).
	mklog '' "$passing"
	printf '%s\n' 'TAP version 13' '1..2' '# selftests: cgroup: test_a' '# 1..1' '# ok 1 test_one' \
		'ok 1 selftests: cgroup: test_a' '# selftests: cgroup: test_b' '# 1..3' '# ok 1 b_one' >"$T/tap-x.log"
	results; expect_rc 1 && expect_out 'FAIL +cgroup/test_b:\(end\)' && expect_out '1 of 2 test binaries reported' &&
		expect_out 'did not finish'
}

# The guest init's test loop (tests/guest/init, run here under busybox sh
# with its /tests and /scratch in $T/g) on test programs of known exit
# codes, its TAP fed to results.sh: each binary's verdict.
t_guest_test_loop_exit_codes_reach_the_results() {
	command -v busybox >/dev/null || { echo "SKIP: no busybox (make deps)"; return 0; }
	local g=$T/g
	mkdir -p "$g/tests/bin" "$g/tests/k" "$g/scratch" "$T/w"
	printf '#!/bin/sh\nexec "$@"\n' >"$g/tests/bin/ptyrun"
	printf '#!/bin/sh\necho 1..1; echo "ok 1 one"\n' >"$g/tests/k/pass"
	printf '#!/bin/sh\necho "1..0 # SKIP no such feature"; exit 4\n' >"$g/tests/k/skip"
	printf '#!/bin/sh\necho 1..1; echo "ok 1 one"; exit 1\n' >"$g/tests/k/exit1"
	printf '#!/bin/sh\necho 1..2; echo "ok 1 one"; echo "not ok 2 two"; exit 1\n' >"$g/tests/k/fail"
	printf '#!/bin/sh\necho 1..1; exec sleep 30\n' >"$g/tests/k/hang"
	chmod +x "$g/tests/bin/ptyrun" "$g/tests/k/"*
	sed -n '/^set -- \$tests$/,/^done$/p' "$TOP/tests/guest/init" |
		sed 's#\([ ="(]\)/\(tests\|scratch\)/#\1$R/\2/#g' >"$T/loop.sh"
	grep -q 'ptyrun' "$T/loop.sh" || { out=$(cat "$T/loop.sh"); fail "no test loop found in tests/guest/init"; return 1; }
	(cd "$T" && busybox sh -c 'R=$1 tests="k/pass k/skip k/exit1 k/fail k/hang k/missing" tmo=2; . "$2"' _ "$g" "$T/loop.sh" \
		3>"$T/tap-x.log" >"$T/serial-x.log" 2>&1)
	results; expect_rc 1 || return 1
	out=$(cut -f1-3 "$T/w/results/x.tsv")
	[ "$out" = "$(printf '%s\t%s\t%s\n' k/pass one pass k/skip '(all)' skip k/exit1 one pass k/exit1 '(exit)' fail \
		k/fail one pass k/fail two fail k/hang '(all)' fail k/hang '(timeout)' fail k/missing '(all)' skip)" ] ||
		{ out="$out
$(cat "$T/tap-x.log")"; fail "the verdicts (bin, test, result; then the TAP) are not the exit codes'"; }
}

# The guest loop gives a kselftest binary kselftest's own timeout (its
# directory's settings file, else 45 s) times ksft.timeout_scale; an
# explicit ksft.timeout wins.
t_guest_test_loop_takes_kselftests_timeouts() {
	command -v busybox >/dev/null || { echo "SKIP: no busybox (make deps)"; return 0; }
	local g=$T/g
	mkdir -p "$g/tests/bin" "$g/tests/k" "$g/scratch"
	printf '#!/bin/sh\nexec "$@"\n' >"$g/tests/bin/ptyrun"
	printf '#!/bin/sh\necho 1..1; sleep 5; echo "ok 1 one"\n' >"$g/tests/k/slow"
	printf 'timeout=1\n' >"$g/tests/k/settings"
	chmod +x "$g/tests/bin/ptyrun" "$g/tests/k/slow"
	sed -n '/^set -- \$tests$/,/^done$/p' "$TOP/tests/guest/init" |
		sed 's#\([ ="(]\)/\(tests\|scratch\)/#\1$R/\2/#g' >"$T/loop.sh"
	out=$(cd "$T" && busybox sh -c 'R=$1 tests=k/slow tmo= tmo_scale=2; . "$2"' _ "$g" "$T/loop.sh" 3>&1 2>&1)
	expect_out 'not ok 1 selftests: k: slow # TIMEOUT 2 seconds' &&
		expect_out 'took [0-9]*s, over kselftest.s 1s' || return 1
	out=$(cd "$T" && busybox sh -c 'R=$1 tests=k/slow tmo=30 tmo_scale=2; . "$2"' _ "$g" "$T/loop.sh" 3>&1 2>&1)
	expect_out '^ok 1 selftests: k: slow$'
}

t_known_failure_is_reported_not_passed() {
	mklog ''
	printf '# comment\ncgroup/test_a:test_two\tbecause\n' >"$T/kf.txt"
	results --known "$T/kf.txt"
	expect_rc 0 && expect_out 'known failures: 1' && expect_out '^1 passed, 0 failed, 1 skipped$'
}

t_known_flaky_failure_is_reported_and_its_pass_is_a_pass() {
	mklog ''
	printf 'cgroup/test_a:test_two\tsometimes OOMs\n' >"$T/fl.txt"
	results --flaky "$T/fl.txt"
	expect_rc 0 && expect_out 'known flaky: sometimes OOMs' && expect_out '^1 passed, 0 failed, 1 skipped$' || return 1
	mklog '' "$passing"
	results --flaky "$T/fl.txt"
	expect_rc 0 && expect_out '^2 passed, 0 failed, 1 skipped$' && expect_no_out 'known failures that passed'
}

# A known-flaky entry that names the patch fixing the test stops applying
# once that patch is applied in the tree the run built.
t_known_flaky_entry_ends_with_the_patch_that_fixes_it() {
	mklog ''
	printf 'cgroup/test_a:test_two\tshared offset\tfixes/0001-a.patch\n' >"$T/fl.txt"
	results --flaky "$T/fl.txt"
	expect_rc 0 && expect_out 'known flaky: shared offset' || return 1
	mkdir -p "$T/w/$PIN_TOPDIR/.pc"
	printf 'fixes/0001-a.patch\nother/0001-b.patch\n' >"$T/w/$PIN_TOPDIR/.pc/applied-patches"
	results --flaky "$T/fl.txt"
	rm -rf "${T:?}/w/$PIN_TOPDIR"	# other cases want no tree there
	expect_rc 1 && expect_no_out 'known flaky' && expect_out '^1 passed, 1 failed, 1 skipped$'
}

t_kernel_warning_fails_the_run() {
	mklog '[   12.345678] WARNING: CPU: 1 PID: 42 at mm/zswap.c:100 zswap_store+0x1/0x2' "$passing"
	results; expect_rc 1 && expect_out 'kernel reports' && expect_out 'mm/zswap.c:100' &&
		expect_out '^2 passed, 1 failed, 1 skipped$'
}

# A KCSAN kernel's data-race reports go to the --kcsan list as function
# pairs (offsets and compiler suffixes dropped) and do not fail the run;
# its assert reports, and any other report, still do.
t_kcsan_data_races_are_listed_and_other_reports_fail() {
	local kc="$T/w/results/x.kcsan"
	mklog '[    9.100000] BUG: KCSAN: data-race in zswap_store.constprop.0 / zswap_writeback_entry+0x1f/0x300
[    9.200000] BUG: KCSAN: data-race in a_fn+0x10/0x20 / b_fn
kcsan: setup_watchpoints: 1234' "$passing"
	run env WORK="$T/w" "$S/results.sh" --known /dev/null --flaky /dev/null --kcsan "$kc" "$T/serial-x.log" "$T/tap-x.log"
	expect_rc 0 && expect_out 'KCSAN: 2 data-race report\(s\), 2 function pair\(s\)' && expect_no_out 'kernel reports' || return 1
	[ "$(cat "$kc")" = "zswap_store / zswap_writeback_entry
a_fn / b_fn" ] || fail "the list: $(cat "$kc")" || return 1
	# A KCSAN that watched nothing (off, or its counters not printed) fails.
	mklog 'kcsan: enabled: 0
kcsan: setup_watchpoints: 0' "$passing"
	run env WORK="$T/w" "$S/results.sh" --known /dev/null --flaky /dev/null --kcsan "$kc" "$T/serial-x.log" "$T/tap-x.log"
	expect_rc 1 && expect_out 'KCSAN watched nothing' || return 1
	mklog '[    9.100000] zswap: loaded' "$passing"
	run env WORK="$T/w" "$S/results.sh" --known /dev/null --flaky /dev/null --kcsan "$kc" "$T/serial-x.log" "$T/tap-x.log"
	expect_rc 1 && expect_out 'setup_watchpoints: not printed' || return 1
	mklog '[    9.100000] BUG: KCSAN: assert: race in zswap_store / zswap_load' "$passing"
	run env WORK="$T/w" "$S/results.sh" --known /dev/null --flaky /dev/null --kcsan "$kc" "$T/serial-x.log" "$T/tap-x.log"
	expect_rc 1 && expect_out 'kernel reports' && [ ! -s "$kc" ] || fail "an assert report passed" || return 1
	# Without --kcsan (another kernel's run) a data race fails as before.
	mklog '[    9.100000] BUG: KCSAN: data-race in a_fn / b_fn' "$passing"
	results; expect_rc 1 && expect_out 'kernel reports'
}

# kcsan-judge: a race in a function the series adds or changes fails, and
# one no base run shows; the base's own are listed, not failed. An empty
# base list is a base run without races (awk's FNR == NR took the
# series' list for the base's then), and a pair shown by a later base
# run is the base's.
t_kcsan_judge_fails_the_series_races_and_lists_the_bases() {
	mktree
	mkpatch 0001-x.patch mm/a.c 's/^int a_line_12;/int a_line_12 = 1;/'
	sed -i 's/^\(@@ [^@]* @@\).*/\1 static int zswap_mine(void)/' "$T/p/0001-x.patch"
	run env PATCHES="$T/p" bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; series_functions "$2"' _ "$S" "$T/p/0001-x.patch"
	expect_rc 0 && expect_out '^zswap_mine$' || return 1
	# A change after a definition in the hunk's context is that
	# function's, not the one the hunk header names.
	mkpatch 0002-x.patch mm/b.c 's/^int b_line_10;/}/; s/^int b_line_11;/static int zswap_other(void)/'
	mkpatch 0003-x.patch mm/b.c 's/^int b_line_13;/int b_line_13 = 1;/'
	sed -i 's/^\(@@ [^@]* @@\).*/\1 static int zswap_before(void)/' "$T/p/0003-x.patch"
	run env PATCHES="$T/p" bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; series_functions "$2"' _ "$S" "$T/p/0003-x.patch"
	expect_rc 0 && expect_out '^zswap_other$' && ! printf '%s\n' "$out" | grep -q zswap_before ||
		fail "the hunk header's function taken for the changed one" || return 1
	printf '%s\n' 'a_fn / b_fn' 'a_fn / b_fn' 'c_fn / d_fn' >"$T/base.kcsan"
	printf '%s\n' 'a_fn / b_fn' >"$T/ser.kcsan"
	run env PATCHES="$T/p" "$S/kcsan-judge.sh" "$T/ser.kcsan" "$T/base.kcsan"
	expect_rc 0 && expect_out '^a_fn / b_fn +1 +2  the base.s$' &&
		expect_out '^c_fn / d_fn +0 +1  the base.s \(not seen with the series\)$' &&
		expect_out '^2 pair\(s\), 0 failing; the base run 1 time\(s\)$' || return 1
	printf '%s\n' 'a_fn / b_fn' 'e_fn / zswap_mine' 'f_fn / g_fn' >"$T/ser.kcsan"
	run env PATCHES="$T/p" "$S/kcsan-judge.sh" "$T/ser.kcsan" "$T/base.kcsan"
	expect_rc 1 && expect_out '^e_fn / zswap_mine +1 +0  FAIL: in a function of the series$' &&
		expect_out '^f_fn / g_fn +1 +0  FAIL: not in the base run$' && expect_out '^4 pair\(s\), 2 failing' || return 1
	: >"$T/empty.kcsan"
	printf '%s\n' 'f_fn / g_fn' >"$T/ser.kcsan"
	run env PATCHES="$T/p" "$S/kcsan-judge.sh" "$T/ser.kcsan" "$T/empty.kcsan"
	expect_rc 1 && expect_out '^f_fn / g_fn +1 +0  FAIL: not in the base run$' || return 1
	printf '%s\n' 'f_fn / g_fn' 'a_fn / b_fn' >"$T/base2.kcsan"
	run env PATCHES="$T/p" "$S/kcsan-judge.sh" "$T/ser.kcsan" "$T/empty.kcsan" "$T/base.kcsan" "$T/base2.kcsan"
	expect_rc 0 && expect_out '^f_fn / g_fn +1 +1  the base.s$' &&
		expect_out '^a_fn / b_fn +0 +3  the base.s \(not seen with the series\)$' &&
		expect_out '^3 pair\(s\), 0 failing; the base run 3 time\(s\)$'
}

# A recorded console (tests/host/fixtures/): the debug kernel's early
# KASAN report, printed with its stack down to the interrupted task.
t_recorded_early_kasan_report_fails_the_run() {
	run env WORK="$T/w" "$S/results.sh" --kernel-only "$TOP/tests/host/fixtures/serial-debug-kasan-early.log"
	expect_rc 1 && expect_out 'kernel reports in ' &&
		expect_out 'BUG: KASAN: wild-memory-access in do_raw_spin_lock' &&
		expect_out 'handle_edge_irq' && expect_out 'identify_cpu'
}

# A recorded run (tests/host/fixtures/: make test KCONFIG=debug on 7.3,
# both logs) passes as it was judged then; the same run cut short, or
# with a binary's output or one result line repeated, fails, and says so.
t_recorded_run_passes_and_its_cut_or_doubled_copies_fail() {
	local fx=$TOP/tests/host/fixtures
	judge_logs() { run env WORK="$T/w" "$S/results.sh" --known /dev/null --flaky /dev/null --cpus 2 "$1" "$2"; }
	judge_logs "$fx/serial-7.3-debug-run.log" "$fx/tap-7.3-debug-run.log"
	expect_rc 0 && expect_out '^81 passed, 0 failed, 1 skipped$' || return 1
	# Cut inside test_zswap: the console has no end mark, the binary no result line.
	grep -v 'ksft-guest-done' "$fx/serial-7.3-debug-run.log" | head -600 >"$T/serial-cut.log"
	head -60 "$fx/tap-7.3-debug-run.log" >"$T/tap-cut.log"
	judge_logs "$T/serial-cut.log" "$T/tap-cut.log"
	expect_rc 1 && expect_out 'the guest did not finish its run' &&
		expect_out 'cgroup/test_zswap:\(end\)' && expect_out '0 of 8 test binaries reported' || return 1
	# test_memcontrol's whole output twice.
	{ sed -n '1,/^ok 2 selftests: cgroup: test_memcontrol$/p' "$fx/tap-7.3-debug-run.log"
	  sed -n '/^# selftests: cgroup: test_memcontrol$/,/^ok 2 selftests: cgroup: test_memcontrol$/p' "$fx/tap-7.3-debug-run.log"
	  sed -n '/^# selftests: guest: soak$/,$p' "$fx/tap-7.3-debug-run.log"; } >"$T/tap-twice.log"
	judge_logs "$fx/serial-7.3-debug-run.log" "$T/tap-twice.log"
	expect_rc 1 && expect_out 'test_memcontrol:\(twice\) +\(the binary was reported more than once' &&
		expect_out '9 results for a plan of 8 test binaries' && expect_out '^81 passed, 18 failed, 1 skipped$' || return 1
	# One result line twice.
	sed '/^# ok 1 test_memcg_subtree_control$/p' "$fx/tap-7.3-debug-run.log" >"$T/tap-line.log"
	judge_logs "$fx/serial-7.3-debug-run.log" "$T/tap-line.log"
	expect_rc 1 && expect_out 'test_memcg_subtree_control +\(reported again: the output is duplicated\)'
}

t_unfinished_guest_fails_the_run() {
	mklog '' "$passing; /^ok 1 selftests/d"
	results; expect_rc 1 && expect_out 'did not finish'
}

t_guest_missing_vcpus_fails_the_run() {
	mklog 'guest: 6.12.117, 1 cpu(s), 1000000 kB, zswap enabled=Y compressor=zstd' "$passing"
	results --cpus 2; expect_rc 1 && expect_out 'saw 1 of the 2 vCPUs' || return 1
	results --cpus 1; expect_rc 0
}

# A fake qemu-system-x86_64: with KVM it hangs (as KVM does on the
# project's machines); with TCG it writes a passing guest log, or hangs
# when FAKE_HANG=1.
# mkbzimage FILE: a file with the x86 boot header's signature, as
# KERNEL_IMAGE= must be.
mkbzimage() { { head -c 514 /dev/zero; printf HdrS; } >"$1"; }
mkfakeqemu() {
	mkdir -p "$T/bin" "$T/qb/arch/x86/boot"
	touch "$T/qb/arch/x86/boot/bzImage" "$T/qb/initramfs.cpio.gz"
	cat >"$T/bin/qemu-system-x86_64" <<-'FAKE'
	#!/bin/bash
	[ -z "${FAKE_ARGS:-}" ] || printf '%s\n' "$@" >>"$FAKE_ARGS"
	if [ -n "${FAKE_LOCK:-}" ]; then flock -n "$FAKE_LOCK" true && echo "lock free" || echo "lock held"; fi >>"$FAKE_ARGS"
	tap=/dev/null
	for a in "$@"; do case $a in kvm) exec sleep 600 ;; file:*tap-*) tap=${a#file:} ;; file:*) log=${a#file:} ;; esac; done
	if [ "${FAKE_NOIRQ:-0}" = 1 ]; then
		printf '%s\n' '[   40.66] ACPI Error: Aborting method \_SB.PCI0._PRT due to previous error (AE_AML_LOOP_TIMEOUT)' \
			'[   40.75] virtio-pci 0000:00:02.0: PCI INT A: no GSI' >"$log"
		exec sleep 600
	fi
	[ "${FAKE_HANG:-0}" = 1 ] && exec sleep 600
	: >"$log"
	case "$*" in *ksft.zram=*) [ "${FAKE_NOZRAM:-0}" = 1 ] || echo 'swap: /dev/zram0 on (zstd)' >"$log" ;; esac
	# The fuzz test: its summary, and a WARNING for seed FAKE_BAD_SEED.
	seed=$(printf '%s\n' "$@" | sed -n 's/.*ksft.fuzz_seed=\([0-9]*\).*/\1/p')
	if [ -n "$seed" ]; then
		[ "$seed" != "${FAKE_BAD_SEED:-}" ] || echo '[    5.000000] WARNING: CPU: 0 PID: 9 at mm/zswap.c:1 zswap_store+0x1/0x2' >>"$log"
		printf '%s\n' 'ksft: [1/1] guest/fuzz rc=0 60s (timeout 135s)' '<<< ksft-guest-done >>>' >>"$log"
		printf '%s\n' 'TAP version 13' '1..1' '# selftests: guest: fuzz' '# 1..1' \
			"# # fuzz: trinity exit status 0; syscalls executed: $((seed * 1000)); seed $seed; 1 minute(s)" \
			'# # fuzz: churner steps: reclaim 10, swapoff-swapon 1, writeback 10, ' '# ok 1 trinity ran' \
			'ok 1 selftests: guest: fuzz' >"$tap"
		exit 0
	fi
	printf '%s\n' 'ksft: [1/1] cgroup/t rc=0 1s (timeout 135s)' '<<< ksft-guest-done >>>' >>"$log"
	printf '%s\n' 'TAP version 13' '1..1' '# selftests: cgroup: t' '# 1..1' '# ok 1 t_one' \
		'ok 1 selftests: cgroup: t' >"$tap"
	FAKE
	chmod +x "$T/bin/qemu-system-x86_64"
	: >"$T/fakekvm"
}
# qemu_run [VAR=value...] [-- qemu.sh options]: qemu.sh test on the fake.
qemu_run() {
	local env=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do env+=("$1"); shift; done
	[ $# = 0 ] || shift
	run env PATH="$T/bin:$PATH" WORK="$T/w" BUILD="$T/qb" KVM_DEV="$T/fakekvm" \
		KVM_PROBE_TIMEOUT=2 "${env[@]}" "$S/qemu.sh" test --known /dev/null "$@"
}

# A kselftest built after the initramfs was packed is not in it: qemu.sh
# refuses to boot what would run the old test.
t_stale_initramfs_is_refused() {
	mkfakeqemu
	mkdir -p "$T/qb/kselftest/cgroup"
	touch -d '+1 hour' "$T/qb/kselftest/cgroup/test_x"
	qemu_run ACCEL=tcg
	expect_rc 1 && expect_out 'the initramfs is older than .*/kselftest/cgroup/test_x' &&
		expect_out 'next: make initramfs kselftests' || return 1
	touch -d '+2 hours' "$T/qb/initramfs.cpio.gz"
	qemu_run ACCEL=tcg
	rm -rf "$T/qb/kselftest"
	expect_rc 0
}

t_swap_bps_throttles_the_swap_disk_or_is_refused() {
	mkfakeqemu
	qemu_run ACCEL=tcg SWAP_BPS=4M
	expect_rc 1 && expect_out 'error: SWAP_BPS=4M: bytes per second' &&
		expect_out 'SWAP_BPS=4194304 \(4 MiB/s\)' || return 1
	qemu_run ACCEL=tcg SWAP_BPS=4194304 FAKE_ARGS="$T/qemu-args"
	expect_rc 0 || return 1
	grep -q '^file=.*/swap-.*,throttling.bps-total=4194304$' "$T/qemu-args" ||
		fail "the swap drive was not throttled: $(grep swap- "$T/qemu-args")"
}

# SWAP=zram: the guest's init is told to swap on zram, the run has its own
# logs, and a guest that did not swap on zram fails it.
t_swap_zram_reaches_the_guest_or_is_refused() {
	mkfakeqemu
	qemu_run ACCEL=tcg SWAP=ram
	expect_rc 1 && expect_out 'error: SWAP=ram: expected disk .* or zram' || return 1
	qemu_run ACCEL=tcg SWAP=zram SWAP_BPS=4194304
	expect_rc 1 && expect_out 'error: SWAP_BPS=4194304 throttles the swap disk, which SWAP=zram does not use' || return 1
	qemu_run ACCEL=tcg SWAP=zram SWAP_MB=512 FAKE_ARGS="$T/zram-args"
	expect_rc 0 && expect_out 'serial-pinned-default-zram.log' || return 1
	grep -q 'ksft.zram=512M' "$T/zram-args" || fail "kernel command line: $(grep console= "$T/zram-args")" || return 1
	qemu_run ACCEL=tcg SWAP=zram FAKE_NOZRAM=1
	expect_rc 1 && expect_out 'SWAP=zram, but the guest did not swap on zram' || return 1
	qemu_run ACCEL=tcg FAKE_ARGS="$T/disk-args"
	expect_rc 0 || return 1
	! grep -q 'ksft.zram' "$T/disk-args" || fail "ksft.zram= without SWAP=zram"
}

t_fuzz_minutes_and_seed_reach_the_guest_or_are_refused() {
	mkfakeqemu
	qemu_run ACCEL=tcg FUZZ_MINUTES=3m FUZZ_SEED=x
	expect_rc 1 && expect_out 'error: FUZZ_MINUTES=3m: minutes of fuzzing' &&
		expect_out "error: FUZZ_SEED=x: trinity's seed" || return 1
	qemu_run ACCEL=tcg FUZZ_MINUTES=30 FUZZ_SEED=42 FAKE_ARGS="$T/qemu-args"
	expect_rc 0 || return 1
	grep -q 'ksft.fuzz_minutes=30 ksft.timeout=3000 ksft.fuzz_seed=42' "$T/qemu-args" ||
		fail "kernel command line: $(grep console= "$T/qemu-args")" || return 1
	expect_out 'timeout 4200s' || fail "the run's timeout did not grow with FUZZ_MINUTES"
}

# make fuzz FUZZ_SEEDS=: one boot per seed, each with its own logs and
# results, a table of syscalls, swapoff/swapon cycles and kernel reports,
# and the replay command of a failing seed.
t_fuzz_campaign_runs_each_seed_and_tables_them() {
	mkfakeqemu
	run env PATH="$T/bin:$PATH" WORK="$T/fw" BUILD="$T/qb" ACCEL=tcg FUZZ_SEEDS='1,3 2' FUZZ_MINUTES=1 \
		FAKE_BAD_SEED=3 "$S/fuzz.sh"
	expect_rc 1 && expect_out '^ +1 +1 +1000 +1 +0 +pass$' && expect_out '^ +3 +1 +3000 +1 +1 +FAIL$' &&
		expect_out '^ +2 +1 +2000 +1 +0 +pass$' &&
		expect_out 'seed 3 failed: logs .*/serial-fuzz-pinned-default-s3.log; replay: make fuzz TREE=[0-9.]+ KCONFIG=default FUZZ_SEED=3 FUZZ_MINUTES=1' &&
		expect_out 'the fuzz run failed for seed\(s\) 3' || return 1
	local s
	for s in 1 2 3; do
		[ -f "$T/fw/results/fuzz-pinned-default-s$s.tsv" ] || fail "no results of seed $s" || return 1
	done
	[ "$(wc -l <"$T/fw/results/fuzz-pinned-default.campaign.tsv")" = 4 ] || fail "the campaign table has not 3 seeds"
	run env PATH="$T/bin:$PATH" WORK="$T/fw" BUILD="$T/qb" ACCEL=tcg FUZZ_SEEDS='1 x' "$S/fuzz.sh"
	expect_rc 1 && expect_out "FUZZ_SEEDS=1 x: trinity's seeds, positive whole numbers"
}

t_bad_guest_settings_stop_before_anything_runs() {
	run env WORK="$T/gs" VM_MEM=abc SWAP_MB=abc VM_TIMEOUT=10m ACCEL=foo VM_CPUS=0 SWAP_BPS=4M \
		"$S/pipeline.sh" tree series config build initramfs kselftests
	expect_rc 1 && expect_out 'error: VM_MEM=abc: MiB of guest memory' &&
		expect_out 'error: SWAP_MB=abc: MiB' && expect_out 'error: VM_TIMEOUT=10m: seconds' &&
		expect_out 'error: VM_CPUS=0: guest vCPUs' && expect_out 'error: SWAP_BPS=4M' &&
		expect_out 'error: ACCEL=foo: expected auto' && expect_out 'nothing was run' || return 1
	expect_no_out '==> stage' "a stage ran despite the bad settings" || return 1
	[ ! -e "$T/gs" ] || fail "the work directory was created"
	run env WORK="$T/gs" VM_MEM=128 "$S/qemu.sh" test
	expect_rc 1 && expect_out 'VM_MEM=128: MiB of guest memory, a whole number from 256 to the host.s [0-9]+' || return 1
	# A range, the test names, the root file system, the image: checked
	# before the first build, each named.
	run env WORK="$T/gs" VM_CPUS=999 TESTS=cgroup/test_zswap,no/such ROOTFS=ubuntu KERNEL_IMAGE="$T/no-bzImage" \
		SOAK_ARGS='-d 600' "$S/pipeline.sh" tree series config build initramfs kselftests
	expect_rc 1 && expect_out 'error: VM_CPUS=999: guest vCPUs, a whole number from 1 to 255' &&
		expect_out 'error: TESTS=cgroup/test_zswap,no/such: not in tests/kselftests.list or tests/kselftests-debug.list: no/such$' &&
		expect_out '  the tests: cgroup/test_zswap,.*guest/soak' && expect_out 'error: ROOTFS=ubuntu: only ROOTFS=debian' &&
		expect_out "error: KERNEL_IMAGE=$T/no-bzImage: no such file" && expect_out 'error: SOAK_ARGS=-d 600: .*no spaces' &&
		expect_out 'nothing was run' || return 1
	[ ! -e "$T/gs" ] || fail "the work directory was created" || return 1
	# The kselftest runner's collection:binary names the same tests.
	mkfakeqemu
	qemu_run ACCEL=tcg QEMU_SHOW=1 TESTS=cgroup:test_zswap,guest/soak
	expect_rc 0 && expect_out 'ksft.tests=cgroup/test_zswap.,guest/soak' || return 1
	run env TESTS=cgroup:test_zswap,cgroup:no_such bash -c '. "$1/lib.sh"; . "$1/lib-guest.sh"; check_settings' _ "$S"
	expect_rc 1 && expect_out 'error: TESTS=cgroup:test_zswap,cgroup:no_such: not in .*: cgroup/no_such$' || return 1
	# What make fuzz, make soak and check-series give is taken.
	run env TESTS=guest/fuzz,guest/kmemleak CHECK_TESTS=cgroup/test_zswap VM_CPUS=255 SOAK_ARGS=-d,600,-m,24 \
		ROOTFS=debian bash -c '. "$1/lib.sh"; . "$1/lib-guest.sh"; check_settings' _ "$S"
	expect_rc 0 && expect_no_out .
}

# The guest's settings are checked by the entry points that take them,
# not by sourcing the library: a script that boots no guest runs with
# any, and each one that boots a guest refuses a bad one before it runs.
BAD_GUEST=(VM_CPUS=999 VM_MEM=abc TESTS=no/such ACCEL=foo SWAP=nfs SOAK_ARGS='-d 600')
t_sourcing_the_library_checks_no_guest_setting() {
	local part
	for part in lib.sh lib-series.sh lib-guest.sh lib-build.sh; do
		run env "${BAD_GUEST[@]}" bash -c '. "$1/lib.sh"; [ "$2" = lib.sh ] || . "$1/$2"' _ "$S" "$part"
		expect_rc 0 && expect_no_out . "sourcing $part printed something" || return 1
	done
	run env "${BAD_GUEST[@]}" bash -c '. "$1/lib.sh"; . "$1/lib-guest.sh"; check_settings' _ "$S"
	expect_rc 1 && expect_out 'error: VM_CPUS=999: guest vCPUs, a whole number from 1 to 255 \(default 2\)$' &&
		expect_out 'nothing was run'
}

t_a_script_without_a_guest_takes_bad_guest_settings() {
	run env "${BAD_GUEST[@]}" "$S/origins.sh"
	expect_rc 0 && expect_out '^patch	origin' || return 1
	expect_no_out 'VM_CPUS|error:' "origins.sh refused a guest setting it does not use"
}

t_each_guest_entry_point_refuses_bad_guest_settings_first() {
	local s
	for s in pipeline.sh qemu.sh check-series.sh bench.sh fuzz.sh deb-boot.sh gitlab-ci-local.sh; do
		run env WORK="$T/gs" JOBS=none "${BAD_GUEST[@]}" "$S/$s"
		expect_rc 1 && expect_out 'error: VM_CPUS=999' && expect_out 'nothing was run' ||
			fail "$s did not refuse VM_CPUS=999 first" || return 1
		[ ! -e "$T/gs" ] || fail "$s created its work directory" || return 1
	done
}

# The work layout is lib.sh's functions': another tree's or another
# work directory's paths are the ones a script there would use.
t_layout_functions_name_what_the_scripts_use() {
	local lay='. "$1/lib.sh"; echo "$WORK $BUILD $KERNEL_SRC"; work_dir 6.12; walk_dir; build_dir "$2"
		serial_log n; tap_log n "$2"; results_tsv n "$2"; deb_dir guest; deb_build_dir guest; bench_dir'
	run env -u WORK -u BUILD -u KERNEL_SRC TREE=7.3 WORK_ROOT="$T/wr" KCONFIG=debug bash -c "$lay" _ "$S" "$T/cw"
	expect_rc 0 && expect_out "^$T/wr/7.3 $T/wr/7.3/build/pinned-debug $T/wr/7.3/linux-source-7.3\$" &&
		expect_out "^$T/wr/6.12\$" && expect_out "^$T/wr/7.3/check-series\$" &&
		expect_out "^$T/cw/build/pinned-debug\$" && expect_out "^$T/wr/7.3/logs/serial-n.log\$" &&
		expect_out "^$T/cw/logs/tap-n.log\$" && expect_out "^$T/cw/results/n.tsv\$" &&
		expect_out "^$T/wr/7.3/deb/guest\$" && expect_out "^$T/wr/7.3/build/pinned-deb-guest\$" &&
		expect_out "^$T/wr/7.3/bench\$" || return 1
	# A user's WORK= is every tree's (make passes it to all the scripts).
	run env -u BUILD -u KERNEL_SRC TREE=7.3 WORK="$T/w/../w2" bash -c "$lay" _ "$S" "$T/cw"
	expect_rc 0 && expect_out "^$T/w2\$"
}

# Each script sources the parts of the library whose functions it calls
# (a missing one would only show as "command not found" when the call runs).
t_each_script_sources_the_library_parts_it_calls() {
	local part fn f calls missing='' out=''
	for part in "$S"/lib-*.sh; do
		for fn in $(sed -n 's/^\([a-z_]*\)() {.*/\1/p' "$part"); do
			for f in "$S"/*.sh; do
				case $f in "$S"/lib*.sh) continue ;; esac
				! grep -q "^$fn() " "$f" || continue	# its own function of that name
				# A call: the name as a command word, outside comments.
				calls=$(grep -v '^[[:space:]]*#' "$f" | grep -cE "(^|[[:space:];&|({]|\\$\()$fn( |\$|\))" || true)
				[ "$calls" = 0 ] || grep -qxF ". \"\$(dirname \"\$0\")/${part##*/}\"" "$f" ||
					missing="$missing ${f##*/}:$fn(${part##*/})"
			done
		done
	done
	[ -z "$missing" ] || fail "calls without the part sourced:$missing"
}

t_initramfs_with_nothing_built_is_refused() {
	[ -x /bin/busybox ] || { echo "SKIP: no /bin/busybox (make deps)"; return 0; }
	mkdir -p "$T/ib"
	run env WORK="$T/iw" BUILD="$T/ib" "$S/mkinitramfs.sh"
	expect_rc 1 && expect_out 'kselftest binaries are not built in .*cgroup/test_zswap.*ptyrun' &&
		expect_out 'next: make build' || return 1
	[ ! -e "$T/ib/initramfs.cpio.gz" ] || fail "an initramfs without kselftests was written"
}

# VM_RUN reaches the Debian guest whole: commas, quotes and spaces.
t_vm_run_survives_the_kernel_command_line() {
	mkfakeqemu
	mkdir -p "$T/wr/rootfs" && touch "$T/wr/rootfs/bookworm.img"
	local cmd='echo "a,b  c" | tr , + ; ls /opt'
	qemu_run ACCEL=tcg ROOTFS=debian WORK_ROOT="$T/wr" VM_RUN="$cmd" FAKE_ARGS="$T/vmrun-args"
	local enc
	enc=$(sed -n 's/.* ksft\.run=\([^ ]*\).*/\1/p' "$T/vmrun-args")
	[ -n "$enc" ] || fail "no ksft.run= on the command line" || return 1
	[ "$(printf %s "$enc" | base64 -d)" = "$cmd" ] || fail "VM_RUN came out as '$(printf %s "$enc" | base64 -d)'"
}

# One launcher: QEMU_SHOW=1 prints the command line of each mode; the
# Debian-rootfs run has the watchdog and the timeout of every run.
t_one_launcher_for_every_mode() {
	mkfakeqemu
	mkdir -p "$T/wr/rootfs" && touch "$T/wr/rootfs/bookworm.img"
	qemu_run ACCEL=tcg QEMU_SHOW=1
	expect_rc 0 && expect_out '-initrd' && expect_out 'file:.*serial-pinned-default.log -serial file:.*tap-pinned-default.log' &&
		expect_out 'ksft.mode=test' && expect_out 'qemu-system-x86_64 -machine q35 ' || return 1
	# The debug kernel on q35 (MSI-X for the disks, no legacy PIRQ
	# routing), with 4-level paging (KASAN's false report under LA57).
	qemu_run ACCEL=tcg QEMU_SHOW=1 KCONFIG=debug
	expect_rc 0 && expect_out 'qemu-system-x86_64 -machine q35 ' && expect_out 'slab_nomerge' &&
		expect_out 'no5lvl' || return 1
	expect_no_out 'pci=noacpi' "the debug guest still boots with pci=noacpi" || return 1
	qemu_run ACCEL=tcg QEMU_SHOW=1 ROOTFS=debian WORK_ROOT="$T/wr" VM_RUN=true
	expect_rc 0 && expect_out 'root=/dev/vdc' && expect_out 'bookworm.img' && expect_out 'timeout -k 10 2400' || return 1
	expect_no_out '-initrd' "the rootfs boot has an -initrd" || return 1
	qemu_run ACCEL=tcg ROOTFS=debian WORK_ROOT="$T/wr" VM_RUN=true FAKE_HANG=1 VM_SILENCE=4
	expect_rc 1 && expect_out 'nothing to its serial logs for 4s' && expect_out 'did not run .true. to success'
}

# What one script hands another (a run's name, its known failures, the
# vCPUs to expect) goes as options, each script's -h lists them; the
# environment carries the user's settings only.
t_plumbing_goes_as_options() {
	mkfakeqemu
	local s
	for s in qemu.sh results.sh check-apply.sh; do
		run "$S/$s" -h
		expect_rc 0 && expect_out '^  --(known|tsv) FILE ' || return 1
	done
	run "$S/qemu.sh" test --nmae x
	expect_rc 1 && expect_out "error: qemu.sh: unknown argument '--nmae'" && expect_out 'next: scripts/qemu.sh -h' || return 1
	run env WORK="$T/w" "$S/results.sh" --cpus
	expect_rc 1 && expect_out 'error: results.sh: --cpus needs a value' || return 1
	run env PATH="$T/bin:$PATH" WORK="$T/w" BUILD="$T/qb" ACCEL=tcg RUN_NAME=ignored \
		"$S/qemu.sh" test --name mine --known /dev/null
	# (and the guest's "ksft: [i/n] NAME rc=R Ts (timeout Ts)" lines give
	# each test's time)
	expect_rc 0 && expect_out '^==> test times: cgroup/t 1s$' || return 1
	[ -f "$T/w/logs/serial-mine.log" ] && [ -f "$T/w/results/mine.tsv" ] ||
		fail "--name mine: no logs/serial-mine.log and results/mine.tsv" || return 1
	[ ! -e "$T/w/logs/serial-ignored.log" ] || fail "RUN_NAME still names the run"
}

# qemu.sh run is make vm's VM_RUN on the Debian root file system: without
# either it says so (it crashed on an unbound variable).
t_qemu_run_without_a_root_file_system_is_refused() {
	mkfakeqemu
	mkdir -p "$T/wr/rootfs" && touch "$T/wr/rootfs/bookworm.img"
	local a
	for a in VM_RUN=true ROOTFS=debian; do
		run env PATH="$T/bin:$PATH" WORK="$T/w" WORK_ROOT="$T/wr" BUILD="$T/qb" ACCEL=tcg "$a" "$S/qemu.sh" run
		expect_rc 1 && expect_out "error: qemu.sh run runs VM_RUN='cmd' on the Debian root file system: it needs ROOTFS=debian and VM_RUN" &&
			expect_out "next: make vm .*ROOTFS=debian VM_RUN='cmd'" || return 1
	done
}

# make deb-boot's boot: the Debian image it made, the package's kernel and
# initrd, the test list run (not a shell).
t_rootfs_boot_of_a_package_runs_the_tests() {
	mkfakeqemu
	touch "$T/root.img" "$T/initrd.img-9.9" && mkbzimage "$T/vmlinuz-9.9"
	qemu_run ACCEL=tcg QEMU_SHOW=1 ROOTFS=debian KERNEL_IMAGE="$T/vmlinuz-9.9" \
		-- --image "$T/root.img" --initrd "$T/initrd.img-9.9"
	expect_rc 0 && expect_out "-kernel $T/vmlinuz-9.9" && expect_out "-initrd $T/initrd.img-9.9" &&
		expect_out "file=$T/root.img" && expect_out 'root=/dev/vdc' && expect_out 'ksft.mode=test'
}

# The root file system image is shared by every tree's guests and written
# by them: a second guest on it (or mkrootfs.sh rewriting it) is refused
# while one runs; a whole make bench holds its WORK.
t_shared_image_and_bench_are_locked() {
	mkfakeqemu
	touch "$T/root.img" && mkbzimage "$T/vmlinuz-9.9"
	hold "$T/root.img.lock"
	qemu_run ACCEL=tcg QEMU_SHOW=1 ROOTFS=debian KERNEL_IMAGE="$T/vmlinuz-9.9" -- --image "$T/root.img"
	unhold
	expect_rc 1 && expect_out "another guest on \(or build of\) the root file system $T/root.img is running" &&
		expect_out 'next: wait for it: the guests of every tree' || return 1
	mkdir -p "$T/bl" && touch "$T/bl/.zswap-stack-work"
	hold "$T/bl/.bench-lock"
	run env WORK="$T/bl" BENCH_WORKLOADS=zswap-thrash "$S/bench.sh"
	unhold
	expect_rc 1 && expect_out "another make bench in $T/bl is running"
}

# make deb-boot without the package names the make deb that builds it.
t_deb_boot_without_a_package_names_make_deb() {
	[ "$(id -u)" = 0 ] || { echo "SKIP: not root"; return 0; }
	run env WORK="$T/dbw" DEB_FLAVOUR=guest "$S/deb-boot.sh"
	expect_rc 1 && expect_out 'no linux-image package of this series \(-zswap-stack-[0-9]+-[0-9a-f]{8}, flavour guest\)' &&
		expect_out 'next: make deb .*DEB_FLAVOUR=guest'
}

t_second_make_in_the_same_work_dir_is_refused() {
	mkdir -p "$T/lw" && : >"$T/lw/.zswap-stack-work"
	flock "$T/lw/.lock" sleep 5 &
	local holder=$!
	sleep 1
	run env WORK="$T/lw" "$S/pipeline.sh" series
	kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null || true
	expect_rc 1 && expect_out "another make in $T/lw is running \(lock: $T/lw/.lock\)" &&
		expect_out 'next: wait for it, or use another WORK='
}

# bench-report: the table's medians, ranges and deltas, from a CSV whose
# numbers are known.
t_bench_report_medians_and_deltas() {
	mkdir -p "$T/br"
	{ echo kernel,patches,run,workload,metric,value
	  for r in 1 2 3; do
		echo "base,0,$r,w1,status,ok"
		echo "base,0,$r,w1,zswpin,$((r * 10))"
		echo "series,3,$r,w1,zswpin,$((r * 5))"
		echo "base,0,$r,w1,swap_ra,100"; echo "base,0,$r,w1,swap_ra_hit,$((70 + r))"
		echo "series,3,$r,w1,swap_ra,10"; echo "series,3,$r,w1,swap_ra_hit,9"
	  done; } >"$T/br/in.csv"
	run "$S/bench-report.sh" "$T/br/in.csv" "$T/br" tcg 3 "a test"
	expect_rc 0 && expect_out '^workload w1: a test' &&
		expect_out 'zswpin +20 \[10\.\.30\] +10 \[5\.\.15\] +-50\.0%' &&
		expect_out 'swap_ra +100 \[100\.\.100\] +10 \[10\.\.10\] +-90\.0%' &&
		expect_out 'swap_ra_hit_pct +72 \[71\.\.73\] +90 \[90\.\.90\] +\+25\.0%'
}

# check-series and bench name a bad FROM/TO or point range before doing
# anything.
t_check_series_and_bench_refuse_bad_ranges() {
	run env WORK="$T/csw" FROM=no-such-patch "$S/check-series.sh"
	expect_rc 1 && expect_out "no patch in patches/${TREE:-7.3}/series matches 'no-such-patch'" &&
		expect_out "next: see: grep -v '\\^#' patches/${TREE:-7.3}/series" || return 1
	run env WORK="$T/csw" FROM=5 TO=2 "$S/check-series.sh"
	expect_rc 1 && expect_out 'FROM \(5\) comes after TO \(2\)' || return 1
	run env WORK="$T/csw" BENCH_BASE=5 BENCH_UPTO=2 "$S/bench.sh"
	expect_rc 1 && expect_out 'need 0 <= BENCH_BASE \(5\) < BENCH_UPTO \(2\)' || return 1
	# A point by name: the last patch that matches (the group's end)
	run env WORK="$T/csw" BENCH_BASE=dropbehind/ BENCH_UPTO=readahead/ "$S/bench.sh"
	expect_rc 1 && expect_out 'need 0 <= BENCH_BASE \([0-9]+\) < BENCH_UPTO \([0-9]+\)' || return 1
	run env WORK="$T/csw" BENCH_BASE=no-such-group/ "$S/bench.sh"
	expect_rc 1 && expect_out 'BENCH_BASE=no-such-group/: no patch in patches/[0-9.]+/series matches' || return 1
	# A variant: only one of patches/TREE/variants/, and then the base
	# may be its own point, but not after it
	run env WORK="$T/csw" BENCH_VARIANT=no-such "$S/bench.sh"
	expect_rc 1 && expect_out 'BENCH_VARIANT=no-such: no patches/[0-9.]+/variants/no-such.patch' || return 1
	run env WORK="$T/csw" BENCH_BASE=5 BENCH_UPTO=5 "$S/bench.sh"
	expect_rc 1 && expect_out 'need 0 <= BENCH_BASE \(5\) < BENCH_UPTO \(5\)' || return 1
	if [ -f "$TOP/patches/${TREE:-7.3}/variants/readahead-skip.patch" ]; then
		run env WORK="$T/csw" BENCH_BASE=6 BENCH_UPTO=5 BENCH_VARIANT=readahead-skip "$S/bench.sh"
		expect_rc 1 && expect_out 'need 0 <= BENCH_BASE \(6\) <= BENCH_UPTO \(5\)' || return 1
	fi
	[ ! -e "$T/csw/check-series" ] || fail "check-series made its work dir for a bad range"
}

# judge ARGS...: check-series' judgement functions, with fixed_by[] from
# $T/expect over the series g/0001-a g/0002-fix g/0003-late (and, in
# $PROVEN, the tests proven before their fix): the function's output.
judge() {
	run env T="$T" PROVEN="${PROVEN:-}" bash -c '. "$1/lib.sh"; . "$1/check-series-judge.sh"; shift
		expect_load "$T/expect" g/0001-a.patch g/0002-fix.patch g/0003-late.patch
		for t in $PROVEN; do proven[$t]=1; done
		"$@"' _ "$S" "$@"
}
# A guest ran tests once its first binary printed a plan or, for the
# plan-less kselftests of 6.12, a first result; a guest that died booting
# did not, and check-series boots it once more.
t_check_series_sees_a_guest_that_ran_tests() {
	printf '%s\n' 'TAP version 13' '1..1' '# selftests: cgroup: test_a' '# ok 1 test_one' >"$T/noplan.tap"
	printf '%s\n' 'TAP version 13' '1..1' '# selftests: cgroup: test_a' '# TAP version 13' '# 1..3' >"$T/plan.tap"
	printf '%s\n' 'TAP version 13' '1..1' '# selftests: cgroup: test_a' >"$T/none.tap"
	: >"$T/expect"
	judge tap_ran_tests "$T/noplan.tap"; expect_rc 0 || return 1
	judge tap_ran_tests "$T/plan.tap"; expect_rc 0 || return 1
	judge tap_ran_tests "$T/none.tap"; expect_rc 1
}

# A feature test before its fix must fail (the old behaviour), from its
# fix on pass; one that passes at its fix is due a run on the kernel
# before it, once.
t_check_series_judges_each_point_by_series_expect() {
	printf '# comment\nbin/t:test_new\tg/0002-fix.patch\nbin/t:test_late\tg/0003-late.patch\n' >"$T/expect"
	printf 'bin/t\t%s\t%s\t%s\n' test_old pass '' test_new fail '' test_late pass '' test_skip skip 'binary skipped' \
		test_known xfail 'a known failure' >"$T/p1.tsv"
	judge judge_point 1 "$T/p1.tsv"
	expect_rc 0 || return 1
	[ "$out" = "$(printf '%s\n' 'ok	p	' 'ok	x	test_new fails: old behaviour (fixed by patch 2)' \
		'FAIL	f	test_late: pass before its fix (patch 3): does not show the old behaviour' '-	s	' 'ok	x	')" ] ||
		fail "point 1 judged wrong" || return 1
	# At its fix the test passes, and is due its before-fix run.
	printf 'bin/t\t%s\t%s\t\n' test_old fail test_new pass test_late fail >"$T/p2.tsv"
	judge judge_point 2 "$T/p2.tsv"
	[ "$out" = "$(printf '%s\n' 'FAIL	f	FAIL bin/t:test_old' 'ok	p	test_new passes: fixed here' \
		'ok	x	test_late fails: old behaviour (fixed by patch 3)')" ] || fail "point 2 judged wrong" || return 1
	judge before_fix_due 2 1 "$T/p2.tsv"
	[ "$out" = bin/t:test_new ] || fail "before-fix runs due at point 2: '$out', expected bin/t:test_new" || return 1
	PROVEN=bin/t:test_new judge before_fix_due 2 1 "$T/p2.tsv"
	[ -z "$out" ] || fail "a proven test is due again" || return 1
	judge before_fix_due 3 3 "$T/p2.tsv"
	[ -z "$out" ] || fail "a test fixed before FROM is due" || return 1
	# The expectations name a patch the series lacks.
	printf 'bin/t:test_new\tg/0009-gone.patch\n' >"$T/expect"
	judge judge_point 1 "$T/p1.tsv"
	expect_rc 1 && expect_out "expect: bin/t:test_new names 'g/0009-gone.patch', which is not in patches/${TREE:-7.3}/series"
}

# A point's row fails the walk on a failed apply, build, checkpatch or
# boot, a W=1 warning added, no kselftest result or a kselftest failure
# (check-series and the GitLab report judge with the same function).
t_check_series_fails_a_point_by_its_row() {
	: >"$T/expect"
	local r
	for r in 'ok ok 0 ok ok 5/0/1/2' 'offsets ok -1 ok ok 3/0/0/0'; do
		# shellcheck disable=SC2086
		judge point_failed $r; expect_rc 1 || fail "row '$r' failed" || return 1
	done
	for r in 'FAIL - - - - -' 'ok FAIL - ok - -' 'ok ok +2 ok ok 5/0/0/0' 'ok ok 0 FAIL ok 5/0/0/0' \
		'ok ok 0 ok FAIL 5/0/0/0' 'ok ok 0 ok ok none' 'ok ok 0 ok ok 4/1/0/0'; do
		# shellcheck disable=SC2086
		judge point_failed $r; expect_rc 0 || fail "row '$r' passed" || return 1
	done
	# The table's header says "time"; a row's seconds end in "s".
	judge matrix_row '#' patch apply build W=1 ckpatch boot 'ksft p/f/s/xf' time notes
	expect_out ' time   notes$' || return 1
	judge matrix_row 3 g/0003-late.patch ok ok 0 ok ok 5/0/0/0 42 ''
	expect_out ' 42s  $'
}

# mkrootfs puts the one guest init (tests/guest/init) into the image.
t_mkrootfs_image_has_the_one_init() {
	command -v debugfs >/dev/null || { echo "SKIP: no debugfs (e2fsprogs)"; return 0; }
	local d=$T/rr/rootfs/bookworm.d
	mkdir -p "$d/sbin" "$d/opt" "$T/rb/kselftest" "$T/rb/guest-bin"
	touch "$d/.complete"
	run env WORK_ROOT="$T/rr" WORK="$T/rw2" BUILD="$T/rb" ROOTFS_SIZE=64M ROOTFS_PACKAGES= "$S/mkrootfs.sh"
	expect_rc 0 && expect_out 'rootfs image ready' || return 1
	debugfs -R 'cat /sbin/zswap-stack-init' "$T/rr/rootfs/bookworm.img" 2>/dev/null >"$T/init.out"
	cmp -s "$T/init.out" "$TOP/tests/guest/init" || fail "the image's init is not tests/guest/init"
}

t_hanging_kvm_falls_back_to_tcg() {
	mkfakeqemu
	local t0
	t0=$(date +%s)
	qemu_run
	expect_rc 0 && expect_out 'probing KVM \(2s timeout\)' && expect_out 'using TCG' &&
		expect_out '^1 passed, 0 failed, 0 skipped$' || return 1
	[ $(($(date +%s) - t0)) -lt 15 ] || fail "the probe did not time out promptly" || return 1
	[ "$(sed -n 2p "$T/w/kvm-probe")" = tcg ] || fail "the probe result was not cached" || return 1
	qemu_run
	expect_no_out 'probing KVM' "KVM was probed again in the same host boot"
}

t_hung_guest_hits_the_hard_timeout() {
	mkfakeqemu
	local t0
	t0=$(date +%s)
	qemu_run ACCEL=tcg VM_TIMEOUT=3 FAKE_HANG=1
	expect_rc 1 && expect_out 'hit the 3s timeout' && expect_out 'did not finish' || return 1
	[ $(($(date +%s) - t0)) -lt 20 ] || fail "the timeout did not end the guest"
}

# A device without an interrupt (the debug kernel's ACPI _PRT timeout
# under TCG) stops the guest at once, with that reason.
t_guest_without_device_interrupts_fails_at_once() {
	mkfakeqemu
	local t0
	t0=$(date +%s)
	qemu_run ACCEL=tcg VM_TIMEOUT=60 VM_SILENCE=50 FAKE_NOIRQ=1
	expect_rc 1 && expect_out 'got no interrupt' && expect_out 'no GSI' || return 1
	[ $(($(date +%s) - t0)) -lt 20 ] || fail "the guest was not stopped before the silence watchdog"
}

t_silent_guest_is_stopped_as_hung() {
	mkfakeqemu
	local t0
	t0=$(date +%s)
	qemu_run ACCEL=tcg VM_TIMEOUT=60 VM_SILENCE=4 FAKE_HANG=1
	expect_rc 1 && expect_out 'nothing to its serial logs for 4s' && expect_out 'did not finish' || return 1
	[ $(($(date +%s) - t0)) -lt 30 ] || fail "the silent guest was not stopped before the hard timeout"
}

# A fake linux-image package (and linux-headers beside it) of kernel
# 6.12.0-zswap-stack-1-abc in $T/debs/, and a one-patch series adding
# fake_series_fn() to mm/. mkfakedeb [drop-option] [drop-symbol] [no-headers]
mkfakedeb() {
	local k=6.12.0-zswap-stack-1-abc r=$T/img h=$T/hdr
	rm -rf "$r" "$h" "$T/debs" "$T/dp"
	mkdir -p "$r/DEBIAN" "$r/boot" "$r/lib/modules/$k/kernel/mm" "$h/DEBIAN" \
		"$h/usr/src/linux-headers-$k/include/config" "$h/usr/src/linux-headers-$k/scripts/mod" \
		"$h/lib/modules/$k" "$T/debs" "$T/dp"
	printf 'From: T <t@example.org>\nSubject: [PATCH] x\n\n---\n+++ b/mm/x.c\n+int fake_series_fn(void)\n+++ b/tools/t.c\n+int main(void)\n' >"$T/dp/0001-x.patch"
	echo 0001-x.patch >"$T/dp/series"
	for p in img:linux-image hdr:linux-headers; do
		printf 'Package: %s-%s\nVersion: 1\nArchitecture: amd64\nMaintainer: T <t@example.org>\nDescription: fake\n' \
			"${p#*:}" "$k" >"$T/${p%%:*}/DEBIAN/control"
	done
	: >"$r/boot/vmlinuz-$k"
	# As Kconfig writes it: no "# only TREE" marks.
	{ echo CONFIG_MODULES=y; grep -E '^CONFIG_[A-Z0-9_]+=' "$TOP/kernel-config/zswap-memcg.config" |
		sed 's/[[:space:]]*#.*//'; } | grep -vxF "${1:-none}" >"$r/boot/config-$k"
	printf 'ffffffff81000000 T _text\nffffffff81000010 T %s\n' "${2:-fake_series_fn}" >"$r/boot/System.map-$k"
	: >"$r/lib/modules/$k/kernel/mm/x.ko.xz"
	for f in Makefile Module.symvers include/config/auto.conf scripts/mod/modpost; do
		: >"$h/usr/src/linux-headers-$k/$f"
	done
	ln -s "/usr/src/linux-headers-$k" "$h/lib/modules/$k/build"
	dpkg-deb --root-owner-group -b "$r" "$T/debs/linux-image-${k}_1_amd64.deb" >/dev/null
	[ -n "${3:-}" ] || dpkg-deb --root-owner-group -b "$h" "$T/debs/linux-headers-${k}_1_amd64.deb" >/dev/null
}
check_deb() { run env TREE=6.12 PATCHES="$T/dp" "$S/check-deb.sh" "$T"/debs/linux-image-*.deb; }

t_check_deb_accepts_a_complete_package() {
	command -v dpkg-deb >/dev/null || { echo "SKIP: no dpkg-deb"; return 0; }
	mkfakedeb
	check_deb; expect_rc 0 && expect_out 'ok +System.map has fake_series_fn' &&
		expect_out 'ok +1 module' && expect_out 'ok +headers: \./lib/modules/.*/build' &&
		expect_out 'all checks passed' || return 1
	expect_no_out 'main' "a function from tools/ was looked for"
}

t_check_deb_names_what_a_package_lacks() {
	command -v dpkg-deb >/dev/null || { echo "SKIP: no dpkg-deb"; return 0; }
	mkfakedeb CONFIG_ZSWAP=y other_fn no-headers
	check_deb; expect_rc nonzero && expect_out 'FAIL config lacks CONFIG_ZSWAP=y' &&
		expect_out 'FAIL System.map lacks fake_series_fn' &&
		expect_out 'FAIL no linux-headers-6.12.0-zswap-stack-1-abc_\*\.deb' &&
		expect_out 'does not carry what make deb promises'
}

t_bench_report_marks_noise() {
	# elapsed: the sides' ranges overlap (~); zswpin: each median outside
	# the other side's range (*); with 2 runs a side: no judgement (?).
	{
		echo "kernel,patches,run,workload,metric,value"
		for r in 1 2 3 4 5; do
			echo "base,0,$r,build,elapsed_s,$((100 + r * 2))"
			echo "series,12,$r,build,elapsed_s,$((97 + r * 2))"
			echo "base,0,$r,build,zswpin,$((1000 + r))"
			echo "series,12,$r,build,zswpin,$((600 + r))"
		done
	} >"$T/b.csv"
	mkdir -p "$T/bo"
	run "$S/bench-report.sh" "$T/b.csv" "$T/bo" tcg 5 test; expect_rc 0 || return 1
	expect_out 'elapsed_s .* 106 \[102\.\.110\] .* 103 \[99\.\.107\] .* -2\.8% ~$' &&
		expect_out 'zswpin .* 1003 \[1001\.\.1005\] .* 603 \[601\.\.605\] .* -39\.9% \*$' || return 1
	grep -E -v '^(base|series),[0-9]+,[345],|^kernel' "$T/b.csv" >"$T/b2.csv"
	sed -i '1i kernel,patches,run,workload,metric,value' "$T/b2.csv"
	run "$S/bench-report.sh" "$T/b2.csv" "$T/bo" tcg 2 test; expect_rc 0 && expect_out 'zswpin .* \?$'
}

# SERIES_EXTRA (bench's variants) takes only a disabled entry of the
# series, after the first SERIES_UPTO patches.
t_series_extra_is_a_disabled_entry() {
	[ -f "$TOP/patches/${TREE:-7.3}/variants/readahead-skip.patch" ] || { echo "SKIP: no variant in patches/${TREE:-7.3}"; return 0; }
	run env SERIES_UPTO=2 SERIES_EXTRA=variants/readahead-skip.patch bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; series_load; printf "%s\n" "${SERIES[@]}"' _ "$S"
	expect_rc 0 || return 1
	[ "$(printf '%s\n' "$out" | wc -l)" = 3 ] && [ "$(printf '%s\n' "$out" | tail -1)" = variants/readahead-skip.patch ] ||
		fail "expected the first 2 patches and the variant" || return 1
	run env SERIES_EXTRA="$(grep -v '^#' "$TOP/patches/${TREE:-7.3}/series" | head -1)" bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; series_load' _ "$S"
	expect_rc 1 && expect_out 'is not a disabled entry' || return 1
	run env SERIES_EXTRA=variants/no-such.patch bash -c '. "$1/lib.sh"; . "$1/lib-series.sh"; series_load' _ "$S"
	expect_rc 1 && expect_out 'is not a disabled entry'
}

t_bench_unknown_workload_lists_the_known() {
	run env BENCH_WORKLOADS=build,nosuch "$S/bench.sh"
	expect_rc nonzero && expect_out "no workload 'nosuch'" && expect_out 'one of: .*thrash.* build build-light build-wb'
}

# The 7.3 dropbehind classic test keeps a file workingset in a directory
# of scratch_dir_create() (TMPDIR, /var/tmp or /tmp, not tmpfs): with none
# writable it skips with its reason, and with one it writes there. Its own
# code, compiled from the tree at the series (a driver that includes
# test_zswap.c), runs in a mount namespace where TMPDIR and /tmp are
# read-only and /var/tmp is tmpfs, from a read-only current directory.
t_kselftest_without_a_writable_disk_dir_skips_with_its_reason() {
	local sel=$REAL_TREE/tools/testing/selftests
	grep -qs '^static int db_file_workingset' "$sel/cgroup/test_zswap.c" ||
		{ echo "SKIP: $REAL_TREE has no dropbehind kselftest (7.3 at the series: make series)"; return 0; }
	[ "$(id -u)" = 0 ] || { echo "SKIP: needs root for a mount namespace"; return 0; }
	unshare -m true 2>/dev/null || { echo "SKIP: unshare -m is not allowed here"; return 0; }
	printf '%s\n' '#define main test_zswap_main' '#include "test_zswap.c"' '#undef main' \
		'int main(void) { page_size = sysconf(_SC_PAGE_SIZE); return db_file_workingset(); }' >"$T/db.c"
	run gcc -D_GNU_SOURCE= -pthread -I"$sel" -I"$sel/cgroup" -I"$sel/cgroup/lib/include" \
		-o "$T/db" "$T/db.c" "$sel/cgroup/lib/cgroup_util.c"
	expect_rc 0 || return 1
	mkdir -p "$T/ro"
	# shellcheck disable=SC2016
	run unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
		mount --bind /tmp /tmp && mount -o remount,bind,ro /tmp &&
		mount -t tmpfs none /var/tmp && cd "$1" && TMPDIR=$1 "$2"' _ "$T/ro" "$T/db"
	expect_rc 4 && expect_out '^# no directory on a disk to write to \(TMPDIR=\)$' || return 1
	# The same program passes where it has a directory on a disk.
	[ "$(stat -f -c %T "$T")" != tmpfs ] || { echo "SKIP: $T is on tmpfs: no disk directory for the pass"; return 0; }
	mkdir -p "$T/rw"
	run env TMPDIR="$T/rw" "$T/db"
	expect_rc 0 && expect_no_out 'no directory' || return 1
	[ -z "$(ls -A "$T/rw")" ] || fail "left in TMPDIR: $(ls -A "$T/rw")"
}

run_cases "$@"
