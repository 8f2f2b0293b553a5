#!/usr/bin/env python3
"""tests/overlapmode/overlap_e2e.py: `kpath instrument --mode overlap` is
sound and exact where it must be, and changes nothing a program computes.

usage: overlap_e2e.py --kpath KPATH --src ROOT [--degrees 0,1,2] [--bench-scale F]
                      [--table4] [--quiet] PROGRAM...

PROGRAM is ROOT-relative: corpus/NAME.c, corpus/bench/NAME.c (run on its
quick scale from corpus/bench/MANIFEST times --bench-scale), or any other
C file (run without arguments).  For each program and each degree:
  1. the native build and the overlap build (`--mode overlap --degree D`,
     compiled with $CC, default cc) give the same output and exit status;
  2. the overlap build runs with KPATH_K=2, so its profile holds both the
     OL counts and the exact two-iteration counts (the k-IPF's level 2);
  3. `kpath overlap check P.json P.json --json` passes: every lower bound
     <= the exact count <= every upper bound, bounds equal to the exact
     count at each loop's maximum overlap, and every OL count equal to the
     sum of the exact counts of its interesting paths (equation 2);
     (a loop the run left in mid-iteration, corpus/exit_status.c's exit(3)
     from a live activation, is reported as unfinished and not checked;
     any other program with one fails);
  4. the profile validates against docs/kpath-profile.schema.json when
     python3-jsonschema is there.
Last, each program again at degree 64 (every loop at its maximum overlap
unless a function's OL IDs do not fit): the check must find the bounds exact.

--table4: PROGRAM is tests/overlapmode/table4.c; the loop at line 10 must
give Table 5's bounds (docs/overlap.md: OL-1 as equations 7-8 give it).
Exit 0 when everything passed and some loop had flow.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile


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


# Table 5 (lower, upper) per pair of loop paths, loop paths named by the
# lines of tests/overlapmode/table4.c: 1 = P1 B1 P3, 2 = P1 P2 B2 P3, 3 = P1 P2 B3 P3.
T4_PATH = {(10, 12, 17, 18): 1, (10, 13, 14, 17, 18): 2, (10, 13, 16, 17, 18): 3}
T4_REAL = {(1, 1): 250, (1, 3): 250, (2, 2): 250, (2, 3): 250}
T4_BOUNDS = {
    0: {(1, 1): (0, 250), (1, 2): (0, 250), (1, 3): (0, 500), (2, 1): (0, 250), (2, 2): (0, 250), (2, 3): (0, 500)},
    1: {(1, 1): (250, 250), (1, 2): (0, 250), (1, 3): (0, 250), (2, 2): (0, 250), (2, 3): (250, 500)},
    2: {(1, 1): (250, 250), (1, 3): (250, 250), (2, 2): (250, 250), (2, 3): (250, 250)},
}
T4_FLOW = {0: (0, 2000), 1: (500, 1500), 2: (1000, 1000)}


def check_table4(res, degree):
    loops = [l for f in res["functions"] if f["name"] == "loop" for l in f["loops"]]
    if len(loops) != 1:
        raise RuntimeError("table4: expected one loop in 'loop', got %d" % len(loops))
    l = loops[0]
    got, real = {}, {}
    for p in l["pairs"]:
        key = (T4_PATH[tuple(p["first"])], T4_PATH[tuple(p["second"])])
        if p["upper"]:
            got[key] = (p["lower"], p["upper"])
        if p["exact"]:
            real[key] = p["exact"]
    if got != T4_BOUNDS[degree] or real != T4_REAL or (l["definite"], l["potential"]) != T4_FLOW[degree] \
            or l["flow"] != 1000 or l["max_degree"] != 2:
        raise RuntimeError("table4 degree %d: bounds %s (definite %d, potential %d), exact %s; expected %s, %s"
                           % (degree, sorted(got.items()), l["definite"], l["potential"], sorted(real.items()),
                              sorted(T4_BOUNDS[degree].items()), T4_FLOW[degree]))


def validate(root, path):
    try:
        import jsonschema
    except ImportError:
        return
    schema = json.load(open(os.path.join(root, "docs", "kpath-profile.schema.json")))
    jsonschema.validate(json.load(open(path)), schema)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kpath", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--degrees", default="0,1,2")
    ap.add_argument("--bench-scale", type=float, default=1.0)
    ap.add_argument("--table4", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("programs", nargs="+")
    a = ap.parse_args()
    root = os.path.abspath(a.src)
    cc = os.environ.get("CC", "cc").split()
    libs = shlex.split(run([a.kpath, "config", "--libs"]).stdout.decode())
    degrees = [int(d) for d in a.degrees.split(",")] + [64]
    failures, flow_seen = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for prog in a.programs:
            src = os.path.join(root, prog)
            name = os.path.basename(prog)[:-2]
            bench = "/bench/" in prog
            flags = corpus_flags(root, name) if prog.startswith("corpus/") and not bench else []
            args = [str(max(1, int(bench_quick(root, name) * a.bench_scale)))] if bench else []
            try:
                native = os.path.join(tmp, name + ".native")
                r = run(cc + ["-w", src, "-o", native] + flags + ["-lm", "-lpthread"], cwd=os.path.dirname(src))
                if r.returncode:
                    raise RuntimeError("cc (native): " + r.stderr.decode()[-3000:])
                want = run([native] + args, cwd=tmp)
                for d in degrees:
                    c = os.path.join(tmp, "%s.ol%d.c" % (name, d))
                    exe, prof = c[:-2], c[:-2] + ".json"
                    r = run([a.kpath, "instrument", src, "--mode", "overlap", "--degree", str(d), "-o", c,
                             "--quiet", "--"] + flags)
                    if r.returncode:
                        raise RuntimeError("instrument (degree %d): %s" % (d, r.stderr.decode()[-3000:]))
                    r = run(cc + ["-w", c, "-o", exe] + flags + ["-lm"] + libs, cwd=os.path.dirname(src))
                    if r.returncode:
                        raise RuntimeError("cc (degree %d): %s" % (d, r.stderr.decode()[-3000:]))
                    e = dict(os.environ, KPATH_K="2", KPATH_OUT=prof)
                    got = run([exe] + args, env=e, cwd=tmp)
                    if (got.stdout, got.returncode) != (want.stdout, want.returncode):
                        raise RuntimeError("degree %d: output or exit status differs from the native build's "
                                           "(exit %d, native %d)" % (d, got.returncode, want.returncode))
                    validate(root, prof)
                    r = run([a.kpath, "overlap", "check", prof, prof, "--json"])
                    if r.returncode:
                        raise RuntimeError("degree %d: kpath overlap check: %s%s" % (d, r.stderr.decode()[-3000:],
                                                                                      r.stdout.decode()[-2000:]))
                    res = json.loads(r.stdout)
                    if res["unfinished_loops"] and name != "exit_status":
                        raise RuntimeError("degree %d: %d loops left in mid-iteration, but the program does not "
                                           "exit from inside a loop" % (d, res["unfinished_loops"]))
                    flow_seen += res["flow"]
                    if a.table4 and name == "table4" and d in T4_BOUNDS:
                        check_table4(res, d)
                    if not a.quiet:
                        print("%s degree %d: flow %d, definite %d (%+.1f%%), potential %d (%+.1f%%)"
                              % (prog, d, res["flow"], res["definite"], res["definite_imprecision"],
                                 res["potential"], res["potential_imprecision"]))
            except (RuntimeError, subprocess.TimeoutExpired, ValueError, KeyError) as ex:
                print("FAIL %s: %s" % (prog, ex))
                failures += 1
    if failures:
        print("%d program(s) failed" % failures)
        return 1
    if not flow_seen:
        print("FAIL: no loop of any program had flow: nothing was checked")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
