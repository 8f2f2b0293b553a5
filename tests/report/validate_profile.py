#!/usr/bin/env python3
"""validate_profile.py PROFILE...: validates kpath profiles (kpath-profile/2,
and /1, which readers still accept) against docs/kpath-profile.schema.json
(JSON Schema, Debian python3-jsonschema).

Also importable: validate(doc, what) returns a list of error strings, so
the other test scripts (tests/e2e/kpcheck.py, tests/builds/check_profile.py)
validate every profile they read.  Exit status 1 when a file fails, 2 when
jsonschema is missing (scripts/test installs it).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import profile_form  # noqa: E402  (a function's mode payload, /1 or /2)

SCHEMA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs",
                           "kpath-profile.schema.json")
_validator = None


def _get_validator():
    global _validator
    if _validator is None:
        try:
            import jsonschema
        except ImportError:
            print("validate_profile: python3-jsonschema is not installed (apt-get install python3-jsonschema)")
            sys.exit(2)
        with open(SCHEMA_PATH) as f:
            schema = json.load(f)
        cls = jsonschema.validators.validator_for(schema)
        cls.check_schema(schema)
        _validator = cls(schema)
    return _validator


def validate(doc, what="profile"):
    """Errors of doc against the schema, as 'WHAT: at PATH: message'."""
    errs = []
    name = doc.get("schema") if isinstance(doc, dict) else None
    for e in sorted(_get_validator().iter_errors(doc), key=lambda e: [str(x) for x in e.absolute_path]):
        where = "/".join(str(x) for x in e.absolute_path) or "(top)"
        errs.append("%s: schema %s: at %s: %s" % (what, name, where, e.message[:200]))
    # What JSON Schema cannot say (profile-schema.md; the C reader checks
    # the same rules, profile/profile_check.c): the depth of the forest is
    # at most k, a child's count never exceeds its parent's, IDs are below
    # num_paths, sibling IDs, path IDs and (name, file, checksum) are
    # unique, spans match lines, and (/2) the totals cover at most runs.
    if not errs:
        k = doc["k"]
        forked = doc.get("forked") is True  # count rules hold only with the parent's profile
        seen_funcs = set()
        totals = doc.get("program", {}).get("totals") if name == "kpath-profile/2" else None
        if totals is not None and int(totals["runs"]) > int(doc["runs"]):
            errs.append("%s: program.totals.runs: %s is more than the profile's runs %s"
                        % (what, totals["runs"], doc["runs"]))

        def walk(nodes, depth, parent, num_paths, where):
            ids = set()
            for i, n in enumerate(nodes):
                c, ident = int(n["count"]), int(n["id"])
                at = "%s[%d]" % (where, i)
                if depth > k:
                    errs.append("%s: %s: deeper than k = %d" % (what, at, k))
                    return
                if c == 0 and not forked:
                    errs.append("%s: %s: count 0 (k-IPF counts are > 0)" % (what, at))
                if parent is not None and c > parent and not forked:
                    errs.append("%s: %s: count %d above its parent's %d" % (what, at, c, parent))
                if ident >= num_paths:
                    errs.append("%s: %s: id %d not below num_paths %d" % (what, at, ident, num_paths))
                if ident in ids:
                    errs.append("%s: %s: duplicate id %d among siblings" % (what, at, ident))
                ids.add(ident)
                walk(n["children"], depth + 1, c, num_paths, at + ".children")

        for fi, fn in enumerate(doc["functions"]):
            key = (fn["name"], fn["file"], fn["checksum"])
            if key in seen_funcs:
                errs.append("%s: functions[%d]: function listed twice" % (what, fi))
            seen_funcs.add(key)
            num_paths = int(fn["num_paths"])
            walk(fn["kipf"], 1, None, num_paths, "functions[%d].kipf" % fi)
            path_ids = set()
            # spans, when present: one [first, last] per entry of lines,
            # first == lines[i] <= last
            for pi, q in enumerate(fn["paths"]):
                at = "functions[%d].paths[%d]" % (fi, pi)
                if int(q["id"]) >= num_paths:
                    errs.append("%s: %s: id %s not below num_paths %d" % (what, at, q["id"], num_paths))
                if int(q["id"]) in path_ids:
                    errs.append("%s: %s: duplicate path id %s" % (what, at, q["id"]))
                path_ids.add(int(q["id"]))
                sp = q.get("spans")
                if sp is not None and (len(sp) != len(q["lines"]) or
                                       any(s[0] != l or s[1] < s[0] for s, l in zip(sp, q["lines"]))):
                    errs.append("%s: %s: spans %r do not match lines %r" % (what, at, sp, q["lines"]))
            pp = profile_form.payload(fn, "ppp")
            if pp:
                errs.extend("%s: functions[%d].%s" % (what, fi, e) for e in ppp_errors(pp, fn["kipf"], name))
            cfg = fn.get("cfg")
            if cfg is not None:
                errs.extend("%s: functions[%d].%s" % (what, fi, e) for e in cfg_errors(cfg, num_paths))
    return errs


def ppp_errors(pp, kipf, name):
    """The counts of a ppp function's payload against its k-IPF's roots
    (profile/profile_ppp.c, kp_ppp_check_counts), named as the file names
    them: "ppp.paths[0].count" in /2, "ppp_paths[0].count" in /1."""
    dot = "." if name == "kpath-profile/2" else "_"
    roots = {int(n["id"]): int(n["count"]) for n in kipf}
    mine = {int(q["id"]) for q in pp["paths"]}
    for i, q in enumerate(pp["paths"]):
        if int(q["count"]) != roots.get(int(q["id"]), 0):
            return ["ppp%spaths[%d].count: %s is not the path's count in kipf" % (dot, i, q["count"])]
    want = sorted(i for i, c in roots.items() if c and i not in mine)
    if sorted(int(q["id"]) for q in pp["residual"]) != want or \
            any(int(q["count"]) != roots.get(int(q["id"])) for q in pp["residual"]):
        return ["ppp%sresidual: not every path of kipf outside ppp%spaths once, with its count" % (dot, dot)]
    return []


def cfg_errors(cfg, num_paths):
    """The rules of a function's "cfg" (profile/profile_cfg.c, kp_rule_cfg)."""
    blocks, edges = cfg["blocks"], cfg["edges"]
    if len(blocks) < 2:
        return ["cfg.blocks: fewer than 2 blocks"]
    for i, (a, b) in enumerate(blocks):
        if (a == 0 and b != 0) or (a != 0 and b < a):
            return ["cfg.blocks[%d]: span [%d, %d] is neither [0, 0] nor 1 <= first <= last" % (i, a, b)]
    prev = None
    for i, (s, d, v) in enumerate(edges):
        v = int(v)
        if s >= len(blocks) or d >= len(blocks):
            return ["cfg.edges[%d]: an end is not a block" % i]
        if s == 1 or d == 0:
            return ["cfg.edges[%d]: leaves EXIT or enters ENTRY" % i]
        if v >= num_paths:
            return ["cfg.edges[%d]: val %d not below num_paths %d" % (i, v, num_paths)]
        if prev is not None and (s < prev[0] or (s == prev[0] and v < prev[1])):
            return ["cfg.edges[%d]: not grouped by increasing src with increasing val" % i]
        prev = (s, v)
    return []


def validate_file(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return ["%s: cannot load: %s" % (path, e)]
    return validate(doc, path)


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        sys.exit(2)
    bad = 0
    for p in sys.argv[1:]:
        errs = validate_file(p)
        for e in errs[:20]:
            print("validate_profile: FAIL: " + e)
        bad += bool(errs)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
