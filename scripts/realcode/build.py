"""Building one program of scripts/realcode-run three ways, file by file.

For each unit (C file), in this order:
  native    gcc FLAGS -c FILE                      (fails: the unit is excluded)
  syntax    clang-14 -fsyntax-only PFLAGS FILE     timed: CPU seconds, peak RSS
  kpath     kpath instrument FILE -o OUT -- PFLAGS timed the same way
  compile   gcc FLAGS -iquote DIR(FILE) -c OUT     must succeed: a written
            output that does not compile where the original does is a
            defect ("fallback": kpath-cc would compile the original)
  kpath-cc  kpath-cc gcc FLAGS -c FILE             the way a user builds; its
            warning "compiled without path profiling" is a defect too
            ("kpath-cc fallback"); the instrumented executables are linked
            from these objects, by kpath-cc
  arcs      gcc FLAGS -fprofile-arcs -c FILE       only when measuring overhead
PFLAGS are the flags that matter to a parser (-D, -U, -I, -std, -include);
clang and kpath get the same ones, so their time and memory compare.
The instrumenter's skip warnings and its summary line are parsed into the
unit's counts; compiler warnings of the instrumented file that the original
does not have are kept as `new_warnings`.
"""
import os
import re
import subprocess
from dataclasses import dataclass, field

PARSER_PREFIXES = ("-D", "-U", "-I", "-std=", "-include")
SUMMARY_RE = re.compile(r"^kpath: .*: (\d+) functions instrumented, (\d+) skipped, (\d+) cut$", re.M)
SKIP_RE = re.compile(r"^(.*?):(\d+)(?::\d+)?: warning: function '([^']*)' not instrumented: (.*)$",
                     re.M)
WARNING_RE = re.compile(r"warning: (.*?)(?: \[(-W[^\]]*)\])?$", re.M)


@dataclass
class Unit:
    path: str
    status: str = "ok"          # ok, excluded, clang-rejects, instrument-error, fallback,
                                # cc-fallback
    reason: str = ""
    instrumented: int = 0
    skipped: int = 0
    cut: int = 0
    skips: list = field(default_factory=list)       # (file, line, function, reason)
    kp_cpu: float = 0.0
    kp_rss: int = 0             # KiB
    clang_cpu: float = 0.0
    clang_rss: int = 0
    new_warnings: list = field(default_factory=list)


def parser_flags(cflags):
    return [f for f in cflags if f.startswith(PARSER_PREFIXES)]


def sh(cmd, log, cwd=None, env=None, timeout=3600):
    """Runs cmd with stdout and stderr to the file LOG; returns the exit
    status (None on timeout)."""
    with open(log, "wb") as f:
        try:
            return subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  cwd=cwd, env=env, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            return None


def timed(cmd, log):
    """Runs cmd under /usr/bin/time -v; returns (status, CPU seconds
    (user + system), peak resident set in KiB)."""
    tfile = log + ".time"
    rc = sh(["/usr/bin/time", "-v", "-o", tfile] + cmd, log)
    cpu, rss = 0.0, 0
    try:
        text = open(tfile).read()
        cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", text))
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", text).group(1))
    except (OSError, AttributeError):
        pass
    return rc, cpu, rss


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def first_error(text):
    for line in text.splitlines():
        if "error" in line:
            return line.strip()[:240]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip()[:240] if lines else "(no message)"


def warnings_of(text, path):
    """The compiler warnings in text, without file positions (so that the
    original's and the instrumented file's can be compared as multisets)."""
    return sorted(m.group(0) for m in WARNING_RE.finditer(text.replace(path, "FILE")))


def build_unit(ctx, prog, path, index):
    """Runs the per-file pipeline of the module comment for one unit;
    returns its Unit.  Objects go to WORK/{native,kp,arcs}/INDEX.o."""
    u = Unit(path)
    w = lambda variant, ext: os.path.join(ctx.work, variant, "%d%s" % (index, ext))
    flags, pflags = prog.cflags, parser_flags(prog.cflags)
    if sh([ctx.cc] + flags + ["-c", path, "-o", w("native", ".o")], w("native", ".log")) != 0:
        u.status, u.reason = "excluded", "does not compile natively: " + \
            first_error(read(w("native", ".log")))
        return u
    rc, u.clang_cpu, u.clang_rss = timed([ctx.clang, "-fsyntax-only", "-w"] + pflags + [path],
                                         w("syntax", ".log"))
    clang_ok = rc == 0
    out = w("kp", ".c")
    rc, u.kp_cpu, u.kp_rss = timed([ctx.kpath, "instrument", path, "-o", out, "--"] + pflags,
                                   w("kp", ".instrument.log"))
    ilog = read(w("kp", ".instrument.log"))
    if rc != 0 or not os.path.exists(out):
        u.status = "instrument-error" if clang_ok else "clang-rejects"
        u.reason = "kpath instrument exit %s: %s" % (rc, first_error(ilog))
        return u
    m = SUMMARY_RE.search(ilog)
    if m:
        u.instrumented, u.skipped, u.cut = map(int, m.groups())
    u.skips = SKIP_RE.findall(ilog)
    if sh([ctx.cc] + flags + ["-iquote", os.path.dirname(path), "-c", out, "-o", w("kp", ".o")],
          w("kp", ".log")) != 0:
        u.status, u.reason = "fallback", "instrumented output does not compile: " + \
            first_error(read(w("kp", ".log")))
        return u
    native_w = warnings_of(read(w("native", ".log")), path)
    for x in warnings_of(read(w("kp", ".log")), out):
        if x in native_w:
            native_w.remove(x)
        else:
            u.new_warnings.append(x)
    env = dict(os.environ, KPATH_CC_VERBOSE="1")
    if sh([ctx.kpath_cc, ctx.cc] + flags + ["-c", path, "-o", w("cc", ".o")], w("cc", ".log"),
          env=env) != 0 or "compiled without path profiling" in read(w("cc", ".log")):
        u.status, u.reason = "cc-fallback", "kpath-cc: " + first_error(read(w("cc", ".log")))
        return u
    if ctx.arcs and sh([ctx.cc] + flags + ["-fprofile-arcs", "-c", path, "-o", w("arcs", ".o")],
                       w("arcs", ".log")) != 0:
        u.status, u.reason = "excluded", "does not compile with -fprofile-arcs"
    return u


def link(ctx, prog, units, variant):
    """Links every executable of prog for variant (native; kp, from the
    kpath-cc objects by kpath-cc; arcs) into WORK/VARIANT/bin/; returns an
    error message or None."""
    bindir = os.path.join(ctx.work, variant, "bin")
    os.makedirs(bindir, exist_ok=True)
    index = {u.path: i for i, u in enumerate(units)}
    cc = [ctx.kpath_cc, ctx.cc] if variant == "kp" else [ctx.cc]
    extra = ["-fprofile-arcs"] if variant == "arcs" else []
    objdir = "cc" if variant == "kp" else variant
    for exe, members in prog.exes.items():
        if any(units[index[m]].status != "ok" for m in members):
            return "%s: a file it links was not built (see the file table)" % exe
        objs = [os.path.join(ctx.work, objdir, "%d.o" % index[m]) for m in members]
        log = os.path.join(bindir, exe + ".link.log")
        if sh(cc + objs + ["-o", os.path.join(bindir, exe)] + prog.libs + extra + ["-lm"],
              log) != 0:
            return "%s (%s): link failed: %s" % (exe, variant, first_error(read(log)))
    return None
