#!/bin/sh
# tests/rewrite/skipped_branch.sh KPATH SRCDIR: in every mode, the
# declarations kpath inserts at the top of a function whose body holds an
# #if branch the parse skipped carry KPATH_RT_UNUSED (rewrite/place.c
# entry_text; the forms' entry_decls via RW_UNUSED): gcc builds the other
# branch of tests/rewrite/skipped_branch.c, where they are unused, and must
# compile it with -std=c89 -pedantic -Wall -Wextra -Werror; the output is
# the native build's.  Fails before the forms had it (kiter: kp_kc, kp_kt;
# overlap: kp_in, kp_iro, kp_iol, kp_xo, kp_xl, kp_ol).
set -u
KPATH=$1
SRC=$(cd "$2" && pwd)/tests/rewrite/skipped_branch.c
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
command -v gcc >/dev/null || { echo "FAIL: gcc not found"; exit 1; }
cc=${CC:-cc}
LIBS=$("$KPATH" config --libs)
cd "$T"
gcc -w -o native "$SRC" && ./native >native.out || no "native build"
# ppp needs an interesting set: a default-mode run
"$KPATH" instrument "$SRC" -o d.c --quiet && $cc -w -o d d.c $LIBS && KPATH_OUT="$T/i.json" ./d >/dev/null || no "default run"
n=0
for m in "" "--mode kiter --kiter 2" "--mode overlap --degree 0" "--mode overlap --degree 2" "--mode ppp --interesting $T/i.json"; do
	rm -f o.c o
	"$KPATH" instrument "$SRC" -o o.c --quiet $m 2>err || { no "instrument '$m': $(cat err)"; continue; }
	grep -q "KPATH_RT_UNUSED" o.c || no "'$m': no KPATH_RT_UNUSED in the output"
	gcc -std=c89 -pedantic -Wall -Wextra -Werror -c o.c -o o.o 2>err || { no "'$m': gcc -Wall -Werror: $(grep error err | head -3)"; continue; }
	$cc -o o o.o $LIBS && KPATH_OUT="$T/p$n.json" ./o >o.out || { no "'$m': build or run"; continue; }
	cmp -s native.out o.out || no "'$m': output differs from the native build's"
	n=$((n + 1))
done
[ $n = 5 ] || no "$n of 5 modes compiled and ran"
[ $fail = 0 ] && echo "skipped_branch: 5 modes compile with gcc -Wall -Werror on the branch the parse skipped"
exit $fail
