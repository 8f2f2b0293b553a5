#!/bin/sh
# tests/profile/schema2/schema2.sh KPATH SRCDIR read|rules: kpath-profile/2 beside /1
# (docs/profile-schema.md, "From /1 to /2").
#  1. A /1 file and its /2 form (made by tests/report/profile_form.py, a
#     converter written apart from the C one) read alike: kpath report (text
#     and --json), show and diff print the same bytes (15 outputs), but
#     for the schema name report gives (the file's); kpath merge of either
#     writes the same /2 bytes, and merging a profile the runtime wrote gives
#     it back byte for byte.  Inputs: tests/report/fixture.json and
#     data/diff_*.json (/1, default mode) and kiter.json, ppp.json,
#     overlap.json here (/2, one per mode, written by the runtime).
#  2. The /2 rules, refused by the C reader with the JSON path and by
#     validate_profile.py: a mode without its payload, the payload of another
#     mode, an unknown or missing mode, a bad field inside a payload, an
#     unknown or bad whole-program section or total.
#  3. kpath merge of a /1 and a /2 file writes /2, the same bytes as of two /2.
#  4. A run accumulated into a /1 file rewrites it as /2; program.totals
#     counts the run and its 4 threads (threads.c), and kpath kipf of a
#     traced run gives the online profile, totals included, byte for byte.
set -u
KPATH=$1
SRC=$(cd "$2" && pwd)
PART=${3:-} # read: 1 and 3 below; rules: 2 and 4 (two ctests, each short)
case $PART in read | rules) ;; *) echo "usage: schema2.sh KPATH SRCDIR read|rules" >&2; exit 2 ;; esac
CC=${CC:-cc}
H="$SRC/tests/profile/schema2"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

conv() { # conv v1|v2 IN OUT [v1|v2 IN OUT]...: profile_form.to_v1 / to_v2 (one python3 for all)
	python3 - "$SRC/tests/report" "$@" <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
import profile_form
a = sys.argv[2:]
for i in range(0, len(a), 3):
    d = json.load(open(a[i + 1]))
    json.dump(getattr(profile_form, "to_" + a[i])(d), open(a[i + 2], "w"), indent=1)
PY
}

# ---- 1. /1 and /2 read alike ----
if [ "$PART" = read ]; then
mkdir -p "$T/1" "$T/2" "$T/orig"
cp "$SRC/tests/report/fixture.json" "$SRC/tests/report/data/diff_old.json" "$SRC/tests/report/data/diff_new.json" \
	"$H/kiter.json" "$H/ppp.json" "$H/overlap.json" "$T/orig/"
for d in 1 2; do
	cp "$SRC/tests/kmode/fig1.c" "$SRC/tests/overlapmode/fig2.c" "$SRC/corpus/state_machine.c" "$T/$d/"
done
set --
for f in fixture diff_old diff_new kiter ppp overlap; do # in order: each /2 form is made from the /1 one
	set -- v1 "$T/orig/$f.json" "$T/1/$f.json" "$@" v2 "$T/1/$f.json" "$T/2/$f.json"
done
conv "$@" || no "to_v1, to_v2"
for f in fixture diff_old diff_new kiter ppp overlap; do
	grep -q '"schema": "kpath-profile/1"' "$T/1/$f.json" || no "$f: the /1 form is not /1"
done
compared=0
same() { # same NAME CMD...: CMD's output and status equal in $T/1 and $T/2
	name=$1
	shift
	for d in 1 2; do
		(cd "$T/$d" && "$KPATH" "$@" >"out.$name" 2>&1; echo "rc $?" >>"out.$name")
	done
	sed "s|kpath-profile/1|kpath-profile/2|; s|$T/1/|$T/2/|g" "$T/1/out.$name" >"$T/1/norm.$name"
	if cmp -s "$T/1/norm.$name" "$T/2/out.$name"; then
		compared=$((compared + 1))
	else
		no "$*: /1 and /2 outputs differ: $(diff "$T/1/norm.$name" "$T/2/out.$name" | head -5)"
	fi
}
for f in fixture diff_new kiter ppp overlap; do
	same "r$f" report "$f.json"
	same "s$f" show "$f.json"
	(cd "$T/1" && "$KPATH" merge "$f.json" -o "m.$f.json") || no "merge /1 $f"
	(cd "$T/2" && "$KPATH" merge "$f.json" -o "m.$f.json") || no "merge /2 $f"
	cmp -s "$T/1/m.$f.json" "$T/2/m.$f.json" || no "$f: merge of the /1 and of the /2 form differ"
done
python3 - "$T" <<'PY' || no "a merged /1 file is not its /2 form"
import json, sys
for f in ("fixture", "kiter", "ppp", "overlap"):  # canonical inputs (diff_new is not: no "emitted")
    a, b = (json.load(open("%s/%s/%s" % (sys.argv[1], d, n))) for d, n in (("1", "m.%s.json" % f), ("2", f + ".json")))
    if a != b:
        print("FAIL: %s: kpath merge of the /1 form != profile_form.to_v2 of it" % f)
        sys.exit(1)
PY
same diff diff diff_old.json diff_new.json
same diffj diff diff_old.json diff_new.json --json
grep -q "^profile fixture.json: kpath-profile/1, " "$T/1/out.rfixture" || no "report does not name schema /1: $(head -1 "$T/1/out.rfixture")"
grep -q "^profile fixture.json: kpath-profile/2, " "$T/2/out.rfixture" || no "report does not name schema /2"
grep -q "ppp" "$T/2/out.rppp" && grep -q "kiter K=2" "$T/2/out.rkiter" || no "report lost the modes"
same rjfixture report fixture.json --json
same sjfixture show fixture.json --json
same rpfixture report fixture.json --prefixes
[ "$compared" -eq 15 ] || no "compared $compared outputs, expected 15"
for f in kiter ppp overlap; do # the runtime's bytes, back from the canonical writer
	(cd "$T/orig" && "$KPATH" merge "$f.json" -o "m.$f.json") || no "merge $f"
	cmp -s "$T/orig/$f.json" "$T/orig/m.$f.json" || no "$f: merging the runtime's /2 profile changed its bytes"
done

# ---- 3. /1 + /2 merge ----
"$KPATH" merge "$T/1/diff_old.json" "$T/2/diff_new.json" -o "$T/m12.json" || no "merge /1 + /2"
"$KPATH" merge "$T/2/diff_new.json" "$T/1/diff_old.json" -o "$T/m21.json" || no "merge /2 + /1"
"$KPATH" merge "$T/2/diff_old.json" "$T/2/diff_new.json" -o "$T/m22.json" || no "merge /2 + /2"
grep -q '"schema":"kpath-profile/2"' "$T/m12.json" || no "merge of /1 and /2 did not write /2"
cmp -s "$T/m12.json" "$T/m22.json" && cmp -s "$T/m21.json" "$T/m22.json" || no "merge /1 + /2 differs from /2 + /2"

python3 "$SRC/tests/report/validate_profile.py" "$T/m12.json" "$T/2/ppp.json" "$T/1/ppp.json" \
	"$T/orig/overlap.json" "$T/orig/kiter.json" || no "a profile does not validate"
[ $fail -eq 0 ] && echo "schema2 read: $compared outputs of /1 and /2 equal, merge writes /2"
exit $fail
fi

# rules
# ---- 2. the /2 rules, with the JSON path ----
# NAME<TAB>MESSAGE<TAB>PYTHON: PYTHON mutates d (the /2 ppp profile), f = d["functions"][0]
cat >"$T/cases" <<'CASES'
nopayload	functions[0].ppp: missing (the payload of the function's mode)	del f["ppp"]
otherpayload	functions[0].overlap: the payload of mode overlap in a function of mode ppp	f["overlap"] = {}
kipfpayload	functions[0].kiter: the payload of mode kiter in a function of mode kipf	f["mode"] = "kipf"; del f["ppp"]; f["kiter"] = {"k": 2, "loops": []}
unknownmode	functions[0].mode: expected "kipf", "kiter", "ppp" or "overlap"	f["mode"] = "fast"
nomode	functions[0].mode: missing	del f["mode"]
payloadtype	functions[0].ppp: expected an object	f["ppp"] = [1]
payloadfield	functions[0].ppp.interval: expected an integer in 0..num_paths	f["ppp"]["interval"] = -1
payloadcount	functions[0].ppp.paths[0].count: expected the path's count in kipf	f["ppp"]["paths"][0]["count"] += 1
kiterfield	functions[0].kiter.loops: expected an array	f["mode"] = "kiter"; del f["ppp"]; f["kiter"] = {"k": 2}
section	program.cpu: unknown section (a kpath-profile/2 has totals)	d["program"]["cpu"] = {"ms": 3}
sectiontype	program: expected an object of sections	d["program"] = []
total	program.totals.cpu: unknown total	d["program"]["totals"]["cpu"] = 1
totalruns	program.totals.runs: more than the profile's runs	d["program"]["totals"]["runs"] = 2
totaltype	program.totals.threads: expected a non-negative integer	d["program"]["totals"]["threads"] = "x"
CASES
python3 - "$H/ppp.json" "$T" "$T/cases" "$SRC/tests/report" <<'PY' || no "mutations"
import json, sys
sys.path.insert(0, sys.argv[4])
import profile_form
# /1 knows no "program" and no payload keys: ignored there, as any unknown field
d = profile_form.to_v1(json.load(open(sys.argv[1])))
d["program"] = "not a section"
d["functions"][0]["overlap"] = 1
json.dump(d, open(sys.argv[2] + "/v1extra.json", "w"))
for line in open(sys.argv[3]):
    name, _, code = line.rstrip("\n").split("\t")
    d = json.load(open(sys.argv[1]))
    f = d["functions"][0]
    exec(code)
    json.dump(d, open("%s/%s.json" % (sys.argv[2], name), "w"), indent=1)
PY
nbad=0
tab=$(printf '\t')
set --
while IFS=$tab read -r name msg code; do
	(cd "$T" && "$KPATH" report "$name.json" >/dev/null 2>"$name.err")
	rc=$?
	[ $rc -eq 1 ] || no "$name: report exit $rc, expected 1"
	grep -qF "$name.json: not a kpath profile: $msg" "$T/$name.err" || no "$name: message $(cat "$T/$name.err"), expected ...$msg"
	nbad=$((nbad + 1))
	set -- "$@" "$T/$name.json"
done <"$T/cases"
[ "$nbad" -eq 14 ] || no "ran $nbad refusal cases, expected 14"
"$KPATH" report "$T/v1extra.json" >/dev/null 2>"$T/err" || no "a /1 file with unknown fields refused: $(cat "$T/err")"

# ---- 4. accumulation into a /1 file; the totals ----
LIBS=$("$KPATH" config --libs)
"$KPATH" instrument "$H/threads.c" -o "$T/th.c" --quiet 2>"$T/err" || no "instrument threads.c: $(cat "$T/err")"
$CC -O1 -w -o "$T/th" "$T/th.c" $LIBS -lpthread || no "cc threads.c"
KPATH_OUT="$T/run.json" "$T/th" >"$T/out" || no "run"
[ "$(cat "$T/out")" = 42 ] || no "threads.c printed $(cat "$T/out")"
KPATH_OUT="$T/traced.json" KPATH_TRACE="$T/run.trace" "$T/th" >/dev/null || no "traced run"
"$KPATH" kipf --k 4 "$T/run.trace" -o "$T/kipf.json" || no "kipf"
cmp -s "$T/kipf.json" "$T/traced.json" || no "kpath kipf of the trace != the online profile: $(diff "$T/kipf.json" "$T/traced.json" | head -6)"
conv v1 "$T/run.json" "$T/acc.json" || no "to_v1 run.json"
cp "$T/acc.json" "$T/acc1.json"
KPATH_OUT="$T/acc.json" "$T/th" >/dev/null || no "second run"
"$KPATH" merge "$T/acc1.json" "$T/run.json" -o "$T/want.json" || no "merge acc1 + run"
cmp -s "$T/acc.json" "$T/want.json" || no "accumulating into a /1 file != merging it with the run: $(diff "$T/acc.json" "$T/want.json" | head -6)"
python3 - "$T/run.json" "$T/acc.json" <<'PY' || no "run.json, acc.json"
import json, sys
for path, runs in ((sys.argv[1], 1), (sys.argv[2], 2)):  # the run: main + 3 threads; acc: /1 (no totals) + the run
    d = json.load(open(path))
    t = d.get("program", {}).get("totals")
    modes = {f.get("mode") for f in d["functions"]}
    if d["schema"] != "kpath-profile/2" or d["runs"] != runs or t != {"runs": 1, "threads": 4} or modes != {"kipf"}:
        print("FAIL: %s: %s, runs %s, totals %s, modes %s" % (path, d["schema"], d["runs"], t, modes))
        sys.exit(1)
PY
# validate_profile.py: the refused files fail, the good ones pass (one python3 for all)
good="$T/run.json $T/acc.json"
python3 "$SRC/tests/report/validate_profile.py" $good "$@" >"$T/val" 2>&1
for g in $good; do
	! grep -q "FAIL: $g: " "$T/val" || no "validate_profile.py refused $g: $(grep "FAIL: $g: " "$T/val" | head -2)"
done
while IFS=$tab read -r name msg code; do
	grep -q "FAIL: $T/$name.json: " "$T/val" || no "$name: validate_profile.py accepted it"
done <"$T/cases"

[ $fail -eq 0 ] && echo "schema2 rules: $nbad refusals named; accumulation into /1 writes /2; totals"
exit $fail
