#!/bin/sh
# libclang_lazy.sh KPATH WORK: kpath loads libclang only for the subcommands
# that parse C (cfgbuild/libclang_load.c): `kpath report` and `kpath
# --version` never map it (LD_DEBUG=files lists every object the dynamic
# loader opens), `kpath instrument` does, and its output is the same as
# ever (it compiles and runs).
set -u
kpath=$1 work=$2
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.libclang_lazy: $*"; status=1; }
cat > m.c <<'C'
#include <stdio.h>
static int f(int a) { if (a > 2) return a * 2; return a; }
int main(void) { int i, s = 0; for (i = 0; i < 5; i++) s += f(i); printf("%d\n", s); return 0; }
C
loads() { grep -c 'file=.*libclang' "$1"; }
LD_DEBUG=files LD_DEBUG_OUTPUT=ver "$kpath" --version >/dev/null 2>&1 || fail "kpath --version failed"
[ "$(cat ver.* | loads /dev/stdin)" = 0 ] || fail "kpath --version loaded libclang"
LD_DEBUG=files LD_DEBUG_OUTPUT=ins "$kpath" instrument m.c -o m.kp.c 2>err.txt || { cat err.txt; fail "instrument failed"; }
[ "$(cat ins.* | loads /dev/stdin)" -ge 1 ] || fail "kpath instrument did not load libclang (did the check see anything?)"
# shellcheck disable=SC2046
$cc m.kp.c -o m $("$kpath" config --libs) || fail "the instrumented file does not compile"
[ "$(KPATH_OUT=p.json ./m)" = 17 ] || fail "the instrumented program printed something else"
LD_DEBUG=files LD_DEBUG_OUTPUT=rep "$kpath" report p.json >report.txt 2>&1 || { cat report.txt; fail "report failed"; }
grep -q 'main' report.txt || fail "report lists no main"
[ "$(cat rep.* | loads /dev/stdin)" = 0 ] || fail "kpath report loaded libclang"
[ $status = 0 ] && echo "e2e.libclang_lazy: ok"
exit $status
