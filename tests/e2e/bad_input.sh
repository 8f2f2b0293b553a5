#!/bin/sh
# bad_input.sh KPATH CORPUS_DIR WORK_DIR CASE
#
# Error handling of kpath instrument and of the runtime's profile writer.
# CASE is one of:
#   unparsable         a C file with a syntax error: exit status 1, clang
#                      diagnostics with file:line on stderr, no output file
#   missing_input      the input file does not exist: one-line error, status 1
#   unwritable_output  -o into a directory that does not exist: one-line
#                      error, status 1, nothing created
#   output_is_input    -o names the input (also through ./, .., a symbolic
#                      or hard link) or a directory: one-line error,
#                      status 1, the source untouched
#   malformed_profile  KPATH_OUT names a file holding garbage (and, second, a
#                      valid profile with another k): the file is left
#                      untouched, a new profile is written next to it, and
#                      stderr says why
# Exit status 0 = pass, 1 = fail, 2 = usage.
set -u

if [ $# -ne 4 ]; then
	echo "usage: $0 KPATH CORPUS_DIR WORK_DIR CASE" >&2
	exit 2
fi
KPATH=$1
CORPUS=$2
WORK=$3
CASE=$4
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)

nfail=0
fail() {
	echo "FAIL: bad_input.$CASE: $*"
	nfail=$((nfail + 1))
}
fatal() {
	echo "FAIL: bad_input.$CASE: $*"
	echo "FAILED: bad_input.$CASE"
	exit 1
}
show() {
	if [ -s "$1" ]; then
		echo "--- $1:"
		head -n "${2:-30}" "$1" | sed 's/^/    /'
	else
		echo "--- $1: (empty)"
	fi
}
# expect_one_line_error FILE: stderr FILE holds exactly one non-empty line.
expect_one_line_error() {
	n=$(grep -c . "$1")
	if [ "$n" -ne 1 ]; then
		show "$1"
		fail "expected a one-line error on stderr, got $n line(s)"
	fi
}

case $KPATH in /*) ;; *) KPATH=$(pwd)/$KPATH ;; esac
[ -x "$KPATH" ] || fatal "kpath executable '$KPATH' not found or not executable"
CORPUS=$(cd "$CORPUS" 2>/dev/null && pwd) || fatal "corpus directory '$2' not found"
mkdir -p "$WORK" || fatal "cannot create $WORK"
W=$(cd "$WORK" && pwd)/$CASE
rm -rf "$W"
mkdir -p "$W" || fatal "cannot create $W"
cd "$W" || fatal "cannot cd to $W"

case $CASE in
unparsable)
	cat >bad.c <<'EOF'
#include <stdio.h>

int main(void)
{
	int x = 3 +;
	printf("%d\n", x)
	return 0;
}
EOF
	echo "\$ kpath instrument bad.c -o bad.kpath.c"
	"$KPATH" instrument bad.c -o bad.kpath.c >out.txt 2>err.txt
	rc=$?
	show err.txt
	[ $rc -eq 1 ] || fail "exit status $rc, expected 1"
	grep -q -E '(^|/)bad\.c:5:([0-9]+:)? *(fatal )?error' err.txt ||
		fail "stderr has no clang diagnostic 'bad.c:5:...: error' for the syntax error on line 5"
	grep -q -E '(^|/)bad\.c:6:([0-9]+:)? *(fatal )?error' err.txt ||
		fail "stderr has no clang diagnostic 'bad.c:6:...: error' (missing ';' on line 6)"
	[ ! -e bad.kpath.c ] || fail "an output file bad.kpath.c was left behind"
	[ ! -s out.txt ] || { show out.txt; fail "unexpected output on stdout"; }
	# An undeclared identifier is a semantic error, not a parse error:
	# it must be rejected the same way.
	printf 'int f(void)\n{\n\treturn undeclared_thing;\n}\n' >sema.c
	"$KPATH" instrument sema.c -o sema.kpath.c >out2.txt 2>err2.txt
	rc=$?
	show err2.txt
	[ $rc -eq 1 ] || fail "sema.c (undeclared identifier): exit status $rc, expected 1"
	grep -q -E '(^|/)sema\.c:3:' err2.txt || fail "sema.c: no diagnostic with 'sema.c:3:'"
	[ ! -e sema.kpath.c ] || fail "sema.c: an output file was left behind"
	;;

missing_input)
	echo "\$ kpath instrument does-not-exist.c -o out.c"
	"$KPATH" instrument does-not-exist.c -o out.c >out.txt 2>err.txt
	rc=$?
	show err.txt
	[ $rc -eq 1 ] || fail "exit status $rc, expected 1"
	expect_one_line_error err.txt
	grep -q 'does-not-exist.c' err.txt || fail "the error does not name the missing file"
	[ ! -e out.c ] || fail "an output file was created"
	;;

unwritable_output)
	cp "$CORPUS/alternate.c" prog.c || fatal "cannot copy corpus/alternate.c"
	echo "\$ kpath instrument prog.c -o $W/no/such/dir/x.c"
	"$KPATH" instrument prog.c -o "$W/no/such/dir/x.c" >out.txt 2>err.txt
	rc=$?
	show err.txt
	[ $rc -eq 1 ] || fail "exit status $rc, expected 1"
	expect_one_line_error err.txt
	grep -q 'no/such/dir/x.c' err.txt || fail "the error does not name the output file"
	[ ! -e "$W/no" ] || fail "directories were created for the output"
	# Output path is a directory.
	mkdir adir
	"$KPATH" instrument prog.c -o adir >out2.txt 2>err2.txt
	rc=$?
	show err2.txt
	[ $rc -eq 1 ] || fail "-o DIRECTORY: exit status $rc, expected 1"
	expect_one_line_error err2.txt
	;;

output_is_input)
	# -o naming the input by any name: refused, the source untouched
	mkdir sub || fatal "cannot create sub"
	cp "$CORPUS/alternate.c" prog.c || fatal "cannot copy corpus/alternate.c"
	ln -s prog.c sym.c || fatal "cannot make a symbolic link"
	ln prog.c hard.c || fatal "cannot make a hard link"
	k=0
	for o in prog.c ./prog.c sub/../prog.c "$W/prog.c" sym.c hard.c ./ sub sub/; do
		k=$((k + 1))
		"$KPATH" instrument prog.c -o "$o" >out.txt 2>err$k.txt
		rc=$?
		[ $rc -eq 1 ] || { show err$k.txt; fail "-o $o: exit status $rc, expected 1"; }
		expect_one_line_error err$k.txt
		case $o in
		*/ | sub) grep -q "names a directory" err$k.txt || { show err$k.txt; fail "-o $o: the error does not say it is a directory"; } ;;
		*) grep -q "is the input file" err$k.txt || { show err$k.txt; fail "-o $o: the error does not say it is the input"; } ;;
		esac
		cmp -s "$CORPUS/alternate.c" prog.c || fatal "-o $o replaced the source"
	done
	[ -L sym.c ] || fail "the symbolic link was replaced"
	# -o naming a FIFO (or a device: "-o /dev/null" run as root replaced
	# the machine's /dev/null with a regular file): refused, left as it is
	mkfifo fifo || fatal "cannot make a FIFO"
	"$KPATH" instrument prog.c -o fifo >out.txt 2>errf.txt
	rc=$?
	[ $rc -eq 1 ] || { show errf.txt; fail "-o FIFO: exit status $rc, expected 1"; }
	expect_one_line_error errf.txt
	grep -q "not a regular file" errf.txt || { show errf.txt; fail "-o FIFO: the error does not say it is not a regular file"; }
	[ -p fifo ] || fail "-o FIFO replaced the FIFO"
	ls | grep -q 'tmp' && fail "a temporary file was left: $(ls)"
	;;

malformed_profile)
	cp "$CORPUS/alternate.c" prog.c || fatal "cannot copy corpus/alternate.c"
	"$KPATH" instrument prog.c -o prog.kpath.c >inst.txt 2>&1 ||
		{ show inst.txt; fatal "kpath instrument prog.c failed"; }
	LIBS=$("$KPATH" config --libs) || fatal "kpath config --libs failed"
	# shellcheck disable=SC2086
	$CC -std=c11 -O2 prog.kpath.c -o prog $LIBS >cc.txt 2>&1 ||
		{ show cc.txt; fatal "the instrumented program does not compile"; }

	# check_beside DIR ORIG_COPY NAME K: ORIG untouched, one new profile.
	check_beside() {
		dir=$1 saved=$2 file=$3 k=$4
		cmp -s "$dir/$file" "$saved" || fail "$file was modified (it must be left untouched)"
		# (lock files, "<profile>.lock", are the runtime's and ignored)
		new=$(cd "$dir" && ls | grep -v -e '\.lock$' | grep -v -x -F -e "$file" -e "$(basename "$saved")" -e "stderr.txt" -e "stdout.txt")
		count=$(echo "$new" | grep -c .)
		if [ "$count" -ne 1 ]; then
			fail "expected exactly one new profile next to $file, found: $(echo $new)"
			return
		fi
		echo "new profile: $new"
		"$PYTHON" "$HERE/kpcheck.py" profile "$dir/$new" --k "$k" --src-root "$W" ||
			fail "the profile written next to $file ($new) is not a valid k=$k profile"
		[ -s "$dir/stderr.txt" ] || fail "nothing on stderr explaining why $file was not used"
		grep -q -F "$file" "$dir/stderr.txt" || grep -q -F "$new" "$dir/stderr.txt" ||
			fail "stderr does not name $file or the new file $new"
	}

	# 1. garbage
	mkdir g
	printf 'this is not a profile {{{\n\001\002garbage\n' >g/prof.json
	cp g/prof.json saved.garbage
	(cd g && KPATH_K=4 KPATH_OUT=prof.json ../prog >stdout.txt 2>stderr.txt)
	rc=$?
	show g/stderr.txt
	[ $rc -eq 0 ] || fail "program exited with $rc"
	cmp -s g/stdout.txt "$CORPUS/alternate.expected" || fail "program output differs from alternate.expected"
	mv saved.garbage g/
	check_beside "$W/g" "$W/g/saved.garbage" prof.json 4

	# 2. a valid profile written with another k (incompatible)
	mkdir i
	(cd i && KPATH_K=2 KPATH_OUT=prof.json ../prog >/dev/null 2>first.err)
	[ -s i/prof.json ] || fatal "KPATH_K=2 run wrote no profile"
	cp i/prof.json saved.k2
	# the tools' atomic writer (profile/atomic.c) never replaces a FIFO
	# or a device either
	mkfifo fifo || fatal "cannot make a FIFO"
	for cmd in "merge i/prof.json -o fifo" "export --format lcov -o fifo i/prof.json"; do
		# shellcheck disable=SC2086
		"$KPATH" $cmd >/dev/null 2>fifo.err && fail "kpath $cmd: exit status 0 writing over a FIFO"
		grep -q "not a regular file" fifo.err || { show fifo.err; fail "kpath $cmd: the error does not say it is not a regular file"; }
		[ -p fifo ] || fail "kpath $cmd replaced the FIFO"
	done
	rm -f fifo fifo.err
	rm -f i/first.err
	(cd i && KPATH_K=4 KPATH_OUT=prof.json ../prog >stdout.txt 2>stderr.txt)
	rc=$?
	show i/stderr.txt
	[ $rc -eq 0 ] || fail "program exited with $rc"
	mv saved.k2 i/
	check_beside "$W/i" "$W/i/saved.k2" prof.json 4
	;;

*)
	echo "unknown case '$CASE'" >&2
	exit 2
	;;
esac

if [ $nfail -ne 0 ]; then
	echo "FAILED: bad_input.$CASE ($nfail failure(s)); files in $W"
	exit 1
fi
echo "PASSED: bad_input.$CASE"
exit 0
