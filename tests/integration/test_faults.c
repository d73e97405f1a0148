/* Faults on the browser side, in real Chromium, each with what the library
 * must return and how fast: a browser killed mid-run (its users fail at
 * once with partial results, the users of another browser finish), a
 * browser frozen mid-step (an infrastructure error, never the application's
 * FAIL), a dropped websocket (an attached browser's connection shut down
 * under it), a crashed renderer (later calls say "target crashed"), and a
 * page that never paints a canvas (the open fails within its timeout,
 * saying so). The renderer crash and hang of one user among several are in
 * test_multi.c. */
#include "testutil.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "browser/handle.h"
#include "cdp/client_priv.h"
#include "core/core.h"
#include "page/tab.h"
#include "run/engine.h"
#include "stepcheck.h"

static sc_scenario *g_s;     /* the fixture map app's seven steps */
static sc_scenario *g_wait;  /* one step that waits 3 s for a change that never comes */
static char g_url[4096];
static char *g_dir;

/* A step that polls for its whole 3 s timeout: a freeze lands in its
 * polling, where a late capture used to become the app's "unchanged". */
static const char k_wait_json[] =
    "{\"app\": \"mapapp\", \"url\": \"http://127.0.0.1:9/\",\n"
    " \"viewport\": {\"width\": 1600, \"height\": 940},\n"
    " \"guest\": {\"width\": 1600, \"height\": 900},\n"
    " \"regions\": {\"tags\": [1272, 234, 323, 180]},\n"
    " \"cycle\": [{\"id\": \"wait\", \"none\": true, \"timeout_ms\": 3000,\n"
    "   \"expect\": [{\"changed\": \"tags\", \"min_pixels\": 200}]}]}\n";

static int group_setup(void **st) {
  (void)st;
  if (sc_scenario_load(&g_s, sc_test_fixture("mapapp/seven-steps.json")) < 0) {
    fprintf(stderr, "scenario: %s\n", sc_errmsg());
    return -1;
  }
  snprintf(g_url, sizeof g_url, "file://%s", sc_test_fixture("mapapp/index.html"));
  g_dir = sc_test_mkdtemp();
  char path[4200];
  snprintf(path, sizeof path, "%s/wait.json", g_dir);
  FILE *f = fopen(path, "w");
  if (!f || fputs(k_wait_json, f) < 0 || fclose(f) != 0) return -1;
  if (sc_scenario_load(&g_wait, path) < 0) {
    fprintf(stderr, "scenario: %s\n", sc_errmsg());
    return -1;
  }
  return 0;
}

static int group_teardown(void **st) {
  (void)st;
  sc_scenario_free(g_s);
  sc_scenario_free(g_wait);
  sc_test_rmtree(g_dir);
  free(g_dir);
  return 0;
}

static void print_user(const sc_run_result *u) {
  fprintf(stderr, "  %s: %zu results, %d passed, %d failed%s%s\n", u->user_name, u->nresults,
          u->steps_passed, u->steps_failed, u->error ? ", error: " : "", u->error ? u->error : "");
  for (size_t i = 0; i < u->nresults; i++)
    if (!u->results[i]->passed)
      fprintf(stderr, "    c%d %s FAIL %s\n", u->results[i]->cycle, u->results[i]->step_id,
              u->results[i]->reason);
}

/* Nothing was blamed on the application: every step that did not pass
 * carries the infrastructure's reason. */
static void only_infra_failures(const sc_run_result *u, const char *why) {
  for (size_t i = 0; i < u->nresults; i++)
    if (!u->results[i]->passed && !strstr(u->results[i]->reason, why))
      fail_msg("%s: step %s failed with '%s', not '%s'", u->user_name, u->results[i]->step_id,
               u->results[i]->reason, why);
}

static sc_browser *launch_on(sc_loop *l) {
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  bo.loop = l;
  sc_browser *b = NULL;
  if (sc_browser_launch(&b, &bo) < 0) fail_msg("launch: %s", sc_errmsg());
  return b;
}

/* What a fault does, from the first cycle step of user `victim` on. */
typedef struct fault {
  int victim;
  void (*act)(struct fault *f);
  int done;
  double at;          /* monotonic ms when it was done */
  sc_browser *b;      /* the browser it acts on */
  sc_multi *m;
} fault;

static void on_step(const sc_run_result *u, const sc_step_result *r, void *ud) {
  fault *f = ud;
  if (f->done || u->user != f->victim || r->setup) return;
  f->act(f);
  f->done = 1;
  f->at = sc__now_ms();
}

/* Run m until every user ended; the victim's end time. */
static double perform_all(sc_multi *m, fault *f, double limit_ms) {
  double t0 = sc__now_ms(), victim_end = 0;
  while (sc_multi_perform(m, 200) > 0) {
    if (!victim_end && f->done && !sc_multi_running(m, (size_t)f->victim))
      victim_end = sc__now_ms();
    if (sc__now_ms() - t0 > limit_ms) fail_msg("users still running after %.0f ms", limit_ms);
  }
  return victim_end ? victim_end : sc__now_ms();
}

/* ---- browser killed mid-run ---- */


static void kill_browser(fault *f) {
  assert_int_equal(kill((pid_t)sc_browser_pid(f->b), SIGKILL), 0);
}

/* Two browsers on one loop, two users each; one browser is SIGKILLed
 * after its first user's first cycle step: both of its users fail with
 * "connection closed" within a second, keeping the results they had; the
 * other browser's users finish and pass. */
static void killed_browser_fails_its_users_only(void **st) {
  (void)st;
  sc_loop *l = NULL;
  assert_int_equal(sc_loop_new(&l), 0);
  sc_browser *b[2] = {launch_on(l), launch_on(l)};
  fault f = {0, kill_browser, 0, 0, b[0], NULL};
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.cycles = 1;
  mo.on_step = on_step;
  mo.userdata = &f;
  sc_multi *m = NULL;
  assert_int_equal(sc_multi_new(&m, g_s, &mo), 0);
  for (int i = 0; i < 4; i++) assert_int_equal(sc_multi_add(m, b[i / 2], g_url, NULL), i);
  f.m = m;
  double end = perform_all(m, &f, 120000);
  assert_true(f.done);
  fprintf(stderr, "  killed browser: its user ended %.0f ms after the kill\n", end - f.at);
  assert_true(end - f.at < 1000);
  for (size_t i = 0; i < 4; i++) {
    const sc_run_result *u = sc_multi_result(m, i);
    print_user(u);
    if (i < 2) {
      assert_false(u->passed);
      assert_non_null(u->error);
      if (!strstr(u->error, "connection closed"))
        fail_msg("user %zu's error '%s' lacks 'connection closed'", i, u->error);
      only_infra_failures(u, "connection closed");
    } else {
      assert_null(u->error);
      assert_true(u->passed);
      assert_int_equal(u->nresults, 8);
    }
  }
  /* partial results: the victim kept its setup step and first cycle step */
  const sc_run_result *v = sc_multi_result(m, 0);
  assert_true(v->nresults >= 2);
  assert_true(v->results[0]->passed && v->results[1]->passed);
  sc_multi_free(m);
  sc_browser_free(b[0]); /* reaps the killed browser, removes its profile */
  sc_browser_free(b[1]);
  sc_loop_free(l);
}

/* ---- browser frozen mid-step ---- */

/* The browser process (not its renderers) is stopped 1 s into the "wait"
 * step's 3 s of polling and continued 3 s later: the capture in flight
 * comes back after the step's timeout, before its own deadline (the
 * remaining time + 2 s). That used to read "tags unchanged" (a FAIL, the
 * application's); it is an infrastructure error now. */
typedef struct freeze {
  pid_t pid;
  double stop_at, cont_at; /* monotonic ms; 0 = not yet planned / done */
  int stopped, continued;
} freeze;

static void frozen_browser_is_an_infrastructure_error(void **st) {
  (void)st;
  sc_loop *l = NULL;
  assert_int_equal(sc_loop_new(&l), 0);
  sc_browser *b = launch_on(l);
  freeze fz = {(pid_t)sc_browser_pid(b), 0, 0, 0, 0};
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.cycles = 1;
  sc_multi *m = NULL;
  /* Screenshot pairs: their captures go through the browser process, so
   * stopping it stops the watch. On the paint log the renderer goes on
   * logging the page's paints while the browser process stands still (this
   * page needs no network), and the step is judged on that; a log answer
   * late by SC__LOG_LATE_MS, or a page heartbeat gap as long, is the stall
   * there (docs/reliability.md). */
  g_wait->rest_pairs = 1;
  assert_int_equal(sc_multi_new(&m, g_wait, &mo), 0);
  assert_int_equal(sc_multi_add(m, b, g_url, NULL), 0);
  double t0 = sc__now_ms();
  while (sc_multi_perform(m, 20) > 0) {
    double now = sc__now_ms();
    sc_page *p = sc__multi_page(m, 0);
    /* the page is open once it has its canvas: "wait" starts a few
     * captures later (park, at-rest pair) and polls for 3 s */
    if (!fz.stop_at && p && p->cw > 0) fz.stop_at = now + 1500;
    if (fz.stop_at && !fz.stopped && now >= fz.stop_at) {
      assert_int_equal(kill(fz.pid, SIGSTOP), 0);
      fz.stopped = 1;
      fz.cont_at = now + 3000;
    }
    if (fz.stopped && !fz.continued && now >= fz.cont_at) {
      assert_int_equal(kill(fz.pid, SIGCONT), 0);
      fz.continued = 1;
    }
    if (now - t0 > 60000) break;
  }
  if (fz.stopped && !fz.continued) kill(fz.pid, SIGCONT); /* never leave it stopped */
  const sc_run_result *u = sc_multi_result(m, 0);
  print_user(u);
  assert_true(fz.stopped);
  assert_false(u->passed);
  assert_non_null(u->error);
  if (!strstr(u->error, "browser did not answer for"))
    fail_msg("error '%s' does not name the stall", u->error);
  assert_int_equal(u->nresults, 1);
  only_infra_failures(u, "browser did not answer for");
  sc_multi_free(m);
  g_wait->rest_pairs = 0;
  sc_browser_free(b);
  sc_loop_free(l);
}

/* ---- websocket dropped ---- */

static void drop_socket(fault *f) {
  sc__client *cl = sc__browser_client(f->b);
  assert_non_null(cl->wsi);
  lws_sockfd_type fd = lws_get_socket_fd(cl->wsi);
  assert_true(fd >= 0);
  /* as a network failure would: no close handshake, the stream just ends */
  assert_int_equal(shutdown(fd, SHUT_RDWR), 0);
}

/* A browser attached over its websocket (as --browser does); the socket is
 * shut down under the client after the first cycle step: the user fails
 * at once with "connection closed" and keeps its results so far. */
static void dropped_websocket_fails_the_user_at_once(void **st) {
  (void)st;
  sc_loop *l = NULL;
  assert_int_equal(sc_loop_new(&l), 0);
  sc_browser *launched = launch_on(l);
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  bo.loop = l;
  sc_browser *b = NULL;
  assert_int_equal(sc_browser_connect(&b, sc_browser_ws_url(launched), &bo), 0);
  fault f = {0, drop_socket, 0, 0, b, NULL};
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.cycles = 1;
  mo.on_step = on_step;
  mo.userdata = &f;
  sc_multi *m = NULL;
  assert_int_equal(sc_multi_new(&m, g_s, &mo), 0);
  assert_int_equal(sc_multi_add(m, b, g_url, NULL), 0);
  double end = perform_all(m, &f, 60000);
  const sc_run_result *u = sc_multi_result(m, 0);
  print_user(u);
  fprintf(stderr, "  dropped websocket: user ended %.0f ms after the drop\n", end - f.at);
  assert_true(f.done);
  assert_true(end - f.at < 1000);
  assert_non_null(u->error);
  if (!strstr(u->error, "connection closed"))
    fail_msg("error '%s' lacks 'connection closed'", u->error);
  assert_true(u->nresults >= 2);
  assert_true(u->results[0]->passed && u->results[1]->passed);
  only_infra_failures(u, "connection closed");
  sc_multi_free(m);
  sc_browser_free(b);
  sc_browser_free(launched);
  sc_loop_free(l);
}

/* ---- renderer crashed ---- */

/* After Page.crash, a call on the page fails "target crashed" (Chromium
 * answers it with -32603 Internal error, or the crash event fails it),
 * within the page's deadline, never as a bare -32603. */
static void calls_after_a_crash_say_target_crashed(void **st) {
  (void)st;
  sc_browser *b = NULL;
  assert_int_equal(sc_browser_launch(&b, NULL), 0);
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  po.viewport_w = 1600;
  po.viewport_h = 940;
  po.guest_w = 1600;
  po.guest_h = 900;
  char url[4200];
  snprintf(url, sizeof url, "file://%s", sc_test_fixture("pages/pattern.html"));
  sc_page *p = NULL;
  if (sc_page_open(&p, b, url, &po) < 0) fail_msg("open: %s", sc_errmsg());
  sc__page_set_timeout(p, 5000);
  assert_int_equal(
      sc__cdp_send(sc__client_cdp(p->cl), p->session_id, "Page.crash", NULL, 5000, NULL, NULL, NULL),
      0);
  double t0 = sc__now_ms();
  while (!sc__page_crashed(p) && sc__now_ms() - t0 < 5000)
    sc__client_service(p->cl, 100);
  assert_true(sc__page_crashed(p));
  t0 = sc__now_ms();
  int rc = sc_page_click(p, (sc_point){10, 10});
  double took = sc__now_ms() - t0;
  fprintf(stderr, "  click after crash: %d %s (%.0f ms)\n", rc, sc_errmsg(), took);
  assert_int_equal(rc, SC_ECRASHED);
  assert_non_null(strstr(sc_errmsg(), "target crashed"));
  assert_true(took < 5000);
  sc_image *img = NULL;
  rc = sc_page_capture(&img, p, (sc_rect){0, 0, 10, 10}, 1.0, 0, NULL);
  fprintf(stderr, "  capture after crash: %d %s\n", rc, sc_errmsg());
  assert_int_equal(rc, SC_ECRASHED);
  assert_null(img);
  sc_page_free(p);
  sc_browser_free(b);
}

/* ---- a page that never paints ---- */

static void page_without_a_canvas_fails_its_open_in_time(void **st) {
  (void)st;
  sc_browser *b = NULL;
  assert_int_equal(sc_browser_launch(&b, NULL), 0);
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  po.guest_w = 800;
  po.guest_h = 600;
  po.load_timeout_ms = 2000;
  sc_page *p = NULL;
  double t0 = sc__now_ms();
  int rc = sc_page_open(&p, b, "about:blank", &po);
  double took = sc__now_ms() - t0;
  fprintf(stderr, "  no canvas: %d %s (%.0f ms)\n", rc, sc_errmsg(), took);
  assert_int_equal(rc, SC_EGEOMETRY);
  assert_null(p);
  assert_non_null(strstr(sc_errmsg(), "no canvas in the page (after 2000 ms)"));
  assert_true(took >= 2000 && took < 4000);
  sc_browser_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(killed_browser_fails_its_users_only),
      cmocka_unit_test(frozen_browser_is_an_infrastructure_error),
      cmocka_unit_test(dropped_websocket_fails_the_user_at_once),
      cmocka_unit_test(calls_after_a_crash_say_target_crashed),
      cmocka_unit_test(page_without_a_canvas_fails_its_open_in_time),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
