#!/usr/bin/env python3
"""Repeat counting changes nothing but speed.

usage: repeat_same.py KPATH CORPUS_DIR WORK_DIR

Every corpus program (corpus/*.c but threads.c, whose interleaving varies
from run to run, and corpus/bench/* at its quick scale) is instrumented
twice, by default (straight innermost loops count their iterations in a
register, rewrite/repeat.c) and with --no-repeat (every item emitted where
it is taken), compiled at -O2, and run at k = 1, 3 and 8.  The two profiles
must hold the same k-IPF for every function, and the default build must
actually use repeat counting somewhere (else the test tests nothing).
$CC (default cc, may hold flags) compiles.  Exit status 0 = same
everywhere, 1 = a difference or a failure.
"""
import json
import os
import re
import shlex
import subprocess
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def programs(corpus):
    flags = {}
    with open(os.path.join(corpus, "FLAGS")) as f:
        for line in f:
            m = re.match(r"^([A-Za-z0-9_]+):\s*(.*)$", line.strip())
            if m:
                flags[m.group(1)] = m.group(2)
    for name in sorted(flags):
        if name != "threads" and os.path.exists(os.path.join(corpus, name + ".c")):
            yield name, os.path.join(corpus, name + ".c"), shlex.split(flags[name]), []
    with open(os.path.join(corpus, "bench", "MANIFEST")) as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0].startswith("#"):
                continue
            yield fields[0], os.path.join(corpus, "bench", fields[0] + ".c"), ["-std=c11"], [fields[2]]


def build(kpath, src, flags, out, extra, corpus):
    c = out + ".c"
    r = subprocess.run([kpath, "instrument", "--quiet"] + extra + [src, "-o", c, "--"] + flags,
                       capture_output=True, text=True, cwd=corpus)
    if r.returncode != 0:
        fail("kpath instrument %s %s: %s" % (" ".join(extra), src, r.stderr[-2000:]))
    libs = shlex.split(subprocess.run([kpath, "config", "--libs"], capture_output=True, text=True,
                                      check=True).stdout)
    cc = shlex.split(os.environ.get("CC", "cc"))  # may hold flags (the sanitizer runs)
    r = subprocess.run(cc + ["-O2"] + flags + [c, "-o", out] + libs + ["-lm", "-lpthread"], capture_output=True,
                       text=True, cwd=corpus)
    if r.returncode != 0:
        fail("%s %s: %s" % (" ".join(cc), c, r.stderr[-2000:]))
    with open(c) as f:
        return f.read().count("kpath_rt_repeat(")


def run(exe, args, k, prof, cwd):
    if os.path.exists(prof):
        os.remove(prof)
    env = dict(os.environ, KPATH_K=str(k), KPATH_OUT=prof)
    env.pop("KPATH_TRACE", None)
    r = subprocess.run([exe] + args, env=env, cwd=cwd, capture_output=True, timeout=300)
    if not os.path.exists(prof):
        fail("%s (KPATH_K=%d) exited with %d and wrote no profile: %s" %
             (exe, k, r.returncode, r.stderr.decode(errors="replace")[-1000:]))
    with open(prof) as f:
        p = json.load(f)
    return r.returncode, r.stdout, {(fn["name"], fn["checksum"]): fn["kipf"] for fn in p["functions"]}


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    kpath, corpus, work = (os.path.abspath(a) for a in sys.argv[1:])
    os.makedirs(work, exist_ok=True)
    repeats = 0
    for name, src, flags, args in programs(corpus):
        w = os.path.join(work, name)
        os.makedirs(w, exist_ok=True)
        n = build(kpath, src, flags, os.path.join(w, "repeat"), [], corpus)
        build(kpath, src, flags, os.path.join(w, "plain"), ["--no-repeat"], corpus)
        repeats += n
        for k in (1, 3, 8):
            a = run(os.path.join(w, "repeat"), args, k, os.path.join(w, "repeat.json"), w)
            b = run(os.path.join(w, "plain"), args, k, os.path.join(w, "plain.json"), w)
            if a[0] != b[0] or a[1] != b[1]:
                fail("%s k=%d: output or status differ" % (name, k))
            if a[2] != b[2]:
                bad = sorted(f for f in set(a[2]) | set(b[2]) if a[2].get(f) != b[2].get(f))
                fail("%s k=%d: the k-IPF differs for %s" % (name, k, ", ".join(f[0] for f in bad)))
        print("%s: same k-IPF at k = 1, 3, 8 (%d counting loops)" % (name, n))
    if repeats == 0:
        fail("no program used repeat counting")
    print("ok: %d counting loops in all" % repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
