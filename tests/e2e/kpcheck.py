#!/usr/bin/env python3
"""kpcheck.py: checks on kpath profiles (kpath-profile/2) and traces
(docs/trace-format.md, KPTRACE1) for the end-to-end tests.

Standard library, plus tests/report/validate_profile.py (python3-jsonschema):
every profile loaded is validated against docs/kpath-profile.schema.json.
Every failure is printed as "kpcheck: FAIL: ..." and
makes the exit status 1; usage errors exit with 2.

  kpcheck.py profile PROF --k K --src-root DIR [--trace TRACE]
             [--functions N] [--runs R]
      structure of the profile; with --trace also: per function, the number
      of EMIT+LEAVE records == emitted == sum of level-1 counts, the whole
      k-IPF recomputed from the trace (n-gram counting per activation)
      equals the profile's, path lines decoded from the trace's DAG equal the
      profile's, the DAG numbering is a perfect Ball-Larus numbering, and the
      trace's function table matches the profile's functions.
  kpcheck.py same A B          A and B equal, ignoring "runs", "dropped", "program"
                               (a trace holds no dropped events)
  kpcheck.py level1 A B        same functions, equal level-1 counts/emitted
  kpcheck.py prefix SMALL BIG  BIG's forest cut at depth SMALL.k == SMALL's
  kpcheck.py doubled ONE TWO   TWO is ONE accumulated twice (runs 2, counts x2)
"""
import json
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report"))
import validate_profile  # noqa: E402  (tests/report: the JSON Schema check)

failures = []


def fail(msg):
    failures.append(msg)
    print("kpcheck: FAIL: " + msg)


def finish():
    if failures:
        print("kpcheck: %d failure(s)" % len(failures))
        sys.exit(1)
    sys.exit(0)


def load(path):
    """The profile at path; it must validate against
    docs/kpath-profile.schema.json (every profile a test reads is checked)."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        print("kpcheck: FAIL: cannot load profile %s: %s" % (path, e))
        sys.exit(1)
    for err in validate_profile.validate(doc, path)[:20]:
        fail(err)
    return u64_ints(doc)


def u64_ints(doc):
    """doc with its u64 fields as ints: the schema writes a u64 above
    INT64_MAX as a string of digits (a function of more than 2^63 paths,
    tcc's tcctest.c math_cmp_test), which the checks compare and sort as
    numbers."""
    def num(x):
        return int(x) if isinstance(x, str) and x.isdigit() else x

    def nodes(ns):
        for n in ns if isinstance(ns, list) else []:
            if isinstance(n, dict):
                for key in ("id", "count"):
                    if key in n:
                        n[key] = num(n[key])
                nodes(n.get("children"))

    for fn in doc.get("functions", []) if isinstance(doc, dict) else []:
        if not isinstance(fn, dict):
            continue
        for key in ("num_paths", "emitted", "invalid_paths"):
            if key in fn:
                fn[key] = num(fn[key])
        for pth in fn.get("paths", []) if isinstance(fn.get("paths"), list) else []:
            if isinstance(pth, dict) and "id" in pth:
                pth["id"] = num(pth["id"])
        nodes(fn.get("kipf"))
    return doc


# A function is its file, name, line and checksum: one source compiled
# twice with another macro gives two (PCRE2's pcre2_match.c, built for each
# PCRE2_CODE_UNIT_WIDTH; the format allows it, report/merge.c keeps both).
def fkey(fn):
    return (fn.get("file"), fn.get("name"), fn.get("line"), fn.get("checksum"))


def fname(fn):
    return "%s:%s:%s" % (fn.get("file"), fn.get("line"), fn.get("name"))


def functions(prof):
    fns = prof.get("functions")
    if not isinstance(fns, list):
        fail("'functions' is not a list")
        return {}
    out = {}
    for fn in fns:
        if not isinstance(fn, dict):
            fail("a function entry is not an object")
            continue
        k = fkey(fn)
        if k in out:
            fail("function %s listed twice" % fname(fn))
        out[k] = fn
    return out


def forest_counts(roots, maxdepth=None):
    """{(id1, ..., idd): count} of a kipf forest, cut at maxdepth."""
    out = {}

    def walk(nodes, prefix):
        if maxdepth is not None and len(prefix) >= maxdepth:
            return
        for n in nodes:
            seq = prefix + (n.get("id"),)
            if seq in out:
                fail("duplicate forest node %r" % (seq,))
            out[seq] = n.get("count")
            walk(n.get("children", []), seq)

    walk(roots, ())
    return out


def normalize(prof):
    """Canonical form for semantic comparison (ignores 'runs', 'dropped' and
    the whole-program totals, which count runs and threads)."""
    p = dict(prof)
    p.pop("runs", None)
    p.pop("dropped", None)
    p.pop("program", None)
    fns = []
    for fn in prof.get("functions", []):
        f = dict(fn)
        f["paths"] = sorted(fn.get("paths", []), key=lambda x: x.get("id"))
        f["kipf"] = sorted(forest_counts(fn.get("kipf", [])).items())
        fns.append(f)
    p["functions"] = sorted(fns, key=lambda f: [str(x) for x in fkey(f)])
    return p


def diff_fields(what, a, b):
    """Reports differing top-level and per-function fields."""
    for key in sorted(set(a) | set(b)):
        if key == "functions":
            continue
        if a.get(key) != b.get(key):
            fail("%s: field %r differs: %r vs %r" % (what, key, a.get(key), b.get(key)))
    fa = {fkey(f): f for f in a.get("functions", [])}
    fb = {fkey(f): f for f in b.get("functions", [])}
    for k in sorted(set(fa) | set(fb), key=str):
        if k not in fa or k not in fb:
            fail("%s: function %s only in %s" % (what, k, "first" if k in fa else "second"))
            continue
        for key in sorted(set(fa[k]) | set(fb[k])):
            va, vb = fa[k].get(key), fb[k].get(key)
            if va != vb:
                if key == "kipf":
                    da, db = dict(va), dict(vb)
                    diffs = [(s, da.get(s), db.get(s)) for s in sorted(set(da) | set(db))
                             if da.get(s) != db.get(s)]
                    fail("%s: function %s: kipf differs at %d sequence(s), e.g. %s"
                         % (what, k, len(diffs), diffs[:5]))
                else:
                    fail("%s: function %s: field %r differs: %.200r vs %.200r"
                         % (what, k, key, va, vb))


# ---------------------------------------------------------------- trace

class Trace:
    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = f.read()
        self.pos = 0
        self.funcs = []                # dicts from F chunks
        self.seqs = {}                 # (thread, act) -> [ids]
        self.act_func = {}             # (thread, act) -> func index
        self.records = defaultdict(int)  # func index -> EMIT+LEAVE count
        self.leaves = defaultdict(int)
        self.enters = defaultdict(int)
        self.done = set()              # activations that have LEAVEd
        self.parse()

    def varint(self, end):
        shift = 0
        v = 0
        while True:
            if self.pos >= end:
                raise ValueError("varint runs past the end of its chunk at %d" % self.pos)
            b = self.data[self.pos]
            self.pos += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return v

    def string(self, end):
        n = self.varint(end)
        if self.pos + n > end:
            raise ValueError("string runs past the end of its chunk")
        s = self.data[self.pos:self.pos + n].decode("utf-8", "replace")
        self.pos += n
        return s

    def parse(self):
        d = self.data
        if d[:8] != b"KPTRACE1":
            raise ValueError("bad magic %r" % d[:8])
        self.pos = 8
        version = self.varint(len(d))
        if version != 1:
            raise ValueError("trace version %d, expected 1" % version)
        while self.pos < len(d):
            ctype = d[self.pos:self.pos + 1]
            self.pos += 1
            length = self.varint(len(d))
            end = self.pos + length
            if end > len(d):
                raise ValueError("chunk %r at %d truncated" % (ctype, self.pos))
            if ctype == b"F":
                self.f_chunk(end)
            elif ctype == b"B":
                self.b_chunk(end)
            else:
                raise ValueError("unknown chunk type %r at %d" % (ctype, self.pos - 1))
            if self.pos != end:
                raise ValueError("chunk %r not consumed exactly (%d != %d)" % (ctype, self.pos, end))

    def f_chunk(self, end):
        f = {}
        f["index"] = self.varint(end)
        if f["index"] != len(self.funcs):
            raise ValueError("F chunk index %d, expected %d" % (f["index"], len(self.funcs)))
        f["name"] = self.string(end)
        f["file"] = self.string(end)
        f["line"] = self.varint(end)
        f["checksum"] = self.string(end)
        f["num_paths"] = self.varint(end)
        nb = self.varint(end)
        f["block_line"] = [self.varint(end) for _ in range(nb)]
        ne = self.varint(end)
        f["edges"] = [(self.varint(end), self.varint(end), self.varint(end)) for _ in range(ne)]
        # optional trailer: each block's last line
        f["block_last_line"] = [self.varint(end) for _ in range(nb)] if self.pos < end else None
        # and after it, optionally, the source hash (docs/trace-format.md)
        f["source_hash"] = self.string(end) if self.pos < end else None
        self.funcs.append(f)

    def b_chunk(self, end):
        thread = self.varint(end)
        cur = self.varint(end)
        while self.pos < end:
            r = self.varint(end)
            kind, arg = r & 3, r >> 2
            if kind == 2:
                if arg >= len(self.funcs):
                    raise ValueError("ENTER of unknown function %d" % arg)
                cur += 1
                key = (thread, cur)
                if key in self.act_func:
                    raise ValueError("activation %r entered twice" % (key,))
                self.act_func[key] = arg
                self.seqs[key] = []
                self.enters[arg] += 1
            elif kind in (0, 1):
                pid = self.varint(end)
                key = (thread, cur - arg)
                if key not in self.act_func:
                    raise ValueError("record for unknown activation %r" % (key,))
                if key in self.done:
                    raise ValueError("record for activation %r after its LEAVE" % (key,))
                fi = self.act_func[key]
                self.records[fi] += 1
                self.seqs[key].append(pid)
                if kind == 1:
                    self.leaves[fi] += 1
                    self.done.add(key)
            else:
                raise ValueError("bad record kind 3")


def ngram_forest(trace, fi, num_paths, k):
    counts = defaultdict(int)
    for key, seq in trace.seqs.items():
        if trace.act_func[key] != fi:
            continue
        valid = [x for x in seq if x < num_paths]
        for i in range(len(valid)):
            for n in range(1, k + 1):
                if i + n > len(valid):
                    break
                counts[tuple(valid[i:i + n])] += 1
    return dict(counts)


def check_numbering(f, what):
    """Perfect Ball-Larus numbering of the trace's DAG; returns decoder."""
    nb = len(f["block_line"])
    out = defaultdict(list)
    for s, d, v in f["edges"]:
        if s >= nb or d >= nb:
            fail("%s: edge %d->%d outside %d blocks" % (what, s, d, nb))
            return None
        out[s].append((v, d))
    prev = None
    for s, d, v in f["edges"]:
        if prev is not None and (s, v) < prev:
            fail("%s: edges not grouped by src / sorted by val" % what)
            break
        prev = (s, v)
    memo = {1: 1}
    state = {}

    def npaths(b):
        if b in memo:
            return memo[b]
        if state.get(b) == 1:
            raise ValueError("cycle in DAG at block %d" % b)
        state[b] = 1
        total = 0
        for v, d in sorted(out[b]):
            if v != total:
                raise ValueError("block %d: out-edge to %d has val %d, expected %d" % (b, d, v, total))
            total += npaths(d)
        if not out[b]:
            raise ValueError("block %d has no path to EXIT" % b)
        memo[b] = total
        return total

    try:
        n = npaths(0)
    except ValueError as e:
        fail("%s: DAG numbering: %s" % (what, e))
        return None
    if n != f["num_paths"]:
        fail("%s: DAG has %d ENTRY-EXIT paths, num_paths says %d" % (what, n, f["num_paths"]))

    def decode(pid, spans=False):
        """The path's lines, or with spans=True its [first, last] pairs."""
        rest, b, lines = pid, 0, []
        last = f.get("block_last_line")
        while b != 1:
            cands = [(v, d) for v, d in out[b] if v <= rest]
            if not cands:
                return None
            v, d = max(cands)
            rest -= v
            b = d
            first = f["block_line"][b]
            if first:
                lines.append([first, max(first, last[b])] if spans and last else first)
        return lines if rest == 0 else None
    return decode


# ---------------------------------------------------------------- commands

def cmd_profile(args):
    path = args[0]
    opts = {"--k": None, "--src-root": ".", "--trace": None, "--functions": None, "--runs": "1"}
    i = 1
    while i < len(args):
        if args[i] not in opts or i + 1 >= len(args):
            print("kpcheck: bad option %r" % args[i])
            sys.exit(2)
        opts[args[i]] = args[i + 1]
        i += 2
    k = int(opts["--k"])
    prof = load(path)
    if prof.get("schema") != "kpath-profile/2":
        fail("schema is %r" % prof.get("schema"))
    # whole-program totals (docs/profile-schema.md, "program"): the runtime
    # writes them for every run it counts
    tot = prof.get("program", {}).get("totals", {})
    if tot.get("runs") != prof.get("runs") or not tot.get("threads", 0) >= 1:
        fail("program.totals %r: expected runs %r and threads >= 1" % (tot, prof.get("runs")))
    if prof.get("k") != k:
        fail("k is %r, expected %d" % (prof.get("k"), k))
    if prof.get("runs") != int(opts["--runs"]):
        fail("runs is %r, expected %s" % (prof.get("runs"), opts["--runs"]))
    fns = functions(prof)
    if not fns:
        fail("profile lists no functions")
    if opts["--functions"] is not None and len(fns) != int(opts["--functions"]):
        fail("profile lists %d functions, kpath instrument reported %s instrumented: %s"
             % (len(fns), opts["--functions"], sorted(f.get("name") for f in fns.values())))
    nlines_cache = {}
    level1 = {}
    for key, fn in fns.items():
        what = "function " + fname(fn)
        for field, typ in (("name", str), ("file", str), ("line", int), ("checksum", str),
                           ("num_paths", int), ("invalid_paths", int), ("emitted", int),
                           ("paths", list), ("kipf", list)):
            if not isinstance(fn.get(field), typ):
                fail("%s: field %r missing or not %s" % (what, field, typ.__name__))
                break
        else:
            pass
        if not isinstance(fn.get("kipf"), list) or not isinstance(fn.get("paths"), list):
            continue
        if not re.fullmatch(r"[0-9a-f]{16}", str(fn.get("checksum"))):
            fail("%s: checksum %r is not 16 hex digits" % (what, fn.get("checksum")))
        if fn.get("invalid_paths") != 0:
            fail("%s: invalid_paths = %r" % (what, fn.get("invalid_paths")))
        num_paths = fn.get("num_paths", 0)
        if not isinstance(num_paths, int) or num_paths < 1:
            fail("%s: num_paths = %r" % (what, num_paths))
            continue
        src = os.path.join(opts["--src-root"], fn.get("file", ""))
        if src not in nlines_cache:
            try:
                with open(src, errors="replace") as f:
                    nlines_cache[src] = len(f.read().split("\n"))
            except OSError as e:
                fail("%s: cannot read its source file %s: %s" % (what, src, e))
                nlines_cache[src] = None
        nlines = nlines_cache[src]
        if nlines is not None and not 1 <= fn.get("line", 0) <= nlines:
            fail("%s: line %r outside the file (%d lines)" % (what, fn.get("line"), nlines))
        paths = {}
        for p in fn["paths"]:
            pid, lines = p.get("id"), p.get("lines")
            if not isinstance(pid, int) or not 0 <= pid < num_paths:
                fail("%s: path id %r not in [0, %d)" % (what, pid, num_paths))
                continue
            if pid in paths:
                fail("%s: path id %d listed twice" % (what, pid))
            if not isinstance(lines, list) or not lines:
                fail("%s: path %d has no lines" % (what, pid))
            elif nlines is not None and not all(isinstance(x, int) and 1 <= x <= nlines for x in lines):
                fail("%s: path %d lines %r outside %s (%d lines)" % (what, pid, lines, src, nlines))
            elif not all(x >= fn.get("line", 0) for x in lines):
                fail("%s: path %d lines %r before the function's line %r"
                     % (what, pid, lines, fn.get("line")))
            paths[pid] = lines

        def walk(nodes, depth, parent_count, seq):
            ids = set()
            total = 0
            for n in nodes:
                nid, cnt = n.get("id"), n.get("count")
                s = seq + (nid,)
                if not isinstance(nid, int) or not 0 <= nid < num_paths:
                    fail("%s: kipf node %r: id not in [0, %d)" % (what, s, num_paths))
                if nid in ids:
                    fail("%s: kipf node %r: duplicate sibling id" % (what, s))
                ids.add(nid)
                if nid not in paths:
                    fail("%s: kipf id %r not listed in paths" % (what, nid))
                if not isinstance(cnt, int) or cnt < 1:
                    fail("%s: kipf node %r: count %r" % (what, s, cnt))
                    continue
                if depth > k:
                    fail("%s: kipf node %r deeper than k=%d" % (what, s, k))
                if parent_count is not None and cnt > parent_count:
                    fail("%s: kipf node %r: count %d > parent's %d" % (what, s, cnt, parent_count))
                total += cnt
                walk(n.get("children", []), depth + 1, cnt, s)
            if parent_count is not None and total > parent_count:
                fail("%s: kipf children of %r sum to %d > parent's %d" % (what, seq, total, parent_count))
            return total

        l1 = walk(fn["kipf"], 1, None, ())
        level1[key] = l1
        if l1 != fn.get("emitted"):
            fail("%s: level-1 kipf counts sum to %d, emitted = %r" % (what, l1, fn.get("emitted")))

    if opts["--trace"]:
        check_trace(opts["--trace"], fns, k)


def check_trace(tpath, fns, k):
    try:
        tr = Trace(tpath)
    except (OSError, ValueError, IndexError) as e:
        fail("trace %s: %s" % (tpath, e))
        return
    # A function listed twice in the trace (one source compiled twice, the
    # function not depending on the macro: hunt G's PCRE2) is one function
    # of the profile, whose writers add such twins into one: its records
    # and n-grams are the twins' summed.
    tkeys, twins = {}, {}
    for f in tr.funcs:
        key = (f["file"], f["name"], f["line"], f["checksum"])
        twins.setdefault(key, []).append(f)
        tkeys.setdefault(key, f)
    if set(tkeys) != set(fns):
        fail("trace function table %s != profile functions %s"
             % (sorted(map(str, tkeys)), sorted(map(str, fns))))
    total_records = 0
    for key, fn in fns.items():
        what = "function " + fname(fn)
        f = tkeys.get(key)
        if f is None:
            continue
        for field in ("checksum", "num_paths"):
            if f[field] != fn.get(field):
                fail("%s: trace says %s = %r, profile %r" % (what, field, f[field], fn.get(field)))
        nrec = sum(tr.records.get(t["index"], 0) for t in twins[key])
        total_records += nrec
        if nrec != fn.get("emitted"):
            fail("%s: trace has %d EMIT+LEAVE records, profile emitted = %r"
                 % (what, nrec, fn.get("emitted")))
        if any(tr.leaves.get(t["index"], 0) > tr.enters.get(t["index"], 0) for t in twins[key]):
            fail("%s: more LEAVE than ENTER records" % what)
        expect = {}
        for t in twins[key]:
            for seq, n in ngram_forest(tr, t["index"], t["num_paths"], k).items():
                expect[seq] = expect.get(seq, 0) + n
        got = forest_counts(fn.get("kipf", []))
        if expect != got:
            diffs = [(s, expect.get(s), got.get(s)) for s in sorted(set(expect) | set(got))
                     if expect.get(s) != got.get(s)]
            fail("%s: k-IPF differs from n-gram counts of the trace at %d sequence(s) "
                 "(seq, from trace, in profile): %s" % (what, len(diffs), diffs[:6]))
        decode = check_numbering(f, what)
        if decode:
            for p in fn.get("paths", []):
                want = decode(p.get("id", -1))
                if want is None:
                    fail("%s: path id %r does not decode in the trace's DAG" % (what, p.get("id")))
                elif want != p.get("lines"):
                    fail("%s: path %r lines %r, decoding the DAG gives %r"
                         % (what, p.get("id"), p.get("lines"), want))
                elif f.get("block_last_line") and decode(p["id"], True) != p.get("spans"):
                    fail("%s: path %r spans %r, decoding the DAG gives %r"
                         % (what, p.get("id"), p.get("spans"), decode(p["id"], True)))
    print("kpcheck: trace: %d functions, %d activations, %d EMIT+LEAVE records"
          % (len(tr.funcs), len(tr.act_func), total_records))


def cmd_same(a, b):
    diff_fields("%s vs %s" % (a, b), normalize(load(a)), normalize(load(b)))


def level1_view(prof):
    out = {}
    for fn in prof.get("functions", []):
        out[fkey(fn)] = {
            "emitted": fn.get("emitted"), "invalid_paths": fn.get("invalid_paths"),
            "num_paths": fn.get("num_paths"), "checksum": fn.get("checksum"),
            "kipf": sorted(forest_counts(fn.get("kipf", []), 1).items()),
        }
    return out


def cmd_level1(a, b):
    va, vb = level1_view(load(a)), level1_view(load(b))
    for k in sorted(set(va) | set(vb), key=str):
        if va.get(k) != vb.get(k):
            fail("level 1 of %s vs %s: function %s: %.300r vs %.300r" % (a, b, k, va.get(k), vb.get(k)))


def cmd_prefix(small, big):
    s, b = load(small), load(big)
    depth = s.get("k")
    if not isinstance(depth, int) or not isinstance(b.get("k"), int) or b["k"] < depth:
        fail("prefix: k of %s (%r) must be <= k of %s (%r)" % (small, depth, big, b.get("k")))
        return
    fs, fb = functions(s), functions(b)
    if set(fs) != set(fb):
        fail("prefix: different function sets")
    for key in sorted(set(fs) & set(fb), key=str):
        for field in ("emitted", "invalid_paths", "num_paths", "checksum"):
            if fs[key].get(field) != fb[key].get(field):
                fail("prefix: function %s: %s %r vs %r" % (key, field, fs[key].get(field), fb[key].get(field)))
        cs = forest_counts(fs[key].get("kipf", []))
        cb = forest_counts(fb[key].get("kipf", []), depth)
        if cs != cb:
            diffs = [(q, cs.get(q), cb.get(q)) for q in sorted(set(cs) | set(cb)) if cs.get(q) != cb.get(q)]
            fail("prefix: function %s: k=%d forest is not the k=%d forest cut at depth %d: %d "
                 "difference(s) (seq, small, big): %s" % (key, depth, b["k"], depth, len(diffs), diffs[:6]))


def cmd_doubled(one, two):
    p1, p2 = load(one), load(two)
    if p2.get("runs") != 2 * p1.get("runs", 0):
        fail("accumulated profile has runs %r, expected %r" % (p2.get("runs"), 2 * p1.get("runs", 0)))
    t1, t2 = p1.get("program", {}).get("totals"), p2.get("program", {}).get("totals")
    if t1 is None or t2 != {"runs": 2 * t1["runs"], "threads": 2 * t1["threads"]}:
        fail("accumulated profile has program.totals %r, expected twice %r" % (t2, t1))
    n1 = normalize(p1)
    for fn in n1["functions"]:
        fn["emitted"] *= 2
        fn["invalid_paths"] *= 2
        fn["kipf"] = [(s, c * 2) for s, c in fn["kipf"]]
    diff_fields("%s x2 vs %s" % (one, two), n1, normalize(p2))


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "profile":
        cmd_profile(args)
    elif cmd in ("same", "level1", "prefix", "doubled") and len(args) == 2:
        {"same": cmd_same, "level1": cmd_level1, "prefix": cmd_prefix, "doubled": cmd_doubled}[cmd](*args)
    else:
        print(__doc__)
        sys.exit(2)
    finish()


if __name__ == "__main__":
    main()
