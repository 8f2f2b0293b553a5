#!/bin/sh
# The checker must catch a wrong placement: instrument a corpus program with
# --check, change the first increment "kp_r += N" into "kp_r += N+1", and
# require the checking runtime to report mismatches.
# usage: selftest.sh KPATH CHECKLIB CORPUS WORK
set -u
kpath=$1 checklib=$2 corpus=$3 work=$4/selftest
cc=${CC:-cc}
mkdir -p "$work" && cd "$corpus" || exit 1
"$kpath" instrument --check alternate.c -o "$work/good.c" 2>/dev/null || { echo "FAIL: instrument"; exit 1; }
grep -q 'kp_r += ' "$work/good.c" || { echo "FAIL: no increment to perturb"; exit 1; }
awk '!done && /kp_r \+= [0-9]+/ { match($0, /kp_r \+= [0-9]+/); n = substr($0, RSTART + 8, RLENGTH - 8);
     $0 = substr($0, 1, RSTART - 1) "kp_r += " (n + 1) substr($0, RSTART + RLENGTH); done = 1 } { print }' \
	"$work/good.c" >"$work/bad.c"
cmp -s "$work/good.c" "$work/bad.c" && { echo "FAIL: perturbation did not apply"; exit 1; }
$cc -std=gnu11 -O1 -w "$work/bad.c" "$checklib" -o "$work/bad" || { echo "FAIL: build"; exit 1; }
rm -f "$work/summary"
KPATH_CHECK_OUT="$work/summary" "$work/bad" >/dev/null 2>"$work/err"
cat "$work/summary"
grep -q " 0 mismatches" "$work/summary" && { echo "FAIL: a wrong increment went unnoticed"; exit 1; }
grep -q "mismatches" "$work/summary" || { echo "FAIL: no summary"; exit 1; }
echo "PASS: the checker reports the wrong increment"
