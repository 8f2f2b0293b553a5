#!/usr/bin/env python3
"""tests/kmode/kmode_e2e.py: `kpath instrument --mode kiter` end to end.

usage: kmode_e2e.py --kpath KPATH --oracle ORACLE --src ROOT --k K [--cc CC] [--loop LINE=K]... [--flag F]... PROGRAM...

PROGRAM is corpus/NAME.c or corpus/bench/NAME.c (ROOT-relative; a bench
program runs on its quick input from corpus/bench/MANIFEST, a corpus program
with its flags from corpus/FLAGS).  For each: the native build, the default
(kipf) build run with KPATH_TRACE and the kiter build at K run on the same
input must print the same output and exit alike; then kmode_oracle checks the
kiter profile against the k-iteration paths the definition cuts from the
trace (tests/kmode/kmode_oracle.c).  --loop LINE=K tells the oracle the K of
the loop whose head starts on LINE (a #pragma kpath kiter(K) in the program:
the oracle does not read pragmas); --flag F adds F to every program's
flags.  Exit 0 when every program passed.
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile


def corpus_flags(root, name):
    root = os.path.abspath(root)
    for line in open(os.path.join(root, "corpus", "FLAGS")):
        line = line.strip()
        if line and not line.startswith("#") and line.split(":")[0] == name:
            flags, out = shlex.split(line.split(":", 1)[1]), []
            for i, f in enumerate(flags):  # -I DIR or -IDIR, relative to corpus/
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
            return [f[2]]
    return []


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kpath", required=True)
    ap.add_argument("--oracle", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--k", required=True)
    # $CC by default: the sanitizer run (scripts/test) builds the runtime with it.
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--loop", action="append", default=[])
    ap.add_argument("--flag", action="append", default=[])
    ap.add_argument("programs", nargs="+")
    a = ap.parse_args()
    libs = shlex.split(run([a.kpath, "config", "--libs"]).stdout.decode())
    bad = 0
    with tempfile.TemporaryDirectory(prefix="kmode.") as tmp:
        for prog in a.programs:
            src = os.path.abspath(os.path.join(a.src, prog))
            name = os.path.basename(prog)[:-2]
            bench = "/bench/" in prog
            flags = (["-std=c11", "-O2"] if bench else corpus_flags(a.src, name)) + a.flag
            args = bench_quick(a.src, name) if bench else []
            cflags = flags + ["-lm"]
            exe, skipped = {}, []
            for variant in ("native", "kipf", "kiter"):
                csrc = src
                if variant != "native":
                    csrc = os.path.join(tmp, "%s.%s.c" % (name, variant))
                    mode = ["--mode", "kiter", "--kiter", a.k] if variant == "kiter" else []
                    r = run([a.kpath, "instrument", src, "-o", csrc, "--quiet"] + mode + ["--"] + flags)
                    if r.returncode:
                        print("%s: kpath instrument (%s) failed:\n%s" % (prog, variant, r.stderr.decode()))
                        bad += 1
                        break
                    if variant == "kiter":  # functions left out, with their reason: not compared
                        for line in r.stderr.decode().splitlines():
                            m = re.search(r"warning: function '(\w+)' not instrumented: (.*)", line)
                            if m:
                                skipped.append(m.group(1))
                                print("%s: %s: skipped in kiter mode: %s" % (prog, m.group(1), m.group(2)))
                exe[variant] = os.path.join(tmp, "%s.%s" % (name, variant))
                r = run(shlex.split(a.cc) + ["-w", csrc, "-o", exe[variant]] + cflags + (libs if variant != "native" else []),
                        cwd=os.path.dirname(src))
                if r.returncode:
                    print("%s: cc (%s) failed:\n%s" % (prog, variant, r.stderr.decode()[:3000]))
                    bad += 1
                    break
            else:
                trace = os.path.join(tmp, name + ".trace")
                prof = {v: os.path.join(tmp, "%s.%s.json" % (name, v)) for v in ("kipf", "kiter")}
                outs = {}
                for variant in ("native", "kipf", "kiter"):
                    env = dict(os.environ)
                    for v in ("KPATH_OUT", "KPATH_TRACE", "KPATH_K", "KPATH_MODE", "KPATH_WPP"):
                        env.pop(v, None)
                    if variant != "native":
                        env["KPATH_OUT"] = prof[variant]
                    if variant == "kipf":
                        env["KPATH_TRACE"] = trace
                    r = run([exe[variant]] + args, env=env, cwd=tmp)
                    outs[variant] = (r.returncode, r.stdout)
                if outs["kipf"] != outs["native"] or outs["kiter"] != outs["native"]:
                    print("%s: the instrumented outputs differ from the native one" % prog)
                    bad += 1
                    continue
                skip = sum((["--skip", s] for s in skipped), [])
                # The oracle keeps its tables until it exits: no leak check
                # for it in the sanitizer run (the programs keep theirs).
                r = run([a.oracle, "--k", a.k, "--trace", trace, "--profile", prof["kiter"]] + skip +
                        sum((["--loop", x] for x in a.loop), []) + [src, "--"] + flags,
                        env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
                sys.stdout.write(r.stdout.decode())
                if r.returncode:
                    print("%s: kmode_oracle failed:\n%s" % (prog, r.stderr.decode()[:4000]))
                    bad += 1
    print("kmode_e2e: %d of %d programs failed" % (bad, len(a.programs)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
