#!/bin/sh
# inline_defs.sh KPATH SRC_DIR WORK: inline functions with external linkage
# are left as they are, each with its true reason (cfgbuild/inline_def.c),
# and every instrumented file compiles with -Werror wherever the original
# does: inline_defs/c99.c under -std=c99 and gnu11 with -pedantic,
# inline_defs/gnu89.c under -std=gnu89, with $CC and with clang-14 when
# there is one (not under the sanitizers).  Each build, linked with ext.c (the external definitions),
# prints what the native build prints, and the profile lists the functions
# instrumented.  Before, the inline definitions were instrumented and gcc
# rejected them under -Werror ("is static but used in inline function").
set -u
here=$(cd "$(dirname "$0")" && pwd)
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.inline_defs: $*"; status=1; }
. "$here/compilers.sh"
# check FILE STD "WARNINGS" "INLINE_ONLY" "EXTERNAL" "INSTRUMENTED"
check() {
	file=$1 std=$2 warn=$3 only=$4 ext=$5 inst=$6
	tag=$file.$std
	"$kpath" instrument "$dir/$file" -o "$tag.kpath.c" -- "-std=$std" 2>"$tag.log" ||
		{ fail "$tag: kpath instrument: $(cat "$tag.log")"; return; }
	for f in $only; do
		grep -q "'$f' not instrumented: an inline definition that this file never emits" "$tag.log" ||
			fail "$tag: $f: not skipped as an inline definition"
	done
	for f in $ext; do
		grep -q "'$f' not instrumented: an inline function with external linkage" "$tag.log" ||
			fail "$tag: $f: not skipped as an inline function with external linkage"
	done
	n=$(grep -c "not instrumented" "$tag.log")
	want=$(echo $only $ext | wc -w)
	[ "$n" -eq "$want" ] || fail "$tag: $n functions skipped, want $want: $(cat "$tag.log")"
	IFS='|'
	for c in $compilers; do
		unset IFS
		# shellcheck disable=SC2086
		$c -std=$std $warn -O2 -Werror "$dir/$file" "$dir/ext.c" -o native ||
			{ fail "$tag: $c: the original does not build"; IFS='|'; continue; }
		./native > native.out || fail "$tag: $c: native run"
		# shellcheck disable=SC2046,SC2086
		$c -std=$std $warn -O2 -Werror "$tag.kpath.c" "$dir/ext.c" -o inst $("$kpath" config --libs) ||
			{ fail "$tag: $c: the instrumented file does not build"; IFS='|'; continue; }
		rm -f p.json p.json.lock
		KPATH_OUT=p.json ./inst > inst.out || fail "$tag: $c: instrumented run"
		cmp -s native.out inst.out || fail "$tag: $c: output differs"
		for f in $inst; do
			grep -q "\"name\": *\"$f\"" p.json || fail "$tag: $c: $f not in the profile"
		done
		IFS='|'
	done
	unset IFS
}
check c99.c c99 "-Wall -Wextra -pedantic" "only_inline spelled gnu_only redefined" "later_decl extern_decl redefined" "local plain main"
check c99.c gnu11 "-Wall -Wextra -pedantic" "only_inline spelled gnu_only redefined" "later_decl extern_decl redefined" "local plain main"
# redefined's second definition does not say inline itself: the reason says so
grep -q "'redefined' not instrumented: an inline function with external linkage (inline by an earlier declaration)" \
	c99.c.c99.log || fail "c99.c: redefined: the reason does not say where its inline comes from"
check gnu89.c gnu89 "-Wall -Wextra" "ext_only ext_redecl" "gnu_plain ext_then_inline" "plain main"
[ $status = 0 ] && echo "e2e.inline_defs: OK"
exit $status
