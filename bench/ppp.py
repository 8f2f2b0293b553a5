#!/usr/bin/env python3
"""bench/ppp.py: preferential path profiling measured (docs/ppp.md, "Measured").

usage: bench/ppp.py [--kpath build/bin/kpath] [--no-callgrind] [--json OUT]

The PPP paper's setup (section 6): every path one run exercised is
interesting.  For each bench program (corpus/bench/MANIFEST):
  k1   the default instrumentation, run with KPATH_K=1 on the quick input
       (its profile is the interesting set);
  ppp  kpath instrument --mode ppp --interesting that profile;
both run again on the quick input under callgrind (instructions, Ir) and
natively; the table gives Ir of native, k1 and ppp, and ppp / k1.  Then the
compactness (ppp.interval / ppp.interesting) of every ppp function with a
non-empty interesting set, over the bench programs, the corpus programs
and the corpus project (corpus/project, ten files linked into stk), as a
distribution.  The compiler is $CC (default cc).
"""
import argparse
import glob
import json
import os
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "pppmode"))
sys.path.insert(0, os.path.join(ROOT, "tests", "report"))
import profile_form  # noqa: E402  (a function's mode payload, kpath-profile/1 or /2)
from ppp_e2e import corpus_flags  # noqa: E402


def run(cmd, **kw):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=1800, **kw)
    return r


def must(r, what):
    if r.returncode:
        raise SystemExit("%s failed:\n%s" % (what, r.stderr.decode()[-3000:]))
    return r


def manifest():
    out = []
    for line in open(os.path.join(ROOT, "corpus", "bench", "MANIFEST")):
        f = line.split()
        if f and not f[0].startswith("#"):
            out.append((f[0], f[2], f[6] if len(f) > 6 else "main"))
    return out


def env_for(out):
    e = {k: v for k, v in os.environ.items() if not k.startswith("KPATH_")}
    e["KPATH_K"] = "1"
    if out:
        e["KPATH_OUT"] = out
    return e


def ir(exe, args, out):
    r = must(run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", exe] + args, env=env_for(out)),
             "callgrind " + exe)
    for line in r.stderr.decode().splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1])
    return None


def ratios(profile):
    out = []
    for f in json.load(open(profile))["functions"]:
        pp = profile_form.payload(f, "ppp")
        if pp.get("interesting"):
            out.append((pp["interval"] / pp["interesting"], f["name"], pp["interesting"], pp["interval"],
                        f["num_paths"]))
    return out


def build_one(kpath, cc, src, flags, tmp, tag, extra, libs, cwd):
    c = os.path.join(tmp, "%s.%s.c" % (os.path.basename(src)[:-2], tag))
    must(run([kpath, "instrument", src, "-o", c, "--quiet"] + extra + ["--"] + flags), "instrument " + src)
    exe = c[:-2]
    must(run(cc + ["-w", c, "-o", exe] + flags + ["-lm"] + libs, cwd=cwd), "cc " + c)
    return exe


def project(kpath, cc, libs, tmp):
    """The corpus project: every file instrumented, k1 run, then ppp."""
    pdir = os.path.join(ROOT, "corpus", "project")
    srcs = sorted(glob.glob(os.path.join(pdir, "*.c")))
    flags = ["-I" + pdir, "-std=c99", "-O2"]
    profs = {}
    for tag in ("k1", "ppp"):
        objs = []
        for s in srcs:
            c = os.path.join(tmp, "proj.%s.%s" % (tag, os.path.basename(s)))
            extra = ["--mode", "ppp", "--interesting", profs["k1"]] if tag == "ppp" else []
            must(run([kpath, "instrument", s, "-o", c, "--quiet"] + extra + ["--"] + flags), "instrument " + s)
            o = c[:-2] + ".o"
            must(run(cc + ["-w", "-c", c, "-o", o] + flags, cwd=pdir), "cc " + c)
            objs.append(o)
        exe = os.path.join(tmp, "stk." + tag)
        must(run(cc + objs + ["-o", exe] + libs + ["-lm"]), "link stk")
        profs[tag] = os.path.join(tmp, "proj.%s.json" % tag)
        must(run([exe], env=env_for(profs[tag]), cwd=pdir), "run stk")
    return ratios(profs["ppp"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kpath", default=os.path.join(ROOT, "build", "bin", "kpath"))
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--json")
    a = ap.parse_args()
    cc = os.environ.get("CC", "cc").split()
    libs = shlex.split(run([a.kpath, "config", "--libs"]).stdout.decode())
    rows, comp = [], {"bench": [], "corpus": [], "project": []}
    with tempfile.TemporaryDirectory(prefix="bench-ppp.") as tmp:
        for name, quick, kind in manifest():
            src = os.path.join(ROOT, "corpus", "bench", name + ".c")
            flags = ["-std=c11", "-O2"]
            native = os.path.join(tmp, name + ".native")
            must(run(cc + ["-w", src, "-o", native] + flags + ["-lm"]), "cc native")
            k1 = build_one(a.kpath, cc, src, flags, tmp, "k1", [], libs, tmp)
            interesting = os.path.join(tmp, name + ".k1.json")
            must(run([k1, quick], env=env_for(interesting)), "run k1")
            ppp = build_one(a.kpath, cc, src, flags, tmp, "ppp", ["--mode", "ppp", "--interesting", interesting],
                            libs, tmp)
            pprof = os.path.join(tmp, name + ".ppp.json")
            must(run([ppp, quick], env=env_for(pprof)), "run ppp")
            comp["bench"] += ratios(pprof)
            big = [f for f in json.load(open(pprof))["functions"] if f["num_paths"] > 4096]
            row = {"program": name, "kind": kind,
                   "hash_functions": ["%s (%d paths, \\|I\\| %d, interval %d)" % (f["name"], f["num_paths"],
                                      profile_form.payload(f, "ppp").get("interesting", 0),
                                      profile_form.payload(f, "ppp").get("interval", 0)) for f in big]}
            if not a.no_callgrind:
                row["native"] = ir(native, [quick], None)
                # a fresh profile per program and build: the runtime would
                # otherwise read and merge the previous program's at exit
                row["k1"] = ir(k1, [quick], os.path.join(tmp, name + ".cg.k1.json"))
                row["ppp"] = ir(ppp, [quick], os.path.join(tmp, name + ".cg.ppp.json"))
            rows.append(row)
            print(json.dumps(row), flush=True)
        for src in sorted(glob.glob(os.path.join(ROOT, "corpus", "*.c"))):
            name = os.path.basename(src)[:-2]
            flags = corpus_flags(ROOT, name)
            k1 = build_one(a.kpath, cc, src, flags, tmp, "k1", [], libs, os.path.dirname(src))
            interesting = os.path.join(tmp, name + ".k1.json")
            run([k1], env=env_for(interesting), cwd=tmp)
            ppp = build_one(a.kpath, cc, src, flags, tmp, "ppp", ["--mode", "ppp", "--interesting", interesting],
                            libs, os.path.dirname(src))
            pprof = os.path.join(tmp, name + ".ppp.json")
            run([ppp], env=env_for(pprof), cwd=tmp)
            comp["corpus"] += ratios(pprof)
        comp["project"] = project(a.kpath, cc, libs, tmp)
    print()
    if not a.no_callgrind:
        print("| program | native Ir | k = 1 Ir | ppp Ir | k = 1 / native | ppp / native | ppp / k = 1 | functions over 4,096 paths |")
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        for r in rows:
            print("| %s | %d | %d | %d | %.2f | %.2f | %.3f | %s |" % (
                r["program"], r["native"], r["k1"], r["ppp"], r["k1"] / r["native"], r["ppp"] / r["native"],
                r["ppp"] / r["k1"], "; ".join(r["hash_functions"]) or "-"))
        main_rows = [r for r in rows if r["kind"] == "main"]
        gm = lambda xs: __import__("math").exp(sum(__import__("math").log(x) for x in xs) / len(xs))
        print("\ngeomean (main programs): k = 1 %.2fx native, ppp %.2fx native, ppp / k = 1 %.3f" % (
            gm([r["k1"] / r["native"] for r in main_rows]), gm([r["ppp"] / r["native"] for r in main_rows]),
            gm([r["ppp"] / r["k1"] for r in main_rows])))
    print("\n| functions | n | interval = \\|I\\| | <= 1.1 | <= 1.5 | <= 2 | > 2 | max | mean |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    allr = []
    for k in ("bench", "corpus", "project"):
        xs = [x[0] for x in comp[k]]
        allr += xs
        comp_row(k, xs)
    comp_row("all", allr)
    worst = sorted(comp["bench"] + comp["corpus"] + comp["project"], reverse=True)[:5]
    print("\nleast compact: " + "; ".join("%s %.2f (|I| %d, interval %d, %d paths)" % (n, r, i, v, p)
                                          for r, n, i, v, p in worst))
    if a.json:
        json.dump({"rows": rows, "compactness": comp}, open(a.json, "w"), indent=1)


def comp_row(k, xs):
    if not xs:
        print("| %s | 0 | | | | | | | |" % k)
        return
    n = len(xs)
    c = lambda f: "%d" % sum(1 for x in xs if f(x))
    print("| %s | %d | %s | %s | %s | %s | %s | %.2f | %.3f |" % (
        k, n, c(lambda x: x == 1), c(lambda x: x <= 1.1), c(lambda x: x <= 1.5), c(lambda x: x <= 2),
        c(lambda x: x > 2), max(xs), sum(xs) / n))


if __name__ == "__main__":
    main()
