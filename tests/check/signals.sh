#!/bin/sh
# A signal handler running instrumented code while the thread may be inside
# the runtime: same output as the original, no invalid path, a consistent
# profile (kpcheck: structure, level 1 == emitted == trace records, k-IPF ==
# n-grams of the trace), and the offline rebuild equals the online profile;
# then without a trace (the inline emit and count run and are interrupted
# too), k = 1 and 4: same output, consistent profiles.
# Counts vary from run to run (timer), so nothing is compared across runs.
# usage: signals.sh KPATH KPCHECK SOURCE_DIR WORK
set -u
kpath=$1 kpcheck=$2 dir=$3 work=$4/signals
cc=${CC:-cc}
mkdir -p "$work" && rm -f "$work"/*.json "$work"/*.trace || exit 1
fail() { echo "FAIL: $*"; exit 1; }
cp "$dir/signals.c" "$work/signals.c"
cd "$work" || exit 1
"$kpath" instrument signals.c -o signals.kpath.c 2>instrument.log || fail "$(cat instrument.log)"
# shellcheck disable=SC2046
$cc -std=c11 -O2 signals.kpath.c -o signals $("$kpath" config --libs) || fail build
# Traced at k = 1 the trampolines' trace step (runtime/abi.c, KP_TR_TRACE)
# does the items without entering the library, and the handler's own
# items interrupt it (its record is committed by one cmpxchg, retried when
# the handler appended meanwhile): the same checks.
for k in 4 1; do
	KPATH_K=$k KPATH_OUT="$work/k$k.json" KPATH_TRACE="$work/k$k.trace" ./signals >out.txt 2>err.txt || fail "traced k=$k: status $?"
	cmp -s out.txt "$dir/signals.expected" || fail "traced k=$k: output differs: $(cat out.txt)"
	python3 "$kpcheck" profile k$k.json --k $k --src-root "$work" --trace k$k.trace --functions 5 || fail "kpcheck traced k=$k"
	"$kpath" kipf --k $k -o off$k.json k$k.trace || fail "kipf k=$k"
	python3 "$kpcheck" same k$k.json off$k.json || fail "traced k=$k: offline profile differs"
	grep -o '"dropped": *[0-9]*' k$k.json
done
# Without a trace the inline emit runs, and handlers interrupt it (not only
# the library): same output, a consistent profile (counts never grow going
# down, level 1 == emitted).
for k in 1 4; do
	KPATH_K=$k KPATH_OUT="$work/n$k.json" ./signals >out$k.txt 2>err$k.txt || fail "k=$k: status $?"
	cmp -s out$k.txt "$dir/signals.expected" || fail "k=$k: output differs: $(cat out$k.txt)"
	python3 "$kpcheck" profile n$k.json --k $k --src-root "$work" --functions 5 || fail "kpcheck k=$k"
done
echo PASS
