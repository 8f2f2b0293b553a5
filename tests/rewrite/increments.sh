#!/bin/sh
# Register updates of the spanning-forest placement on deterministic corpus
# programs (bench/increments.py): the static counts and the updates executed
# per completed path must equal tests/rewrite/increments.expected, so a
# placement change that puts code back on hot edges shows up here.
# To accept a reviewed change, copy WORK/increments.out over the expected file.
# usage: increments.sh KPATH ROOT WORK
set -u
kpath=$1 root=$2 work=$3
mkdir -p "$work" || exit 1
python3 "$root/bench/increments.py" "$kpath" alternate duff goto_loops nested_loops state_machine \
	>"$work/increments.out" || { echo "FAIL: increments.py"; exit 1; }
diff -u "$root/tests/rewrite/increments.expected" "$work/increments.out" || { echo "FAIL: increments"; exit 1; }
echo "ok: increments"
