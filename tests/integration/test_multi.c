/* Many users from one process on the fixture map app, in real Chromium:
 * 8 users x 3 cycles on one loop, every step verified; one user's page
 * crashed on purpose and one hung on purpose fail alone, within their
 * deadline, while the others finish; users spread over two separately
 * launched browsers given as endpoints. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "browser/handle.h"
#include "cdp/client.h"
#include "core/core.h"
#include "page/tab.h"
#include "run/engine.h"
#include "stepcheck.h"

static sc_scenario *g_s;
static char g_url[4096];

static int group_setup(void **st) {
  (void)st;
  if (sc_scenario_load(&g_s, sc_test_fixture("mapapp/seven-steps.json")) < 0) {
    fprintf(stderr, "scenario: %s\n", sc_errmsg());
    return -1;
  }
  snprintf(g_url, sizeof g_url, "file://%s", sc_test_fixture("mapapp/index.html"));
  return 0;
}

static int group_teardown(void **st) {
  (void)st;
  sc_scenario_free(g_s);
  return 0;
}

static void print_user(const sc_run_result *u) {
  fprintf(stderr, "  %s: %d passed, %d failed%s%s\n", u->user_name, u->steps_passed,
          u->steps_failed, u->error ? ", error: " : "", u->error ? u->error : "");
  for (size_t i = 0; i < u->nresults; i++)
    if (!u->results[i]->passed)
      fprintf(stderr, "    c%d %s FAIL %s\n", u->results[i]->cycle, u->results[i]->step_id,
              u->results[i]->reason);
}

/* Launch a browser on loop l. */
static sc_browser *launch_on(sc_loop *l) {
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  bo.loop = l;
  sc_browser *b = NULL;
  if (sc_browser_launch(&b, &bo) < 0) fail_msg("launch: %s", sc_errmsg());
  return b;
}

static void eight_users_three_cycles_on_one_loop(void **st) {
  (void)st;
  sc_loop *l = NULL;
  assert_int_equal(sc_loop_new(&l), 0);
  sc_browser *b = launch_on(l);
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.cycles = 3;
  sc_multi *m = NULL;
  assert_int_equal(sc_multi_new(&m, g_s, &mo), 0);
  for (int i = 0; i < 8; i++) assert_int_equal(sc_multi_add(m, b, g_url, NULL), i);
  double t0 = sc__now_ms();
  while (sc_multi_perform(m, 1000) > 0) assert_true(sc__now_ms() - t0 < 300000);
  assert_int_equal(sc_multi_count(m), 8);
  for (size_t i = 0; i < 8; i++) {
    const sc_run_result *u = sc_multi_result(m, i);
    print_user(u);
    /* Every user's own steps, all verified: 1 setup + 3 x 7. Each user's
     * deselect and show-layer must come back EXACTLY to its own earlier
     * snapshots while the other seven click on theirs at the same time:
     * one shared page (or shared state) could not pass that. */
    assert_null(u->error);
    assert_int_equal(u->nresults, 22);
    assert_int_equal(u->steps_failed, 0);
    assert_true(u->passed);
    assert_int_equal(u->user, (int)i);
    char name[16];
    snprintf(name, sizeof name, "user-%zu", i + 1);
    assert_string_equal(u->user_name, name);
    assert_true(u->ended_unix_ms > u->started_unix_ms);
  }
  /* The users ran at the same time, not one after the other: every user
   * started before any of them ended. */
  double first_end = 1e300, last_start = 0;
  for (size_t i = 0; i < 8; i++) {
    const sc_run_result *u = sc_multi_result(m, i);
    if (u->ended_unix_ms < first_end) first_end = u->ended_unix_ms;
    if (u->results[0]->started_unix_ms > last_start) last_start = u->results[0]->started_unix_ms;
  }
  assert_true(last_start < first_end);
  sc_multi_free(m);
  sc_browser_free(b);
  sc_loop_free(l);
}

/* Break user `victim`'s page once it finished its first cycle step. */
typedef struct saboteur {
  sc_multi *m;
  int victim;
  const char *how; /* "crash" or "hang" */
  int done;
  double at;       /* monotonic ms when it was broken */
} saboteur;

static void break_page(const sc_run_result *u, const sc_step_result *r, void *ud) {
  saboteur *sb = ud;
  if (sb->done || u->user != sb->victim || r->setup) return;
  sc_page *p = sc__multi_page(sb->m, (size_t)sb->victim);
  assert_non_null(p);
  sc__cdp *cdp = sc__client_cdp(p->cl);
  if (!strcmp(sb->how, "crash")) {
    assert_int_equal(sc__cdp_send(cdp, p->session_id, "Page.crash", NULL, 5000, NULL, NULL, NULL), 0);
  } else {
    /* The renderer spins forever: nothing it is asked answers again. */
    assert_int_equal(sc__cdp_send(cdp, p->session_id, "Runtime.evaluate",
                                  json_pack("{s:s}", "expression", "for(;;){}"), 60000, NULL,
                                  NULL, NULL),
                     0);
  }
  sb->done = 1;
  sb->at = sc__now_ms();
}

static void one_broken_user_fails_alone(const char *how, const char *want, double within_ms) {
  sc_loop *l = NULL;
  assert_int_equal(sc_loop_new(&l), 0);
  sc_browser *b = launch_on(l);
  saboteur sb = {NULL, 2, how, 0, 0};
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.cycles = 2;
  mo.on_step = break_page;
  mo.userdata = &sb;
  assert_int_equal(sc_multi_new(&sb.m, g_s, &mo), 0);
  for (int i = 0; i < 4; i++) assert_int_equal(sc_multi_add(sb.m, b, g_url, NULL), i);
  double victim_end = 0;
  while (sc_multi_perform(sb.m, 1000) > 0)
    if (!victim_end && sb.done && !sc_multi_running(sb.m, 2)) victim_end = sc__now_ms();
  if (!victim_end) victim_end = sc__now_ms();
  assert_true(sb.done);
  for (size_t i = 0; i < 4; i++) {
    const sc_run_result *u = sc_multi_result(sb.m, i);
    print_user(u);
    if (i == 2) {
      assert_false(u->passed);
      assert_non_null(u->error);
      if (!strstr(u->error, want)) fail_msg("victim's error '%s' lacks '%s'", u->error, want);
      /* it ended within its deadline, not after the others */
      assert_true(victim_end - sb.at < within_ms);
    } else {
      assert_null(u->error);
      assert_int_equal(u->nresults, 15);
      assert_true(u->passed);
    }
  }
  sc_multi_free(sb.m);
  sc_browser_free(b);
  sc_loop_free(l);
}

static void crashed_page_fails_only_its_user(void **st) {
  (void)st;
  one_broken_user_fails_alone("crash", "crashed", 5000);
}

static void hung_page_fails_only_its_user(void **st) {
  (void)st;
  /* a capture waits what is left of its step (<= 8 s) + 2 s grace */
  one_broken_user_fails_alone("hang", "timed out", 12000);
}

/* Two browsers launched on their own, given to a load run as endpoints:
 * two users land in each (counted in the browsers themselves). */
typedef struct spread {
  sc_browser *b[2];
  int pages[2];
  int counted;
} spread;

static int count_pages(sc_browser *b) {
  json_t *res = NULL;
  if (sc__client_call(sc__browser_client(b), NULL, "Target.getTargets", NULL, 5000, &res) < 0)
    return -1;
  size_t i, n = 0;
  json_t *t;
  json_array_foreach(json_object_get(res, "targetInfos"), i, t) {
    const char *url = json_string_value(json_object_get(t, "url"));
    n += url && strstr(url, "mapapp/index.html") != NULL;
  }
  json_decref(res);
  return (int)n;
}

static void count_on_step(const sc_run_result *u, const sc_step_result *r, void *ud) {
  spread *sp = ud;
  if (sp->counted || u->user != 3 || r->setup) return;
  for (int i = 0; i < 2; i++) sp->pages[i] = count_pages(sp->b[i]);
  sp->counted = 1;
}

static void users_spread_over_two_browsers(void **st) {
  (void)st;
  spread sp = {{NULL, NULL}, {0, 0}, 0};
  for (int i = 0; i < 2; i++) assert_int_equal(sc_browser_launch(&sp.b[i], NULL), 0);
  const char *ep[3] = {sc_browser_ws_url(sp.b[0]), sc_browser_ws_url(sp.b[1]), NULL};
  sc_load_options o = SC_LOAD_OPTIONS_INIT;
  o.users = 4;
  o.users_per_browser = 2;
  o.warmup_cycles = 0;
  o.cycles = 1;
  o.endpoints = ep;
  o.url = g_url;
  o.on_step = count_on_step;
  o.userdata = &sp;
  sc_load_result *r = NULL;
  int rc = sc_load_run(&r, g_s, &o);
  if (rc < 0) fail_msg("load: %s", sc_errmsg());
  for (size_t i = 0; i < r->nusers; i++) print_user(r->users[i]);
  assert_int_equal(r->nusers, 4);
  assert_true(r->passed);
  assert_int_equal(r->steps_failed, 0);
  assert_int_equal(r->steps_passed, 4 * 8);
  assert_true(sp.counted);
  assert_int_equal(sp.pages[0], 2);
  assert_int_equal(sp.pages[1], 2);
  assert_int_equal(r->nlevels, 1);
  assert_true(r->nsamples >= 1);
  sc_load_result_free(r);
  /* attached, not launched: the browsers outlive the run, and its pages
   * are gone. Their contexts are disposed by the browser as the run's
   * connections close (disposeOnDetach), which it finishes a moment after
   * sc_load_run returns on a busy machine (seen once in CI): poll, 5 s. */
  int left0 = count_pages(sp.b[0]), left1 = count_pages(sp.b[1]);
  for (int i = 0; i < 50 && (left0 != 0 || left1 != 0); i++) {
    usleep(100 * 1000);
    left0 = count_pages(sp.b[0]);
    left1 = count_pages(sp.b[1]);
  }
  assert_int_equal(left0, 0);
  assert_int_equal(left1, 0);
  for (int i = 0; i < 2; i++) sc_browser_free(sp.b[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(eight_users_three_cycles_on_one_loop),
      cmocka_unit_test(crashed_page_fails_only_its_user),
      cmocka_unit_test(hung_page_fails_only_its_user),
      cmocka_unit_test(users_spread_over_two_browsers),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
