#!/usr/bin/env python3
"""residual_check.py TESTS.json PROD.json RESULT.json: recomputes
`kpath residual --json` from the two raw profiles, independently of the C
code (level-1 k-IPF counts, functions matched by name, file, checksum), and
compares every function, row, count and summary figure.  Exit 1 on any
difference."""
import json
import sys


def level1(f):
    return {n["id"]: n["count"] for n in f["kipf"] if n["count"] > 0}


def main():
    tests, prod, res = (json.load(open(p)) for p in sys.argv[1:4])
    assert res["schema"] == "kpath-residual/1", res["schema"]
    by_name = {}
    for f in tests["functions"]:
        by_name.setdefault((f["name"], f["file"]), []).append(f)
    want = {}
    total = residual = 0
    ran = 0
    for f in prod["functions"]:
        runs = level1(f)
        flow = sum(runs.values())
        if flow == 0:
            continue
        ran += 1
        total += flow
        cands = by_name.get((f["name"], f["file"]), [])
        same = [g for g in cands if g["checksum"] == f["checksum"]]
        g = same[0] if same else (cands[0] if cands else None)
        if g is None or sum(level1(g).values()) == 0:
            status, tested = "not_run_by_tests", set()
        elif g["checksum"] != f["checksum"]:
            status, tested = "code_changed", set()
        else:
            status, tested = "compared", set(level1(g))
        rows = sorted(((c, i) for i, c in runs.items() if i not in tested), key=lambda r: (-r[0], r[1]))
        if rows:
            want[(f["name"], f["file"], f["checksum"])] = (status, flow, rows)
            residual += sum(c for c, _ in rows)
    got = {}
    for f in res["functions"]:
        rows = [(r["count"], r["id"]) for r in f["rows"]]
        got[(f["name"], f["file"], f["checksum"])] = (f["status"], f["flow"], rows)
        assert f["residual_paths"] == len(rows), f
        assert f["residual_flow"] == sum(c for c, _ in rows), f
        paths = {p["id"]: p["lines"] for p in next(
            g for g in prod["functions"] if (g["name"], g["file"], g["checksum"]) ==
            (f["name"], f["file"], f["checksum"]))["paths"]}
        for r in f["rows"]:
            assert r["lines"] == paths.get(r["id"]), (r, paths.get(r["id"]))
    ok = True
    if got != want:
        print("functions differ:\n  got  %s\n  want %s" % (got, want))
        ok = False
    order = [f["residual_flow"] for f in res["functions"]]
    if order != sorted(order, reverse=True):
        print("functions not sorted by residual flow")
        ok = False
    s = res["summary"]
    exp = {"residual_paths": sum(len(v[2]) for v in want.values()), "residual_functions": len(want),
           "functions_run": ran, "prod_flow": total, "residual_flow": residual}
    for k, v in exp.items():
        if s[k] != v:
            print("summary %s: got %s, want %s" % (k, s[k], v))
            ok = False
    share = 100.0 * residual / total if total else 0.0
    if abs(s["residual_share"] - share) > 1e-9 or abs(s["tested_share"] - (100.0 - share if total else 100.0)) > 1e-9:
        print("shares differ: %s" % s)
        ok = False
    if "gate" in res:
        passed = total == 0 or (total - residual) * 100 >= res["gate"]["fail_under"] * total
        if res["gate"]["passed"] != passed:
            print("gate: got %s, want %s" % (res["gate"]["passed"], passed))
            ok = False
    if not want and not got and ran == 0:
        print("nothing compared: PROD ran no function")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
