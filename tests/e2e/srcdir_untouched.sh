#!/bin/sh
# srcdir_untouched.sh KPATH WORK: kpath instrument writes nothing beside the
# source (a read-only or globbed source tree stays as it is): the copy that
# `clang -E` checks macro expansions on lives in a private directory under
# $TMPDIR, and #include "..." still finds the source's own header first,
# before a same-named header in the working directory or in a user -iquote.
# (As root a read-only directory is still writable, so strace watches for
# any file created under the source directory.)  The output goes to out/:
# compiled there with -iquote src, it reads the same header.
set -u
kpath=$1 work=$2
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work/src" "$work/other" "$work/tmp" "$work/out" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.srcdir_untouched: $*"; status=1; }
# The source's header: CHECK has control flow, so its expansion is written out.
printf '#define CHECK(x) do { if (!(x)) return -1; } while (0)\n#define SCALE 2\n' > src/h.h
# Same-named decoys: they would change the output if they were read.
printf '#define CHECK(x) ((void)0)\n#define SCALE 3\n' > h.h
cp h.h other/h.h
cat > src/m.c <<'C'
#include <stdio.h>
#include "h.h"
static int f(int a) { CHECK(a > 0); return a * SCALE; }
int main(void) { printf("%d %d\n", f(1), f(-1)); return 0; }
C
chmod 555 src
command -v strace >/dev/null 2>&1 || { echo "FAIL: e2e.srcdir_untouched: strace not found"; exit 1; }
# LeakSanitizer cannot run under ptrace: no leak check for this one run.
TMPDIR="$work/tmp" ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=openat,creat,mkdir,mkdirat,rename,renameat,renameat2 -o trace.txt \
	"$kpath" instrument src/m.c -o out/m.kpath.c -- -iquote other 2>instrument.log ||
	{ cat instrument.log; fail "kpath instrument failed"; }
grep -q "1 skipped\|skipped.*f\b" instrument.log && fail "f was skipped: $(cat instrument.log)"
grep -q "expansion of CHECK" out/m.kpath.c || fail "CHECK's expansion is not written out"
if grep -E "\"($work/)?src/[^\"]*\"" trace.txt | grep -E "O_CREAT|O_WRONLY|O_RDWR|mkdir|rename|creat\(" >created.txt; then
	cat created.txt
	fail "kpath wrote into the source directory"
fi
[ -z "$(ls -A tmp)" ] || fail "temporary files left in \$TMPDIR: $(ls -A tmp)"
[ "$(ls -A src | tr '\n' ' ')" = "h.h m.c " ] || fail "the source directory changed: $(ls -A src)"
$cc -iquote src -iquote other src/m.c -o native || fail "native build"
$cc -iquote src -iquote other out/m.kpath.c -o inst $("$kpath" config --libs) || fail "instrumented build"
./native >native.out
KPATH_OUT=m.json ./inst >inst.out || fail "instrumented run"
[ "$(cat native.out)" = "2 -1" ] || fail "native printed $(cat native.out)"
cmp -s native.out inst.out || fail "output differs: $(cat inst.out)"
# An unusable $TMPDIR: the macro's function is skipped with the reason, the
# rest is instrumented, and nothing lands beside the source either.
TMPDIR="$work/nosuch" "$kpath" instrument src/m.c -o out/m2.kpath.c -- -iquote other 2>instrument2.log ||
	fail "kpath instrument with a missing TMPDIR failed: $(cat instrument2.log)"
grep -q "cannot create a temporary directory $work/nosuch" instrument2.log ||
	fail "no reason for the skip: $(cat instrument2.log)"
chmod 755 src
[ $status = 0 ] && echo "e2e.srcdir_untouched: OK"
exit $status
