#!/usr/bin/env python3
"""build_mirror.py OUT_DIR EXE LIBS...: compiles every entry of
OUT_DIR/compile_commands.json (as kpath instrument -p wrote it) and links
the objects with LIBS into EXE."""
import json
import subprocess
import sys

out, exe, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(out + '/compile_commands.json') as f:
    db = json.load(f)
objs = []
cc = None
for e in db:
    r = subprocess.run(e['arguments'], cwd=e['directory'])
    if r.returncode != 0:
        print('FAIL: compiling', e['file'], 'failed:', ' '.join(e['arguments']))
        sys.exit(1)
    objs.append(e['output'])
    cc = e['arguments'][0]
r = subprocess.run([cc, '-o', exe] + objs + libs)
sys.exit(r.returncode)
