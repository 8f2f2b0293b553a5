#!/bin/sh
# The thread-local pointers of the instrumented file (kpath_rt_tally's
# counters, kpath_rt_begin_t's templates) across thread exit and fork
# (tests/e2e/tally/lifetime.c): same output as the original, and the exact
# counts of parity() in the parent's and the child's profiles, and of the
# items of worker() and late() in the parent's, at k = 1 and k = 4.  Before the runtime set a thread's
# pointers back to null at its exit, the counts of a later key destructor
# went into the freed array (lost; a use after free under ASan).
# usage: tally_lifetime.sh KPATH SOURCE_DIR WORK
set -u
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
py=${PYTHON:-python3}
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$work" && rm -f "$work"/*.json "$work"/*.lock || exit 1
cp "$dir/lifetime.c" "$work/" || exit 1
cd "$work" || exit 1
"$kpath" instrument lifetime.c -o lifetime.kpath.c 2>instrument.log || fail "$(cat instrument.log)"
grep -q "kpath_rt_tally(&kp_fn_parity, &kp_cnt_parity, " lifetime.kpath.c || fail "parity: no kpath_rt_tally"
$cc -std=c11 -O2 -pthread lifetime.c -o native || fail "native build"
# shellcheck disable=SC2046
$cc -std=c11 -O2 -pthread lifetime.kpath.c -o instrumented $("$kpath" config --libs) || fail "build"
want=$(./native) || fail "native run: status $?"
for k in 1 4; do
	rm -f k$k.*.json
	got=$(KPATH_K=$k KPATH_OUT="$work/k$k.%p.json" ./instrumented) || fail "k=$k: status $?"
	[ "$got" = "$want" ] || fail "k=$k: output '$got', native '$want'"
	$py - k$k.*.json <<'PYEOF' || fail "k=$k: counts"
import json, sys
seen = []
for path in sys.argv[1:]:
    fs = [f for f in json.load(open(path))["functions"] if f["name"] == "parity"]
    if len(fs) != 1:
        sys.exit("%s: %d entries for parity" % (path, len(fs)))
    counts = sorted(n["count"] for n in fs[0]["kipf"])
    seen.append(counts)
    print("%s: parity paths %s" % (path, counts))
if sorted(seen) != [[3, 3], [2205, 2205]]:
    sys.exit("want the child's [3, 3] and the parent's [2205, 2205], got %s" % seen)
# a function with a cursor (kpath_rt_begin_t's template pointer):
# odd_below in four threads (1,001 items each), then in their key
# destructors (101 items each)
for path in sys.argv[1:]:
    fs = {f["name"]: f for f in json.load(open(path))["functions"]}
    if fs["parity"]["emitted"] != 4410:
        continue  # the child's
    for name, want in (("odd_below", 4 * (1001 + 101)),):
        got = fs[name]["emitted"]
        print("%s: %s emitted %d" % (path, name, got))
        if got != want:
            sys.exit("%s: %s emitted %d, want %d" % (path, name, got, want))
PYEOF
done
echo PASS
