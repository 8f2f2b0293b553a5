#!/usr/bin/env python3
"""tests/pppmode/ppp_fig3.py: the PPP paper's Figure 3 end to end.

usage: ppp_fig3.py --kpath KPATH --src ROOT

tests/pppmode/fig3.c is Figure 3's DAG as C (Ball-Larus IDs as the
paper's text: sacdt 0, sact 1, sabcdt 2, sabct 3, sbcdt 4, sbct 5).
  1. A default build's k = 1 runs: on "A" the profile holds exactly the
     three interesting paths sacdt, sact, sbct (counts 1, 2, 3), on "B"
     all six paths with counts 1..6 (so the IDs are the paper's);
  2. `kpath instrument --mode ppp --interesting A.json`, built with
     -std=c89 -pedantic -Werror, run on "B": fig3's profile has |I| = 3,
     interval 3, 3 slots, ppp_paths sacdt/sact/sbct with PPP IDs 0, 1, 2
     (section 3.2) and counts 1, 2, 6, and ppp_residual sabcdt, sabct,
     sbcdt with counts 3, 4, 5 exactly;
  3. the same with --ppp-registers (the paper's two registers and slot
     check, section 5, instead of the small-function table), and the slot
     check spied on: every path end's (PPP register, Ball-Larus register)
     pair is logged, so the aliases are seen as section 2.3 describes them:
     sabct gets PPP ID 0 (sacdt's), sbcdt 1 (sact's), sabcdt falls below
     the interval (-1), and the stored Ball-Larus ID sends all three to the
     residual side.
The compiler is $CC (default cc).
"""
import argparse
import collections
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

SACDT, SACT, SABCDT, SABCT, SBCDT, SBCT = range(6)
SPY = r"""#include <stdio.h>
static kpath_rt_u64 kp_spy(kpath_rt_u64 q, kpath_rt_u64 r)
{
	fprintf(stderr, "kp_spy %llu %llu\n", (unsigned long long)q, (unsigned long long)r);
	return q < 3 && kp_ps_fig3[q] == r ? q : r + 3;
}
"""
# the slot check of a fig3 path end (rewrite/ppp_form.c, put_id)
CHECK = re.compile(r"\((\(kp_q[^()]*\)|kp_q) < 3 && kp_ps_fig3\[\1\] == (\(kp_r[^()]*\)|kp_r) \? \1 : \2 \+ 3\)")


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120, **kw)
    if p.returncode:
        raise SystemExit("FAIL: %s: exit %d\n%s" % (" ".join(cmd), p.returncode, p.stderr.decode()))
    return p


def fig3(path):
    return next(f for f in json.load(open(path))["functions"] if f["name"] == "fig3")


def level1(f):
    return {int(n["id"]): int(n["count"]) for n in f["kipf"] if int(n["count"])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kpath", required=True)
    ap.add_argument("--src", required=True)
    a = ap.parse_args()
    cc = os.environ.get("CC", "cc").split()
    src = os.path.join(os.path.abspath(a.src), "tests", "pppmode", "fig3.c")
    libs = shlex.split(run([a.kpath, "config", "--libs"]).stdout.decode())
    env = {k: v for k, v in os.environ.items() if not k.startswith("KPATH_")}
    errs = []
    with tempfile.TemporaryDirectory(prefix="pppfig3.") as t:
        def build(name, extra, strict=True):
            run([a.kpath, "instrument", src, "-o", os.path.join(t, name + ".c"), "--quiet"] + extra, cwd=t)
            flags = ["-std=c89", "-pedantic", "-Wall", "-Wextra", "-Werror"] if strict else ["-w"]
            run(cc + flags + [os.path.join(t, name + ".c"), "-o", os.path.join(t, name)] + libs)

        def exe(name, arg, out, k1=False):
            e = dict(env, KPATH_OUT=os.path.join(t, out))
            if k1:
                e["KPATH_K"] = "1"
            return run([os.path.join(t, name), arg], env=e)

        native = os.path.join(t, "native")
        run(cc + ["-w", src, "-o", native])
        want_out = run([native, "B"]).stdout
        # 1. the interesting set: exactly sacdt, sact, sbct
        build("k1", [], strict=False)
        exe("k1", "A", "A.json", k1=True)
        exe("k1", "B", "B.json", k1=True)
        ga, gb = level1(fig3(os.path.join(t, "A.json"))), level1(fig3(os.path.join(t, "B.json")))
        if ga != {SACDT: 1, SACT: 2, SBCT: 3}:
            errs.append("A's profile: fig3's paths %s, want sacdt, sact, sbct = {0: 1, 1: 2, 5: 3}" % ga)
        if gb != {i: i + 1 for i in range(6)}:
            errs.append("B's profile: fig3's paths %s, want the paper's IDs 0..5 with counts 1..6" % gb)
        want = {"mode": "ppp", "interesting": 3, "interval": 3, "slots": 3,
                "paths": [(SACDT, 0, 1), (SACT, 1, 2), (SBCT, 2, 6)],
                "residual": [(SABCDT, 3), (SABCT, 4), (SBCDT, 5)]}
        interesting = ["--mode", "ppp", "--interesting", os.path.join(t, "A.json")]
        for name, extra in (("ppp", []), ("regs", ["--ppp-registers"])):
            # 2. and 3.: the profile's ppp fields, exactly
            build(name, interesting + extra)
            p = exe(name, "B", name + ".json")
            if p.stdout != want_out:
                errs.append("%s: output differs from the native build's" % name)
            f = fig3(os.path.join(t, name + ".json"))
            pp = f.get("ppp", {})  # kpath-profile/2: the mode's data under its name
            got = {"mode": f.get("mode"), "interesting": pp.get("interesting"),
                   "interval": pp.get("interval"), "slots": pp.get("slots"),
                   "paths": sorted((q["id"], q["ppp_id"], q["count"]) for q in pp.get("paths", [])),
                   "residual": sorted((q["id"], q["count"]) for q in pp.get("residual", []))}
            if got != want:
                errs.append("%s: fig3's ppp fields %s, want %s" % (name, got, want))
            if level1(f) != gb:
                errs.append("%s: fig3's k-IPF %s differs from the k = 1 run's %s" % (name, level1(f), gb))
        # 3. the slot check spied on: the aliases of section 2.3
        text = open(os.path.join(t, "regs.c")).read()
        spied, n = CHECK.subn(r"kp_spy(\1, \2)", text)
        if n != 2:
            errs.append("--ppp-registers: %d slot checks in fig3, want 2 (its two returns)" % n)
        at = spied.index("static int fig3(")
        with open(os.path.join(t, "spy.c"), "w") as o:
            o.write(spied[:at] + SPY + spied[at:])
        run(cc + ["-w", os.path.join(t, "spy.c"), "-o", os.path.join(t, "spy")] + libs)
        p = exe("spy", "B", "spy.json")
        pairs = collections.Counter(tuple(int(x) for x in l.split()[1:]) for l in p.stderr.decode().splitlines()
                                    if l.startswith("kp_spy "))
        m1 = 2 ** 64 - 1
        want_pairs = {(0, SACDT): 1, (1, SACT): 2, (2, SBCT): 6,    # interesting: PPP IDs 0, 1, 2
                      (0, SABCT): 4, (1, SBCDT): 5,                 # aliases of sacdt and sact
                      (m1, SABCDT): 3}                              # below the interval
        if dict(pairs) != want_pairs:
            errs.append("spied (PPP, Ball-Larus) pairs at fig3's path ends %s, want %s"
                        % (sorted(pairs.items()), sorted(want_pairs.items())))
        f = fig3(os.path.join(t, "spy.json"))
        if sorted((q["id"], q["count"]) for q in f["ppp"]["residual"]) != want["residual"]:
            errs.append("spy: residual %s" % f["ppp"]["residual"])
    for e in errs:
        print("FAIL: " + e)
    if not errs:
        print("ppp_fig3: PPP IDs 0, 1, 2 for sacdt, sact, sbct; sabct, sbcdt alias them, sabcdt falls below "
              "the interval; all three residual with counts 4, 5, 3")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())
