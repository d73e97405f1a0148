/* The compositor witness's judgement (lib/page/witness.c) on a fake clock:
 * frames are explained by the paint log's entries (each up to
 * SC__WITNESS_ENTRY_FRAMES frames within SC__WITNESS_LAG_MS after it) and
 * by what we did (a capture, an input, the start); an animation the log
 * does not see overdraws every credit. Each rule has its sabotage beside
 * it: the same frames with the credit gone are unexplained. */
#include "testutil.h"

#include <string.h>

#include "core/core.h"
#include "page/tab.h"

static double g_t;
static double fake_now(void) { return g_t; }
static void fake_sleep(double ms) { (void)ms; }

static sc_page g_p;

static int setup(void **st) {
  (void)st;
  memset(&g_p, 0, sizeof g_p);
  g_t = 10000;
  sc__set_clock(fake_now, fake_sleep);
  sc__witness_started(&g_p, 1, NULL);
  g_t += SC__WITNESS_START_MS + 1; /* the start's credit is over */
  return 0;
}

static int teardown(void **st) {
  (void)st;
  sc__set_clock(NULL, NULL);
  return 0;
}

/* A frame at t (its own timestamp: the receipt here, no metadata). */
static void frame_at(double t) {
  g_t = t;
  json_t *params = json_object(); /* no sessionId: nothing to ack */
  sc__witness_frame(&g_p, params);
  json_decref(params);
}

static int judge(const double *ents, size_t n, uint64_t first) {
  return sc__witness_judge(&g_p, ents, n, first, 0, g_t);
}

/* One paint, two frames after it (a raster task finishing): explained.
 * Sabotage: the same frames with no entry are two unexplained ones. */
static void a_paint_explains_its_frames(void **st) {
  (void)st;
  double e[] = {20000};
  frame_at(20016);
  frame_at(20090);
  assert_int_equal(judge(e, 1, 0), 0);
  frame_at(30016);
  frame_at(30090);
  assert_int_equal(judge(NULL, 0, 1), 2);
}

/* An animation the log does not see beside one paint: a frame every 16 ms
 * for 160 ms; the paint explains three, the other seven are not. */
static void an_animation_overdraws_a_paints_credit(void **st) {
  (void)st;
  double e[] = {20000};
  for (int i = 1; i <= 10; i++) frame_at(20000 + 16 * i);
  assert_int_equal(judge(e, 1, 0), 10 - SC__WITNESS_ENTRY_FRAMES);
  assert_int_equal(g_p.wit.unexplained_total, 10 - SC__WITNESS_ENTRY_FRAMES);
}

/* A paint explains no frame long after it (a busy compositor's lag is
 * bounded): a frame SC__WITNESS_LAG_MS + 50 ms later is unexplained. */
static void a_paint_long_ago_explains_nothing(void **st) {
  (void)st;
  double e[] = {20000};
  frame_at(20000 + SC__WITNESS_LAG_MS + 50);
  assert_int_equal(judge(e, 1, 0), 1);
}

/* A capture of ours makes its own frames: up to its credit, until
 * SC__WITNESS_OURS_MS after its reply. Sabotage: one more frame than the
 * credit, and one after the window, are unexplained. */
static void a_capture_is_credited_with_its_frames(void **st) {
  (void)st;
  g_t = 20000;
  int slot = sc__witness_ours(&g_p, SC__WITNESS_CAPTURE_FRAMES, 5000);
  frame_at(20030);
  g_t = 20040;
  sc__witness_ours_end(&g_p, slot);
  for (int i = 1; i < SC__WITNESS_CAPTURE_FRAMES; i++) frame_at(20040 + 50 * i);
  assert_int_equal(judge(NULL, 0, 0), 0);
  frame_at(20300); /* past the credit */
  assert_int_equal(judge(NULL, 0, 0), 1);
  g_t = 30000;
  slot = sc__witness_ours(&g_p, SC__WITNESS_CAPTURE_FRAMES, 5000);
  g_t = 30040;
  sc__witness_ours_end(&g_p, slot);
  frame_at(30040 + SC__WITNESS_OURS_MS + 10); /* past the window */
  assert_int_equal(judge(NULL, 0, 0), 1);
}

/* An input's credit is one frame at once: an answer 150 ms later is the
 * application's, not the input's (it went unjudged when inputs had 300
 * ms). */
static void an_input_is_credited_with_one_frame_at_once(void **st) {
  (void)st;
  g_t = 20000;
  sc__witness_input(&g_p);
  frame_at(20010);
  assert_int_equal(judge(NULL, 0, 0), 0);
  g_t = 30000;
  sc__witness_input(&g_p);
  frame_at(30150);
  assert_int_equal(judge(NULL, 0, 0), 1);
}

/* Frames are judged only up to the page's answer; later ones wait for the
 * next, with the entries it brings. An entry a probe brought already is
 * not counted twice (its credit is spent once). */
static void frames_wait_for_the_answer_that_covers_them(void **st) {
  (void)st;
  double e[] = {20000};
  frame_at(20010);
  frame_at(20500);
  assert_int_equal(sc__witness_judge(&g_p, e, 1, 0, 0, 20100), 0);
  assert_int_equal(g_p.wit.nframes, 1);
  double e2[] = {20000, 20490};
  assert_int_equal(sc__witness_judge(&g_p, e2, 2, 0, 0, 20600), 0);
  assert_int_equal(g_p.wit.seq_have, 2);
  assert_int_equal((int)g_p.wit.nents, 2);
}

/* The log lost entries (it painted more than its ring holds): frames up to
 * the oldest it still has are explained. */
static void frames_while_the_log_lost_entries_are_explained(void **st) {
  (void)st;
  for (int i = 0; i < 5; i++) frame_at(20000 + 16 * i);
  double e[] = {20100};
  assert_int_equal(sc__witness_judge(&g_p, e, 1, 300, 1, 20100), 0);
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
  const struct CMUnitTest tests[] = {
      T(a_paint_explains_its_frames),
      T(an_animation_overdraws_a_paints_credit),
      T(a_paint_long_ago_explains_nothing),
      T(a_capture_is_credited_with_its_frames),
      T(an_input_is_credited_with_one_frame_at_once),
      T(frames_wait_for_the_answer_that_covers_them),
      T(frames_while_the_log_lost_entries_are_explained),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
