#!/bin/sh
# inline_helpers.sh KPATH SRC_DIR WORK: instrumentation must not cost a
# small helper its inlining (issue 14, item 1; docs/instrumented-code.md
# "Inlining").  inline/helpers.c's branchy helpers (one to three exits)
# are inlined by $CC -O2 natively; the object compiled from the
# instrumented file must not define any helper that the native object does
# not (a helper left as a function is a call the native program does not
# make).  The outputs must be the same and the profile must hold every
# helper.  Under the sanitizers only the outputs and the profile are
# checked (their checks change the inliner's sizes).
set -u
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.inline_helpers: $*"; status=1; }
san=0
case $cc in *-fsanitize=*) san=1 ;; esac
helpers="iabs clamp_px min_u sign next_rand"
"$kpath" instrument "$dir/helpers.c" -o helpers.kpath.c 2>instrument.log || { cat instrument.log; exit 1; }
$cc -O2 -c "$dir/helpers.c" -o native.o || exit 1
$cc -O2 -c helpers.kpath.c -o inst.o || exit 1
$cc native.o -o native && $cc inst.o -o inst $("$kpath" config --libs) || exit 1
./native > n.out || fail "native run"
KPATH_OUT=p.json ./inst > i.out || fail "instrumented run"
cmp -s n.out i.out || fail "output differs"
for h in $helpers; do
	grep -q "\"$h\"" p.json || fail "$h: not in the profile"
done
defined() { nm --defined-only "$1" | awk '{print $3}' | sed 's/\..*//' | grep -x "$2" >/dev/null; }
if [ $san = 0 ]; then
	checked=0
	for h in $helpers; do
		defined native.o "$h" && continue
		checked=$((checked + 1))
		if defined inst.o "$h"; then
			fail "$h: inlined natively, a function of its own instrumented"
		else
			echo "e2e.inline_helpers: $h: inlined natively and instrumented"
		fi
	done
	[ $checked -ge 3 ] || fail "only $checked helpers inlined natively: nothing to compare"
fi
[ $status = 0 ] && echo "e2e.inline_helpers: OK"
exit $status
