#!/bin/sh
# A source that includes itself (libiberty's regex.c compiles its matcher
# twice that way), built by kpath-cc: the instrumented copy keeps the
# source's name, so it includes itself, and its descriptors and constructor
# must be defined once (rewrite/output.c, open_guard).  Compiled with
# -Wall -Wunused-macros -Werror; same output as native; the profile counts
# twice() exactly (4 calls with x > 0, 1 with x == 0).
# usage: selfinc.sh KPATH_CC SRC_DIR WORK   (CC: the compiler, flags allowed,
# as the sanitizer runs set it)
set -u
kcc=$1 src=$2 work=$3 CC=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cp "$src/selfinc.c" "$work/" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
$CC -Wall -Wunused-macros -Werror selfinc.c -o native || fail "native build"
"$kcc" $CC -Wall -Wunused-macros -Werror selfinc.c -o inst 2>err.txt || { cat err.txt; fail "kpath-cc build"; }
[ -s err.txt ] && { cat err.txt; fail "kpath-cc printed something (a fallback?)"; }
./native >native.out || fail "native run"
KPATH_OUT="$work/p.json" ./inst >inst.out || fail "instrumented run"
cmp native.out inst.out || fail "outputs differ"
python3 - "$work/p.json" <<'PY' || fail "profile"
import json, sys
fs = {f["name"]: f for f in json.load(open(sys.argv[1]))["functions"]}
t = fs.get("twice")
got = sorted((n["id"], n["count"]) for n in t["kipf"]) if t else None
if got != [(0, 1), (1, 4)]:
    print("twice: %s, expected paths 0 x1 and 1 x4" % got)
    sys.exit(1)
PY
echo "ok: selfinc"
