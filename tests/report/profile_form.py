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
