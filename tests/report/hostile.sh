#!/bin/sh
# hostile.sh KPATH SRCDIR WORKDIR: profiles from anywhere (issue 13) make
# the readers do nothing no one asked for.
#  1. a line number far beyond the source: show and html fail naming the
#     file and the JSON path, write (almost) nothing, leave no temporary
#     directory (under `ulimit -f`, so a regression fails, not fills the disk);
#  2. `file` naming something outside the source root (absolute, ../, a
#     symlink out of it): never read, never printed, "outside the source root";
#  3. `file` naming /dev/zero or a FIFO: "not a regular file", no hang;
#  5. control characters in names: report, show and diff print them as \xHH;
#  6. html -o onto a symlink to an earlier site replaces the site;
#  source hash (issue 11): an edited source is named in a warning with its
#     functions, and show/html show no misaligned counts.
set -u
KPATH=$1 SRC=$2 WORK=$3
CC=${CC:-cc}
KPATH=$(cd "$(dirname "$KPATH")" && pwd)/$(basename "$KPATH")
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
has() { grep -q -F -e "$2" "$1" || { fail "$1 lacks '$2'"; sed 's/^/    /' "$1" | head -5; }; }
lacks() { grep -q -F -e "$2" "$1" && { fail "$1 has '$2'"; sed 's/^/    /' "$1" | head -5; }; return 0; }
rm -rf "$WORK" && mkdir -p "$WORK/root" "$WORK/outside" && cd "$WORK/root" || exit 1
cp "$SRC/invalid/t.c" t.c
echo "int SECRET_TEXT;" >"$WORK/outside/secret.c"
ln -s "$WORK/outside/secret.c" link.c
mkfifo fifo.c
html=0
"$KPATH" html --help >/dev/null 2>&1 && html=1
# mk NAME FILE [LINE]: a valid profile of function f in FILE whose path 1
# spans lines 1..LINE (default 3)
mk() {
	python3 - "$1" "$2" "${3:-3}" <<'PY'
import json, sys
name, file, line = sys.argv[1], sys.argv[2], int(sys.argv[3])
d = {"schema": "kpath-profile/1", "k": 2, "runs": 1, "functions": [
  {"name": "f", "file": file, "line": 1, "checksum": "0123456789abcdef", "num_paths": 2,
   "invalid_paths": 0, "paths": [{"id": 1, "lines": [1], "spans": [[1, line]]}],
   "kipf": [{"id": 1, "count": 3, "children": [{"id": 1, "count": 2, "children": []}]}]}]}
json.dump(d, open(name, "w"))
PY
}
# run LIMIT_KB CMD...: stdout to out.txt, stderr to err.txt, output files
# limited to LIMIT_KB, at most 60 s
run() {
	lim=$1; shift
	(ulimit -f "$lim"; exec timeout 60 "$@") >out.txt 2>err.txt; rc=$?
}

# ---- 1. a line far beyond the source ----
mk huge.json t.c 4294967295
run 2048 "$KPATH" show huge.json
[ $rc = 1 ] || fail "show of a huge line: exit $rc, expected 1"
has err.txt "functions[0].paths[0].spans[0]: line 4294967295 is beyond the end of t.c (6 lines)"
[ "$(wc -c <out.txt)" -lt 1000 ] || fail "show of a huge line wrote $(wc -c <out.txt) bytes"
if [ $html = 1 ]; then
	run 2048 "$KPATH" html huge.json -o site1
	[ $rc = 1 ] || fail "html of a huge line: exit $rc, expected 1"
	has err.txt "huge.json: functions[0].paths[0].spans[0]: line 4294967295 is beyond the end of t.c (6 lines)"
	[ -e site1 ] && fail "html of a huge line made site1"
	ls -a | grep -q '^\.site1\.' && fail "html of a huge line left a temporary directory: $(ls -a | grep '^\.site1')"
fi
mk ok.json t.c 3
# a write that fails (here: past `ulimit -f`) leaves no temporary directory
if [ $html = 1 ]; then
	run 4 "$KPATH" html ok.json -o site_small
	[ $rc = 1 ] || fail "html past ulimit -f: exit $rc, expected 1"
	has err.txt "File too large"
	ls -a | grep -q '^\.site_small\.' && fail "html past ulimit -f left $(ls -a | grep '^\.site_small')"
	[ -e site_small ] && fail "html past ulimit -f made site_small"
fi
run 2048 "$KPATH" show ok.json
[ $rc = 0 ] || { fail "show ok.json: exit $rc"; cat err.txt; }

# ---- 2, 3. files the profile must not make us read ----
for case in "abs:$WORK/outside/secret.c:outside the source root" \
            "dotdot:../outside/secret.c:outside the source root" \
            "link:link.c:outside the source root" \
            "fifo:fifo.c:not a regular file"; do
	name=${case%%:*}; rest=${case#*:}; file=${rest%%:*}; why=${rest#*:}
	mk "$name.json" "$file"
	run 2048 "$KPATH" show "$name.json"
	[ $rc = 1 ] || fail "show $name: exit $rc, expected 1"
	has err.txt "$why"
	lacks out.txt SECRET_TEXT
	if [ $html = 1 ]; then
		run 2048 "$KPATH" html "$name.json" -o "site_$name"
		[ $rc = 0 ] || { fail "html $name: exit $rc"; cat err.txt; }
		has err.txt "$why"
		grep -rq SECRET_TEXT "site_$name" && fail "html $name published the file outside the root"
	fi
done
mk zero.json /dev/zero
run 2048 "$KPATH" show zero.json --source-dir /
[ $rc = 1 ] || fail "show /dev/zero: exit $rc, expected 1"
has err.txt "/dev/zero: not a regular file"

# ---- 5. control characters in names ----
python3 - <<'PY'
import json
d = json.load(open("ok.json"))
d["functions"][0]["name"] = "f\u001b]0;pwned\u0007\u001b[2J"
d["functions"][0]["file"] = "t\u001b[31m.c"
json.dump(d, open("esc.json", "w"))
PY
ESC=$(printf '\033')
for cmd in "report esc.json" "show esc.json" "diff ok.json esc.json" "report no/such\\033.json"; do
	# shellcheck disable=SC2086
	run 2048 "$KPATH" $cmd
	grep -q "$ESC" out.txt err.txt && fail "$cmd printed an ESC byte"
done
run 2048 "$KPATH" report esc.json
has out.txt 'f\x1b]0;pwned\x07\x1b[2J  t\x1b[31m.c:1'

# ---- 6. html -o onto a symlinked earlier site ----
if [ $html = 1 ]; then
	run 4096 "$KPATH" html ok.json -o web_real
	ln -s web_real web_link
	run 4096 "$KPATH" html ok.json -o web_link
	[ $rc = 0 ] || { fail "html -o a symlink to a site: exit $rc"; cat err.txt; }
	[ -L web_link ] && [ -f web_link/index.html ] || fail "web_link is no longer a link to a site"
	ls -a | grep -q '^\.web_real\.' && fail "html -o a symlink left a temporary directory"
fi

# ---- source hash: an edited source ----
printf 'int g(int n)\n{\n\tint s = 0;\n\twhile (n-- > 0)\n\t\ts += n;\n\treturn s;\n}\nint main(void) { return g(3) != 3; }\n' >e.c
"$KPATH" instrument e.c -o e.kpath.c 2>inst.log || { cat inst.log; exit 1; }
# shellcheck disable=SC2046
$CC e.kpath.c -o e $("$KPATH" config --libs) || exit 1
KPATH_OUT=e.json ./e || fail "e did not run"
grep -q '"source_hash": *"[0-9a-f]\{16\}"' e.json || fail "e.json has no source_hash"
run 2048 "$KPATH" show e.json --function g
[ $rc = 0 ] || { fail "show of the unchanged source: exit $rc"; cat err.txt; }
lacks err.txt "differs"
sed -i '1i /* a new first line */' e.c
for cmd in report show html; do
	case $cmd in html) [ $html = 1 ] || continue; set -- -o site_e ;; *) set -- ;; esac
	run 4096 "$KPATH" $cmd e.json "$@"
	has err.txt "e.c: differs from the file that was instrumented"
	has err.txt "for 2 functions: g main"
done
run 2048 "$KPATH" show e.json --function g
[ $rc = 1 ] || fail "show of an edited source: exit $rc, expected 1"
has err.txt "g (e.c): source unavailable: e.c: differs from the file that was instrumented"
lacks out.txt "while (n-- > 0)"
if [ $html = 1 ]; then
	has site_e/f1-g.html "Source unavailable: the file on disk differs"
	grep -q 'id="L4"' site_e/f1-g.html && fail "html shows the lines of an edited source"
fi

[ $nfail = 0 ] || { echo "$nfail failure(s)"; exit 1; }
echo "hostile: all checks passed"
