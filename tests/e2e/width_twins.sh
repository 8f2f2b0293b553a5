#!/bin/sh
# e2e.width_twins: one source compiled twice with another macro (as PCRE2
# builds pcre2_match.c for each PCRE2_CODE_UNIT_WIDTH), so that a profile
# holds two functions of the same file, line and name with other checksums
# (the profile format allows it: report/merge.c), checked by kpcheck.py
# like any other (its structure against the trace, and the online profile
# against the kipf replay of the trace): kpcheck keyed functions by file,
# line and name and failed every PCRE2 test process with "function listed
# twice" (hunt G).  half() does not depend on the macro: the same name,
# file and checksum twice, which the reader refuses in a file ("function
# listed twice": the next run wrote twin.PID.json instead); the writers
# add such twins into one (kp_profile_write_atomic), so the profile lists
# half once and the second run accumulates into it.
# usage: width_twins.sh KPATH WORKDIR
set -u
kpath=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
PYTHON=${PYTHON:-python3}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
cat > twin.c <<'CEOF'
#define G2(a, b) a##_##b
#define G(a, b) G2(a, b)
static int step(int x)
{
#if W == 8
	return x % 2 ? x + 1 : x / 2;
#else
	if (x > 3)
		return x - 3;
	return x % 3 ? x * 2 : x;
#endif
}
static int half(int x)
{
	return x % 2 ? x : x / 2;
}
int G(run, W)(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += step(i) + half(i);
	return s;
}
CEOF
printf '#include <stdio.h>\nint run_8(int), run_16(int);\nint main(void)\n{\n\tprintf("%%d %%d\\n", run_8(9), run_16(9));\n\treturn 0;\n}\n' > main.c
for w in 8 16; do
	"$kpath" instrument twin.c -o twin$w.kpath.c -- -DW=$w 2>log || fail "kpath instrument: $(cat log)"
	$cc -O1 -DW=$w -c twin$w.kpath.c -o twin$w.o || fail "build $w"
done
"$kpath" instrument main.c -o main.kpath.c 2>log || fail "kpath instrument: $(cat log)"
# shellcheck disable=SC2046
$cc -O1 main.kpath.c twin8.o twin16.o -o twin $("$kpath" config --libs) || fail build
KPATH_K=4 KPATH_OUT="$work/twin.json" KPATH_TRACE="$work/twin.kpt" ./twin >out.txt || fail "status $?"
[ "$(grep -o '"name":"step"' twin.json | wc -l)" -eq 2 ] || fail "want step twice in the profile"
"$PYTHON" "$here/kpcheck.py" profile twin.json --k 4 --src-root "$work" --trace twin.kpt --functions 6 || fail "kpcheck profile"
"$kpath" kipf --k 4 -o off.json twin.kpt || fail kipf
"$PYTHON" "$here/kpcheck.py" same twin.json off.json || fail "kpcheck same"
[ "$(grep -o '"name":"half"' twin.json | wc -l)" -eq 1 ] || fail "want half once in the profile"
grep -q '"name":"half"' off.json || fail "half not in the replay"
KPATH_K=4 KPATH_OUT="$work/twin.json" ./twin >out2.txt 2>err2.txt || fail "second run: status $?"
[ ! -s err2.txt ] || fail "second run: $(cat err2.txt)"
ls twin.*.json >/dev/null 2>&1 && fail "the second run wrote another file: $(ls twin.*.json)"
grep -q '"runs":2' twin.json || fail "the second run did not accumulate into twin.json"
echo "width_twins: ok"
