# Sourced by the script tests: the pass/fail tally they all keep.
#   . "$(dirname "$0")/../util/tally.sh"
#   ok                 one check passed
#   bad "what"         one check failed (prints FAIL what)
#   tally NAME         prints "NAME: P passed, F failed"; status 0 when none failed
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
tally() {
  echo "$1: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
