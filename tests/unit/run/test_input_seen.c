/* An input lost before it left the browser (input_seen.c): the decision
 * on scripted evidence, and a failing step on the scripted world asking
 * the page once and ending as a fault only on positive evidence. */
#include "world.h"

/* ---- the decision ---- */

static sc__input_evidence g_e;
static char g_why[256];

/* A gesture that began at 1000 and was judged for 500 ms; the page answers
 * at 1540 with an open socket it had sent on before. */
static void ev_reset(void) {
  memset(&g_e, 0, sizeof g_e);
  g_e.have = 1;
  g_e.now_ms = 1540;
  g_e.clock_err = 0.5;
  g_e.open_sockets = 1;
  g_e.sends = 10;
  g_e.http_have = 1; /* a whole record of HTTP sends, none yet */
  g_why[0] = '\0';
}
static void http_add(double at, const char *kind) {
  g_e.http[g_e.nhttp].at_ms = at;
  snprintf(g_e.http[g_e.nhttp].kind, sizeof g_e.http[0].kind, "%s", kind);
  g_e.nhttp++;
}
static void ev_add(char kind, double at, double x, double y, int dir, double sent) {
  g_e.ev[g_e.n++] = (sc__input_event){kind, at, x, y, dir, sent, 1, ""};
}
static int lost(const sc_action *a) {
  return sc__input_lost(a, 1000, 500, &g_e, g_why, sizeof g_why);
}

static const sc_action k_click = {.kind = SC_ACTION_CLICK, .at = {20, 20}};

static void a_click_seen_and_sent_is_not_lost(void **st) {
  (void)st;
  ev_reset();
  ev_add('d', 1002, 20.5, 20.5, 0, 1002.1);
  ev_add('u', 1003, 20.5, 20.5, 0, 1003.25);
  assert_int_equal(lost(&k_click), 0);
  /* what the page did with it, for the failure's message */
  assert_string_equal(g_why, "the page saw its mousedown and mouseup at (20,20) and handed a "
                             "message on 0.2 ms after its mouseup");
}

/* A click given to an element over the canvas (xpra 3.1.3's notification
 * box over JOSM's layer list, docs/reliability.md "Clicks without effect
 * through Xpra"): the message names it, the verdict rules are the same. */
static void a_click_given_to_no_canvas_names_the_element(void **st) {
  (void)st;
  ev_reset();
  ev_add('d', 1002, 20.5, 20.5, 0, -1);
  ev_add('u', 1003, 20.5, 20.5, 0, 1400);
  strcpy(g_e.ev[0].over, "img#notification_icon1.notification_icon");
  strcpy(g_e.ev[1].over, "img#notification_icon1.notification_icon");
  assert_int_equal(lost(&k_click), 0);
  assert_string_equal(g_why, "the page saw its mousedown and mouseup at (20,20) and handed a "
                             "message on 397.0 ms after its mouseup (its mousedown went to "
                             "img#notification_icon1.notification_icon, not to a canvas)");
  g_e.ev[1].sent_ms = -1; /* and nothing since, with a socket open: lost */
  assert_int_equal(lost(&k_click), 1);
  assert_string_equal(g_why, "the page sent nothing in the 537 ms after its mouseup (its "
                             "mousedown went to img#notification_icon1.notification_icon, not "
                             "to a canvas)");
}

static void a_click_the_page_never_saw_is_lost(void **st) {
  (void)st;
  ev_reset();
  assert_int_equal(lost(&k_click), 1);
  assert_string_equal(g_why, "the page saw no mousedown at (20,20)");
  /* one elsewhere, or one before the gesture (an earlier step's), is not it */
  ev_add('d', 900, 20.5, 20.5, 0, 901);
  ev_add('u', 901, 20.5, 20.5, 0, 902);
  ev_add('d', 1002, 30.5, 20.5, 0, 1003);
  ev_add('u', 1003, 30.5, 20.5, 0, 1004);
  assert_int_equal(lost(&k_click), 1);
  assert_string_equal(g_why, "the page saw no mousedown at (20,20)");
}

static void a_mousedown_without_its_mouseup_is_lost(void **st) {
  (void)st;
  ev_reset();
  ev_add('d', 1002, 20.5, 20.5, 0, 1002.1);
  assert_int_equal(lost(&k_click), 1);
  assert_string_equal(g_why, "the page saw its mousedown at (20,20) but no mouseup");
}

static void a_click_seen_but_not_sent_is_lost(void **st) {
  (void)st;
  ev_reset();
  ev_add('d', 1002, 20.5, 20.5, 0, -1);
  ev_add('u', 1003, 20.5, 20.5, 0, -1);
  assert_int_equal(lost(&k_click), 1);
  assert_string_equal(g_why, "the page sent nothing in the 537 ms after its mouseup");
  /* sent late, but within the timeout: it left */
  g_e.ev[1].sent_ms = 1400;
  assert_int_equal(lost(&k_click), 0);
  assert_string_equal(g_why, "the page saw its mousedown and mouseup at (20,20) and handed a "
                             "message on 397.0 ms after its mouseup");
}

/* Silence is evidence only from a page that sends, over a connection that
 * is still open, once the step's time is over. */
static void silence_says_nothing_without_a_live_sender(void **st) {
  (void)st;
  ev_reset();
  ev_add('d', 1002, 20.5, 20.5, 0, -1);
  ev_add('u', 1003, 20.5, 20.5, 0, -1);
  g_e.open_sockets = 0; /* the server went away, or the page sends through a worker */
  assert_int_equal(lost(&k_click), 0);
  assert_string_equal(g_why, "the page saw its mousedown and mouseup at (20,20) and handed no "
                             "message on after its mouseup");
  g_e.open_sockets = 1;
  g_e.ev[1].sent_before = 0; /* a page that never sent (no remote display) */
  assert_int_equal(lost(&k_click), 0);
  g_e.ev[1].sent_before = 1;
  g_e.now_ms = 1300; /* asked before the timeout was over */
  assert_int_equal(lost(&k_click), 0);
}

/* A client that sends its input by HTTP (issue 39 item 6): a request
 * after the input is the input leaving the page, whatever the sockets say;
 * no whole record of HTTP sends is "unknown", never a fault. */
static void a_click_sent_by_http_is_not_lost(void **st) {
  (void)st;
  const char *kinds[] = {"fetch", "XHR", "sendBeacon", "EventSource"};
  for (int k = 0; k < 4; k++) {
    ev_reset();
    ev_add('d', 1002, 20.5, 20.5, 0, -1);
    ev_add('u', 1003, 20.5, 20.5, 0, -1);
    http_add(900, "fetch"); /* an earlier step's request is not it */
    assert_int_equal(lost(&k_click), 1);
    http_add(1003.5, kinds[k]);
    assert_int_equal(lost(&k_click), 0);
    char want[200];
    snprintf(want, sizeof want, "the page saw its mousedown and mouseup at (20,20) and sent a "
             "request by %s 0.5 ms after its mouseup", kinds[k]);
    assert_string_equal(g_why, want);
  }
  /* no record of HTTP sends (the script missing, a wrapper refused): unknown */
  ev_reset();
  ev_add('d', 1002, 20.5, 20.5, 0, -1);
  ev_add('u', 1003, 20.5, 20.5, 0, -1);
  g_e.http_have = 0;
  assert_int_equal(lost(&k_click), 0);
  assert_string_equal(g_why, "the page saw its mousedown and mouseup at (20,20) and handed no "
                             "message to a socket or worker after its mouseup; whether it sent "
                             "one by HTTP is unknown (no record of its fetch, XHR or sendBeacon)");
}

static void no_record_leaves_the_verdict(void **st) {
  (void)st;
  ev_reset();
  g_e.have = 0;
  g_e.blind = "the paint log is blind on this page";
  strcpy(g_why, "stale");
  assert_int_equal(lost(&k_click), 0);
  assert_string_equal(g_why, ""); /* nothing to say */
  assert_int_equal(sc__input_lost(&k_click, 1000, 500, NULL, g_why, sizeof g_why), 0);
  /* a ring that does not reach back to the gesture may have lost its events */
  ev_reset();
  for (int i = 0; i < SC__INPUT_RING; i++) ev_add('k', 1100 + i, -1, -1, 0, 1100.5 + i);
  assert_int_equal(lost(&k_click), 0);
}

static void wheel_notches_are_seen_in_their_direction(void **st) {
  (void)st;
  const sc_action in3 = {.kind = SC_ACTION_WHEEL, .at = {20, 20}, .notches = -3};
  ev_reset();
  ev_add('w', 1252, 20.5, 20.5, 1, 1252.1); /* the wrong way: not one of them */
  assert_int_equal(lost(&in3), 1);
  assert_string_equal(g_why, "the page saw none of its 3 wheel notches at (20,20)");
  /* one event for three notches: Chromium coalesces the wheel events of a
   * busy page, so fewer is no evidence */
  ev_add('w', 1502, 20.5, 20.5, -1, 1502.1);
  assert_int_equal(lost(&in3), 0);
  assert_string_equal(g_why, "the page saw 1 wheel event for its 3 notches at (20,20) and "
                             "handed a message on 0.1 ms after its last wheel notch");
  ev_add('w', 1503, 20.5, 20.5, -1, -1);
  assert_int_equal(lost(&in3), 1);
  assert_string_equal(g_why, "the page sent nothing in the 37 ms after its last wheel notch");
  g_e.ev[2].sent_ms = 1503.2;
  assert_int_equal(lost(&in3), 0);
}

static void keys_and_moves(void **st) {
  (void)st;
  const sc_action key = {.kind = SC_ACTION_KEY, .key = "Escape", .repeat = 2};
  const sc_action move = {.kind = SC_ACTION_MOVE, .at = {20, 20}};
  ev_reset();
  ev_add('k', 1002, -1, -1, 0, 1002.1);
  assert_int_equal(lost(&key), 1);
  assert_string_equal(g_why, "the page saw 1 of its 2 keydowns (Escape)");
  ev_add('k', 1003, -1, -1, 0, 1003.1);
  assert_int_equal(lost(&key), 0);
  assert_string_equal(g_why, "the page saw its 2 keydowns (Escape) and handed a message on 0.1 "
                             "ms after its last keydown");
  ev_reset();
  assert_int_equal(lost(&move), 0); /* pointer moves are not asked about */
}

/* ---- in the runner: one question when a step fails ---- */

static int g_asks;
static int g_ask_status;
static sc__io_inputs g_ask_cb;
static void *g_ask_ud;

static void answer(void *ud) {
  (void)ud;
  g_ask_cb(g_ask_status, g_ask_status ? "Runtime.evaluate: timed out" : NULL,
           g_ask_status ? NULL : &g_e, g_ask_ud);
}
static int f_inputs(void *ctx, double timeout_ms, sc__io_inputs cb, void *ud) {
  (void)ctx, (void)timeout_ms;
  g_asks++;
  g_ask_cb = cb;
  g_ask_ud = ud;
  g_e.now_ms = g_t + 1;
  post(g_t + 2, 2, (void *)answer, NULL);
  return 0;
}

static int setup_inputs(void **st) {
  setup(st);
  g_r.io.inputs = f_inputs;
  g_asks = g_ask_status = 0;
  g_steps[0].timeout_ms = 500;
  ev_reset();
  return 0;
}

static void a_failed_step_whose_click_the_page_never_saw_is_a_fault(void **st) {
  (void)st;
  const sc_step_result *res = step(0, 1);
  assert_int_equal(g_asks, 1);
  assert_false(res->passed);
  assert_true(res->fault);
  assert_string_equal(res->reason, "input lost before it left the browser: the page saw no "
                                   "mousedown at (20,20) (r unchanged after 540 ms)");
  assert_non_null(g_rr.error); /* the run's error: exit 3 */
}

static void a_failed_step_the_page_sent_on_stays_the_applications(void **st) {
  (void)st;
  ev_add('d', 1085, 20.5, 20.5, 0, 1085.1);
  ev_add('u', 1086, 20.5, 20.5, 0, 1086.1);
  const sc_step_result *res = step(0, 1);
  assert_int_equal(g_asks, 1);
  assert_false(res->fault);
  assert_string_equal(res->reason, "r unchanged after 540 ms; the page saw its mousedown and "
                                   "mouseup at (20,20) and handed a message on 0.1 ms after "
                                   "its mouseup");
  assert_null(g_rr.error);
}

static void a_query_that_fails_or_a_blind_log_leaves_the_verdict(void **st) {
  (void)st;
  g_ask_status = SC_ETIMEDOUT;
  const sc_step_result *res = step(0, 1);
  assert_int_equal(g_asks, 1);
  assert_false(res->fault);
  assert_string_equal(res->reason, "r unchanged after 540 ms");
  g_ask_status = 0;
  g_e.have = 0;
  res = step(0, 2);
  assert_int_equal(g_asks, 2);
  assert_false(res->fault);
  assert_null(g_rr.error);
}

static void a_step_that_passes_is_not_asked(void **st) {
  (void)st;
  g_w.after = "K";
  g_w.delay = 100;
  const sc_step_result *res = step(0, 1);
  assert_true(res->passed);
  assert_int_equal(g_asks, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_click_seen_and_sent_is_not_lost),
      cmocka_unit_test(a_click_given_to_no_canvas_names_the_element),
      cmocka_unit_test(a_click_the_page_never_saw_is_lost),
      cmocka_unit_test(a_mousedown_without_its_mouseup_is_lost),
      cmocka_unit_test(a_click_seen_but_not_sent_is_lost),
      cmocka_unit_test(silence_says_nothing_without_a_live_sender),
      cmocka_unit_test(a_click_sent_by_http_is_not_lost),
      cmocka_unit_test(no_record_leaves_the_verdict),
      cmocka_unit_test(wheel_notches_are_seen_in_their_direction),
      cmocka_unit_test(keys_and_moves),
      cmocka_unit_test_setup_teardown(a_failed_step_whose_click_the_page_never_saw_is_a_fault,
                                      setup_inputs, teardown),
      cmocka_unit_test_setup_teardown(a_failed_step_the_page_sent_on_stays_the_applications,
                                      setup_inputs, teardown),
      cmocka_unit_test_setup_teardown(a_query_that_fails_or_a_blind_log_leaves_the_verdict,
                                      setup_inputs, teardown),
      cmocka_unit_test_setup_teardown(a_step_that_passes_is_not_asked, setup_inputs, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
