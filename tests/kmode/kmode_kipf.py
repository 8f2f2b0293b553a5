#!/usr/bin/env python3
"""tests/kmode/kmode_kipf.py: the kiter profile against the k-IPF of the same run.

usage: kmode_kipf.py --kpath KPATH --src ROOT --k K [--min-functions N] PROGRAM...

docs/kiter-paths.md, "Relation to the k-IPF at k = K": in a function with a
single loop, run at K, every k-iteration path is a sequence of 1..K
consecutive Ball-Larus paths of one activation, i.e. a node of the k-IPF
at k = K (the kiter paths are a subset of the k-IPF's sequences), and the
paths of exactly K Ball-Larus paths are the k-IPF's depth-K sequences, with
the same counts.  The rest (activations whose stream has fewer than K
paths) are shallower k-IPF sequences.

Each PROGRAM (ROOT-relative, flags from corpus/FLAGS as in kmode_e2e.py)
is built twice, `kpath instrument` (run with KPATH_K=K) and `kpath
instrument --mode kiter --kiter K`, both run on the same input.  Paths are
compared as line sequences (a kiter path's lines are its Ball-Larus paths'
lines, concatenated): for every function of the kiter profile with exactly
one loop, at K, (1) each kiter path's lines are those of some k-IPF
sequence of depth 1..K, and (2) for each depth-K sequence's lines, the
kiter paths with those lines count the same (at least the same where a
shallower sequence has the same lines).  Fails when a check fails or when
fewer than --min-functions functions were compared.
"""
import argparse
import collections
import importlib.util
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("kmode_e2e", os.path.join(HERE, "kmode_e2e.py"))
e2e = importlib.util.module_from_spec(spec)
spec.loader.exec_module(e2e)
sys.path.insert(0, os.path.join(HERE, "..", "report"))
import profile_form  # noqa: E402  (tests/report: a function's mode payload, /1 or /2)


def sequences(roots, k):
    """{depth: Counter(tuple of ids -> count)} of a k-IPF forest."""
    out = collections.defaultdict(collections.Counter)

    def walk(node, prefix):
        seq = prefix + (node["id"],)
        out[len(seq)][seq] += node["count"]
        for c in node["children"]:
            walk(c, seq)
    for r in roots:
        walk(r, ())
    assert max(out, default=0) <= k
    return out


def check_function(name, kf, bf, k):
    """Problems (list of str) of one function: kf kiter, bf kipf."""
    bl_lines = {p["id"]: tuple(p["lines"]) for p in bf["paths"]}
    seqs = sequences(bf["kipf"], k)

    def lines(seq):
        return sum((bl_lines[i] for i in seq), ())
    deep = collections.Counter()
    shallow = set()
    for d, cnt in seqs.items():
        for seq, c in cnt.items():
            if d == k:
                deep[lines(seq)] += c
            else:
                shallow.add(lines(seq))
    ki_lines = {p["id"]: tuple(p["lines"]) for p in kf["paths"]}
    got = collections.Counter()
    for n in kf["kipf"]:
        got[ki_lines[n["id"]]] += n["count"]
    bad = []
    for ls, c in got.items():
        if ls not in deep and ls not in shallow:
            bad.append("%s: kiter path %s (x%d) is no k-IPF sequence" % (name, list(ls), c))
    for ls, c in deep.items():
        if got[ls] != c and not (ls in shallow and got[ls] > c):
            bad.append("%s: lines %s: %d kiter paths, %d depth-%d k-IPF sequences" % (name, list(ls), got[ls], c, k))
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kpath", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--k", type=int, required=True)
    ap.add_argument("--min-functions", type=int, default=1)
    ap.add_argument("programs", nargs="+")
    a = ap.parse_args()
    cc = shlex.split(os.environ.get("CC", "cc"))
    libs = shlex.split(e2e.run([a.kpath, "config", "--libs"]).stdout.decode())
    compared, bad = 0, []
    with tempfile.TemporaryDirectory(prefix="kmode_kipf.") as tmp:
        for prog in a.programs:
            src = os.path.abspath(os.path.join(a.src, prog))
            name = os.path.basename(prog)[:-2]
            bench = "/bench/" in prog
            flags = ["-std=c11", "-O2"] if bench else e2e.corpus_flags(a.src, name)
            args = e2e.bench_quick(a.src, name) if bench else []
            prof = {}
            for mode in ("kipf", "kiter"):
                csrc = os.path.join(tmp, "%s.%s.c" % (name, mode))
                exe = csrc[:-2]
                opts = ["--mode", "kiter", "--kiter", str(a.k)] if mode == "kiter" else []
                r = e2e.run([a.kpath, "instrument", src, "-o", csrc, "--quiet"] + opts + ["--"] + flags)
                if r.returncode:
                    bad.append("%s: instrument (%s): %s" % (prog, mode, r.stderr.decode()))
                    break
                r = e2e.run(cc + ["-w", csrc, "-o", exe] + flags + ["-lm"] + libs, cwd=os.path.dirname(src))
                if r.returncode:
                    bad.append("%s: cc (%s): %s" % (prog, mode, r.stderr.decode()[:2000]))
                    break
                env = {v: x for v, x in os.environ.items() if not v.startswith("KPATH_")}
                prof[mode] = exe + ".json"
                env.update(KPATH_OUT=prof[mode], KPATH_K=str(a.k))
                e2e.run([exe] + args, env=env, cwd=tmp)
            if len(prof) < 2:
                continue
            kipf = {(f["name"], f["line"]): f for f in json.load(open(prof["kipf"]))["functions"]}
            for kf in json.load(open(prof["kiter"]))["functions"]:
                loops = profile_form.payload(kf, "kiter").get("loops", [])
                bf = kipf.get((kf["name"], kf["line"]))
                if len(loops) != 1 or loops[0]["k"] != a.k or "lowered" in loops[0] or not bf:
                    continue
                compared += 1
                bad += check_function("%s: %s" % (prog, kf["name"]), kf, bf, a.k)
    for b in bad:
        print("FAIL: " + b)
    print("kmode_kipf: K=%d: %d single-loop functions compared, %d failures" % (a.k, compared, len(bad)))
    if compared < a.min_functions:
        print("FAIL: fewer than %d functions compared" % a.min_functions)
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
