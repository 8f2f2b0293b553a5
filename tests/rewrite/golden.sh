#!/bin/sh
# Rewrite golden files: the instrumented text of SRC_DIR/NAME.c, from its
# descriptors (or the fall-through marker's definition before them) on (the
# preamble's first part is the runtime header, tested elsewhere), must
# equal DIR/NAME.kpath.c, which a person reviewed once.
# To accept a reviewed change: run this script, review the diff, then copy
# WORK/NAME.kpath.c into DIR.
# usage: golden.sh KPATH DIR SRC_DIR WORK
set -u
kpath=$1 dir=$2 src_dir=$3 work=$4
mkdir -p "$work" || exit 1
status=0 n=0
for want in "$dir"/*.kpath.c; do
	name=$(basename "$want" .kpath.c)
	(cd "$src_dir" && "$kpath" instrument "$name.c" -o "$work/$name.out.c") 2>"$work/$name.log" ||
		{ cat "$work/$name.log"; status=1; continue; }
	n=$((n + 1))
	sed -n "/^#if defined(__has_attribute)\$\|^static const unsigned \|^#line 1 /,\$p" "$work/$name.out.c" |
		sed -e "s|$work/||" -e "s/^#line [0-9][0-9]* \"$name.out.c\"/#line N \"$name.out.c\"/" >"$work/$name.kpath.c"
	if diff -u "$want" "$work/$name.kpath.c"; then echo "ok: $name"; else echo "FAIL: $name"; status=1; fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no golden file found"; status=1; }
exit $status
