#!/usr/bin/env python3
"""flag_matrix.py: instrumented code adds no warning under any flag set.

For every corpus file (corpus/*.c, corpus/bench/*.c, corpus/project/*.c),
every compiler (gcc, clang-14) and every flag set below (clang's
-Weverything for clang alone; each with -Werror
removed so that all warnings are seen, then compared), the original and the
instrumented file are compiled (gcc with -O2 -c
when the set holds -Wall: -Wmaybe-uninitialized needs the optimiser; else,
and always with clang, whose warnings of these sets all come from its front
end, -fsyntax-only).
The warnings of each are collected as (option, message, line in the original
file) with columns dropped (insertions shift them).  The test fails when the
instrumented file has a warning the original does not, or fails to compile
where the original compiles.  A flag set under which the original does not
compile at all (a C99 file under -std=c89 -pedantic-errors) is skipped for
that file and counted.

usage: flag_matrix.py KPATH CORPUS WORKDIR [CC...] [FILE.c...]
(FILE.c: more files to test, compiled without extra flags)
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

FLAG_SETS = {
    "c89": ["-std=c89", "-pedantic"],
    "c99": ["-std=c99", "-pedantic"],
    "c11": ["-std=c11", "-pedantic"],
    "gnu17": ["-std=gnu17"],
    "strict": ["-Wall", "-Wextra", "-Wc++-compat", "-Wunused-macros", "-Wdeclaration-after-statement",
               "-Wlong-long", "-Wshadow", "-Wconversion", "-Wsign-conversion", "-Wmissing-prototypes",
               "-Wstrict-prototypes", "-Wredundant-decls", "-Wcast-qual", "-Wundef", "-Wpadded"],
    "strict89": ["-std=c89", "-pedantic", "-Wall", "-Wextra", "-Wc++-compat", "-Wunused-macros",
                 "-Wdeclaration-after-statement", "-Wlong-long", "-Wshadow", "-Wconversion",
                 "-Wsign-conversion", "-Wmissing-prototypes", "-Wstrict-prototypes", "-Wredundant-decls",
                 "-Wcast-qual", "-Wundef"],
}
# Flag sets only one compiler has: clang's -Weverything (every warning it
# knows, -Wcomma, -Wpadded, -Wused-but-marked-unused among them).
ONLY_FOR = {"everything": "clang"}
FLAG_SETS["everything"] = ["-Weverything"]

NOTE = re.compile(r"^(.*?):(\d+):(?:\d+:)? note: ")
# "file:line:col: warning: message [-Wopt]"
DIAG = re.compile(r"^(.*?):(\d+):(?:\d+:)? (warning|error): (.*?)(?: \[(-W[^\]]*)\])?$")


def corpus_files(corpus):
    """(name, path, flags) of every file to test."""
    flags = {}
    with open(os.path.join(corpus, "FLAGS")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and ":" in line:
                name, rest = line.split(":", 1)
                flags[name.strip()] = rest.split()
    out = []
    for sub, extra in (("", None), ("bench", []), ("project", ["-I", os.path.join(corpus, "project")])):
        d = os.path.join(corpus, sub)
        for fn in sorted(os.listdir(d)):
            if not fn.endswith(".c"):
                continue
            name = (sub + "/" if sub else "") + fn[:-2]
            fl = extra if extra is not None else flags.get(fn[:-2], [])
            fl = [os.path.join(corpus, a) if a in ("include",) else a for a in fl]
            out.append((name, os.path.join(d, fn), fl))
    return out


def diags(cc, flags, path, origname):
    """(ok, set of warnings) of compiling path: (line, kind, option, message),
    the line only in origname.  A warning inside a macro's expansion is put
    at the outermost invocation (gcc's "in expansion of macro" notes), so
    that one written out by kpath compares equal to the original's."""
    optimiser = "-Wall" in flags and "clang" not in os.path.basename(cc.split()[0])
    mode = ["-O2", "-c", "-o", os.devnull] if optimiser else ["-fsyntax-only"]
    p = subprocess.run([cc] + flags + mode + [path], capture_output=True, text=True)
    out = []
    for line in p.stderr.splitlines():
        m = DIAG.match(line)
        f, ln = (m.group(1), m.group(2)) if m else (None, None)
        where = None
        if m:
            where = ln if os.path.basename(f) == os.path.basename(origname) else os.path.basename(f)
            out.append([where, m.group(3), m.group(5) or "", m.group(4)])
        elif out and "note: in expansion of macro" in line:
            n = NOTE.match(line)
            if n and os.path.basename(n.group(1)) == os.path.basename(origname):
                out[-1][0] = n.group(2)
    return p.returncode == 0, set(tuple(w) for w in out)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    kpath, corpus, work = sys.argv[1:4]
    extra = [a for a in sys.argv[4:] if a.endswith(".c")]
    ccs = [a for a in sys.argv[4:] if not a.endswith(".c")] or ["gcc", "clang-14"]
    ccs = [c for c in ccs if shutil.which(c.split()[0])]
    if not ccs:
        sys.exit("flag_matrix: no compiler found")
    os.makedirs(work, exist_ok=True)
    nfail = ncells = nskip = 0
    only = os.environ.get("FM_ONLY")
    files = corpus_files(corpus) + [(os.path.basename(x)[:-2], x, []) for x in extra]
    jobs = []
    for name, path, fl in files:
        if only and not re.search(only, name):
            continue
        out = os.path.join(work, name.replace("/", "_") + ".kpath.c")
        p = subprocess.run([kpath, "instrument", path, "-o", out, "--"] + fl, capture_output=True, text=True)
        if p.returncode != 0:
            print("FAIL: %s: kpath instrument: %s" % (name, p.stderr.strip()))
            nfail += 1
            continue
        base = ["-pthread"] if "-pthread" in fl else []
        for cc in ccs:
            for setname, sflags in FLAG_SETS.items():
                if setname in ONLY_FOR and ONLY_FOR[setname] not in os.path.basename(cc.split()[0]):
                    continue
                jobs.append((name, path, out, cc, setname, sflags + fl + base))

    def cell(job):
        name, path, out, cc, setname, flags = job
        ok0, w0 = diags(cc, flags, path, path)
        if not ok0 and any(k == "error" for _, k, _, _ in w0):
            return None
        ok1, w1 = diags(cc, flags, out, path)
        return ok0 and not ok1, sorted(w1 - w0)

    with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("FM_JOBS", "2"))) as ex:
        for job, res in zip(jobs, ex.map(cell, jobs)):
            name, _, _, cc, setname, _ = job
            if res is None:
                nskip += 1
                continue
            ncells += 1
            broke, new = res
            if new or broke:
                nfail += 1
                print("FAIL: %s %s %s: %d new diagnostic(s)%s" % (name, cc, setname, len(new),
                                                                  ", does not compile" if broke else ""))
                for w in (new if os.environ.get("FM_VERBOSE") else new[:5]):
                    print("    %s: %s: %s [%s]" % w)
    print("flag_matrix: %d cells compared, %d skipped (original does not compile), %d failure(s)"
          % (ncells, nskip, nfail))
    sys.exit(1 if nfail or not ncells else 0)


main()
