#!/usr/bin/env bash
# The ABI promise (docs/api.md, "The ABI policy"): the built library passes
# scripts/abi-check.sh against the release baseline; the check fails on each
# kind of break (a function removed, a public struct's field moved, a field
# added to a caller-allocated struct), passes a function added, and stops a
# field appended to a result struct until the baseline is rewritten; and a
# program built
# against the baseline's headers runs against this library.
set -uo pipefail
src=${SC_SOURCE_DIR:?}
bin=${SC_BINARY_DIR:?}
fx=${SC_FIXTURES:?}
tmp=$(mktemp -d /tmp/sc-abi-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # name want_rc want_output_substring cmd...
  local name=$1 want=$2 msg=$3; shift 3
  "$@" >"$tmp/out" 2>&1
  local rc=$?
  if [ "$rc" -ne "$want" ]; then
    echo "FAIL $name: exit $rc, want $want"; tail -20 "$tmp/out"; fail=$((fail + 1)); return
  fi
  if [ -n "$msg" ] && ! grep -qF -- "$msg" "$tmp/out"; then
    echo "FAIL $name: output lacks '$msg'"; tail -20 "$tmp/out"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}
base=$src/abi/libstepcheck.abi
abicheck="$src/scripts/abi-check.sh"

check built-library 0 "abi-check: ok" bash "$abicheck" "$bin"

# Sabotaged copies of the baseline stand for a library that changed.
edit() { # out.abi python-edit-expression (s = the XML text)
  python3 - "$base" "$1" "$2" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
t = eval(sys.argv[3], {"re": re, "s": s})
assert t != s, "the edit changed nothing"
open(sys.argv[2], "w").write(t)
PY
}
struct_re() { echo "(<class-decl name='$1' size-in-bits=')(\\d+)(.*?)(</class-decl>)"; }
# A function gone.
edit "$tmp/removed.abi" \
  're.sub(r"\s*<elf-symbol name=.sc_scenario_app.[^>]*/>", "", re.sub(r"\s*<function-decl name=.sc_scenario_app..*?</function-decl>", "", s, flags=re.S))'
check function-removed 1 "INCOMPATIBLE" bash "$abicheck" "$tmp/removed.abi"
check function-added 0 "compatible additions" bash "$abicheck" "$base" "$tmp/removed.abi"
# sc_step_result's second field moved (a caller reading r->cycle reads junk).
edit "$tmp/moved.abi" \
  "re.sub(r\"(<class-decl name='sc_step_result'.*?layout-offset-in-bits=')64(')\", r'\g<1>128\g<2>', s, count=1, flags=re.S)"
check field-moved 1 "INCOMPATIBLE" bash "$abicheck" "$tmp/moved.abi"
# A field appended to a result struct: allowed by the policy, but the check
# is strict (scripts/abi-check.sh says why): it needs a new baseline.
append() { # struct out.abi
  python3 - "$base" "$2" "$1" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
name = sys.argv[3]
m = re.search(r"<class-decl name='%s' size-in-bits='(\d+)'(.*?)(\s*</class-decl>)" % name, s, re.S)
size = int(m.group(1))
member = ("\n      <data-member access='public' layout-offset-in-bits='%d'>\n"
          "        <var-decl name='appended' type-id='%s' visibility='default'/>\n"
          "      </data-member>") % (size, re.search(r"type-id='([^']+)'", m.group(2)).group(1))
new = "<class-decl name='%s' size-in-bits='%d'%s%s%s" % (name, size + 64, m.group(2), member, m.group(3))
open(sys.argv[2], "w").write(s[:m.start()] + new + s[m.end():])
PY
}
append sc_step_result "$tmp/grown-result.abi"
check result-field-appended 1 "1 data member insertion" bash "$abicheck" "$tmp/grown-result.abi"
# The same on sc_match, which callers allocate (an array of them): a break.
append sc_match "$tmp/grown-match.abi"
check caller-struct-grown 1 "INCOMPATIBLE" bash "$abicheck" "$tmp/grown-match.abi"

# A consumer compiled against the baseline's headers, run against this
# library (the one just built, found by rpath).
check consumer-build 0 "" cc -std=c11 -Wall -Werror -I"$src/abi/include" \
  "$src/tests/abi/consumer.c" -o "$tmp/consumer" -L"$bin" -lstepcheck -Wl,-rpath,"$bin"
check consumer-runs 0 "consumer: 0." "$tmp/consumer" "$src/examples/josm/josm.json"
check consumer-uses-this-library 0 "$bin/libstepcheck.so" ldd "$tmp/consumer"

echo "abi: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
