#!/bin/sh
# invalid.sh KPATH SRCDIR WORKDIR: every reader refuses the profiles of
# tests/report/invalid/ that break a rule of docs/profile-schema.md, with the
# file, the JSON path of the first violation and the rule (expected.txt), and
# validate_profile.py rejects the same files: the C reader
# (profile/profile_check.c) and the script agree.  `report --force` reads
# those that break only invariants; `merge` writes nothing from them, and
# merging counts near UINT64_MAX saturates instead of writing a wrapped,
# invalid count.
set -u
KPATH=$1 SRC=$2 WORK=$3
INV=$SRC/invalid
VALIDATE="python3 $SRC/validate_profile.py"
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
cp "$INV"/*.json "$INV"/t.c .
html=0
"$KPATH" html --help >/dev/null 2>&1 && html=1

n=0
while IFS="$(printf '\t')" read -r name path rule; do
	case $name in '#'*|'') continue ;; esac
	n=$((n + 1))
	f=$name.json
	"$KPATH" report "$f" >out.txt 2>err.txt; rc=$?
	[ $rc = 1 ] || fail "report $f: exit $rc, expected 1"
	grep -q -F -e "$f: not a kpath profile: $path: " err.txt && grep -q -F -e "$rule" err.txt ||
		{ fail "report $f: message lacks '$f: ... $path: ... $rule'"; cat err.txt; }
	[ -s out.txt ] && fail "report $f wrote output"
	$VALIDATE "$f" >v.txt 2>&1 && fail "validate_profile.py accepts $f"
	for cmd in "show $f" "diff valid.json $f" "diff $f valid.json" "merge valid.json $f -o m_$name.json"; do
		# shellcheck disable=SC2086
		"$KPATH" $cmd >out.txt 2>err.txt; rc=$?
		[ $rc = 1 ] || fail "$cmd: exit $rc, expected 1"
		grep -q -F -e "$path" err.txt || { fail "$cmd: message lacks $path"; cat err.txt; }
	done
	[ -e "m_$name.json" ] && fail "merge wrote m_$name.json from an invalid input"
	if [ $html = 1 ]; then
		"$KPATH" html "$f" -o "site_$name" >out.txt 2>err.txt; rc=$?
		[ $rc = 1 ] || fail "html $f: exit $rc, expected 1"
		[ -e "site_$name" ] && fail "html $f made site_$name"
	fi
	# --force: past an invariant (a count, an ID, a line), never past a type
	"$KPATH" report --force "$f" >out.txt 2>err.txt; rc=$?
	case $name in
	child_above_parent|zero_count|node_id_range|path_id_range|line_zero)
		[ $rc = 0 ] && grep -q -F -e "warning: $f: not a kpath profile: $path: " err.txt &&
			grep -q -F "read anyway (--force)" err.txt ||
			{ fail "report --force $f: exit $rc"; cat err.txt; } ;;
	*)
		[ $rc = 1 ] || fail "report --force $f: exit $rc, expected 1" ;;
	esac
done <"$INV/expected.txt"
[ $n -ge 10 ] || fail "only $n fixtures"

# the valid fixtures pass both checkers and every reader
for f in valid.json huge_counts.json; do
	$VALIDATE "$f" >v.txt 2>&1 || { fail "validate_profile.py rejects $f"; cat v.txt; }
	"$KPATH" report "$f" >out.txt 2>err.txt || { fail "report $f"; cat err.txt; }
	"$KPATH" show "$f" >out.txt 2>err.txt || { fail "show $f"; cat err.txt; }
done
# a sum of counts near UINT64_MAX saturates: the merged file is valid
"$KPATH" merge huge_counts.json huge_counts.json -o huge2.json 2>err.txt || { fail "merge huge"; cat err.txt; }
$VALIDATE huge2.json >v.txt 2>&1 || { fail "merge of huge counts wrote an invalid profile"; cat v.txt; }
[ "$(grep -o '"count": *"18446744073709551615"' huge2.json | wc -l | tr -d ' ')" = 2 ] ||
	{ fail "merge of huge counts did not saturate both the root and its child"; grep count huge2.json; }
"$KPATH" report huge2.json >out.txt 2>err.txt || { fail "report of the merged huge counts"; cat err.txt; }

echo "invalid: $n invalid fixtures refused by every reader and by validate_profile.py"
[ $nfail = 0 ] || { echo "$nfail failure(s)"; exit 1; }
