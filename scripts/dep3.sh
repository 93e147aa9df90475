# shellcheck shell=bash
# Where each patch came from and where it stands upstream: DEP-3 fields
# (https://dep-team.pages.debian.net/deps/dep3/) in the header of the
# patch mail, between Subject: and the blank line before the changelog.
# quilt and patch ignore them; git am drops them, so no mail that make
# outgoing writes carries them. Sourced by lint-series.sh, origins.sh and
# outgoing.sh. The project's use of the fields:
#
#   Origin: vendor                  the project's own patch
#   Origin: other, <posting>        a port of someone else's posting: its
#                                   lore URL, or its subject in quotes
#   Origin: backport, <commit URL>  a backport of a commit in another tree
#   Forwarded: no                   ours, not submitted yet
#   Forwarded: <URL>                ours, submitted there
#   Forwarded: not-needed           not ours to send: a port (its author
#                                   posts it), or a backport that stays here
#   Applied-Upstream: <tree>[, <URL>]   queued in mm-new, mm-unstable,
#                                   mm-stable or linux-next
#   Applied-Upstream: v<X.Y>[, commit:<id>]   merged in that release
#   Last-Update: YYYY-MM-DD         when the status was last checked
DEP3_QUEUE_TREES="mm-new mm-unstable mm-stable linux-next"

# dep3 FILE FIELD: the field's value from FILE's mail header (empty if
# absent). Only the header counts: a changelog line never does.
dep3() {
	awk -v f="$2" 'NR > 1 && /^$/ { exit }
		index($0, f ": ") == 1 { print substr($0, length(f) + 3); exit }' "$1"
}

# dep3_url VALUE: the lore Message-ID URL in an Origin/Forwarded value.
dep3_url() { printf '%s\n' "$1" | grep -oE 'https?://[^ ,)]+' | head -1 || true; }

# dep3_msgid URL: the Message-ID a lore URL names (.../list/<id>/).
dep3_msgid() {
	printf '%s\n' "$1" | sed -nE 's|^https?://lore\.kernel\.org/[^/]+/([^/]+@[^/]+)/?.*|\1|p'
}

# dep3_problems FILE: one line per thing wrong with FILE's fields;
# nothing when they are whole.
dep3_problems() {
	local f=$1 o fw au lu kind
	o=$(dep3 "$f" Origin) fw=$(dep3 "$f" Forwarded)
	au=$(dep3 "$f" Applied-Upstream) lu=$(dep3 "$f" Last-Update)
	[ -n "$o" ] || echo "no Origin: field (vendor, 'other, <posting>' or 'backport, <URL>')"
	[ -n "$fw" ] || echo "no Forwarded: field (no, not-needed or the URL it was sent to)"
	[ -n "$lu" ] || echo "no Last-Update: field (the date its status was last checked, YYYY-MM-DD)"
	kind=${o%%,*}
	case $o in
	''|vendor) ;;
	other,\ http*://*|other,\ \"*\"*|backport,\ http*://*) ;;
	*) echo "unknown Origin: '$o' (vendor, 'other, <lore URL or \"subject\">' or 'backport, <URL>')" ;;
	esac
	case $fw in
	''|no|not-needed|http://*|https://*) ;;
	*) echo "unknown status Forwarded: '$fw' (no, not-needed or a URL)" ;;
	esac
	case $au in
	'') ;;
	v[0-9]*.[0-9]*) ;;
	*) local t=${au%%,*}
	   case " $DEP3_QUEUE_TREES " in *" $t "*) ;;
	   *) echo "unknown status Applied-Upstream: '$au' (v<X.Y>[, commit:<id>] or one of: $DEP3_QUEUE_TREES, with a URL)" ;;
	   esac ;;
	esac
	[ -z "$lu" ] || date -d "$lu" +%F 2>/dev/null | grep -qx -- "$lu" ||
		echo "Last-Update: '$lu' is not a date (YYYY-MM-DD)"
	# Someone else's work is not ours to post: outgoing would send a
	# port as a new series under the project's name.
	if [ "$kind" = other ] || [ "$kind" = backport ]; then
		case $fw in no|http*)
			echo "Origin says '$kind' but Forwarded: $fw: make outgoing would post someone else's patch as ours (a port is Forwarded: not-needed)" ;;
		esac
	fi
	if [ "$o" = vendor ] &&
	   awk '/^---$/ { exit } 1' "$f" | grep -qiE "(is|ports|port of) (patch [0-9]+ of )?[A-Z][a-z]+ [A-Z][a-z]+'s \"|^This is patch [0-9]+ of "; then
		echo "the changelog says the patch ports another's posting, but Origin: vendor: make outgoing would post it as a new series (Origin: other, <posting>)"
	fi
	return 0
}

# dep3_status FILE: where the patch stands upstream, in a few words.
dep3_status() {
	local o fw au
	o=$(dep3 "$1" Origin) fw=$(dep3 "$1" Forwarded) au=$(dep3 "$1" Applied-Upstream)
	case $au in
	v[0-9]*) echo "merged in ${au%%,*}"; return ;;
	?*) echo "queued in ${au%%,*}"; return ;;
	esac
	case $o,$fw in
	vendor,no) echo "not submitted" ;;
	vendor,not-needed) echo "not for upstream" ;;
	vendor,http*) echo "submitted" ;;
	*) echo "posted by its author" ;;
	esac
}

# dep3_own FILE: true for the project's own patch.
dep3_own() { [ "$(dep3 "$1" Origin)" = vendor ]; }

# dep3_to_send FILE: true for our own patch that is for upstream.
dep3_to_send() { dep3_own "$1" && [ "$(dep3 "$1" Forwarded)" != not-needed ]; }

# dep3_group_kind FILE...: what make outgoing does with a patch group.
#   post       every patch is ours: a new series
#   reply      it ports a posting still in review (and maybe what that
#              needs from upstream): a reply on the posting's thread
#              with our results, our patches on top
#   follow-up  every port in it is queued or merged upstream: only our
#              patches on top, as follow-ups
#   none       nothing in it is ours to send
dep3_group_kind() {
	local f kind=post send=0
	for f in "$@"; do
		if dep3_own "$f"; then
			! dep3_to_send "$f" || send=1
		elif [ -z "$(dep3 "$f" Applied-Upstream)" ]; then
			kind=reply	# one port still in review makes it a reply
		elif [ $kind = post ]; then
			kind=follow-up
		fi
	done
	[ $send = 1 ] || kind=none
	echo $kind
}

# dep3_action FILE GROUP-KIND: what make outgoing does with the patch.
dep3_action() {
	if dep3_to_send "$1"; then
		case $2 in
		post) echo "posted: a new series" ;;
		reply) echo "sent on top of the posting, in its thread" ;;
		follow-up) echo "sent as a follow-up, in the queued series' thread" ;;
		esac
	elif dep3_own "$1"; then
		echo "not sent (Forwarded: not-needed)"
	elif [ -n "$(dep3 "$1" Applied-Upstream)" ]; then
		echo "not sent: $(dep3_status "$1")"
	else
		echo "not sent: results as a reply to the posting"
	fi
}
