#!/bin/bash
# make clean, clean-tree and distclean: remove what the project made,
# only from a work directory it made (lib.sh's is_workdir), and never
# under a running make (each takes the locks of what it removes).
#   clean       TREE's build/, logs/ and results/ (keeps the extracted tree)
#   clean-tree  TREE's extracted pinned tree (make tree extracts it again)
#   distclean   WORK_ROOT whole: both trees, the downloads
set -eu
. "$(dirname "$0")/lib.sh"
what=${1:?usage: clean.sh clean|clean-tree|distclean}

# mine VAR: stop unless the directory in VAR (WORK, WORK_ROOT) is a
# work directory of the project.
mine() {
	is_workdir "${!1}" ||
		die "$1=${!1} is not a work directory of this project (no $WORK_MARK in it): nothing removed" \
			"check $1=; if the project made it before it marked its work directories: touch ${!1}/$WORK_MARK, then make $what again"
}

case $what in
clean|clean-tree)
	[ -d "$WORK" ] || { say "nothing to remove: no $WORK"; exit 0; }
	mine WORK
	lock "$WORK/.lock" "make in $WORK"
	if [ "$what" = clean ]; then
		rm -rf "$WORK/build" "$WORK/logs" "$WORK/results"
		say "removed $WORK/build, logs/ and results/"
		exit 0
	fi
	[ "$PINNED" = 1 ] ||
		die "clean-tree removes the pinned tree; KERNEL_SRC=$KERNEL_SRC is yours" "unset KERNEL_SRC"
	# The stamp first: from then on make tree and make series both see
	# no tree, and an interrupted clean-tree is one make tree repairs.
	# The tree leaves in one rename, where make tree removes leftovers.
	rm -f "$WORK/.tree-extracted"
	rm -rf "$WORK/.extract.tmp"
	[ ! -e "$KERNEL_SRC" ] || mv -T "$KERNEL_SRC" "$WORK/.extract.tmp"
	rm -rf "$WORK/.extract.tmp"
	say "removed the pinned $TREE tree ($KERNEL_SRC); make tree TREE=$TREE extracts it again"
	;;
distclean)
	[ -d "$WORK_ROOT" ] || { say "nothing to remove: no $WORK_ROOT"; exit 0; }
	mine WORK_ROOT
	# Every lock under it (a make, check-series, deb, outgoing), held
	# until the directory is gone.
	while read -r l; do
		exec {fd}<"$l"
		flock -n "$fd" || die "a make is running in $(dirname "$l") (lock: $l): nothing removed" "wait for it, then make distclean again"
	done < <(find "$WORK_ROOT" -maxdepth 3 -type f \( -name .lock -o -name '.*-lock' -o -name '.*.lock' \))
	rm -rf "$WORK_ROOT"
	say "removed $WORK_ROOT"
	;;
*) die "unknown clean target '$what'" "clean, clean-tree or distclean" ;;
esac
