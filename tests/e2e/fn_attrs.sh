#!/bin/sh
# fn_attrs.sh KPATH SRC_DIR WORK: functions under whose attributes no code
# may be inserted are skipped with their reason and line
# (cfgbuild/fn_attrs.c): naked functions (the attribute on the definition
# through a macro, or on an earlier prototype, spelled
# there or through a macro), and an ifunc resolver
# (named through a macro).  Before, the naked functions got a count after
# their asm (clang-14 rejected the file: "non-ASM statement in naked
# function"), and the instrumented resolver of a library opened with
# dlopen crashed the program.  The library, built from the instrumented
# file with $CC (and clang-14 when there is one, not under the
# sanitizers), opened with dlopen, prints what the native one prints, and
# its profile has lib_run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.fn_attrs: $*"; status=1; }
. "$here/compilers.sh"
"$kpath" instrument "$dir/attrs.c" -o attrs.kpath.c 2>log || { fail "kpath instrument: $(cat log)"; exit 1; }
grep -q "attrs.c:22: warning: function 'resolve_add' not instrumented: an ifunc resolver: it runs while the dynamic linker relocates" log ||
	fail "resolve_add: not skipped as an ifunc resolver at line 22: $(cat log)"
grep -q "attrs.c:33: warning: function 'one' not instrumented: a naked function" log ||
	fail "one: not skipped as a naked function at line 33: $(cat log)"
grep -q "attrs.c:38: warning: function 'two' not instrumented: a naked function" log ||
	fail "two: not skipped as a naked function at line 38: $(cat log)"
grep -q "attrs.c:44: warning: function 'three' not instrumented: a naked function" log ||
	fail "three: not skipped as a naked function at line 44: $(cat log)"
[ "$(grep -c 'not instrumented' log)" -eq 4 ] || fail "want 4 functions skipped: $(cat log)"
grep -q "3 functions instrumented, 4 skipped" log || fail "want 3 functions instrumented: $(cat log)"
$cc -O2 "$dir/main.c" -o main -ldl || { fail "cannot build main"; exit 1; }
IFS='|'
for c in $compilers; do
	unset IFS
	# shellcheck disable=SC2086
	$c -O2 -fPIC -shared -Wall -Werror "$dir/attrs.c" -o libnative.so || { fail "$c: the original does not build"; IFS='|'; continue; }
	./main "$PWD/libnative.so" >native.out 2>&1 || fail "$c: native run"
	# shellcheck disable=SC2046,SC2086
	$c -O2 -fPIC -shared -Wall -Werror attrs.kpath.c -o libinst.so $("$kpath" config --libs) ||
		{ fail "$c: the instrumented file does not build"; IFS='|'; continue; }
	rm -f p.json
	KPATH_OUT=$PWD/p.json ./main "$PWD/libinst.so" >inst.out 2>&1 || fail "$c: instrumented run: $(cat inst.out)"
	cmp -s native.out inst.out || fail "$c: output differs: $(cat inst.out)"
	grep -q '"name": *"lib_run"' p.json || fail "$c: lib_run not in the profile"
	IFS='|'
done
unset IFS
[ $status = 0 ] && echo "e2e.fn_attrs: OK"
exit $status
