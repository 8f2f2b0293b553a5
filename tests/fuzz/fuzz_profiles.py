#!/usr/bin/env python3
"""fuzz_profiles.py: a seeded mutation fuzzer of the profile readers.

    fuzz_profiles.py KPATH WORKDIR [--cases N] [--seed S] [--corpus FILE.c ...]

Seeds are real profiles: the test fixtures (tests/report, tests/html) and
profiles made by instrumenting and running corpus programs (--corpus, with
KPATH_K=4).  Each case is one seed mutated one to three times: truncation,
byte flips, control characters, key deletion and duplication (a repeated
JSON key, a duplicated array element), wrong types, huge and negative
numbers, deep nesting, absurd line numbers, hostile `file` fields (absolute
paths, ../, /dev/zero, a FIFO, a symlink out of the source root).

Every reader runs on every case (report, report --json, report --force,
show, show --json, merge, diff, residual --json, coverage, coverage --json, html; paths on every 8th case, with a name
and file from the case), each under a time limit and `ulimit -f`.  A run
passes when:
  - it exits 0, or 1 with a message on stderr starting "kpath" (a clean
    error): never a signal, a timeout, or a sanitizer report;
  - it writes at most a small multiple of its input (the case and the
    sources under the root) -- RLIMIT_FSIZE turns more into a failure;
  - merge writes nothing, or a profile that validate_profile.py accepts;
  - html leaves no temporary directory behind.
The output ends with "fuzz: N cases, C commands, F failures"; failing cases
are kept in WORKDIR/failures.  Exit status 1 when any run failed.
"""
import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "report"))
import validate_profile  # noqa: E402

FIXTURES = ["tests/report/fixture.json", "tests/report/data/diff_old.json", "tests/report/data/diff_new.json",
            "tests/html/fixtures/loop.json", "tests/html/fixtures/loop_spans.json", "tests/html/fixtures/odd.json",
            "tests/report/invalid/valid.json"]
SOURCES = ["tests/report/data/t.c", "tests/html/fixtures/loop.c"]
TIMEOUT = 30          # seconds per command (sanitizer builds are slow)
OUT_FACTOR = 64       # output bound: OUT_FACTOR x (case + sources) + OUT_SLACK
OUT_SLACK = 1 << 20
SANITIZER_MARKS = ("runtime error:", "AddressSanitizer", "LeakSanitizer", "UndefinedBehaviorSanitizer")


def make_seeds(kpath, work, corpus, lenient):
    """The seed profiles (as text) and the source root they refer to."""
    src = os.path.join(work, "root")
    os.makedirs(src, exist_ok=True)
    for s in SOURCES:
        shutil.copy(os.path.join(ROOT, s), src)
    seeds = []
    for f in FIXTURES:
        with open(os.path.join(ROOT, f)) as fh:
            seeds.append(fh.read())
    cc = os.environ.get("CC", "cc").split()
    libs = subprocess.run([kpath, "config", "--libs"], capture_output=True, text=True, check=True).stdout.split()
    for c in corpus:
        base = os.path.basename(c)
        shutil.copy(c, src)
        stem = os.path.splitext(base)[0]
        try:  # a program that needs flags or input of its own is left out
            subprocess.run([kpath, "instrument", base, "-o", stem + ".kpath.c"], cwd=src, check=True,
                           capture_output=True)
            subprocess.run(cc + [stem + ".kpath.c", "-o", stem] + libs, cwd=src, check=True, capture_output=True)
            env = dict(os.environ, KPATH_K="4", KPATH_OUT=stem + ".json")
            subprocess.run(["./" + stem], cwd=src, env=env, capture_output=True, timeout=120,
                           stdin=subprocess.DEVNULL)
            with open(os.path.join(src, stem + ".json")) as fh:
                seeds.append(fh.read())
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
            print("fuzz: note: no seed profile from %s (%s)" % (base, str(e)[:120]))
            if not lenient:  # the ctest run: every program named gives a seed
                raise
    # hostile neighbours of the root
    outside = os.path.join(work, "outside")
    os.makedirs(outside, exist_ok=True)
    with open(os.path.join(outside, "secret.c"), "w") as fh:
        fh.write("int SECRET_TEXT;\n")
    for name, target in (("link_out.c", os.path.join(outside, "secret.c")), ("link_zero.c", "/dev/zero")):
        p = os.path.join(src, name)
        if not os.path.lexists(p):
            os.symlink(target, p)
    if not os.path.exists(os.path.join(src, "fifo.c")):
        os.mkfifo(os.path.join(src, "fifo.c"))
    return seeds, src


# ---- mutations ----------------------------------------------------------

HOSTILE_FILES = ["/etc/passwd", "/dev/zero", "/proc/self/environ", "../outside/secret.c", "../../../../etc/hosts",
                 "fifo.c", "link_out.c", "link_zero.c", ".", "", "t.c\u001b[2J", "/", "root/../t.c"]
HUGE = [2 ** 64, 2 ** 64 - 1, 2 ** 63, 2 ** 63 - 1, 2 ** 32, 2 ** 32 - 1, -1, -(2 ** 63), 10 ** 30, 1e308, 0,
        "18446744073709551615", "99999999999999999999999", "-1", "0x10"]
WRONG = [None, True, "x", 1.5, [], {}, [1, [2]], {"id": 1}, "\u0000"]
CONTROL = ["\u001b[31m", "\u001b]0;title\u0007", "\r", "\u0000", "\u009b", "\b", "\u007f"]


def nodes(doc, path=()):
    """Every (container, key) pair of a JSON document."""
    out = []
    if isinstance(doc, dict):
        for k in list(doc):
            out.append((doc, k))
            out.extend(nodes(doc[k]))
    elif isinstance(doc, list):
        for i in range(len(doc)):
            out.append((doc, i))
            out.extend(nodes(doc[i]))
    return out


def structured(doc, rnd):
    """One mutation of a parsed document, in place; returns a label."""
    slots = nodes(doc)
    if not slots:
        return "none"
    c, k = rnd.choice(slots)
    kind = rnd.randrange(10)
    if kind == 0 and isinstance(c, dict):
        del c[k]
        return "delete-key"
    if kind == 1 and isinstance(c, list):
        c.insert(rnd.randrange(len(c) + 1), json.loads(json.dumps(c[k])))
        return "duplicate-element"
    if kind == 2:
        c[k] = rnd.choice(WRONG)
        return "wrong-type"
    if kind == 3 or (kind < 6 and isinstance(c[k], int)):
        c[k] = rnd.choice(HUGE)
        return "huge-number"
    if kind == 4:
        fs = [f for (cc, kk) in slots if isinstance(cc, dict) and kk == "file" for f in [cc]]
        if fs:
            rnd.choice(fs)["file"] = rnd.choice(HOSTILE_FILES)
            return "hostile-file"
    if kind == 5:
        ls = [cc for (cc, kk) in slots if isinstance(cc, dict) and kk in ("lines", "spans")]
        if ls:
            q = rnd.choice(ls)
            big = rnd.choice([4294967295, 2 ** 31, 100000, 0, -5])
            if q.get("lines"):
                q["lines"][rnd.randrange(len(q["lines"]))] = big
            if q.get("spans"):
                q["spans"][rnd.randrange(len(q["spans"]))] = [1, big]
            return "absurd-line"
    if kind == 6:
        names = [cc for (cc, kk) in slots if isinstance(cc, dict) and kk in ("name", "file")]
        if names:
            q = rnd.choice(names)
            key = rnd.choice([kk for kk in ("name", "file") if kk in q])
            q[key] = str(q[key]) + rnd.choice(CONTROL)
            return "control-chars"
    if kind == 7:
        v = c[k]
        for _ in range(rnd.choice([10, 100, 500])):
            v = [v]
        c[k] = v
        return "deep-nesting"
    if kind == 8:
        kipfs = [cc for (cc, kk) in slots if isinstance(cc, dict) and kk == "children"]
        if kipfs:
            q = rnd.choice(kipfs)
            q["count"] = rnd.choice([0, 1, 2 ** 63 + 5, 10 ** 9])
            return "count"
    c[k] = rnd.choice(WRONG + HUGE)
    return "replace"


def raw(text, rnd):
    """One mutation of the bytes; returns (bytes, label)."""
    b = bytearray(text.encode("utf-8", "surrogatepass"))
    kind = rnd.randrange(5)
    if kind == 0 and b:
        return bytes(b[:rnd.randrange(len(b))]), "truncate"
    if kind == 1 and b:
        for _ in range(rnd.randint(1, 8)):
            b[rnd.randrange(len(b))] ^= 1 << rnd.randrange(8)
        return bytes(b), "byte-flip"
    if kind == 2 and b:
        i = rnd.randrange(len(b))
        b[i:i] = rnd.choice([b"\x1b[2J", b"\x00", b"\xff\xfe", b"\xc2\x9b"])
        return bytes(b), "insert-bytes"
    if kind == 3:
        i = text.find('"k":')
        if i >= 0:  # a repeated key: JSON_REJECT_DUPLICATES must refuse it
            return (text[:i] + '"k": 1, ' + text[i:]).encode(), "duplicate-key"
    depth = rnd.choice([100, 2000, 100000])
    return ("[" * depth + text + "]" * depth).encode(), "deep-nesting-raw"


def make_case(seeds, rnd):
    text = rnd.choice(seeds)
    labels = []
    if rnd.random() < 0.75:
        doc = json.loads(text)
        for _ in range(rnd.randint(1, 3)):
            labels.append(structured(doc, rnd))
        text = json.dumps(doc, indent=rnd.choice([None, 1]), ensure_ascii=rnd.random() < 0.5)
    if rnd.random() < 0.3 or not labels:
        data, label = raw(text, rnd)
        labels.append(label)
    else:
        data = text.encode("utf-8", "surrogatepass")
    return data, labels


# ---- running the readers ------------------------------------------------

def limits(nbytes):
    def pre():
        resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, nbytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return pre


def dir_size(p):
    total = 0
    for dp, _, fs in os.walk(p):
        for f in fs:
            try:
                total += os.lstat(os.path.join(dp, f)).st_size
            except OSError:
                pass
    return total


def check_run(cmd, rc, err, out_size, bound):
    """The reason a run failed, or None."""
    if rc == "timeout":
        return "timeout (> %d s)" % TIMEOUT
    if rc < 0:
        return "killed by signal %d" % -rc
    for m in SANITIZER_MARKS:
        if m in err:
            return "sanitizer report: " + err[err.find(m) - 60 if err.find(m) > 60 else 0:][:300]
    if rc not in (0, 1):
        return "exit status %d" % rc
    if rc == 1 and not err.startswith("kpath"):
        return "exit 1 without a 'kpath...' message: %r" % err[:200]
    if out_size > bound:
        return "wrote %d bytes, bound %d" % (out_size, bound)
    return None


def names_of(data):
    """A (function, file) pair from the case, for `kpath paths`."""
    try:
        doc = json.loads(data)
        f = doc["functions"][0]
        return str(f["name"]).replace("\0", ""), str(f["file"]).replace("\0", "")
    except Exception:
        return "f", "t.c"


def run_case(kpath, src, data, idx, seed_text, with_paths):
    case = os.path.join(src, "case.json")
    with open(case, "wb") as fh:
        fh.write(data)
    with open(os.path.join(src, "seed.json"), "w") as fh:
        fh.write(seed_text)
    srcsize = sum(os.path.getsize(os.path.join(src, f)) for f in os.listdir(src)
                  if f.endswith(".c") and os.path.isfile(os.path.join(src, f)) and not os.path.islink(
                      os.path.join(src, f)))
    bound = OUT_FACTOR * (len(data) + srcsize) + OUT_SLACK
    for p in ("merged.json", "site"):
        q = os.path.join(src, p)
        if os.path.isdir(q):
            shutil.rmtree(q)
        elif os.path.exists(q):
            os.remove(q)
    cmds = [["report", "case.json"], ["report", "--json", "case.json"], ["report", "--force", "--top", "0",
                                                                          "case.json"],
            ["show", "case.json"], ["show", "--json", "case.json"],
            ["merge", "case.json", "seed.json", "-o", "merged.json"], ["diff", "seed.json", "case.json"],
            ["residual", "seed.json", "case.json", "--json"],
            ["coverage", "case.json", "seed.json"], ["coverage", "--json", "case.json"],
            ["html", "case.json", "-o", "site"]]
    if with_paths:
        name, file = names_of(data)
        file = file if file.endswith(".c") and not file.startswith("-") else "t.c"
        cmds.append(["paths", file, "--function", name if name and name[0] != "-" else "f", "--limit", "50"])
    fails = []
    for c in cmds:
        outp = os.path.join(src, "stdout.txt")
        try:
            with open(outp, "wb") as out:
                p = subprocess.run([kpath] + c, cwd=src, stdout=out, stderr=subprocess.PIPE, timeout=TIMEOUT,
                                   preexec_fn=limits(bound))
            rc, err = p.returncode, p.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            rc, err = "timeout", ""
        size = os.path.getsize(outp)
        if c[0] == "html":
            size += dir_size(os.path.join(src, "site"))
        why = check_run(c, rc, err, size, bound + (1 << 20 if c[0] == "html" else 0))
        if not why and c[0] == "merge" and os.path.exists(os.path.join(src, "merged.json")):
            errs = validate_profile.validate_file(os.path.join(src, "merged.json"))
            if errs:
                why = "merge wrote an invalid profile: " + errs[0][:200]
        if not why and c[0] == "html":
            left = [f for f in os.listdir(src) if f.startswith(".site.")]
            if left:
                why = "html left %s behind" % left
                for f in left:
                    shutil.rmtree(os.path.join(src, f), ignore_errors=True)
        if why:
            fails.append((c, why))
    return len(cmds), fails


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kpath")
    ap.add_argument("work")
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--corpus", nargs="*", default=[])
    ap.add_argument("--lenient-corpus", action="store_true",
                    help="leave out corpus programs that need flags or input (scripts/fuzz-profiles)")
    a = ap.parse_args()
    sys.setrecursionlimit(20000)
    kpath = os.path.abspath(a.kpath)
    if os.path.isdir(a.work):
        shutil.rmtree(a.work)
    os.makedirs(a.work)
    seeds, src = make_seeds(kpath, os.path.abspath(a.work), [os.path.abspath(c) for c in a.corpus],
                             a.lenient_corpus)
    rnd = random.Random(a.seed)
    faildir = os.path.join(a.work, "failures")
    ncmd = nfail = 0
    labels_seen = {}
    for i in range(a.cases):
        seed_text = rnd.choice(seeds)
        data, labels = make_case(seeds, rnd)
        for l in labels:
            labels_seen[l] = labels_seen.get(l, 0) + 1
        n, fails = run_case(kpath, src, data, i, seed_text, i % 8 == 0)
        ncmd += n
        if fails:
            os.makedirs(faildir, exist_ok=True)
            kept = os.path.join(faildir, "case%04d.json" % i)
            with open(kept, "wb") as fh:
                fh.write(data)
            for c, why in fails:
                nfail += 1
                print("fuzz: FAIL case %d (%s): kpath %s: %s [kept in %s]"
                      % (i, "+".join(labels), " ".join(c), why, kept), flush=True)
    sys.stdout.flush()
    print("fuzz: mutations: " + ", ".join("%s %d" % kv for kv in sorted(labels_seen.items())))
    print("fuzz: %d cases, %d commands, %d failures (seed %d, %d seed profiles)" % (a.cases, ncmd, nfail, a.seed,
                                                                                   len(seeds)))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
