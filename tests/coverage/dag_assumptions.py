#!/usr/bin/env python3
"""dag_assumptions.py KPATH CORPUS_DIR FILE.c...

report/coverage.c counts branches and entries on the Ball-Larus DAG the
profile carries, not on the CFG, relying on two facts of kpath's CFG
builder (docs/coverage.md, difference 5).  This checks them on every
function of the given corpus files, from `kpath cfg` (the CFG with each
edge's role, and the DAG with each edge's kind):

  1. every block but ENTRY has as many DAG out-edges as live CFG out-edges
     (forward, back or cut): a block has at most one back or cut edge, and
     a block with an edge to EXIT has no other, so the dummy edge v->EXIT
     stands for exactly one CFG edge;
  2. ENTRY's real edge (kind cfg) leads to the smallest block id among
     ENTRY's DAG successors, which is how coverage.c tells the function's
     entry from the dummy edges to loop headers.

Flags for each file come from CORPUS_DIR/FLAGS (NAME: flags).  Exit 0 when
both hold everywhere (and at least one function was checked), else 1.
"""
import os
import re
import subprocess
import sys


def functions(text):
    fn = None
    for line in text.splitlines():
        m = re.match(r'^function (\S+) line', line)
        if m:
            fn = {'name': m.group(1), 'cfg': [], 'dag': []}
            yield fn
            continue
        m = re.match(r'^  e\d+ (\S+) -> (\S+) order \d+ (\w+)', line)
        if m and fn is not None:
            fn['cfg'].append((m.group(1), m.group(2), m.group(3)))
            continue
        m = re.match(r'^  (\S+) -> (\S+) (cfg e\d+|dummy-entry|dummy-exit) val', line)
        if m and fn is not None:
            fn['dag'].append((m.group(1), m.group(2), m.group(3).split()[0]))


def block_id(b):
    return {'ENTRY': 0, 'EXIT': 1}.get(b, None) if b in ('ENTRY', 'EXIT') else int(b[1:])


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    kpath, corpus = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    flags = {}
    for ln in open(os.path.join(corpus, 'FLAGS')):
        if ':' in ln:
            k, v = ln.split(':', 1)
            flags[k.strip()] = v.split()
    bad, checked = [], 0
    for path in sys.argv[3:]:
        name = os.path.splitext(os.path.basename(path))[0]
        r = subprocess.run([kpath, 'cfg', os.path.abspath(path), '--'] + flags.get(name, []), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, cwd=corpus)
        if r.returncode:
            bad.append('%s: kpath cfg failed: %s' % (path, r.stderr.decode()[:300]))
            continue
        for fn in functions(r.stdout.decode()):
            checked += 1
            live, dag = {}, {}
            for s, d, role in fn['cfg']:
                if role != 'dead':
                    live[s] = live.get(s, 0) + 1
            for s, d, kind in fn['dag']:
                dag[s] = dag.get(s, 0) + 1
            for b in set(live) | set(dag):
                if b != 'ENTRY' and live.get(b, 0) != dag.get(b, 0):
                    bad.append('%s: %s: block %s has %d live CFG out-edges and %d DAG out-edges' %
                               (path, fn['name'], b, live.get(b, 0), dag.get(b, 0)))
            entry = [(block_id(d), kind) for s, d, kind in fn['dag'] if s == 'ENTRY']
            if entry and min(entry)[1] != 'cfg':
                bad.append('%s: %s: ENTRY\'s smallest successor is reached by a dummy edge' % (path, fn['name']))
    for b in bad:
        print('FAIL: ' + b)
    print('dag_assumptions: %d functions checked' % checked)
    return 1 if bad or checked == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
