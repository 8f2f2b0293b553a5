"""The markdown report of scripts/realcode-run: a table per program, the skip
reasons, the totals and the issue's targets.

Ratios: time is CPU seconds (user + system) summed over a program's files,
kpath instrument against clang -fsyntax-only with the same parser flags;
memory is the largest peak RSS of any one file, kpath against clang.
Overhead is callgrind's instruction count of the whole workload, relative
to the native build.
"""
import collections
import re

TARGET_SHARE = 99.5     # % of functions instrumented
TARGET_TIME = 1.5       # kpath instrument / clang -fsyntax-only, CPU time
TARGET_MEM = 3.0        # the same, peak memory


def ratio(a, b):
    return a / b if b else float("nan")


def fmt_ratio(a, b):
    return "%.2fx" % ratio(a, b) if b else "n/a"


def share(r):
    total = r.instrumented + r.skipped
    return 100.0 * r.instrumented / total if total else float("nan")


def reason_class(reason):
    """A skip reason without the names it quotes, for grouping."""
    return re.sub(r"'[^']*'", "'…'", reason)


class Totals:
    """What the report sums over the units of one program (or of all)."""

    def __init__(self, units):
        ok = [u for u in units if u.status in ("ok", "fallback", "cc-fallback")]
        self.files = len(units)
        self.built = sum(u.status == "ok" for u in units)
        self.excluded = [u for u in units if u.status == "excluded"]
        self.errors = [u for u in units if u.status in ("instrument-error", "clang-rejects")]
        self.fallbacks = [u for u in units if u.status in ("fallback", "cc-fallback")]
        self.instrumented = sum(u.instrumented for u in ok)
        self.skipped = sum(u.skipped for u in ok)
        self.cut = sum(u.cut for u in ok)
        self.skips = [(u.path,) + tuple(s) for u in ok for s in u.skips]
        self.new_warnings = [(u.path, w) for u in units for w in u.new_warnings]
        timed = [u for u in units if u.status != "excluded"]
        self.kp_cpu = sum(u.kp_cpu for u in timed)
        self.clang_cpu = sum(u.clang_cpu for u in timed)
        self.kp_rss = max([u.kp_rss for u in timed] or [0])
        self.clang_rss = max([u.clang_rss for u in timed] or [0])


def program_section(p):
    """p: a result of realcode-run (fields prog, units, compared, identical,
    failures, callgrind)."""
    t = Totals(p.units)
    rows = [
        ("files instrumented and compiled", "%d of %d" % (t.built, t.files)),
        ("functions instrumented / skipped / cut", "%d / %d / %d (%.2f%% instrumented)" % (
            t.instrumented, t.skipped, t.cut, share(t))),
        ("fallbacks (written output does not compile, or kpath-cc compiled the original)",
         str(len(t.fallbacks))),
        ("instrumenter errors", str(len(t.errors))),
        ("files excluded (do not compile natively)", str(len(t.excluded))),
        ("new compiler warnings in instrumented files", str(len(t.new_warnings))),
        ("outputs compared (steps x k = 1, 4)", "%d, %d identical" % (p.compared, p.identical)),
        ("kpath instrument / clang -fsyntax-only, CPU s", "%.2f / %.2f (%s)" % (
            t.kp_cpu, t.clang_cpu, fmt_ratio(t.kp_cpu, t.clang_cpu))),
        ("peak memory of one file, MiB", "%.0f / %.0f (%s)" % (
            t.kp_rss / 1024, t.clang_rss / 1024, fmt_ratio(t.kp_rss, t.clang_rss))),
    ]
    cg = p.callgrind
    if cg:
        nat = cg.get("native")
        cells = []
        for b, label in (("native", "native"), ("kp-k1", "kpath k=1"), ("kp-k4", "kpath k=4"),
                         ("arcs", "gcc -fprofile-arcs")):
            v = cg.get(b)
            cells.append("%s %s%s" % (label, "{:,}".format(v) if v else "failed",
                                      " (%.2fx)" % ratio(v, nat) if v and nat and b != "native"
                                      else ""))
        rows.append(("callgrind instructions, whole workload", "; ".join(cells)))
        ex = ["k=%s %s (%.2fx native without it)" % (
            b[-1], "{:,}".format(p.at_exit[b]), ratio(cg[b] - p.at_exit[b], nat))
            for b in ("kp-k1", "kp-k4") if cg.get(b) and nat and p.at_exit.get(b)]
        if ex:
            rows.append(("of which the runtime's exit handler (k-IPF, JSON profile)",
                         "; ".join(ex)))
    out = ["### %s" % p.prog.name, "", p.prog.origin + "; workload: " +
           ", ".join(s.name for s in p.prog.steps) + ".", "",
           "| measure | value |", "| --- | --- |"]
    out += ["| %s | %s |" % r for r in rows]
    if t.skips:
        out += ["", "| skipped function | where | reason |", "| --- | --- | --- |"]
        out += ["| `%s` | %s:%s | %s |" % (fn, path.split("/")[-1], line, why)
                for path, _, line, fn, why in t.skips]
    problems = ["%s: %s" % (u.path.split("/")[-1], u.reason)
                for u in t.fallbacks + t.errors + t.excluded]
    kinds = collections.defaultdict(list)      # warning class -> files, one per warning
    for path, w in t.new_warnings:
        kinds[reason_class(w.replace("\u2018", "'").replace("\u2019", "'"))].append(path)
    for k, paths in sorted(kinds.items()):
        files = sorted({x.split("/")[-1] for x in paths})
        problems.append("new warning, %d times in %d files (%s%s): %s" % (
            len(paths), len(files), ", ".join(files[:5]), ", ..." if len(files) > 5 else "", k))
    problems += p.failures
    if problems:
        out += ["", "Problems:", ""] + ["- " + x for x in problems]
    return "\n".join(out) + "\n"


def totals_section(results):
    out = ["### Totals", "",
           "| program | files | functions | instrumented | skipped | cut | fallbacks | "
           "new warnings | outputs identical | instrument / syntax time | peak memory | "
           "overhead k=1 | k=4 | -fprofile-arcs |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
           "---: | ---: |"]
    all_units = []
    for p in results + [None]:
        units = p.units if p else all_units
        t = Totals(units)
        cg = (p.callgrind if p else None) or {}
        nat = cg.get("native")
        ov = [("%.2fx" % ratio(cg[b], nat)) if cg.get(b) and nat else "-"
              for b in ("kp-k1", "kp-k4", "arcs")]
        compared = p.compared if p else sum(r.compared for r in results)
        identical = p.identical if p else sum(r.identical for r in results)
        out.append("| %s | %d | %d | %.2f%% | %d | %d | %d | %d | %d of %d | %s | %s | %s | %s | %s |"
                   % (p.prog.name if p else "**all**", t.files, t.instrumented + t.skipped,
                      share(t), t.skipped, t.cut, len(t.fallbacks), len(t.new_warnings),
                      identical, compared,
                      fmt_ratio(t.kp_cpu, t.clang_cpu), fmt_ratio(t.kp_rss, t.clang_rss), *ov))
        if p:
            all_units += p.units
    t = Totals(all_units)
    reasons = collections.Counter(reason_class(s[4]) for s in t.skips)
    if reasons:
        out += ["", "| skip reason (over all programs) | functions |", "| --- | ---: |"]
        out += ["| %s | %d |" % (r, n) for r, n in reasons.most_common()]
    return "\n".join(out) + "\n", t


def targets_section(results, t):
    """The issue's targets, each marked met or not met."""
    by_name = {p.prog.name: Totals(p.units) for p in results}
    compared = sum(r.compared for r in results)
    identical = sum(r.identical for r in results)
    mark = lambda ok: "met" if ok else "**not met**"
    rows = [("functions instrumented, over the suite", ">= %.1f%%" % TARGET_SHARE,
             "%.2f%%" % share(t), mark(share(t) >= TARGET_SHARE)),
            ("outputs identical to native", "100%", "%d of %d" % (identical, compared),
             mark(compared > 0 and identical == compared)),
            ("fallbacks (written output that does not compile, kpath-cc fallbacks)", "0",
             str(len(t.fallbacks)), mark(not t.fallbacks)),
            ("compiler warnings the instrumented files add", "0", str(len(t.new_warnings)),
             mark(not t.new_warnings))]
    s = by_name.get("sqlite")
    if s:
        rows.append(("instrument / syntax on SQLite, time", "<= %.1fx" % TARGET_TIME,
                     fmt_ratio(s.kp_cpu, s.clang_cpu), mark(ratio(s.kp_cpu, s.clang_cpu) <= TARGET_TIME)))
        rows.append(("instrument / syntax on SQLite, peak memory", "<= %.0fx" % TARGET_MEM,
                     fmt_ratio(s.kp_rss, s.clang_rss), mark(ratio(s.kp_rss, s.clang_rss) <= TARGET_MEM)))
    rows.append(("instrument / syntax over the suite, time", "<= %.1fx" % TARGET_TIME,
                 fmt_ratio(t.kp_cpu, t.clang_cpu), mark(ratio(t.kp_cpu, t.clang_cpu) <= TARGET_TIME)))
    out = ["### Targets", "", "| measure | target | measured | |", "| --- | --- | --- | --- |"]
    out += ["| %s | %s | %s | %s |" % r for r in rows]
    return "\n".join(out) + "\n"
