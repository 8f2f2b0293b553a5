#!/bin/sh
# The papers' examples written as C, instrumented, run, and their k-IPF
# compared with the papers' counts (papers_e2e.py).
# usage: papers_e2e.sh KPATH PAPERS_DIR WORK
set -u
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
mkdir -p "$work" || exit 1
status=0
run() { # name function k expected
	"$kpath" instrument "$dir/$1.c" -o "$work/$1.kpath.c" 2>"$work/$1.log" || { cat "$work/$1.log"; return 1; }
	# shellcheck disable=SC2046
	$cc -std=c11 -O2 "$work/$1.kpath.c" -o "$work/$1" $("$kpath" config --libs) || return 1
	rm -f "$work/$1.json"
	KPATH_K=$3 KPATH_OUT="$work/$1.json" "$work/$1" >/dev/null || return 1
	python3 "$(dirname "$0")/papers_e2e.py" "$work/$1.json" "$dir/$1.c" "$2" "$4"
}
# k-BLPP paper: stream 6 2 0 0 2 2 0 0 2 2 0 0 2 3, k = 4 (and k = 1..5)
stream=ABCE,BCE,BDE,BDE,BCE,BCE,BDE,BDE,BCE,BCE,BDE,BDE,BCE,BCEF
for k in 1 2 3 4 5; do
	run kblpp_example example $k "ngrams:$k:$stream" || status=1
done
# Roy & Srikant, Figure 1: the paper's acyclic and 2-iteration frequencies
run roy_srikant_fig1 fig1 2 "{('1235',): 1, ('235',): 99, ('245',): 99, ('2456',): 1,
  ('1235', '245'): 1, ('235', '245'): 98, ('245', '235'): 99, ('235', '2456'): 1}" || status=1
exit $status
