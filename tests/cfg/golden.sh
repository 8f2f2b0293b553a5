#!/bin/sh
# CFG golden files: `kpath cfg NAME.c` must print exactly NAME.cfg (blocks
# with first lines, CFG edges with roles, DAG edges with Ball-Larus vals).
# To accept a reviewed change: kpath cfg NAME.c > NAME.cfg
# usage: golden.sh KPATH GOLDEN_DIR WORK
set -u
kpath=$1 dir=$2 work=$3
mkdir -p "$work" || exit 1
status=0
cd "$dir" || exit 1
for src in *.c; do
	name=${src%.c}
	"$kpath" cfg "$src" >"$work/$name.cfg" 2>"$work/$name.err" || { cat "$work/$name.err"; status=1; continue; }
	if diff -u "$name.cfg" "$work/$name.cfg"; then
		echo "ok: $name"
	else
		echo "FAIL: $name.cfg differs"
		status=1
	fi
done
exit $status
