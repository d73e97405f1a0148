/* A custom harness linking libstepcheck: open a page, click a point, assert
 * that a region changed, print the verdict with timings.
 *
 *   harness URL X Y REGION_X,REGION_Y,W,H [GUEST_WxH]
 *
 * Exit 0 when the region changed after the click, 1 when not, 2/3 on errors. */
#include <stdio.h>
#include <stdlib.h>

#include <stepcheck.h>

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s URL X Y RX,RY,RW,RH [GUEST_WxH]\n", argv[0]);
    return 2;
  }
  int rx, ry, rw, rh, gw = 1600, gh = 900;
  if (sscanf(argv[4], "%d,%d,%d,%d", &rx, &ry, &rw, &rh) != 4 ||
      (argc > 5 && sscanf(argv[5], "%dx%d", &gw, &gh) != 2)) {
    fprintf(stderr, "harness: bad region or guest size\n");
    return 2;
  }
  /* The same checks the CLI runs, built in memory: one step, one expectation. */
  char json[2048];
  snprintf(json, sizeof json,
           "{\"app\": \"harness\", \"url\": \"%s\","
           " \"viewport\": {\"width\": %d, \"height\": %d},"
           " \"guest\": {\"width\": %d, \"height\": %d},"
           " \"regions\": {\"target\": [%d, %d, %d, %d]},"
           " \"drift\": \"off\","
           " \"cycle\": [{\"id\": \"click\", \"click\": [%s, %s],"
           " \"expect\": [{\"changed\": \"target\"}]}]}",
           argv[1], gw, gh + 40, gw, gh, rx, ry, rw, rh, argv[2], argv[3]);
  sc_scenario *s = NULL;
  if (sc_scenario_parse(&s, json, "harness") < 0) {
    fprintf(stderr, "harness: %s\n", sc_errmsg());
    return 2;
  }
  sc_run_options o = SC_RUN_OPTIONS_INIT;
  sc_run_result *r = NULL;
  int rc = sc_run_scenario(&r, s, &o);
  int code = 3;
  if (rc < 0) {
    fprintf(stderr, "harness: %s\n", sc_errmsg());
  } else {
    const sc_step_result *x = r->results[0];
    printf("%s %s gesture %.1f ms, first change %.1f ms, verified %.1f ms, %d captures: %s\n",
           x->step_id, x->passed ? "PASS" : "FAIL", x->gesture_ms, x->first_change_ms,
           x->verified_ms, x->captures, x->reason);
    code = x->passed ? 0 : 1;
  }
  sc_run_result_free(r);
  sc_scenario_free(s);
  return code;
}
