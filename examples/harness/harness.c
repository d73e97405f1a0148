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
  double x = atof(argv[2]), y = atof(argv[3]);
  /* The same checks the CLI runs, built in C: one step, one expectation.
   * The builder escapes every string and runs the scenario loader's checks. */
  sc_builder *b = NULL;
  sc_scenario *s = NULL;
  if (sc_builder_new(&b, "harness", argv[1], gw, gh) == 0) {
    sc_builder_region(b, "target", (sc_rect){rx, ry, rw, rh});
    sc_builder_drift(b, SC_DRIFT_OFF);
    sc_builder_step(b, "click");
    sc_builder_click(b, (sc_point){x, y});
    sc_builder_expect_changed(b, "target", 1);
  }
  if (sc_builder_finish(&s, b) < 0) { /* errors stick: one check at the end */
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
