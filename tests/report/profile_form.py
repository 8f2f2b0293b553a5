"""profile_form.py: a function's mode and the data of its mode, from a kpath
profile of either schema (docs/profile-schema.md, "From /1 to /2").

  kpath-profile/2: "mode" always ("kipf" by default), the mode's data one
                   object under the key of its name: f["ppp"]["paths"]
  kpath-profile/1: "mode" absent in the default mode, the data flat with the
                   mode's name as prefix: f["ppp_paths"]

payload(f) gives the /2 object for both, so a test reads f's data the same
way whatever wrote it.  Importable from tests/ and bench/ scripts
(sys.path gets tests/report, as for validate_profile).
"""

MODES = ("kipf", "kiter", "ppp", "overlap")


def mode(f):
    """f's mode: "kipf", "kiter", "ppp" or "overlap"."""
    return f.get("mode", "kipf")


def payload(f, want=None):
    """The data of f's mode as a dict with the /2 member names ("paths", not
    "ppp_paths"); {} for kipf, or when want is given and f is of another mode."""
    m = mode(f)
    if m == "kipf" or (want is not None and want != m):
        return {}
    if isinstance(f.get(m), dict):
        return f[m]
    pre = m + "_"
    return {k[len(pre):]: v for k, v in f.items() if k.startswith(pre)}


def _rebuild(f, items):
    """f's fields in f's order, the mode's data replaced by items (a list of
    (key, value)) where it was."""
    out, done = {}, False
    for k, v in f.items():
        if k == "mode" or k in MODES[1:] or any(k.startswith(m + "_") for m in MODES[1:]):
            if not done:
                out.update(items)
                done = True
            continue
        out[k] = v
    if not done:
        # no mode field at all (a /1 kipf function): before "paths", as the writer puts it
        tail = [(k, out.pop(k)) for k in list(out) if k in ("paths", "kipf", "cfg")]
        out.update(items)
        out.update(tail)
    return out


def to_v1(doc):
    """The kpath-profile/1 form of a profile of either schema (no program
    sections: /1 has none)."""
    d = {k: v for k, v in doc.items() if k != "program"}
    d["schema"] = "kpath-profile/1"
    fns = []
    for f in doc["functions"]:
        m = mode(f)
        items = [] if m == "kipf" else [("mode", m)] + [(m + "_" + k, v) for k, v in payload(f).items()]
        fns.append(_rebuild(f, items))
    d["functions"] = fns
    return d


def to_v2(doc):
    """The kpath-profile/2 form of a profile of either schema."""
    d = dict(doc)
    d["schema"] = "kpath-profile/2"
    fns = []
    for f in doc["functions"]:
        m = mode(f)
        items = [("mode", m)] + ([] if m == "kipf" else [(m, dict(payload(f)))])
        fns.append(_rebuild(f, items))
    d["functions"] = fns
    return d
