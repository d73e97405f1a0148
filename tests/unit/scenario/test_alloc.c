/* Every allocation the loader makes may fail: the result is SC_ENOMEM (or the
 * verdict the file deserves), never a crash or a leak. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "stepcheck.h"

static int setup(void **st) {
  (void)st;
  sc_test_alloc_install();
  return chdir(sc_test_fixture("scenario"));
}

typedef int (*op_fn)(void);

static int load_full(void) {
  sc_scenario *s;
  int rc = sc_scenario_load(&s, "valid-full.json");
  if (rc == 0) sc_scenario_free(s);
  return rc;
}

static int validate_many(void) { return sc_scenario_validate("bad-many.json", NULL, NULL); }
static int load_duplicate_key(void) {
  sc_scenario *s;
  return sc_scenario_load(&s, "bad-duplicate-key.json");
}
static int load_syntax(void) {
  sc_scenario *s;
  return sc_scenario_load(&s, "bad-syntax.json");
}

/* Fail the n-th allocation for n = 0, 1, ... until op gets through; returns
 * how many failure points there were. */
static long fail_each(op_fn op, int want) {
  long n;
  for (n = 0;; n++) {
    long live = sc_test_alloc_live();
    sc_test_alloc_fail_after(n);
    int rc = op();
    sc_test_alloc_fail_after(-1);
    assert_int_equal(sc_test_alloc_live(), live);
    if (rc == want) break;
    if (rc != SC_ENOMEM) fail_msg("allocation %ld failed: got %d (%s), want SC_ENOMEM", n, rc, sc_errmsg());
    assert_non_null(strstr(sc_errmsg(), "out of memory"));
    if (n > 100000) fail_msg("no success after %ld failures", n);
  }
  return n;
}

static void load_survives_every_failure(void **st) {
  (void)st;
  long n = fail_each(load_full, 0);
  print_message("valid-full.json: %ld allocation failure points\n", n);
  assert_true(n > 50);
}

static void validate_survives_every_failure(void **st) {
  (void)st;
  fail_each(validate_many, 6);
  fail_each(load_duplicate_key, SC_ESCENARIO);
  fail_each(load_syntax, SC_ESCENARIO);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(load_survives_every_failure),
      cmocka_unit_test(validate_survives_every_failure),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
