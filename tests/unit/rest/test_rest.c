/* The rest object (lib/rest) on its own, on the runner's scripted world
 * (../run/world.h: a screen that is a frame id from a time on, captures
 * and a fake paint log on a fake clock), with hooks of its own: the
 * seedless, seeded and blind settle, the response window held against a
 * late answer after an identical repaint, "stable" proven by the log, and
 * the witness sending a job to pairs. Each case runs its sabotage beside
 * it where it can (the same world without the part under test), so that
 * the assertion is shown to depend on it. */
#include "../run/world.h"

#include "rest/rest.h"

static sc__rest g_rest;
static sc__io g_io;
static int g_done;
static sc__rest_proof g_p;
static sc__frame g_pf;
static uint64_t g_after[64]; /* the `after` of every log ask */
static int g_nafter;

static int o_reply(void *ud, int status, const char *errmsg) {
  (void)ud;
  return status ? sc__err(status, "%s", errmsg ? errmsg : "failed") : 0;
}
static void o_asked(void *ud, int timed) { (void)ud, (void)timed; }
static void (*g_tfn)(void *);
static void *g_targ;
static void o_tick(void *ud) {
  (void)ud;
  g_tfn(g_targ);
}
static int o_after(void *ud, double at, void (*fn)(void *), void *arg) {
  (void)ud;
  g_tfn = fn;
  g_targ = arg;
  return f_timer(NULL, at, o_tick, NULL) ? 0 : SC_ENOMEM;
}
static int w_log_wait(void *ctx, const sc__log_ask *a, sc__io_logged cb, void *ud) {
  if (g_nafter < 64) g_after[g_nafter++] = a->after;
  return f_log_wait(ctx, a, cb, ud);
}

static void done(void *ud, const sc__rest_proof *p) {
  (void)ud;
  g_done++;
  g_p = *p;
  sc__frame_free(&g_pf);
  sc__frame_move(&g_pf, p->f);
}

/* A fresh rest object over the world: with the paint log (log = 1) or
 * none (pairs). */
static void rest_new(int log) {
  g_io = k_io;
  g_io.log_wait = log ? w_log_wait : NULL;
  sc__rest_owner own = {o_reply, o_asked, o_after, NULL};
  sc__rest_config cfg = {.quiet_ms = 150, .capture_ms = 50};
  sc__rest_clear(&g_rest);
  sc__rest_init(&g_rest, &g_io, own, cfg);
  g_done = 0;
  g_nafter = 0;
  sc__frame_free(&g_pf);
}

static int rsetup(void **st) {
  setup(st);
  rest_new(1);
  return 0;
}
static int rteardown(void **st) {
  sc__rest_clear(&g_rest);
  sc__frame_free(&g_pf);
  return teardown(st);
}

/* The world afresh, for a sabotage run beside a case. */
static void reset_world(void) {
  teardown(NULL);
  setup(NULL);
  rest_new(1);
}

static void run(void) {
  run_loop(1e9);
  assert_int_equal(g_done, 1);
}

/* The frame id a frame shows at (11, 11): 'A' is black there, every other
 * capital white. */
static int shows_a(sc__frame *f) {
  if (sc__frame_pixels(f) < 0) return -1;
  return (f->img->px[(size_t)11 * f->img->stride + 11 * 4] == 0);
}

static const sc_rect k_all = {0, 0, W, H};

/* A seed of the whole screen showing frame id. */
static sc__frame seed_of(char id) {
  sc__frame f = {0};
  assert_int_equal(paint(&f.img, id, k_all, 0), 0);
  f.clip = k_all;
  return f;
}

/* A wait without a seed counts from the log's position when it starts:
 * on a page that made more entries than the ring holds, an ask from 0 is
 * "lost" at every check and the screen is never at rest. Sabotage (the
 * same ask from 0, as before 0.5): not at rest by the deadline. */
static void a_seedless_settle_counts_from_now(void **st) {
  (void)st;
  for (int i = 0; i < SC__LOG_RING + 44; i++) g_w.ch[g_w.nch++] = (change){.at = 100 + i, .id = 'A'};
  sc__rest_settle(&g_rest, k_all, g_t + 2000, 0, NULL, (sc__rest_mark){0, 0}, done, NULL);
  run();
  assert_int_equal(g_p.rc, 0);
  assert_int_equal(g_after[0], SC__LOG_FROM_NOW);
  assert_int_equal(g_captures, 1);
  assert_true(g_p.mark.ok);
  /* sabotage: a seed "proven" at 0 on the same page, with its mark
   * trusted, asks from 0: lost, so never at rest */
  sc__frame seed = seed_of('A');
  rest_new(1);
  sc__rest_settle(&g_rest, k_all, g_t + 2000, 0, &seed, (sc__rest_mark){0, 1}, done, NULL);
  sc__frame_free(&seed);
  run();
  assert_int_equal(g_after[0], 0);
  assert_int_equal(g_p.rc, SC__NOT_AT_REST);
}

/* A seed proven at a log position is the answer without a capture when
 * nothing painted over the clip since; one paint since costs a capture
 * (and says so: seed_used 0). */
static void a_proven_seed_answers_without_a_capture(void **st) {
  (void)st;
  sc__frame seed = seed_of('A');
  sc__rest_settle(&g_rest, k_all, g_t + 2000, 0, &seed, (sc__rest_mark){0, 1}, done, NULL);
  run();
  assert_int_equal(g_p.rc, 0);
  assert_int_equal(g_captures, 0);
  assert_int_equal(g_p.seed_used, 1);
  assert_int_equal(shows_a(&g_pf), 1);
  sc__frame_free(&seed);
  /* a paint after the seed's mark */
  g_w.ch[g_w.nch++] = (change){.at = g_t + 10, .id = 'K'};
  seed = seed_of('A');
  rest_new(1);
  sc__rest_settle(&g_rest, k_all, g_t + 2000, 0, &seed, (sc__rest_mark){0, 1}, done, NULL);
  sc__frame_free(&seed);
  run();
  assert_int_equal(g_p.rc, 0);
  assert_int_equal(g_captures, 1);
  assert_int_equal(g_p.seed_used, 0);
  assert_int_equal(shows_a(&g_pf), 0);
}

/* Where the log turned out blind, rest by pairs is the screen unchanged
 * for the quiet time, and a seed never starts that time: a region that
 * flickers every 100 ms (quiet 150) is never at rest, even when the first
 * capture shows the seed's pixels. Sabotage (a seed counted as quiet since
 * long ago, the rule before 0.5): at rest after that one capture. */
static void a_blind_settle_holds_a_seed_for_the_quiet_time(void **st) {
  (void)st;
  for (int i = 0; i < 40; i++)
    g_w.ch[g_w.nch++] = (change){.at = g_t - 50 + 100 * i, .id = i % 2 ? 'K' : 'A'};
  sc__rest_off(&g_rest, "a WebGL canvas on or over the guest");
  assert_true(sc__rest_blind_quiet(&g_rest) == 150);
  sc__frame seed = seed_of('A');
  sc__rest_settle(&g_rest, k_all, g_t + 1000, 0, &seed, (sc__rest_mark){0, 0}, done, NULL);
  sc__frame_free(&seed);
  run();
  assert_int_equal(g_p.rc, SC__NOT_AT_REST);
  assert_true(g_captures > 10);
  /* the same screen still: at rest once 150 ms of captures saw it */
  g_w.nch = 0;
  g_captures = 0;
  rest_new(1);
  sc__rest_off(&g_rest, "a WebGL canvas on or over the guest");
  seed = seed_of('A');
  double t0 = g_t;
  sc__rest_settle(&g_rest, k_all, g_t + 1000, 0, &seed, (sc__rest_mark){0, 0}, done, NULL);
  sc__frame_free(&seed);
  run();
  assert_int_equal(g_p.rc, 0);
  assert_true(g_t - t0 >= 150);
  assert_true(g_captures >= 4); /* 150 ms of 40 ms captures, back to back */
}

/* The judge of the cases below: the screen shows 'A'. */
static int judged_a;
static int wants_a(void *ud, sc__frame *f, sc__frame *prev, int same, double t_req,
                   double t_reply) {
  (void)ud, (void)prev, (void)same, (void)t_req, (void)t_reply;
  judged_a++;
  return shows_a(f) == 1;
}

static sc__rest_want want_after_input(double window, int no_change) {
  sc__rest_want w = {.clip = k_all,
                     .wide = k_all,
                     .deadline = g_t + 2000,
                     .gesture_end = g_t,
                     .input_at = g_t,
                     .not_before = no_change ? g_t + window : 0,
                     .window_ms = window,
                     .need_paint = !no_change,
                     .from = {log_pos(&g_w, g_t), 1},
                     .log = 1};
  return w;
}

/* A click answered in two pieces, an identical repaint at +60 and the real
 * change at +400, with the step expecting the screen unchanged: nothing
 * is final before the response window (500 ms) is over, so the verdict
 * sees the change and never accepts. Sabotage (no window held, the rule
 * before 0.5): accepted on the identical repaint, at about +210. */
static void a_late_answer_after_an_identical_repaint_is_seen(void **st) {
  (void)st;
  double t0 = g_t;
  g_w.ch[g_w.nch++] = (change){.at = t0 + 60, .id = 'A'};
  g_w.ch[g_w.nch++] = (change){.at = t0 + 400, .id = 'K'};
  sc__rest_want w = want_after_input(500, 1);
  sc__rest_verdict(&g_rest, &w, wants_a, done, NULL);
  run();
  assert_int_equal(g_p.rc, SC__NOT_AT_REST);
  assert_int_equal(shows_a(&g_pf), 0);
  /* sabotage: the same world, the window not held */
  reset_world();
  t0 = g_t;
  g_w.ch[g_w.nch++] = (change){.at = t0 + 60, .id = 'A'};
  g_w.ch[g_w.nch++] = (change){.at = t0 + 400, .id = 'K'};
  w = want_after_input(500, 1);
  w.not_before = 0;
  sc__rest_verdict(&g_rest, &w, wants_a, done, NULL);
  run();
  assert_int_equal(g_p.rc, 0);
  assert_true(g_p.at - t0 < 400);
}

/* "stable" (a frame final at rest) under the log: proven by the log's
 * quiet time, not by waiting for the deadline. The job's proof says so
 * (log_settled: the step then holds "stable"), within the quiet time and
 * two captures of the last paint (the first, taken at once, sees the paint
 * come during it: not settled). */
static void a_still_screen_is_proven_by_the_log_at_once(void **st) {
  (void)st;
  double t0 = g_t;
  g_w.ch[g_w.nch++] = (change){.at = t0 + 30, .id = 'A'};
  sc__rest_want w = want_after_input(500, 0);
  w.input_at = 0; /* no gesture: the screen as it is */
  w.need_paint = 0;
  sc__rest_verdict(&g_rest, &w, wants_a, done, NULL);
  run();
  assert_int_equal(g_p.rc, 0);
  assert_true(g_p.log_settled);
  assert_string_equal(g_p.by, "paint-log");
  assert_true(g_p.proven - t0 < 30 + 150 + 4 * CAP);
  assert_int_equal(g_captures, 2);
}

/* A change the log cannot see (an unseen one: CSS, an SVG, a form
 * control) reported by the witness sends the job to pairs for the rest of
 * it, with the witness's reason; the next step tries the log again.
 * Sabotage (no witness): the log proves a frame final that the screen
 * changed after, and the job ends by the log. */
static void run_unseen(int witness) {
  double t0 = g_t;
  g_no_witness = !witness;
  g_w.ch[g_w.nch++] = (change){.at = t0 + 20, .id = 'A', .unseen = 1};
  g_w.ch[g_w.nch++] = (change){.at = t0 + 260, .id = 'K', .unseen = 1};
  g_w.ch[g_w.nch++] = (change){.at = t0 + 520, .id = 'A', .unseen = 1};
  sc__rest_want w = want_after_input(500, 0);
  w.input_at = 0;
  w.need_paint = 0;
  sc__rest_verdict(&g_rest, &w, wants_a, done, NULL);
  run();
}
static void an_unexplained_frame_sends_the_job_to_pairs(void **st) {
  (void)st;
  run_unseen(1);
  assert_int_equal(g_p.rc, 0);
  assert_string_equal(g_p.by, "pairs");
  assert_string_equal(sc__rest_why(&g_rest), SC__WITNESS_WHY);
  assert_true(g_p.at > g_t - 1000); /* held for the quiet time by pairs */
  sc__rest_step(&g_rest);
  assert_true(sc__rest_logging(&g_rest));
  /* sabotage: without the witness the log alone proves it */
  reset_world();
  run_unseen(0);
  assert_int_equal(g_p.rc, 0);
  assert_string_equal(g_p.by, "paint-log");
}

int main(void) {
  const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, rsetup, rteardown)
      T(a_seedless_settle_counts_from_now),
      T(a_proven_seed_answers_without_a_capture),
      T(a_blind_settle_holds_a_seed_for_the_quiet_time),
      T(a_late_answer_after_an_identical_repaint_is_seen),
      T(a_still_screen_is_proven_by_the_log_at_once),
      T(an_unexplained_frame_sends_the_job_to_pairs),
#undef T
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
