/* Shared-session detection's matching rule (run/shared.c) on scripted
 * times: inputs as the runner sends them, paint starts as the pages' logs
 * report them, every time given (the rule reads no clock). Shared screens
 * (one update painted on both pages) are found; separate ones, a page's own
 * answers, a busy user and chance coincidences with a page's own timer are
 * not; nor a page still answering its own input. */
#include "testutil.h"

#include "core/core.h"
#include "run/shared.h"

#define TOL SC__SHARED_TOL_MS
#define CAUSE SC__SHARED_CAUSE_MS

static sc__shared *g;

static int setup(void **st) {
  (void)st;
  g = sc__shared_new();
  return g && sc__shared_grow(g, 2) == 0 ? 0 : -1;
}

static int teardown(void **st) {
  (void)st;
  sc__shared_free(g);
  g = NULL;
  return 0;
}

/* user u's log answers at t with one paint start at p (p < 0: none) */
static void log_at(int u, double p, double t) {
  sc__shared_paints(g, u, &p, p >= 0, 0, t);
}

/* A gesture of user a at t on a screen both users see: each page paints
 * the update `lat` ms later, b's `skew` ms after a's; both logs answer
 * 100 ms later. */
static void shared_gesture(int a, int b, double t, double lat, double skew) {
  sc__shared_input(g, a, t);
  log_at(a, t + lat, t + 100);
  log_at(b, t + lat + skew, t + 100);
}

static int suspect(int b, int *a, int *hits, int *chances) {
  sc__shared_judge(g);
  return sc__shared_suspect(g, b, a, hits, chances);
}

/* Two users on one screen taking turns: every gesture paints on both
 * pages within a few ms, and each page's paint while its user is idle is
 * the other's gesture: both are suspect, each by the other. */
static void one_screen_is_found(void **st) {
  (void)st;
  log_at(0, -1, 0);
  log_at(1, -1, 0);
  int a, hits, chances;
  for (int i = 0; i < 6; i++) {
    shared_gesture(0, 1, 1000 + 1000 * i, 8, 3);
    shared_gesture(1, 0, 1500 + 1000 * i, 12, -4);
    if (i == 3) assert_false(suspect(1, &a, &hits, &chances)); /* four hits: not yet */
  }
  assert_true(suspect(1, &a, &hits, &chances));
  assert_int_equal(a, 0);
  assert_int_equal(hits, 6);
  assert_int_equal(chances, 6);
  assert_true(suspect(0, &a, &hits, &chances));
  assert_int_equal(a, 1);
  assert_int_equal(hits, 6);
  /* judged once: asking again counts nothing twice */
  assert_true(suspect(0, &a, &hits, &chances));
  assert_int_equal(chances, 6);
}

/* Two screens: each page paints only after its own user's input, the two
 * users' gestures a few ms apart at times (the same pacing): a page's
 * paint after its own input is never evidence, however close. */
static void separate_screens_are_not(void **st) {
  (void)st;
  log_at(0, -1, 0);
  log_at(1, -1, 0);
  for (int i = 0; i < 20; i++) {
    double t = 1000 + 400 * i;
    sc__shared_input(g, 0, t);
    sc__shared_input(g, 1, t + (i % 3) * 5);
    log_at(0, t + 8, t + 100);
    log_at(1, t + (i % 3) * 5 + 8, t + 100);
  }
  int a, hits, chances;
  assert_false(suspect(1, &a, &hits, &chances));
  assert_int_equal(hits, 0);
  assert_int_equal(chances, 0); /* never idle when the other painted */
  assert_false(suspect(0, &a, &hits, &chances));
}

/* Sabotage of "idle": user 1 sent an input CAUSE/2 before user 0's
 * answer, and its page painted with it: its own answer, no chance. */
static void a_busy_user_gives_no_chance(void **st) {
  (void)st;
  log_at(0, -1, 0);
  log_at(1, -1, 0);
  for (int i = 0; i < 5; i++) {
    double t = 1000 + 1000 * i;
    sc__shared_input(g, 1, t + 8 - CAUSE / 2);
    shared_gesture(0, 1, t, 8, 2);
  }
  int a, hits, chances;
  assert_false(suspect(1, &a, &hits, &chances));
  assert_int_equal(chances, 0);
}

/* A page with a timer of its own (a clock repainting every 1000 ms) on a
 * separate screen: user 0's answers every 300 ms meet a tick within TOL
 * now and then (3 of 23 here: t = 1000, 4000, 7000): far below half
 * the chances, silent however long it runs. */
static void chance_coincidences_are_not(void **st) {
  (void)st;
  log_at(0, -1, 0);
  log_at(1, -1, 0);
  for (int i = 0; i < 25; i++) {
    double t = 1000 + 300 * i;
    sc__shared_input(g, 0, t - 8);
    log_at(0, t, t + 50);
    double tick = 1000 * (int)((t + 50) / 1000);
    log_at(1, tick, t + 50);
  }
  int a, hits, chances;
  assert_false(suspect(1, &a, &hits, &chances));
  assert_int_equal(hits, 3);
  assert_int_equal(chances, 23); /* 3100 and 6100: the clock had painted 100 ms before */
}

/* Issue 39 item 7: two separate pages that each blink on the wall clock
 * (a paint start every 200 ms, at multiples of 200 ms of Date.now(), a few
 * ms of frame jitter apiece) while the users' clicks change nothing: each
 * user's first paint after its click is a tick, and so is the other page's
 * paint then. Both pages' ticks, gesture-free, are no chance: not suspect
 * (before: every click a chance and a hit, suspect after 5). */
static void one_wall_clock_on_two_pages_is_not(void **st) {
  (void)st;
  log_at(0, -1, 0);
  log_at(1, -1, 0);
  for (int k = 1; k <= 60; k++) {
    double tick = 200.0 * k;
    /* clicks at phases a tick does not explain: user 0 now and then, user
     * 1 at other times (each at most one per 600 ms) */
    if (k % 3 == 0) sc__shared_input(g, 0, tick - 130 + (k % 7));
    if (k % 3 == 1 && k > 1) sc__shared_input(g, 1, tick - 110 - (k % 5));
    log_at(0, tick + (k % 4), tick + 30);
    log_at(1, tick + 5 - (k % 3), tick + 30);
  }
  int a, hits, chances;
  /* (the first click comes before the clock has ticked three times: one
   * chance, one hit, for each) */
  assert_false(suspect(1, &a, &hits, &chances));
  assert_true(hits <= 1);
  assert_false(suspect(0, &a, &hits, &chances));
  assert_true(hits <= 1);
}

/* The same clock on a screen the users share (a blinking cursor on one
 * VNC display): the gestures' answers, which follow inputs, are still
 * matched, and the pair is found as without the clock. */
static void a_shared_screen_with_a_clock_is_found(void **st) {
  (void)st;
  log_at(0, -1, 0);
  log_at(1, -1, 0);
  for (int i = 0; i < 8; i++) {
    double t = 1000 + 1000 * i;
    for (int k = 0; k < 5; k++) { /* the cursor's ticks, both pages */
      double tick = t + 200.0 * k - 330;
      log_at(0, tick, tick + 20);
      log_at(1, tick + 2, tick + 20);
    }
    shared_gesture(0, 1, t + 37, 8, 3);
  }
  int a, hits, chances;
  assert_true(suspect(1, &a, &hits, &chances));
  assert_int_equal(a, 0);
  assert_int_equal(hits, 8); /* every gesture, as without the clock */
  assert_int_equal(chances, 8);
}

/* Sabotage of "not still answering": a page answers its own input in
 * bursts (JOSM through noVNC: paint starts 100, 140, 180 and 220 ms after
 * it, the last ones past SC__SHARED_CAUSE_MS), and user 0's answer
 * (starting 200 ms after user 1's input) meets one of those bursts every
 * time, on a separate screen: user 1 was not idle, no chance. */
static void a_page_still_answering_gives_no_chance(void **st) {
  (void)st;
  log_at(0, -1, 0);
  log_at(1, -1, 0);
  for (int i = 0; i < 6; i++) {
    double t = 1000 + 1000 * i;
    sc__shared_input(g, 1, t);
    sc__shared_input(g, 0, t + 192);
    double burst[4] = {t + 100, t + 140, t + 180, t + 220};
    sc__shared_paints(g, 1, burst, 4, 0, t + 400);
    log_at(0, t + 200, t + 400);
  }
  int a, hits, chances;
  assert_false(suspect(1, &a, &hits, &chances));
  assert_int_equal(chances, 0);
}

/* Sabotage of the learnt window: user 1's page answers its own input in
 * one paint 300 ms later (past SC__SHARED_CAUSE_MS), and user 0's answer
 * lands on it every time, on a separate screen. User 1's window is learnt
 * from its first answer on (300 + SC__SHARED_LAT_MARGIN_MS): it was
 * still waiting for its own answer, no chance (the first pair, before any
 * answer was learnt, is one chance without a hit: not enough). */
static void a_slow_page_learns_its_window(void **st) {
  (void)st;
  log_at(0, -1, 0);
  log_at(1, -1, 0);
  int a, hits, chances;
  for (int i = 0; i < 8; i++) {
    double t = 1000 + 1000 * i;
    sc__shared_input(g, 1, t);
    sc__shared_input(g, 0, t + 290);
    log_at(1, t + 300, t + 400);
    log_at(0, t + 305, t + 400);
  }
  assert_false(suspect(1, &a, &hits, &chances));
  assert_true(hits <= 1);
}

/* A paint start is matched only once the other log covers it (TOL past
 * it): before that the pair waits, and a log that lost starts covers only
 * from those it still had. */
static void coverage(void **st) {
  (void)st;
  log_at(0, -1, 0);
  log_at(1, -1, 0);
  int a, hits, chances;
  for (int i = 0; i < 5; i++) {
    double t = 1000 + 1000 * i;
    sc__shared_input(g, 0, t);
    log_at(0, t + 5, t + 100);
  }
  /* user 1's log has not answered since 0: nothing judged */
  assert_false(suspect(1, &a, &hits, &chances));
  assert_int_equal(chances, 0);
  /* it answers now with the five paints: all five are hits */
  double p[5] = {1006, 2006, 3006, 4006, 5006};
  sc__shared_paints(g, 1, p, 5, 0, 5500);
  assert_true(suspect(1, &a, &hits, &chances));
  assert_int_equal(hits, 5);
  /* a lost answer: user 1 covered only from its oldest start kept (8006),
   * so only A's starts from TOL past it are matched: 6005, 7005 and 8005
   * fell in the gap */
  for (int i = 0; i < 4; i++) {
    double t = 6000 + 1000 * i;
    sc__shared_input(g, 0, t);
    log_at(0, t + 5, t + 100);
  }
  double q = 8006;
  sc__shared_paints(g, 1, &q, 1, 1, 9500);
  assert_true(suspect(1, &a, &hits, &chances));
  assert_int_equal(chances, 6);
  assert_int_equal(hits, 5); /* 9005: user 1's page did not paint */
}

/* Users added later (a ramp): the pairs counted so far stay. */
static void growing_keeps_counts(void **st) {
  (void)st;
  log_at(0, -1, 0);
  log_at(1, -1, 0);
  for (int i = 0; i < 5; i++) shared_gesture(0, 1, 1000 + 1000 * i, 8, 3);
  sc__shared_judge(g);
  assert_int_equal(sc__shared_grow(g, 9), 0);
  int a, hits, chances;
  int sus = suspect(1, &a, &hits, &chances);
  fprintf(stderr, "DEBUG shared clock: sus %d a %d hits %d chances %d\n", sus, a, hits, chances);
  assert_true(sus);
  assert_int_equal(a, 0);
  assert_int_equal(hits, 5);
  assert_false(suspect(8, &a, &hits, &chances));
  assert_int_equal(hits, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(one_screen_is_found, setup, teardown),
      cmocka_unit_test_setup_teardown(separate_screens_are_not, setup, teardown),
      cmocka_unit_test_setup_teardown(a_busy_user_gives_no_chance, setup, teardown),
      cmocka_unit_test_setup_teardown(chance_coincidences_are_not, setup, teardown),
      cmocka_unit_test_setup_teardown(a_page_still_answering_gives_no_chance, setup, teardown),
      cmocka_unit_test_setup_teardown(one_wall_clock_on_two_pages_is_not, setup, teardown),
      cmocka_unit_test_setup_teardown(a_shared_screen_with_a_clock_is_found, setup, teardown),
      cmocka_unit_test_setup_teardown(a_slow_page_learns_its_window, setup, teardown),
      cmocka_unit_test_setup_teardown(coverage, setup, teardown),
      cmocka_unit_test_setup_teardown(growing_keeps_counts, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
