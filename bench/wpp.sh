#!/bin/sh
# bench/wpp.sh [BUILD_DIR]: whole program paths (KPATH_MODE=wpp, issue 17)
# on every program of corpus/bench at SCALE times its quick scale
# (corpus/bench/MANIFEST; default 4; SCALE=full for the full one), against
# the same binary at KPATH_K=1 and in trace mode (KPATH_TRACE), and against
# the program built natively:
#   - time: the best of RUNS (default 3) wall-clock runs of each variant,
#     run interleaved (native, k1, trace, wpp, native, ...);
#   - peak memory (max RSS) of the WPP run, and of the k = 1 run;
#   - compression: the trace's bytes (binary, docs/trace-format.md), the
#     WPP's bytes, and the trace through gzip -9 and xz -9;
#   - the grammar: stream length, rules, grammar size (kpath wpp stats);
#   - every variant prints what the native program prints (and at the quick
#     or full scale the MANIFEST's checksum), and with CHECK=1 wpp expand
#     equals trace dump (tests/wpp checks that on every program; else the
#     row is marked and the exit status is 1).
# Writes bench/wpp-results.md (WPP_OUT to change) and prints it.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
KPATH=$BUILD/bin/kpath
RUNS=${RUNS:-3}
SCALE=${SCALE:-1}
OUT=${WPP_OUT:-$ROOT/bench/wpp-results.md}
CC=${CC:-cc}
[ -x "$KPATH" ] || { echo "bench/wpp.sh: no $KPATH (build first)" >&2; exit 2; }
for tool in gzip xz python3; do
	command -v $tool >/dev/null || { echo "bench/wpp.sh: $tool is needed" >&2; exit 2; }
done
W=$(mktemp -d "${TMPDIR:-/tmp}/kpath-wpp-bench.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
LIBS=$("$KPATH" config --libs)
status=0

# seconds of one run of "$@" (stdout to $W/out), and its max RSS in KB in $W/rss
run() {
	# GNU time for the RSS (a forked Python child would report Python's own
	# pages), perf_counter for the time (GNU time counts in centiseconds)
	python3 -c '
import subprocess, sys, time
w = sys.argv[1]
t = time.perf_counter()
subprocess.run(["/usr/bin/time", "-f", "%M", "-o", w + "/rss"] + sys.argv[2:],
               stdout=open(w + "/out", "w"), stderr=open(w + "/err", "w"))
print("%.4f" % (time.perf_counter() - t))' "$W" "$@"
}
same() { # the run printed what native printed, and the checksum when known
	cmp -s "$W/out" "$W/native.out" && { [ -z "$sum" ] || grep -q "$sum" "$W/out"; }
}
min() { python3 -c 'import sys; print(min(float(x) for x in sys.argv[1:]))' "$@"; }

LOAD=$(cut -d' ' -f1 /proc/loadavg)
rows=
while read -r name full quick sumfull sumquick kind; do
	case $name in ''|'#'*) continue ;; esac
	case $SCALE in
	full) scale=$full sum=$sumfull ;;
	quick | 1) scale=$quick sum=$sumquick ;;
	*) scale=$((quick * SCALE)) sum= ;;
	esac
	src=$ROOT/corpus/bench/$name.c
	$CC -std=c11 -O2 "$src" -o "$W/native" -lm || { status=1; continue; }
	"$KPATH" instrument --quiet "$src" -o "$W/$name.kpath.c" || { status=1; continue; }
	# shellcheck disable=SC2086
	$CC -std=c11 -O2 "$W/$name.kpath.c" -o "$W/kp" $LIBS -lm || { status=1; continue; }
	tn= tk= tt= tw= ok=yes
	i=0
	while [ $i -lt "$RUNS" ]; do
		tn="$tn $(run "$W/native" "$scale")"
		cp "$W/out" "$W/native.out"
		same || ok=no
		tk="$tk $(run env KPATH_K=1 KPATH_OUT="$W/p.json" "$W/kp" "$scale")"
		rss_k=$(cat "$W/rss")
		same || ok=no
		rm -f "$W/t.trace"
		tt="$tt $(run env KPATH_K=1 KPATH_OUT="$W/p.json" KPATH_TRACE="$W/t.trace" "$W/kp" "$scale")"
		same || ok=no
		tw="$tw $(run env KPATH_K=1 KPATH_OUT="$W/p.json" KPATH_MODE=wpp KPATH_WPP="$W/w.wpp" "$W/kp" "$scale")"
		rss_w=$(cat "$W/rss")
		same || ok=no
		i=$((i + 1))
	done
	# the texts run to gigabytes: compared by checksum, through pipes
	[ "${CHECK:-0}" = 1 ] && a=$("$KPATH" trace dump "$W/t.trace" | cksum) b=$("$KPATH" wpp expand "$W/w.wpp" | cksum)
	[ "${CHECK:-0}" = 1 ] && { [ "$a" = "$b" ] && [ "${a%% *}" != "$(printf '' | cksum | cut -d' ' -f1)" ] || ok="no (expand)"; }
	[ "$ok" = yes ] || status=1
	bt=$(wc -c <"$W/t.trace") bw=$(wc -c <"$W/w.wpp")
	bg=$(gzip -9 -c "$W/t.trace" | wc -c) bx=$(xz -9 -T1 -c "$W/t.trace" | wc -c)
	stats=$("$KPATH" wpp stats "$W/w.wpp" | awk '$1 == "total" { print $2, $3, $4 }')
	set -- $stats
	len=$1 rules=$2 gsize=$3
	n=$(min $tn) k=$(min $tk) t=$(min $tt) w=$(min $tw)
	rows="$rows$(python3 - "$name" "$n" "$k" "$t" "$w" "$rss_k" "$rss_w" "$bt" "$bw" "$bg" "$bx" "$len" "$rules" "$gsize" "$ok" <<'PY'
import sys
name, n, k, t, w, rk, rw, bt, bw, bg, bx, ln, rules, gs, ok = sys.argv[1:]
n, k, t, w = (max(float(x), 0.0005) for x in (n, k, t, w))
bt, bw, bg, bx = (int(x) for x in (bt, bw, bg, bx))
print("| %s | %.3f | %.2f | %.1fx | %.1fx | %.1fx | %.1fx | %d / %d | %d | %d | %.1fx | %.1fx | %.1fx | %s | %s | %s | %s |"
      % (name, n, w, w / n, w / k, w / t, t / n, int(rk), int(rw), bt, bw, bt / bw, bt / bg, bt / bx,
         ln, rules, gs, ok))
PY
)
"
	echo "bench/wpp.sh: $name done" >&2
done <"$ROOT/corpus/bench/MANIFEST"

{
	echo "# WPP collection: slowdown and compression (bench/wpp.sh)"
	echo
	echo "$(date -u +%Y-%m-%d), $(uname -m), $(nproc) core(s) shared with other work (load average $LOAD at the start), $CC -O2; scale: $SCALE (a multiple of the quick scale, or full; corpus/bench/MANIFEST), best of $RUNS runs."
	echo "Columns: native and WPP seconds; WPP time against native, against the same binary at"
	echo "KPATH_K=1 and in trace mode; trace mode against native; max RSS (KB) at k = 1 and in WPP"
	echo "mode; the binary trace's bytes, the WPP's bytes, and the trace's size over the WPP, over"
	echo "gzip -9 and over xz -9 of the trace; the stream's length (paths), rules and grammar size"
	echo "(symbols on right sides) from kpath wpp stats; ok = every run printed what native printed"
	echo "(and wpp expand equals trace dump when run with CHECK=1)."
	echo
	echo "| program | native s | wpp s | wpp/native | wpp/k1 | wpp/trace | trace/native | RSS k1 / wpp KB | trace B | WPP B | trace/WPP | trace/gzip | trace/xz | length | rules | grammar | ok |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
	printf '%s' "$rows"
} >"$OUT"
cat "$OUT"
exit $status
