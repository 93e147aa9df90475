#!/bin/bash
# Mail-ready postings of the series, one per patch group (make outgoing).
#
# For each group (a directory under patches/, in series order) writes
# $WORK/outgoing/<group>/ : a git format-patch series with a cover letter
# "[PATCH vN 0/M] <summary>" (no "vN" for N=1, as the kernel does),
# To:/Cc: from the tree's get_maintainer.pl, and base-commit: (plus, for
# groups after the first, prerequisite-patch-id: lines naming the groups
# below it). Every mail but the cover letters must pass the tree's
# checkpatch.pl --strict; at the end all mails are applied with git am to
# a fresh clone of the base commit, and the result must be the series.
#
# The cover letter of a group comes from patches/<group>/cover.txt:
#   Subject: <one-line summary, ASCII>
#   <empty line>
#   <body, copied as is: summary paragraph(s); the A/B table, under a
#    line starting "A/B"; from v2 on a "Changes since v<N-1>" section>
#
# The base commit is a git import of the pinned tarball, made once into
# $WORK/outgoing-base.git with a fixed author, date and message, so its id
# is the same on every machine. The groups are applied on it with git am,
# in series order, each on the one before.
#
# VERSION=N    reroll count (default 1)
# PREFIX=RFC   subject prefix (default PATCH; e.g. "RFC PATCH")
# SENDER='Name <email>'  the person who sends: becomes the author of the
#              project's patches (whose author, the project identity, is
#              not a person and cannot sign the DCO), and adds their
#              Signed-off-by. Without it the mails are for review only.
set -eu
. "$(dirname "$0")/lib.sh"
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
[ "$SENDER" != "$PROJECT_IDENT" ] ||
	die "SENDER is the project identity, which is not a person" "SENDER='Your Name <you@example.org>'"
[ "$PINNED" = 1 ] ||
	die "outgoing posts against the pinned tree; KERNEL_SRC=$KERNEL_SRC is set" "unset KERNEL_SRC"
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

# --- the groups and their cover letters --------------------------------
series_load
want=("${SERIES[@]}")
[ ${#want[@]} -gt 0 ] || die "the series is empty: nothing to post"
groups=()
declare -A gpatches
for p in "${want[@]}"; do
	g=${p%/*}
	[ "$g" != "$p" ] || die "patch $p is in no group directory" "move it to patches/<group>/ and fix patches/series"
	if [ -z "${gpatches[$g]:-}" ]; then
		groups+=("$g")
	elif [ "${groups[${#groups[@]} - 1]}" != "$g" ]; then
		die "group $g is split in patches/series (its patches must be consecutive)" "reorder patches/series"
	fi
	gpatches[$g]="${gpatches[$g]:-} $p"
done

T=$(mktemp -d "$WORK/.outgoing.XXXXXX")
trap 'rm -rf "$T"' EXIT

missing=() bad=()
declare -A gsubject
for g in "${groups[@]}"; do
	c=$PATCHES/$g/cover.txt
	if [ ! -f "$c" ]; then missing+=("$c"); continue; fi
	s=$(sed -n '1s/^Subject: *//p' "$c")
	why=
	[ -n "$s" ] || why="$why line 1 is not 'Subject: <summary>';"
	case $s in *'[PATCH'*|*'[RFC'*) why="$why the subject has a [PATCH ...] prefix (outgoing.sh adds it);" ;; esac
	! printf '%s' "$s" | LC_ALL=C grep -q '[^ -~]' || why="$why the subject is not ASCII;"
	[ -z "$(sed -n 2p "$c")" ] || why="$why line 2 is not empty;"
	tail -n +3 "$c" | grep -q '[^[:space:]]' || why="$why no summary paragraph;"
	tail -n +3 "$c" | grep -q '^A/B' || why="$why no A/B table (a line starting 'A/B', from make bench);"
	if [ "$VERSION" -gt 1 ]; then
		grep -q "^Changes since v$((VERSION - 1))" "$c" ||
			why="$why no 'Changes since v$((VERSION - 1))' section (VERSION=$VERSION);"
	fi
	! grep -qE '^Changes since v([0-9]+)' "$c" ||
		[ "$(sed -nE 's/^Changes since v([0-9]+).*/\1/p' "$c" | sort -n | tail -1)" -lt "$VERSION" ] ||
		why="$why a 'Changes since' section for v$VERSION or later (is VERSION=$VERSION right?);"
	! grep -qE 'MEASURED-RESULTS|TODO|XXX|FIXME|\*\*\* .* \*\*\*' "$c" || why="$why a placeholder (TODO/XXX/FIXME/MEASURED-RESULTS/*** ***);"
	[ -z "$why" ] || bad+=("$c:$why")
	gsubject[$g]=$s
done
[ ${#missing[@]} = 0 ] ||
	die "missing cover letter file(s):$(printf '\n  %s' "${missing[@]}")" \
		"write each as: 'Subject: <summary>', an empty line, the summary paragraph, the A/B table under a line starting 'A/B', and (from v2 on) 'Changes since v<N-1>:' (header of scripts/outgoing.sh)"
[ ${#bad[@]} = 0 ] || die "cover letter(s) not ready:$(printf '\n  %s' "${bad[@]}")" "fix the file(s) named above"

# --- the base commit -----------------------------------------------------
stamp=$BASE_GIT/zswap-stack-base
base=
if [ -f "$stamp" ] && read -r sum base <"$stamp" && [ "$sum" = "$PIN_SHA256" ] &&
   git --git-dir="$BASE_GIT" cat-file -e "$base^{commit}" 2>/dev/null; then
	say "base: $base ($PIN_PKG $PIN_VERSION, cached in $BASE_GIT)"
else
	[ -f "$PIN_TARBALL" ] || die "no $PIN_TARBALL" "make tree"
	say "checking sha256 of $PIN_TARBALL"
	[ "$(sha256sum "$PIN_TARBALL" | cut -d' ' -f1)" = "$PIN_SHA256" ] ||
		die "checksum mismatch for $PIN_TARBALL" "make tree"
	say "importing $PIN_TARBALL into $BASE_GIT (once: ~90k files, 1.5 GB extracted, 3-15 minutes)"
	rm -rf "$BASE_GIT.tmp" "$WORK/outgoing-base.src"
	mkdir -p "$WORK/outgoing-base.src"
	t_imp=$(date +%s)
	step() { say "  base import [$1/4] $2 ($(($(date +%s) - t_imp)) s so far)"; }
	step 1 "extracting the tarball"
	tar -C "$WORK/outgoing-base.src" -xf "$PIN_TARBALL" ||
		die "extracting $PIN_TARBALL failed (disk full?)" "df -h $WORK"
	git init -q --bare "$BASE_GIT.tmp"
	imp() { GIT_DIR=$BASE_GIT.tmp GIT_WORK_TREE=$WORK/outgoing-base.src/$PIN_TOPDIR \
		GIT_INDEX_FILE=$BASE_GIT.tmp/import-index git -c core.looseCompression=1 "$@"; }
	step 2 "adding $(find "$WORK/outgoing-base.src/$PIN_TOPDIR" -type f | wc -l) files to git"
	# A line every 10000 files: minutes of silence read as a hang.
	(set -o pipefail; cd "$WORK/outgoing-base.src/$PIN_TOPDIR" && imp add -f -A --verbose . |
		awk 'NR % 10000 == 0 { printf "==>     %d files added\n", NR; fflush() }') ||
		die "git add of the base tree failed"
	step 3 "writing the base commit"
	tree=$(imp write-tree)
	base=$(printf 'Debian %s %s\n\nThe files of %s from the Debian package %s %s\n(sha256 %s),\nimported by scripts/outgoing.sh.\n' \
		"$PIN_PKG" "$PIN_VERSION" "$(basename "$PIN_TARBALL")" "$PIN_PKG" "$PIN_VERSION" "$PIN_SHA256" |
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
	echo "$PIN_SHA256 $base" >"$BASE_GIT.tmp/zswap-stack-base"
	rm -rf "$BASE_GIT"
	mv "$BASE_GIT.tmp" "$BASE_GIT"
	say "base: $base ($PIN_PKG $PIN_VERSION; imported in $(($(date +%s) - t_imp)) s)"
fi

# A fresh clone of the base commit in DIR, checked out only where the
# series touches (git am works on the index; the rest stays unchecked).
clone_base() {
	git clone -q --shared --no-checkout "$BASE_GIT" "$1"
	"$S/check-apply.sh" --list-files | sed 's|^|/|' | git -C "$1" sparse-checkout set --no-cone --stdin
	git -C "$1" checkout -q -b outgoing "$base"
}

# --- apply the groups ----------------------------------------------------
R=$T/repo
clone_base "$R"
declare -A gend naddr
for g in "${groups[@]}"; do
	for p in ${gpatches[$g]}; do
		out=$(git -C "$R" am -q --committer-date-is-author-date "$PATCHES/$p" 2>&1) || {
			printf '%s\n' "$out" | sed 's/^/    /' >&2
			die "git am of $p failed on the base + the patches before it" \
				"make series (does it apply at fuzz 0?); a patch must be a git format-patch mail"
		}
		[ -n "$SENDER" ] || continue
		author=$(git -C "$R" log -1 --format='%an <%ae>')
		msg=$(git -C "$R" log -1 --format=%B)
		if [ "$author" = "$PROJECT_IDENT" ]; then
			# A list cannot certify the DCO: the sender takes the patch over.
			author=$SENDER
			msg=$(printf '%s\n' "$msg" | grep -vxF "Signed-off-by: $PROJECT_IDENT")
		fi
		printf '%s\n' "$msg" | git -C "$R" interpret-trailers --trailer "Signed-off-by: $SENDER" |
			GIT_COMMITTER_DATE=$(git -C "$R" log -1 --format=%aD) \
			git -C "$R" commit -q --amend --no-verify --cleanup=whitespace --author="$author" -F -
	done
	gend[$g]=$(git -C "$R" rev-parse HEAD)
done

# Add To: (maintainers) and Cc: (reviewers, lists; not already in To:)
# from get_maintainer.pl on the patch files to MAIL's header.
add_recipients() {
	local m=$1 to cc
	shift
	to=$(cd "$KERNEL_SRC" && ./scripts/get_maintainer.pl "${GM_FLAGS[@]}" --m --no-r --no-l "$@")
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

# --- one format-patch series per group ------------------------------------
rm -rf "$OUT"
mkdir -p "$OUT"
echo "scripts/outgoing.sh did not finish: these mails failed its checks. Do not send them." >"$OUT/NOT-FOR-SENDING"
rr=()
[ "$VERSION" = 1 ] || rr=(-v "$VERSION")
from=$base prev=() fails=()
for g in "${groups[@]}"; do
	d=$OUT/$g
	files=()
	for p in ${gpatches[$g]}; do files+=("$PATCHES/$p"); done
	git -C "$R" -c core.abbrev=12 format-patch -q --cover-letter --numbered --base="$base" "${rr[@]}" \
		--subject-prefix="$PREFIX" -o "$d" "$from..${gend[$g]}" >/dev/null
	cover=$(ls "$d"/*0000-cover-letter.patch)
	# To:/Cc: per mail: each patch its own, the cover letter all of them
	i=0
	for m in "$d"/*.patch; do
		case $m in
		*0000-cover-letter.patch) add_recipients "$m" "${files[@]}" ;;
		*) add_recipients "$m" "${files[$i]}"; i=$((i + 1)) ;;
		esac
	done
	naddr[$g]=$(awk '/^$/ { exit } /@/' "$cover" | wc -l)

	# The body: cover.txt after its subject, then where the series applies.
	{
		tail -n +3 "$PATCHES/$g/cover.txt" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
		echo
		printf "Based on Debian's %s %s; the base-commit below\n" "$PIN_PKG" "$PIN_VERSION"
		printf 'is a git import of its tarball.\n'
		if [ ${#prev[@]} -gt 0 ]; then
			printf '\nApplies on top of (the prerequisite-patch-id lines below):\n'
			printf '  %s\n' "${prev[@]}"
		fi
	} >"$T/body"
	awk -v subj="${gsubject[$g]}" -v bodyf="$T/body" '
		/^Subject: / && (k = index($0, "*** SUBJECT HERE ***")) {
			print substr($0, 1, k - 1) subj substr($0, k + 20); next }
		$0 == "*** BLURB HERE ***" { while ((getline l < bodyf) > 0) print l; next }
		{ print }' "$cover" >"$T/cover" && mv "$T/cover" "$cover"
	if LC_ALL=C grep -q '[^[:print:][:space:]]' "$T/body" && ! grep -q '^Content-Type:' "$cover"; then
		sed -i '0,/^$/s//MIME-Version: 1.0\nContent-Type: text\/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n/' "$cover"
	fi
	n=$(set -- ${gpatches[$g]}; echo $#)
	prev+=("[$PREFIX${rr[1]:+ v$VERSION} 0/$n] ${gsubject[$g]}")

	# Checks: checkpatch on the patches, the cover filled in.
	for m in "$d"/*.patch; do
		case $m in *0000-cover-letter.patch)
			! grep -q '\*\*\* .* HERE \*\*\*' "$m" || fails+=("$m: template text left in the cover letter")
			grep -q "^base-commit: $base\$" "$m" || fails+=("$m: no base-commit: $base")
			grep -q '^To: ' "$m" || fails+=("$m: no To: (get_maintainer.pl named nobody?)")
			continue ;;
		esac
		o=$(checkpatch_strict "$KERNEL_SRC" "$m") || fails+=("$m: checkpatch --strict:
$(printf '%s\n' "$o" | sed 's/^/      /')")
	done
	from=${gend[$g]}
done
if [ ${#fails[@]} -gt 0 ]; then
	printf '  %s\n' "${fails[@]}" >&2
	die "${#fails[@]} problem(s) in the mails under $OUT" "fix the patch or cover.txt named above and re-run make outgoing"
fi

# --- self-test: all mails, in order, onto a fresh clone of the base ------
V=$T/selftest
clone_base "$V"
mails=()
for g in "${groups[@]}"; do
	for m in "$OUT/$g"/*.patch; do
		case $m in *0000-cover-letter.patch) ;; *) mails+=("$m") ;; esac
	done
done
out=$(git -C "$V" am -q "${mails[@]}" 2>&1) || {
	printf '%s\n' "$out" | sed 's/^/    /' >&2
	die "self-test: git am of the ${#mails[@]} outgoing mails onto a fresh clone of $base failed" "report this"
}
[ "$(git -C "$V" rev-parse "HEAD^{tree}")" = "$(git -C "$R" rev-parse "HEAD^{tree}")" ] ||
	die "self-test: the mails applied give another tree than the series" "report this"
say "self-test: git am of ${#mails[@]} mail(s) onto a fresh clone of $base: ok, same tree as the series"

# --- report ----------------------------------------------------------------
rm -f "$OUT/NOT-FOR-SENDING"
if [ -z "$SENDER" ]; then
	cat >"$OUT/NOT-FOR-SENDING" <<-EOF
	These mails are signed off by "$PROJECT_IDENT",
	which is not a person and cannot certify the DCO. Do not send them.
	Re-run with SENDER='Your Name <you@example.org>' make outgoing.
	EOF
fi
for g in "${groups[@]}"; do
	say "$g: $(ls "$OUT/$g" | wc -l) mail(s) to ${naddr[$g]} address(es) from get_maintainer.pl"
	(cd "$WORK" && ls -1 "outgoing/$g/"*.patch | sed 's/^/    /')
done
if [ -z "$SENDER" ]; then
	warn "SENDER is not set: every mail is authored and signed off by '$PROJECT_IDENT'."
	warn "That is not a person: these mails are for review only and MUST NOT be sent as they are."
	warn "To send: SENDER='Your Name <you@example.org>' make outgoing, then git send-email."
else
	say "send with: git send-email $OUT/<group>/*.patch   (one group, one thread, at a time)"
fi
