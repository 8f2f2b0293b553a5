#!/bin/sh
# run_builds.sh KPATH KPATH_CC PROJECT_DIR WORK_DIR CASE
#
# kpath in real builds (kpath-cc and kpath instrument -p) on corpus/project.
# Cases: make cmake preprocess object_name syntax_error keep compdb fallback
# strict pflow readme.
# Exit status 0 = pass, 1 = fail.  Environment: CC (default cc), PYTHON.
set -u
if [ $# -ne 5 ]; then
	echo "usage: $0 KPATH KPATH_CC PROJECT_DIR WORK_DIR CASE" >&2
	exit 2
fi
KPATH=$1
KCC=$2
PROJ=$(cd "$3" && pwd)
CASE=$5
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
W=$4/$CASE
rm -rf "$W"
mkdir -p "$W"
W=$(cd "$W" && pwd)

fail() {
	echo "FAIL: $CASE: $*"
	exit 1
}
show() {
	[ -s "$1" ] && { echo "--- $1:"; head -n "${2:-40}" "$1" | sed 's/^/    /'; }
	return 0
}
# copy of the project without build products
fresh() {
	rm -rf "$1"
	mkdir -p "$1"
	cp "$PROJ"/*.c "$PROJ"/*.h "$PROJ"/Makefile "$PROJ"/CMakeLists.txt "$PROJ"/expected.out "$1"/
}
# run_check EXE DIR: runs EXE (from DIR) with a fresh profile; output must be expected.out
run_check() {
	rm -f "$W/kpath.json"
	(cd "$2" && KPATH_OUT="$W/kpath.json" "$1" >"$W/run.out" 2>"$W/run.err")
	rc=$?
	[ $rc -eq 0 ] || { show "$W/run.err"; fail "$1 exited with $rc"; }
	cmp -s "$W/run.out" "$PROJ/expected.out" || { diff "$PROJ/expected.out" "$W/run.out" | head -20; fail "output differs from expected.out"; }
	[ -s "$W/run.err" ] && { show "$W/run.err"; fail "the instrumented program wrote to stderr"; }
	[ -s "$W/kpath.json" ] || fail "no profile written"
	$PYTHON "$HERE/check_profile.py" "$W/kpath.json" "$PROJ" || fail "profile check failed"
}

case $CASE in
make)
	fresh "$W/src"
	(cd "$W/src" && make CC="$KCC $CC" >"$W/build.log" 2>&1) || { show "$W/build.log" 60; fail "make CC=\"kpath-cc $CC\" failed"; }
	if grep -q 'warning' "$W/build.log"; then
		show "$W/build.log" 60
		grep -q "kp[0-9]*_" "$W/build.log" && fail "warnings about kpath's generated code during the build"
		fail "warnings during the build"
	fi
	run_check "$W/src/stk" "$W/src"
	# dependency files name the original source, not kpath-cc's temporary file
	grep -q '^main.o: main.c' "$W/src/main.d" || { show "$W/src/main.d"; fail "main.d does not name main.c"; }
	grep -q 'kpath-cc\.' "$W/src/"*.d && fail "a dependency file names a temporary file"
	# incremental rebuild works (make reads the .d files)
	touch "$W/src/vm.h"
	(cd "$W/src" && make CC="$KCC $CC" >"$W/rebuild.log" 2>&1) || { show "$W/rebuild.log"; fail "incremental make failed"; }
	grep -q ' -c vm.c' "$W/rebuild.log" || { show "$W/rebuild.log"; fail "touching vm.h did not rebuild vm.c"; }
	;;
cmake)
	command -v cmake >/dev/null || fail "cmake not found"
	# CC=kpath-cc (compiler from KPATH_CC), Makefile generator
	REAL_CC=$CC
	(export KPATH_CC="$REAL_CC" CC="$KCC"
	 cmake -S "$PROJ" -B "$W/b1" >"$W/cfg1.log" 2>&1 && cmake --build "$W/b1" >"$W/build1.log" 2>&1) || { show "$W/cfg1.log"; show "$W/build1.log" 60; fail "CC=kpath-cc cmake build failed"; }
	run_check "$W/b1/stk" "$W/b1"
	# launcher variables
	(cmake -S "$PROJ" -B "$W/b2" -DCMAKE_C_COMPILER=$CC -DCMAKE_C_COMPILER_LAUNCHER="$KCC" \
	       -DCMAKE_C_LINKER_LAUNCHER="$KCC" >"$W/cfg2.log" 2>&1 &&
	 cmake --build "$W/b2" >"$W/build2.log" 2>&1) || { show "$W/cfg2.log"; show "$W/build2.log" 60; fail "CMAKE_C_COMPILER_LAUNCHER build failed"; }
	run_check "$W/b2/stk" "$W/b2"
	;;
preprocess)
	cd "$PROJ" || fail "no $PROJ"
	$CC -E -I. -DX=1 vm.c >"$W/plain.i" 2>"$W/plain.err"
	rc1=$?
	"$KCC" $CC -E -I. -DX=1 vm.c >"$W/kpath.i" 2>"$W/kpath.err"
	rc2=$?
	[ $rc1 -eq $rc2 ] || fail "-E: status $rc2, the compiler's $rc1"
	cmp -s "$W/plain.i" "$W/kpath.i" || fail "-E output differs"
	cmp -s "$W/plain.err" "$W/kpath.err" || fail "-E stderr differs"
	"$KCC" $CC -MM -I. vm.c >"$W/kpath.mm" 2>&1 && $CC -MM -I. vm.c >"$W/plain.mm" 2>&1
	cmp -s "$W/plain.mm" "$W/kpath.mm" || fail "-MM output differs"
	"$KCC" $CC --version >"$W/v1" 2>&1; $CC --version >"$W/v2" 2>&1
	cmp -s "$W/v1" "$W/v2" || fail "--version differs"
	;;
object_name)
	fresh "$W/src"
	cd "$W/src" || fail "no $W/src"
	"$KCC" $CC -c -I. vm.c 2>"$W/err" || { show "$W/err"; fail "kpath-cc $CC -c vm.c failed"; }
	[ -f vm.o ] || fail "-c vm.c did not produce vm.o: $(ls)"
	nm vm.o | grep -q kpath_rt_enter || fail "vm.o is not instrumented"
	mkdir -p sub obj
	cp value.c sub/
	"$KCC" $CC -c -I. sub/value.c 2>"$W/err" || { show "$W/err"; fail "-c sub/value.c failed"; }
	[ -f value.o ] || fail "-c sub/value.c did not produce ./value.o"
	"$KCC" $CC -c -I. -MD lexer.c -o obj/lexer.o 2>"$W/err" || { show "$W/err"; fail "-c -o obj/lexer.o failed"; }
	[ -f obj/lexer.o ] && [ -f obj/lexer.d ] || fail "-MD -o obj/lexer.o: $(ls obj)"
	grep -q 'lexer.c' obj/lexer.d && ! grep -q 'kpath-cc\.' obj/lexer.d || { show obj/lexer.d; fail "obj/lexer.d names the wrong source"; }
	"$KCC" $CC -S -I. chunk.c 2>"$W/err" || { show "$W/err"; fail "-S chunk.c failed"; }
	[ -f chunk.s ] || fail "-S chunk.c did not produce chunk.s"
	# compile and link in one command, several sources
	"$KCC" $CC -O1 -I. -o stk1 *.c 2>"$W/err" || { show "$W/err"; fail "compile+link of all sources failed"; }
	run_check "$W/src/stk1" "$W/src"
	# __BASE_FILE__ names the source as the command does, not kpath-cc's
	# copy (tcc's test3 compares it); __FILE__ too
	printf '#include <stdio.h>\nint main(void)\n{\n\tputs(__BASE_FILE__);\n\tputs(__FILE__);\n\treturn 0;\n}\n' >sub/base.c
	"$KCC" $CC -o base sub/base.c 2>"$W/err" || { show "$W/err"; fail "kpath-cc of sub/base.c failed"; }
	[ "$(./base | tr '\n' ' ')" = "sub/base.c sub/base.c " ] || fail "__BASE_FILE__ / __FILE__: $(./base | tr '\n' ' ')"
	"$KCC" $CC -o base2 "$W/src/sub/base.c" 2>"$W/err" || { show "$W/err"; fail "kpath-cc of an absolute path failed"; }
	[ "$(./base2 | head -1)" = "$W/src/sub/base.c" ] || fail "__BASE_FILE__ of an absolute path: $(./base2 | head -1)"
	# __FILE__ in the headers a source includes with "...", beside it, from
	# those headers and from the directory above, and the dependency file:
	# as the original compile names them, however the source is spelled
	# ("-iquote ." made them ./q.h for q.c compiled from its own directory)
	mkdir -p qdir/in
	printf 'static const char *up = __FILE__;\n' >qup.h
	printf 'static const char *nest = __FILE__;\n' >qdir/in/n.h
	printf '#include "in/n.h"\nstatic const char *q = __FILE__;\n' >qdir/q.h
	printf 'static const char *r = __FILE__;\n' >qdir/r.h
	printf '#include <stdio.h>\n#include "q.h"\n#include "./r.h"\n#include "../qup.h"\nint main(void)\n{\n\tprintf("%%s %%s %%s %%s %%s\\n", q, nest, r, up, __FILE__);\n\treturn 0;\n}\n' >qdir/q.c
	for spelled in q.c ./q.c "$W/src/qdir/q.c" qdir/q.c ./qdir//q.c; do
		case $spelled in q.c | ./q.c) at=qdir ;; *) at=. ;; esac
		(cd "$at" && $CC -MD -MF "$W/q-plain.d" -o "$W/q-plain" "$spelled" && \
			"$KCC" $CC -MD -MF "$W/q-kpath.d" -o "$W/q-kpath" "$spelled") 2>"$W/err" || { show "$W/err"; fail "kpath-cc of $spelled failed"; }
		nm "$W/q-kpath" | grep -q kpath_rt || fail "$spelled: not instrumented"
		[ "$("$W/q-kpath")" = "$("$W/q-plain")" ] || fail "__FILE__ of $spelled's headers: '$("$W/q-kpath")', the compiler's '$("$W/q-plain")'"
		# the same names in the same order (the line breaks differ: the
		# compiler wrapped its lines at the longer names it saw)
		sed 's/q-plain/X/; s/\\$//' "$W/q-plain.d" | tr -s ' \n' '\n\n' >"$W/a"
		sed 's/q-kpath/X/; s/\\$//' "$W/q-kpath.d" | tr -s ' \n' '\n\n' >"$W/b"
		# (clang writes "./qdir//q.c"'s ./r.h as qdir/./r.h, gcc as qdir//./r.h)
		[ "$spelled" = ./qdir//q.c ] || cmp -s "$W/a" "$W/b" || { diff "$W/a" "$W/b"; fail "$spelled's dependency file differs"; }
	done
	# an assembler input passes through
	printf '\t.text\n\t.globl kp_asm_probe\nkp_asm_probe:\n\tret\n' >probe.s
	"$KCC" $CC -c probe.s 2>"$W/err" && [ -f probe.o ] || { show "$W/err"; fail "-c probe.s failed"; }
	;;
syntax_error)
	mkdir -p "$W/src" && cd "$W/src" || fail "no $W/src"
	printf 'int main(void)\n{\n\tint x = 1\n\treturn x;\n}\n' >bad.c
	$CC -c bad.c -o plain.o 2>"$W/plain.err"
	rc1=$?
	"$KCC" $CC -c bad.c -o kpath.o 2>"$W/kpath.err"
	rc2=$?
	[ $rc1 -ne 0 ] || fail "the compiler accepted bad.c"
	[ $rc1 -eq $rc2 ] || fail "status $rc2, the compiler's $rc1"
	sed 's/plain\.o/X/g' "$W/plain.err" >"$W/a"; sed 's/kpath\.o/X/g' "$W/kpath.err" >"$W/b"
	cmp -s "$W/a" "$W/b" || { diff "$W/a" "$W/b"; fail "diagnostics differ from the compiler's"; }
	[ -f kpath.o ] && fail "an object was written for bad.c"
	# a file that clang rejects but gcc accepts still compiles (uninstrumented, with a note)
	printf 'int f(int x) { int g(int y) { return y + 1; } return g(x); }\nint main(void) { return f(1) - 2; }\n' >nested.c
	if $CC -c nested.c -o plain2.o 2>/dev/null; then
		"$KCC" $CC nested.c -o nested 2>"$W/nested.err" || { show "$W/nested.err"; fail "nested.c did not build through kpath-cc"; }
		grep -q 'without path profiling' "$W/nested.err" || { show "$W/nested.err"; fail "no note about the uninstrumented file"; }
		./nested || fail "nested exited with $?"
	fi
	;;
keep)
	fresh "$W/src"
	cd "$W/src" || fail "no $W/src"
	KPATH_KEEP="$W/keep" "$KCC" $CC -c -I. vm.c 2>"$W/err" || { show "$W/err"; fail "KPATH_KEEP compile failed"; }
	k="$W/keep$(pwd -P)/vm.kpath.c"
	[ -s "$k" ] || fail "no kept file $k: $(find "$W/keep" -type f | head)"
	grep -q 'kpath_rt_enter' "$k" || fail "$k is not instrumented"
	grep -q "#line 1 \"vm.c\"" "$k" || fail "$k has no #line 1 \"vm.c\""
	ls "${TMPDIR:-/tmp}" | grep -q "^kpath-cc\.$$" && fail "temporary directory left behind"
	;;
compdb)
	command -v cmake >/dev/null || fail "cmake not found"
	(cmake -S "$PROJ" -B "$W/b" -DCMAKE_C_COMPILER=$CC -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$W/cfg.log" 2>&1) ||
		{ show "$W/cfg.log"; fail "cmake configure failed"; }
	"$KPATH" instrument -p "$W/b" -o "$W/mirror" >"$W/instr.log" 2>&1 || { show "$W/instr.log" 60; fail "kpath instrument -p failed"; }
	for f in "$PROJ"/*.c; do
		[ -s "$W/mirror/$(basename "$f")" ] || fail "no mirrored $(basename "$f")"
	done
	grep -q warning "$W/instr.log" && { show "$W/instr.log"; fail "kpath instrument -p printed warnings"; }
	LIBS=$("$KPATH" config --libs) || fail "kpath config --libs failed"
	# shellcheck disable=SC2086
	$PYTHON "$HERE/build_mirror.py" "$W/mirror" "$W/stk" $LIBS >"$W/build.log" 2>&1 || { show "$W/build.log" 60; fail "the mirrored tree does not build"; }
	run_check "$W/stk" "$W"
	# the original build tree is untouched by the mirror's objects
	ls "$W/b"/CMakeFiles/stk.dir/*.o >/dev/null 2>&1 && fail "objects appeared in the original build tree"
	;;
fallback | strict)
	# kpath-cc's fallback: one line per file with the failed step's first
	# error; KPATH_CC_STRICT=1 turns it into a failed build.  nested.c is
	# rejected by clang (kpath instrument) but accepted by gcc; fakecc
	# rejects any instrumented file (a path in kpath-cc's temporary
	# directory) and compiles the rest with $CC.
	mkdir -p "$W/src" && cd "$W/src" || fail "no $W/src"
	printf 'int f(int x) { int g(int y) { return y + 1; } return g(x); }\n' >nested.c
	printf 'int ok(int x)\n{\n\treturn x > 0 ? x : -x;\n}\n' >ok.c
	printf '#!/bin/sh\nfor a in "$@"; do case $a in */kpath-cc.*) echo "ok.c:3:2: error: fake rejection" >&2; exit 1 ;; esac; done\nexec %s "$@"\n' "$CC" >fakecc
	chmod +x fakecc
	# one_line FILE PATTERN: FILE holds exactly one line, matching PATTERN
	one_line() {
		[ "$(grep -c . "$1")" -eq 1 ] && grep -q "$2" "$1" || { show "$1"; fail "expected one line matching '$2'"; }
	}
	if [ "$CASE" = fallback ]; then
		if $CC -c nested.c -o plain.o 2>/dev/null; then
			"$KCC" $CC -c nested.c ok.c 2>"$W/err" || { show "$W/err"; fail "kpath-cc -c nested.c ok.c failed"; }
			one_line "$W/err" '^kpath-cc: warning: nested.c compiled without path profiling: kpath instrument failed: nested.c:1:.*error'
			nm ok.o | grep -q kpath_rt || fail "ok.o is not instrumented"
		fi
		"$KCC" ./fakecc -c ok.c -o ok2.o 2>"$W/err" || { show "$W/err"; fail "kpath-cc ./fakecc failed"; }
		one_line "$W/err" '^kpath-cc: warning: ok.c compiled without path profiling: the instrumented file did not compile: ok.c:3:2: error: fake rejection (KPATH_KEEP=DIR keeps the instrumented file)$'
		[ -f ok2.o ] || fail "ok2.o was not written"
		KPATH_KEEP="$W/keep" "$KCC" ./fakecc -c ok.c -o ok3.o 2>"$W/err" || { show "$W/err"; fail "kpath-cc ./fakecc failed"; }
		k="$W/keep$(pwd -P)/ok.kpath.c"
		one_line "$W/err" "fake rejection; the instrumented file is kept as $k\$"
		[ -s "$k" ] || fail "$k was not kept"
	else
		KPATH_CC_STRICT=1 "$KCC" $CC -c ok.c -o good.o 2>"$W/err" || { show "$W/err"; fail "a good file failed under KPATH_CC_STRICT=1"; }
		[ -s "$W/err" ] && { show "$W/err"; fail "stderr not empty"; }
		nm good.o | grep -q kpath_rt || fail "good.o is not instrumented"
		KPATH_CC_STRICT=1 "$KCC" $CC -c nested.c -o n.o 2>"$W/err" && fail "KPATH_CC_STRICT=1: nested.c compiled"
		one_line "$W/err" '^kpath-cc: error: nested.c: kpath instrument failed (KPATH_CC_STRICT=1): nested.c:1:.*error'
		[ -e n.o ] && fail "n.o was written"
		KPATH_CC_STRICT=1 "$KCC" ./fakecc -c ok.c -o f.o 2>"$W/err" && fail "KPATH_CC_STRICT=1: the fallback compiled ok.c"
		one_line "$W/err" '^kpath-cc: error: ok.c: the instrumented file did not compile (KPATH_CC_STRICT=1): ok.c:3:2: error: fake rejection'
		[ -e f.o ] && fail "f.o was written"
		KPATH_CC_STRICT=0 "$KCC" ./fakecc -c ok.c -o f0.o 2>"$W/err" || fail "KPATH_CC_STRICT=0 is not off"
		# a source that does not compile anyway is not kpath's failure:
		# the compiler's own diagnostics and exit status, no kpath-cc line
		printf 'int broken(void) { return 1 }\n' >broken.c
		KPATH_CC_STRICT=1 "$KCC" $CC -c broken.c -o b.o 2>"$W/err" && fail "KPATH_CC_STRICT=1: broken.c compiled"
		grep -q "broken.c:1:.*error" "$W/err" || { show "$W/err"; fail "the compiler's error on broken.c is missing"; }
		grep -q "^kpath-cc:" "$W/err" && { show "$W/err"; fail "kpath-cc blamed itself for a source that does not compile"; }
		printf '#!/bin/sh\necho "ok.c:1:1: error: always rejected" >&2\nexit 3\n' >nocc
		chmod +x nocc
		KPATH_CC_STRICT=1 "$KCC" ./nocc -c ok.c -o n3.o 2>"$W/err"
		rc=$?
		[ $rc -eq 3 ] || fail "KPATH_CC_STRICT=1 with a compiler that rejects ok.c itself: exit $rc, not the compiler's 3"
		grep -q "^kpath-cc:" "$W/err" && { show "$W/err"; fail "kpath-cc blamed the instrumented file although the original does not compile"; }
	fi
	;;
pflow)
	# kpath instrument -p end to end, as the README says: configure with
	# compile_commands.json, instrument, make -C OUT PROG=..., run, report
	# (PROJECT_DIR is tests/builds/pflow here).
	command -v cmake >/dev/null || fail "cmake not found"
	command -v make >/dev/null || fail "make not found"
	# CC may hold flags (the sanitizer runs): the compiler, then its flags
	cc_bin=${CC%% *}
	cc_flags=
	case $CC in *" "*) cc_flags=${CC#* } ;; esac
	(cmake -S "$PROJ" -B "$W/b" -DCMAKE_C_COMPILER="$cc_bin" "-DCMAKE_C_FLAGS=$cc_flags" \
		-DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$W/cfg.log" 2>&1 &&
		cmake --build "$W/b" >"$W/build.log" 2>&1) || { show "$W/cfg.log"; show "$W/build.log"; fail "the original build failed"; }
	"$W/b/pflow" >"$W/expected.out" || fail "the original pflow failed"
	"$KPATH" instrument -p "$W/b" -o "$W/kp" >"$W/instr.log" 2>&1 || { show "$W/instr.log"; fail "kpath instrument -p failed"; }
	grep -q "make -C $W/kp PROG=NAME" "$W/instr.log" || { show "$W/instr.log"; fail "kpath instrument -p does not say how to build"; }
	[ -f "$W/kp/Makefile" ] || fail "no $W/kp/Makefile"
	make -C "$W/kp" PROG=pflow LDLIBS=-lm LDFLAGS="$cc_flags" >"$W/make.log" 2>&1 || { show "$W/make.log"; fail "make -C OUT PROG=pflow failed"; }
	mkdir -p "$W/run" && cd "$W/run" || fail "no $W/run"
	"$W/kp/pflow" >out.txt 2>err.txt || fail "the instrumented pflow exited with $?"
	cmp -s out.txt "$W/expected.out" || fail "output differs: $(cat out.txt) vs $(cat "$W/expected.out")"
	[ -s err.txt ] && { show err.txt; fail "stderr not empty"; }
	"$KPATH" report kpath.json >report.txt 2>&1 || { show report.txt; fail "kpath report failed"; }
	for f in main stats_rms stats_odd; do
		grep -q "^$f " report.txt || { show report.txt; fail "$f is not in the profile"; }
	done
	# make again: nothing to do; the original build tree has no kpath object
	make -C "$W/kp" PROG=pflow LDLIBS=-lm LDFLAGS="$cc_flags" 2>&1 | grep -q "is up to date\|Nothing to be done" || fail "a second make rebuilt something"
	find "$W/b" -name '*.kpath*' | grep -q . && fail "kpath files appeared in the original build tree"
	# a file kpath cannot instrument (a nested function: gcc accepts it,
	# clang does not) is compiled as it is, and the program still links
	printf 'int nested_sum(int n)\n{\n\tint add(int a, int b) { return a + b; }\n\tint s = 0;\n\tfor (int i = 0; i < n; i++)\n\t\ts = add(s, i);\n\treturn s;\n}\n' >"$W/nested.c"
	if $CC -c "$W/nested.c" -o "$W/nested.o" 2>/dev/null; then
		cp -r "$PROJ" "$W/p2"
		cp "$W/nested.c" "$W/p2/src/nested.c"
		sed -i 's|src/stats.c)|src/stats.c src/nested.c)|' "$W/p2/CMakeLists.txt"
		sed -i 's|^\treturn 0;|\tprintf("nested %d\\n", nested_sum(PFLOW_N));\n\treturn 0;|; s|^#include "stats.h"|#include "stats.h"\nint nested_sum(int n);|' "$W/p2/src/main.c"
		cmake -S "$W/p2" -B "$W/b2" -DCMAKE_C_COMPILER="$cc_bin" "-DCMAKE_C_FLAGS=$cc_flags" \
			-DCMAKE_EXPORT_COMPILE_COMMANDS=ON >"$W/cfg2.log" 2>&1 && cmake --build "$W/b2" >"$W/build2.log" 2>&1 ||
			{ show "$W/cfg2.log"; show "$W/build2.log"; fail "the original build with nested.c failed"; }
		"$W/b2/pflow" >"$W/expected2.out" || fail "the original pflow with nested.c failed"
		grep -q '^nested 780$' "$W/expected2.out" || fail "main.c was not edited as expected: $(cat "$W/expected2.out")"
		"$KPATH" instrument -p "$W/b2" -o "$W/kp2" >"$W/instr2.log" 2>&1 && fail "kpath instrument -p exited with 0 though nested.c failed"
		grep -q "nested.c not instrumented; .* compile the original" "$W/instr2.log" || { show "$W/instr2.log"; fail "no warning about nested.c"; }
		make -C "$W/kp2" PROG=pflow LDLIBS=-lm LDFLAGS="$cc_flags" >"$W/make2.log" 2>&1 || { show "$W/make2.log"; fail "the tree with an uninstrumented file does not link"; }
		rm -f kpath.json
		"$W/kp2/pflow" >out2.txt 2>err2.txt || fail "pflow with nested.c exited with $?"
		cmp -s out2.txt "$W/expected2.out" || fail "output differs with nested.c"
		"$KPATH" report kpath.json >report2.txt 2>&1 || { show report2.txt; fail "kpath report failed"; }
		grep -q "^stats_odd " report2.txt || fail "stats_odd is not in the profile"
	fi
	;;
readme)
	# The README's walkthrough of a CMake project with strict flags and
	# a ctest suite, run as it is written (the fenced block after the
	# marker), in a scratch directory holding corpus/project and build/bin.
	README=$HERE/../../README.md
	awk '/^<!-- tests\/builds case readme runs this block/ { m = 1; next }
	     m == 1 && /^```/ { m = 2; next }
	     m == 2 && /^```/ { exit }
	     m == 2 { print }' "$README" >"$W/walk.sh"
	grep -q "ctest --test-dir" "$W/walk.sh" || { show "$W/walk.sh"; fail "no walkthrough block found in $README"; }
	mkdir -p "$W/root/corpus" "$W/root/build/bin" || fail "no $W/root"
	cp -r "$PROJ" "$W/root/corpus/project" || fail "cannot copy $PROJ"
	rm -rf "$W/root/corpus/project/build"
	# build/bin of the scratch root: kpath, and kpath-cc where it finds the runtime
	kbin=$(cd "$(dirname "$KCC")" && pwd)
	ln -s "$kbin"/kpath-cc "$W/root/build/bin/kpath-cc"
	ln -s "$(cd "$(dirname "$KPATH")" && pwd)"/kpath "$W/root/build/bin/kpath"
	# CC may hold flags (the sanitizer runs): CMake takes them from CFLAGS
	cc_bin=${CC%% *}
	cc_flags=
	case $CC in *" "*) cc_flags=${CC#* } ;; esac
	(cd "$W/root" && env -u KPATH_OUT -u KPATH_K CC="$cc_bin" CFLAGS="$cc_flags" sh -e "$W/walk.sh") \
		>"$W/walk.out" 2>&1 || { show "$W/walk.out" 80; fail "the README walkthrough failed"; }
	grep -q "100% tests passed, 0 tests failed out of 5" "$W/walk.out" || { show "$W/walk.out" 80; fail "ctest did not pass its 5 tests"; }
	grep -q "kpath-cc: \(warning\|error\)" "$W/walk.out" && { show "$W/walk.out" 80; fail "kpath-cc fell back or failed"; }
	grep -q "k 2, runs 5, 127 functions" "$W/walk.out" || { show "$W/walk.out" 80; fail "the report's header is not the README's"; }
	grep -q "^vm_run .*corpus/project/vm.c:209" "$W/walk.out" || { show "$W/walk.out" 80; fail "vm_run is not in the report"; }
	$PYTHON "$HERE/check_profile.py" "$W/root/build/stk/kpath.json" "$PROJ" || fail "profile check failed"
	;;
*)
	fail "unknown case"
	;;
esac
echo "PASSED: $CASE"
exit 0
