#!/bin/bash
# What goes upstream from TREE's series (make outgoing), group by group,
# decided by each patch's origin (DEP-3 fields, scripts/dep3.sh):
#   post       every patch is the project's own: a git format-patch
#              series with a cover letter "[PATCH vN 0/M] <summary>"
#   reply      the group ports someone else's posting still in review:
#              that is never re-posted. A reply on the posting's thread
#              (In-Reply-To its Message-ID, from Origin's lore URL) with
#              the project's results of the port, and the project's own
#              patches of the group (its kselftest) on top, in the same
#              thread, the posting's author on Cc
#   follow-up  the ported series is queued upstream: the same, without
#              the queued patches
#   none       nothing of the group is ours to send
# It prints that plan first, then writes $WORK/outgoing/<group>/. Every
# patch mail must pass the tree's checkpatch.pl --strict; at the end the
# mails are applied with git am, the ported patches (as carried) in
# between, to a fresh clone of the base, and must give the series.
#
# patches/<group>/cover.txt is the cover letter, or the reply:
#   Subject: <summary, ASCII>     (a reply: "Re: <the posting's subject>")
#   To: Name <email>              (a reply: the posting's author; optional)
#   Hold: <why not to send yet>   (any number; each listed in NOT-FOR-SENDING)
#   Prefix: RFC PATCH             (a post only: this group's subject
#                                  prefix, instead of PREFIX)
#   <empty line>
#   <body, copied as is: what it does or what we ran; the results under a
#    line starting "A/B"; a post from v2 on: "Changes since v<N-1>">
#
# The base is the release tree.env names (BASE_NAME, e.g. v7.3.4: the
# orig tarball of Debian's source package, scripts/fetch-base.sh); when
# the archive does not serve it, the pinned Debian tree, and the mails say
# so. It is imported once into $WORK/outgoing-base.git with a fixed
# author, date and message, so its id is the same on every machine.
#
# VERSION=N    reroll count of the posts (default 1)
# PREFIX=RFC   subject prefix (default PATCH; e.g. "RFC PATCH")
# SENDER='Name <email>'  the person who sends: becomes the author of the
#              project's own patches (whose author, the project identity,
#              is not a person and cannot sign the DCO) and of the
#              replies, and adds their Signed-off-by to the project's
#              patches only. Without it the mails are for review only.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$TOP/scripts/dep3.sh"
S=$TOP/scripts
need git perl tar xz

PROJECT_IDENT=${PROJECT_IDENT:-"Zswap Stack Developers <zswap-stack@lists.example.org>"}
BASE_IDENT_NAME="zswap-stack base import"
BASE_IDENT_EMAIL=zswap-stack@lists.example.org
BASE_DATE="2025-01-01T00:00:00+0000"
VERSION=${VERSION:-1}
PREFIX=${PREFIX:-PATCH}
SENDER=${SENDER:-}
OUT=$WORK/outgoing
BASE_GIT=$WORK/outgoing-base.git
# File patterns only (--no-keywords): a word in a changelog (zstd,
# trace) must not add anybody.
GM_FLAGS=(--no-rolestats --no-git --no-git-fallback --no-keywords)

case $VERSION in [1-9]|[1-9][0-9]) ;; *) die "VERSION=$VERSION: expected the reroll count, 1, 2, ..." ;; esac
[ -z "$SENDER" ] || printf '%s\n' "$SENDER" | grep -qE '^[^<>@]*[^<>@ ] <[^<>@ ]+@[^<>@ ]+>$' ||
	die "SENDER=$SENDER: expected 'Full Name <email>'"
case $SENDER in *"<${PROJECT_IDENT##*<}")
	die "SENDER=$SENDER has the project's address, which is a list, not a person" "SENDER='Your Name <you@example.org>'" ;;
esac
[ "$PINNED" = 1 ] ||
	die "outgoing posts against the pinned tree; KERNEL_SRC=$KERNEL_SRC is set" "unset KERNEL_SRC"
# --settings: only the checks above (make outgoing, before the tree).
[ "${1:-}" != --settings ] || exit 0
[ -x "$KERNEL_SRC/scripts/checkpatch.pl" ] && [ -f "$KERNEL_SRC/MAINTAINERS" ] ||
	die "no pinned tree at $KERNEL_SRC (its checkpatch.pl and get_maintainer.pl are used)" "make tree"

# The user's git configuration must not change the mails.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
ident=${SENDER:-$PROJECT_IDENT}
export GIT_COMMITTER_NAME=${ident% <*} GIT_COMMITTER_EMAIL=${ident##*<}
GIT_COMMITTER_EMAIL=${GIT_COMMITTER_EMAIL%>}

mkdir -p "$WORK"
lock "$WORK/.outgoing.lock" "make outgoing in $WORK"

# --- the groups, their origins and what goes out -------------------------
series_load
want=("${SERIES[@]}")
[ ${#want[@]} -gt 0 ] || die "the series is empty: nothing to post"
groups=()
declare -A gpatches gkind gmsgid gposting
for p in "${want[@]}"; do
	g=${p%/*}
	[ "$g" != "$p" ] || die "patch $p is in no group directory" "move it to $PATCHES_SHOWN/<group>/ and fix $PATCHES_SHOWN/series"
	if [ -z "${gpatches[$g]:-}" ]; then
		groups+=("$g")
	elif [ "${groups[${#groups[@]} - 1]}" != "$g" ]; then
		die "group $g is split in $PATCHES_SHOWN/series (its patches must be consecutive)" "reorder $PATCHES_SHOWN/series"
	fi
	gpatches[$g]="${gpatches[$g]:-} $p"
	why=$(dep3_problems "$PATCHES/$p" | paste -sd';')
	[ -z "$why" ] || die "$p: origin: $why" "fix its DEP-3 fields (make lint checks them; scripts/dep3.sh says what they mean)"
done
# own P: the patch is ours and for upstream
own() { dep3_to_send "$PATCHES/$1"; }
sent=0
for g in "${groups[@]}"; do
	files=()
	for p in ${gpatches[$g]}; do files+=("$PATCHES/$p"); done
	gkind[$g]=$(dep3_group_kind "${files[@]}")
	[ "${gkind[$g]}" = none ] || sent=$((sent + 1))
	case ${gkind[$g]} in reply|follow-up)
		# The thread: the posting its ports name (the one in review
		# first); our patches come after every port.
		seen_own=
		for p in ${gpatches[$g]}; do
			if own "$p"; then seen_own=$p; continue; fi
			[ -z "$seen_own" ] || die "group $g: our patch $seen_own comes before the port $p" \
				"order patches/$TREE/series so that the group's own patches (its kselftest) come after the ported ones"
			# a reply answers the posting in review, not what it needs
			# from upstream (queued already)
			[ "${gkind[$g]}" != reply ] || [ -z "$(dep3 "$PATCHES/$p" Applied-Upstream)" ] || continue
			[ -z "${gposting[$g]:-}" ] || continue
			o=$(dep3 "$PATCHES/$p" Origin)
			gposting[$g]=${o#*, }
			# the thread is the one Origin names first, not a URL it
			# gives for another version
			case ${o#*, } in
			http*) gmsgid[$g]=$(dep3_msgid "$(dep3_url "$o")") ;;
			*) gmsgid[$g]= ;;
			esac
		done ;;
	esac
done
say "what goes upstream, group by group (make origins has it per patch):"
for g in "${groups[@]}"; do
	n_own=0 n_port=0
	for p in ${gpatches[$g]}; do if own "$p"; then n_own=$((n_own + 1)); else n_port=$((n_port + 1)); fi; done
	case ${gkind[$g]} in
	post) echo "    $g: a new series of $n_own patch(es) with a cover letter: they are the project's own" ;;
	reply) echo "    $g: a reply to ${gposting[$g]} with our results, and our $n_own patch(es) on top in its thread; its $n_port ported patch(es) are not re-posted (the posting is in review)" ;;
	follow-up) echo "    $g: follow-ups in the thread of ${gposting[$g]}: a reply with our results and our $n_own patch(es); its $n_port ported patch(es) are not sent ($(dep3_status "$PATCHES/$(set -- ${gpatches[$g]}; echo "$1")"))" ;;
	none) echo "    $g: nothing: no patch of it is ours to send" ;;
	esac
done

[ $sent -gt 0 ] || die "nothing in the $TREE series is for upstream: every patch is Forwarded: not-needed or someone else's" \
	"make origins TREE=$TREE shows each patch's origin; the mails to send come from TREE=7.3"

T=$(mktemp -d "$WORK/.outgoing.XXXXXX")
trap 'rm -rf "$T"' EXIT

missing=() bad=()
declare -A gsubject gto ghold gprefix
for g in "${groups[@]}"; do
	[ "${gkind[$g]}" != none ] || continue
	c=$PATCHES/$g/cover.txt
	if [ ! -f "$c" ]; then missing+=("$c"); continue; fi
	s=$(sed -n '1s/^Subject: *//p' "$c")
	why=
	[ -n "$s" ] || why="$why line 1 is not 'Subject: <summary>';"
	hdr_end=$(awk 'NR > 1 && /^$/ { print NR; exit }' "$c")
	[ -n "$hdr_end" ] || why="$why no empty line after the header;"
	gto[$g]=$(sed -n "2,${hdr_end:-1}s/^To: *//p" "$c")
	ghold[$g]=$(sed -n "2,${hdr_end:-1}s/^Hold: *//p" "$c")
	gprefix[$g]=$(sed -n "2,${hdr_end:-1}s/^Prefix: *//p" "$c" | tail -1)
	sed -n "2,${hdr_end:-1}p" "$c" | grep -vqE '^((To|Hold|Prefix): .*)?$' && why="$why the header has lines other than Subject:, To:, Hold: and Prefix:;"
	[ -z "${gprefix[$g]}" ] || [ "${gkind[$g]}" = post ] || why="$why Prefix: is for a post (this group's mails are replies);"
	case ${gprefix[$g]} in *[!A-Za-z0-9\ -]*) why="$why Prefix: takes words only (RFC PATCH);" ;; esac
	if [ "${gkind[$g]}" = post ]; then
		case $s in *'[PATCH'*|*'[RFC'*) why="$why the subject has a [PATCH ...] prefix (outgoing.sh adds it);" ;; esac
		if [ "$VERSION" -gt 1 ]; then
			grep -q "^Changes since v$((VERSION - 1))" "$c" ||
				why="$why no 'Changes since v$((VERSION - 1))' section (VERSION=$VERSION);"
		fi
		! grep -qE '^Changes since v([0-9]+)' "$c" ||
			[ "$(sed -nE 's/^Changes since v([0-9]+).*/\1/p' "$c" | sort -n | tail -1)" -lt "$VERSION" ] ||
			why="$why a 'Changes since' section for v$VERSION or later (is VERSION=$VERSION right?);"
	else
		case $s in 'Re: '*) ;; *) why="$why a ${gkind[$g]} group's cover.txt is the reply: its subject is 'Re: <the posting's subject>';" ;; esac
	fi
	! printf '%s' "$s" | LC_ALL=C grep -q '[^ -~]' || why="$why the subject is not ASCII;"
	tail -n +"$((${hdr_end:-1} + 1))" "$c" | grep -q '[^[:space:]]' || why="$why no summary paragraph;"
	tail -n +"$((${hdr_end:-1} + 1))" "$c" | grep -q '^A/B' || why="$why no A/B table (a line starting 'A/B', from make bench);"
	! grep -qE 'MEASURED-RESULTS|TODO|XXX|FIXME|\*\*\* .* \*\*\*' "$c" || why="$why a placeholder (TODO/XXX/FIXME/MEASURED-RESULTS/*** ***);"
	[ -z "$why" ] || bad+=("$c:$why")
	gsubject[$g]=$s
done
[ ${#missing[@]} = 0 ] ||
	die "missing cover letter file(s):$(printf '\n  %s' "${missing[@]}")" \
		"write each as: 'Subject: <summary>' (a reply: 'Re: <posting's subject>', then 'To: <its author>'), an empty line, the summary paragraph, the A/B table under a line starting 'A/B', and (from v2 on) 'Changes since v<N-1>:' (header of scripts/outgoing.sh)"
[ ${#bad[@]} = 0 ] || die "cover letter(s) not ready:$(printf '\n  %s' "${bad[@]}")" "fix the file(s) named above"

# --- the base commit -----------------------------------------------------
# The release when the archive serves its orig tarball, else the pinned
# Debian tree (BASE_FALLBACK says why, and the mails say which).
BASE_FALLBACK=
base_tar=$PIN_TARBALL base_sum=$PIN_SHA256 base_top=$PIN_TOPDIR
base_desc="Debian's $PIN_PKG $PIN_VERSION"
if [ -n "${BASE_NAME:-}" ]; then
	if out=$("$S/fetch-base.sh" 2>&1); then
		base_tar=$(printf '%s\n' "$out" | tail -1)
		base_sum=$(sha256sum "$base_tar" | cut -d' ' -f1) base_top=$BASE_TOPDIR
		base_desc="$BASE_NAME ($BASE_ORIG, from Debian's source package $BASE_SRC_PKG $BASE_SRC_VERSION)"
	else
		BASE_FALLBACK=$(printf '%s\n' "$out" | grep -m1 '^error: ' | sed 's/^error: //')
		warn "the release $BASE_NAME could not be had: $BASE_FALLBACK"
		warn "the mails are based on $base_desc instead, and say so"
	fi
fi
stamp=$BASE_GIT/zswap-stack-base
base=
if [ -f "$stamp" ] && read -r sum base <"$stamp" && [ "$sum" = "$base_sum" ] &&
   git --git-dir="$BASE_GIT" cat-file -e "$base^{commit}" 2>/dev/null; then
	say "base: $base ($base_desc, cached in $BASE_GIT)"
else
	[ -f "$base_tar" ] || die "no $base_tar" "make tree"
	say "checking sha256 of $base_tar"
	[ "$(sha256sum "$base_tar" | cut -d' ' -f1)" = "$base_sum" ] ||
		die "checksum mismatch for $base_tar" "make tree"
	say "importing $base_tar into $BASE_GIT (once: ~90k files, 1.5 GB extracted, 3-15 minutes)"
	rm -rf "$BASE_GIT.tmp" "$WORK/outgoing-base.src"
	mkdir -p "$WORK/outgoing-base.src"
	t_imp=$(date +%s)
	step() { say "  base import [$1/4] $2 ($(($(date +%s) - t_imp)) s so far)"; }
	step 1 "extracting the tarball"
	tar -C "$WORK/outgoing-base.src" -xf "$base_tar" ||
		die "extracting $base_tar failed (disk full?)" "df -h $WORK"
	git init -q --bare "$BASE_GIT.tmp"
	imp() { GIT_DIR=$BASE_GIT.tmp GIT_WORK_TREE=$WORK/outgoing-base.src/$base_top \
		GIT_INDEX_FILE=$BASE_GIT.tmp/import-index git -c core.looseCompression=1 "$@"; }
	step 2 "adding $(find "$WORK/outgoing-base.src/$base_top" -type f | wc -l) files to git"
	# A line every 10000 files: minutes of silence read as a hang.
	(set -o pipefail; cd "$WORK/outgoing-base.src/$base_top" && imp add -f -A --verbose . |
		awk 'NR % 10000 == 0 { printf "==>     %d files added\n", NR; fflush() }') ||
		die "git add of the base tree failed"
	step 3 "writing the base commit"
	tree=$(imp write-tree)
	base=$(printf '%s\n\nThe files of %s\n(sha256 %s), imported by scripts/outgoing.sh.\n' \
		"$base_desc" "$(basename "$base_tar")" "$base_sum" |
		GIT_AUTHOR_NAME=$BASE_IDENT_NAME GIT_AUTHOR_EMAIL=$BASE_IDENT_EMAIL GIT_AUTHOR_DATE=$BASE_DATE \
		GIT_COMMITTER_NAME=$BASE_IDENT_NAME GIT_COMMITTER_EMAIL=$BASE_IDENT_EMAIL GIT_COMMITTER_DATE=$BASE_DATE \
		imp commit-tree "$tree")
	imp update-ref refs/heads/base "$base"
	imp symbolic-ref HEAD refs/heads/base
	rm -f "$BASE_GIT.tmp/import-index"
	# One pack without delta search (a minute): half the size of the
	# loose objects, and no "git gc --auto" of 90k objects later.
	step 4 "packing the objects"
	imp -c pack.threads=1 -c pack.compression=1 repack -a -d -q --window=0 --depth=0 ||
		die "git repack of $BASE_GIT.tmp failed (disk full?)" "df -h $WORK"
	imp config gc.auto 0
	rm -rf "$WORK/outgoing-base.src"
	echo "$base_sum $base" >"$BASE_GIT.tmp/zswap-stack-base"
	rm -rf "$BASE_GIT"
	mv "$BASE_GIT.tmp" "$BASE_GIT"
	say "base: $base ($base_desc; imported in $(($(date +%s) - t_imp)) s)"
fi
if [ -n "$BASE_FALLBACK" ]; then
	based_on="Applied and tested on $base_desc,
which is ${BASE_NAME#v} with Debian's patches; the plain $BASE_NAME could
not be fetched to check it on."
elif [ -n "${BASE_NAME:-}" ]; then
	based_on="Based on $BASE_NAME."
else
	based_on="Based on $base_desc."
fi

# A fresh clone of the base commit in DIR, checked out only where the
# series touches (git am works on the index; the rest stays unchecked).
clone_base() {
	git clone -q --shared --no-checkout "$BASE_GIT" "$1"
	"$S/check-apply.sh" --list-files | sed 's|^|/|' | git -C "$1" sparse-checkout set --no-cone --stdin
	git -C "$1" checkout -q -b outgoing "$base"
}
# am DIR MAIL...: git am, or die naming what did not apply
am() {
	local d=$1 out
	shift
	out=$(git -C "$d" am -q --committer-date-is-author-date "$@" 2>&1) || {
		printf '%s\n' "$out" | sed 's/^/    /' >&2
		die "git am of $(basename "$1")$([ $# = 1 ] || echo " and $(($# - 1)) more") failed on the base + the patches before it" \
			"make series (does it apply at fuzz 0?); a patch must be a git format-patch mail"
	}
}

# --- apply the series: ports as carried, ours as the sender's ------------
R=$T/repo
clone_base "$R"
declare -A gfirst gend
for g in "${groups[@]}"; do
	gfirst[$g]=
	for p in ${gpatches[$g]}; do
		if own "$p" && [ -z "${gfirst[$g]}" ]; then gfirst[$g]=$(git -C "$R" rev-parse HEAD); fi
		am "$R" "$PATCHES/$p"
		own "$p" && [ -n "$SENDER" ] || continue
		author=$(git -C "$R" log -1 --format='%an <%ae>')
		msg=$(git -C "$R" log -1 --format=%B)
		# A list cannot certify the DCO: the sender takes its patch over.
		[ "$author" != "$PROJECT_IDENT" ] || author=$SENDER
		msg=$(printf '%s\n' "$msg" | grep -vxF "Signed-off-by: $PROJECT_IDENT")
		printf '%s\n' "$msg" | git -C "$R" interpret-trailers --trailer "Signed-off-by: $SENDER" |
			GIT_COMMITTER_DATE=$(git -C "$R" log -1 --format=%aD) \
			git -C "$R" commit -q --amend --no-verify --cleanup=whitespace --author="$author" -F -
	done
	gend[$g]=$(git -C "$R" rev-parse HEAD)
done

# Add To: (maintainers, then $2's extra addresses) and Cc: (reviewers,
# lists; not already in To:) from get_maintainer.pl on the patch files
# to MAIL's header: add_recipients MAIL EXTRA-TO FILE...
add_recipients() {
	local m=$1 extra=$2 to cc
	shift 2
	to=$({ printf '%s\n' "$extra" | awk 'NF'
		(cd "$KERNEL_SRC" && ./scripts/get_maintainer.pl "${GM_FLAGS[@]}" --m --no-r --no-l "$@"); } | awk '!seen[$0]++')
	cc=$(cd "$KERNEL_SRC" && ./scripts/get_maintainer.pl "${GM_FLAGS[@]}" --no-m --r --l "$@" |
		grep -vxF -f <(printf '%s\n' "$to"; printf '%s\n' "$to" | sed -n 's/.*<\(.*\)>/\1/p') || true)
	{
		fold_header To "$to"
		fold_header Cc "$cc"
	} >"$T/hdr"
	awk -v hf="$T/hdr" '!done && /^$/ { while ((getline l < hf) > 0) print l; done = 1 } { print }' \
		"$m" >"$T/mail" && mv "$T/mail" "$m"
}

# "Name: a,\n    b" for the addresses, one per line, in $2; nothing if none
fold_header() {
	[ -n "$2" ] || return 0
	printf '%s\n' "$2" | awk -v h="$1" 'NR == 1 { l = h ": " $0; next }
		{ print l ","; l = "    " $0 } END { print l }'
}

# The body of a cover.txt: after its header and blank line, without
# trailing blank lines.
cover_body() {
	awk 'h { print } NR > 1 && /^$/ { h = 1 }' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# mime8 MAIL: declare UTF-8 if the mail has non-ASCII text
mime8() {
	if LC_ALL=C grep -q '[^[:print:][:space:]]' "$1" && ! grep -q '^Content-Type:' "$1"; then
		sed -i '0,/^$/s//MIME-Version: 1.0\nContent-Type: text\/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n/' "$1"
	fi
}

# --- the mails, group by group --------------------------------------------
rm -rf "$OUT"
mkdir -p "$OUT"
echo "scripts/outgoing.sh did not finish: these mails failed its checks. Do not send them." >"$OUT/NOT-FOR-SENDING"
rr=()
[ "$VERSION" = 1 ] || rr=(-v "$VERSION")
prev=() fails=() unsendable=()
for g in "${groups[@]}"; do
	kind=${gkind[$g]}
	[ "$kind" != none ] || continue
	d=$OUT/$g
	mkdir -p "$d"
	files=() ownfiles=()
	for p in ${gpatches[$g]}; do
		files+=("$PATCHES/$p")
		! own "$p" || ownfiles+=("$PATCHES/$p")
	done
	n=${#ownfiles[@]}
	{
		printf '%s\n' "$based_on"
		if [ ${#prev[@]} -gt 0 ]; then
			printf 'Applies after:\n'
			printf '  %s\n' "${prev[@]}"
		fi
	} >"$T/applies"
	if [ "$kind" = post ]; then
		git -C "$R" -c core.abbrev=12 format-patch -q --cover-letter --numbered "${rr[@]}" \
			--subject-prefix="${gprefix[$g]:-$PREFIX}" -o "$d" "${gfirst[$g]}..${gend[$g]}" >/dev/null
		cover=$(ls "$d"/*0000-cover-letter.patch)
		{ cover_body "$PATCHES/$g/cover.txt"; echo; cat "$T/applies"; } >"$T/body"
		awk -v subj="${gsubject[$g]}" -v bodyf="$T/body" '
			/^Subject: / && (k = index($0, "*** SUBJECT HERE ***")) {
				print substr($0, 1, k - 1) subj substr($0, k + 20); next }
			$0 == "*** BLURB HERE ***" { while ((getline l < bodyf) > 0) print l; next }
			{ print }' "$cover" >"$T/cover" && mv "$T/cover" "$cover"
		mime8 "$cover"
		prev+=("[${gprefix[$g]:-$PREFIX}${rr[1]:+ v$VERSION} 0/$n] ${gsubject[$g]}")
	else
		# The reply, then our patches in the posting's thread.
		msgid=${gmsgid[$g]:-}
		reply=$d/0000-reply.eml
		{
			printf 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n'
			printf 'From: %s\n' "$ident"
			printf 'Subject: %s\n' "${gsubject[$g]}"
			[ -z "$msgid" ] || printf 'In-Reply-To: <%s>\nReferences: <%s>\n' "$msgid" "$msgid"
			echo
			cover_body "$PATCHES/$g/cover.txt"
			echo
			printf '%s\n' "$based_on"
			echo
			printf -- '-- \n%s\n' "$ident"
		} >"$reply"
		inr=()
		[ -z "$msgid" ] || inr=(--in-reply-to="<$msgid>")
		git -C "$R" -c core.abbrev=12 format-patch -q "${inr[@]}" "$([ "$n" -gt 1 ] && echo --numbered || echo --no-numbered)" \
			--subject-prefix="$PREFIX" -o "$d" "${gfirst[$g]}..${gend[$g]}" >/dev/null
		# What the patches were run on, under the "---" (git am drops
		# it): the project's port of the posting, not the posting.
		for m in "$d"/0*.patch; do
			awk -v p="${gposting[$g]}" -v af="$T/applies" '!done && /^---$/ {
				print; print "This tests " p "."
				print "Run on the project'"'"'s port of it, where it fails without the"
				print "port and passes with it; not yet run on the posting itself."
				while ((getline l < af) > 0) print l
				print ""; done = 1; next } { print }' "$m" >"$T/mail" && mv "$T/mail" "$m"
		done
		[ -n "$msgid" ] || unsendable+=("$g: the posting's Message-ID is not known (Origin: ${gposting[$g]}): the reply and patches are not in its thread; record its lore URL in Origin: and re-run")
		[ -n "${gto[$g]}" ] || unsendable+=("$g: no address for the posting's author (To: in patches/$TREE/$g/cover.txt)")
		add_recipients "$reply" "${gto[$g]}" "${files[@]}"
		mime8 "$reply"
		for s in $(git -C "$R" rev-list --reverse "${gfirst[$g]}..${gend[$g]}"); do prev+=("$(git -C "$R" log -1 --format=%s "$s")"); done
	fi
	while IFS= read -r h; do
		[ -z "$h" ] || unsendable+=("$g: $h (Hold: in patches/$TREE/$g/cover.txt)")
	done <<<"${ghold[$g]}"
	# To:/Cc: per patch from its own files (the posting's author, for
	# our patches on someone's posting, first in To:).
	i=0
	for m in "$d"/*.patch; do
		case $m in
		*0000-cover-letter.patch) add_recipients "$m" "" "${files[@]}" ;;
		*) add_recipients "$m" "$([ "$kind" = post ] || printf '%s' "${gto[$g]}")" "${ownfiles[$i]}"; i=$((i + 1)) ;;
		esac
	done

	# Checks: checkpatch on the patches, the cover filled in, no DEP-3.
	for m in "$d"/*; do
		! grep -qE '^(Origin|Forwarded|Applied-Upstream|Last-Update): ' "$m" ||
			fails+=("$m: carries a DEP-3 field (they stay in patches/)")
		case $m in
		*0000-cover-letter.patch)
			! grep -q '\*\*\* .* HERE \*\*\*' "$m" || fails+=("$m: template text left in the cover letter")
			grep -q '^To: ' "$m" || fails+=("$m: no To: (get_maintainer.pl named nobody?)")
			continue ;;
		*.eml) continue ;;
		esac
		o=$(checkpatch_strict "$KERNEL_SRC" "$m") || fails+=("$m: checkpatch --strict:
$(printf '%s\n' "$o" | sed 's/^/      /')")
	done
done
if [ ${#fails[@]} -gt 0 ]; then
	printf '  %s\n' "${fails[@]}" >&2
	die "${#fails[@]} problem(s) in the mails under $OUT" "fix the patch or cover.txt named above and re-run make outgoing"
fi

# --- self-test: the mails, the ports as carried between, on the base ------
V=$T/selftest
clone_base "$V"
nm=0
for g in "${groups[@]}"; do
	for p in ${gpatches[$g]}; do own "$p" || am "$V" "$PATCHES/$p"; done
	[ "${gkind[$g]}" != none ] || continue
	for m in "$OUT/$g"/*.patch; do
		case $m in *0000-cover-letter.patch) continue ;; esac
		am "$V" "$m"
		nm=$((nm + 1))
	done
done
[ "$(git -C "$V" rev-parse "HEAD^{tree}")" = "$(git -C "$R" rev-parse "HEAD^{tree}")" ] ||
	die "self-test: the mails applied give another tree than the series" "report this"
say "self-test: git am of $nm mail(s), the ported patches between them, onto a fresh clone of $base ($base_desc): ok, same tree as the series"

# --- report ----------------------------------------------------------------
rm -f "$OUT/NOT-FOR-SENDING"
{
	[ -n "$SENDER" ] || printf '%s\n' "These mails are signed off by \"$PROJECT_IDENT\"," \
		"which is not a person and cannot certify the DCO. Do not send them." \
		"Re-run with SENDER='Your Name <you@example.org>' make outgoing."
	[ ${#unsendable[@]} = 0 ] || printf '%s\n' "${unsendable[@]}"
} >"$T/nfs"
[ ! -s "$T/nfs" ] || cp "$T/nfs" "$OUT/NOT-FOR-SENDING"
for g in "${groups[@]}"; do
	[ "${gkind[$g]}" != none ] || continue
	say "$g (${gkind[$g]}): $(ls "$OUT/$g" | wc -l) mail(s)"
	(cd "$WORK" && ls -1 "outgoing/$g/"* | sed 's/^/    /')
done
[ -z "$BASE_FALLBACK" ] || warn "based on $base_desc, not $BASE_NAME: $BASE_FALLBACK"
for u in "${unsendable[@]}"; do warn "not ready to send: $u"; done
if [ -z "$SENDER" ]; then
	warn "SENDER is not set: every mail is authored and signed off by '$PROJECT_IDENT'."
	warn "That is not a person: these mails are for review only and MUST NOT be sent as they are."
	warn "To send: SENDER='Your Name <you@example.org>' make outgoing, then git send-email."
elif [ ${#unsendable[@]} = 0 ]; then
	say "send with: git send-email $OUT/<group>/*   (one group, one thread, at a time; a reply first)"
else
	say "send only the groups $OUT/NOT-FOR-SENDING does not name: git send-email $OUT/<group>/*"
fi
