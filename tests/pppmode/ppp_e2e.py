#!/usr/bin/env python3
"""tests/pppmode/ppp_e2e.py: `kpath instrument --mode ppp` is exact.

usage: ppp_e2e.py --kpath KPATH --src ROOT [--top P] [--k K] [--bench-scale F] PROGRAM...

PROGRAM is corpus/NAME.c or corpus/bench/NAME.c (ROOT-relative).  Input A
and input B: a bench program's quick scale (corpus/bench/MANIFEST, times
--bench-scale) and
twice it; a corpus program has no input, so A = B (then --top P, the
hottest paths covering P% of each function's flow, keeps the interesting
set a strict subset).  For each program:
  1. the default build (k = 1 counts) runs on A -> A.json and on B -> B.json;
  2. `kpath instrument --mode ppp --interesting A.json [--interesting-top P]`
     is built and run on B -> P.json; its output and exit status must be
     the native build's;
  3. path for path, for every function: P's k-IPF equals B's (B and P run
     with KPATH_K=K, default 1: at K >= 2 the sequences too); in a
     ppp function, ppp_paths (with their counts) + ppp_residual is exactly
     B's paths, every ppp_paths ID is in A's interesting set, and every path
     of B in that set is in ppp_paths (none is lost to the residual side
     unless the slot limit demoted it); ppp_interesting is |A's set| (or
     the --top selection's size).
The compiler is $CC (default cc).  Exit 0 when every program passed and at
least one function was profiled in ppp mode.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report"))
import profile_form  # noqa: E402  (tests/report: a function's mode payload, /1 or /2)


def corpus_flags(root, name):
    for line in open(os.path.join(root, "corpus", "FLAGS")):
        line = line.strip()
        if line and not line.startswith("#") and line.split(":")[0] == name:
            flags, out = shlex.split(line.split(":", 1)[1]), []
            for i, f in enumerate(flags):
                if f == "-I":
                    continue
                if i and flags[i - 1] == "-I":
                    f = "-I" + f
                out.append("-I" + os.path.join(root, "corpus", f[2:]) if f.startswith("-I") else f)
            return out
    return []


def bench_quick(root, name):
    for line in open(os.path.join(root, "corpus", "bench", "MANIFEST")):
        f = line.split()
        if f and not f[0].startswith("#") and f[0] == name:
            return int(f[2])
    raise SystemExit("%s: not in corpus/bench/MANIFEST" % name)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600, **kw)


def level1(f):
    return {int(n["id"]): int(n["count"]) for n in f["kipf"] if int(n["count"])}


def funcs(path):
    return {(f["name"], f["file"]): f for f in json.load(open(path))["functions"]}


def top_ids(counts, pct):
    """ppp_select_top: count desc, id asc, until pct% of the flow."""
    order = sorted(counts, key=lambda i: (-counts[i], i))
    total, acc, keep = sum(counts.values()), 0, []
    if pct is None:
        return set(order)
    for i in order:
        if pct <= 0 or acc * 100 >= pct * total:
            break
        keep.append(i)
        acc += counts[i]
    return set(keep)


def forest(nodes):
    return sorted((int(n["id"]), int(n["count"]), forest(n.get("children", []))) for n in nodes)


def check(prog, A, B, P, top, stats):
    errs = []
    for key, fb in B.items():
        fp = P.get(key)
        if fp is None:
            errs.append("%s: missing from the ppp profile" % (key,))
            continue
        if forest(fb["kipf"]) != forest(fp["kipf"]):
            errs.append("%s: the k-IPFs differ" % key[0])
        b, p = level1(fb), level1(fp)
        if b != p:
            errs.append("%s: level-1 counts differ: k=1 %s, ppp %s" % (key[0], sorted(b.items())[:8], sorted(p.items())[:8]))
        if fp.get("mode") != "ppp":
            stats["plain"] += 1
            continue
        stats["ppp"] += 1
        pp = profile_form.payload(fp, "ppp")
        fa = A.get(key)
        want = top_ids(level1(fa), top) if fa else set()
        pi = {int(q["id"]): int(q["count"]) for q in pp["paths"]}
        res = {int(q["id"]): int(q["count"]) for q in pp["residual"]}
        stats["interesting_counted"] += sum(pi.values())
        stats["residual_counted"] += sum(res.values())
        if pp["interesting"] != len(want):
            errs.append("%s: ppp_interesting %d, |I| from A %d" % (key[0], pp["interesting"], len(want)))
        if set(pi) - want:
            errs.append("%s: ppp_paths not in A's set: %s" % (key[0], sorted(set(pi) - want)[:8]))
        if set(pi) & set(res):
            errs.append("%s: a path both interesting and residual" % key[0])
        joined = {i: c for i, c in list(pi.items()) + list(res.items()) if c}
        if joined != b:
            errs.append("%s: ppp_paths + ppp_residual != k=1 paths" % key[0])
        demoted = pp["slots"] < pp["interval"]
        lost = [i for i in b if i in want and i not in pi]
        if lost and not demoted:
            errs.append("%s: interesting paths counted as residual: %s" % (key[0], lost[:8]))
    return errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kpath", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--top", type=float)
    ap.add_argument("--bench-scale", type=float, default=1.0,
                    help="input A of a bench program: its quick scale times this (B is twice A)")
    ap.add_argument("--k", default="1", help="KPATH_K of the B runs: at k >= 2 the whole k-IPF must be equal")
    ap.add_argument("programs", nargs="+")
    a = ap.parse_args()
    cc = os.environ.get("CC", "cc").split()
    root = os.path.abspath(a.src)
    libs = shlex.split(run([a.kpath, "config", "--libs"]).stdout.decode())
    bad = 0
    stats = {"ppp": 0, "plain": 0, "interesting_counted": 0, "residual_counted": 0}
    with tempfile.TemporaryDirectory(prefix="pppmode.") as tmp:
        for prog in a.programs:
            src = os.path.join(root, prog)
            name = os.path.basename(prog)[:-2]
            bench = "/bench/" in prog
            flags = ["-std=c11", "-O2"] if bench else corpus_flags(root, name)
            sa = max(1, int(bench_quick(root, name) * a.bench_scale)) if bench else 0
            inA, inB = ([str(sa)], [str(2 * sa)]) if bench else ([], [])
            env = {k: v for k, v in os.environ.items() if not k.startswith("KPATH_")}
            env["KPATH_K"] = "1"
            envB = dict(env, KPATH_K=a.k)

            def build(variant, extra):
                c = os.path.join(tmp, "%s.%s.c" % (name, variant))
                r = run([a.kpath, "instrument", src, "-o", c, "--quiet"] + extra + ["--"] + flags)
                if r.returncode:
                    raise RuntimeError("kpath instrument (%s): %s" % (variant, r.stderr.decode()[-3000:]))
                exe = c[:-2]
                r = run(cc + ["-w", c, "-o", exe] + flags + ["-lm"] + libs, cwd=os.path.dirname(src))
                if r.returncode:
                    raise RuntimeError("cc (%s): %s" % (variant, r.stderr.decode()[-3000:]))
                return exe

            def go(exe, args, out, e=env):
                e = dict(e)
                if out:
                    e["KPATH_OUT"] = out
                r = run([exe] + args, env=e, cwd=tmp)
                return r.returncode, r.stdout

            try:
                native = os.path.join(tmp, name + ".native")
                r = run(cc + ["-w", src, "-o", native] + flags + ["-lm"], cwd=os.path.dirname(src))
                if r.returncode:
                    raise RuntimeError("cc (native): " + r.stderr.decode()[-3000:])
                k1 = build("k1", [])
                pa, pb, pp = (os.path.join(tmp, "%s.%s.json" % (name, x)) for x in "ABP")
                go(k1, inA, pa)
                outB = go(k1, inB, pb, envB)
                top = ["--interesting-top", str(a.top)] if a.top is not None else []
                ppp = build("ppp", ["--mode", "ppp", "--interesting", pa] + top)
                outP = go(ppp, inB, pp, envB)
                if outB != go(native, inB, None) or outP != outB:
                    raise RuntimeError("the instrumented outputs differ from the native one")
                errs = check(prog, funcs(pa), funcs(pb), funcs(pp), a.top, stats)
            except RuntimeError as e:
                errs = [str(e)]
            for e in errs[:20]:
                print("%s: %s" % (prog, e))
            bad += bool(errs)
            print("%s: %s" % (prog, "FAIL" if errs else "ok"))
    print("ppp_e2e: %d functions in ppp mode, %d plain; %d interesting and %d residual path executions counted"
          % (stats["ppp"], stats["plain"], stats["interesting_counted"], stats["residual_counted"]))
    print("ppp_e2e: %d of %d programs failed" % (bad, len(a.programs)))
    if not stats["ppp"]:
        print("ppp_e2e: no function was profiled in ppp mode")
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
