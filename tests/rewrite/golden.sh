#!/bin/sh
# Rewrite golden files: the instrumented text of NAME.c, from its "#line 1"
# on (the preamble is the runtime header, tested elsewhere), must equal
# NAME.kpath.c, which a person reviewed once.
# To accept a reviewed change: run this script, review the diff, then copy WORK/NAME.kpath.c here.
# usage: golden.sh KPATH DIR WORK
set -u
kpath=$1 dir=$2 work=$3
mkdir -p "$work" || exit 1
cd "$dir" || exit 1
status=0
for src in *.c; do
	case $src in *.kpath.c) continue ;; esac
	name=${src%.c}
	"$kpath" instrument "$src" -o "$work/$name.out.c" 2>"$work/$name.log" || { cat "$work/$name.log"; status=1; continue; }
	sed -n "/^#line 1 /,\$p" "$work/$name.out.c" | sed -e "s|$work/||" -e "s/^#line [0-9][0-9]* \"$name.out.c\"/#line N \"$name.out.c\"/" >"$work/$name.kpath.c"
	if diff -u "$name.kpath.c" "$work/$name.kpath.c"; then echo "ok: $name"; else echo "FAIL: $name"; status=1; fi
done
exit $status
