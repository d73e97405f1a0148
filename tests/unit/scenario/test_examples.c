/* The scenarios the project ships load without a problem. They are written
 * elsewhere; a missing one is skipped, not failed. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "stepcheck.h"

static void loads(const char *rel) {
  const char *root = getenv("SC_SOURCE_DIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", root ? root : ".", rel);
  if (access(path, R_OK) != 0) {
    print_message("%s is absent: skipped\n", rel);
    skip();
  }
  sc_scenario *s;
  int rc = sc_scenario_load(&s, path);
  if (rc) fail_msg("%s", sc_errmsg());
  assert_true(sc_scenario_nsteps(s) > 0);
  sc_scenario_free(s);
}

static void josm_example(void **st) {
  (void)st;
  loads("examples/josm/josm.json");
}

static void josm_1600_example(void **st) {
  (void)st;
  loads("examples/josm/josm-1600.json");
}

static void mapapp_seven_steps(void **st) {
  (void)st;
  loads("fixtures/mapapp/seven-steps.json");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(josm_example),
      cmocka_unit_test(josm_1600_example),
      cmocka_unit_test(mapapp_seven_steps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
