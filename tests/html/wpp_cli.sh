#!/bin/sh
# wpp_cli.sh KPATH ROOT WORK: `kpath html --wpp` refuses bad WPP files.
#
# A truncated WPP, a file that is no WPP (the profile itself), a missing
# file, the WPP of another program (no function in common) and of another
# build of the same program (same functions, other checksums): each exits
# 1 with one error line naming the WPP file, and leaves the output
# directory as it was (an earlier site stays byte for byte; a new
# directory is not created).  --wpp-min-len without --wpp, and bad lengths,
# exit 2.  Exit 0 pass, 1 fail.
set -u
KPATH=$1 ROOT=$2 WORK=$3
CC=${CC:-cc}
TEST=html_wpp_cli
nfail=0 nok=0
fail() { echo "FAIL: $TEST: $*"; nfail=$((nfail + 1)); }
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
W=$(cd "$WORK" && pwd)
LIBS=$("$KPATH" config --libs)
# build NAME SRC: instrumented binary W/NAME of SRC (relative to ROOT)
build() {
	(cd "$ROOT" && "$KPATH" instrument --quiet "$2" -o "$W/$1.kpath.c") || { echo "FAIL: $TEST: instrument $2"; exit 1; }
	# shellcheck disable=SC2086
	$CC -std=c11 -O0 "$W/$1.kpath.c" -o "$W/$1" $LIBS || { echo "FAIL: $TEST: cc $2"; exit 1; }
}
cd "$W" || exit 1
build alt corpus/alternate.c
build other corpus/recursion.c
KPATH_MODE=wpp KPATH_WPP=good.wpp KPATH_OUT=p.json ./alt >/dev/null || fail "run"
KPATH_MODE=wpp KPATH_WPP=other.wpp KPATH_OUT=other.json ./other >/dev/null || fail "run other"
# another build of alternate.c: figure1 gets one more branch on the same
# lines (same name, file and line, another checksum)
mkdir -p sub/corpus
sed 's/^\t\ti++;                        \/\* node 5: loop tail \*\/$/\t\ti += n > 0 ? 1 : 2;/' \
	"$ROOT/corpus/alternate.c" >sub/corpus/alternate.c
cmp -s sub/corpus/alternate.c "$ROOT/corpus/alternate.c" && fail "sub/corpus/alternate.c is not another build"
(cd sub && "$KPATH" instrument --quiet corpus/alternate.c -o "$W/alt2.kpath.c") || fail "instrument the other build"
# shellcheck disable=SC2086
$CC -std=c11 -O0 "$W/alt2.kpath.c" -o alt2 $LIBS || fail "cc the other build"
KPATH_MODE=wpp KPATH_WPP=build2.wpp KPATH_OUT=b2.json ./alt2 >/dev/null || fail "run the other build"
head -c 100 good.wpp >trunc.wpp

"$KPATH" html p.json -o site --source-dir "$ROOT" --wpp good.wpp >/dev/null 2>&1 || fail "the good WPP is refused"
[ -f site/wpp.html ] || fail "no wpp.html"
find site -type f -exec cksum {} + | sort >before.txt

# expect_bad FILE WHAT [new]: refused, naming FILE; site unchanged (and,
# with new, a new directory is not created)
expect_bad() {
	for out in site ${3:-}; do
		"$KPATH" html p.json -o $out --source-dir "$ROOT" --wpp "$1" >out.txt 2>err.txt
		rc=$?
		[ $rc -eq 1 ] || fail "$2: exit $rc, expected 1"
		grep -qF "$1" err.txt || fail "$2: the message does not name $1: $(cat err.txt)"
		[ "$(wc -l <err.txt)" -eq 1 ] || fail "$2: expected one line of error, got: $(cat err.txt)"
	done
	[ -e new ] && fail "$2: the new output directory was created"
	find site -type f -exec cksum {} + | sort | cmp -s - before.txt || fail "$2: the earlier site changed"
	ls -a | grep -q '^\.site\|^site\.' && fail "$2: a temporary directory was left"
	nok=$((nok + 1))
	echo "ok: $2: $(cat err.txt)"
}
expect_bad trunc.wpp "truncated WPP" new
expect_bad p.json "a profile given as the WPP"
expect_bad missing.wpp "missing WPP"
expect_bad other.wpp "the WPP of another program"
if cmp -s build2.wpp good.wpp || [ ! -s build2.wpp ]; then
	fail "could not make the WPP of another build"
else
	expect_bad build2.wpp "the WPP of another build" new
	grep -q "checksum" err.txt || fail "another build: the message does not say checksum: $(cat err.txt)"
fi

# usage errors
for args in "--wpp-min-len 2" "--wpp good.wpp --wpp-max-len 0" "--wpp good.wpp --wpp-min-len x"; do
	# shellcheck disable=SC2086
	"$KPATH" html p.json -o new $args >/dev/null 2>err.txt
	rc=$?
	[ $rc -eq 2 ] || fail "'$args': exit $rc, expected 2"
	[ -e new ] && fail "'$args': the output directory was created"
	nok=$((nok + 1))
done
"$KPATH" html p.json -o new --wpp good.wpp --wpp-min-len 5 --wpp-max-len 3 >/dev/null 2>err.txt
[ $? -eq 1 ] && grep -q "more than --wpp-max-len" err.txt || fail "min-len > max-len: $(cat err.txt)"
[ -e new ] && fail "min-len > max-len: the output directory was created"

[ $nok -ge 8 ] || fail "only $nok cases ran"
[ $nfail -eq 0 ] && echo "$TEST: all passed" && exit 0
echo "$TEST: $nfail failure(s)"
exit 1
