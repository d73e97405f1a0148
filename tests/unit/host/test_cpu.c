/* CPU count and the CPU percent between two usage samples. */
#include "testutil.h"

#include <math.h>
#include <unistd.h>

#include "host/host.h"

static void count(void **st) {
  (void)st;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  assert_int_equal(sc__cpu_count(), n >= 1 ? n : 1);
}

static void percent(void **st) {
  (void)st;
  sc__usage a = {.cpu_ms = 100}, b = {.cpu_ms = 250, .cpu_reaped_ms = 50};
  assert_true(fabs(sc__cpu_pct(&a, &b, 100) - 200) < 1e-9);
  assert_true(fabs(sc__cpu_pct(&a, &b, 800) - 25) < 1e-9);
  /* A child exited and was reaped inside the set: its CPU moved, none was used. */
  sc__usage c = {.cpu_ms = 50, .cpu_reaped_ms = 250};
  assert_true(fabs(sc__cpu_pct(&b, &c, 100)) < 1e-9);
  /* CPU went down (a process left the set): 0, not negative. */
  assert_true(sc__cpu_pct(&b, &a, 100) == 0);
  assert_true(sc__cpu_pct(&a, &b, 0) == 0);
  assert_true(sc__cpu_pct(&a, &b, -5) == 0);
  assert_true(sc__cpu_pct(&a, &b, NAN) == 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(count),
      cmocka_unit_test(percent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
