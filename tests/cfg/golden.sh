#!/bin/sh
# CFG golden files: `kpath cfg NAME.c` must print exactly NAME.cfg (blocks
# with first lines, CFG edges with roles, DAG edges with Ball-Larus vals).
# To accept a reviewed change: kpath cfg NAME.c > NAME.cfg
# usage: golden.sh KPATH WORK DIR...   (every DIR/NAME.c that has a NAME.cfg)
set -u
kpath=$1 work=$2
shift 2
mkdir -p "$work" || exit 1
status=0 n=0
for dir in "$@"; do
	for cfg in "$dir"/*.cfg; do
		name=$(basename "$cfg" .cfg)
		(cd "$dir" && "$kpath" cfg "$name.c") >"$work/$name.cfg" 2>"$work/$name.err" ||
			{ cat "$work/$name.err"; status=1; continue; }
		n=$((n + 1))
		if diff -u "$cfg" "$work/$name.cfg"; then
			echo "ok: $name"
		else
			echo "FAIL: $name.cfg differs"
			status=1
		fi
	done
done
[ "$n" -gt 0 ] || { echo "FAIL: no golden file found"; status=1; }
exit $status
