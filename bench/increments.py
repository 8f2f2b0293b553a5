#!/usr/bin/env python3
"""Counts the path-register updates kpath instruments, statically and as run.

usage: bench/increments.py KPATH [PROGRAM...]   (default: every corpus program)

For each corpus program: instrument it with KPATH (--no-repeat: every
item emitted where it is taken), count the register
updates in the instrumented text (additions "kp_r += N" / "kp_r -= N" and
assignments "kp_r = N": resets after an emit and absolute values; the
declaration's initialiser is not counted), then compile a copy in which
every update and every emit/leave/count/tally also bumps a counter, run it with
KPATH_K=1, and print the updates executed per completed path (threads.c
counts without atomics: its dynamic numbers are approximate).  Run it with
two kpath binaries to compare placements (e.g. before/after a change).
$CC (default cc, may hold flags) compiles.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "corpus")

UPDATE = re.compile(r"(?<!kpath_rt_u64 )\b(kp_r) (\+=|-=|=) ")
END = re.compile(r"\bkpath_rt_(emit|leave|count|tally)\(")

COUNTERS = """
static unsigned long long kpc_add, kpc_set, kpc_path;
static void kpc_emit(struct kpath_rt_cursor *c, kpath_rt_u64 id) { kpc_path++; kpath_rt_emit(c, id); }
static void kpc_leave(struct kpath_rt_cursor *c, kpath_rt_u64 id) { kpc_path++; kpath_rt_leave(c, id); }
static void kpc_count(struct kpath_rt_func *f, kpath_rt_u64 id, kpath_rt_u64 n) { kpc_path++; kpath_rt_count(f, id, n); }
static void kpc_tally(struct kpath_rt_func *f, kpath_rt_u64 **a, kpath_rt_u64 id, kpath_rt_u64 n) { kpc_path++; kpath_rt_tally(f, a, id, n); }
__attribute__((destructor)) static void kpc_report(void)
{
	const char *o = getenv("KPC_OUT");
	FILE *f = o ? fopen(o, "a") : NULL;
	if (f) { fprintf(f, "%llu %llu %llu\\n", kpc_add, kpc_set, kpc_path); fclose(f); }
}
"""


def flags_of(name):
    with open(os.path.join(CORPUS, "FLAGS")) as f:
        for line in f:
            if line.startswith(name + ":"):
                return line.split(":", 1)[1].split()
    return []


def split_output(text):
    """preamble, body (from '#line 1'), tail (descriptors)."""
    start = text.index("\n#line 1 ") + 1
    end = text.index("\n#line ", start) + 1
    return text[:start], text[start:end], text[end:]


def count(body):
    adds = sets = 0
    for m in UPDATE.finditer(body):
        if m.group(2) == "=":
            sets += 1
        else:
            adds += 1
    return adds, sets


def counting(body):
    def upd(m):
        which = "kpc_set" if m.group(2) == "=" else "kpc_add"
        return "%s++, kp_r %s " % (which, m.group(2))
    body = UPDATE.sub(upd, body)
    return END.sub(lambda m: "kpc_%s(" % m.group(1), body)


def measure(kpath, name, work):
    flags = flags_of(name)
    src = name + ".c"
    out = os.path.join(work, name + ".kpath.c")
    subprocess.run([kpath, "instrument", "--quiet", "--no-repeat", src, "-o", out, "--"] + flags, cwd=CORPUS, check=True,
                   stderr=subprocess.DEVNULL)
    with open(out) as f:
        pre, body, tail = split_output(f.read())
    adds, sets = count(body)
    cnt = os.path.join(work, name + ".count.c")
    with open(cnt, "w") as f:
        f.write(pre + "#include <stdio.h>\n#include <stdlib.h>\n" + COUNTERS + counting(body) + tail)
    exe = os.path.join(work, name)
    libdir = subprocess.run([kpath, "config", "--libs"], capture_output=True, text=True, check=True).stdout.split()
    cc = os.environ.get("CC", "cc").split()
    subprocess.run(cc + ["-O2", "-w", cnt] + flags + ["-o", exe] + libdir, cwd=CORPUS, check=True)
    res = os.path.join(work, name + ".counts")
    env = dict(os.environ, KPATH_K="1", KPATH_OUT=os.path.join(work, name + ".json"), KPC_OUT=res)
    subprocess.run([exe], cwd=CORPUS, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dyn = [0, 0, 0]
    with open(res) as f:
        for line in f:
            for i, v in enumerate(line.split()):
                dyn[i] += int(v)
    return adds, sets, dyn


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    kpath = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or sorted(f[:-2] for f in os.listdir(CORPUS) if f.endswith(".c"))
    print("%-14s %6s %6s | %10s %10s %9s %8s" % ("program", "adds", "sets", "adds run", "sets run", "paths",
                                                 "upd/path"))
    tot = [0, 0, 0, 0, 0]
    with tempfile.TemporaryDirectory() as work:
        for name in names:
            adds, sets, (da, ds, dp) = measure(kpath, name, work)
            print("%-14s %6d %6d | %10d %10d %9d %8.3f" % (name, adds, sets, da, ds, dp, (da + ds) / max(dp, 1)))
            for i, v in enumerate((adds, sets, da, ds, dp)):
                tot[i] += v
    print("%-14s %6d %6d | %10d %10d %9d %8.3f" % ("total", tot[0], tot[1], tot[2], tot[3], tot[4],
                                                 (tot[2] + tot[3]) / max(tot[4], 1)))


if __name__ == "__main__":
    main()
