#!/usr/bin/env python3
"""bench/overlap.py: `kpath instrument --mode overlap` on the bench programs
(issue 18, docs/overlap-mode.md): precision of the flow bounds for degree
theta = 0 (Ball-Larus), 1, 2 against the exact counts of the same run, and
the cost of the mode against the default mode at k = 1 and at k = 2 (the
k-IPF that gives the exact answer).

usage: bench/overlap.py [--kpath KPATH] [--scale quick|full|F] [--runs N] [--no-callgrind] [--trace]
                        [--out FILE] [PROGRAM...]

PROGRAM: names from corpus/bench/MANIFEST (default: all).  Per program:
  - default build (kpath instrument, gcc -O2): CPU time with KPATH_K=1 and
    KPATH_K=2 (median of --runs);
  - overlap builds at theta = 0, 1, 2: CPU time with KPATH_K=1, then one run
    with KPATH_K=2 whose profile `kpath overlap check PROFILE PROFILE --json`
    reads: flow, definite and potential flow (their imprecision as the
    paper's tables give it: (definite - real) / real, (potential - real) /
    real), and the check's verdict (soundness, OL counts = exact sums);
    `kpath overlap estimate PROFILE --json` on the same profile gives the
    calls' definite and potential flow (Type I / II, section 3), whose real
    flow is C (the calls) or the calls that came back (the soundness of the
    calls' bounds against a trace: tests/overlapmode/calls_e2e.py);
  - with --trace, that run also writes a KPATH_TRACE and the check is
    `kpath overlap check PROFILE PROFILE TRACE --json`: every call site's
    Type I / II bounds checked against the trace (soundness, exactness at
    maximum overlap, C), and the calls' precision against the trace's flow
    (traces grow with the scale: meant for quick or smaller scales);
  - callgrind instruction counts (k = 1, k = 2, overlap theta = 1, 2) on the
    quick scale when valgrind is installed (not with --no-callgrind).
bench/run runs this script (full run: --scale full, into
bench/overlap-results.md, linked and included in results.md; --quick: one
program with --trace; --no-overlap skips it).
Writes a markdown table (stdout, or --out) and fails when a run's checksum
differs from the MANIFEST or a check fails.
"""
import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THETAS = (0, 1, 2)


def manifest():
    out = []
    for line in open(os.path.join(ROOT, "corpus", "bench", "MANIFEST")):
        f = line.split()
        if f and not f[0].startswith("#"):
            out.append({"name": f[0], "full": int(f[1]), "quick": int(f[2]), "full_sum": f[3], "quick_sum": f[4]})
    return out


def sh(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=3600, **kw)
    if r.returncode:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd[:3]), r.returncode, r.stderr.decode()[-2000:]))
    return r


def timed(exe, args, env, want, runs):
    ts = []
    for _ in range(runs):
        t0 = os.times()
        r = subprocess.run([exe] + args, stdout=subprocess.PIPE, env=env, timeout=3600)
        t1 = os.times()
        if r.returncode or ("checksum " + want) not in r.stdout.decode():
            raise RuntimeError("%s: wrong checksum or exit %d" % (exe, r.returncode))
        ts.append((t1.children_user - t0.children_user) + (t1.children_system - t0.children_system))
    return statistics.median(ts)


def instructions(exe, args, env, tmp, on=True):
    if not on or not shutil.which("valgrind"):
        return None
    out = os.path.join(tmp, "cg.out")
    sh(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out] + [exe] + args, env=env)
    for line in open(out):
        if line.startswith("summary:") or line.startswith("totals:"):
            return int(line.split()[1])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kpath", default=os.path.join(ROOT, "build", "bin", "kpath"))
    ap.add_argument("--scale", default="quick")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out")
    ap.add_argument("--no-callgrind", action="store_true", help="no instruction counts")
    ap.add_argument("--trace", action="store_true",
                    help="check the calls' bounds against a trace of the check run (quick or smaller scales)")
    ap.add_argument("programs", nargs="*")
    a = ap.parse_args()
    libs = shlex.split(sh([a.kpath, "config", "--libs"]).stdout.decode())
    cc = os.environ.get("CC", "gcc").split()
    progs = [p for p in manifest() if not a.programs or p["name"] in a.programs]
    rows, failed = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for p in progs:
            name, src = p["name"], os.path.join(ROOT, "corpus", "bench", p["name"] + ".c")
            if a.scale in ("quick", "full"):
                scale, want = p[a.scale], p[a.scale + "_sum"]
            else:
                scale, want = max(1, int(p["quick"] * float(a.scale))), None
            args = [str(scale)]
            row = {"name": name, "scale": scale}
            try:
                base = os.path.join(tmp, name)
                sh([a.kpath, "instrument", src, "-o", base + ".k.c", "--quiet"])
                sh(cc + ["-O2", "-w", base + ".k.c", "-o", base + ".k", "-lm"] + libs)
                if want is None:  # a scale without a MANIFEST checksum: take the k = 1 run's
                    r = sh([base + ".k"] + args, env=dict(os.environ, KPATH_OUT=base + ".x.json"))
                    want = r.stdout.decode().split("checksum ")[1].split()[0]
                env = lambda k, out: dict(os.environ, KPATH_K=str(k), KPATH_OUT=out)
                row["k1"] = timed(base + ".k", args, env(1, base + ".t1.json"), want, a.runs)
                row["k2"] = timed(base + ".k", args, env(2, base + ".t2.json"), want, a.runs)
                row["k1_ins"] = instructions(base + ".k", [str(p["quick"])], env(1, base + ".i1.json"), tmp, not a.no_callgrind)
                row["k2_ins"] = instructions(base + ".k", [str(p["quick"])], env(2, base + ".i2.json"), tmp, not a.no_callgrind)
                for t in THETAS:
                    exe = "%s.ol%d" % (base, t)
                    r = sh([a.kpath, "instrument", src, "-o", exe + ".c", "--mode", "overlap", "--degree", str(t)])
                    row["skipped%d" % t] = r.stderr.decode().count("not instrumented")
                    sh(cc + ["-O2", "-w", exe + ".c", "-o", exe, "-lm"] + libs)
                    row["ol%d" % t] = timed(exe, args, env(1, exe + ".t.json"), want, a.runs)
                    if t:
                        row["ol%d_ins" % t] = instructions(exe, [str(p["quick"])], env(1, exe + ".i.json"), tmp, not a.no_callgrind)
                    prof, trace = exe + ".json", exe + ".trace"
                    for x in (prof, trace):
                        if os.path.exists(x):
                            os.unlink(x)
                    cenv = env(2, prof)
                    if a.trace:
                        cenv["KPATH_TRACE"] = trace
                    timed(exe, args, cenv, want, 1)
                    r = subprocess.run([a.kpath, "overlap", "check", prof, prof] + ([trace] if a.trace else []) +
                                       ["--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                    if r.returncode:
                        raise RuntimeError("check theta %d: %s" % (t, r.stderr.decode()[-1000:]))
                    c = row["check%d" % t] = json.loads(r.stdout)
                    if a.trace:  # the calls' real flow: the trace's, over the sites checked
                        row["calls%d" % t] = (c["calls_type1"], c["calls_type2"], c["calls_check"])
                        os.unlink(trace)
                        continue
                    r = subprocess.run([a.kpath, "overlap", "estimate", prof, "--json"], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
                    if r.returncode:
                        raise RuntimeError("estimate theta %d: %s" % (t, r.stderr.decode()[-1000:]))
                    e = json.loads(r.stdout)  # calls: the real flow is C (equation 9), the returns for Type II
                    row["calls%d" % t] = (e["calls_type1"], e["calls_type2"], e["calls_unfinished"])
            except (RuntimeError, subprocess.TimeoutExpired) as ex:
                print("FAIL %s: %s" % (name, ex), file=sys.stderr)
                failed += 1
                continue
            rows.append(row)
    lines = ["| program | flow | θ=0 definite / potential | θ=1 | θ=2 | time k=1 | θ=0 | θ=1 | θ=2 | time k=2 (k-IPF) "
             "| instr. θ=1 / k=1 | θ=2 / k=1 | k=2 / k=1 | functions skipped θ=0/1/2 |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        def prec(t):
            c = r["check%d" % t]
            return "%+.1f%% / %+.1f%%" % (c["definite_imprecision"], c["potential_imprecision"]) if c["flow"] else "-"

        def ratio(x, y):
            return "%.2f" % (x / y) if x and y else "-"
        lines.append("| %s | %d | %s | %s | %s | %.3fs | %s | %s | %s | %s | %s | %s | %s | %d/%d/%d |" % (
            r["name"], r["check0"]["flow"], prec(0), prec(1), prec(2), r["k1"],
            ratio(r["ol0"], r["k1"]), ratio(r["ol1"], r["k1"]), ratio(r["ol2"], r["k1"]), ratio(r["k2"], r["k1"]),
            ratio(r.get("ol1_ins"), r.get("k1_ins")), ratio(r.get("ol2_ins"), r.get("k1_ins")),
            ratio(r.get("k2_ins"), r.get("k1_ins")), r["skipped0"], r["skipped1"], r["skipped2"]))
    tot = {t: [sum(r["check%d" % t][f] for r in rows) for f in ("flow", "definite", "potential")] for t in THETAS}
    lines.append("| all | %d | %s | %s | %s | | | | | | | | | |" % (tot[0][0], *[
        "%+.1f%% / %+.1f%%" % (100.0 * (tot[t][1] - tot[t][0]) / tot[t][0], 100.0 * (tot[t][2] - tot[t][0]) / tot[t][0])
        if tot[t][0] else "-" for t in THETAS]))
    lines += ["", "Calls (section 3): definite / potential flow of the Type I and Type II paths against their real "
              + ("flow in a trace of the same run, over the sites checked against it (every bound sound: `kpath overlap "
                 "check PROFILE PROFILE TRACE`; sites whose calls the trace cannot match one to one are left out)"
                 if a.trace else "flow (C, the calls; for Type II the calls that came back)") + ", per program and theta.",
              "",
              "| program | calls | type I θ=0 | θ=1 | θ=2 | type II θ=0 | θ=1 | θ=2 |", "|---|---|---|---|---|---|---|---|"]

    def cprec(c):
        return "%+.1f%% / %+.1f%%" % (100.0 * (c["definite"] - c["flow"]) / c["flow"],
                                      100.0 * (c["potential"] - c["flow"]) / c["flow"]) if c["flow"] else "-"
    for r in rows:
        lines.append("| %s | %d | %s |" % (r["name"], r["calls0"][0]["flow"], " | ".join(
            cprec(r["calls%d" % t][k]) for k in (0, 1) for t in THETAS)))
    ctot = {(t, k): {f: sum(r["calls%d" % t][k][f] for r in rows) for f in ("flow", "definite", "potential")}
            for t in THETAS for k in (0, 1)}
    lines.append("| all | %d | %s |" % (ctot[(0, 0)]["flow"], " | ".join(cprec(ctot[(t, k)]) for k in (0, 1)
                                                                         for t in THETAS)))
    if a.trace:
        ck = [r["calls%d" % t][2] for r in rows for t in THETAS]
        lines += ["", "Calls checked against the traces: %d site types, %d pairs, %d unsound, %d not exact at maximum "
                  "overlap, %d counts differing from the trace's; %d ambiguous sites and %d left in mid-path not "
                  "checked." % tuple(sum(c[f] for c in ck) for f in ("site_types", "pairs", "unsound",
                                                                    "not_exact_at_max", "mismatch", "ambiguous_sites",
                                                                    "unfinished_sites"))]
    text = ("Overlap mode (bench/overlap.py, scale %s): imprecision of definite / potential flow against the exact "
            "counts of the same run, and time (and callgrind instructions, quick scale) relative to the default mode "
            "at k = 1.  A function the mode skips (docs/overlap-mode.md) is neither profiled nor counted: compare rows only where the skipped counts agree.\n\n" % a.scale) + "\n".join(lines) + "\n"
    if a.out:
        open(a.out, "w").write(text)
    sys.stdout.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
