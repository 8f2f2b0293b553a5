#!/usr/bin/env python3
"""commands_check.py: the checks of tests/report/commands.sh that need more
than cmp and grep.  Exit status 1 with "FAIL: ..." lines on failure.

  commands_check.py brute K MERGED TRACE...
      MERGED's k is K and, per function, its k-IPF equals the n-gram counts
      (n = 1..K, per activation) recomputed from the traces and summed; its
      emitted equals the traces' path records.  Brute force for merging
      profiles of different k (merge.c).
  commands_check.py conflict MERGED ONE OTHER FUNC
      MERGED holds FUNC twice (ONE's and OTHER's checksums), each with its
      own input's forest (never summed); every other function is the sum
      of ONE's and OTHER's.
  commands_check.py paths PATHS_JSON PROFILE
      for every function of PATHS_JSON (kpath paths --json), every ID the
      profile decodes has the same lines, and the checksum agrees.
  commands_check.py json FILE SCHEMA
      FILE parses as JSON and its "schema" is SCHEMA.
"""
import json
import os
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, HERE)
import kpcheck  # noqa: E402  (trace reader, n-gram counting)
import validate_profile  # noqa: E402

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def load(path):
    with open(path) as f:
        doc = json.load(f)
    for e in validate_profile.validate(doc, path):
        fail(e)
    return doc


def forest(fn):
    return kpcheck.forest_counts(fn.get("kipf", []))


def cmd_brute(k, merged, traces):
    prof = load(merged)
    if prof["k"] != k:
        fail("%s: k %r, expected %d" % (merged, prof["k"], k))
    want = defaultdict(lambda: defaultdict(int))
    emitted = defaultdict(int)
    for t in traces:
        tr = kpcheck.Trace(t)
        for fi, f in enumerate(tr.funcs):
            key = (f["name"], f["file"])
            for seq, c in kpcheck.ngram_forest(tr, fi, f["num_paths"], k).items():
                want[key][seq] += c
            emitted[key] += sum(c for s, c in kpcheck.ngram_forest(tr, fi, f["num_paths"], 1).items())
    got = {(fn["name"], fn["file"]): fn for fn in prof["functions"]}
    if set(got) != set(want) and set(want) - set(got):
        fail("functions %s in the traces, not in %s" % (sorted(set(want) - set(got)), merged))
    for key, fn in sorted(got.items()):
        g = forest(fn)
        w = dict(want.get(key, {}))
        if g != w:
            d = [(s, w.get(s), g.get(s)) for s in sorted(set(g) | set(w)) if g.get(s) != w.get(s)]
            fail("%s: %s: k-IPF != n-gram counts of the traces at k=%d: %d differences (seq, brute, merged) %s"
                 % (merged, key, k, len(d), d[:5]))
        if fn["emitted"] != emitted.get(key, 0):
            fail("%s: %s: emitted %r, traces %r" % (merged, key, fn["emitted"], emitted.get(key, 0)))
    print("brute: %d functions, %d sequences checked at k=%d" % (len(got), sum(len(forest(f)) for f in got.values()), k))


def cmd_conflict(merged, one, other, func):
    m, a, b = load(merged), load(one), load(other)
    fa = {(f["name"], f["file"]): f for f in a["functions"]}
    fb = {(f["name"], f["file"]): f for f in b["functions"]}
    mine = [f for f in m["functions"] if f["name"] == func]
    if len(mine) != 2:
        fail("%s: %d entries for %s, expected 2 (kept separate)" % (merged, len(mine), func))
        return
    key = (func, mine[0]["file"])
    by_sum = {f["checksum"]: f for f in mine}
    for src in (fa[key], fb[key]):
        f = by_sum.get(src["checksum"])
        if f is None:
            fail("%s: no %s with checksum %s" % (merged, func, src["checksum"]))
        elif forest(f) != forest(src) or f["emitted"] != src["emitted"]:
            fail("%s: %s (checksum %s) was summed with the other version" % (merged, func, src["checksum"]))
    for f in m["functions"]:
        if f["name"] == func:
            continue
        k = (f["name"], f["file"])
        want = defaultdict(int)
        for src in (fa.get(k), fb.get(k)):
            for s, c in (forest(src) if src else {}).items():
                want[s] += c
        if forest(f) != dict(want):
            fail("%s: %s is not the sum of the inputs" % (merged, f["name"]))
    if m["runs"] != a["runs"] + b["runs"]:
        fail("%s: runs %r" % (merged, m["runs"]))
    print("conflict: %s kept twice, %d other functions summed" % (func, len(m["functions"]) - 2))


def cmd_paths(paths_json, profile):
    with open(paths_json) as f:
        pj = json.load(f)
    if pj.get("schema") != "kpath-paths/1":
        fail("%s: schema %r" % (paths_json, pj.get("schema")))
    prof = load(profile)
    n = 0
    for lf in pj["functions"]:
        pf = [f for f in prof["functions"] if f["name"] == lf["name"] and f["file"] == lf["file"]]
        if len(pf) != 1:
            fail("%s: function %s not in %s" % (paths_json, lf["name"], profile))
            continue
        pf = pf[0]
        if pf["checksum"] != lf["checksum"] or pf["num_paths"] != lf["num_paths"]:
            fail("%s: checksum/num_paths %s/%s, profile %s/%s" % (lf["name"], lf["checksum"], lf["num_paths"],
                                                                pf["checksum"], pf["num_paths"]))
        static = {p["id"]: p["lines"] for p in lf["paths"]}
        if sorted(static) != list(range(lf["num_paths"])):
            fail("%s: IDs listed are not exactly 0..%d" % (lf["name"], lf["num_paths"] - 1))
        for p in pf["paths"]:
            n += 1
            if static.get(p["id"]) != p["lines"]:
                fail("%s: path %d: kpath paths says %r, the profile %r" % (lf["name"], p["id"],
                                                                          static.get(p["id"]), p["lines"]))
    print("paths: %d executed paths agree with the static listing" % n)


def cmd_json(path, schema):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: not JSON: %s" % (path, e))
        return
    if doc.get("schema") != schema:
        fail("%s: schema %r, expected %r" % (path, doc.get("schema"), schema))


def cmd_linecounts(show_json, func, expect):
    """kpath show --json: each LINE=COUNT of expect holds exactly (COUNT
    '-' for a line without a count)."""
    with open(show_json) as f:
        doc = json.load(f)
    fns = [f for f in doc.get("functions", []) if f.get("name") == func]
    if len(fns) != 1:
        fail("%s: %d functions named %s" % (show_json, len(fns), func))
        return
    got = {r["line"]: r["count"] for r in fns[0]["lines"]}
    for e in expect:
        line, count = e.split("=")
        want = None if count == "-" else int(count)
        if got.get(int(line), "absent") != want:
            fail("%s: %s line %s count %r, expected %r" % (show_json, func, line, got.get(int(line), "absent"), want))


def cmd_strip_spans(src, dst):
    """Writes src without the paths' spans (a profile from before spans)."""
    doc = load(src)
    for f in doc["functions"]:
        for p in f["paths"]:
            p.pop("spans", None)
    with open(dst, "w") as out:
        json.dump(doc, out)


def main():
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == "brute":
        cmd_brute(int(a[1]), a[2], a[3:])
    elif len(a) == 5 and a[0] == "conflict":
        cmd_conflict(*a[1:])
    elif len(a) == 3 and a[0] == "paths":
        cmd_paths(*a[1:])
    elif len(a) == 3 and a[0] == "json":
        cmd_json(*a[1:])
    elif len(a) >= 3 and a[0] == "linecounts":
        cmd_linecounts(a[1], a[2], a[3:])
    elif len(a) == 3 and a[0] == "strip_spans":
        cmd_strip_spans(*a[1:])
    else:
        print(__doc__)
        sys.exit(2)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
