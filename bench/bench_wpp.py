"""bench_wpp.py: whole program paths (KPATH_MODE=wpp, issue 17) in bench/run.

Both on the quick input (the full one would write traces of gigabytes), with
the kpath binary bench/run already built (the one of k1 .. k16 and trace):

  quick(...)    --quick, the CI step: per program ONE run with KPATH_MODE=wpp
                and KPATH_TRACE at once; its checksum, and `kpath wpp expand`
                equal to `kpath trace dump` of the same run (compared as
                SHA-1 of the two texts, streamed: they run to hundreds of MB).
  measure(...)  a full run: native, k = 1, trace and wpp, interleaved, RUNS
                times; best CPU time of each, peak memory (max RSS) at k = 1
                and in WPP mode, the trace's and the WPP's bytes, gzip -9
                and xz -9 of the trace, and kpath wpp stats' totals.

section(...) renders either as a results.md section.  bench/wpp.sh is the
stand-alone form of measure() (any scale, with its own table).
"""
import concurrent.futures
import hashlib
import math
import os
import subprocess
import tempfile

MODES = ["native", "k1", "trace", "wpp"]


def _env(mode, tmp):
    env = dict(os.environ)
    for var in ("KPATH_K", "KPATH_OUT", "KPATH_TRACE", "KPATH_MODE", "KPATH_WPP", "KPATH_STATS"):
        env.pop(var, None)
    if mode != "native":
        env["KPATH_K"] = "1"
        env["KPATH_OUT"] = os.path.join(tmp, "profile.json")
    if mode in ("trace", "both"):
        env["KPATH_TRACE"] = os.path.join(tmp, "trace")
    if mode in ("wpp", "both"):
        env["KPATH_MODE"] = "wpp"
        env["KPATH_WPP"] = os.path.join(tmp, "w.wpp")
    return env


def _text_hash(argv):
    """SHA-1 and line count of argv's stdout, streamed; None on failure."""
    # (the line count makes an empty text fail the comparison below)
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    h, lines = hashlib.sha1(), 0
    for chunk in iter(lambda: p.stdout.read(1 << 20), b""):
        h.update(chunk)
        lines += chunk.count(b"\n")
    p.stdout.close()
    return (h.hexdigest(), lines) if p.wait() == 0 else None


def _stats(kpath, wpp):
    """(length, rules, grammar) totals of kpath wpp stats."""
    out = subprocess.run([kpath, "wpp", "stats", wpp], stdout=subprocess.PIPE, text=True).stdout
    for line in out.splitlines():
        w = line.split()
        if w and w[0] == "total":
            return int(w[1]), int(w[2]), int(w[3])
    return None


def _quick_one(cfg, run_once, prog, exe):
    expected = "checksum %s\n" % prog["sum_quick"]
    with tempfile.TemporaryDirectory(dir=cfg.work) as tmp:
        r = run_once(cfg, [exe, prog["quick"]], _env("both", tmp), cfg.timeout)
        row = dict(cpu=r["cpu"], maxrss_kb=r["maxrss_kb"], fail=None)
        if r["timed_out"] or r["status"] != 0 or r["out"] != expected:
            row["fail"] = "timeout" if r["timed_out"] else "wrong output (status %d)" % r["status"]
            return row
        w, t = os.path.join(tmp, "w.wpp"), os.path.join(tmp, "trace")
        a = _text_hash([cfg.kpath, "wpp", "expand", w])
        b = _text_hash([cfg.kpath, "trace", "dump", t])
        if a is None or b is None or a != b or a[1] <= 1:
            row["fail"] = "wpp expand differs from trace dump" if a and b else "expand or dump failed"
        row.update(paths=(_stats(cfg.kpath, w) or (0,))[0], wpp_bytes=os.path.getsize(w),
                   trace_bytes=os.path.getsize(t))
    return row


def quick(cfg, progs, exes, run_once):
    """{name: row}: one WPP (and trace) run per program, --jobs at once."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=cfg.jobs) as pool:
        futs = {p["name"]: pool.submit(_quick_one, cfg, run_once, p, exes[p["name"]]["k1"]) for p in progs}
        return {name: f.result() for name, f in futs.items()}


def _measure_one(cfg, run_once, prog, exes, runs):
    expected = "checksum %s\n" % prog["sum_quick"]
    cpu = {m: [] for m in MODES}
    row = dict(fail=None)
    with tempfile.TemporaryDirectory(dir=cfg.work) as keep:
        for _ in range(runs):
            for m in MODES:
                exe = exes[prog["name"]]["native" if m == "native" else "k1"]
                with tempfile.TemporaryDirectory(dir=cfg.work) as tmp:
                    r = run_once(cfg, [exe, prog["quick"]], _env(m, tmp), cfg.timeout)
                    if r["timed_out"] or r["status"] != 0 or r["out"] != expected:
                        row["fail"] = "%s: %s" % (m, "timeout" if r["timed_out"] else "wrong output")
                        return row
                    cpu[m].append(r["cpu"])
                    row["rss_" + m] = r["maxrss_kb"]
                    for f in ("trace", "w.wpp"):
                        if os.path.exists(os.path.join(tmp, f)):
                            os.replace(os.path.join(tmp, f), os.path.join(keep, f))
        t, w = os.path.join(keep, "trace"), os.path.join(keep, "w.wpp")
        row.update({m: min(cpu[m]) for m in MODES})
        row["trace_bytes"], row["wpp_bytes"] = os.path.getsize(t), os.path.getsize(w)
        for z, argv in (("gzip_bytes", ["gzip", "-9", "-c", t]), ("xz_bytes", ["xz", "-9", "-T1", "-c", t])):
            p = subprocess.Popen(argv, stdout=subprocess.PIPE)
            row[z] = sum(len(c) for c in iter(lambda: p.stdout.read(1 << 20), b""))
            p.wait()
        row["length"], row["rules"], row["grammar"] = _stats(cfg.kpath, w) or (0, 0, 0)
    return row


def measure(cfg, progs, exes, run_once, runs, log):
    """{name: row}, one program at a time (timing)."""
    out = {}
    for p in progs:
        out[p["name"]] = _measure_one(cfg, run_once, p, exes, runs)
        log("wpp %s: %s" % (p["name"], out[p["name"]]["fail"] or "done"))
    return out


def ok(rows):
    return all(not r["fail"] for r in rows.values())


def _geo(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def section(progs, rows, quick_mode):
    """The results.md section of quick() or measure() rows."""
    L = []
    if quick_mode:
        L.append("## Whole program paths (KPATH_MODE=wpp, quick input, once)\n\n"
                 "One run per program with KPATH_MODE=wpp and KPATH_TRACE at once: ok = the checksum, and "
                 "`kpath wpp expand` equal to `kpath trace dump` of the same run.\n\n"
                 "| program | paths | trace B | WPP B | trace/WPP | CPU s | max RSS KB | ok |\n"
                 "|---|---:|---:|---:|---:|---:|---:|---|")
        for p in progs:
            r = rows[p["name"]]
            if "paths" not in r:
                L.append("| %s | | | | | %.2f | | %s |" % (p["name"], r["cpu"], r["fail"]))
                continue
            L.append("| %s | %d | %d | %d | %.1fx | %.2f | %s | %s |" % (
                p["name"], r["paths"], r["trace_bytes"], r["wpp_bytes"], r["trace_bytes"] / r["wpp_bytes"],
                r["cpu"], r["maxrss_kb"], r["fail"] or "yes"))
        return "\n".join(L) + "\n"
    L.append("## Whole program paths: collection slowdown and compression (quick input)\n\n"
             "The kpath binary run with KPATH_K=1 (k1), with KPATH_TRACE (trace) and with KPATH_MODE=wpp (wpp), "
             "against native, on the quick input (the full one writes traces of gigabytes), interleaved, best "
             "CPU time of the runs; max RSS at k = 1 and in WPP mode; the binary trace (docs/trace-format.md), "
             "the WPP (docs/wpp-format.md), and the trace through gzip -9 and xz -9; length, rules and grammar "
             "size from kpath wpp stats.  docs/wpp.md discusses them.\n\n"
             "| program | native s | wpp s | wpp/native | wpp/k1 | wpp/trace | RSS k1 / wpp KB | trace B | WPP B "
             "| trace/WPP | trace/gzip | trace/xz | length | rules | grammar |\n"
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    good = []
    for p in progs:
        r = rows[p["name"]]
        if r["fail"]:
            L.append("| %s | %s |%s" % (p["name"], r["fail"], " |" * 13))
            continue
        n, k, t, w = (max(r[m], 0.0005) for m in MODES)
        good.append((w / n, w / k, w / t, r["trace_bytes"] / r["wpp_bytes"], r["trace_bytes"] / r["gzip_bytes"],
                     r["trace_bytes"] / r["xz_bytes"]))
        L.append("| %s | %.3f | %.2f | %.1fx | %.1fx | %.1fx | %s / %s | %d | %d | %.1fx | %.1fx | %.1fx | %d | %d "
                 "| %d |" % (p["name"], n, w, w / n, w / k, w / t, r["rss_k1"], r["rss_wpp"], r["trace_bytes"],
                             r["wpp_bytes"], good[-1][3], good[-1][4], good[-1][5], r["length"], r["rules"],
                             r["grammar"]))
    if good:
        g = [_geo(c) for c in zip(*good)]
        L.append("\nGeometric means: wpp/native %.1fx, wpp/k1 %.1fx, wpp/trace %.1fx; trace/WPP %.1fx, "
                 "trace/gzip %.1fx, trace/xz %.1fx." % tuple(g))
    return "\n".join(L) + "\n"
