#!/bin/sh
# e2e.big_ids: a function of 3 x 2^62 paths, whose Ball-Larus IDs above
# INT64_MAX the profile writes as strings of digits (docs: u64), checked by
# kpcheck.py like any other (its structure against the trace, and the
# online profile against the kipf replay of the trace): kpcheck compared
# and sorted those strings with the integer IDs and stopped with a
# TypeError (tcc's tcctest.c, math_cmp_test, traced in hunt E).
# usage: big_ids.sh KPATH WORKDIR
set -u
kpath=$1 work=$2
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
PYTHON=${PYTHON:-python3}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
{
	echo '#include <stdio.h>'
	echo '#include <stdint.h>'
	echo 'static int f(uint64_t x)'
	echo '{'
	echo '	int s = 0;'
	echo '	switch (x >> 62) {'
	echo '	case 0:'
	echo '		s = 1;'
	echo '		break;'
	echo '	case 1:'
	echo '		s = 2;'
	echo '		break;'
	echo '	default:'
	echo '		s = 3;'
	echo '	}'
	i=0
	while [ $i -lt 62 ]; do
		echo "	if (x & (1ULL << $i))"
		echo "		s += $((i % 7 + 1));"
		i=$((i + 1))
	done
	echo '	return s;'
	echo '}'
	echo 'int main(void)'
	echo '{'
	echo '	uint64_t v[] = { 0, 1, 0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL, UINT64_MAX, 0xc000000000000001ULL };'
	echo '	int t = 0;'
	echo '	for (unsigned i = 0; i < sizeof v / sizeof *v; i++)'
	echo '		t += f(v[i]) * (int)(i + 1);'
	printf '%s\n' '	printf("%d\n", t);'
	echo '	return 0;'
	echo '}'
} > big.c
"$kpath" instrument big.c -o big.kpath.c 2>log || fail "kpath instrument: $(cat log)"
# shellcheck disable=SC2046
$cc -O1 big.kpath.c -o big $("$kpath" config --libs) || fail build
KPATH_K=4 KPATH_OUT="$work/big.json" KPATH_TRACE="$work/big.kpt" ./big >out.txt || fail "status $?"
grep -q '"num_paths":"13835058055282163712"' big.json || fail "want num_paths 3 x 2^62 as a string: $(grep -o '"num_paths":[^,]*' big.json)"
grep -q '"id":"1[0-9]\{19\}"' big.json || fail "want a path ID above INT64_MAX"
"$PYTHON" "$here/kpcheck.py" profile big.json --k 4 --src-root "$work" --trace big.kpt --functions 2 || fail "kpcheck profile"
"$kpath" kipf --k 4 -o off.json big.kpt || fail kipf
"$PYTHON" "$here/kpcheck.py" same big.json off.json || fail "kpcheck same"
echo "big_ids: ok"
