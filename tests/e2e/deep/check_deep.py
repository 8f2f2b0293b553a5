#!/usr/bin/env python3
"""check_deep.py PROFILE SOURCE N: the exact profile of deep.c run with N.

down(N): one activation per n in 0..N, each one path: DOWN_BASE once,
DOWN_THREE for the n in 1..N divisible by 3, DOWN_OTHER for the rest.
walk(N): N + 1 activations, each the stream (entry to loop head) (one
iteration) (second iteration, out to WALK_TAIL or, for n = 0, WALK_BASE):
every count of the k-IPF follows from N."""
import json
import sys

prof, src, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
marks = {}
for i, line in enumerate(open(src), 1):
    for m in ("DOWN_BASE", "DOWN_THREE", "DOWN_OTHER", "WALK_BASE", "WALK_TAIL"):
        if "/* %s */" % m in line:
            marks[m] = i
fns = {f["name"]: f for f in json.load(open(prof))["functions"]}
bad = []


def ids_ending(f, line):
    return [p["id"] for p in f["paths"] if p["lines"] and p["lines"][-1] == line]


def root_counts(f):
    return {x["id"]: x["count"] for x in f["kipf"]}


down = fns["down"]
rc = root_counts(down)
want = {"DOWN_BASE": 1, "DOWN_THREE": n // 3, "DOWN_OTHER": n - n // 3}
for m, c in want.items():
    got = sum(rc.get(i, 0) for i in ids_ending(down, marks[m]))
    if got != c:
        bad.append("down %s: %d, expected %d" % (m, got, c))
if down.get("invalid_paths"):
    bad.append("down: invalid paths")
walk = fns["walk"]
if walk.get("invalid_paths"):
    bad.append("walk: invalid paths")
rc = root_counts(walk)
tail = ids_ending(walk, marks["WALK_TAIL"])
base = ids_ending(walk, marks["WALK_BASE"])
got_tail = sum(rc.get(i, 0) for i in tail)
got_base = sum(rc.get(i, 0) for i in base)
if got_tail != n or got_base != 1:
    bad.append("walk: %d tail-call returns and %d base returns, expected %d and 1" % (got_tail, got_base, n))
# each activation's stream is its own: the entry path starts exactly N + 1
# streams, and the triple (entry, iteration, end) is counted N + 1 times
entry = [x for x in walk["kipf"] if any(p["id"] == x["id"] and p["lines"][0] == walk["line"] for p in walk["paths"])]
if sum(x["count"] for x in entry) != n + 1:
    bad.append("walk: %d activation starts, expected %d" % (sum(x["count"] for x in entry), n + 1))
ends = sum(g["count"] for x in entry for c in x["children"] for g in c["children"] if g["id"] in tail + base)
if json.load(open(prof))["k"] >= 3:
    if ends != n + 1:
        bad.append("walk: %d whole activations in the k-IPF, expected %d" % (ends, n + 1))
for b in bad:
    print("FAIL: deep_recursion: " + b)
print("check_deep: %s" % ("OK" if not bad else "%d failure(s)" % len(bad)))
sys.exit(1 if bad else 0)
