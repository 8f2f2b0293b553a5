#!/bin/sh
# realcode.repro: the reproducers of tests/realcode/repro/ (defects that
# scripts/realcode-run found in third-party code) stay fixed.  Each file is
# instrumented and compiled, by gcc and by clang, with the flags of its row
# in repro/README.md plus -Werror; then a driver calls its function with a
# few arguments, natively and instrumented (k = 1 and 4), and the outputs
# must be the same bytes.
# usage: repro_check.sh KPATH REPRO_DIR WORK
set -eu
kpath=$1 dir=$(cd "$2" && pwd) work=$3
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
libs=$("$kpath" config --libs)
n=0
fail() { echo "FAIL: $*"; exit 1; }
# name  flags  driver call
while read -r name flags call; do
	src=$dir/$name.c
	[ -f "$src" ] || fail "$src missing"
	"$kpath" instrument "$src" -o "$name.kp.c" -- $flags 2>"$name.log" || fail "$name: kpath instrument: $(cat "$name.log")"
	for comp in gcc clang-14; do
		command -v $comp >/dev/null || continue
		$comp $flags -Werror -O2 -c "$src" -o "$name.native.$comp.o" || fail "$name: the original does not compile with $comp $flags"
		$comp $flags -Werror -O2 -c "$name.kp.c" -o "$name.kp.$comp.o" 2>"$name.$comp.err" ||
			fail "$name: the instrumented file does not compile with $comp $flags -Werror: $(head -5 "$name.$comp.err")"
		n=$((n + 1))
	done
	# the driver: prints what the function returns for a few arguments
	cat > "$name.main.c" <<EOC
#include <stdio.h>
$call
EOC
	$cc -O2 -o "$name.native" "$name.main.c" "$name.native.gcc.o"
	$cc -O2 -o "$name.kp" "$name.main.c" "$name.kp.gcc.o" $libs
	./"$name.native" > "$name.native.out"
	for k in 1 4; do
		KPATH_K=$k KPATH_OUT="$work/$name.k$k.json" ./"$name.kp" > "$name.k$k.out"
		cmp "$name.native.out" "$name.k$k.out" || fail "$name: output differs at k = $k"
		[ -s "$name.k$k.json" ] || fail "$name: no profile at k = $k"
	done
done <<'EOT'
cxx_compat -Wc++-compat int twice(int); int main(void) { int i; for (i = -2; i < 3; i++) printf("%d\n", twice(i)); return 0; }
gcc_only_branch -Wall int add_checked(long *, long); int main(void) { long a = 99; int i; for (i = -1; i < 3; i++) printf("%d %ld\n", add_checked(&a, i), a); return 0; }
EOT
[ $n -ge 2 ] || fail "nothing compiled"
echo "realcode.repro: $n compiles of instrumented reproducers with -Werror, outputs identical at k = 1 and 4"
