/* The runner on a scripted screen and a fake clock: exact timings, and the
 * rules that keep a verdict honest (never on a frame between changes, wait
 * for two identical captures, time out with the reason, no accidental double
 * click, capture between wheel notches). No browser: the runner's page I/O is
 * replaced by a script where every capture costs CAP ms and sees the screen
 * as it was half-way through. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "run/runner.h"
#include "stepcheck.h"

#define CAP 40.0 /* ms per capture */
#define W 100
#define H 50

static double g_t;
static double g_decode_ms; /* what a decode costs on the fake clock */
static double fake_now(void) { return g_t; }
static void fake_sleep(double ms) {
  if (ms > 0) g_t += ms;
}

/* The screen: a frame id from a time on. */
typedef struct change {
  double at;
  char id;
} change;
typedef struct world {
  change ch[64];
  int nch;
  double click_at[8];
  double click_end[8];
  int nclick;
  double notch_at[8];
  int nnotch;
  int moves;
  double delay;       /* first change after an input */
  const char *after;  /* frames that follow an input, spaced by `gap` */
  double gap;
} world;

static world g_w;

static char screen_at(double t) {
  char id = 'A';
  for (int i = 0; i < g_w.nch; i++)
    if (g_w.ch[i].at <= t) id = g_w.ch[i].id;
  return id;
}

static void schedule(double from) {
  for (const char *p = g_w.after; p && *p; p++) {
    double at = from + g_w.delay + (double)(p - g_w.after) * g_w.gap;
    g_w.ch[g_w.nch++] = (change){at, *p};
  }
}

static int f_move(void *ctx, sc_point at) {
  (void)ctx, (void)at;
  g_w.moves++;
  g_t += 1;
  return 0;
}
static int f_click(void *ctx, sc_point at) {
  (void)ctx, (void)at;
  g_w.click_at[g_w.nclick] = g_t;
  schedule(g_t);
  g_t += 3;
  g_w.click_end[g_w.nclick++] = g_t;
  return 0;
}
/* Notch i shows after[i] `delay` ms after it is sent. */
static int f_wheel(void *ctx, sc_point at, int notches, sc__idle_fn idle, void *ud) {
  (void)ctx, (void)at;
  int n = notches < 0 ? -notches : notches;
  for (int i = 0; i < n; i++) {
    if (i > 0) {
      double until = g_t + 250;
      if (idle) {
        int rc = idle(ud, until);
        if (rc) return rc;
      }
      if (g_t < until) g_t = until;
    }
    g_w.notch_at[g_w.nnotch++] = g_t;
    g_w.ch[g_w.nch++] = (change){g_t + g_w.delay, g_w.after[i]};
    g_t += 1;
  }
  return 0;
}
static int f_key(void *ctx, const char *key, int repeat) {
  (void)ctx, (void)key, (void)repeat;
  return 0;
}
static int f_capture(void *ctx, char **raw, size_t *len, sc_rect clip, int fast) {
  (void)ctx, (void)clip, (void)fast;
  char id = screen_at(g_t + CAP / 2);
  g_t += CAP;
  *raw = sc__strndup(&id, 1);
  *len = 1;
  return 0;
}
/* Frame id -> picture: 'A' black; other letters paint a block whose size
 * grows with the letter, so every frame differs from every other. */
static int f_decode(void *ctx, sc_image **out, const char *raw, size_t len, sc_rect clip) {
  (void)ctx, (void)len;
  g_t += g_decode_ms;
  int rc = sc_image_new(out, clip.w, clip.h);
  if (rc) return rc;
  int side = raw[0] == 'A' ? 0 : 2 + (raw[0] - 'A') * 2;
  for (int y = 0; y < clip.h; y++)
    for (int x = 0; x < clip.w; x++) {
      uint8_t *p = (*out)->px + (size_t)y * (*out)->stride + (size_t)x * 4;
      int in = x >= 10 && x < 10 + side && y >= 10 && y < 10 + side;
      p[0] = p[1] = p[2] = in ? 255 : 0;
      p[3] = 255;
    }
  return 0;
}

static sc_region g_regions[] = {{"r", {0, 0, W, H}}};
static sc_expect g_changed = {.kind = SC_EXPECT_CHANGED, .region = 0, .threshold = 0.1,
                              .min_pixels = 1};
static sc_step g_steps[2];
static sc_scenario g_s;
static sc_run_options g_o = SC_RUN_OPTIONS_INIT;
static sc__runner g_r;

static int setup(void **st) {
  (void)st;
  memset(&g_w, 0, sizeof g_w);
  g_t = 1000;
  g_decode_ms = 0;
  sc__set_clock(fake_now, fake_sleep);
  memset(&g_s, 0, sizeof g_s);
  g_s.regions = g_regions;
  g_s.nregions = 1;
  g_s.guest_w = W;
  g_s.guest_h = H;
  g_s.double_click_ms = 500;
  g_s.has_park = 1;
  g_s.park = (sc_point){90, 45};
  for (int i = 0; i < 2; i++)
    g_steps[i] = (sc_step){.id = i ? "second" : "first",
                           .action = {.kind = SC_ACTION_CLICK, .at = {20, 20}},
                           .timeout_ms = 2000, .settle_ms = 300, .park = 1,
                           .nexpect = 1, .expect = &g_changed};
  g_s.steps = g_steps;
  g_s.nsteps = 2;
  memset(&g_r, 0, sizeof g_r);
  g_r.s = &g_s;
  g_r.o = &g_o;
  g_r.io = (sc__runner_io){f_move, f_click, f_wheel, f_key, f_capture, f_decode, NULL};
  assert_int_equal(sc__runner_plan(&g_r), 0);
  return 0;
}

static int teardown(void **st) {
  (void)st;
  sc__runner_clear(&g_r);
  sc__set_clock(NULL, NULL);
  return 0;
}

static void free_result(sc_step_result *res) {
  sc__free(res->reason);
  sc__free(res->scale_text);
  for (size_t i = 0; i < res->nartifacts; i++) sc__free(res->artifacts[i]);
  sc__free(res->artifacts);
}

static void change_is_timed_from_the_first_input(void **st) {
  (void)st;
  g_w.after = "K";
  g_w.delay = 100;
  sc_step_result res;
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 1), 0);
  /* park, then two identical at-rest captures, then the click */
  assert_int_equal(g_w.moves, 1);
  assert_true(g_w.click_at[0] == 1000 + 1 + 2 * CAP);
  assert_true(res.gesture_ms == 3);
  /* captures end at +43, +83, +123 (sees +103: changed), +163 (same: stable) */
  assert_true(res.first_change_ms == 123);
  assert_true(res.verified_ms == 163);
  assert_int_equal(res.captures, 4);
  assert_true(res.capture_ms == CAP);
  assert_true(res.passed);
  free_result(&res);
}

static void no_verdict_between_changes(void **st) {
  (void)st;
  /* B, C, D, E follow each other every 40 ms, then the screen rests on E. */
  g_w.after = "BCDE";
  g_w.delay = 50;
  g_w.gap = 40;
  sc_step_result res;
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 1), 0);
  /* "changed" holds from B on (+83), but no two captures agree until E:
   * E shows from +170; captures end +203 (E), +243 (E). */
  assert_true(res.first_change_ms == 83);
  assert_true(res.verified_ms == 243);
  assert_true(res.passed);
  free_result(&res);
}

static void nothing_happens_times_out_with_the_reason(void **st) {
  (void)st;
  g_steps[0].timeout_ms = 500;
  sc_step_result res;
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 1), 0);
  assert_false(res.passed);
  assert_true(res.verified_ms == -1);
  assert_true(res.first_change_ms == -1);
  /* captures end at 43, 83, ..., 523: the 13th is past the timeout */
  assert_int_equal(res.captures, 13);
  assert_string_equal(res.reason, "r unchanged after 523 ms");
  free_result(&res);
}

static void restless_screen_fails_before_the_gesture(void **st) {
  (void)st;
  /* The screen changes every 30 ms forever: never at rest, never clicked. */
  for (int i = 0; i < 30; i++) g_w.ch[g_w.nch++] = (change){1000 + 30.0 * i, (char)('B' + i % 20)};
  g_steps[0].timeout_ms = 400;
  sc_step_result res;
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 1), 0);
  assert_false(res.passed);
  assert_int_equal(g_w.nclick, 0);
  assert_non_null(strstr(res.reason, "not at rest before the gesture"));
  free_result(&res);
}

static void same_point_twice_is_not_a_double_click(void **st) {
  (void)st;
  g_w.after = "K";
  g_w.delay = 10;
  sc_step_result res;
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 1), 0);
  free_result(&res);
  g_w.after = "A"; /* the second click turns it back */
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[1], 1, 1), 0);
  assert_int_equal(g_w.nclick, 2);
  assert_true(g_w.click_at[1] - g_w.click_end[0] > 500);
  if (!res.passed) fail_msg("%s", res.reason);
  free_result(&res);
}

static void first_notch_is_seen_during_the_gesture(void **st) {
  (void)st;
  g_steps[0].action = (sc_action){.kind = SC_ACTION_WHEEL, .at = {50, 25}, .notches = -3};
  g_w.after = "BCD";
  g_w.delay = 10;
  sc_step_result res;
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 1), 0);
  assert_int_equal(g_w.nnotch, 3);
  /* notches 250 ms apart: the gesture spans both pauses */
  assert_true(g_w.notch_at[1] - g_w.notch_at[0] >= 250);
  assert_true(g_w.notch_at[2] - g_w.notch_at[1] >= 250);
  assert_true(res.gesture_ms >= 500);
  /* the pause after notch 1 holds a capture that sees B */
  assert_true(res.first_change_ms > 0 && res.first_change_ms < res.gesture_ms);
  /* the verdict comes only after the last notch, on D twice */
  assert_true(res.verified_ms > res.gesture_ms);
  assert_true(res.passed);
  free_result(&res);
}

static void times_are_reply_times_not_decode_times(void **st) {
  (void)st;
  g_decode_ms = 20; /* decoding and judging do not move the measured times */
  g_w.after = "K";
  g_w.delay = 100;
  sc_step_result res;
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 1), 0);
  /* the click comes after park (1), a decoded capture (40 + 20), a copied one (40) */
  double click = g_w.click_at[0];
  assert_true(click == 1000 + 1 + CAP + 20 + CAP);
  /* captures: reply +43 (A: copied from before), +83 (A), +123 (K, decoded:
   * the reply came at +123, the decode ended at +143), +183 (K again) */
  assert_true(res.first_change_ms == 123);
  assert_true(res.verified_ms == 183);
  assert_true(res.passed);
  free_result(&res);
}

static void stable_holds_on_identical_captures(void **st) {
  (void)st;
  sc_expect ex[2] = {g_changed, {.kind = SC_EXPECT_STABLE, .region = 0, .threshold = 0}};
  g_steps[0].expect = ex;
  g_steps[0].nexpect = 2;
  g_w.after = "K";
  g_w.delay = 100;
  sc_step_result res;
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 1), 0);
  if (!res.passed) fail_msg("%s", res.reason);
  assert_true(res.verified_ms == 163);
  free_result(&res);
  g_steps[0].expect = &g_changed;
  g_steps[0].nexpect = 1;
}

static void no_snapshot_survives_into_the_next_cycle(void **st) {
  (void)st;
  /* second: click back, and the screen must equal first's snapshot */
  sc_expect eq = {.kind = SC_EXPECT_EQUALS, .region = 0, .threshold = 0, .snapshot = "first"};
  g_steps[1].expect = &eq;
  g_steps[0].timeout_ms = 400;
  g_w.after = "K";
  g_w.delay = 10;
  sc_step_result res;
  assert_int_equal(sc__runner_cycle_start(&g_r, &g_steps[0]), 0);
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 1), 0);
  assert_true(res.passed);
  free_result(&res);
  g_w.after = "A";
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[1], 1, 1), 0);
  assert_true(res.passed); /* back to A = first's snapshot */
  free_result(&res);
  /* Cycle 2: the screen never comes to rest, so "first" takes no snapshot;
   * "second" must not compare with cycle 1's. */
  double now = g_t;
  g_w.nch = 0;
  for (int i = 0; i < 40; i++) g_w.ch[g_w.nch++] = (change){now + 30.0 * i, (char)('B' + i % 20)};
  assert_int_equal(sc__runner_cycle_start(&g_r, &g_steps[0]), 0);
  assert_null(sc__runner_snap_get(&g_r, "start"));
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 2), 0);
  assert_false(res.passed);
  free_result(&res);
  g_w.nch = 0; /* quiet again: A */
  g_w.after = NULL;
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[1], 1, 2), 0);
  assert_false(res.passed);
  assert_non_null(strstr(res.reason, "no snapshot first"));
  free_result(&res);
  g_steps[1].expect = &g_changed;
}

static void failure_images_show_what_was_compared(void **st) {
  (void)st;
  char *dir = sc_test_mkdtemp();
  sc_run_options o = SC_RUN_OPTIONS_INIT;
  o.report_dir = dir;
  g_r.o = &o;
  /* first: A -> K; second must come back to first's snapshot (A) but goes to M */
  sc_expect eq = {.kind = SC_EXPECT_EQUALS, .region = 0, .threshold = 0, .snapshot = "first"};
  g_steps[1].expect = &eq;
  g_steps[1].timeout_ms = 300;
  g_w.after = "K";
  g_w.delay = 10;
  sc_step_result res;
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[0], 0, 1), 0);
  free_result(&res);
  g_w.after = "M";
  assert_int_equal(sc__runner_step(&g_r, &res, &g_steps[1], 1, 1), 0);
  assert_false(res.passed);
  assert_int_equal(res.nartifacts, 3);
  /* "before" is the snapshot the check compared with (A: all black), not
   * the step's own start (K: a white block). */
  sc_image *img = NULL;
  assert_int_equal(sc_image_load_png(&img, res.artifacts[0], NULL), 0);
  assert_non_null(strstr(res.artifacts[0], "c1-second-r-before.png"));
  assert_int_equal(sc_image_pixel(img, 12, 12), 0x000000ffu);
  sc_image_free(img);
  assert_int_equal(sc_image_load_png(&img, res.artifacts[1], NULL), 0);
  assert_int_equal(sc_image_pixel(img, 12, 12), 0xffffffffu); /* after: M */
  sc_image_free(img);
  free_result(&res);
  g_steps[1].expect = &g_changed;
  sc_test_rmtree(dir);
  free(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(change_is_timed_from_the_first_input, setup, teardown),
      cmocka_unit_test_setup_teardown(no_verdict_between_changes, setup, teardown),
      cmocka_unit_test_setup_teardown(nothing_happens_times_out_with_the_reason, setup, teardown),
      cmocka_unit_test_setup_teardown(restless_screen_fails_before_the_gesture, setup, teardown),
      cmocka_unit_test_setup_teardown(same_point_twice_is_not_a_double_click, setup, teardown),
      cmocka_unit_test_setup_teardown(first_notch_is_seen_during_the_gesture, setup, teardown),
      cmocka_unit_test_setup_teardown(times_are_reply_times_not_decode_times, setup, teardown),
      cmocka_unit_test_setup_teardown(stable_holds_on_identical_captures, setup, teardown),
      cmocka_unit_test_setup_teardown(no_snapshot_survives_into_the_next_cycle, setup, teardown),
      cmocka_unit_test_setup_teardown(failure_images_show_what_was_compared, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
