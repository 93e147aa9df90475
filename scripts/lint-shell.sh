#!/bin/bash
# lint-shell.sh [FILE...]: shellcheck, warnings and errors, over the
# project's shell scripts (default: all of them): bash for scripts/,
# .ci/run and the host tests; POSIX sh for the guest's scripts, which
# busybox runs. .shellcheckrc makes it follow the files a script sources.
# Prints TAP, one line per file, and a closing count line.
set -eu
. "$(dirname "$0")/lib.sh"
need shellcheck
cd "$TOP"
if [ $# = 0 ]; then
	set -- scripts/*.sh .ci/run tests/host/*.sh tests/bench/*.sh
	for f in tests/guest/* tests/guest/tests/*; do
		[ -f "$f" ] && head -1 "$f" | grep -q '^#!/bin/sh' && set -- "$@" "$f"
	done
fi
pass=0 fail=0 i=0
echo "TAP version 13"
echo "1..$#"
for f in "$@"; do
	i=$((i + 1))
	sh=bash
	head -1 "$f" | grep -q '^#!/bin/sh' && sh='sh'
	if out=$(shellcheck -s "$sh" -S warning -f gcc "$f" 2>&1); then
		echo "ok $i shellcheck $f"; pass=$((pass + 1))
	else
		echo "not ok $i shellcheck $f"; fail=$((fail + 1))
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done
echo "$pass passed, $fail failed, 0 skipped"
[ $fail = 0 ]
