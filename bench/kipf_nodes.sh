#!/bin/sh
# k-IPF size against k for one corpus program: instruments it, runs it with
# k = 1, 2, 4, 8, 16 and prints, per k, the number of k-IPF nodes (all
# functions), the deepest level reached and the run time.
# usage: bench/kipf_nodes.sh [PROGRAM]   (default: nested_loops; run from the repo root after a build)
set -eu
name=${1:-nested_loops}
root=$(cd "$(dirname "$0")/.." && pwd)
kpath=$root/build/bin/kpath
work=$root/build/bench/kipf_nodes
mkdir -p "$work"
cd "$root/corpus"
flags=$(sed -n "s/^$name:[ ]*//p" FLAGS)
# shellcheck disable=SC2086
"$kpath" instrument --quiet "$name.c" -o "$work/$name.kpath.c" -- $flags 2>/dev/null
# shellcheck disable=SC2046,SC2086
cc -std=c11 -O2 "$work/$name.kpath.c" $flags -o "$work/$name" $("$kpath" config --libs)
printf '| k | k-IPF nodes | deepest level | seconds |\n| --- | --- | --- | --- |\n'
for k in 1 2 4 8 16; do
	rm -f "$work/p$k.json"
	start=$(date +%s.%N)
	KPATH_K=$k KPATH_OUT="$work/p$k.json" "$work/$name" >/dev/null
	end=$(date +%s.%N)
	python3 - "$work/p$k.json" "$k" "$start" "$end" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
def walk(ns, d):
    n, m = 0, 0
    for x in ns:
        c, dd = walk(x["children"], d + 1)
        n += 1 + c
        m = max(m, d, dd)
    return n, m
nodes = depth = 0
for f in p["functions"]:
    c, d = walk(f["kipf"], 1)
    nodes += c
    depth = max(depth, d)
print("| %s | %d | %d | %.3f |" % (sys.argv[2], nodes, depth, float(sys.argv[4]) - float(sys.argv[3])))
PY
done
