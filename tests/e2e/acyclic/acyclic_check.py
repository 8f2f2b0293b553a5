#!/usr/bin/env python3
"""acyclic_check.py: exact counts of tests/e2e/acyclic/acyclic.c.

  acyclic_check.py profile PROFILE.json K
      every acyclic helper's k-IPF is its Ball-Larus counts (roots only, at
      any K), path by path (a path is named by its decoded lines, so the
      check does not depend on the numbering), emitted and invalid_paths;
      the two loop functions (cursor ABI) completed their known number of
      paths
  acyclic_check.py trace TRACE
      each activation of a helper is one ENTER and one LEAVE with the path
      it took, and there are as many as calls, path by path
Exit status 0 = pass, 1 = fail.
"""
import collections
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import kpcheck  # noqa: E402

# function -> {lines of the path: activations that took it}
HELPERS = {
    "is_digit": {(13,): 2, (13, 16): 10},        # ' ' '-' ; "x1223333" + the worker's 3
    "rotr": {(19,): 5},
    "fib": {(24, 28): 7, (24, 27): 8},           # fib(5): 15 calls, 8 of them base cases
    "sign": {(31, 35, 37): 1, (31, 35, 36): 2, (31, 34): 7},  # x = -2..3, the worker's 4
    "check": {(40,): 2, (40, 43): 1},            # the third call longjmps out
}
# cursor functions: paths completed
LOOPS = {"main": 22, "worker": 8}

fails = []


def fail(msg):
    fails.append(msg)
    print("FAIL: " + msg)


def check_profile(path, k):
    with open(path) as f:
        prof = json.load(f)
    if prof.get("k") != k:
        fail("%s: k %r, expected %d" % (path, prof.get("k"), k))
    fns = {f["name"]: f for f in prof["functions"]}
    for name, want in HELPERS.items():
        f = fns.get(name)
        if f is None:
            fail("%s: no function %s" % (path, name))
            continue
        lines = {p["id"]: tuple(p["lines"]) for p in f["paths"]}
        got = {}
        for root in f["kipf"]:
            if root.get("children"):
                fail("%s: %s: path %d has children (an acyclic function's k-IPF has depth 1)"
                     % (path, name, root["id"]))
            got[lines.get(root["id"], ("id", root["id"]))] = root["count"]
        if got != want:
            fail("%s: %s: counts by path lines %r, expected %r" % (path, name, got, want))
        total = sum(want.values())
        if f["emitted"] != total or f["invalid_paths"] != 0:
            fail("%s: %s: emitted %r invalid %r, expected %d and 0"
                 % (path, name, f["emitted"], f["invalid_paths"], total))
    for name, n in LOOPS.items():
        if name not in fns or fns[name]["emitted"] != n:
            fail("%s: %s: emitted %r, expected %d" % (path, name, fns.get(name, {}).get("emitted"), n))
    if prof.get("dropped"):
        fail("%s: %d events dropped" % (path, prof["dropped"]))


def check_trace(path):
    t = kpcheck.Trace(path)
    acts = collections.defaultdict(collections.Counter)
    for key, seq in t.seqs.items():
        fn = t.funcs[t.act_func[key]]
        if fn["name"] not in HELPERS:
            continue
        if len(seq) != 1 or key not in t.done:
            fail("%s: an activation of %s has records %r (left: %s), expected one LEAVE"
                 % (path, fn["name"], seq, key in t.done))
            continue
        acts[fn["name"]][seq[0]] += 1
    names = {f["name"]: f for f in t.funcs}
    for name, want in HELPERS.items():
        # the trace names paths by ID only: the activations per ID must be the
        # expected counts (the profile check ties them to lines)
        got = acts.get(name, collections.Counter())
        if sorted(got.values()) != sorted(want.values()):
            fail("%s: %s: activations per path %r, expected counts %r"
                 % (path, name, dict(got), sorted(want.values())))
        if name not in names:
            fail("%s: no F chunk for %s" % (path, name))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "profile":
        check_profile(sys.argv[2], int(sys.argv[3]))
    elif len(sys.argv) == 3 and sys.argv[1] == "trace":
        check_trace(sys.argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 2
    if not fails:
        print("acyclic_check: %s ok" % sys.argv[2])
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
