#!/bin/sh
# run_c89.sh KPATH SRC WORK: the strict C90 program of the flag matrix,
# instrumented and built with -std=c89 -pedantic -Werror and every warning
# of the matrix, prints what the native build prints and writes a profile
# listing all of its functions.
set -u
kpath=$1 src=$2 work=$3
cc=${CC:-cc}
flags="-std=c89 -pedantic -Werror -Wall -Wextra -Wc++-compat -Wunused-macros -Wdeclaration-after-statement
 -Wlong-long -Wshadow -Wconversion -Wsign-conversion -Wmissing-prototypes -Wstrict-prototypes
 -Wredundant-decls -Wcast-qual -Wundef -O2"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: flags.c89_run: $*"; status=1; }
$cc $flags "$src" -o native || { echo "FAIL: the original does not build"; exit 1; }
./native > native.out || fail "native run"
"$kpath" instrument "$src" -o c89.kpath.c || { echo "FAIL: kpath instrument"; exit 1; }
$cc $flags c89.kpath.c -o inst $("$kpath" config --libs) || { echo "FAIL: the instrumented file does not build"; exit 1; }
KPATH_OUT=c89.json ./inst > inst.out || fail "instrumented run"
cmp -s native.out inst.out || fail "output differs"
n=$(grep -c '"name":' c89.json)
[ "$n" -ge 11 ] || fail "profile lists $n functions, expected 11 or more"
[ $status = 0 ] && echo "flags.c89_run: OK"
exit $status
