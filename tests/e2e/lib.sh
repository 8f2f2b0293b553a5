# lib.sh: helpers shared by the e2e scripts (sourced).  Set TEST (the name
# failures are reported under), KPATH, CORPUS and NAME first.
nfail=0
fail() {
	echo "FAIL: $TEST: $*"
	nfail=$((nfail + 1))
}
# Stops the test: later steps need this one.
fatal() {
	echo "FAIL: $TEST: $*"
	echo "FAILED: $TEST ($((nfail + 1)) failure(s), stopped early)"
	exit 1
}
# Shows a file (indented) for diagnostics.
show() {
	if [ -s "$1" ]; then
		echo "--- $1:"
		head -n "${2:-40}" "$1" | sed 's/^/    /'
	fi
}
# Makes KPATH and CORPUS absolute and checks that NAME.c is there.
check_inputs() {
	case $KPATH in /*) ;; *) KPATH=$(pwd)/$KPATH ;; esac
	[ -x "$KPATH" ] || fatal "kpath executable '$KPATH' not found or not executable"
	CORPUS=$(cd "$CORPUS" 2>/dev/null && pwd) || fatal "corpus directory '$CORPUS' not found"
	[ -f "$CORPUS/$NAME.c" ] || fatal "no $CORPUS/$NAME.c"
}
