#!/bin/sh
# instrumented_output.sh KPATH CORPUS_DIR WORK_DIR NAME
#
# Checks the source text kpath instrument writes for corpus/NAME.c (a program
# that needs no compile flags): #line directives naming the original file,
# "+=" on a path register, only insertions relative to the original (see
# srccheck.py), one kpath_rt_begin per instrumented function, the same output
# when run twice, and that it compiles as strict C99 without any -I
# ("cc -std=c99 -pedantic-errors"; also with clang-14 when installed).
# Exit status 0 = pass, 1 = fail, 2 = usage.
set -u

if [ $# -ne 4 ]; then
	echo "usage: $0 KPATH CORPUS_DIR WORK_DIR NAME" >&2
	exit 2
fi
KPATH=$1
CORPUS=$2
WORK=$3
NAME=$4
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)

TEST=instrumented_output.$NAME
# shellcheck source=tests/e2e/lib.sh
. "$HERE/lib.sh"
check_inputs
mkdir -p "$WORK" || fatal "cannot create $WORK"
W=$(cd "$WORK" && pwd)/$NAME
rm -rf "$W"
mkdir -p "$W" || fatal "cannot create $W"
cd "$CORPUS" || fatal "cannot cd to $CORPUS"

echo "\$ kpath instrument $NAME.c -o $W/$NAME.kpath.c"
"$KPATH" instrument "$NAME.c" -o "$W/$NAME.kpath.c" >"$W/instrument.log" 2>&1
rc=$?
show "$W/instrument.log"
[ $rc -eq 0 ] || fatal "kpath instrument exited with $rc"
[ -s "$W/$NAME.kpath.c" ] || fatal "no output file"

NFUNCS=$(sed -n -E 's/.*[^0-9]([0-9]+) functions? instrumented.*/\1/p' "$W/instrument.log" | head -n 1)
[ -n "$NFUNCS" ] || fail "no 'N functions instrumented' summary line"

"$PYTHON" "$HERE/srccheck.py" "$NAME.c" "$W/$NAME.kpath.c" $NFUNCS ||
	fail "the instrumented source is not as expected (see srccheck output above)"

# Deterministic: instrumenting again to the same path gives the same bytes.
cp "$W/$NAME.kpath.c" "$W/first.kpath.c"
"$KPATH" instrument "$NAME.c" -o "$W/$NAME.kpath.c" >/dev/null 2>&1
cmp -s "$W/$NAME.kpath.c" "$W/first.kpath.c" ||
	fail "instrumenting twice gives different output: diff $W/first.kpath.c $W/$NAME.kpath.c"

# Strict C99, no -I: the preamble must be self-contained.
cd "$W" || fatal "cannot cd to $W"
for cc in "$CC" clang-14; do
	command -v "$cc" >/dev/null 2>&1 || continue
	if ! "$cc" -std=c99 -pedantic-errors -c "$NAME.kpath.c" -o "$NAME.$cc.o" >"cc.$cc.log" 2>&1; then
		show "cc.$cc.log"
		fail "does not compile: $cc -std=c99 -pedantic-errors -c $W/$NAME.kpath.c"
	elif [ -s "cc.$cc.log" ]; then
		show "cc.$cc.log"
		fail "warnings from: $cc -std=c99 -pedantic-errors -c $W/$NAME.kpath.c"
	fi
	# Not more warnings than the original with -Wall -Wextra.
	"$cc" -std=c99 -Wall -Wextra -pedantic -c "$CORPUS/$NAME.c" -o /dev/null >"orig.$cc.log" 2>&1
	"$cc" -std=c99 -Wall -Wextra -pedantic -c "$NAME.kpath.c" -o /dev/null >"wall.$cc.log" 2>&1
	if [ "$(grep -c 'warning:' "wall.$cc.log")" -gt "$(grep -c 'warning:' "orig.$cc.log")" ]; then
		show "wall.$cc.log"
		fail "$cc -Wall -Wextra warns about the instrumented file (not about the original)"
	fi
done

if [ $nfail -ne 0 ]; then
	echo "FAILED: instrumented_output.$NAME ($nfail failure(s)); files in $W"
	exit 1
fi
echo "PASSED: instrumented_output.$NAME"
exit 0
