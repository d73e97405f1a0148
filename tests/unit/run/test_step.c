/* The runner's state machine on a scripted screen and a fake clock: exact
 * timings, and the rules that keep a verdict honest (never on a frame
 * between changes, wait for two identical captures, time out with the
 * reason, no accidental double click, capture between wheel notches), and
 * several users interleaved on one fake loop. No browser: the runner's page
 * I/O is replaced by a scripted world whose replies arrive as events on a
 * fake clock; every capture costs CAP ms and sees the screen as it was
 * half-way through. */
#include "world.h"

static void change_is_timed_from_the_first_input(void **st) {
  (void)st;
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  /* park, then two identical at-rest captures, then the click */
  assert_int_equal(g_w.moves, 1);
  assert_true(g_w.click_at[0] == 1000 + 1 + 2 * CAP);
  assert_true(res->gesture_ms == 3);
  /* captures end at +43, +83 (same: at rest, so the next waits 1/8 of the
   * 40 ms it has been at rest), +128 (sees +108: changed), +168 (same:
   * stable) */
  assert_true(res->first_change_ms == 128);
  assert_true(res->verified_ms == 168);
  assert_int_equal(res->captures, 4);
  assert_true(res->idle_ms == 5);
  assert_true(res->capture_ms == CAP);
  assert_true(res->passed);
  /* no later check names "first": its snapshot is not kept */
  assert_null(sc__runner_snap_get(&g_r, "first"));
}

static void no_verdict_between_changes(void **st) {
  (void)st;
  /* B, C, D, E follow each other every 40 ms, then the screen rests on E. */
  g_w.after = "BCDE";
  g_w.delay = 50;
  g_w.gap = 40;
  const sc_step_result *res = step(0, 1);
  /* "changed" holds from B on (+83), but no two captures agree until E:
   * E shows from +170; captures end +203 (E), +243 (E). */
  assert_true(res->first_change_ms == 83);
  assert_true(res->verified_ms == 243);
  assert_true(res->passed);
}

static void nothing_happens_times_out_with_the_reason(void **st) {
  (void)st;
  g_steps[0].timeout_ms = 500;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_true(res->verified_ms == -1);
  assert_true(res->first_change_ms == -1);
  /* Back-to-back polling would take 13 captures (the 13th ends at 523).
   * At rest from +43 on, each next poll waits 1/8 of the rest so far:
   * captures end at 43, 83, 128, 178.6, 235.6, 299.7, 371.7, 452.8, and the
   * last waits only until the timeout (500) and ends at 540. */
  assert_int_equal(res->captures, 9);
  assert_string_equal(res->reason, "r unchanged after 540 ms");
  assert_true(res->idle_ms > 176.9 && res->idle_ms < 177.1);
}

static void restless_screen_fails_before_the_gesture(void **st) {
  (void)st;
  /* The screen changes every 30 ms forever: never at rest, never clicked. */
  for (int i = 0; i < 30; i++) g_w.ch[g_w.nch++] = (change){.at = 1000 + 30.0 * i, .id = (char)('B' + i % 20)};
  g_steps[0].timeout_ms = 400;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_int_equal(g_w.nclick, 0);
  assert_non_null(strstr(res->reason, "not at rest before the gesture"));
  assert_true(res->started_unix_ms > 1e12); /* failed before its gesture, still stamped */
}

/* A browser frozen mid-step (SIGSTOP) for longer than SC__STALL_MS, which
 * answers again before the capture's own deadline: the step's time ran out
 * while nobody watched the screen. That is the infrastructure's failure
 * (an error: the run is VOID), never "unchanged" or "not settled". */
static void a_frozen_browser_is_not_the_apps_failure(void **st) {
  (void)st;
  g_freeze_from = 1300;
  g_freeze_until = 3800;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_non_null(strstr(res->reason, "browser did not answer for "));
  assert_non_null(strstr(res->reason, "infrastructure stall"));
  assert_null(strstr(res->reason, "unchanged"));
  assert_non_null(g_rr.error); /* the user ends with an error, not a verdict */
  assert_int_equal(g_r.rc, SC_ETIMEDOUT);
}

/* The same before the gesture: a screen that never rests, watched through
 * a stall, is not "not at rest" (the app's) but the browser's. */
static void a_frozen_browser_before_the_gesture_is_not_a_fail(void **st) {
  (void)st;
  for (int i = 0; i < 30; i++) g_w.ch[g_w.nch++] = (change){.at = 1000 + 30.0 * i, .id = (char)('B' + i % 20)};
  g_steps[0].timeout_ms = 400;
  g_freeze_from = 1050;
  g_freeze_until = 3200;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_null(strstr(res->reason, "not at rest"));
  assert_non_null(strstr(res->reason, "browser did not answer for "));
  assert_non_null(g_rr.error);
}

/* Frozen past the capture's own deadline: the capture fails (an error
 * naming the timeout), again not a verdict. */
static void a_capture_that_times_out_is_an_error(void **st) {
  (void)st;
  g_freeze_from = 1300;
  g_freeze_until = 30000;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_non_null(strstr(res->reason, "timed out"));
  assert_non_null(g_rr.error);
}

/* The browser killed in the middle of a step's polling: the step is cut off
 * by the fault, not judged, and records the time it really ran (the kill
 * came 1500 ms after the step began; the timeout was 8000 ms), so no report
 * gives it the timeout it never waited. */
static void a_step_cut_off_by_a_fault_records_what_it_ran(void **st) {
  (void)st;
  g_steps[0].timeout_ms = 8000;
  g_closed_at = 2500;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_true(res->fault);
  assert_non_null(strstr(res->reason, "connection closed"));
  /* from its gesture (after the at-rest capture before it) until the
   * failed capture that told of the kill */
  if (!(res->ran_ms > 1000 && res->ran_ms < 2000))
    fail_msg("ran_ms %.1f, want about 1500 (the kill), not the 8000 ms timeout", res->ran_ms);
  assert_non_null(g_rr.error);
  assert_int_equal(g_rr.error_code, SC_ECLOSED);
  /* a step that ended in a verdict is no fault */
  g_closed_at = 0;
  g_steps[0].timeout_ms = 500;
  res = step(0, 1);
  assert_false(res->fault);
  assert_true(res->ran_ms == 0);
}

/* What is not a stall stays a verdict: a slow answer (below SC__STALL_MS)
 * with nothing happening fails as the application's; a stall after which
 * the expected change is seen and verified passes. */
static void slow_is_not_stalled_and_a_stall_does_not_hide_a_pass(void **st) {
  (void)st;
  g_freeze_from = 1300;
  g_freeze_until = 1300 + SC__STALL_MS - 200;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_non_null(strstr(res->reason, "r unchanged after"));
  assert_null(g_rr.error);
  g_w.after = "K";
  g_w.delay = 100;
  g_freeze_from = g_t + 100; /* the first polls after the click */
  g_freeze_until = g_t + 100 + 3000;
  g_steps[1].timeout_ms = 8000;
  res = step(1, 1);
  assert_true(g_r.io_slowest >= SC__STALL_MS); /* the stall did happen in this step */
  assert_true(res->passed);
  assert_null(g_rr.error);
}

static void same_point_twice_is_not_a_double_click(void **st) {
  (void)st;
  g_w.after = "K";
  g_w.delay = 10;
  step(0, 1);
  g_w.after = "A"; /* the second click turns it back */
  const sc_step_result *res = step(1, 1);
  assert_int_equal(g_w.nclick, 2);
  assert_true(g_w.click_at[1] - g_w.click_end[0] > 500);
  if (!res->passed) fail_msg("%s", res->reason);
}

static void first_notch_is_seen_during_the_gesture(void **st) {
  (void)st;
  g_steps[0].action = (sc_action){.kind = SC_ACTION_WHEEL, .at = {50, 25}, .notches = -3};
  g_w.after = "BCD";
  g_w.delay = 10;
  const sc_step_result *res = step(0, 1);
  assert_int_equal(g_w.nnotch, 3);
  /* notches 250 ms apart: the gesture spans both pauses */
  assert_true(g_w.notch_at[1] - g_w.notch_at[0] >= 250);
  assert_true(g_w.notch_at[2] - g_w.notch_at[1] >= 250);
  assert_true(res->gesture_ms >= 500);
  /* the pause after notch 1 holds a capture that sees B */
  assert_true(res->first_change_ms > 0 && res->first_change_ms < res->gesture_ms);
  /* the verdict comes only after the last notch, on D twice */
  assert_true(res->verified_ms > res->gesture_ms);
  assert_true(res->passed);
}

static void times_are_reply_times_not_decode_times(void **st) {
  (void)st;
  g_decode_ms = 20; /* decoding and judging do not move the measured times */
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  /* the click comes after park (1), a decoded capture (40 + 20), a copied one (40) */
  double click = g_w.click_at[0];
  assert_true(click == 1000 + 1 + CAP + 20 + CAP);
  /* captures: reply +43 (A: copied from before), +83 (A; 5 ms back-off),
   * +128 (K, decoded: the reply came at +128, the decode ended at +148),
   * +188 (K again) */
  assert_true(res->first_change_ms == 128);
  assert_true(res->verified_ms == 188);
  assert_true(res->passed);
}

static void stable_holds_on_identical_captures(void **st) {
  (void)st;
  sc_expect ex[2] = {g_changed, {.kind = SC_EXPECT_STABLE, .region = 0, .threshold = 0}};
  g_steps[0].expect = ex;
  g_steps[0].nexpect = 2;
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  if (!res->passed) fail_msg("%s", res->reason);
  assert_true(res->verified_ms == 168);
  g_steps[0].expect = &g_changed;
  g_steps[0].nexpect = 1;
}

/* The whole machine: what each step of the run saw, and the world changed
 * between steps by the on_step hook. */
static int g_start_missing_in_c2 = -1;
static void between_steps(sc__runner *r, const sc_step_result *res, void *ud) {
  (void)ud;
  if (res->cycle == 1 && !strcmp(res->step_id, "first")) g_w.after = "A";
  if (res->cycle == 1 && !strcmp(res->step_id, "second")) {
    /* Cycle 2 begins on a screen that never comes to rest. */
    g_w.nch = 0;
    for (int i = 0; i < 40; i++) g_w.ch[g_w.nch++] = (change){.at = g_t + 30.0 * i, .id = (char)('B' + i % 20)};
  }
  if (res->cycle == 2 && !strcmp(res->step_id, "first")) {
    g_start_missing_in_c2 = sc__runner_snap_get(r, "start") == NULL;
    g_w.nch = 0; /* quiet again: A */
    g_w.after = NULL;
  }
}

static void no_snapshot_survives_into_the_next_cycle(void **st) {
  (void)st;
  /* second: click back, and the screen must equal first's snapshot */
  sc_expect eq = {.kind = SC_EXPECT_EQUALS, .region = 0, .threshold = 0, .snapshot = "first"};
  g_steps[1].expect = &eq;
  g_steps[0].timeout_ms = 400;
  g_steps[1].action.at = (sc_point){60, 20}; /* not a double click, no extra wait */
  replan();
  g_w.after = "K";
  g_w.delay = 10;
  g_r.cycles = 2;
  g_r.on_step = between_steps;
  assert_int_equal(sc__runner_start(&g_r), 0);
  run_loop(1e12);
  assert_int_equal(g_r.phase, SC__PH_DONE);
  assert_int_equal(g_rr.nresults, 4);
  assert_true(g_rr.results[0]->passed);
  if (!g_rr.results[1]->passed) fail_msg("%s", g_rr.results[1]->reason);
  /* Cycle 2: the screen never came to rest, so "first" took no snapshot
   * (and there is no "start"); "second" must not compare with cycle 1's. */
  assert_int_equal(g_start_missing_in_c2, 1);
  assert_false(g_rr.results[2]->passed);
  assert_false(g_rr.results[3]->passed);
  assert_non_null(strstr(g_rr.results[3]->reason, "no snapshot first"));
  assert_false(g_rr.passed);
  g_steps[1].expect = &g_changed;
}

/* "second" clicks away from "first" (no double-click wait) and must show
 * "start" again; eq is where its expectation lives. */
static void second_back_to_start(sc_expect *eq) {
  *eq = (sc_expect){.kind = SC_EXPECT_EQUALS, .region = 0, .threshold = 0, .snapshot = "start"};
  g_steps[1].expect = eq;
  g_steps[1].action.at = (sc_point){60, 20};
  replan();
}

/* The readiness gate: a client still painting (A, then C 400 ms later)
 * must not become the run's "start". With the gate the start is C and a
 * step that comes back to it passes; without it (ready_quiet_ms 0, the
 * sabotage) the start is the half-painted A and the same step fails. */
static void back_to_c(sc__runner *r, const sc_step_result *res, void *ud) {
  (void)r, (void)ud;
  if (!strcmp(res->step_id, "first")) g_w.after = "C";
}

static int run_half_painted(double quiet_ms) {
  sc_expect eq;
  second_back_to_start(&eq);
  g_s.ready_quiet_ms = quiet_ms;
  g_w.nch = 0;
  g_w.ch[g_w.nch++] = (change){.at = g_t + 400, .id = 'C'};
  g_w.after = "K";
  g_w.delay = 10;
  g_r.on_step = back_to_c;
  assert_int_equal(sc__runner_start(&g_r), 0);
  run_loop(1e12);
  assert_int_equal(g_r.phase, SC__PH_DONE);
  assert_int_equal(g_rr.nresults, 2);
  assert_true(g_rr.results[0]->passed);
  int passed = g_rr.results[1]->passed;
  g_steps[1].expect = &g_changed;
  g_s.ready_quiet_ms = 0;
  return passed;
}

static void half_painted_screen_is_not_the_start(void **st) {
  (void)st;
  double t0 = g_t;
  assert_true(run_half_painted(1000));
  /* the gate waited for the paint and then a quiet second, and says so */
  assert_true(g_w.nclick >= 1);
  assert_true(g_w.click_at[0] - t0 >= 1400);
  assert_true(g_rr.ready_ms >= 1400 && g_rr.ready_ms < 3000);
}

static void without_the_gate_a_half_painted_start_fails(void **st) {
  (void)st;
  assert_false(run_half_painted(0));
  assert_true(g_rr.ready_ms == -1); /* no gate ran */
}

/* A pass is given only while the canvas is the application's: the same
 * pixels after the canvas vanished (a blank page "changed" too) fail the
 * step, naming what happened. The check runs once per verdict. */
static void no_pass_after_the_canvas_is_gone(void **st) {
  (void)st;
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_int_equal(g_guest_checks, 1);
  g_guest_gone_at = g_t; /* from now on the canvas is gone */
  g_w.after = "M";
  res = step(1, 1);
  assert_false(res->passed);
  assert_non_null(strstr(res->reason, "canvas"));
  assert_non_null(strstr(res->reason, "not judged"));
  assert_int_equal(g_guest_checks, 2);
}

static void failure_images_show_what_was_compared(void **st) {
  (void)st;
  char *dir = sc_test_mkdtemp();
  g_r.report_dir = dir;
  /* first: A -> K; second must come back to first's snapshot (A) but goes to M */
  sc_expect eq = {.kind = SC_EXPECT_EQUALS, .region = 0, .threshold = 0, .snapshot = "first"};
  g_steps[1].expect = &eq;
  g_steps[1].timeout_ms = 300;
  replan();
  g_w.after = "K";
  g_w.delay = 10;
  step(0, 1);
  g_w.after = "M";
  const sc_step_result *res = step(1, 1);
  assert_false(res->passed);
  assert_int_equal(res->nartifacts, 3);
  /* "before" is the snapshot the check compared with (A: all black), not
   * the step's own start (K: a white block). */
  sc_image *img = NULL;
  assert_int_equal(sc_image_load_png(&img, res->artifacts[0], NULL), 0);
  assert_non_null(strstr(res->artifacts[0], "@c1-second@r-before.png"));
  assert_int_equal(sc_image_pixel(img, 12, 12), 0x000000ffu);
  sc_image_free(img);
  assert_int_equal(sc_image_load_png(&img, res->artifacts[1], NULL), 0);
  assert_int_equal(sc_image_pixel(img, 12, 12), 0xffffffffu); /* after: M */
  sc_image_free(img);
  g_steps[1].expect = &g_changed;
  sc_test_rmtree(dir);
  free(dir);
}

/* Memory: a snapshot is held packed between steps; a step that compares
 * with it unpacks it and lets go of the pixels when it is over. */
static void snapshots_are_packed_between_steps(void **st) {
  (void)st;
  sc_expect eq = {.kind = SC_EXPECT_EQUALS, .region = 0, .threshold = 0, .snapshot = "first"};
  g_steps[1].expect = &eq;
  g_steps[1].action.at = (sc_point){60, 20};
  replan();
  g_w.after = "K";
  g_w.delay = 10;
  assert_true(step(0, 1)->passed);
  assert_int_equal(g_r.nsnaps, 1);
  assert_string_equal(g_r.snaps[0].name, "first");
  assert_null(g_r.snaps[0].f.img);
  assert_true(g_r.snaps[0].f.pk.len > 0 && g_r.snaps[0].f.pk.len < (size_t)W * H * 4 / 4);
  g_w.after = "A"; /* back to the picture "first" started from */
  const sc_step_result *res = step(1, 1);
  if (!res->passed) fail_msg("%s", res->reason);
  assert_non_null(strstr(res->reason, "r equals snapshot first"));
  assert_null(g_r.snaps[0].f.img);
  assert_null(g_r.last.img); /* the step's last capture, kept packed */
  assert_non_null(g_r.last.pk.data);
  assert_int_equal(g_held_checks_failed, 0);
  assert_true(g_held_checks >= 6);
  g_steps[1].expect = &g_changed;
}

/* The last capture of a step is the first of the next step's at-rest pair:
 * when the screen still shows it after the settle wait and the park, one
 * capture proves the screen at rest. When it changed in between, two are
 * needed, as always. */
static void a_step_starts_from_the_last_capture(void **st) {
  (void)st;
  g_steps[1].action.at = (sc_point){60, 20};
  g_w.after = "K";
  g_w.delay = 10;
  const sc_step_result *r0 = step(0, 1);
  assert_true(r0->passed);
  double end0 = g_t;
  g_w.after = "M";
  assert_true(step(1, 1)->passed);
  /* settle 300 ms after the click's reply, park (1 ms), one capture */
  double settle_end = g_w.click_end[0] + 300;
  assert_true(settle_end > end0);
  assert_true(g_w.click_at[1] == settle_end + 1 + CAP);
  /* Sabotage: the screen changes during the settle wait of the next step. */
  double end1 = g_t;
  g_w.ch[g_w.nch++] = (change){.at = end1 + 100, .id = 'P'};
  g_w.after = "K";
  assert_true(step(0, 2)->passed);
  settle_end = g_w.click_end[1] + 300;
  assert_true(g_w.click_at[2] == settle_end + 1 + 2 * CAP);
}

/* A cycle's start is the drift check's capture when that was taken at rest
 * (pointer parked, nothing sent since): no capture of its own, and the
 * first step's at-rest pair begins from it. Each step's at-rest pair begins
 * from the last capture; so from cycle 1's last verdict to cycle 2's first
 * click: drift 1 capture, start 0, first step 1 (it was 1 + 1 + 2). The
 * restore to "start" still passes on it. Sabotage: a screen that does not
 * come to rest at the cycle's end gives no drift capture to start from, so
 * there is no "start" and the restore fails for want of it. */
static int g_caps_at_c1_end = -1, g_caps_to_c2_click = -1, g_restless_after_c1 = 0;
static void cycle_hook(sc__runner *r, const sc_step_result *res, void *ud) {
  (void)r, (void)ud;
  if (!strcmp(res->step_id, "first")) g_w.after = "A";
  if (!strcmp(res->step_id, "second")) g_w.after = "K";
  if (res->cycle == 1 && !strcmp(res->step_id, "second")) {
    g_caps_at_c1_end = g_captures;
    if (g_restless_after_c1)
      for (int i = 0; i < 400; i++) g_w.ch[g_w.nch++] = (change){.at = g_t + 30.0 * i, .id = (char)('B' + i % 20)};
  }
  if (res->cycle == 2 && !strcmp(res->step_id, "first"))
    g_caps_to_c2_click = g_captures - res->captures - g_caps_at_c1_end;
}

static void run_two_cycles_with_drift(int restless) {
  sc_expect eq;
  second_back_to_start(&eq);
  g_s.drift = SC_DRIFT_WARN;
  g_s.drift_max_pixels = 0;
  g_w.after = "K";
  g_w.delay = 10;
  g_r.cycles = 2;
  g_r.on_step = cycle_hook;
  g_restless_after_c1 = restless;
  assert_int_equal(sc__runner_start(&g_r), 0);
  run_loop(1e12);
  assert_int_equal(g_r.phase, SC__PH_DONE);
  assert_int_equal(g_rr.nresults, 4);
  g_steps[1].expect = &g_changed;
  g_s.drift = SC_DRIFT_OFF;
}

static void a_cycle_starts_from_the_drift_check(void **st) {
  (void)st;
  run_two_cycles_with_drift(0);
  for (int i = 0; i < 4; i++)
    if (!g_rr.results[i]->passed) fail_msg("%d: %s", i, g_rr.results[i]->reason);
  assert_int_equal(g_rr.ndrift, 0);
  assert_int_equal(g_caps_to_c2_click, 2);
}

static void a_restless_cycle_end_gives_no_start(void **st) {
  (void)st;
  run_two_cycles_with_drift(1);
  assert_true(g_rr.results[1]->passed); /* cycle 1 */
  assert_false(g_rr.results[3]->passed);
  assert_non_null(strstr(g_rr.results[3]->reason, "no snapshot start"));
}

/* When the last capture does not cover a step's regions, the first of its
 * at-rest pair is what was last seen there: the cycle's start with the last
 * capture over it. Two regions: "first" watches the left half (A -> K),
 * "second" both halves: the left half was last seen in first's capture,
 * the right half at the start, and one capture proves the screen at rest.
 * Sabotage: the right half changes after the start where no capture saw it
 * (k: K plus a block on the right): the composed seed does not match, and
 * the at-rest pair takes its second capture. */
static sc_region g_halves[] = {{"a", {0, 0, 50, H}}, {"b", {50, 0, 50, H}}};
static int g_right_changes;
static void halves_hook(sc__runner *r, const sc_step_result *res, void *ud) {
  (void)r, (void)ud;
  if (strcmp(res->step_id, "first") != 0) return;
  g_w.after = g_right_changes ? "m" : "M"; /* the right block stays as it is then */
  if (g_right_changes) g_w.ch[g_w.nch++] = (change){.at = g_t + 100, .id = 'k'};
}

static void run_halves(int right_changes, sc_expect_kind right_kind) {
  sc_expect left = {.kind = SC_EXPECT_CHANGED, .region = 0, .threshold = 0.1, .min_pixels = 1};
  sc_expect both[2] = {left, {.kind = right_kind, .region = 1, .threshold = 0}};
  g_s.regions = g_halves;
  g_s.nregions = 2;
  g_steps[0].expect = &left;
  g_steps[1].expect = both;
  g_steps[1].nexpect = 2;
  g_steps[1].action.at = (sc_point){60, 20};
  replan();
  g_w.after = "K";
  g_w.delay = 10;
  g_right_changes = right_changes;
  g_r.on_step = halves_hook;
  assert_int_equal(sc__runner_start(&g_r), 0);
  run_loop(1e12);
  assert_int_equal(g_r.phase, SC__PH_DONE);
  assert_int_equal(g_rr.nresults, 2);
  for (int i = 0; i < 2; i++)
    if (!g_rr.results[i]->passed) fail_msg("%d: %s", i, g_rr.results[i]->reason);
  g_s.regions = g_regions;
  g_s.nregions = 1;
  g_steps[0].expect = g_steps[1].expect = &g_changed;
  g_steps[1].nexpect = 1;
}

static void a_step_starts_from_what_was_last_seen(void **st) {
  (void)st;
  run_halves(0, SC_EXPECT_UNCHANGED);
  /* settle 300 ms after the click's reply, park (1 ms), one capture */
  assert_true(g_w.click_at[1] == g_w.click_end[0] + 300 + 1 + CAP);
}

static void a_change_nobody_saw_needs_the_second_capture(void **st) {
  (void)st;
  run_halves(1, SC_EXPECT_UNCHANGED);
  assert_true(g_w.click_at[1] == g_w.click_end[0] + 300 + 1 + 2 * CAP);
}

/* The at-rest capture before a gesture covers only the regions whose
 * verdict compares with it: a change in a region the step judges as
 * "stable" (on its own captures) is no reason to capture again before
 * the gesture. Its other half is the test above: "unchanged" there. */
static void a_region_judged_without_before_is_not_captured_before(void **st) {
  (void)st;
  run_halves(1, SC_EXPECT_STABLE);
  assert_true(g_w.click_at[1] == g_w.click_end[0] + 300 + 1 + CAP);
}

/* Pacing: a step that sees nothing for its whole 8 s backs off to one poll
 * per SC__BACKOFF_MAX_MS + a capture, instead of ~200 back to back, and
 * says so in idle_ms. */
static void a_still_screen_is_polled_less_and_less(void **st) {
  (void)st;
  g_steps[0].timeout_ms = 8000;
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_true(res->captures < 60);            /* back to back: 201 */
  assert_true(res->captures > 8000 / (SC__BACKOFF_MAX_MS + CAP)); /* the cap holds */
  assert_true(res->idle_ms > 8000 - res->captures * CAP - 1);
  assert_true(res->idle_ms < 8000);
}

/* A late change is still seen, at most 1/8 of its delay (plus a capture)
 * after it happens; and the screen moving again means back-to-back polls. */
static void a_late_change_is_seen_soon_after_it_happens(void **st) {
  (void)st;
  g_steps[0].timeout_ms = 8000;
  g_w.after = "BCDE";
  g_w.delay = 3000;
  g_w.gap = 40;
  const sc_step_result *res = step(0, 1);
  if (!res->passed) fail_msg("%s", res->reason);
  /* at rest since ~3 ms: the back-off is capped, so the change is seen at
   * most one capped gap and two captures after it happens */
  double gap = (3000 - 3) / SC__BACKOFF_DIV;
  if (gap > SC__BACKOFF_MAX_MS) gap = SC__BACKOFF_MAX_MS;
  assert_true(res->first_change_ms >= 3000);
  assert_true(res->first_change_ms <= 3000 + gap + 2 * CAP);
  /* the screen moved: the next poll is right away, and it is the verdict */
  assert_true(res->verified_ms == res->first_change_ms + CAP);
}

/* The sabotage of pacing: a change that ends before the next poll (the
 * screen changes and comes back during a back-off) is never a pass on the
 * frame that did not change. */
static void a_change_undone_during_a_back_off_does_not_pass(void **st) {
  (void)st;
  g_steps[0].timeout_ms = 2000;
  g_w.after = "KA";
  g_w.delay = 600;
  g_w.gap = 5; /* K shows for 5 ms only, inside a back-off */
  const sc_step_result *res = step(0, 1);
  assert_false(res->passed);
  assert_true(res->first_change_ms == -1);
  assert_true(res->idle_ms > 0);
}

/* Three users on one loop, each with its own screen: user 2's app never
 * reacts, user 3's reacts late. Their steps interleave on the one clock,
 * each result is its own, and the slow and the failing user do not hold
 * up the others. */
static void users_interleave_on_one_loop(void **st) {
  (void)st;
  world w[3];
  sc__runner r[3];
  sc_run_result rr[3];
  memset(w, 0, sizeof w);
  w[0].after = "K", w[0].delay = 10;
  w[1].after = NULL; /* ignores clicks */
  w[2].after = "K", w[2].delay = 900;
  g_steps[0].timeout_ms = 1500;
  g_s.nsteps = 1;
  for (int i = 0; i < 3; i++) {
    runner_init(&r[i], &rr[i]);
    r[i].io.ctx = &w[i];
    assert_int_equal(sc__runner_start(&r[i]), 0);
  }
  run_loop(1e12);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(r[i].phase, SC__PH_DONE);
    assert_int_equal(rr[i].nresults, 1);
  }
  assert_true(rr[0].results[0]->passed);
  assert_false(rr[1].results[0]->passed);
  assert_non_null(strstr(rr[1].results[0]->reason, "unchanged after"));
  assert_true(rr[2].results[0]->passed);
  /* user 1 was verified long before the others were judged: no user waited
   * for another (clicks all went out at the same moment) */
  assert_true(w[0].click_at[0] == w[1].click_at[0] && w[1].click_at[0] == w[2].click_at[0]);
  assert_true(rr[0].results[0]->verified_ms < 200);
  assert_true(rr[2].results[0]->first_change_ms >= 900);
  assert_true(rr[0].ended_unix_ms <= rr[2].ended_unix_ms);
  for (int i = 0; i < 3; i++) {
    sc__runner_clear(&r[i]);
    results_clear(&rr[i]);
  }
  g_s.nsteps = 2;
}

/* The response window on the pairs rule: a step that expects nothing to
 * change is not verified before the application had response_ms to
 * answer; captures go on through it. The app changes the region 150 ms
 * after the click: with the window the step fails; sabotage: without it
 * the step passes on two identical captures before the change (the false
 * pass the window prevents). */
static sc_expect g_unchanged = {.kind = SC_EXPECT_UNCHANGED, .region = 0, .threshold = 0.1,
                                .max_pixels = 0};
static const sc_step_result *late_change_unchanged(double window) {
  g_steps[0].expect = &g_unchanged;
  g_steps[0].timeout_ms = 2000;
  replan();
  g_s.response_ms = window;
  g_w.after = "K";
  g_w.delay = 150;
  return step(0, 1);
}
static void the_response_window_sees_a_late_change(void **st) {
  (void)st;
  const sc_step_result *res = late_change_unchanged(1000);
  assert_false(res->passed);
  assert_string_equal(res->rest, "pairs");
}
static void sabotage_without_the_window_a_late_change_passes(void **st) {
  (void)st;
  const sc_step_result *res = late_change_unchanged(0);
  assert_true(res->passed);
  assert_true(res->verified_ms < 150);
}

/* A step verified only when its time ran out (here a response window as
 * long as the timeout, on a screen that never changes) passes, and its
 * reason says it passed only at its deadline; one verified before its
 * deadline (the window half the timeout) does not say so. */
static void a_pass_at_the_deadline_says_so(void **st) {
  (void)st;
  g_steps[0].expect = &g_unchanged;
  g_steps[0].timeout_ms = 2000;
  replan();
  g_s.response_ms = 2000;
  const sc_step_result *res = step(0, 1);
  if (!res->passed) fail_msg("%s", res->reason);
  assert_true(res->verified_ms >= 2000);
  char want[128];
  snprintf(want, sizeof want, "; passed only at its deadline (verified at %.0f ms, timeout 2000 ms)",
           res->verified_ms);
  if (!strstr(res->reason, want)) fail_msg("reason \"%s\" lacks \"%s\"", res->reason, want);
  g_s.response_ms = 1000;
  res = step(0, 1);
  assert_true(res->passed);
  assert_true(res->verified_ms < 2000);
  assert_null(strstr(res->reason, "deadline"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(change_is_timed_from_the_first_input, setup, teardown),
      cmocka_unit_test_setup_teardown(no_verdict_between_changes, setup, teardown),
      cmocka_unit_test_setup_teardown(nothing_happens_times_out_with_the_reason, setup, teardown),
      cmocka_unit_test_setup_teardown(restless_screen_fails_before_the_gesture, setup, teardown),
      cmocka_unit_test_setup_teardown(a_frozen_browser_is_not_the_apps_failure, setup, teardown),
      cmocka_unit_test_setup_teardown(a_frozen_browser_before_the_gesture_is_not_a_fail, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(a_capture_that_times_out_is_an_error, setup, teardown),
      cmocka_unit_test_setup_teardown(a_step_cut_off_by_a_fault_records_what_it_ran, setup, teardown),
      cmocka_unit_test_setup_teardown(slow_is_not_stalled_and_a_stall_does_not_hide_a_pass,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(same_point_twice_is_not_a_double_click, setup, teardown),
      cmocka_unit_test_setup_teardown(first_notch_is_seen_during_the_gesture, setup, teardown),
      cmocka_unit_test_setup_teardown(times_are_reply_times_not_decode_times, setup, teardown),
      cmocka_unit_test_setup_teardown(stable_holds_on_identical_captures, setup, teardown),
      cmocka_unit_test_setup_teardown(no_pass_after_the_canvas_is_gone, setup, teardown),
      cmocka_unit_test_setup_teardown(half_painted_screen_is_not_the_start, setup, teardown),
      cmocka_unit_test_setup_teardown(without_the_gate_a_half_painted_start_fails, setup, teardown),
      cmocka_unit_test_setup_teardown(no_snapshot_survives_into_the_next_cycle, setup, teardown),
      cmocka_unit_test_setup_teardown(failure_images_show_what_was_compared, setup, teardown),
      cmocka_unit_test_setup_teardown(snapshots_are_packed_between_steps, setup, teardown),
      cmocka_unit_test_setup_teardown(a_step_starts_from_the_last_capture, setup, teardown),
      cmocka_unit_test_setup_teardown(a_cycle_starts_from_the_drift_check, setup, teardown),
      cmocka_unit_test_setup_teardown(a_step_starts_from_what_was_last_seen, setup, teardown),
      cmocka_unit_test_setup_teardown(a_change_nobody_saw_needs_the_second_capture, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(a_region_judged_without_before_is_not_captured_before,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(a_restless_cycle_end_gives_no_start, setup, teardown),
      cmocka_unit_test_setup_teardown(a_still_screen_is_polled_less_and_less, setup, teardown),
      cmocka_unit_test_setup_teardown(a_late_change_is_seen_soon_after_it_happens, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(a_change_undone_during_a_back_off_does_not_pass, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(users_interleave_on_one_loop, setup, teardown),
      cmocka_unit_test_setup_teardown(the_response_window_sees_a_late_change, setup, teardown),
      cmocka_unit_test_setup_teardown(a_pass_at_the_deadline_says_so, setup, teardown),
      cmocka_unit_test_setup_teardown(sabotage_without_the_window_a_late_change_passes, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
