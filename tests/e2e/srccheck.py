#!/usr/bin/env python3
"""srccheck.py ORIGINAL.c INSTRUMENTED.c [EXPECTED_FUNCTIONS]

Checks on the text kpath instrument writes (standard library only):
  - #line directives that name the original file;
  - a path register: the identifier passed as the path ID to kpath_rt_emit /
    kpath_rt_leave / kpath_rt_count is updated with "+=" somewhere;
  - only insertions: after the preamble (everything before the first #line
    naming the original), the original file is a subsequence of the output,
    both character by character and token by token (tokens of the original,
    comments dropped, must appear in order among the output's tokens);
  - with EXPECTED_FUNCTIONS: that many functions after the preamble, each
    with a kpath_rt_begin_t call (the cursor's initialiser; kpath_rt_begin_sj
    in a function that calls setjmp, kpath_rt_begin in other modes), or
    (acyclic) kpath_rt_tally calls instead.
Exit status 0 = pass, 1 = fail.
"""
import os
import re
import sys

fails = []


def fail(msg):
    fails.append(msg)
    print("srccheck: FAIL: " + msg)


TOKEN = re.compile(r"""
    [A-Za-z_][A-Za-z_0-9]*
  | \.?[0-9](?:[eEpP][+-]|[A-Za-z_0-9.])*
  | "(?:\\.|[^"\\\n])*"
  | '(?:\\.|[^'\\\n])*'
  | <<=|>>=|\.\.\.|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|\#\#
  | [^\s]
""", re.X)


def strip_comments(text):
    out = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text[i] in "\"'":
            q = text[i]
            j = i + 1
            while j < n and text[j] != q:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def tokens(text):
    return TOKEN.findall(strip_comments(text))


def subsequence(small, big):
    """Index in small of the first element that cannot be matched, or None."""
    j = 0
    for i, x in enumerate(small):
        while j < len(big) and big[j] != x:
            j += 1
        if j == len(big):
            return i
        j += 1
    return None


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__)
        sys.exit(2)
    orig_path, out_path = sys.argv[1], sys.argv[2]
    with open(orig_path) as f:
        orig = f.read()
    with open(out_path) as f:
        out = f.read()
    base = os.path.basename(orig_path)

    line_re = re.compile(r'^[ \t]*#[ \t]*line[ \t]+([0-9]+)[ \t]+"([^"]*)"', re.M)
    directives = [m for m in line_re.finditer(out) if os.path.basename(m.group(2)) == base]
    if not directives:
        fail('no #line directive naming "%s"' % base)
        body_start = 0
    else:
        body_start = directives[0].start()
        print("srccheck: %d #line directives name %s" % (len(directives), base))
        for m in directives:
            if not 1 <= int(m.group(1)) <= orig.count("\n") + 1:
                fail("#line %s is outside %s" % (m.group(1), base))
    body = out[body_start:]

    # Path register: the id argument of kpath_rt_emit/leave (the second,
    # kpath_rt_count(&desc, id, num_paths); the third,
    # kpath_rt_tally(&desc, &cnt, id, num_paths)).
    regs = set()
    idarg = {"count": 1, "tally": 2}
    for m in re.finditer(r"\bkpath_rt_(emit|leave|count|tally)\s*\(([^;]*?)\)\s*[;,]", body):
        args = m.group(2).split(",")
        if len(args) >= 2:
            regs.update(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", args[idarg.get(m.group(1), -1)]))
    calls = len(re.findall(r"\bkpath_rt_(?:emit|leave|count|tally)\s*\(", body))
    print("srccheck: %d kpath_rt_emit/leave/count/tally calls; path register candidates: %s"
          % (calls, sorted(regs)))
    if calls == 0:
        fail("no kpath_rt_emit / kpath_rt_leave / kpath_rt_count / kpath_rt_tally calls after the preamble")
    incr = [r for r in regs if re.search(r"\b%s\s*\+=\s*\S" % re.escape(r), body)]
    if not incr:
        fail("no '+=' on a path register (%s)" % sorted(regs))
    else:
        n = sum(len(re.findall(r"\b%s\s*\+=" % re.escape(r), body)) for r in incr)
        print("srccheck: %d '+=' updates of path register(s) %s" % (n, sorted(incr)))

    if len(sys.argv) == 4:
        want = int(sys.argv[3])
        got = len(re.findall(r"\bkpath_rt_begin(?:_sj|_t)?\s*\(", body))
        # an acyclic function has no enter: its exits count into its descriptor
        acyc = len(set(re.findall(r"\bkpath_rt_(?:count|tally)\s*\(\s*&\s*([A-Za-z_][A-Za-z_0-9]*)", body)))
        print("srccheck: %d kpath_rt_begin calls, %d acyclic functions (kpath_rt_tally)" % (got, acyc))
        if got + acyc != want:
            fail("%d kpath_rt_begin calls and %d functions with kpath_rt_tally after the preamble, "
                 "expected %d in all (one per function)" % (got, acyc, want))

    # Only insertions.
    k = subsequence(orig, body)
    if k is not None:
        line = orig.count("\n", 0, k) + 1
        fail("the original is not a character subsequence of the output: "
             "character %d (line %d: %r) cannot be matched" % (k, line, orig.split("\n")[line - 1]))
    # Ignore the inserted #line directives for the token check.
    body_no_line = line_re.sub("", body)
    to, tb = tokens(orig), tokens(body_no_line)
    k = subsequence(to, tb)
    if k is not None:
        fail("the original's tokens are not a subsequence of the output's: token %d %r "
             "(context: %s) cannot be matched" % (k, to[k], " ".join(to[max(0, k - 8):k + 3])))
    else:
        print("srccheck: original's %d tokens appear in order among the output's %d"
              % (len(to), len(tb)))

    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
