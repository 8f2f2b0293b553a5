#!/bin/sh
# A forked child writes its own run: the accumulated profile has runs = 2 and
# work()'s flow is exactly the parent's 103 paths plus the child's 11 (a child
# that counted the parent's pre-fork paths again would make it 204).
# usage: fork.sh KPATH SOURCE_DIR WORK
set -u
kpath=$1 dir=$2 work=$3/fork
cc=${CC:-cc}
mkdir -p "$work" && rm -f "$work"/*.json || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$kpath" instrument "$dir/fork.c" -o "$work/fork.kpath.c" 2>"$work/instrument.log" || fail "$(cat "$work/instrument.log")"
# shellcheck disable=SC2046
$cc -std=c11 -O2 "$work/fork.kpath.c" -o "$work/fork" $("$kpath" config --libs) || fail build
out=$(KPATH_K=1 KPATH_OUT="$work/p.json" "$work/fork") || fail "status $?"
[ "$out" = "4950 0" ] || fail "output '$out'"
python3 "$dir/../report/validate_profile.py" "$work/p.json" || fail "profile does not validate against the schema"
python3 - "$work/p.json" <<'PY' || fail "profile"
import json, sys
p = json.load(open(sys.argv[1]))
flow = {f["name"]: sum(n["count"] for n in f["kipf"]) for f in p["functions"]}
print("runs", p["runs"], "flow", flow)
assert p["runs"] == 2, p["runs"]
assert flow["work"] == 103 + 11, flow
assert flow["main"] == 2, flow
assert all(f["invalid_paths"] == 0 for f in p["functions"])
PY
echo PASS
