#!/bin/sh
# bad_input.sh KPATH CORPUS_DIR WORK
#
# Bad WPP files: truncated (every cut of a real one that loses data), foreign
# (a trace, text, an empty file), a flipped byte that breaks a count, a
# missing file: kpath wpp expand, stats and hot exit 1 with one message
# naming the file and print nothing on stdout.  And the runtime: a KPATH_WPP
# that cannot be written leaves the program's exit status alone, says "WPP
# NOT written: PATH" and leaves no file behind.  Exit 0 pass, 1 fail.
set -u
KPATH=$1 CORPUS=$2 WORK=$3
CC=${CC:-cc}
TEST=wpp.bad_input
nfail=0
fail() { echo "FAIL: $TEST: $*"; nfail=$((nfail + 1)); }
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
W=$(cd "$WORK" && pwd)
cd "$CORPUS" || exit 1
"$KPATH" instrument --quiet alternate.c -o "$W/alt.kpath.c" || { echo "FAIL: $TEST: instrument"; exit 1; }
# shellcheck disable=SC2046
$CC -std=c11 -O2 "$W/alt.kpath.c" -o "$W/alt" $("$KPATH" config --libs) || { echo "FAIL: $TEST: cc"; exit 1; }
cd "$W" || exit 1
KPATH_MODE=wpp KPATH_WPP=good.wpp KPATH_TRACE=good.trace KPATH_OUT=p.json ./alt >/dev/null 2>&1
[ -s good.wpp ] || { echo "FAIL: $TEST: no WPP written"; exit 1; }
"$KPATH" wpp expand good.wpp >good.txt || fail "the good file does not expand"

# expect_bad FILE WHAT: every command refuses FILE, naming it
expect_bad() {
	for cmd in "expand $1" "stats $1" "hot $1 --min-len 1 --max-len 2 --min-cost 1"; do
		# shellcheck disable=SC2086
		"$KPATH" wpp $cmd >out.txt 2>err.txt
		rc=$?
		[ $rc -eq 1 ] || fail "$2: kpath wpp $cmd exited $rc, expected 1"
		[ -s out.txt ] && fail "$2: kpath wpp $cmd printed something on stdout"
		grep -qF "$1" err.txt || fail "$2: the message does not name the file: $(cat err.txt)"
		[ "$(wc -l <err.txt)" -eq 1 ] || fail "$2: expected one line of error, got: $(cat err.txt)"
	done
	echo "ok: $2: $(cat err.txt)"
}

size=$(wc -c <good.wpp)
for cut in 1 8 9 10 $((size / 2)) $((size - 2)) $((size - 1)); do
	head -c "$cut" good.wpp >"cut$cut.wpp"
	expect_bad "cut$cut.wpp" "truncated to $cut of $size bytes"
done
cp good.trace foreign-trace.wpp
expect_bad foreign-trace.wpp "a KPATH_TRACE file"
echo "thread 0" >foreign-text.wpp
expect_bad foreign-text.wpp "a text file"
: >empty.wpp
expect_bad empty.wpp "an empty file"
expect_bad missing.wpp "a missing file"
# the length of the first grammar's terminal table, made huge: the byte
# after "G", its chunk length, thread, length and dropped (all < 128 here)
python3 - <<'PY' || fail "could not corrupt the file"
b = bytearray(open("good.wpp", "rb").read())
i = b.index(b"G", 9)
while b[i + 1] & 0x80:  # skip the chunk length varint
    i += 1
j = i + 2
for _ in range(3):       # thread, length, dropped
    while b[j] & 0x80:
        j += 1
    j += 1
b[j] = 0x7f              # nterms
open("corrupt.wpp", "wb").write(bytes(b))
PY
expect_bad corrupt.wpp "a corrupt terminal count"
"$KPATH" trace dump good.wpp >out.txt 2>err.txt && fail "kpath trace dump accepted a WPP file"
grep -qF good.wpp err.txt || fail "kpath trace dump: the message does not name the file"

# the runtime: an unwritable KPATH_WPP
KPATH_MODE=wpp KPATH_WPP=no/such/dir/x.wpp KPATH_OUT=p2.json ./alt >/dev/null 2>rt.err
rc=$?
[ $rc -eq 0 ] || fail "the program exited $rc with an unwritable KPATH_WPP"
grep -q "WPP NOT written: .*no/such/dir/x.wpp" rt.err || fail "no 'WPP NOT written' message: $(cat rt.err)"
ls no 2>/dev/null && fail "something was created for the unwritable KPATH_WPP"
[ -s p2.json ] || fail "the profile was not written in WPP mode"

[ $nfail -eq 0 ] || { echo "FAILED: $TEST ($nfail failure(s))"; exit 1; }
echo "ok: $TEST"
