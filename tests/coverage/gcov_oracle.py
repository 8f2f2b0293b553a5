#!/usr/bin/env python3
"""gcov_oracle.py KPATH CORPUS_DIR WORK_DIR NAME...
   gcov_oracle.py --project KPATH PROJECT_DIR WORK_DIR

Oracle for `kpath coverage`: for each corpus program NAME, build it twice
from corpus/NAME.c with corpus/FLAGS (instrumented by kpath; with
gcc --coverage), run both, and compare kpath's line, branch and function
coverage with gcov's (gcov -j -b, GCC's JSON) where docs/coverage.md says
the definitions agree:

  - a line both count is covered by both or by neither;
  - (kpath against itself) the covered lines are the counted lines inside
    the spans of the executed paths as the runtime decoded them (the
    profile's "paths"), so report/coverage.c's decoder agrees with the
    runtime's;
  - every line gcov counts, kpath counts, except a line holding only '}'
    (gcov's return point of a function that falls off its end; kpath does
    not count brace-only lines: docs/coverage.md, difference 1);
  - every line kpath counts and gcov does not is one of the documented
    differences: a line GCC emits no instruction for (difference 1: a
    declaration without initializer, '(void)x;', 'else', 'do', a label or
    a case label), a continuation line of a multi-line statement
    (difference 2), or a line kpath shows as never run whose block GCC
    removed as unreachable (difference 3);
  - the functions entered are the same;
  - per function, branches: kpath's covered count equals gcov's taken
    count and the totals are equal, unless the function has a condition
    GCC folds or a switch (difference 4), which the script detects in its
    text and then only requires kpath's total to be >= its covered.

Anything else fails, naming the program and line.  Exit status 0 pass,
1 fail, 2 usage or a tool missing.
"""
import glob
import json
import os
import re
import subprocess
import sys

# Difference 1: lines GCC emits no instruction for.  A label's line is
# also left out of the comparison of lines both count: gcov gives it the
# count of an empty block GCC places there, 0 when only jumps reach it.
LABEL = re.compile(r'^\s*[A-Za-z_]\w*\s*:\s*(;\s*)?$')
NO_CODE = [
    re.compile(r'^\s*(else|do)\b\s*\{?\s*$'),
    re.compile(r'^\s*\}?\s*else\s*\{?\s*$'),
    LABEL,
    re.compile(r'^\s*(case\b.*|default\s*):\s*\{?\s*$'),          # case label
    re.compile(r'^\s*\(void\)\s*[A-Za-z_]\w*\s*;\s*$'),            # (void)x;
    re.compile(r'^\s*static\b'),  # an object with static storage: initialised at load time
    # a declaration without initializer: TYPE name[, name]...;
    re.compile(r'^\s*(?!(return|goto|break|continue|case)\b)([A-Za-z_]\w*\s+)*'
               r'[A-Za-z_]\w*[\s\*]+[A-Za-z_]\w*(\[[^\]=]*\])*'
               r'(\s*,\s*\**\s*[A-Za-z_]\w*(\[[^\]=]*\])*)*\s*;\s*(/[/*].*)?$'),
    # Difference 4: a constant loop condition GCC folds away
    re.compile(r'.*\b(while|if)\s*\(\s*(1|0)\s*\)\s*[{;]?\s*$'),
    re.compile(r'^\s*\}?\s*while\s*\(\s*(1|0)\s*\)\s*;'),
    re.compile(r'^\s*for\s*\(\s*[^;]*;\s*;[^)]*\)\s*\{?\s*$'),
    # Difference 4: a macro whose condition GCC folds (EXPECT(MIN(3, 4) == 3))
    re.compile(r'^\s*[A-Z_][A-Z0-9_]*\s*\(.*\)\s*;\s*$'),
]
# Difference 4: functions whose branches GCC folds or counts differently:
# constant conditions, switches, conditions inside macros, "c ? 1 : 0".
# Difference 4 too: "?:" GCC may compute without a jump, and "&&" / "||"
# whose value is used (return a && b;): GCC branches on the last operand to
# make 0 or 1, kpath's CFG takes its value (cfgbuild/expr.c); an
# expression with conditions in two unsequenced operands, which kpath keeps
# atomic (cfgbuild/expr.c), is no branch in kpath.
FOLDED = re.compile(r'\b(while|if)\s*\(\s*(1|0|sizeof\b[^)]*\))\s*\)|\bfor\s*\(\s*[^;]*;\s*;|\bswitch\b|'
                    r'\b[A-Z_][A-Z0-9_]*\s*\(|\?|(\breturn\b|[^=!<>]=[^=])[^;]*(&&|\|\|)')
# Difference 7: GCC's shared return block: gcov gives its count (the
# function's calls) to one return statement's line, marked as holding an
# unexecuted block ("14*").
RETURN = re.compile(r'^\s*return\b')


def fail(msgs, name, what):
    msgs.append('FAIL: %s: %s' % (name, what))


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def continuation(text, line):
    """Whether line continues a statement begun on an earlier line."""
    j = line - 2
    while j >= 0 and not text[j].strip():
        j -= 1
    if j < 0:
        return False
    prev = re.sub(r'//.*$', '', text[j]).rstrip()
    return bool(prev) and prev[-1] not in ';{}:' and not prev.lstrip().startswith('#')


def in_static_init(text, line):
    """Whether line is part of a static object's initializer (difference 1)."""
    j = line - 1
    while j >= 0 and j >= line - 40:
        t = text[j]
        if re.match(r'^\s*static\b', t):
            return True
        if j < line - 1 and t.rstrip().endswith(';'):
            return False
        j -= 1
    return False


def check(kpath, corpus, work, name, msgs):
    flags = None
    for ln in open(os.path.join(corpus, 'FLAGS')):
        if ln.startswith(name + ':'):
            flags = ln.split(':', 1)[1].split()
    if flags is None:
        return fail(msgs, name, 'no line in corpus/FLAGS')
    w = os.path.join(work, name)
    os.makedirs(w, exist_ok=True)
    src = name + '.c'
    # kpath
    r = run([kpath, 'instrument', src, '-o', os.path.join(w, name + '.kpath.c'), '--'] + flags, cwd=corpus)
    if r.returncode:
        return fail(msgs, name, 'kpath instrument: ' + r.stderr.decode())
    libs = run([kpath, 'config', '--libs']).stdout.decode().split()
    # $CC: the sanitizer run (scripts/test) builds the runtime with it.
    r = run(os.environ.get('CC', 'cc').split() + ['-std=c11', '-O0'] + flags + [os.path.join(w, name + '.kpath.c'), '-o',
             os.path.join(w, 'k')] + libs, cwd=corpus)
    if r.returncode:
        return fail(msgs, name, 'cc: ' + r.stderr.decode()[:500])
    prof = os.path.join(w, 'k.json')
    if os.path.exists(prof):
        os.remove(prof)
    run([os.path.join(w, 'k')], cwd=corpus, env=dict(os.environ, KPATH_OUT=prof))
    r = run([kpath, 'coverage', '--json', prof], cwd=corpus)
    if r.returncode:
        return fail(msgs, name, 'kpath coverage: ' + r.stderr.decode())
    cov = json.loads(r.stdout)
    kf = [f for f in cov['files'] if f['file'] == src]
    if len(kf) != 1:
        return fail(msgs, name, 'kpath coverage lists no %s' % src)
    g = gcov_files(w, ['g-%s.gcda' % name], msgs, name) if build_gcov(corpus, w, name, flags, src, msgs) else None
    if g is None:
        return
    g = [f for f in g if os.path.basename(f['file']) == src]
    if len(g) != 1:
        return fail(msgs, name, 'gcov lists no %s' % src)
    compare(name, src, open(os.path.join(corpus, src)).read().split('\n'), kf[0], g[0],
            json.load(open(prof))['functions'], msgs)


def build_gcov(corpus, w, name, flags, src, msgs):
    for f in os.listdir(w):
        if f.endswith('.gcda'):
            os.remove(os.path.join(w, f))
    r = run(['gcc', '--coverage', '-std=c11', '-O0'] + flags + [src, '-o', os.path.join(w, 'g')], cwd=corpus)
    if r.returncode:
        fail(msgs, name, 'gcc --coverage: ' + r.stderr.decode()[:500])
        return False
    run([os.path.join(w, 'g')], cwd=corpus)
    return True


def gcov_files(cwd, gcdas, msgs, name):
    """gcov's JSON files entries for the .gcda files (paths relative to cwd)."""
    files = []
    for gcda in gcdas:
        r = run(['gcov', '-t', '-j', '-b', gcda], cwd=cwd)
        if r.returncode:
            fail(msgs, name, 'gcov: ' + r.stderr.decode())
            return None
        files += json.loads(r.stdout)['files']
    return files


def compare(name, src, text, kf, g, prof_funcs, msgs):
    """The rules of the docstring on one source file: kf is its entry in
    kpath coverage --json, g in gcov's JSON, prof_funcs the profile's
    functions."""
    klines = {l: c for l, c in kf['line_counts']}
    # kpath against itself: the lines coverage.c's decoder finds covered are
    # the counted lines inside the spans of the runtime's own decoding of
    # the executed paths (the profile's "paths"), no more, no less
    spans = set()
    for f in prof_funcs:
        if f['file'] != kf['file']:
            continue
        ran = {n['id'] for n in f['kipf']}
        for q in f['paths']:
            if q['id'] in ran:
                for a, b in q.get('spans', [[l, l] for l in q['lines']]):
                    spans.update(range(a, b + 1))
    mine = {l for l, c in klines.items() if c > 0}
    if mine != spans & set(klines):
        fail(msgs, name, 'covered lines differ from the runtime decoding of the paths: only coverage %s, '
             'only paths %s' % (sorted(mine - spans), sorted((spans & set(klines)) - mine)))
    kfns = {f['name']: f for f in kf['function_list']}
    glines = {}
    gfn_of = {}
    gunexec = set()
    for l in g['lines']:
        n = l['line_number']
        glines[n] = glines.get(n, 0) + l['count']
        gfn_of[n] = l.get('function_name')
        if l.get('unexecuted_block'):
            gunexec.add(n)
    gcalls = {f['name']: f['execution_count'] for f in g['functions']}
    compared = 0
    for n, c in sorted(glines.items()):
        if gfn_of.get(n) not in kfns:
            continue  # a function kpath skipped, or a header's
        if n not in klines:
            if text[n - 1].strip() == '}':
                continue
            fail(msgs, name, 'line %d: gcov counts it (%d), kpath does not: %s' % (n, c, text[n - 1].strip()))
            continue
        if LABEL.match(text[n - 1]):
            continue
        compared += 1
        if (c > 0 and klines[n] == 0 and RETURN.match(text[n - 1]) and n in gunexec and
                c == gcalls.get(gfn_of[n])):
            continue
        if (c > 0) != (klines[n] > 0):
            fail(msgs, name, 'line %d: gcov %d, kpath %d: %s' % (n, c, klines[n], text[n - 1].strip()))
    for n, c in sorted(klines.items()):
        if n in glines:
            continue
        t = text[n - 1] if n <= len(text) else ''
        if any(p.match(t) for p in NO_CODE) or continuation(text, n) or in_static_init(text, n) or c == 0:
            continue
        fail(msgs, name, 'line %d: kpath counts it (%d), gcov does not, and no documented difference '
             'explains it: %s' % (n, c, t.strip()))
    # functions
    for gf in g['functions']:
        kfn = kfns.get(gf['name'])
        if kfn is None:
            continue
        if (gf['execution_count'] > 0) != (kfn['entries'] > 0 or kfn['paths_run'] > 0):
            fail(msgs, name, 'function %s: gcov ran it %d times, kpath %d' %
                 (gf['name'], gf['execution_count'], kfn['entries']))
    # branches, per function
    for gf in g['functions']:
        if gf['name'] not in kfns:
            continue
        gb = [b for l in g['lines'] if l.get('function_name') == gf['name'] for b in l['branches']]
        kb = [b for b in kf['branch_list'] if b['function'] == gf['name']]
        body = '\n'.join(text[gf['start_line'] - 1:gf['end_line']])
        gcov_cov = sum(1 for b in gb if b['count'] > 0)
        kp_cov = sum(1 for b in kb if b['count'] > 0)
        if FOLDED.search(body):
            if kp_cov > len(kb):
                fail(msgs, name, 'function %s: branches covered above total' % gf['name'])
        elif (len(gb), gcov_cov) != (len(kb), kp_cov):
            fail(msgs, name, 'function %s: branches gcov %d/%d, kpath %d/%d' %
                 (gf['name'], gcov_cov, len(gb), kp_cov, len(kb)))
    if compared == 0:
        fail(msgs, name, 'no line compared')
    print('%s: %d lines compared; kpath %d/%d lines, %d/%d branches' %
          (name, compared, kf['lines']['covered'], kf['lines']['total'],
           kf['branches']['covered'], kf['branches']['total']))


def check_project(kpath, project, work, msgs):
    """The project mode: PROJECT's CMake build and ctest suite, once with
    kpath-cc as the compiler and linker launcher, once with --coverage;
    every source file compared."""
    name = os.path.basename(project)
    env = dict(os.environ, PATH=os.path.dirname(kpath) + os.pathsep + os.environ.get('PATH', ''))
    k, gdir, prof = os.path.join(work, 'kpath'), os.path.join(work, 'gcov'), os.path.join(work, 'kpath.json')
    if os.path.exists(prof):
        os.remove(prof)
    # $CC (the sanitizer run sets it, with the flags the runtime was built
    # with): the kpath build compiles and links with it.
    cc = os.environ.get('CC', 'cc').split()
    kargs = ['-DCMAKE_C_COMPILER_LAUNCHER=kpath-cc', '-DCMAKE_C_LINKER_LAUNCHER=kpath-cc', '-DCMAKE_C_COMPILER=' + cc[0]]
    if cc[1:]:
        kargs.append('-DCMAKE_C_FLAGS=' + ' '.join(cc[1:]))
    for args, d in ((kargs, k),
                    (['-DCMAKE_C_COMPILER=gcc', '-DCMAKE_C_FLAGS=--coverage -O0'], gdir)):
        for cmd in (['cmake', '-S', project, '-B', d] + args, ['cmake', '--build', d, '-j2']):
            # CMake would take the sanitizer flags in $CC for the gcov build too.
            r = run(cmd, env={n: v for n, v in env.items() if n != 'CC'})
            if r.returncode:
                return fail(msgs, name, '%s: %s' % (' '.join(cmd), (r.stdout + r.stderr).decode()[-800:]))
        for f in glob.glob(os.path.join(d, '**', '*.gcda'), recursive=True):
            os.remove(f)
        # The project's interpreter frees nothing at exit: under the
        # sanitizer run its own leaks are not kpath's (the runtime's are
        # checked by the e2e tests).
        r = run(['ctest', '--test-dir', d], env=dict(env, KPATH_OUT=prof, ASAN_OPTIONS='detect_leaks=0'))
        if r.returncode:
            return fail(msgs, name, 'ctest in %s: %s' % (d, r.stdout.decode()[-800:]))
    r = run([kpath, 'coverage', '--json', prof], cwd=project)
    if r.returncode:
        return fail(msgs, name, 'kpath coverage: ' + r.stderr.decode())
    cov = json.loads(r.stdout)
    gfiles = {}
    for gcda in glob.glob(os.path.join(gdir, '**', '*.gcda'), recursive=True):
        for f in gcov_files(os.path.dirname(gcda), [os.path.basename(gcda)], msgs, name) or []:
            if f['file'].endswith('.c'):
                gfiles[os.path.basename(f['file'])] = f
    funcs = json.load(open(prof))['functions']
    if not cov['files']:
        fail(msgs, name, 'kpath coverage lists no file')
    for kf in cov['files']:
        base = os.path.basename(kf['file'])
        if base not in gfiles:
            fail(msgs, name, 'gcov lists no %s' % base)
            continue
        compare('%s/%s' % (name, base), base, open(kf['file']).read().split('\n'), kf, gfiles[base], funcs, msgs)
    t = cov['total']
    print('%s: kpath lines %d/%d, branches %d/%d, functions %d/%d' % (
        name, t['lines']['covered'], t['lines']['total'], t['branches']['covered'], t['branches']['total'],
        t['functions']['covered'], t['functions']['total']))


def main():
    if len(sys.argv) == 5 and sys.argv[1] == '--project':
        msgs = []
        check_project(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]), os.path.abspath(sys.argv[4]), msgs)
        for m in msgs:
            print(m)
        return 1 if msgs else 0
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    kpath, corpus, work = (os.path.abspath(a) for a in sys.argv[1:4])
    for tool in ('gcc', 'gcov', 'cc'):
        if run(['sh', '-c', 'command -v ' + tool]).returncode:
            print('%s not found' % tool, file=sys.stderr)
            return 2
    msgs = []
    for name in sys.argv[4:]:
        check(kpath, corpus, work, name, msgs)
    for m in msgs:
        print(m)
    return 1 if msgs else 0


if __name__ == '__main__':
    sys.exit(main())
