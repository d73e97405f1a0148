/* Frames of passed steps (run/frames.c): the before/after PNGs of each
 * region a passed step's expectations name, listed in its artifacts and
 * counted against the run's byte budget; a step that would go past it
 * keeps none and is marked, and so is every passed step after it; no
 * budget, a failed step or no report directory write nothing. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "run/runner.h"
#include "stepcheck.h"

typedef struct world {
  sc__runner r;
  sc_run_result rr;
  sc__frames_budget fb;
  sc_scenario sc;
  sc_region regions[3];
  sc_expect expect[3];
  sc_step st;
  char *dir;
} world;

static void world_init(world *w, long long budget) {
  memset(w, 0, sizeof *w);
  w->dir = sc_test_mkdtemp();
  w->regions[0] = (sc_region){"map", {0, 0, 40, 20}};
  w->regions[1] = (sc_region){"scale/bar", {40, 20, 24, 12}}; /* a name made safe */
  w->regions[2] = (sc_region){"unused", {0, 20, 8, 8}};
  w->sc.regions = w->regions;
  w->sc.nregions = 3;
  /* three expectations, two regions: map twice */
  w->expect[0] = (sc_expect){.kind = SC_EXPECT_CHANGED, .region = 0};
  w->expect[1] = (sc_expect){.kind = SC_EXPECT_SCALE, .region = 1};
  w->expect[2] = (sc_expect){.kind = SC_EXPECT_STABLE, .region = 0};
  w->st = (sc_step){.id = "zoom-in", .nexpect = 3, .expect = w->expect};
  w->fb.budget = budget;
  w->rr.user_name = "user-1";
  w->rr.pass_frames_budget = budget;
  w->r.s = &w->sc;
  w->r.rr = &w->rr;
  w->r.report_dir = w->dir;
  w->r.frames = &w->fb;
  w->r.cycle = 2;
  w->r.sm.st = &w->st;
  assert_int_equal(sc_image_new(&w->r.sm.before.img, 64, 32), 0);
  assert_int_equal(sc_image_new(&w->r.sm.cur.img, 64, 32), 0);
  w->r.sm.before.clip = w->r.sm.cur.clip = (sc_rect){0, 0, 64, 32};
  memset(w->r.sm.cur.img->px, 0xff, 64 * 4 * 10); /* the top rows white */
}

static void world_free(world *w) {
  sc__frame_free(&w->r.sm.before);
  sc__frame_free(&w->r.sm.cur);
  sc_test_rmtree(w->dir);
  free(w->dir);
}

static void result_clear(sc_step_result *res) {
  for (size_t i = 0; i < res->nartifacts; i++) sc__free(res->artifacts[i]);
  sc__free(res->artifacts);
  sc__free(res->reason);
  memset(res, 0, sizeof *res);
}

/* Step `id` of cycle 2 passes (or fails) and the runner keeps its frames. */
static void step(world *w, sc_step_result *res, const char *id, int passed) {
  memset(res, 0, sizeof *res);
  w->st.id = (char *)id;
  res->step_id = id;
  res->passed = passed;
  res->reason = sc__strdup("changed 400 px");
  w->r.sm.res = res;
  sc__runner_pass_frames(&w->r);
}

static long long file_size(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

static long long listed_bytes(const sc_step_result *res) {
  long long n = 0;
  for (size_t i = 0; i < res->nartifacts; i++) n += file_size(res->artifacts[i]);
  return n;
}

static void a_passed_step_keeps_before_and_after_of_each_named_region(void **st) {
  (void)st;
  world w;
  world_init(&w, 1 << 20);
  sc_step_result res;
  step(&w, &res, "zoom-in", 1);
  if (res.nartifacts != 4) fail_msg("%zu frames: %s", res.nartifacts, res.reason);
  const char *want[4] = {"user-1@c2-zoom-in@map-before.png", "user-1@c2-zoom-in@map-after.png",
                         "-after.png", "-before.png"};
  assert_non_null(strstr(res.artifacts[0], want[0]));
  assert_non_null(strstr(res.artifacts[1], want[1]));
  assert_non_null(strstr(res.artifacts[2], "@c2-zoom-in@scale_bar~"));
  assert_non_null(strstr(res.artifacts[2], want[3]));
  assert_non_null(strstr(res.artifacts[3], want[2]));
  /* each is the region's crop of its frame: before black, after white on top */
  sc_image *img = NULL;
  assert_int_equal(sc_image_load_png(&img, res.artifacts[0], NULL), 0);
  assert_int_equal(img->width, 40);
  assert_int_equal(img->height, 20);
  assert_int_equal(sc_image_pixel(img, 0, 0) >> 8, 0);
  sc_image_free(img);
  assert_int_equal(sc_image_load_png(&img, res.artifacts[1], NULL), 0);
  assert_int_equal(sc_image_pixel(img, 0, 0) >> 8, 0xffffff);
  sc_image_free(img);
  assert_int_equal(sc_image_load_png(&img, res.artifacts[2], NULL), 0);
  assert_int_equal(img->width, 24);
  sc_image_free(img);
  /* the bytes written are counted, for the run and for the user */
  long long bytes = listed_bytes(&res);
  assert_true(bytes > 0);
  assert_true(w.fb.written == bytes);
  assert_true(w.rr.pass_frames_written == bytes);
  assert_int_equal(res.frames_skipped, 0);
  assert_string_equal(res.reason, "changed 400 px"); /* nothing to say */
  result_clear(&res);
  world_free(&w);
}

static void the_budget_is_never_passed_and_ends_the_keeping(void **st) {
  (void)st;
  world w;
  world_init(&w, 1 << 20);
  sc_step_result a, b, c;
  step(&w, &a, "one", 1);
  long long one = listed_bytes(&a);
  result_clear(&a);
  world_free(&w);
  /* room for one step's frames and a half: the second does not fit */
  world_init(&w, one + one / 2);
  step(&w, &a, "one", 1);
  step(&w, &b, "two", 1);
  assert_int_equal(a.nartifacts, 4);
  assert_int_equal(a.frames_skipped, 0);
  assert_int_equal(b.nartifacts, 0);
  assert_int_equal(b.frames_skipped, 1);
  assert_true(w.fb.spent);
  /* a smaller step after it would fit, but the keeping has ended: the
   * report can say "from here on" */
  w.st.nexpect = 1;
  step(&w, &c, "three", 1);
  assert_int_equal(c.nartifacts, 0);
  assert_int_equal(c.frames_skipped, 1);
  assert_true(w.fb.written == one && w.rr.pass_frames_written == one);
  assert_true(w.fb.written <= w.fb.budget);
  result_clear(&a);
  result_clear(&b);
  result_clear(&c);
  world_free(&w);
}

static void no_budget_or_a_failed_step_writes_nothing(void **st) {
  (void)st;
  world w;
  world_init(&w, 0);
  sc_step_result res;
  step(&w, &res, "zoom-in", 1);
  assert_int_equal(res.nartifacts, 0);
  assert_int_equal(res.frames_skipped, 0);
  result_clear(&res);
  world_free(&w);

  world_init(&w, 1 << 20); /* failure images are artifacts.c's, never these */
  step(&w, &res, "zoom-in", 0);
  assert_int_equal(res.nartifacts, 0);
  assert_int_equal(res.frames_skipped, 0);
  assert_true(w.fb.written == 0);
  result_clear(&res);
  w.r.frames = NULL; /* a runner outside a multi handle */
  step(&w, &res, "zoom-in", 1);
  assert_int_equal(res.nartifacts, 0);
  result_clear(&res);
  world_free(&w);
}

static void a_frame_not_written_is_named_in_the_reason(void **st) {
  (void)st;
  world w;
  world_init(&w, 1 << 20);
  char *file = sc__asprintf("%s/file", w.dir);
  FILE *f = fopen(file, "w"); /* the report "dir" is a file */
  assert_non_null(f);
  fclose(f);
  w.r.report_dir = file;
  sc_step_result res;
  step(&w, &res, "zoom-in", 1);
  assert_int_equal(res.nartifacts, 0);
  assert_int_equal(res.passed, 1); /* the verdict stands */
  if (!strstr(res.reason, "changed 400 px [4 of 4 frames not written: ") ||
      !strstr(res.reason, "/file"))
    fail_msg("reason: %s", res.reason);
  assert_true(w.fb.written == 0);
  result_clear(&res);
  sc__free(file);
  world_free(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_passed_step_keeps_before_and_after_of_each_named_region),
      cmocka_unit_test(the_budget_is_never_passed_and_ends_the_keeping),
      cmocka_unit_test(no_budget_or_a_failed_step_writes_nothing),
      cmocka_unit_test(a_frame_not_written_is_named_in_the_reason),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
