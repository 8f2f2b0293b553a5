#!/bin/sh
# Trace agreement for one corpus program (DESIGN.md, "Tests that pin the
# design down"): instrument with --check, link against the checking runtime
# (checkrt.c), run, and require the original's exact output and exit status
# and zero mismatches between the IDs the instrumented code computes and the
# IDs the Ball-Larus numbering assigns to the edges that actually ran.
# usage: run_check.sh KPATH CHECKLIB CORPUS WORK NAME
set -u
kpath=$1 checklib=$2 corpus=$3 work=$4/$5 name=$5
cc=${CC:-cc}
mkdir -p "$work" || exit 1
flags=$(sed -n "s/^$name:[ ]*//p" "$corpus/FLAGS" 2>/dev/null)
cd "$corpus" || exit 1
fail() { echo "FAIL: check.$name: $*"; exit 1; }
# shellcheck disable=SC2086
$cc -std=gnu11 -O1 -w $name.c $flags -o "$work/native" || fail "native build"
"$work/native" >"$work/native.out" 2>/dev/null
native_status=$?
# shellcheck disable=SC2086
"$kpath" instrument --check $name.c -o "$work/$name.chk.c" -- $flags 2>"$work/instrument.log" ||
	fail "instrument: $(cat "$work/instrument.log")"
grep -q " 0 skipped" "$work/instrument.log" || fail "functions skipped: $(cat "$work/instrument.log")"
# shellcheck disable=SC2086
$cc -std=gnu11 -O1 "$work/$name.chk.c" $flags "$checklib" -pthread -o "$work/checked" ||
	fail "build of the --check output"
rm -f "$work/summary"
KPATH_CHECK_OUT="$work/summary" "$work/checked" >"$work/checked.out" 2>"$work/checked.err"
status=$?
[ "$status" = "$native_status" ] || fail "exit status $status, original $native_status"
cmp -s "$work/native.out" "$work/checked.out" || fail "output differs from the original"
cat "$work/summary"
grep -q " 0 mismatches" "$work/summary" || fail "$(cat "$work/checked.err")"
grep -q " 0 paths" "$work/summary" && fail "no path was checked"
echo "PASS: check.$name"
