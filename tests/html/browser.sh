#!/bin/sh
# browser.sh: the end-to-end test of `kpath html` in headless Chromium.
#
#   browser.sh KPATH ROOT WORK
#
# Instruments ROOT/corpus/alternate.c (named relative to ROOT, as a user
# would), runs it with KPATH_K=4, writes the site with --source-dir ROOT
# from another directory, installs playwright-core (tests/html/package.json
# and its lockfile) into WORK/node, and runs browser_test.js.  Screenshots
# go to WORK (html-index.png, html-function.png).
#
# Needs cc, node, npm and Debian's chromium.  Without them the test fails
# under CI (CI=true) and is skipped (exit 77) elsewhere.
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
	echo "browser.sh: missing:$missing (scripts/test installs them)" >&2
	[ "${CI:-}" = true ] && exit 1
	exit 77
fi

rm -rf "$WORK/run" "$WORK/site"
mkdir -p "$WORK/run" "$WORK/node"
(cd "$ROOT" && "$KPATH" instrument corpus/alternate.c -o "$WORK/run/alternate.kpath.c")
# shellcheck disable=SC2046 # word splitting of the linker arguments is wanted
$CC -O1 "$WORK/run/alternate.kpath.c" -o "$WORK/run/alternate" $("$KPATH" config --libs)
KPATH_K=4 KPATH_OUT="$WORK/run/kpath.json" "$WORK/run/alternate" >"$WORK/run/out.txt"
cmp "$WORK/run/out.txt" "$ROOT/corpus/alternate.expected"
(cd "$WORK" && "$KPATH" html run/kpath.json -o site --source-dir "$ROOT")

# playwright-core, pinned by the lockfile; reinstalled when the lockfile changes.
if ! cmp -s "$HERE/package-lock.json" "$WORK/node/package-lock.json" ||
	[ ! -d "$WORK/node/node_modules/playwright-core" ]; then
	cp "$HERE/package.json" "$HERE/package-lock.json" "$WORK/node/"
	(cd "$WORK/node" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
KPATH_NODE_MODULES="$WORK/node/node_modules" KPATH_CHROMIUM="$CHROMIUM" \
	node "$HERE/browser_test.js" "$WORK/site" "$WORK/run/kpath.json" figure1,period3 "$WORK"
