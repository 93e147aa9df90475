#!/bin/bash
# make origins: the table of TREE's series: each patch, where it came
# from, where it stands upstream (DEP-3 fields, scripts/dep3.sh), when
# that was last checked, and what make outgoing does with it.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-series.sh"
. "$TOP/scripts/dep3.sh"
series_load
declare -A members
for p in "${SERIES[@]}"; do members[${p%/*}]+=" $PATCHES/$p"; done
printf '# %s series (%s)\n' "$TREE" "$PATCHES"
printf '%s\t%s\t%s\t%s\t%s\n' patch origin "upstream status" checked "make outgoing"
for p in "${SERIES[@]}"; do
	f=$PATCHES/$p
	# shellcheck disable=SC2086
	kind=$(dep3_group_kind ${members[${p%/*}]})
	o=$(dep3 "$f" Origin)
	case $o in vendor) o="the project's own" ;; other,*) o="port of ${o#other, }" ;; esac
	printf '%s\t%s\t%s\t%s\t%s\n' "$p" "$o" "$(dep3_status "$f")" "$(dep3 "$f" Last-Update)" "$(dep3_action "$f" "$kind")"
done
