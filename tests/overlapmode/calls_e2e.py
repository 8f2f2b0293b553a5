#!/usr/bin/env python3
"""tests/overlapmode/calls_e2e.py: the calls of `kpath instrument --mode
overlap` (Type I / II paths, docs/overlap-mode.md "Calls") checked against
the exact counts a trace of the same run gives (calls_trace.py).

usage: calls_e2e.py --kpath KPATH --src ROOT [--degrees 0,1,2] [--no-max] [--random N]
                    [--random-xfile N] [--seed S] [--bench-scale F] [--fig2] [--no-oracle] [--summary FILE] [--quiet]
                    [PROGRAM...]

PROGRAM as for overlap_e2e.py (ROOT-relative corpus, bench or other C
files), or several files of one program joined by "+" (calls across
files), a file marked "~" built without instrumentation
(tests/overlapmode/xfile_a.c+tests/overlapmode/xfile_b.c+~tests/overlapmode/xfile_c.c);
--random N adds N random structured programs of up to five
functions (calls in statements, conditions, loops and returns, recursion
bounded by a depth argument, calls under && that are not sites, blocks
with two calls); --random-xfile N as many programs of two files, each
function in either (calls across files both ways).  For each program and each degree (and 64, where every
site is at its maximum overlap unless its IDs do not fit):
  1. the overlap build gives the native build's output and exit status;
  2. it runs with KPATH_TRACE; its profile validates against the schema;
  3. `kpath overlap estimate --json`: every Type I / II pair of every site
     has lower <= exact <= upper, exact bounds at the maximum overlap, and
     C equal to the calls the trace shows (calls_trace.check);
  4. `kpath overlap check PROFILE TRACE --json` (the C check, an
     independent implementation of the same matching) reaches the same
     verdict and the same totals: site types, pairs and exact pairs
     checked, ambiguous and unfinished sites, flow, definite and potential
     flow per type (c_check); --no-oracle: the C check alone (calls_trace.py
     takes minutes on the trace of a bench program at its quick scale).
--fig2: PROGRAM is tests/overlapmode/fig2.c, the paper's Figure 2: the
distinct I-OL / II-OL paths per degree must be Tables 6 and 7's, the
maximum overlaps 3 and 1, and every pair exact from those degrees on.
xexact_a.c+xexact_b.c (always): every Type I / II count of its one site
across files as XEXACT says, exact at degree 1 and above; and with
xexact_b.c at another degree the site counts C alone.
Exit 0 when all passed and some call site was checked.
"""
import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import calls_trace  # noqa: E402
from overlap_e2e import bench_quick, corpus_flags, run, validate  # noqa: E402


class Gen:
    """A random program: f0 .. f{n-1}, fK calls fJ for J > K (and itself
    while its depth d < 2), all declared first so callers may come first."""

    def __init__(self, rng, n):
        self.rng, self.n, self.var = rng, n, 0

    def cond(self):
        r = self.rng
        return r.choice(["x & %d" % (1 << r.randrange(4)), "(x >> %d) & 1" % r.randrange(1, 5), "r > x",
                         "(r ^ x) & %d" % (1 << r.randrange(3)), "x %% %d == 0" % r.randrange(2, 5)])

    def call(self, k, arg):
        r = self.rng
        j = r.randrange(k, self.n)
        if j == k:
            return "(d < 2 ? f%d(%s, d + 1) : 7u)" % (j, arg) if r.random() < 0.3 else "f%d(%s, d + 1)" % (
                min(k + 1, self.n - 1), arg) if k + 1 < self.n else "%s" % arg
        return "f%d(%s, d + 1)" % (j, arg)

    def stmts(self, k, depth, loops):
        r, out = self.rng, []
        for _ in range(r.randint(1, 4)):
            c = r.random()
            if c < 0.3 and depth < 3:
                out.append("if (%s) {\n%s\n} else {\n%s\n}" % (self.cond(), self.stmts(k, depth + 1, loops),
                                                               self.stmts(k, depth + 1, loops)))
            elif c < 0.4 and depth < 3 and loops < 1:
                self.var += 1
                v = "i%d" % self.var
                out.append("{ unsigned %s; for (%s = 0; %s < (x & 1u) + 2u; %s++) {\n%s\n} }"
                           % (v, v, v, v, self.stmts(k, depth + 1, loops + 1)))
            elif c < 0.6 and k + 1 < self.n:
                out.append("r += %s;" % self.call(k, "x + r"))
            elif c < 0.66 and k + 1 < self.n:
                out.append("if (%s & 1u) r ^= 5u;" % self.call(k, "r"))
            elif c < 0.7 and k + 1 < self.n:
                out.append("if ((x & 1u) && %s) r += 2u;" % self.call(k, "r"))
            elif c < 0.73 and k + 1 < self.n:
                out.append("r += %s; r += %s;" % (self.call(k, "x"), self.call(k, "r")))
            elif c < 0.78 and k + 1 < self.n and depth > 0:
                out.append("if (%s) return %s;" % (self.cond(), self.call(k, "r ^ x")))
            else:
                out.append("r = r * 33u + (x ^ %du);" % r.randrange(100))
        return "\n".join(out)

    def program(self, split=False):
        """The program's text; split: two files (f0 and main in the first, each other function in either at
        random, all with external linkage), so that calls go across files."""
        st = "" if split else "static "
        head = ["#include <stdio.h>"] + ["%sunsigned f%d(unsigned x, unsigned d);" % (st, k) for k in range(self.n)]
        lines, other = list(head), list(head)
        order = list(range(self.n))
        self.rng.shuffle(order)
        for k in order:
            (other if split and k and self.rng.random() < 0.6 else lines).append(
                "%sunsigned f%d(unsigned x, unsigned d)\n{\nunsigned r = x;\n%s\nreturn r;\n}" % (st, k, self.stmts(k, 0, 0)))
        if split:
            other[0] = "/* the other file */"
        lines.append("int main(void)\n{\nunsigned i, s = 0;\nfor (i = 0; i < 24u; i++)\ns += f0(i * 2654435761u, 0);"
                     "\nprintf(\"%u\\n\", s);\nreturn 0;\n}")
        return ("\n".join(lines) + "\n", "\n".join(other) + "\n") if split else "\n".join(lines) + "\n"


# Figure 2 (tests/overlapmode/fig2.c): the distinct I-OL and II-OL paths of
# f's call of g per degree (Tables 6 and 7, the shorter ones included) and
# the maximum overlaps of 3.1.
FIG2_IN = {0: 3, 1: 6, 2: 9, 3: 15}
FIG2_OUT = {0: 5, 1: 10}


def check_fig2(prof, est, d):
    site = [s for f in prof["functions"] if f["name"] == "f" for s in f.get("overlap", {}).get("calls", [])]
    esite = [s for f in est["functions"] if f["name"] == "f" for s in f["calls"]]
    if len(site) != 1 or len(esite) != 1 or site[0]["callee"] != "g":
        raise RuntimeError("fig2: expected one call site of g in f")
    s, e = site[0], esite[0]
    got = (len(s["in"]), len(s["out"]), e["type1"]["max_degree"], e["type2"]["max_degree"],
           len([p for p in e["type1"]["pairs"] if p["lower"] == p["upper"]]),
           len([p for p in e["type2"]["pairs"] if p["lower"] == p["upper"]]))
    want = (FIG2_IN[min(d, 3)], FIG2_OUT[min(d, 1)], 3, 1, 15 if d >= 3 else got[4], 10 if d >= 1 else got[5])
    if got != want or s["calls"] != 64 * 20:
        raise RuntimeError("fig2 degree %d: I-OL %d, II-OL %d, maximum overlaps %d, %d, exact pairs %d, %d, C %d; "
                           "expected %s, C 1280" % ((d,) + got + (s["calls"], want)))


# tests/overlapmode/xexact_a.c + xexact_b.c: main's ten calls of ex_g
# (i = 0..9) by hand.  Type I: main's prefix to the call (from its entry
# for i = 0, from the loop head after; through "s += 1u" when i % 3 == 0)
# ! ex_g's path (line 7: odd i, line 8: even i); Type II: ex_g's path !
# main's suffix (the call's line, then the back edge to the head).
XEXACT = {1: {((7, 10, 10, 12, 13), (4, 8)): 1, ((10, 10, 12, 13), (4, 7)): 2, ((10, 10, 12, 13), (4, 8)): 1,
              ((10, 10, 13), (4, 7)): 3, ((10, 10, 13), (4, 8)): 3},
          2: {((4, 7), (13, 10)): 5, ((4, 8), (13, 10)): 5}}


def check_xexact(prof, est, d):
    esite = [s for f in est["functions"] if f["name"] == "main" for s in f["calls"]]
    if len(esite) != 1 or esite[0]["callee"] != "ex_g" or not esite[0].get("across") or \
            not esite[0].get("callee_file", "").endswith("xexact_b.c") or esite[0]["calls"] != 10:
        raise RuntimeError("xexact: expected one site across files to ex_g (xexact_b.c) with 10 calls: %s" % esite)
    for t in (1, 2):
        got = {(tuple(p["first"]), tuple(p["second"])): (p["lower"], p["upper"]) for p in esite[0]["type%d" % t]["pairs"]
               if p["upper"]}
        for pq in set(got) | set(XEXACT[t]):
            lo, up = got.get(pq, (0, 0))
            x = XEXACT[t].get(pq, 0)
            if not lo <= x <= up or (d >= 1 and lo != up):
                raise RuntimeError("xexact degree %d type %d: %s: bounds %d..%d, exact %d" % (d, t, pq, lo, up, x))


STRICT89 = ("-std=c89 -pedantic -Werror -Wall -Wextra -Wc++-compat -Wunused-macros -Wdeclaration-after-statement "
            "-Wlong-long -Wshadow -Wconversion -Wsign-conversion -Wmissing-prototypes -Wstrict-prototypes "
            "-Wredundant-decls -Wcast-qual -Wundef -O2").split()


def check_xexact_degrees(a, tmp, cc, libs):
    """xexact_a.c at degree 1, xexact_b.c at degree 2: the key ex_g exports is another degree's, so the site
    counts C and nothing else (no handoff is taken), and the output is the native one; both files build with
    -std=c89 -pedantic -Werror and the flag matrix's warnings."""
    root = os.path.abspath(a.src)
    exe, outs = os.path.join(tmp, "xexact.mixed"), []
    for f, d in (("a", 1), ("b", 2)):
        outs.append(os.path.join(tmp, "xexact_%s.mixed.c" % f))
        r = run([a.kpath, "instrument", os.path.join(root, "tests/overlapmode/xexact_%s.c" % f), "--mode", "overlap",
                 "--degree", str(d), "-o", outs[-1], "--quiet"])
        if r.returncode:
            raise RuntimeError("xexact mixed degrees: instrument: %s" % r.stderr.decode()[-2000:])
    for o in outs:  # the key, its weak reference and the handoff under the strict flags (tests/flags/run_c89.sh)
        r = run(cc + STRICT89 + ["-c", o, "-o", os.devnull])
        if r.returncode:
            raise RuntimeError("xexact: %s does not build with %s: %s" % (o, " ".join(STRICT89),
                                                                         r.stderr.decode()[-2000:]))
    r = run(cc + ["-w"] + outs + ["-o", exe] + libs)
    if r.returncode:
        raise RuntimeError("xexact mixed degrees: cc: %s" % r.stderr.decode()[-2000:])
    prof = exe + ".json"
    got = run([exe], env=dict(os.environ, KPATH_OUT=prof), cwd=tmp)
    if got.stdout != b"59\n" or got.returncode:
        raise RuntimeError("xexact mixed degrees: output %r" % got.stdout)
    validate(root, prof)
    sites = [s for f in json.load(open(prof))["functions"] if f["name"] == "main"
             for s in f.get("overlap", {}).get("calls", [])]
    if len(sites) != 1 or sites[0]["calls"] != 10 or sites[0]["in"] or sites[0]["out"] or "callee_file" in sites[0] \
            or not sites[0].get("across"):
        raise RuntimeError("xexact mixed degrees: expected C = 10 and no I-OL / II-OL count: %s" % sites)


def c_summary(c):
    """calls_trace.check's summary from `kpath overlap check --json` output c."""
    k = c["calls_check"]
    return {"sites": k["site_types"], "pairs": k["pairs"], "ambiguous": k["ambiguous_sites"],
            "unfinished": k["unfinished_sites"], "exact_pairs": [k["exact_pairs"], 0],
            "flow": [c["calls_type1"]["flow"], c["calls_type2"]["flow"]],
            "definite": [c["calls_type1"]["definite"], c["calls_type2"]["definite"]],
            "potential": [c["calls_type1"]["potential"], c["calls_type2"]["potential"]]}


def c_check(a, prof, trace, summ, fails):
    """`kpath overlap check PROF TRACE --json` against calls_trace.check's summary and failures (summ None:
    no oracle, the C check alone); returns its summary."""
    r = run([a.kpath, "overlap", "check", prof, trace, "--json"])
    if r.returncode not in (0, 1) or not r.stdout:
        raise RuntimeError("kpath overlap check: exit %d: %s" % (r.returncode, r.stderr.decode()[-2000:]))
    c = json.loads(r.stdout)
    k = c["calls_check"]
    if summ is None:
        summ = c_summary(c)
        if r.returncode:
            raise RuntimeError("kpath overlap check failed: %s" % r.stderr.decode()[-2000:])
    got = (k["site_types"], k["pairs"], k["exact_pairs"], k["ambiguous_sites"], k["unfinished_sites"]) + tuple(
        c["calls_type%d" % t][x] for t in (1, 2) for x in ("flow", "definite", "potential"))
    want = (summ["sites"], summ["pairs"], sum(summ["exact_pairs"]), summ["ambiguous"], summ["unfinished"]) + tuple(
        summ[x][t] for t in (0, 1) for x in ("flow", "definite", "potential"))
    if got != want:
        raise RuntimeError("kpath overlap check's totals %s, calls_trace.py's %s (sites, pairs, exact pairs, "
                           "ambiguous, unfinished, then flow/definite/potential of types I and II)" % (got, want))
    cbad = k["unsound"] + k["not_exact_at_max"] + k["mismatch"]
    if bool(cbad) != bool(fails):
        raise RuntimeError("kpath overlap check: %d failures, calls_trace.py: %d (%s)" % (cbad, len(fails),
                                                                                         "; ".join(fails[:3])))
    loops = c["unsound"] + c["not_exact_at_max"] + c["of_mismatch"]
    if loops or (r.returncode != 0) != bool(cbad):
        raise RuntimeError("kpath overlap check: exit %d, loops against the trace's k-IPF: %d failures: %s"
                           % (r.returncode, loops, r.stderr.decode()[-2000:]))
    return summ


def one(a, root, tmp, src, name, flags, args, degrees, libs, cc, totals, more=()):
    """more: the program's other files, (path, instrumented) (calls across files)."""
    native = os.path.join(tmp, name + ".native")
    r = run(cc + ["-w", src] + [m for m, _ in more] + ["-o", native] + flags + ["-lm", "-lpthread"],
            cwd=os.path.dirname(src))
    if r.returncode:
        raise RuntimeError("cc (native): " + r.stderr.decode()[-3000:])
    want = run([native] + args, cwd=tmp)
    for d in degrees:
        c = os.path.join(tmp, "%s.ol%d.c" % (name, d))
        exe, prof, trace = c[:-2], c[:-2] + ".json", c[:-2] + ".trace"
        objs = [c]
        for k, (m, inst) in enumerate(more):
            objs.append(os.path.join(tmp, "%s.ol%d.%d.c" % (name, d, k)) if inst else m)
        for s_, o_ in [(src, c)] + [(m, o) for (m, inst), o in zip(more, objs[1:]) if inst]:
            r = run([a.kpath, "instrument", s_, "--mode", "overlap", "--degree", str(d), "-o", o_, "--quiet", "--"]
                    + flags)
            if r.returncode:
                raise RuntimeError("instrument (degree %d): %s" % (d, r.stderr.decode()[-3000:]))
        r = run(cc + ["-w"] + objs + ["-o", exe] + flags + ["-lm"] + libs, cwd=os.path.dirname(src))
        if r.returncode:
            raise RuntimeError("cc (degree %d): %s" % (d, r.stderr.decode()[-3000:]))
        for x in (prof, trace):
            if os.path.exists(x):
                os.unlink(x)
        got = run([exe] + args, env=dict(os.environ, KPATH_OUT=prof, KPATH_TRACE=trace), cwd=tmp)
        if (got.stdout, got.returncode) != (want.stdout, want.returncode):
            raise RuntimeError("degree %d: output or exit status differs from the native build's" % d)
        validate(root, prof)
        r = run([a.kpath, "overlap", "estimate", prof, "--json"])
        if r.returncode:
            raise RuntimeError("degree %d: kpath overlap estimate: %s" % (d, r.stderr.decode()[-3000:]))
        fails, summ = ([], None) if a.no_oracle else calls_trace.check(json.load(open(prof)), trace,
                                                                        json.loads(r.stdout))
        summ = c_check(a, prof, trace, summ, fails)
        totals["c_checked"] += 1
        across = [x for f in json.load(open(prof))["functions"] for x in f.get("overlap", {}).get("calls", [])
                  if x.get("across")]
        totals["across"] = totals.get("across", 0) + len([x for x in across if "callee_file" in x])
        if more and not name.startswith("xrand") and not any("callee_file" in x and x["in"] for x in across):
            raise RuntimeError("degree %d: no site across files counted an I-OL path" % d)
        if a.fig2 and name == "fig2":
            check_fig2(json.load(open(prof)), json.loads(r.stdout), d)
        if name == "xexact_a":
            check_xexact(json.load(open(prof)), json.loads(r.stdout), d)
        if fails:
            raise RuntimeError("degree %d: %d failures, first: %s" % (d, len(fails), "; ".join(fails[:3])))
        if summ["unfinished"] and name != "exit_status":
            raise RuntimeError("degree %d: %d sites left in mid-path, but the program does not exit from inside "
                               "a call" % (d, summ["unfinished"]))
        for k in ("sites", "pairs", "ambiguous", "unfinished"):
            totals[k] = totals.get(k, 0) + summ[k]
        for t in (0, 1):
            for k in ("flow", "definite", "potential"):
                totals.setdefault((d, t, k), 0)
                totals[(d, t, k)] += summ[k][t]
        if not a.quiet:
            print("%s degree %d: %d sites checked (%d ambiguous), type I flow %d definite %d potential %d, "
                  "type II flow %d definite %d potential %d" % (name, d, summ["sites"], summ["ambiguous"],
                                                               summ["flow"][0], summ["definite"][0],
                                                               summ["potential"][0], summ["flow"][1],
                                                               summ["definite"][1], summ["potential"][1]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kpath", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--degrees", default="0,1,2")
    ap.add_argument("--random", type=int, default=0)
    ap.add_argument("--random-xfile", type=int, default=0,
                    help="random programs of two files, their functions called across files")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bench-scale", type=float, default=1.0)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--no-max", action="store_true", help="no run at degree 64 (the degrees given reach the maximum)")
    ap.add_argument("--no-oracle", action="store_true",
                    help="the C check alone, without calls_trace.py (slow on large traces)")
    ap.add_argument("--fig2", action="store_true", help="check tests/overlapmode/fig2.c against Tables 6 and 7")
    ap.add_argument("--summary", help="write the totals per degree and type (JSON) here")
    ap.add_argument("programs", nargs="*")
    a = ap.parse_args()
    root = os.path.abspath(a.src)
    cc = os.environ.get("CC", "cc").split()
    libs = shlex.split(run([a.kpath, "config", "--libs"]).stdout.decode())
    degrees = [int(d) for d in a.degrees.split(",")] + ([] if a.no_max else [64])
    failures, totals = 0, {"sites": 0, "pairs": 0, "ambiguous": 0, "c_checked": 0}
    with tempfile.TemporaryDirectory() as tmp:
        jobs = []
        for spec in a.programs:
            prog, more = spec.split("+")[0], [(os.path.join(root, m.lstrip("~")), not m.startswith("~"))
                                              for m in spec.split("+")[1:]]
            name = os.path.basename(prog)[:-2]
            bench = "/bench/" in prog
            flags = corpus_flags(root, name) if prog.startswith("corpus/") and not bench else []
            args = [str(max(1, int(bench_quick(root, name) * a.bench_scale)))] if bench else []
            if more:  # the program's headers, for the instrumented files written in tmp
                flags = flags + ["-I" + os.path.dirname(os.path.join(root, prog))]
            jobs.append((spec, os.path.join(root, prog), name, flags, args, more))
        rng = random.Random(a.seed)
        for i in range(a.random):
            src = os.path.join(tmp, "rand%d.c" % i)
            open(src, "w").write(Gen(rng, rng.randint(2, 5)).program())
            jobs.append(("random %d (seed %d)" % (i, a.seed), src, "rand%d" % i, [], [], []))
        for i in range(a.random_xfile):
            src, src2 = os.path.join(tmp, "xrand%d.c" % i), os.path.join(tmp, "xrand%d_b.c" % i)
            t1, t2 = Gen(rng, rng.randint(2, 5)).program(split=True)
            open(src, "w").write(t1)
            open(src2, "w").write(t2)
            jobs.append(("random across files %d (seed %d)" % (i, a.seed), src, "xrand%d" % i, [], [], [(src2, True)]))
        for prog, src, name, flags, args, more in jobs:
            try:
                one(a, root, tmp, src, name, flags, args, degrees, libs, cc, totals, more)
                if name == "xexact_a":
                    check_xexact_degrees(a, tmp, cc, libs)
            except (RuntimeError, subprocess.TimeoutExpired, ValueError, KeyError) as ex:
                print("FAIL %s: %s" % (prog, ex))
                if prog.startswith("random"):
                    print(open(src).read())
                    for m, _ in more:
                        print(open(m).read())
                failures += 1
    if a.summary:
        json.dump({"%d.%s.%s" % (k[0], "I" if k[1] == 0 else "II", k[2]) if isinstance(k, tuple) else k: v
                   for k, v in totals.items()}, open(a.summary, "w"), indent=1, sort_keys=True)
    if failures:
        print("%d program(s) failed" % failures)
        return 1
    if not totals["pairs"]:
        print("FAIL: no call site had a pair: nothing was checked")
        return 1
    if a.random_xfile and not totals.get("across"):
        print("FAIL: no site across files in the random programs of two files")
        return 1
    print("calls: %d site-types and %d pairs checked (%d sites across files), 0 unsound, %d ambiguous sites and "
          "%d left in mid-path skipped; kpath overlap check %s on all %d runs" % (
              totals["sites"], totals["pairs"], totals.get("across", 0), totals["ambiguous"],
              totals.get("unfinished", 0),
              "passed (no oracle)" if a.no_oracle else "agreed with calls_trace.py", totals["c_checked"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
