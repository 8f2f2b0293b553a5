#!/bin/sh
# e2e.sh KPATH DIR WORK NAME [ARGS...]
#
# Whole program paths end to end, for DIR/NAME.c (a corpus program, flags
# from DIR/FLAGS when it has a line for NAME, or a bench program run with
# ARGS): instrument it, build it, and run it
#   A  with KPATH_TRACE                       (the raw trace)
#   B  with KPATH_MODE=wpp                    (the WPP), on the same input
#   C  with both at once
# then check that `kpath wpp expand` gives back exactly the stream
# `kpath trace dump` decodes: byte for byte within run C, and between runs
# A and B (for a program with several threads, whose numbers follow the
# order the threads first ran instrumented code, thread by thread after
# sorting: a run may number them differently); and that stats and hot
# --json read the file.  Exit 0 pass, 1 fail.
set -u
KPATH=$1 DIR=$2 WORK=$3 NAME=$4
shift 4
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
TEST=wpp.e2e.$NAME
fail() { echo "FAIL: $TEST: $*"; exit 1; }
show() { [ -s "$1" ] && { echo "--- $1:"; head -n 20 "$1" | sed 's/^/    /'; }; }

DIR=$(cd "$DIR" && pwd) || fail "no directory $2"
W=$WORK/$NAME
rm -rf "$W" && mkdir -p "$W" || fail "cannot create $W"
W=$(cd "$W" && pwd)
FLAGS=
[ -f "$DIR/FLAGS" ] && FLAGS=$(sed -n "s/^$NAME:[[:space:]]*//p" "$DIR/FLAGS")
cd "$DIR" || fail "cannot cd to $DIR"
# shellcheck disable=SC2086
"$KPATH" instrument --quiet "$NAME.c" -o "$W/$NAME.kpath.c" -- $FLAGS >"$W/instrument.log" 2>&1 ||
	{ show "$W/instrument.log"; fail "kpath instrument failed"; }
LIBS=$("$KPATH" config --libs) || fail "kpath config --libs failed"
# shellcheck disable=SC2086
$CC -std=c11 -O2 $FLAGS "$W/$NAME.kpath.c" -o "$W/prog" $LIBS -lm >"$W/cc.log" 2>&1 ||
	{ show "$W/cc.log"; fail "the instrumented program does not build"; }

cd "$W" || fail "cannot cd to $W"
env -u KPATH_MODE KPATH_TRACE=a.trace KPATH_OUT=a.json ./prog "$@" </dev/null >a.out 2>a.err
env -u KPATH_TRACE KPATH_MODE=wpp KPATH_WPP=b.wpp KPATH_OUT=b.json ./prog "$@" </dev/null >b.out 2>b.err
env KPATH_TRACE=c.trace KPATH_MODE=wpp KPATH_WPP=c.wpp KPATH_OUT=c.json ./prog "$@" </dev/null >c.out 2>c.err
cmp -s a.out b.out || fail "the program's output differs between trace and WPP mode"
for f in a.err b.err c.err; do
	grep -q 'kpath:' "$f" && { show "$f"; fail "the runtime complained ($f)"; }
done
[ -f b.wpp ] && [ -f c.wpp ] || fail "no WPP file written"
ls ./*.tmp.* >/dev/null 2>&1 && fail "a temporary file was left behind"

"$KPATH" trace dump a.trace >a.txt 2>a.dump.err || { show a.dump.err; fail "kpath trace dump failed"; }
"$KPATH" wpp expand b.wpp >b.txt 2>b.expand.err || { show b.expand.err; fail "kpath wpp expand failed"; }
"$KPATH" trace dump c.trace >c.trace.txt 2>&1 || fail "kpath trace dump (run C) failed"
"$KPATH" wpp expand c.wpp >c.wpp.txt 2>&1 || fail "kpath wpp expand (run C) failed"
paths=$(grep -vc '^thread ' a.txt)
threads=$(grep -c '^thread ' a.txt)
[ "$paths" -gt 0 ] || fail "the trace holds no path: nothing was compared"
cmp c.trace.txt c.wpp.txt || fail "run C: wpp expand differs from the decoded trace of the same run"
if ! cmp -s a.txt b.txt; then
	[ "$threads" -gt 1 ] || { diff a.txt b.txt | head -n 10; fail "wpp expand differs from the decoded trace"; }
	# one block per thread, sorted, without the thread numbers
	canon() { awk '/^thread /{n++; next} {print n "\t" $0}' "$1" |
		sort -s -t "$(printf '\t')" -k1,1n | awk -F '\t' '
		$1 != last { if (NR > 1) print "--"; last = $1 } { print $2 }' >"$2"; }
	canon a.txt a.canon
	canon b.txt b.canon
	# the blocks themselves in sorted order
	"$PYTHON" -c '
import sys
def blocks(p):
    return sorted(open(p).read().split("--\n"))
sys.exit(0 if blocks(sys.argv[1]) == blocks(sys.argv[2]) else 1)' a.canon b.canon ||
		fail "wpp expand differs from the decoded trace, thread by thread"
fi
"$KPATH" wpp stats b.wpp >stats.txt 2>&1 || { show stats.txt; fail "kpath wpp stats failed"; }
"$KPATH" wpp hot b.wpp --min-len 2 --max-len 6 --min-cost 50 --json >hot.json 2>hot.err ||
	{ show hot.err; fail "kpath wpp hot failed"; }
"$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert isinstance(d["threads"], list)' hot.json ||
	fail "kpath wpp hot --json is not the documented JSON"
rm -f ./*.txt ./*.canon ./*.trace # large; kept only when the test fails
echo "ok: $TEST: $paths paths in $threads thread(s); $(tail -n 3 stats.txt | head -n 1 | tr -s ' ')"
