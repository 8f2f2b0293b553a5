#!/bin/sh
# tests/profile/deps.sh PROFILE_LIB LIB...: the profile component needs
# nothing of the runtime, and neither do the libraries that read profiles
# (report/, wpp/): every kp_* / kpath_* symbol that PROFILE_LIB leaves
# undefined is defined in PROFILE_LIB, and every one the other LIBs leave
# undefined is defined in one of the given libraries.  A runtime function
# (kp_tfunc_*, kp_rt_*, kpath_rt_*) called from report/ would be listed.
set -u
NM=${NM:-nm}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
defined() { "$NM" -g --defined-only "$@" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u; }
undefined() { "$NM" -u "$@" 2>/dev/null | awk '$1 == "U" { print $2 }' | grep -E '^(kp_|kpath_)' | sort -u; }
P=$1; shift
defined "$P" > "$W/pdef"
[ -s "$W/pdef" ] || { echo "FAIL: no symbols defined in $P"; exit 1; }
grep -q '^kp_profile_read$' "$W/pdef" || { echo "FAIL: $P lacks kp_profile_read"; exit 1; }
undefined "$P" | comm -23 - "$W/pdef" > "$W/pmiss"
defined "$P" "$@" > "$W/def"
undefined "$@" | comm -23 - "$W/def" > "$W/miss"
n=$(undefined "$@" | wc -l)
[ "$n" -gt 0 ] || { echo "FAIL: $* use no kp_ symbol at all (nothing checked)"; exit 1; }
if [ -s "$W/pmiss" ] || [ -s "$W/miss" ]; then
	echo "FAIL: symbols from outside the profile component:"
	sed 's/^/  /' "$W/pmiss" "$W/miss"
	exit 1
fi
echo "ok: $P self-contained; $# libraries use $n kp_/kpath_ symbols, all defined in them or in it"
