#!/usr/bin/env python3
"""tests/overlapmode/calls_trace.py: the exact Type I and Type II counts of
a run (Tallam, Zhang & Gupta, CGO 2004, section 3.1) from its KPATH_TRACE
(docs/trace-format.md), and their check against `kpath overlap estimate
--json` of the same run's --mode overlap profile.

The trace holds every activation's Ball-Larus paths in order and the order
in which activations start, so each activation's direct callees are known
and when: a callee entered while its caller's path p is in progress ran
from a call in p.  For each path of a caller through call sites (the
profile's overlap.calls), the callees entered during it are matched, in
order, to the sites on the path with the same callee (its name and file:
the caller's, or across files the site's callee_file); the pair
(caller's prefix to c ! callee's first path) is a Type I path, and (callee's
last path ! caller's suffix from c) a Type II path when the callee returned.
A path on which that matching is not one to one (a call of the same
function from a block that is no site, or through a pointer) makes its
sites ambiguous: they are reported and not checked.

check(): every Type I / II pair of every site that was not ambiguous:
lower <= exact <= upper (pairs the estimate leaves out have bounds 0..0),
bounds equal to the exact count when the degree is at least the type's
maximum overlap, and C (the site's calls) equal to the calls matched.
"""
import json


def varint(b, i):
    v, s = 0, 0
    while True:
        x = b[i]
        i += 1
        v |= (x & 0x7F) << s
        s += 7
        if not x & 0x80:
            return v, i


def string(b, i):
    n, i = varint(b, i)
    return b[i:i + n].decode(), i + n


def read_trace(path):
    """Per thread, the records in order: ('enter', act, func) and ('path', act, id, left)."""
    b = open(path, "rb").read()
    if b[:8] != b"KPTRACE1":
        raise ValueError("%s: not a kpath trace" % path)
    _, i = varint(b, 8)
    funcs, threads = [], {}
    while i < len(b):
        t = b[i:i + 1]
        n, i = varint(b, i + 1)
        end, j = i + n, i
        if t == b"F":
            _, j = varint(b, j)
            name, j = string(b, j)
            file, j = string(b, j)
            funcs.append((name, file))
        elif t == b"B":
            th, j = varint(b, j)
            cur, j = varint(b, j)
            recs = threads.setdefault(th, [])
            while j < end:
                x, j = varint(b, j)
                if x & 3 == 2:
                    cur += 1
                    recs.append(("enter", cur, x >> 2))
                else:
                    pid, j = varint(b, j)
                    recs.append(("path", cur - (x >> 2), pid, x & 3 == 1))
        i = end
    return funcs, threads


def callee_key(f, site):
    """(name, file) of the site's callee: in the caller's file, or across files in callee_file (None: the
    program defines it in no file in this mode)."""
    if site.get("across"):
        return (site["callee"], site["callee_file"]) if "callee_file" in site else None
    return (site["callee"], f["file"])


class Func:
    def __init__(self, f):
        self.name, self.f = f["name"], f
        self.kinds = f.get("overlap", {}).get("dag_kinds", "c" * len(f["cfg"]["edges"]))
        self.out = {}
        for k, (s, d, v) in enumerate(f["cfg"]["edges"]):
            self.out.setdefault(s, []).append((v, d, k))
        self.sites = {s["block"]: s for s in f.get("overlap", {}).get("calls", [])}
        self.callee = {b: callee_key(f, s) for b, s in self.sites.items()}
        self.memo = {}

    def decode(self, pid):
        """Blocks of path pid as frontend/overlap_prof.c decodes them: (blocks, from_head, to_back)."""
        if pid not in self.memo:
            self.memo[pid] = self.decode1(pid)
        return self.memo[pid]

    def decode1(self, pid):
        v, rest, out, fh = 0, pid, [], False
        while v != 1:
            best = None
            for val, d, k in self.out.get(v, []):
                if val <= rest:
                    best = (val, d, k)
            if best is None:
                raise ValueError("%s: path %d does not decode" % (self.name, pid))
            val, d, k = best
            rest -= val
            kind = self.kinds[k]
            if v == 0 and kind == "e":
                fh = True
            elif v == 0:
                out.append(0)
            if kind == "x":
                return tuple(out + [v]), fh, True
            if v != 0:
                out.append(v)
            v = d
        return tuple(out + [1]), fh, False


def exact_counts(profile, trace):
    """{(caller, block): {"calls": n, "ambiguous": n, 1: {(p, q): n}, 2: {(p, q): n}}}.

    An activation is [name, first path, last path, left, callees entered
    during its path in progress]; a path's callees are done when it ends
    (the caller waits), so they are matched then and dropped."""
    byname = {(f["name"], f["file"]): Func(f) for f in profile["functions"]
              if "cfg" in f and f.get("mode") == "overlap"}
    names, threads = read_trace(trace)
    res = {}
    for recs in threads.values():
        acts, live = {}, []
        for r in recs:
            if r[0] == "enter":
                name = names[r[2]]
                acts[r[1]] = [name, None, None, False, []]
                if live and not name[0].startswith("kpath_rt_overlap:"):
                    acts[live[-1]][4].append(r[1])
                live.append(r[1])
                continue
            a = acts.get(r[1])
            if a is None:
                continue
            if a[1] is None:
                a[1] = r[2]
            a[2] = r[2]
            F = byname.get(a[0])
            if F and F.sites:
                path_pairs(F, byname, r[2], [acts[k] for k in a[4]], res)
            for k in a[4]:
                if acts[k][3]:  # one left by longjmp may still emit
                    del acts[k]
            a[4] = []
            if r[3]:
                a[3] = True
                live.remove(r[1])
    return res


def path_pairs(F, byname, pid, kids, res):
    """The Type I / II pairs of one path pid of F, whose callees entered were kids."""
    blocks = F.decode(pid)[0]
    sites = [c for c in blocks if c in F.sites and F.callee[c] in byname]
    if not sites:
        return
    kid_names = [k[0] for k in kids]
    want = {}
    for c in sites:
        want[F.callee[c]] = want.get(F.callee[c], 0) + 1
    ok = all(kid_names.count(g) == n for g, n in want.items())
    j = 0
    for c in sites:
        s = res.setdefault((F.name, F.f["file"], c), {"calls": 0, "ambiguous": 0, 1: {}, 2: {}})
        if not ok:
            s["ambiguous"] += 1
            continue
        while kids[j][0] != F.callee[c]:
            j += 1
        callee = kids[j]
        j += 1
        s["calls"] += 1
        G = byname[callee[0]]
        k = blocks.index(c)
        if callee[1] is not None:
            key = (blocks[:k + 1], G.decode(callee[1])[0])
            s[1][key] = s[1].get(key, 0) + 1
        if callee[3]:
            key = (G.decode(callee[2])[0], blocks[k:])
            s[2][key] = s[2].get(key, 0) + 1


def check(profile, trace, estimate):
    """Failures (strings) and a summary {checked, pairs, ambiguous, flow per type, definite, potential}."""
    ex = exact_counts(profile, trace)
    fails, summ = [], {"sites": 0, "pairs": 0, "ambiguous": 0, "unfinished": 0, "flow": [0, 0], "definite": [0, 0],
                       "potential": [0, 0], "exact_pairs": [0, 0]}
    degree = {f["name"]: f["degree"] for f in estimate["functions"]}
    for f in estimate["functions"]:
        for site in f["calls"]:
            key = (f["name"], f["file"], site["block"])
            e = ex.get(key, {"calls": 0, "ambiguous": 0, 1: {}, 2: {}})
            where = "%s line %d (-> %s)" % (f["name"], site["line"], site["callee"])
            if "type1" not in site:  # the callee is not in overlap mode: C only, no trace of its calls
                continue
            if e["ambiguous"]:
                summ["ambiguous"] += 1
                continue
            if any(site.get("type%d" % t, {}).get("unfinished") for t in (1, 2)):
                summ["unfinished"] += 1
                continue
            if e["calls"] != site["calls"]:
                fails.append("%s: C %d, the trace's calls %d" % (where, site["calls"], e["calls"]))
            for t in (1, 2):
                est = site.get("type%d" % t)
                if est is None:
                    continue
                summ["sites"] += 1
                bounds = {(tuple(p["first_blocks"]), tuple(p["second_blocks"])): (p["lower"], p["upper"])
                          for p in est["pairs"]}
                real = sum(e[t].values())
                summ["flow"][t - 1] += real
                summ["definite"][t - 1] += est["definite"]
                summ["potential"][t - 1] += est["potential"]
                if real != est["flow"]:
                    fails.append("%s type %d: flow %d, the trace's %d" % (where, t, est["flow"], real))
                at_max = degree[f["name"]] >= est["max_degree"]
                for pq in set(bounds) | set(e[t]):
                    lo, up = bounds.get(pq, (0, 0))
                    x = e[t].get(pq, 0)
                    summ["pairs"] += 1
                    summ["exact_pairs"][t - 1] += lo == x == up
                    if not lo <= x <= up:
                        fails.append("%s type %d: %s ! %s: bounds %d..%d, exact %d" % (where, t, pq[0], pq[1], lo,
                                                                                       up, x))
                    elif at_max and lo != up:
                        fails.append("%s type %d: %s ! %s: bounds %d..%d at maximum overlap %d, exact %d"
                                     % (where, t, pq[0], pq[1], lo, up, est["max_degree"], x))
    return fails, summ


if __name__ == "__main__":
    import sys
    if len(sys.argv) != 4:
        sys.exit("usage: calls_trace.py PROFILE TRACE ESTIMATE.json")
    fails, summ = check(json.load(open(sys.argv[1])), sys.argv[2], json.load(open(sys.argv[3])))
    for x in fails:
        print("FAIL", x)
    print(json.dumps(summ))
    sys.exit(1 if fails else 0)
