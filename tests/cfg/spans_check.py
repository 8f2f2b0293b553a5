#!/usr/bin/env python3
"""spans_check.py KPATH SPANS_C CORPUS_DIR WORK: block line spans (cfgbuild).

1. spans/spans.c: the descriptor's first and last line of every block equal
   the reviewed tables below (block b spans kp_lines[b]..kp_last_lines[b]).
2. Every corpus program (with its FLAGS): the invariant of cfg.h, no block's
   span has another block's first line strictly inside it, last >= first,
   and a block without a first line has no last line.
"""
import os
import re
import subprocess
import sys

# spans.c, reviewed by hand: e.g. block 2 = entry 5..7 ("int s = a &&",
# whose "b" on line 8 is block 4), 11 = the for head 14..15 (for keyword,
# condition), 13 = the for body 16..17 ("{" after "i++)", "s += v[i]"),
# 17 = "case 2:" 21..22, 18 = default 24..26 (a call over two lines),
# 20 = the do-while condition 30..31, 26 = "return s +" 37..38.
WANT_FIRST = [0, 0, 5, 9, 8, 12, 11, 10, 14, 12, 13, 14, 19, 16, 16, 0, 20, 21, 24, 28, 30, 0, 32, 0, 33,
              34, 37, 36, 35]
WANT_LAST = [0, 0, 7, 9, 8, 12, 11, 10, 14, 12, 13, 15, 19, 17, 16, 0, 20, 22, 26, 29, 31, 0, 33, 0, 33,
             34, 38, 36, 35]

failures = 0


def fail(msg):
    global failures
    print("FAIL: " + msg)
    failures += 1


def tables(path):
    s = open(path).read()
    firsts = dict(re.findall(r'static const unsigned kp_lines_(\w+)\[\] = \{([^}]*)\}', s))
    lasts = dict(re.findall(r'static const unsigned kp_last_lines_(\w+)\[\] = \{([^}]*)\}', s))
    out = {}
    for fn, fl in firsts.items():
        if fn not in lasts:
            fail("%s: %s has no kp_last_lines table" % (path, fn))
            continue
        out[fn] = ([int(x) for x in fl.split(',')], [int(x) for x in lasts[fn].split(',')])
    return out


def invariant(path, fn, first, last):
    if len(first) != len(last):
        fail("%s: %s: tables of different lengths" % (path, fn))
        return
    for b, (f, l) in enumerate(zip(first, last)):
        if f == 0 and l != 0:
            fail("%s: %s: block %d has a last line but no first" % (path, fn, b))
        if f and l < f:
            fail("%s: %s: block %d ends (%d) before it starts (%d)" % (path, fn, b, l, f))
        for c, g in enumerate(first):
            if c != b and g and f < g < l:
                fail("%s: %s: block %d spans %d..%d over line %d where block %d starts"
                     % (path, fn, b, f, l, g, c))


def instrument(kpath, src, out, flags, cwd):
    r = subprocess.run([kpath, "instrument", src, "-o", out, "--quiet", "--"] + flags, cwd=cwd,
                       capture_output=True, text=True)
    if r.returncode != 0:
        fail("kpath instrument %s: %s" % (src, r.stderr.strip()))
        return False
    return True


def main():
    kpath, spans_c, corpus, work = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    out = os.path.join(work, "spans.kpath.c")
    if instrument(kpath, spans_c, out, [], None):
        t = tables(out).get("tricky")
        if not t:
            fail("spans.c: no descriptor for tricky")
        else:
            invariant(out, "tricky", *t)
            if t != (WANT_FIRST, WANT_LAST):
                fail("spans.c: first lines %s\n  last lines %s\nexpected\n  %s\n  %s"
                     % (t[0], t[1], WANT_FIRST, WANT_LAST))
    nfun = 0
    for line in open(os.path.join(corpus, "FLAGS")):
        if line.startswith("#") or ":" not in line:
            continue
        name, flags = line.split(":", 1)
        out = os.path.join(work, name.strip() + ".kpath.c")
        if instrument(kpath, name.strip() + ".c", out, flags.split(), corpus):
            for fn, (first, last) in tables(out).items():
                invariant(out, fn, first, last)
                nfun += 1
    if nfun < 20:
        fail("only %d corpus functions checked" % nfun)
    print("spans: %d corpus functions, %d failure(s)" % (nfun, failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
