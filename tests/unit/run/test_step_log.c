/* The paint log's rule (lib/rest: verdict.c, settle.c) on the scripted
 * world and its fake paint log (world.h): one capture per verdict, settled
 * only when no paint touched the regions across it; a verdict that fails on
 * a settled capture is not final while the application paints; a step that
 * expects nothing to change watches the response window; paints outside
 * the regions are ignored; a self-check mismatch or a blind log switches
 * the user to screenshot pairs. Every rule has its sabotage beside it. */
#include "world.h"

#define Q 150.0 /* the quiet time (the scenario's rest_quiet_ms) */

static int log_setup(void **st) {
  setup(st);
  g_s.rest_quiet_ms = Q;
  g_s.self_check_first = SC__SELF_CHECK_FIRST;
  g_s.self_check_every = SC__SELF_CHECK_EVERY;
  g_r.io.log_wait = f_log_wait;
  g_r.rest.log_verdicts = SC__SELF_CHECK_FIRST; /* no self-check but where a test asks */
  return 0;
}

/* min_pixels that frame K (a 22x22 block: 484 px) misses and L (24x24:
 * 576 px) meets */
static sc_expect g_big = {.kind = SC_EXPECT_CHANGED, .region = 0, .threshold = 0.1,
                          .min_pixels = 500};

/* One capture after the gesture, timed by the log: the app's paint 100 ms
 * after the click, quiet Q, one capture (CAP), the counter read around it.
 * No capture before the click either: the first at-rest capture is one
 * capture after Q of quiet. */
static void one_capture_per_verdict(void **st) {
  (void)st;
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_string_equal(res->rest, "paint-log");
  assert_null(res->rest_why);
  /* park (1), quiet window Q, answer (LOGRTT), one capture, counter read */
  assert_true(g_w.click_at[0] == 1000 + 1 + Q + LOGRTT + CAP + LOGRTT);
  assert_int_equal(res->captures, 1);
  assert_int_equal(g_captures, 2);
  /* the paint is dated exactly, to the page's clock */
  assert_true(res->first_paint_ms == 100);
  assert_true(res->last_paint_ms == 100);
  assert_int_equal(res->paints, 1);
  /* the wait ends Q after the paint; the capture's reply is the verdict */
  assert_true(res->verified_ms == 100 + Q + LOGRTT + CAP);
}

/* The early capture (rest_capture_ms D < Q): the verdict capture is taken
 * D after the app's last paint, and is the verdict once the log proved it
 * final (no paint for Q after that paint). Verified when that capture
 * was taken, proven at the end of the quiet time. */
#define D 40.0
static void an_early_capture_is_the_verdict_once_proven_final(void **st) {
  (void)st;
  g_s.rest_capture_ms = D;
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_int_equal(res->captures, 1);
  assert_true(res->verified_ms == 100 + D + LOGRTT + CAP);
  /* proven at the end of the quiet time after the paint, not before */
  assert_true(res->proven_ms >= 100 + Q);
  assert_true(res->proven_ms <= 100 + Q + 2 * LOGRTT);
}
/* A flash: K at 100, back to A 110 ms later (after the early capture had
 * been read settled, within Q). The early capture shows K and every expectation holds on it, but a
 * paint came within the quiet time: it is not final; the step judges the
 * screen the app came to rest on, A, and fails. Sabotage (in the other
 * direction): the same flash reverted only after Q is a screen that stood
 * for the quiet time, and the step passes on K. */
static void an_early_capture_painted_over_within_q_is_not_the_verdict(void **st) {
  (void)st;
  g_s.rest_capture_ms = D;
  g_steps[0].timeout_ms = 1000;
  g_w.after = "KA";
  g_w.delay = 100;
  g_w.gap = 110;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_non_null(strstr(res->reason, "unchanged"));
  assert_true(res->captures >= 2);
  assert_true(res->proven_ms < 0);
  g_w.gap = Q + 100; /* K stood for the quiet time before A came */
  g_r.capture_at[0] = 0; /* what the flash taught the step is not this half's */
  res = step(0, 2);
  assert_true(res->passed);
  assert_true(res->verified_ms < 100 + Q);
}
/* An early capture the application painted across (L lands while it is
 * on its way, after it sampled K): it has no counter read of its own, and
 * the answer that would prove it final counts from before it, so L makes
 * it not the verdict; the step passes on L, after L's quiet time. */
static void an_early_capture_painted_across_is_not_the_verdict(void **st) {
  (void)st;
  g_s.rest_capture_ms = D;
  g_w.after = "KL";
  g_w.delay = 100;
  g_w.gap = D + LOGRTT + CAP * 0.75;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_int_equal(res->captures, 2);
  assert_true(res->last_paint_ms == 100 + g_w.gap);
  assert_true(res->verified_ms > res->last_paint_ms + Q);
}

/* A premature frame under the early capture: K fails, L comes 100 ms
 * later: the step waits for L and passes on it, early again. */
static void an_early_premature_frame_is_judged_again(void **st) {
  (void)st;
  g_s.rest_capture_ms = D;
  g_steps[0].expect = &g_big;
  replan();
  g_w.after = "KL";
  g_w.delay = 100;
  g_w.gap = 100;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_int_equal(res->captures, 2);
  assert_true(res->last_paint_ms == 200);
  assert_true(res->verified_ms == 200 + D + LOGRTT + CAP);
  assert_true(res->proven_ms >= 200 + Q);
}

/* A zoom under the early capture: the notches' paints come 150 ms after
 * each (B, C, D); when the gesture is sent whole the log already holds B
 * and C, quiet for longer than the capture delay. Those paints all came
 * before the last notch was sent: the answer to it is still to come, so
 * the capture waits for a paint after it and judges D, never C (a frame
 * between notches, on which "changed" alone would hold). Sabotage: with
 * the last notch answered at once (delay 10) the same step takes its
 * verdict right after the gesture. */
static const sc_step_result *early_zoom(double delay) {
  g_s.rest_capture_ms = D;
  g_steps[0].action = (sc_action){.kind = SC_ACTION_WHEEL, .at = {50, 25}, .notches = -3};
  g_w.after = "BCD";
  g_w.delay = delay;
  return step(0, 1);
}
static void an_early_capture_waits_for_the_last_notchs_paint(void **st) {
  (void)st;
  const sc_step_result *res = early_zoom(150);
  double last_notch = g_w.notch_at[2] - g_w.notch_at[0];
  assert_true(res->passed);
  assert_int_equal(res->captures, 1);
  assert_true(res->last_paint_ms == last_notch + 150);
  assert_true(res->verified_ms >= last_notch + 150 + D);
}
static void sabotage_a_zoom_answered_at_once_is_captured_at_once(void **st) {
  (void)st;
  const sc_step_result *res = early_zoom(10);
  double last_notch = g_w.notch_at[2] - g_w.notch_at[0];
  assert_true(res->passed);
  assert_true(res->verified_ms < last_notch + 150);
}

/* The capture delay is learnt per step from the application's paint
 * rhythm: its answer comes in two paints 70 ms apart (K, then L; K alone
 * fails). The first cycle's early capture after K is judged and fails,
 * L comes, a second capture passes: the step learns that its answer's
 * pieces come 70 ms apart. The next cycle waits that long after K, sees L
 * first, and takes one capture. Sabotage: a step that never learns takes
 * two captures in every cycle (learning on another step does not help). */
static void the_capture_delay_is_learnt_per_step(void **st) {
  (void)st;
  g_s.rest_capture_ms = D;
  g_steps[0].expect = &g_big;
  g_steps[1].expect = &g_big;
  replan();
  g_w.delay = 50;
  g_w.gap = 70;
  g_w.after = "KL";
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_int_equal(res->captures, 2);
  assert_true(g_r.capture_at[0] >= 70);
  /* and it goes on waiting for the second piece, cycle after cycle (the
   * first piece of each differs from the screen before by under 500 px,
   * the second by more: the second is what passes). Sabotage: falling
   * back a quarter of the way after each final capture, the delay is
   * under the gap again within five cycles. */
  static const char *const pieces[] = {"MQ", "PL", "MQ", "PL", "MQ"};
  for (int c = 2; c <= 6; c++) {
    g_w.after = pieces[c - 2];
    res = step(0, c);
    assert_true(res->passed);
    assert_int_equal(res->captures, 1);
  }
  /* step 1 has learnt nothing: two captures */
  g_w.after = "KL";
  res = step(1, 2);
  assert_true(res->passed);
  assert_int_equal(res->captures, 2);
}

/* The self-check rate is the scenario's: none at all with first = every = 0
 * (one capture per verdict), a second capture with first = 1. */
static void the_self_check_rate_is_the_scenarios(void **st) {
  (void)st;
  g_r.rest.log_verdicts = 0;
  g_s.self_check_first = 0;
  g_s.self_check_every = 0;
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_int_equal(res->captures, 1);
  g_r.rest.log_verdicts = 0;
  g_s.self_check_first = 1;
  g_w.after = "L";
  res = step(1, 1);
  assert_true(res->passed);
  assert_int_equal(res->captures, 2);
}

/* A premature frame: K fails, L (400 ms later, after Q of quiet) holds. The
 * settled capture of K is not final while the app still paints: the step
 * waits for the next paint and judges again. Sabotage: with no second
 * paint the step fails on K (so the pass really is L's). */
static void a_premature_frame_is_judged_again_on_the_next_paint(void **st) {
  (void)st;
  g_steps[0].expect = &g_big;
  replan();
  g_w.after = "KL";
  g_w.delay = 100;
  g_w.gap = 400;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_int_equal(res->captures, 2);
  assert_true(res->first_paint_ms == 100);
  assert_true(res->last_paint_ms == 500);
  assert_true(res->verified_ms == 500 + Q + LOGRTT + CAP);
  g_w.after = "K"; /* the screen shows L: K differs by 92 px only */
  res = step(0, 2);
  assert_false(res->passed);
  assert_non_null(strstr(res->reason, "r changed"));
}

/* Flash and revert within Q: K at 100, back to A at 150. The log waits Q
 * after the last paint and judges the screen the app came to rest on: the
 * expected change is gone, the step fails (never on the flash). */
static void a_flash_reverted_within_q_does_not_pass(void **st) {
  (void)st;
  g_steps[0].timeout_ms = 1000;
  g_w.after = "KA";
  g_w.delay = 100;
  g_w.gap = 50;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_non_null(strstr(res->reason, "unchanged"));
  assert_int_equal(res->paints, 2);
}

/* Paints outside the step's regions are ignored: the app repaints the right
 * half (a, A, a, ... every 30 ms) all along, the step watches the left
 * half only. It comes to rest and passes on the click's K. Sabotage: the
 * same paints logged over the whole screen never let it rest. */
static sc_region g_halves[] = {{"left", {0, 0, 50, H}}};
static int run_with_right_half_busy(int whole) {
  g_s.regions = g_halves;
  replan();
  g_steps[0].timeout_ms = 1500;
  double click = 1000 + 1 + Q + LOGRTT + CAP + LOGRTT; /* as in one_capture_per_verdict */
  for (int i = 0; i < 200; i++) {
    double at = g_t + 30.0 * i;
    char id = i % 2 ? 'A' : 'a';
    if (at > click + 20) id = id == 'a' ? 'k' : 'K'; /* over the click's K */
    g_w.ch[g_w.nch++] = (change){.at = at, .id = id,
                                 .r = whole ? (sc_rect){0, 0, 0, 0} : (sc_rect){60, 10, 8, 8}};
  }
  /* the click's own change: K over the left half */
  g_w.ch[g_w.nch++] = (change){.at = click + 20, .id = 'K', .r = {10, 10, 22, 22}};
  g_w.after = NULL;
  const sc_step_result *res = step(0, 1);
  if (!whole) assert_true(g_w.click_at[0] == click);
  return res->passed;
}
static void paints_outside_the_regions_are_ignored(void **st) {
  (void)st;
  assert_true(run_with_right_half_busy(0));
  const sc_step_result *res = g_rr.results[g_rr.nresults - 1];
  assert_int_equal(res->paints, 1);
  assert_true(res->first_paint_ms == 20);
}
static void sabotage_the_same_paints_over_everything_never_rest(void **st) {
  (void)st;
  assert_false(run_with_right_half_busy(1));
}

/* The counter moved during the capture: K at 100, L at 275 while the
 * capture asked at 251 is on its way (it shows K). That capture is not
 * settled; the verdict is taken on L, Q after it. Sabotage: L after the
 * capture's reply would have left K's capture settled (verified earlier). */
static void a_capture_the_log_moved_across_is_not_settled(void **st) {
  (void)st;
  g_w.after = "KL";
  g_w.delay = 100;
  g_w.gap = 175;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_int_equal(res->captures, 2);
  assert_true(res->verified_ms >= 275 + Q);
  assert_true(res->last_paint_ms == 275);
  g_w.gap = 400; /* from L: K, then L again long after */
  res = step(0, 2);
  assert_true(res->passed);
  assert_int_equal(res->captures, 1);
  assert_true(res->verified_ms < 275 + Q);
}

/* The self-check: a change the log does not see (its blind spot), after a
 * verdict it gave, shows on the second capture with no paint in between:
 * the user goes on by screenshot pairs, the step included, and says why.
 * Sabotage: the same change seen by the log is a late paint, not a
 * mismatch: the log stays on. */
static const sc_step_result *run_with_unseen_change(int unseen) {
  g_r.rest.log_verdicts = 0;
  g_w.after = "K";
  g_w.delay = 100;
  double click = 1000 + 1 + Q + LOGRTT + CAP + LOGRTT;
  /* after the verdict's capture was taken (it sees the screen at +20 of
   * its 40 ms), before the self-check's */
  g_w.ch[g_w.nch++] = (change){.at = click + 100 + Q + 45, .id = 'L', .unseen = unseen};
  const sc_step_result *res = step(0, 1);
  assert_true(g_w.click_at[0] == click);
  return res;
}
static void a_self_check_mismatch_switches_to_pairs(void **st) {
  (void)st;
  g_no_witness = 1; /* the self-check's own case: nothing else saw the change */
  const sc_step_result *res = run_with_unseen_change(1);
  assert_true(res->passed);
  assert_string_equal(res->rest, "pairs");
  assert_non_null(strstr(res->rest_why, "self-check"));
  assert_true(g_r.rest.log_off);
  g_w.after = "M";
  res = step(1, 1);
  assert_true(res->passed);
  assert_string_equal(res->rest, "pairs");
  assert_non_null(res->rest_why);
}
static void a_late_seen_paint_is_no_mismatch(void **st) {
  (void)st;
  const sc_step_result *res = run_with_unseen_change(0);
  assert_true(res->passed);
  assert_string_equal(res->rest, "paint-log");
  assert_false(g_r.rest.log_off);
}

/* A blind log (the page has a WebGL canvas over the guest, say): the user
 * works by screenshot pairs from the first answer on and says why. */
static void a_blind_log_falls_back_to_pairs(void **st) {
  (void)st;
  g_log_blind = 1;
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_string_equal(res->rest, "pairs");
  assert_string_equal(res->rest_why, "a WebGL canvas on or over the guest");
  assert_true(res->captures >= 2); /* two identical in a row */
  assert_int_equal(g_log_asks, 1);
}

/* A step that expects nothing to change is verified only after the
 * response window: the app changes the region 150 ms after the click, the
 * step expecting it unchanged fails. Sabotage: with no window it passes on
 * the first settled capture, before the app answered (the false pass the
 * window prevents). */
static sc_expect g_unchanged = {.kind = SC_EXPECT_UNCHANGED, .region = 0, .threshold = 0.1,
                                .max_pixels = 0};
static const sc_step_result *late_change_unchanged(double window, double delay) {
  g_steps[0].expect = &g_unchanged;
  g_steps[0].timeout_ms = 2000;
  replan();
  g_s.response_ms = window;
  g_w.after = "K";
  g_w.delay = delay;
  return step(0, 1);
}
static void a_late_change_fails_a_no_change_step(void **st) {
  (void)st;
  const sc_step_result *res = late_change_unchanged(1000, 150);
  assert_false(res->passed);
  assert_true(res->first_paint_ms == 150);
}
static void a_late_change_after_the_window_is_not_judged(void **st) {
  (void)st;
  /* nothing in the window: verified at its end, on one capture */
  const sc_step_result *res = late_change_unchanged(1000, 1500);
  assert_true(res->passed);
  assert_true(res->verified_ms >= 1000);
  assert_int_equal(res->paints, 0);
}
static void sabotage_no_window_passes_before_the_app_answers(void **st) {
  (void)st;
  const sc_step_result *res = late_change_unchanged(0, 150);
  assert_true(res->passed);
  assert_true(res->verified_ms < 150);
}

/* The next step starts from the last verdict's capture when the log shows
 * no paint over its regions since: no screenshot before its gesture.
 * Sabotage: a paint during the settle wait costs one. */
static void a_step_starts_from_the_last_verdict_without_a_screenshot(void **st) {
  (void)st;
  g_w.after = "K";
  g_w.delay = 10;
  assert_true(step(0, 1)->passed);
  int caps = g_captures;
  g_w.after = "L";
  const sc_step_result *res = step(1, 1);
  assert_true(res->passed);
  assert_int_equal(g_captures - caps, res->captures);
  assert_int_equal(res->captures, 1);
  g_w.after = "M";
  sc__runner_step_once(&g_r, &g_steps[0], 0, 2);
  g_w.ch[g_w.nch++] = (change){.at = g_t + 100, .id = 'Z'};
  caps = g_captures;
  run_loop(1e12);
  res = g_rr.results[g_rr.nresults - 1];
  assert_true(res->passed);
  assert_int_equal(g_captures - caps, res->captures + 1);
}

/* Two regions, a step on each: the first step's verdict capture also
 * covers the second's region (run.c, plan_captures), so the second starts
 * from it with no screenshot. Something paints the second's region while
 * that capture is on its way (after it was sampled, before its reply):
 * the second step must not take the capture as its "before" (it is proven
 * from before the capture, not after it), so its ignored click fails.
 * Sabotage: proven from after the capture (the position it had before),
 * the stale seed makes the unrelated paint look like the click's answer. */
static sc_region g_two[] = {{"left", {0, 0, 50, H}}, {"right", {50, 0, 50, H}}};
static sc_expect g_on_left = {.kind = SC_EXPECT_CHANGED, .region = 0, .threshold = 0.1,
                           .min_pixels = 1};
static sc_expect g_on_right = {.kind = SC_EXPECT_CHANGED, .region = 1, .threshold = 0.1,
                            .min_pixels = 1};
static int g_plant; /* captures until the planted paint; -1 none */
static int planting_capture(void *ctx, sc_rect clip, int fast, double timeout_ms,
                            sc__io_captured cb, void *ud) {
  if (g_plant >= 0 && g_plant-- == 0) /* sampled at +CAP/2; this lands before the reply */
    g_w.ch[g_w.nch++] = (change){.at = g_t + CAP * 0.75, .id = 'k', .r = {50, 0, 50, H}};
  return f_capture(ctx, clip, fast, timeout_ms, cb, ud);
}

static void halves(void) {
  g_s.regions = g_two;
  g_s.nregions = 2;
  g_steps[0].expect = &g_on_left;
  g_steps[1].expect = &g_on_right;
  g_r.io.capture = planting_capture;
  replan();
}

static void the_verdict_capture_covers_the_next_step(void **st) {
  (void)st;
  halves();
  g_plant = -1;
  g_w.after = "K"; /* the left block grows */
  g_w.delay = 10;
  assert_true(step(0, 1)->passed);
  int caps = g_captures;
  g_w.after = "k"; /* and now the right one */
  const sc_step_result *res = step(1, 1);
  assert_true(res->passed);
  assert_int_equal(g_captures - caps, res->captures); /* nothing before its click */
}

static void a_paint_during_the_covering_capture_is_not_missed(void **st) {
  (void)st;
  halves();
  g_w.after = "K";
  g_w.delay = 10;
  g_plant = 1; /* the first step's verdict capture (after its at-rest one) */
  assert_true(step(0, 1)->passed);
  g_w.after = NULL; /* the app ignores the second click */
  g_steps[1].timeout_ms = 1000;
  const sc_step_result *res = step(1, 1);
  assert_false(res->passed);
  assert_non_null(strstr(res->reason, "unchanged after"));
}

/* The covering is learnt: when something paints the next step's region
 * after every covering capture (the park un-highlighting what the pointer
 * left, on Xpra), the next step must capture anyway and the wider capture
 * was paid for nothing; after two such cycles the first step captures its
 * own region only. Sabotage: with no such paint the covering goes on (and
 * the second step takes no capture before its click). */
static sc_rect g_clip_last;
static int clip_capture(void *ctx, sc_rect clip, int fast, double timeout_ms,
                        sc__io_captured cb, void *ud) {
  g_clip_last = clip;
  return f_capture(ctx, clip, fast, timeout_ms, cb, ud);
}
static int covering_after_cycles(int park_paints, int *pre_caps) {
  halves();
  g_r.io.capture = clip_capture;
  const char *left = "KLMN", *right = "klmn";
  int width = 0;
  for (int c = 0; c < 4; c++) {
    char a[2] = {left[c], 0}, b[2] = {right[c], 0};
    g_w.after = a;
    g_w.delay = 10;
    assert_true(step(0, c + 1)->passed);
    width = g_clip_last.w;
    if (park_paints) /* the same pixels, painted again over the right half */
      g_w.ch[g_w.nch++] = (change){.at = g_t, .id = left[c], .r = {50, 0, 50, H}};
    int caps = g_captures;
    g_w.after = b;
    const sc_step_result *res = step(1, c + 1);
    assert_true(res->passed);
    *pre_caps = g_captures - caps - res->captures;
  }
  return width; /* of the first step's verdict capture in the last cycle */
}
static void a_covering_capture_the_next_step_cannot_use_stops(void **st) {
  (void)st;
  int pre = 0;
  assert_int_equal(covering_after_cycles(1, &pre), 50);
  assert_int_equal(pre, 1);
}
static void sabotage_a_covering_capture_that_is_used_goes_on(void **st) {
  (void)st;
  int pre = 0;
  assert_int_equal(covering_after_cycles(0, &pre), 100);
  assert_int_equal(pre, 0);
}

/* An answer drawn in pieces over two regions (JOSM: the map, then the
 * panels 60-120 ms later; through Xpra up to 400 ms): the left half at
 * 10 ms after the click, the right half `gap` later, more than the capture
 * delay after it. A step expecting both to change is not captured early
 * before the answer reached both: one capture, no delay to learn.
 * Sabotage: a page that ignores the must regions is captured between the
 * pieces, fails on it and takes a second capture. */
static double g_piece_gap;
static int pieces_click(void *ctx, sc_point at, sc__io_done cb, void *ud) {
  g_w.ch[g_w.nch++] = (change){.at = g_t + 10, .id = 'K', .r = {0, 0, 50, H}};
  g_w.ch[g_w.nch++] = (change){.at = g_t + 10 + g_piece_gap, .id = 'k', .r = {50, 0, 50, H}};
  return f_click(ctx, at, cb, ud);
}
static const sc_step_result *two_pieces(int must_off) {
  static sc_expect both[2];
  halves();
  both[0] = g_on_left;
  both[1] = g_on_right;
  g_steps[0].expect = both;
  g_steps[0].nexpect = 2;
  replan();
  g_s.rest_capture_ms = D;
  g_r.io.capture = f_capture;
  g_r.io.click = pieces_click;
  g_piece_gap = 100;
  g_log_must_off = must_off;
  g_w.after = NULL;
  return step(0, 1);
}
static void an_answer_in_pieces_is_captured_once_it_reached_every_region(void **st) {
  (void)st;
  const sc_step_result *res = two_pieces(0);
  assert_true(res->passed);
  assert_int_equal(res->captures, 1);
  assert_true(res->first_paint_ms == 10);
  assert_true(res->last_paint_ms == 110);
  assert_true(res->verified_ms == 110 + D + LOGRTT + CAP);
  assert_true(g_r.capture_at[0] == 0); /* nothing to learn */
}
static void sabotage_a_log_ignoring_the_regions_captures_between_pieces(void **st) {
  (void)st;
  const sc_step_result *res = two_pieces(1);
  assert_true(res->passed);
  assert_int_equal(res->captures, 2);
  assert_true(g_r.capture_at[0] > 0);
}

/* The Xpra pattern: the park before the second step repaints the left
 * half (the building the pointer leaves loses its hover look), where the
 * second step only looks for a colour, judged on its own capture. Its
 * at-rest capture before the click covers the regions whose verdict
 * compares with it (the right half, "changed"): the first step's verdict
 * capture, which covered it, is that capture, and no screenshot is taken
 * before the click. Sabotage: the second step also expects the left half
 * to change, and the park's paint there costs a capture before it. */
static int before_the_second_click(int left_changed) {
  static sc_expect two[2];
  halves();
  two[0] = g_on_right;
  two[1] = left_changed ? g_on_left
                        : (sc_expect){.kind = SC_EXPECT_COLOR, .region = 0, .rgb = 0xffffff,
                                      .min_pixels = 1};
  g_steps[1].expect = two;
  g_steps[1].nexpect = 2;
  replan();
  g_r.io.capture = f_capture;
  g_w.after = "K";
  g_w.delay = 10;
  assert_true(step(0, 1)->passed);
  g_w.ch[g_w.nch++] = (change){.at = g_t, .id = 'K', .r = {0, 0, 50, H}}; /* the park */
  int caps = g_captures;
  g_w.after = "l"; /* a bigger left block and the right one */
  const sc_step_result *res = step(1, 1);
  assert_true(res->passed);
  return g_captures - caps - res->captures;
}
static void a_region_judged_on_its_own_capture_is_not_captured_before(void **st) {
  (void)st;
  assert_int_equal(before_the_second_click(0), 0);
}
static void sabotage_a_region_that_must_change_is_captured_before(void **st) {
  (void)st;
  assert_int_equal(before_the_second_click(1), 1);
}

/* A zoom: no capture between the notches (the log dates the first one),
 * one capture after the last. */
static void a_zoom_takes_one_capture_and_dates_its_first_notch(void **st) {
  (void)st;
  g_steps[0].action = (sc_action){.kind = SC_ACTION_WHEEL, .at = {50, 25}, .notches = -3};
  g_w.after = "BCD";
  g_w.delay = 10;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_int_equal(res->captures, 1);
  assert_int_equal(res->paints, 3);
  assert_true(res->first_paint_ms == 10);
  assert_true(res->last_paint_ms == g_w.notch_at[2] - g_w.notch_at[0] + 10);
  assert_true(res->verified_ms > res->gesture_ms + Q);
}

/* Nothing happens: the log waits in the page until the timeout (no
 * polling), one capture then, the reason as of it. */
static void nothing_happens_times_out_with_one_capture(void **st) {
  (void)st;
  g_steps[0].timeout_ms = 500;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_non_null(strstr(res->reason, "unchanged"));
  assert_int_equal(res->captures, 1);
  assert_int_equal(res->paints, 0);
  assert_true(res->first_paint_ms == -1);
}

/* A page whose blind spot changes the region by itself every 100 ms (a
 * WebGL spinner, say) and ignores the click. Falling back to pairs is not
 * enough when two captures fit between two changes: on such a page settled
 * also means unchanged for the quiet time, so it never rests and the step
 * fails. Sabotage: the log trusted although blind (the changes unseen, no
 * fallback, no self-check due) rests at once and passes on the next
 * toggle, a change the click did not make. */
static const sc_step_result *spinning(int blind) {
  g_log_blind = blind;
  g_steps[0].timeout_ms = 2000;
  for (int i = 1; i < 60; i++)
    g_w.ch[g_w.nch++] = (change){.at = g_t + 100.0 * i, .id = i % 2 ? 'B' : 'A', .unseen = 1};
  g_w.after = NULL;
  return step(0, 1);
}
static void a_blind_page_changing_by_itself_never_rests(void **st) {
  (void)st;
  const sc_step_result *res = spinning(1);
  assert_false(res->passed);
  assert_string_equal(res->rest, "pairs");
  assert_non_null(strstr(res->reason, "not at rest"));
}
static void sabotage_a_trusted_blind_log_passes_on_a_change_nobody_made(void **st) {
  (void)st;
  g_no_witness = 1;
  const sc_step_result *res = spinning(0);
  assert_true(res->passed);
  assert_string_equal(res->rest, "paint-log");
}

/* The same page with a log that does not know it is blind (CSS, SVG, a
 * form control changing the region): the compositor witness sees frames
 * no entry explains, the step falls back to pairs for itself, says why,
 * and fails as on a known blind spot. Sabotage: without the witness it
 * passes on the log, on a change the click did not make. */
static void a_change_the_log_does_not_see_falls_back_to_pairs(void **st) {
  (void)st;
  const sc_step_result *res = spinning(0);
  assert_false(res->passed);
  assert_string_equal(res->rest, "pairs");
  assert_string_equal(res->rest_why, SC__WITNESS_WHY);
  assert_non_null(strstr(res->reason, "not at rest"));
  assert_false(g_r.rest.log_off); /* for this step: the next one tries the log again */
}
static void sabotage_without_the_witness_the_unseen_change_passes(void **st) {
  (void)st;
  g_no_witness = 1;
  g_r.rest.log_verdicts = 1; /* no self-check due either */
  const sc_step_result *res = spinning(0);
  assert_true(res->passed);
  assert_string_equal(res->rest, "paint-log");
}
/* One unseen change before a step, then none: only that step is proven by
 * pairs (and passes, the screen being at rest), the next one is the log's
 * again. */
static void a_witness_fallback_lasts_one_step(void **st) {
  (void)st;
  g_w.ch[g_w.nch++] = (change){.at = g_t + 1, .id = 'B', .unseen = 1};
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_string_equal(res->rest, "pairs");
  assert_string_equal(res->rest_why, SC__WITNESS_WHY);
  g_w.after = "L";
  res = step(1, 1);
  assert_true(res->passed);
  assert_string_equal(res->rest, "paint-log");
  assert_null(res->rest_why);
}

/* A late answer after an identical repaint: the click is answered by a
 * repaint of the same pixels at +60 ms and by the real change at +400 ms;
 * a step expecting the region unchanged watches the whole response window
 * from its last input, whatever it painted inside it, and fails (it
 * passed at 210 ms, the quiet time after the repaint). Sabotage: a window
 * that ends well before the late answer passes (the change came after the
 * time the step was given). */
static const sc_step_result *repaint_then_change(double window, double late) {
  g_steps[0].expect = &g_unchanged;
  g_steps[0].timeout_ms = 2000;
  replan();
  g_s.response_ms = window;
  g_w.after = "AK"; /* A: the screen as it was */
  g_w.delay = 60;
  g_w.gap = late - 60;
  return step(0, 1);
}
static void a_late_answer_after_an_identical_repaint_fails(void **st) {
  (void)st;
  const sc_step_result *res = repaint_then_change(1000, 400);
  assert_false(res->passed);
  assert_non_null(strstr(res->reason, "differs"));
  assert_true(res->last_paint_ms == 400);
}
static void sabotage_a_window_shorter_than_the_late_answer_passes(void **st) {
  (void)st;
  const sc_step_result *res = repaint_then_change(300, 700);
  assert_true(res->passed);
  assert_true(res->verified_ms >= 300);
  assert_true(res->verified_ms < 700);
}

/* A wait without a seed (the first step: no capture before it) counts from
 * the log's position when it starts: a page that made more entries than
 * the ring holds long before is at rest now. (Counted from 0, every check
 * would be "lost", a paint now, and the step would never rest: the
 * sabotage below asks the fake page so.) */
static void many_old_paints(void) {
  for (int i = 0; i < SC__LOG_RING + 44; i++)
    g_w.ch[g_w.nch++] = (change){.at = 100 + i, .id = i % 2 ? 'B' : 'A'};
}
static void a_wait_without_a_seed_counts_from_now(void **st) {
  (void)st;
  many_old_paints();
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_string_equal(res->rest, "paint-log");
  assert_true(res->verified_ms < 100 + 2 * Q);
}
static void sabotage_a_wait_from_position_0_is_lost_at_every_check(void **st) {
  (void)st;
  many_old_paints();
  sc__log_ask a = {.r = {0, 0, W, H}, .after = 0, .doc = 1};
  sc__log_reply rep = log_at(&g_w, &a, g_t);
  assert_true(rep.lost);
  assert_true(rep.n > 0 && rep.last_ms == g_t); /* a paint now, at every check */
}

/* "stable" under the log: a capture proven settled and final shows the
 * region unchanged for the quiet time, so a step that expects the region
 * changed and stable passes then, not at its timeout (it waited the whole
 * timeout for a second capture that showed the same pixels). Sabotage: a
 * region the application keeps painting (a new frame every 60 ms) is never
 * stable and fails. */
static sc_expect g_changed_stable[2] = {
    {.kind = SC_EXPECT_CHANGED, .region = 0, .threshold = 0.1, .min_pixels = 1},
    {.kind = SC_EXPECT_STABLE, .region = 0, .threshold = 0.1}};
static const sc_step_result *changed_and_stable(const char *after, double timeout) {
  g_steps[0].expect = g_changed_stable;
  g_steps[0].nexpect = 2;
  g_steps[0].timeout_ms = timeout;
  replan();
  g_w.after = after;
  g_w.delay = 100;
  g_w.gap = 60;
  return step(0, 1);
}
static void stable_is_proven_by_the_log(void **st) {
  (void)st;
  const sc_step_result *res = changed_and_stable("K", 8000);
  assert_true(res->passed);
  assert_string_equal(res->rest, "paint-log");
  assert_true(res->verified_ms < 100 + Q + 4 * CAP);
  assert_non_null(strstr(res->reason, "r unchanged for 150 ms (paint log)"));
}
static void sabotage_a_region_painted_on_is_never_stable(void **st) {
  (void)st;
  const sc_step_result *res = changed_and_stable("KLKLKLKLKLKLKLKLKLKLKLKLKLKLKLKL", 1500);
  assert_false(res->passed);
}

int main(void) {
#define T(f) cmocka_unit_test_setup_teardown(f, log_setup, teardown)
  const struct CMUnitTest tests[] = {
      T(one_capture_per_verdict),
      T(a_premature_frame_is_judged_again_on_the_next_paint),
      T(an_early_capture_is_the_verdict_once_proven_final),
      T(an_early_capture_painted_over_within_q_is_not_the_verdict),
      T(an_early_premature_frame_is_judged_again),
      T(an_early_capture_painted_across_is_not_the_verdict),
      T(the_self_check_rate_is_the_scenarios),
      T(the_capture_delay_is_learnt_per_step),
      T(an_early_capture_waits_for_the_last_notchs_paint),
      T(sabotage_a_zoom_answered_at_once_is_captured_at_once),
      T(a_flash_reverted_within_q_does_not_pass),
      T(paints_outside_the_regions_are_ignored),
      T(sabotage_the_same_paints_over_everything_never_rest),
      T(a_capture_the_log_moved_across_is_not_settled),
      T(a_self_check_mismatch_switches_to_pairs),
      T(a_late_seen_paint_is_no_mismatch),
      T(a_blind_log_falls_back_to_pairs),
      T(a_late_change_fails_a_no_change_step),
      T(a_late_change_after_the_window_is_not_judged),
      T(sabotage_no_window_passes_before_the_app_answers),
      T(a_step_starts_from_the_last_verdict_without_a_screenshot),
      T(the_verdict_capture_covers_the_next_step),
      T(a_paint_during_the_covering_capture_is_not_missed),
      T(a_covering_capture_the_next_step_cannot_use_stops),
      T(sabotage_a_covering_capture_that_is_used_goes_on),
      T(an_answer_in_pieces_is_captured_once_it_reached_every_region),
      T(sabotage_a_log_ignoring_the_regions_captures_between_pieces),
      T(a_region_judged_on_its_own_capture_is_not_captured_before),
      T(sabotage_a_region_that_must_change_is_captured_before),
      T(a_zoom_takes_one_capture_and_dates_its_first_notch),
      T(nothing_happens_times_out_with_one_capture),
      T(a_blind_page_changing_by_itself_never_rests),
      T(sabotage_a_trusted_blind_log_passes_on_a_change_nobody_made),
      T(a_change_the_log_does_not_see_falls_back_to_pairs),
      T(sabotage_without_the_witness_the_unseen_change_passes),
      T(a_witness_fallback_lasts_one_step),
      T(a_late_answer_after_an_identical_repaint_fails),
      T(sabotage_a_window_shorter_than_the_late_answer_passes),
      T(a_wait_without_a_seed_counts_from_now),
      T(sabotage_a_wait_from_position_0_is_lost_at_every_check),
      T(stable_is_proven_by_the_log),
      T(sabotage_a_region_painted_on_is_never_stable),
  };
#undef T
  return cmocka_run_group_tests(tests, NULL, NULL);
}
