"""Running a program's workload in each build of scripts/realcode-run and
comparing the outputs byte for byte.

Builds: native; kp at KPATH_K=1 and KPATH_K=4 (the same executables, the
runtime reads k at start-up); arcs (gcc -fprofile-arcs) when measuring
overhead.  Each build runs every step in a fresh directory RUN/BUILD where
the executables are linked as ./NAME.  A step's result is its stdout,
stderr and exit status; every build must give the native build's bytes, and
a step with `expect` must print that file (checked in every build, native
included).  The kp builds write their profiles into RUN/BUILD/kpath.json;
a profile that is missing, unreadable, or reports invalid path IDs or
dropped events fails the step.

Overhead: callgrind (valgrind --tool=callgrind) counts the instructions of
the whole workload (every step, each with a fresh profile) per build; for
the kp builds, callgrind_annotate also gives the part spent in the
runtime's exit handler (kp_atexit: building the k-IPF and writing the
JSON profile), a fixed cost that weighs on short runs.
"""
import json
import os
import re
import shutil
import subprocess

STEP_TIMEOUT = 1800


def _run(cmd, cwd, stdin, env, prefix):
    """Runs one step; writes PREFIX.{out,err,rc}; returns (out, err, rc)."""
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=fin, capture_output=True, env=env,
                           timeout=STEP_TIMEOUT)
        res = (p.stdout, p.stderr, p.returncode)
    except subprocess.TimeoutExpired:
        res = (b"", b"timeout", None)
    finally:
        if stdin:
            fin.close()
    for ext, data in zip(("out", "err"), res[:2]):
        with open(prefix + "." + ext, "wb") as f:
            f.write(data)
    return res


def _rundir(ctx, prog, build):
    d = os.path.join(ctx.work, "run", build)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    variant = build.split("-")[0]
    for exe in prog.exes:
        os.symlink(os.path.join(ctx.work, variant, "bin", exe), os.path.join(d, exe))
    return d


def profile_problem(path):
    """None if the profile at path is sound, else what is wrong with it."""
    try:
        with open(path) as f:
            prof = json.load(f)
        invalid = sum(int(fn.get("invalid_paths", 0)) for fn in prof["functions"])
        if invalid:
            return "%d invalid path IDs in the profile" % invalid
        if int(prof.get("dropped", 0)):
            return "the profile reports dropped events"
        return None
    except (OSError, ValueError, KeyError, TypeError) as e:
        return "profile missing or unreadable (%s)" % e.__class__.__name__


def _env(build):
    env = dict(os.environ)
    env.pop("KPATH_TRACE", None)
    if build.startswith("kp"):
        env["KPATH_K"] = build.split("-k")[1]
    return env


def run_build(ctx, prog, build, reference=None):
    """Runs every step of prog in build (native, kp-k1, kp-k4, arcs).
    Returns {step: (out, err, rc)} and a list of failures; with a reference
    (the native results), each step must match it."""
    d = _rundir(ctx, prog, build)
    env = _env(build)
    results, failures = {}, []
    for s in prog.steps:
        stdin = os.path.join(d, s.stdin[1:] + ".out") if s.stdin and s.stdin[0] == "@" else s.stdin
        if build.startswith("kp"):
            env["KPATH_OUT"] = os.path.join(d, "kpath.json")
        res = _run(["./" + s.exe] + s.args, d, stdin, env, os.path.join(d, s.name))
        results[s.name] = res
        if s.expect and res[0] != open(s.expect, "rb").read():
            failures.append("%s/%s: stdout is not %s" % (build, s.name, os.path.basename(s.expect)))
        if reference is not None:
            for what, a, b in zip(("stdout", "stderr", "exit status"), res, reference[s.name]):
                if a != b:
                    failures.append("%s/%s: %s differs from native (%s)" % (
                        build, s.name, what, os.path.join(d, s.name)))
    if build.startswith("kp"):
        why = profile_problem(os.path.join(d, "kpath.json"))
        if why:
            failures.append("%s: %s" % (build, why))
    return results, failures


def exit_handler_cost(cgfile):
    """Inclusive instructions of the runtime's exit handler in a callgrind
    file (0 if it is not there)."""
    p = subprocess.run(["callgrind_annotate", "--inclusive=yes", cgfile], capture_output=True,
                       text=True)
    m = re.search(r"^\s*([\d,]+) .*:kp_atexit ", p.stdout, re.M)
    return int(m.group(1).replace(",", "")) if m else 0


def callgrind(ctx, prog, build):
    """Instructions executed by the whole workload in build (the sum over
    its steps) and the part of them in the runtime's exit handler, or
    (None, 0) if a step failed under valgrind."""
    d = _rundir(ctx, prog, build)
    env = _env(build)
    total = at_exit = 0
    for s in prog.steps:
        stdin = os.path.join(d, s.stdin[1:] + ".out") if s.stdin and s.stdin[0] == "@" else s.stdin
        cg = os.path.join(d, s.name + ".callgrind")
        if build.startswith("kp"):
            env["KPATH_OUT"] = os.path.join(d, s.name + ".kpath.json")
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg,
               "--trace-children=no", "./" + s.exe] + s.args
        _, _, rc = _run(cmd, d, stdin, env, os.path.join(d, s.name))
        m = re.search(r"^(?:summary|totals): (\d+)", open(cg).read() if os.path.exists(cg) else "",
                      re.M)
        if rc != 0 or not m:
            return None, 0
        total += int(m.group(1))
        if build.startswith("kp"):
            at_exit += exit_handler_cost(cg)
    return total, at_exit
