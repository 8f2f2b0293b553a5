#!/usr/bin/env python3
"""Exact k-IPF counts for the papers' examples, instrumented as real C.

usage: papers_e2e.py PROFILE SOURCE FUNCTION EXPECTED
Each profile path is decoded to the letters/digits written in a comment on
its source lines (lines without a name are ignored), so the check does not
depend on our numbering.  EXPECTED is a Python literal: a dict from tuples of
block-name strings (one per Ball-Larus path) to counts, listing every node of
the k-IPF; the profile's k-IPF must equal it exactly.
"""
import ast, json, os, re, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report"))
import validate_profile  # noqa: E402  (JSON Schema check of the profile)

prof_path, src_path, fname, expected_lit = sys.argv[1:5]
if expected_lit.startswith("ngrams:"):
    # "ngrams:K:P1,P2,...": every n-gram (n <= K) of this one activation's
    # sequence of Ball-Larus paths, counted by brute force.
    _, k, seq = expected_lit.split(":")
    seq = seq.split(",")
    expected = {}
    for n in range(1, int(k) + 1):
        for i in range(len(seq) - n + 1):
            t = tuple(seq[i:i + n])
            expected[t] = expected.get(t, 0) + 1
else:
    expected = ast.literal_eval(expected_lit)
names = {}
for no, line in enumerate(open(src_path), 1):
    m = re.search(r"/\* ([A-Z0-9]) \*/", line)
    if m:
        names[no] = m.group(1)
prof = json.load(open(prof_path))
schema_errors = validate_profile.validate(prof, prof_path)
assert not schema_errors, schema_errors[:5]
assert prof["schema"] == "kpath-profile/2", prof["schema"]
fn = [f for f in prof["functions"] if f["name"] == fname]
assert len(fn) == 1, "function %s not in profile" % fname
fn = fn[0]
assert fn["invalid_paths"] == 0
lines = {p["id"]: p["lines"] for p in fn["paths"]}
def blocks(pid):
    return "".join(names[l] for l in lines[pid] if l in names)
got = {}
def walk(nodes, prefix):
    for n in nodes:
        seq = prefix + (blocks(n["id"]),)
        assert seq not in got, "duplicate node %s" % (seq,)
        got[seq] = n["count"]
        walk(n["children"], seq)
walk(fn["kipf"], ())
ok = True
for seq in sorted(set(got) | set(expected)):
    if got.get(seq) != expected.get(seq):
        print("MISMATCH %-40s profile %s expected %s" % ("-".join(seq), got.get(seq), expected.get(seq)))
        ok = False
print("%s: %d k-IPF nodes %s" % (fname, len(got), "match the paper" if ok else "DIFFER"))
sys.exit(0 if ok else 1)
