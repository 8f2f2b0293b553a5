#!/bin/sh
# many_paths.sh KPATH WORK: functions with more Ball-Larus paths than a
# counter array takes (2^26) at k = 1: the program below has 28 independent
# decisions in a loop body (wide: 2^29 + 2 paths) and in an acyclic
# function (flat: 2^28).  They are counted in the k-SF at k = 1 (runtime/
# consumer.c); the hash table before took a library call for every path
# (zstd's ZSTD_compressBlock_opt2 ran 2.31x native at k = 1, 1.77x at
# k = 4).  Checks: the same output as the original; the k = 1 profile
# equals the first level of the k = 2 profile (the window forest, another
# implementation); kpath kipf --k 1 of a traced k = 2 run equals the k = 1
# profile; and KPATH_STATS reports that most items took the inline step
# or the trampolines' child tables (deterministic counts: 27,000 of 33,001
# items went to the library before, 33 now: one a path).
set -u
kpath=$1 work=$2
cc=${CC:-cc}
py=${PYTHON:-python3}
fail() { echo "FAIL: e2e.many_paths: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
# decisions INDENT: the 28 ifs, "if (v & 2^b) s += 2b + 1;"
decisions() {
	b=0
	while [ $b -lt 28 ]; do
		printf '%sif (v & 0x%xul)\n%s\ts += %d;\n' "$1" $((1 << b)) "$1" $((2 * b + 1))
		b=$((b + 1))
	done
}
{
	printf '#include <stdio.h>\n\nstatic unsigned long wide(unsigned long x, int n)\n{\n'
	printf '\tunsigned long s = 0;\n\tint i;\n\tfor (i = 0; i < n; i++) {\n'
	printf '\t\tunsigned long v = (x + (unsigned long)i) %% 16 * 0x9e3779b1ul;\n'
	decisions '		'
	printf '\t}\n\treturn s;\n}\n\nstatic unsigned long flat(unsigned long v)\n{\n\tunsigned long s = 0;\n'
	decisions '	'
	printf '\treturn s;\n}\n\nint main(void)\n{\n\tunsigned long t = 0;\n\tint r;\n'
	printf '\tfor (r = 0; r < 3000; r++) {\n\t\tt += wide((unsigned long)r * 7919ul, 8);\n'
	printf '\t\tt += flat((unsigned long)r %% 24 * 0x2545f491ul);\n\t}\n\tprintf("%%lu\\n", t);\n\treturn 0;\n}\n'
} >many_paths.c
$cc -O2 many_paths.c -o native || fail "native build"
./native >native.out || fail "native run"
"$kpath" instrument many_paths.c -o many_paths.kpath.c 2>instrument.log || fail "$(cat instrument.log)"
# shellcheck disable=SC2046
$cc -O2 many_paths.kpath.c -o mp $("$kpath" config --libs) || fail "build"
for k in 1 2; do
	KPATH_K=$k KPATH_STATS=1 KPATH_OUT="$work/k$k.json" ./mp >k$k.out 2>k$k.err || fail "k=$k: status $?"
	cmp -s native.out k$k.out || fail "k=$k: output differs"
done
KPATH_K=2 KPATH_OUT="$work/t2.json" KPATH_TRACE="$work/t2.trace" ./mp >t2.out || fail "traced run: status $?"
"$kpath" kipf --k 1 -o off1.json t2.trace || fail "kpath kipf --k 1"
cmp -s off1.json k1.json || fail "kpath kipf --k 1 of the trace differs from the k=1 profile"
$py - k1.json k2.json <<'PYEOF' || fail "the k=1 profile is not the first level of the k=2 profile"
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
def level1(p, strip):
    out = {}
    for f in p["functions"]:
        roots = sorted((n["id"], n["count"]) for n in f["kipf"])
        if not strip:
            assert all(not n["children"] for n in f["kipf"]), f["name"]
        out[f["name"]] = (roots, f["emitted"])
    return out
a, b = level1(one, False), level1(two, True)
for name in ("wide", "flat"):
    if not a[name][0]:
        sys.exit("%s: no paths at k = 1" % name)
if a != b:
    sys.exit("k=1 %s\nk=2 %s" % (a, b))
PYEOF
$py - k1.err <<'PYEOF' || fail "most items went through the library at k = 1"
import re, sys
m = re.search(r"(\d+) of (\d+) items through the library", open(sys.argv[1]).read())
if not m:
    sys.exit("no KPATH_STATS line")
lib, items = int(m.group(1)), int(m.group(2))
print("e2e.many_paths: k = 1: %d of %d items through the library" % (lib, items))
if items < 30000 or lib * 10 > items:
    sys.exit("%d of %d" % (lib, items))
PYEOF
# One node per path at k = 1 (a root of the k-SF, the cursor back at the
# marker after it): a chain of one node per item of an activation held
# 168 nodes for 57 paths here, and PCRE2 10.42's pcre2_jit_test, whose
# interpreter (match, pcre2_match.c, 4e10 paths) runs long activations,
# grew to 24 GB before the OOM killer ended it (native: 4 MB).
$py - k1.err k1.json <<'PYEOF' || fail "the k-SF at k = 1 holds more nodes than paths"
import json, re, sys
m = re.search(r"forest ksf [^,]*, (\d+) nodes", open(sys.argv[1]).read())
prof = json.load(open(sys.argv[2]))
paths = sum(len(f["kipf"]) for f in prof["functions"] if int(f["num_paths"]) > 1 << 26)
if not m or int(m.group(1)) != paths:
    sys.exit("%s nodes for %d paths" % (m and m.group(1), paths))
PYEOF
echo "e2e.many_paths: OK"
