#!/bin/sh
# CFG golden files: `kpath cfg NAME.c` must print exactly NAME.cfg (blocks
# with first lines, CFG edges with roles, DAG edges with Ball-Larus vals).
# To accept a reviewed change: kpath cfg NAME.c > NAME.cfg
# usage: golden.sh KPATH WORK DIR...   (every DIR/NAME.c; a NAME.c without
# its NAME.cfg fails: each input pins its CFG, since a CFG that is
# consistently wrong still numbers its paths validly)
#        golden.sh --stage S KPATH WORK DIR...   (`kpath cfg --stage S NAME.c`
# must print exactly NAME.S, for each stage S of cfgbuild/stages.h)
set -u
stage= ext=cfg
if [ "$1" = --stage ]; then
	stage=$2 ext=$2
	shift 2
fi
kpath=$1 work=$2
shift 2
mkdir -p "$work" || exit 1
status=0 n=0
for dir in "$@"; do
	for src in "$dir"/*.c; do
		name=$(basename "$src" .c) cfg="$dir/$(basename "$src" .c).$ext"
		if [ ! -f "$cfg" ]; then
			echo "FAIL: $src has no golden file (review, then: cd $dir && kpath cfg ${stage:+--stage $stage }$name.c > $name.$ext)"
			status=1
			continue
		fi
		(cd "$dir" && "$kpath" cfg ${stage:+--stage "$stage"} "$name.c") >"$work/$name.$ext" 2>"$work/$name.err" ||
			{ cat "$work/$name.err"; status=1; continue; }
		n=$((n + 1))
		if diff -u "$cfg" "$work/$name.$ext"; then
			echo "ok: $name"
		else
			echo "FAIL: $name.$ext differs"
			status=1
		fi
	done
done
[ "$n" -gt 0 ] || { echo "FAIL: no golden file found"; status=1; }
exit $status
