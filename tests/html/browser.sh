#!/bin/sh
# browser.sh: the end-to-end test of `kpath html` in headless Chromium.
#
#   browser.sh KPATH ROOT WORK [paths|coverage]
#
# (paths: only the first part; coverage: only the second; both by default.)
# Instruments ROOT/corpus/alternate.c (named relative to ROOT, as a user
# would), runs it with KPATH_K=4, writes the site with --source-dir ROOT
# from another directory, installs playwright-core (tests/html/package.json
# and its lockfile) into WORK/node, and runs browser_test.js (path
# selection; its screenshots go to WORK/alternate).  Then the same for the
# multi-file program fixtures/project (three directories), whose site
# browser_cov_test.js checks against `kpath coverage --json` (coverage,
# filter, sorting, links, anchors, long lines and names); its screenshots,
# WORK/html-index.png and WORK/html-function.png, are docs/img/'s.
#
# Needs cc, node, npm and Debian's chromium.  Without them the test fails
# under CI (CI=true) and is skipped (exit 77) elsewhere.
set -eu
KPATH=$1 ROOT=$2 MODE=${4:-all}
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

rm -rf "$WORK/run" "$WORK/site" "$WORK/prun" "$WORK/psite" "$WORK/alternate"
mkdir -p "$WORK/run" "$WORK/node" "$WORK/prun" "$WORK/alternate"
paths() {
	(cd "$ROOT" && "$KPATH" instrument corpus/alternate.c -o "$WORK/run/alternate.kpath.c")
	# shellcheck disable=SC2046 # word splitting of the linker arguments is wanted
	$CC -O1 "$WORK/run/alternate.kpath.c" -o "$WORK/run/alternate" $("$KPATH" config --libs)
	KPATH_K=4 KPATH_OUT="$WORK/run/kpath.json" "$WORK/run/alternate" >"$WORK/run/out.txt"
	cmp "$WORK/run/out.txt" "$ROOT/corpus/alternate.expected"
	(cd "$WORK" && "$KPATH" html run/kpath.json -o site --source-dir "$ROOT")
}

project() {
	# The project: each file instrumented under its name relative to the
	# project's root, linked together, run once with k = 3.
	PROJ=$HERE/fixtures/project
	for f in main.c lib/geometry/area.c lib/text_processing_utilities/deeply/nested/words.c; do
		(cd "$PROJ" && "$KPATH" instrument "$f" -o "$WORK/prun/$(basename "$f" .c).kpath.c")
	done
	# shellcheck disable=SC2046 # word splitting of the linker arguments is wanted
	$CC -O1 "$WORK"/prun/*.kpath.c -o "$WORK/prun/prog" $("$KPATH" config --libs)
	KPATH_K=3 KPATH_OUT="$WORK/prun/kpath.json" "$WORK/prun/prog" >"$WORK/prun/out.txt"
	grep -qx 'area 224' "$WORK/prun/out.txt"
	"$KPATH" coverage --json "$WORK/prun/kpath.json" --source-dir "$PROJ" >"$WORK/prun/coverage.json"
	"$KPATH" html "$WORK/prun/kpath.json" -o "$WORK/psite" --source-dir "$PROJ"
}

# playwright-core, pinned by the lockfile; reinstalled when the lockfile changes.
if ! cmp -s "$HERE/package-lock.json" "$WORK/node/package-lock.json" ||
	[ ! -d "$WORK/node/node_modules/playwright-core" ]; then
	cp "$HERE/package.json" "$HERE/package-lock.json" "$WORK/node/"
	(cd "$WORK/node" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
fi
export KPATH_NODE_MODULES="$WORK/node/node_modules" KPATH_CHROMIUM="$CHROMIUM"
if [ "$MODE" != coverage ]; then
	paths
	node "$HERE/browser_test.js" "$WORK/site" "$WORK/run/kpath.json" figure1,period3 "$WORK/alternate"
fi
if [ "$MODE" != paths ]; then
	project
	node "$HERE/browser_cov_test.js" "$WORK/psite" "$WORK/prun/kpath.json" "$WORK/prun/coverage.json" "$WORK"
fi
