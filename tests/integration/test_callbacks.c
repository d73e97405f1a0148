/* Every public call from inside the callbacks of the loop, on real Chromium
 * with the loop run by the host (sc_loop_fds / sc_loop_timeout /
 * sc_loop_step, as examples/hostloop does): what works there works (a
 * cancel; a page freed from its own callback, once it returns, leaving
 * nothing behind), and what cannot work there refuses with SC_EBUSY and a
 * message (a free of the handle, browser or loop that is running the
 * callback), instead of freeing what the loop is still using. Issue 39
 * item 1 (a cancel from on_step crashed) and item 4 (a page freed from its
 * own callback leaked its close command). */
#include "testutil.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "stepcheck.h"

static sc_loop *g_loop;
static sc_browser *g_b;
static sc_scenario *g_s;
static char g_url[4096];

static int group_setup(void **st) {
  (void)st;
  sc_test_alloc_install(); /* item 4 counts what a page leaves behind */
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  if (sc_loop_new(&g_loop) < 0) return -1;
  bo.loop = g_loop;
  if (sc_browser_launch(&g_b, &bo) < 0) {
    fprintf(stderr, "launch: %s\n", sc_errmsg());
    return -1;
  }
  snprintf(g_url, sizeof g_url, "file://%s", sc_test_fixture("mapapp/index.html"));
  if (sc_scenario_load(&g_s, sc_test_fixture("mapapp/seven-steps.json")) < 0) {
    fprintf(stderr, "scenario: %s\n", sc_errmsg());
    return -1;
  }
  return 0;
}

static int group_teardown(void **st) {
  (void)st;
  sc_browser_free(g_b);
  sc_loop_free(g_loop);
  sc_scenario_free(g_s);
  return 0;
}

/* The host's loop, as examples/hostloop/hostloop.c runs it, for up to
 * limit_ms: 0 when every user ended. */
static int host_loop(sc_multi *m, double limit_ms) {
  double end = sc__now_ms() + limit_ms;
  while (sc_multi_active(m) > 0) {
    if (sc__now_ms() > end) return -1;
    struct pollfd fds[64];
    int n = sc_loop_fds(g_loop, fds, 64);
    assert_true(n >= 0 && n <= 64);
    int wait = sc_loop_timeout(g_loop);
    assert_true(wait >= 0);
    int ready = poll(fds, (nfds_t)n, wait);
    assert_true(ready >= 0 || errno == EINTR);
    assert_true(sc_loop_step(g_loop) >= 0);
  }
  return 0;
}

typedef struct seen {
  sc_multi *m;
  int steps[4];      /* results seen per user */
  int done;          /* users that ended */
  int free_rc[3];    /* sc_errmsg() named the refusal: multi, browser, loop */
  int take_null;     /* sc_multi_take of a running user answered NULL */
  int cancel_rc;
  sc_run_result *taken[4]; /* taken from inside on_user_done */
  int added;               /* a user added from inside on_user_done */
} seen;

/* Item 1: a host that stops each user after its first result. */
static void cancel_on_step(const sc_run_result *u, const sc_step_result *res, void *ud) {
  (void)res;
  seen *sn = ud;
  if (sn->steps[u->user]++ == 0) sn->cancel_rc = sc_multi_cancel(sn->m, u->user, "first result");
}

static void count_done(const sc_run_result *u, void *ud) {
  seen *sn = ud;
  (void)u;
  sn->done++;
  /* A cancel of a user that ended, from its own on_user_done: nothing to do. */
  assert_int_equal(sc_multi_cancel(sn->m, u->user, "again"), 0);
}

/* Take the result of the user that ended, and add one more user, from
 * inside on_user_done. */
static void take_done(const sc_run_result *u, void *ud) {
  seen *sn = ud;
  int i = u->user;
  sn->done++;
  sn->taken[i] = sc_multi_take(sn->m, (size_t)i);
  if (!sn->added) {
    sn->added = 1;
    assert_true(sc_multi_add(sn->m, g_b, g_url, NULL) >= 0);
  }
}

static void cancel_from_on_step(void **st) {
  (void)st;
  seen sn = {0};
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.on_step = cancel_on_step;
  mo.on_user_done = count_done;
  mo.userdata = &sn;
  assert_int_equal(sc_multi_new(&sn.m, g_s, &mo), 0);
  for (int i = 0; i < 2; i++) assert_true(sc_multi_add(sn.m, g_b, g_url, NULL) >= 0);
  assert_int_equal(host_loop(sn.m, 60000), 0);
  assert_int_equal(sn.cancel_rc, 0);
  assert_int_equal(sn.done, 2);
  for (size_t i = 0; i < 2; i++) {
    const sc_run_result *r = sc_multi_result(sn.m, i);
    assert_int_equal(sn.steps[i], 1); /* nothing judged after the cancel */
    assert_non_null(r->error);
    assert_non_null(strstr(r->error, "canceled: first result"));
    assert_int_equal(r->error_code, SC_ECANCELED);
  }
  sc_multi_free(sn.m);
  /* The browser still serves a new handle, whose users are taken and
   * added from inside on_user_done. */
  memset(&sn, 0, sizeof sn);
  mo.on_user_done = take_done;
  assert_int_equal(sc_multi_new(&sn.m, g_s, &mo), 0);
  assert_true(sc_multi_add(sn.m, g_b, g_url, NULL) >= 0);
  assert_int_equal(host_loop(sn.m, 60000), 0);
  assert_int_equal(sn.added, 1);
  for (int i = 0; i < 2; i++) {
    assert_int_equal(sn.steps[i], 1);
    assert_non_null(sn.taken[i]);
    assert_non_null(strstr(sn.taken[i]->error, "canceled: first result"));
    assert_null(sc_multi_result(sn.m, (size_t)i));
    sc_run_result_free(sn.taken[i]);
  }
  sc_multi_free(sn.m);
}

/* Frees of what runs the callback, from inside it: refused, named. */
static void free_on_step(const sc_run_result *u, const sc_step_result *res, void *ud) {
  (void)res;
  seen *sn = ud;
  if (sn->steps[u->user]++) return;
  sc_multi_free(sn->m);
  sn->free_rc[0] = strstr(sc_errmsg(), "sc_multi_free") && strstr(sc_errmsg(), "callback");
  sc_browser_free(g_b);
  sn->free_rc[1] = strstr(sc_errmsg(), "sc_browser_free") && strstr(sc_errmsg(), "callback");
  sc_loop_free(g_loop);
  sn->free_rc[2] = strstr(sc_errmsg(), "sc_loop_free") && strstr(sc_errmsg(), "callback");
  sn->take_null = sc_multi_take(sn->m, (size_t)u->user) == NULL;
  /* The blocking calls refuse as they did. */
  assert_int_equal(sc_multi_perform(sn->m, 10), SC_EBUSY);
  sc_multi_cancel(sn->m, u->user, "freed from a callback");
}

static void frees_from_callbacks_are_refused(void **st) {
  (void)st;
  seen sn = {0};
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.on_step = free_on_step;
  mo.userdata = &sn;
  assert_int_equal(sc_multi_new(&sn.m, g_s, &mo), 0);
  assert_true(sc_multi_add(sn.m, g_b, g_url, NULL) >= 0);
  assert_int_equal(host_loop(sn.m, 60000), 0);
  assert_int_equal(sn.free_rc[0], 1);
  assert_int_equal(sn.free_rc[1], 1);
  assert_int_equal(sn.free_rc[2], 1);
  assert_int_equal(sn.take_null, 1);
  const sc_run_result *r = sc_multi_result(sn.m, 0);
  assert_non_null(r->error);
  assert_non_null(strstr(r->error, "canceled: freed from a callback"));
  sc_multi_free(sn.m);
  /* Browser and loop were left alone: a page still opens on them. */
  sc_page *p = NULL;
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  po.guest_w = 1600;
  po.guest_h = 900;
  assert_int_equal(sc_page_open(&p, g_b, g_url, &po), 0);
  sc_page_free(p);
}

/* Item 4: a page freed from its own asynchronous callback. */
typedef struct pfree {
  sc_page *p;
  int fired, status;
} pfree;

static void free_in_cb(int status, const char *errmsg, sc_image *img, double fc, void *ud) {
  (void)errmsg;
  (void)fc;
  pfree *f = ud;
  f->fired++;
  f->status = status;
  sc_image_free(img);
  sc_page_free(f->p); /* the page this callback is about */
}

static void one_page_freed_in_its_callback(void) {
  pfree f = {0};
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  po.guest_w = 1600;
  po.guest_h = 900;
  assert_int_equal(sc_page_open(&f.p, g_b, g_url, &po), 0);
  assert_int_equal(
      sc_page_capture_at_rest_async(f.p, (sc_rect){0, 0, 64, 64}, 5000, free_in_cb, &f), 0);
  double end = sc__now_ms() + 10000;
  while (!f.fired && sc__now_ms() < end) assert_true(sc_loop_run(g_loop, 100) >= 0);
  assert_int_equal(f.fired, 1);
  assert_int_equal(f.status, 0);
  /* The close commands' replies come back on the loop. */
  end = sc__now_ms() + 1500;
  while (sc__now_ms() < end) assert_true(sc_loop_run(g_loop, 100) >= 0);
}

static void page_freed_from_its_own_callback(void **st) {
  (void)st;
  one_page_freed_in_its_callback(); /* the first may allocate what stays (pools) */
  long before = sc_test_alloc_live();
  for (int i = 0; i < 3; i++) one_page_freed_in_its_callback();
  long after = sc_test_alloc_live();
  if (after != before)
    fail_msg("%ld allocations left by 3 pages freed from their own callbacks", after - before);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cancel_from_on_step),
      cmocka_unit_test(frees_from_callbacks_are_refused),
      cmocka_unit_test(page_freed_from_its_own_callback),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
