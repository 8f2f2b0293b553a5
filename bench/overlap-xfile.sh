#!/bin/sh
# bench/overlap-xfile.sh [BUILD] [N]: the cost of --mode overlap's calls
# across files (docs/overlap-mode.md, "Calls across files", Measured):
# bench/xfile/xbench_a.c calling xbench_b.c N times (default 200000),
# callgrind instructions of the native build, the default mode (k = 1),
# overlap at degree 1 with the two files apart (sites across files) and
# with the same code in one file (same-file sites).  Needs valgrind.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
n=${2:-200000}
kpath=$build/bin/kpath
cc=${CC:-cc}
src=$here/bench/xfile
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
libs=$("$kpath" config --libs)
cat "$src/xbench_b.c" "$src/xbench_a.c" > one.c
$cc -O2 "$src/xbench_a.c" "$src/xbench_b.c" -o native
for f in a b; do
	"$kpath" instrument "$src/xbench_$f.c" -o k1_$f.c --quiet 2>/dev/null
	"$kpath" instrument "$src/xbench_$f.c" --mode overlap --degree 1 -o ol_$f.c --quiet 2>/dev/null
done
"$kpath" instrument one.c --mode overlap --degree 1 -o ol_one.c --quiet 2>/dev/null
$cc -O2 k1_a.c k1_b.c -o k1 $libs
$cc -O2 ol_a.c ol_b.c -o across $libs
$cc -O2 ol_one.c -o same $libs
want=$(./native "$n")
ir() {
	out=$(KPATH_OUT=$1.json valgrind --tool=callgrind --callgrind-out-file=$1.cg ./$1 "$n" 2>/dev/null)
	[ "$out" = "$want" ] || { echo "overlap-xfile: $1: output differs from native" >&2; exit 1; }
	callgrind_annotate $1.cg 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}'
}
base=$(ir native)
printf '%-34s %14s %8s\n' "build ($n iterations)" instructions "x native"
for b in native k1 across same; do
	i=$(ir $b)
	printf '%-34s %14s %8s\n' "$b" "$i" "$(echo "scale=2; $i / $base" | bc)"
done
"$kpath" overlap estimate across.json | grep "call line"
