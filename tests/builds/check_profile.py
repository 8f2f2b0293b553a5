#!/usr/bin/env python3
"""check_profile.py PROFILE SRC_DIR: every function has invalid_paths 0 and
every .c file of SRC_DIR has at least one function in the profile, and
the profile validates against docs/kpath-profile.schema.json."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "report"))
import validate_profile  # noqa: E402  (JSON Schema check of the profile)

prof, src = sys.argv[1], sys.argv[2]
with open(prof) as f:
    d = json.load(f)
schema_errors = validate_profile.validate(d, prof)
for e in schema_errors[:20]:
    print('FAIL: ' + e)
bad = [fn['name'] for fn in d['functions'] if fn.get('invalid_paths', 0) != 0]
files = {os.path.basename(fn['file']) for fn in d['functions']}
want = {n for n in os.listdir(src) if n.endswith('.c')}
missing = sorted(want - files)
ok = not schema_errors
if bad:
    print('FAIL: invalid_paths != 0 in', ', '.join(bad))
    ok = False
if missing:
    print('FAIL: no function from', ', '.join(missing), 'in the profile (files:', sorted(files), ')')
    ok = False
print('profile: %d functions from %d files, runs %d' % (len(d['functions']), len(files), d['runs']))
sys.exit(0 if ok else 1)
