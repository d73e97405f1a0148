/* The multi handle (sc_multi_*) over scripted page I/O and the fake clock
 * (world.h), no browser: users added to one handle interleave on one loop,
 * each gets its own result and callbacks, a user whose page dies ends alone
 * with its error, a canceled user ends at once, and the handle's counts
 * (sc_multi_active, sc_multi_running) follow. */
#include "world.h"

#include "run/engine.h"

/* A page that dies: every capture fails as a closed connection would. */
static int dead_capture(void *ctx, sc_rect clip, int fast, double timeout_ms, sc__io_captured cb,
                        void *ud) {
  (void)ctx, (void)clip, (void)fast, (void)timeout_ms;
  event *e = post(g_t + 2, 1, (void *)cb, ud);
  e->status = SC_ECLOSED;
  return 0;
}

/* An app that answers every click with a new frame (the n-th click shows
 * after[n]) `delay` ms later; with no `after` it ignores clicks. */
static int each_click(void *ctx, sc_point at, sc__io_done cb, void *ud) {
  world *w = world_of(ctx);
  (void)at;
  w->click_at[w->nclick % 8] = g_t;
  if (w->after && w->after[w->nclick])
    w->ch[w->nch++] = (change){.at = g_t + w->delay, .id = w->after[w->nclick]};
  w->nclick++;
  post(g_t + 3, 0, (void *)cb, ud);
  return 0;
}

static sc__runner_io io_for(world *w) {
  sc__runner_io io = k_io;
  io.ctx = w;
  io.click = each_click;
  return io;
}

typedef struct seen {
  int steps[4];
  int done[4];
  int order[4];
  int ndone;
} seen;

static void on_step(const sc_run_result *u, const sc_step_result *res, void *ud) {
  seen *s = ud;
  assert_non_null(res->step_id);
  s->steps[u->user]++;
}

static void on_done(const sc_run_result *u, void *ud) {
  seen *s = ud;
  s->done[u->user]++;
  s->order[s->ndone++] = u->user;
}

static sc_multi *multi(seen *s, int cycles) {
  sc_multi_options o = SC_MULTI_OPTIONS_INIT;
  o.cycles = cycles;
  o.on_step = on_step;
  o.on_user_done = on_done;
  o.userdata = s;
  sc_multi *m = NULL;
  assert_int_equal(sc_multi_new(&m, &g_s, &o), 0);
  return m;
}

/* Four users: a fast one, one whose app ignores clicks, a slow one and one
 * whose page dies. Each ends on its own; the dead one says why and does not
 * hold the others up; the healthy ones pass every step of both cycles. */
static void users_end_on_their_own(void **st) {
  (void)st;
  world w[4];
  memset(w, 0, sizeof w);
  w[0].after = "KLMN", w[0].delay = 10;
  w[1].after = NULL;
  w[2].after = "KLMN", w[2].delay = 700;
  w[3].after = "KLMN", w[3].delay = 10;
  g_steps[0].timeout_ms = g_steps[1].timeout_ms = 1500;
  seen s = {0};
  sc_multi *m = multi(&s, 2);
  sc__runner_io io[4];
  for (int i = 0; i < 4; i++) io[i] = io_for(&w[i]);
  io[3].capture = dead_capture;
  for (int i = 0; i < 4; i++) assert_int_equal(sc__multi_add_io(m, NULL, &io[i], W, H), i);
  assert_int_equal(sc_multi_count(m), 4);
  assert_int_equal(sc_multi_active(m), 4);
  run_loop(1e12);
  assert_int_equal(sc_multi_active(m), 0);
  for (int i = 0; i < 4; i++) {
    assert_int_equal(sc_multi_running(m, (size_t)i), 0);
    assert_int_equal(s.done[i], 1); /* exactly once each */
  }
  const sc_run_result *r0 = sc_multi_result(m, 0), *r1 = sc_multi_result(m, 1),
                      *r2 = sc_multi_result(m, 2), *r3 = sc_multi_result(m, 3);
  assert_true(r0->passed);
  assert_int_equal(r0->steps_passed, 4);
  assert_true(r2->passed);
  assert_int_equal(r2->steps_passed, 4);
  assert_false(r1->passed);
  assert_true(r1->steps_failed >= 1);
  assert_false(r3->passed);
  assert_non_null(r3->error);
  assert_int_equal(r3->nresults, 0);
  assert_int_equal(sc__multi_user_rc(m, 3), SC_ECLOSED);
  assert_int_equal(sc__multi_user_rc(m, 0), 0);
  /* Callbacks per user, on the user's own result. */
  assert_int_equal(s.steps[0], 4);
  assert_int_equal(s.steps[2], 4);
  assert_int_equal(s.steps[3], 0);
  /* The dead page ended first, the app that never answers last (it waits
   * out every step's timeout), the fast one before the slow one: each ended
   * on its own time. */
  assert_int_equal(s.order[0], 3);
  assert_int_equal(s.order[1], 0);
  assert_int_equal(s.order[2], 2);
  assert_int_equal(s.order[3], 1);
  assert_string_equal(r2->user_name, "user-3");
  /* Taking a result leaves the handle without it. */
  sc_run_result *taken = sc_multi_take(m, 0);
  assert_ptr_equal(taken, r0);
  assert_null(sc_multi_result(m, 0));
  sc_run_result_free(taken);
  sc_multi_free(m);
}

/* Watched for a shared display (the I/O passes through the detector), a
 * failing step still asks its page whether the input left the browser
 * (the lost-input check, input_seen.c): the detector's I/O forwards that
 * question to the page's own, with the page's context. Sabotage: a
 * detector that drops it leaves every step unasked. */
typedef struct ask {
  sc__io_inputs cb;
  void *ud;
} ask;
static ask g_asks_q[64];
static int g_inputs_asked, g_inputs_wrong_ctx;
static void inputs_fail(void *ud) {
  ask *a = ud;
  a->cb(SC_ETIMEDOUT, "Runtime.evaluate: timed out", NULL, a->ud);
}
static int counting_inputs(void *ctx, double timeout_ms, sc__io_inputs cb, void *ud) {
  (void)timeout_ms;
  world *w = ctx;
  g_inputs_wrong_ctx += !w || w->delay != 77; /* the page's own context */
  ask *a = &g_asks_q[g_inputs_asked++ % 64];
  *a = (ask){cb, ud};
  post(g_t + 2, 2, (void *)inputs_fail, a);
  return 0;
}
static void a_watched_user_still_asks_about_lost_input(void **st) {
  (void)st;
  world w[2];
  memset(w, 0, sizeof w);
  w[0].after = w[1].after = NULL; /* the app ignores the clicks: every step fails */
  w[0].delay = w[1].delay = 77;
  g_steps[0].timeout_ms = g_steps[1].timeout_ms = 500;
  seen s = {0};
  sc_multi *m = multi(&s, 1);
  assert_int_equal(sc__multi_watch_shared(m), 0);
  g_inputs_asked = g_inputs_wrong_ctx = 0;
  sc__runner_io io[2];
  for (int i = 0; i < 2; i++) {
    io[i] = io_for(&w[i]);
    io[i].inputs = counting_inputs;
    assert_int_equal(sc__multi_add_io(m, NULL, &io[i], W, H), i);
  }
  run_loop(1e12);
  assert_int_equal(g_inputs_asked, 4); /* two failing steps of two users */
  assert_int_equal(g_inputs_wrong_ctx, 0);
  assert_false(sc_multi_result(m, 0)->passed); /* a failed question keeps the verdict */
  assert_int_equal(sc_multi_result(m, 0)->steps_failed, 2);
  sc_multi_free(m);
}

/* A user canceled while the others run: it ends at once with the reason,
 * its step in progress dropped (no half-judged result), and the others go
 * on to pass. */
static void a_canceled_user_ends_alone(void **st) {
  (void)st;
  world w[3];
  memset(w, 0, sizeof w);
  for (int i = 0; i < 3; i++) w[i].after = "KLMN", w[i].delay = 300;
  seen s = {0};
  sc_multi *m = multi(&s, 1);
  sc__runner_io io[3];
  for (int i = 0; i < 3; i++) {
    io[i] = io_for(&w[i]);
    assert_int_equal(sc__multi_add_io(m, NULL, &io[i], W, H), i);
  }
  run_loop(g_t + 100); /* everyone is inside the first step */
  assert_int_equal(sc_multi_active(m), 3);
  assert_int_equal(sc_multi_cancel(m, 1, "by the test"), 0);
  run_loop(1e12);
  assert_int_equal(sc_multi_active(m), 0);
  const sc_run_result *r1 = sc_multi_result(m, 1);
  assert_false(r1->passed);
  assert_non_null(strstr(r1->error, "by the test"));
  assert_int_equal(r1->nresults, 0);
  assert_int_equal(sc__multi_user_rc(m, 1), SC_ECANCELED);
  assert_true(sc_multi_result(m, 0)->passed);
  assert_true(sc_multi_result(m, 2)->passed);
  assert_int_equal(s.order[0], 1); /* it ended first, at the cancel */
  assert_int_equal(sc_multi_cancel(m, 7, "x"), SC_EINVAL);
  sc_multi_free(m);
}

/* Sabotage of the fixture: a world where every app ignores the clicks fails
 * every user (the engine tests above can fail). */
static void nothing_passes_when_no_app_answers(void **st) {
  (void)st;
  world w[2];
  memset(w, 0, sizeof w);
  g_steps[0].timeout_ms = g_steps[1].timeout_ms = 800;
  seen s = {0};
  sc_multi *m = multi(&s, 1);
  sc__runner_io io[2];
  for (int i = 0; i < 2; i++) {
    io[i] = io_for(&w[i]);
    assert_int_equal(sc__multi_add_io(m, NULL, &io[i], W, H), i);
  }
  run_loop(1e12);
  for (int i = 0; i < 2; i++) {
    assert_false(sc_multi_result(m, (size_t)i)->passed);
    assert_int_equal(sc_multi_result(m, (size_t)i)->steps_passed, 0);
  }
  sc_multi_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(users_end_on_their_own, setup, teardown),
      cmocka_unit_test_setup_teardown(a_watched_user_still_asks_about_lost_input, setup, teardown),
      cmocka_unit_test_setup_teardown(a_canceled_user_ends_alone, setup, teardown),
      cmocka_unit_test_setup_teardown(nothing_passes_when_no_app_answers, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
