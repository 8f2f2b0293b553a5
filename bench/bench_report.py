"""results.md and the slowdown chart for bench/run.

Every ratio is variant / native of the same program: CPU time (user +
system, median of the runs), wall time (median), callgrind instructions.
A variant that timed out shows ">=" the ratio of the timeout (a lower
bound) and fails the targets it enters; one that printed a wrong checksum
shows FAIL.
"""
import math
import os
import subprocess

NAMES = {"native": "native", "gcc-arcs": "gcc -fprofile-arcs", "clang-instr": "clang -fprofile-instr-generate",
         "trace": "trace (k=1 + KPATH_TRACE)"}


def label(v):
    return NAMES.get(v, "k=%s" % v[1:] if v.startswith("k") else v)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[n // 2] + xs[(n - 1) // 2]) / 2 if n else None


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


class Ratio:
    """A ratio to native; lower_bound when the variant timed out."""

    def __init__(self, value, lower_bound=False, failed=False):
        self.value, self.lower_bound, self.failed = value, lower_bound, failed

    def __str__(self):
        if self.failed or self.value is None:
            return "FAIL" if self.failed else "unknown" if self.lower_bound else "n/a"
        return ("&ge; " if self.lower_bound else "") + "%.2f" % self.value


def time_ratio(res, name, v, key="cpu"):
    nat = median([r[key] for r in res[name]["native"]["runs"]])
    slot = res[name][v]
    if not nat:
        return Ratio(None)
    if slot["fail"] == "timeout":
        return Ratio(slot["timeout"] / nat, lower_bound=True)
    if slot["fail"]:
        return Ratio(None, failed=True)
    return Ratio(median([r[key] for r in slot["runs"]]) / nat)


def geo_ratio(ratios):
    """Geometric mean of Ratios; a lower bound if any is one; None if any
    failed."""
    if any(r.failed or r.value is None for r in ratios) or not ratios:
        return Ratio(None, failed=any(r.failed for r in ratios))
    return Ratio(geomean([r.value for r in ratios]), lower_bound=any(r.lower_bound for r in ratios))


def runs_mark(slot, runs, ratio):
    """A ratio from fewer runs than asked for (--budget) gets "(n runs)"."""
    n = len(slot["runs"])
    return "%s (%d run%s)" % (ratio, n, "s" if n > 1 else "") if 0 < n < runs else str(ratio)


def all_ok(res, timeouts_ok=False):
    """No run failed: each printed its checksum.  A full run's timeouts
    (--timeout: k = 16 on the slowest programs) are listed in results.md
    but are not failures; in --quick (CI) they are."""
    return all(not slot["fail"] or (timeouts_ok and slot["fail"] == "timeout")
               for per in res.values() for slot in per.values())


def failures(res):
    return ["%s %s: %s" % (name, v, slot["fail"]) for name, per in res.items() for v, slot in per.items()
            if slot["fail"]]


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(out) + "\n"


def write_quick(path, progs, res, variants):
    rows = []
    for p in progs:
        row = [p["name"], p["quick"]]
        for v in variants:
            slot = res[p["name"]][v]
            row.append(slot["fail"] or "ok %.2fs" % slot["runs"][0]["cpu"])
        rows.append(row)
    with open(path, "w") as f:
        f.write("# bench/run --quick\n\nEach variant once on the quick input; "
                "every cell must be ok (the checksum in corpus/bench/MANIFEST).\n\n")
        f.write(table(["program", "scale"] + [label(v) for v in variants], rows))
    for line in failures(res):
        print("bench: FAIL " + line)
    return all_ok(res)


def added_calls(calls, v):
    """(total added, {function: added}) of variant v over native: calls to
    the program's own functions that the native binary does not make."""
    nat = calls.get("native") or {}
    got = calls.get(v)
    if got is None:
        return None, {}
    per = {f: n - nat.get(f, 0) for f, n in got.items() if n > nat.get(f, 0)}
    return sum(per.values()), per


def calls_section(progs, instr):
    """The inlining-loss table: calls to the program's own functions that an
    instrumented binary makes and the native one does not (callgrind)."""
    vs = [v for v in ("k1", "k4") if any(v in instr[p["name"]].get("calls", {}) for p in progs)]
    rows = []
    for p in progs:
        calls = instr[p["name"]].get("calls", {})
        nat = calls.get("native")
        row = [p["name"], fmt_int(sum(nat.values())) if nat is not None else "n/a"]
        worst = {}
        for v in vs:
            total, per = added_calls(calls, v)
            row.append(fmt_int(total) if total is not None else "n/a")
            for f, n in per.items():
                worst[f] = max(worst.get(f, 0), n)
        top = sorted(worst.items(), key=lambda x: -x[1])[:3]
        row.append(", ".join("`%s` +%s" % (f, fmt_int(n)) for f, n in top) or "none")
        rows.append(row)
    return ("## Calls added by instrumentation (callgrind, quick input)\n\n"
            "Calls to the program's own functions (those its source defines; gcc's clones count as the "
            "function) made by the instrumented binary beyond the native binary's, per function, summed: a "
            "helper the native build inlines and the instrumented one calls shows up here.  Target "
            "(issue 14): 0 everywhere.\n\n" +
            table(["program", "native calls"] + ["%s added" % label(v) for v in vs] + ["most added"], rows) + "\n")


def fmt_int(n):
    return "{:,}".format(n) if n is not None else "n/a"


def write_chart(cfg, progs, res, ks, path):
    """slowdown (CPU time / native) against k, one line per program, the
    geometric mean, the gcc -fprofile-arcs geometric mean and issue 14's
    targets (k=1: 1.25, k=4: 1.5, k=8: 2.0); log-log; timed-out points are
    left out."""
    data = path + ".dat"
    main = [p["name"] for p in progs if p["kind"] == "main"]
    with open(data, "w") as f:
        f.write("# k " + " ".join(main) + " geomean\n")
        for k in ks:
            rs = [time_ratio(res, n, "k%d" % k) for n in main]
            g = geo_ratio(rs)
            cells = ["%.4f" % r.value if r.value and not r.lower_bound and not r.failed else "NaN" for r in rs]
            cells.append("%.4f" % g.value if g.value and not g.lower_bound else "NaN")
            f.write("%d %s\n" % (k, " ".join(cells)))
    targets = data + ".targets"
    with open(targets, "w") as f:
        f.write("1 1.25\n4 1.5\n8 2.0\n")
    arcs = geo_ratio([time_ratio(res, n, "gcc-arcs") for n in main])
    script = ['set terminal pngcairo size 900,600 font ",10"',
              'set output "%s"' % path,
              'set title "kpath: CPU time / native against k (bench/run, %s)" noenhanced' % cfg_date(cfg),
              'set xlabel "k (KPATH_K)" noenhanced', 'set ylabel "slowdown (time / native)"',
              "set logscale xy 2", "set xrange [0.85:19]", "set xtics (1, 2, 4, 8, 16)", "set grid",
              "set key outside right noenhanced", "set datafile missing 'NaN'"]
    plots = ['"%s" using 1:%d with linespoints lw 1 title "%s"' % (data, i + 2, n) for i, n in enumerate(main)]
    plots.append('"%s" using 1:%d with linespoints lw 4 lc rgb "black" title "geometric mean"' %
                 (data, len(main) + 2))
    plots.append('"%s" using 1:2 with linespoints lw 2 dt 2 lc rgb "red" pt 7 title "targets"' % targets)
    if arcs.value and not arcs.failed:
        plots.append('%f with lines lw 2 dt 3 lc rgb "blue" title "gcc -fprofile-arcs (geo. mean)"' % arcs.value)
    script.append("plot " + ", \\\n\t".join(plots))
    subprocess.run([cfg.gnuplot], input="\n".join(script) + "\n", text=True, check=True)
    os.unlink(data)
    os.unlink(targets)


def instr_ratio(instr, name, v):
    """Instructions of variant v over native's (quick input), as a Ratio."""
    per = (instr or {}).get(name, {})
    x, nat = per.get(v), per.get("native")
    return Ratio(x / nat) if x and nat else Ratio(None, failed=True)


def both_ratio(a, b):
    """The larger of two Ratios (a target on instructions and on CPU time
    holds only if it holds for both)."""
    if a.failed or b.failed or a.value is None or b.value is None:
        return Ratio(None, failed=True)
    return a if a.value >= b.value else b


def write_cost_table(rows):
    """The write-at-exit table of bench/write-cost (its --json rows)."""
    out = []
    for r in rows:
        mem = "%.2f" % r["kpath_per_forest"] if r.get("kpath_per_forest") is not None else "-"
        out.append([r["program"], r["k"], fmt_int(r["instructions"]), fmt_int(r["write"]),
                    "%.1f%%" % (100 * r["share"]), "%.1f%%" % (100 * r["share_accumulating"]),
                    fmt_int(r["profile_bytes"]), fmt_int(r["forest_kib"]), mem])
    return table(["program", "k", "instructions", "write at exit", "share", "share accumulating",
                  "profile bytes", "forest KiB", "(peak - native) / forest"], out)


# The memory target is checked where the forest is at least this large:
# below it the runtime's fixed buffers and the noise of RSS are the ratio.
FOREST_KIB_MIN = 1024


def targets_section(meta, main, res, instr, timing):
    """Issue 14's targets (the table of its "Targets"), each with what this
    run measured and a verdict; ratios are geometric means over the main
    programs, on CPU time and on instructions, a target holding only where
    both do.  The instrumenter's time is issue 5's target."""
    rows = []

    def target(what, measured, limit, shown=None):
        if measured.value is None and measured.lower_bound:
            verdict = "unknown (timeouts)"
        elif measured.failed or measured.value is None:
            verdict = "FAIL (no data)"
        elif measured.lower_bound:
            verdict = "fail" if measured.value > limit else "unknown (timeouts)"
        else:
            verdict = "pass" if measured.value <= limit else "fail"
        rows.append([what, shown or str(measured), verdict])

    def geo(v):
        t = geo_ratio([time_ratio(res, p["name"], v) for p in main])
        if not instr or all(v not in instr[p["name"]] for p in main):  # a raw file from before k = 8 was counted
            return t, "time %s, instructions not counted" % t
        i = geo_ratio([instr_ratio(instr, p["name"], v) for p in main])
        return both_ratio(t, i), "time %s, instructions %s" % (t, i)

    for v, limit in (("k1", 1.25), ("k4", 1.5), ("k8", 2.0), ("trace", 3.0)):
        r, shown = geo(v)
        target("%s <= %.2f x native" % (label(v), limit), r, limit, shown)
    k1, arcs = geo_ratio([time_ratio(res, p["name"], "k1") for p in main]), \
        geo_ratio([time_ratio(res, p["name"], "gcc-arcs") for p in main])
    ik1 = geo_ratio([instr_ratio(instr, p["name"], "k1") for p in main])
    iarcs = geo_ratio([instr_ratio(instr, p["name"], "gcc-arcs") for p in main])
    qt, qi = quotient(k1, arcs), quotient(ik1, iarcs)
    target("k=1 <= 1.1 x gcc -fprofile-arcs", both_ratio(qt, qi), 1.1, "time %s, instructions %s" % (qt, qi))
    for v, limit in (("k1", 2.0), ("k4", 3.0)):
        per = [(both_ratio(time_ratio(res, p["name"], v), instr_ratio(instr, p["name"], v)), p["name"])
               for p in main]
        worst = max(per, key=lambda x: x[0].value if x[0].value is not None else math.inf)
        target("worst single program at %s <= %.1f" % (label(v), limit), worst[0], limit,
               "%s (%s)" % (worst[0], worst[1]))
    if instr and any("calls" in instr[p["name"]] for p in main):
        added = [added_calls(instr[p["name"]].get("calls", {}), "k1")[0] for p in main]
        total = Ratio(None, failed=True) if None in added else Ratio(float(sum(added)))
        target("inlining losses: calls to program functions added at k=1 = 0", total, 0,
               fmt_int(sum(added)) if None not in added else "n/a")
    wc = meta.get("write_cost")
    if wc:
        worst = max(wc, key=lambda r: max(r["share"], r["share_accumulating"]))
        share = max(worst["share"], worst["share_accumulating"])
        target("profile write at exit <= 5% of the run's instructions", Ratio(share), 0.05,
               "%.1f%% (%s, k=%d)" % (100 * share, worst["program"], worst["k"]))
        big = [r for r in wc if r.get("kpath_per_forest") is not None and r["forest_kib"] >= FOREST_KIB_MIN]
        if big:
            m = max(big, key=lambda r: r["kpath_per_forest"])
            target("memory kpath adds <= 1.5 x the forest (forests >= %d KiB)" % FOREST_KIB_MIN,
                   Ratio(m["kpath_per_forest"]), 1.5, "%.2f (%s, k=%d)" % (m["kpath_per_forest"], m["program"], m["k"]))
    else:
        rows.append(["profile write at exit <= 5% of the run, memory <= 1.5 x the forest",
                     "not measured (--no-write-cost)", "unknown"])
    rows.append(["the real-code suite, k=1 / k=4 <= 1.5 / 2.0 x native",
                 "not part of bench/run: `scripts/realcode-run` (docs/realcode.md)", "see docs/realcode.md"])
    for t in timing:
        r = Ratio(t["instrument"] / t["syntax"]) if t["syntax"] else Ratio(None, failed=True)
        target("(issue 5) kpath instrument / clang -fsyntax-only <= 2.0 (%s)" % t["file"], r, 2.0)
    return ("## Targets (issue 14)\n\n"
            "Geometric means over the main programs of CPU time (full input) and of instructions (callgrind, "
            "quick input), each against native; a target on both holds only where both do, and the larger "
            "ratio is the one judged.  The write at exit comes from `bench/write-cost` (quick input, a new "
            "profile and a second run accumulating into it; the worse share counts).\n\n" +
            table(["target", "measured", "verdict"], rows) + "\n")


def quotient(a, b):
    if a.value is None or b.value is None or a.failed or b.failed:
        return Ratio(None, failed=True)
    if b.lower_bound:  # a / (a lower bound): neither bound; unknown
        return Ratio(None, lower_bound=True)
    return Ratio(a.value / b.value, lower_bound=a.lower_bound)


def cfg_date(cfg):
    import time
    return time.strftime("%Y-%m-%d", time.gmtime())


def write_full(cfg, meta, progs, res, instr, timing, variants, ks):
    main = [p for p in progs if p["kind"] == "main"]
    prof_vars = variants[1:]
    out = []
    w = out.append
    w("# kpath benchmark results\n\n")
    if meta.get("preliminary"):
        w("**Preliminary**: measured on a shared machine while other jobs ran (load average %.1f / %.1f / "
          "%.1f at the end); the reference numbers come from a run on a quiet machine.  " % tuple(meta["load"]))
    else:
        w("Load average at the end of the run: %.1f / %.1f / %.1f.  " % tuple(meta["load"]))
    w("Regenerate with `bench/run` (see README.md, \"Benchmarks\").\n\n")
    w("- date %s, host %s, %d CPUs%s; kpath commit %s, build `%s`\n" %
      (meta["date"], meta["host"], meta["cpus"], ", pinned to CPU %d" % meta["pin"] if meta["pin"] is not None
       else "", meta["commit"], meta["build"]))
    w("- %s; %s; flags `-std=c11 -O2` for every variant\n" % (meta["cc"], meta["clang"]))
    w("- %d runs per variant, interleaved (native, gcc-arcs, ..., trace, native, ...); time = median CPU time "
      "(user + system, from wait4) of the runs; runs killed after %.0f s of CPU time show &ge; the timeout's ratio; a variant whose runs "
      "took %.0f s of CPU time in all is not run again (\"(n runs)\"); the whole bench/run took %.0f s\n" %
      (meta["runs"], meta["timeout"], meta["budget"], meta["seconds"]))
    w("- kpath variants: one instrumented binary, run with `KPATH_K` = 1, 2, 4, 8, 16; trace = `KPATH_K=1` plus "
      "`KPATH_TRACE`.  gcc/clang profiles and kpath profiles go to a fresh directory per run (no accumulation).\n")
    w("- `deeprec` (deep recursion) is a micro-benchmark: it is in the tables but not in the geometric means.\n\n")

    fails = failures(res)
    if fails:
        w("**Failures and timeouts**: " + "; ".join(fails) + "\n\n")

    # time
    w("## Time / native (CPU time, median of %d runs)\n\n" % meta["runs"])
    rows = []
    for p in progs:
        nat = median([r["cpu"] for r in res[p["name"]]["native"]["runs"]])
        rows.append([p["name"], "%.3f" % nat if nat else "n/a"] +
                    [runs_mark(res[p["name"]][v], meta["runs"], time_ratio(res, p["name"], v)) for v in prof_vars])
    rows.append(["**geometric mean**", ""] + ["**%s**" % geo_ratio([time_ratio(res, p["name"], v) for p in main])
                                            for v in prof_vars])
    w(table(["program", "native s"] + [label(v) for v in prof_vars], rows) + "\n")
    w("![slowdown against k](%s)\n\n" % os.path.relpath(cfg.chart, os.path.dirname(os.path.abspath(cfg.out))))

    w("### Wall time / native (median; noisy on a shared machine)\n\n")
    rows = []
    for p in progs:
        nat = median([r["wall"] for r in res[p["name"]]["native"]["runs"]])
        rows.append([p["name"], "%.3f" % nat if nat else "n/a"] +
                    [time_ratio(res, p["name"], v, "wall") for v in prof_vars])
    rows.append(["**geometric mean**", ""] + ["**%s**" % geo_ratio([time_ratio(res, p["name"], v, "wall")
                                                                     for p in main]) for v in prof_vars])
    w(table(["program", "native s"] + [label(v) for v in prof_vars], rows) + "\n")

    # instructions
    if instr:
        cg_vars = [v for v in prof_vars if v in next(iter(instr.values()))]
        w("## Instructions / native (callgrind `Ir`, quick input)\n\n"
          "Callgrind runs ~50x slower, so instructions are counted on the quick input (scale in the second "
          "column, 1/50 of the timed one): fixed costs (start-up, writing the profile at exit) weigh more "
          "there than in the timed runs.  k = 16 is not counted (minutes under callgrind while the "
          "k-IPF is large; see bench/run).\n\n")
        rows = []
        ratios = {v: [] for v in cg_vars}
        for p in progs:
            nat = instr[p["name"]].get("native")
            row = [p["name"], p["quick"], fmt_int(nat)]
            for v in cg_vars:
                x = instr[p["name"]].get(v)
                r = Ratio(x / nat) if x and nat else Ratio(None, failed=True)
                if p["kind"] == "main":
                    ratios[v].append(r)
                row.append(r)
            rows.append(row)
        rows.append(["**geometric mean**", "", ""] + ["**%s**" % geo_ratio(ratios[v]) for v in cg_vars])
        w(table(["program", "scale", "native Ir"] + [label(v) for v in cg_vars], rows) + "\n")

    if instr and any("calls" in per for per in instr.values()):
        w(calls_section(progs, instr))

    # memory
    w("## Peak memory (MiB, maximum resident set: GNU time %M, median of the runs)\n\n")
    rows = []
    for p in progs:
        row = [p["name"]]
        for v in variants:
            slot = res[p["name"]][v]
            m = median([r["maxrss_kb"] for r in slot["runs"] if r["maxrss_kb"] is not None])
            row.append("%.1f" % (m / 1024) if m else slot["fail"] or "n/a")
        rows.append(row)
    w(table(["program"] + [label(v) for v in variants], rows) + "\n")

    # forest sizes
    w("## k-IPF size and trace volume\n\n"
      "k-IPF nodes: all nodes of all functions' forests in the profile of the last timed run (what the "
      "profile holds).  Paths: Ball-Larus paths emitted per run (`emitted`, summed over functions).  ")
    have_ksf = any("ksf_nodes" in res[p["name"]]["k%d" % k]["stats"] for p in progs for k in ks)
    if have_ksf:
        w("Forest nodes: the nodes the runtime's forests held at exit (`KPATH_STATS`; the default window "
          "forest, 80 bytes a node), summed over functions and threads.  ")
    else:
        w("**Forest node counts are not reported** (the runtime printed no `KPATH_STATS` line).  ")
    w("ns/path: native CPU time per Ball-Larus path the program completes, and what k=1 adds per path "
      "(how emission-heavy a program is, and the per-path cost of the runtime).  Trace: bytes of the "
      "`KPATH_TRACE` file per run and per emitted path.\n\n")
    head = ["program", "paths/run", "native ns/path", "k=1 extra ns/path"] + ["k=%d nodes" % k for k in ks]
    if have_ksf:
        head += ["k=%d forest" % k for k in ks]
    head += ["trace MB", "trace B/path"]
    rows = []
    for p in progs:
        r = res[p["name"]]
        st1 = r["k1"]["stats"]
        em = st1.get("emitted") or next((r[v]["stats"]["emitted"] for v in r if r[v]["stats"].get("emitted")),
                                        None)
        row = [p["name"], fmt_int(em)]
        nat = median([x["cpu"] for x in r["native"]["runs"]])
        k1 = median([x["cpu"] for x in r["k1"]["runs"]])
        row.append("%.2f" % (nat * 1e9 / em) if nat and em else "n/a")
        row.append("%.2f" % ((k1 - nat) * 1e9 / em) if nat and k1 and em else "n/a")
        for k in ks:
            st = r["k%d" % k]["stats"]
            row.append(fmt_int(st.get("kipf_nodes")) if st else r["k%d" % k]["fail"] or "n/a")
        if have_ksf:
            row += [fmt_int(r["k%d" % k]["stats"].get("ksf_nodes")) for k in ks]
        tb = r["trace"]["stats"].get("trace_bytes")
        em = r["trace"]["stats"].get("emitted")
        row += ["%.1f" % (tb / 2 ** 20) if tb is not None else "n/a",
                "%.2f" % (tb / em) if tb and em else "n/a"]
        rows.append(row)
    w(table(head, rows) + "\n")
    bad = [(p["name"], v, s["stats"].get("invalid"), s["stats"].get("dropped"))
           for p in progs for v, s in res[p["name"]].items()
           if s["stats"].get("invalid") or s["stats"].get("dropped")]
    w("Invalid path IDs or dropped events in any profile: %s.\n\n" %
      ("none" if not bad else "; ".join("%s %s: %s invalid, %s dropped" % b for b in bad)))

    w(targets_section(meta, main, res, instr, timing))

    # deep recursion
    w("## Deep recursion: cost per frame (`deeprec`)\n\n"
      "`deeprec` descends 8,192 frames again and again; each frame is a call plus its return with one "
      "branch.  Stack bytes per frame come from local addresses at the deepest and outermost frames, time "
      "per frame from the program's own CPU clock (median of the runs).\n\n")
    rows = []
    dr = res.get("deeprec")
    if dr:
        nat = None
        for v in variants:
            ds = dr[v]["deeprec"]
            if not ds:
                rows.append([label(v), dr[v]["fail"] or "n/a", "", "", ""])
                continue
            b = median([d["frame_bytes"] for d in ds])
            ns = median([d["ns_per_frame"] for d in ds])
            if v == "native":
                nat = (b, ns)
            rows.append([label(v), "%.0f" % b, "%.2f" % ns,
                         "%+.0f" % (b - nat[0]) if nat else "", "%+.2f" % (ns - nat[1]) if nat else ""])
        w(table(["variant", "stack bytes/frame", "ns/frame", "extra bytes", "extra ns"], rows) + "\n")
    else:
        w("(deeprec was not run)\n\n")

    # instrument timing
    w("## `kpath instrument` against `clang -fsyntax-only`\n\n"
      "CPU time, median of 3 runs each, same flags (`-std=c11`); the generated file comes from "
      "`bench/gen_large.py` (nested if/else, loops, switch, early exits; a fixed seed).\n\n")
    rows = [[t["file"], fmt_int(t["lines"]), "%.3f" % t["instrument"], "%.3f" % t["syntax"],
             "%.2f" % (t["instrument"] / t["syntax"]) if t["syntax"] else "n/a", t["summary"].split(": ")[-1]]
            for t in timing]
    w(table(["file", "lines", "kpath instrument s", "clang -fsyntax-only s", "ratio", "kpath says"], rows))

    with open(cfg.out, "w") as f:
        f.write("".join(out))
    write_chart(cfg, progs, res, ks, cfg.chart)
    return all_ok(res, timeouts_ok=True)
