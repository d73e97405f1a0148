/* A load run (sc_load_run's engine, sc__load_run_with) over scripted page
 * I/O and the fake clock (world.h), no browser: the warm-up alone first,
 * users added in levels on the ramp, every level judged by the quality bar
 * against the warm-up. A user whose app answers slowly degrades the level
 * it was added in; with every app quick, every level is healthy (the same
 * run, the control that shows the verdict is the slow app's). */
#include "world.h"

#include "run/engine.h"

#define USERS 4

/* An app that answers every click with a new frame `delay` ms later. */
static int each_click(void *ctx, sc_point at, sc__io_done cb, void *ud) {
  world *w = world_of(ctx);
  (void)at;
  if (w->after && w->after[w->nclick % 8])
    w->ch[w->nch++] = (change){.at = g_t + w->delay, .id = w->after[w->nclick % 8]};
  w->nclick++;
  post(g_t + 3, 0, (void *)cb, ud);
  return 0;
}

typedef struct rig {
  world w[USERS + 1]; /* [0] the warm-up's */
  sc__runner_io io[USERS + 1];
  int added[USERS + 1];
} rig;

static int add_user(void *ctx, sc_multi *m, int i, const char *name) {
  rig *g = ctx;
  g->added[i + 1]++;
  return sc__multi_add_io(m, name, &g->io[i + 1], W, H);
}

/* The fake loop up to now + wait: time passes even when nothing is due. */
static int perform(void *ctx, sc_multi *m, double wait_ms) {
  (void)ctx;
  double until = g_t + (wait_ms > 0 ? wait_ms : 0);
  run_loop(until);
  if (g_t < until) g_t = until;
  return sc_multi_active(m);
}

static sc_load_result *load_with(rig *g, double slow_delay, const char *dir, long long frames) {
  memset(g, 0, sizeof *g);
  for (int i = 0; i <= USERS; i++) {
    g->w[i].after = "KLMNKLMN";
    g->w[i].delay = 10;
    g->io[i] = k_io;
    g->io[i].ctx = &g->w[i];
    g->io[i].click = each_click;
  }
  g->w[USERS].delay = slow_delay; /* user-4, added with the second level */
  g_steps[0].timeout_ms = g_steps[1].timeout_ms = 4000;
  sc_load_options o = SC_LOAD_OPTIONS_INIT;
  o.users = USERS;
  o.ramp = 2;
  o.every_ms = 6000;
  o.cycles = 2;
  o.warmup_cycles = 1;
  o.report_dir = dir;
  o.pass_frames_bytes = frames;
  sc__load_driver d = {add_user, perform, g};
  sc_load_result *r = NULL;
  int rc = sc__load_run_with(&r, &g_s, &o, &d);
  if (rc < 0) fail_msg("load: %s", sc_errmsg());
  return r;
}

static sc_load_result *load(rig *g, double slow_delay) {
  return load_with(g, slow_delay, NULL, 0);
}

static void a_slow_user_degrades_its_level(void **st) {
  (void)st;
  rig g;
  sc_load_result *r = load(&g, 2000);
  for (int i = 0; i <= USERS; i++) assert_int_equal(g.added[i], 1);
  assert_non_null(r->warmup);
  assert_true(r->warmup->passed);
  assert_int_equal(r->nusers, USERS);
  assert_int_equal(r->nlevels, 2);
  assert_int_equal(r->levels[0]->users, 2);
  assert_int_equal(r->levels[1]->users, 4);
  /* the second level began every_ms after the first */
  assert_true(r->levels[1]->start_ms - r->levels[0]->start_ms >= 6000);
  assert_true(r->levels[0]->healthy);
  assert_false(r->levels[1]->healthy);
  assert_non_null(r->levels[1]->reason);
  assert_non_null(strstr(r->levels[1]->reason, "user-4"));
  assert_int_equal(r->last_healthy_users, 2);
  /* every user verified every step: slow is not failed */
  for (size_t i = 0; i < r->nusers; i++) assert_true(r->users[i]->passed);
  assert_int_equal(r->steps_failed, 0);
  assert_int_equal(r->steps_passed, USERS * 2 * 2);
  sc_load_result_free(r);
}

static void quick_apps_keep_every_level_healthy(void **st) {
  (void)st;
  rig g;
  sc_load_result *r = load(&g, 10);
  assert_int_equal(r->nlevels, 2);
  assert_true(r->levels[0]->healthy);
  assert_true(r->levels[1]->healthy);
  assert_int_equal(r->last_healthy_users, USERS);
  assert_true(r->passed);
  sc_load_result_free(r);
}

/* Passed steps' frames: one budget for the whole load (the warm-up and
 * every user count against it, on two multi handles), each result says
 * what it was and what its user wrote. */
static void one_frame_budget_for_the_whole_load(void **st) {
  (void)st;
  rig g;
  char *dir = sc_test_mkdtemp();
  sc_load_result *r = load_with(&g, 10, dir, 1 << 30);
  const sc_run_result *all[USERS + 1] = {r->warmup};
  for (size_t i = 0; i < r->nusers; i++) all[i + 1] = r->users[i];
  long long warm = r->warmup->pass_frames_written;
  for (int u = 0; u <= USERS; u++) {
    assert_true(all[u]->pass_frames_budget == 1 << 30);
    assert_true(all[u]->pass_frames_written > 0);
    for (size_t i = 0; i < all[u]->nresults; i++) {
      assert_true(all[u]->results[i]->passed);
      assert_int_equal(all[u]->results[i]->nartifacts, 2); /* one region: before, after */
    }
  }
  sc_load_result_free(r);
  sc_test_rmtree(dir);
  free(dir);
  /* room for the warm-up's frames only: no user keeps any */
  dir = sc_test_mkdtemp();
  r = load_with(&g, 10, dir, warm);
  assert_true(r->warmup->pass_frames_written == warm);
  for (size_t u = 0; u < r->nusers; u++) {
    assert_true(r->users[u]->pass_frames_written == 0);
    for (size_t i = 0; i < r->users[u]->nresults; i++) {
      assert_int_equal(r->users[u]->results[i]->nartifacts, 0);
      assert_int_equal(r->users[u]->results[i]->frames_skipped, 1);
    }
  }
  sc_load_result_free(r);
  sc_test_rmtree(dir);
  free(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(a_slow_user_degrades_its_level, setup, teardown),
      cmocka_unit_test_setup_teardown(quick_apps_keep_every_level_healthy, setup, teardown),
      cmocka_unit_test_setup_teardown(one_frame_budget_for_the_whole_load, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
