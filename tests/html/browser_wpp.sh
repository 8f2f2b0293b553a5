#!/bin/sh
# browser_wpp.sh: `kpath html --wpp` end to end in headless Chromium.
#
#   browser_wpp.sh KPATH ROOT WORK
#
# Instruments ROOT/corpus/alternate.c, runs it once with KPATH_MODE=wpp
# (the profile, at KPATH_K=4, and the WPP of the same run), writes the site
# with --wpp and every hot subpath shown (--top 0), gets the same hot
# subpaths from `kpath wpp hot --json`, and runs browser_wpp_test.js (DOM
# assertions; screenshot WORK/html-wpp.png).  playwright-core is installed
# as browser.sh does (tests/html/package.json and its lockfile).
#
# Needs cc, node, npm and Debian's chromium: without them it fails under CI
# (CI=true) and is skipped (exit 77) elsewhere.
set -eu
KPATH=$1 ROOT=$2
mkdir -p "$3"
WORK=$(cd "$3" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
CHROMIUM=${KPATH_CHROMIUM:-/usr/bin/chromium}

missing=""
command -v node >/dev/null 2>&1 || missing="$missing node"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
[ -x "$CHROMIUM" ] || missing="$missing $CHROMIUM"
if [ -n "$missing" ]; then
	echo "browser_wpp.sh: missing:$missing (scripts/test installs them)" >&2
	[ "${CI:-}" = true ] && exit 1
	exit 77
fi

rm -rf "$WORK/run" "$WORK/site"
mkdir -p "$WORK/run" "$WORK/node"
(cd "$ROOT" && "$KPATH" instrument --quiet corpus/alternate.c -o "$WORK/run/alternate.kpath.c")
# shellcheck disable=SC2046 # word splitting of the linker arguments is wanted
$CC -O1 "$WORK/run/alternate.kpath.c" -o "$WORK/run/alternate" $("$KPATH" config --libs)
KPATH_K=4 KPATH_MODE=wpp KPATH_WPP="$WORK/run/alternate.wpp" KPATH_OUT="$WORK/run/kpath.json" \
	"$WORK/run/alternate" >"$WORK/run/out.txt"
cmp "$WORK/run/out.txt" "$ROOT/corpus/alternate.expected"
(cd "$WORK" && "$KPATH" html run/kpath.json -o site --source-dir "$ROOT" --top 0 \
	--wpp run/alternate.wpp --wpp-min-len 2 --wpp-max-len 6 --wpp-min-cost 300)
"$KPATH" wpp hot "$WORK/run/alternate.wpp" --min-len 2 --max-len 6 --min-cost 300 --json >"$WORK/run/hot.json"

if ! cmp -s "$HERE/package-lock.json" "$WORK/node/package-lock.json" ||
	[ ! -d "$WORK/node/node_modules/playwright-core" ]; then
	cp "$HERE/package.json" "$HERE/package-lock.json" "$WORK/node/"
	(cd "$WORK/node" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
KPATH_NODE_MODULES="$WORK/node/node_modules" KPATH_CHROMIUM="$CHROMIUM" \
	node "$HERE/browser_wpp_test.js" "$WORK/site" "$WORK/run/kpath.json" "$WORK/run/hot.json" "$WORK"
