/* The loop run by a host (sc_loop_fds / sc_loop_timeout / sc_loop_step) on
 * real Chromium: the descriptors it names are the ones that become ready
 * (a host that sleeps on them alone, with no timeout, wakes for the reply),
 * a page call completes with the host driving, and the loop is never
 * re-entered: a blocking call or a step from inside a callback is SC_EBUSY. */
#include "testutil.h"

#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "stepcheck.h"

static sc_loop *g_loop;
static sc_browser *g_b;
static sc_page *g_p;

static int group_setup(void **st) {
  (void)st;
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  if (sc_loop_new(&g_loop) < 0) return -1;
  bo.loop = g_loop;
  if (sc_browser_launch(&g_b, &bo) < 0) {
    fprintf(stderr, "launch: %s\n", sc_errmsg());
    return -1;
  }
  char url[4096];
  snprintf(url, sizeof url, "file://%s", sc_test_fixture("mapapp/index.html"));
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  po.guest_w = 1600;
  po.guest_h = 900;
  if (sc_page_open(&g_p, g_b, url, &po) < 0) {
    fprintf(stderr, "open: %s\n", sc_errmsg());
    return -1;
  }
  return 0;
}

static int group_teardown(void **st) {
  (void)st;
  sc_page_free(g_p);
  sc_browser_free(g_b);
  sc_loop_free(g_loop);
  return 0;
}

typedef struct done {
  int fired, status, eval_rc, step_rc, run_rc;
  sc_image *img;
} done;

static void on_done(int status, const char *errmsg, sc_image *img, double fc, void *ud) {
  (void)errmsg;
  (void)fc;
  done *d = ud;
  d->fired++;
  d->status = status;
  d->img = img;
  /* From inside the loop's callback: every way of running it is refused. */
  d->eval_rc = sc_page_eval(NULL, g_p, "1");
  d->step_rc = sc_loop_step(g_loop);
  d->run_rc = sc_loop_run(g_loop, 10);
}

static int fds_now(struct pollfd *fds, int max, int *writers) {
  int n = sc_loop_fds(g_loop, fds, max);
  assert_true(n >= 1 && n <= max);
  *writers = 0;
  for (int i = 0; i < n; i++) {
    assert_true(fds[i].fd >= 0);
    assert_true(fds[i].events & (POLLIN | POLLOUT));
    *writers += (fds[i].events & POLLOUT) != 0;
  }
  return n;
}

/* A command is queued: the loop asks for POLLOUT, which is ready at once;
 * once written, a host sleeping on the read side alone (no timeout) wakes
 * when the reply comes. */
static void the_named_descriptors_wake_the_host(void **st) {
  (void)st;
  struct pollfd fds[16];
  int writers;
  fds_now(fds, 16, &writers);
  assert_int_equal(writers, 0); /* idle: nothing to send */
  done d = {0};
  assert_int_equal(sc_page_capture_at_rest_async(g_p, (sc_rect){0, 0, 200, 100}, 15000,
                                                 on_done, &d),
                   0);
  int n = fds_now(fds, 16, &writers);
  assert_true(writers >= 1);
  assert_true(poll(fds, (nfds_t)n, 2000) > 0); /* writable: at once */
  assert_true(sc_loop_step(g_loop) >= 0);
  /* Nothing of ours is due before the reply: sleep on the descriptors. */
  n = fds_now(fds, 16, &writers);
  double t0 = sc__now_ms();
  int ready = poll(fds, (nfds_t)n, 10000);
  assert_true(ready > 0);
  assert_true(sc__now_ms() - t0 < 9000);
  /* Then the host drives it to the end. */
  unsigned long rounds = 0;
  while (!d.fired && rounds < 100000) {
    n = sc_loop_fds(g_loop, fds, 16);
    int wait = sc_loop_timeout(g_loop);
    assert_true(wait >= 0 && wait <= 1000);
    poll(fds, (nfds_t)n, wait);
    assert_true(sc_loop_step(g_loop) >= 0);
    rounds++;
  }
  assert_int_equal(d.fired, 1);
  assert_int_equal(d.status, 0);
  assert_non_null(d.img);
  assert_int_equal(d.img->width, 200);
  sc_image_free(d.img);
  assert_int_equal(d.eval_rc, SC_EBUSY);
  assert_int_equal(d.step_rc, SC_EBUSY);
  assert_int_equal(d.run_rc, SC_EBUSY);
  /* And the loop still works after the refusals. */
  assert_int_equal(sc_page_eval(NULL, g_p, "1"), 0);
}

static void misuse(void **st) {
  (void)st;
  struct pollfd one;
  assert_int_equal(sc_loop_fds(NULL, &one, 1), SC_EINVAL);
  assert_int_equal(sc_loop_fds(g_loop, NULL, 1), SC_EINVAL);
  assert_true(sc_loop_fds(g_loop, NULL, 0) >= 1); /* how many, without room */
  assert_int_equal(sc_loop_timeout(NULL), SC_EINVAL);
  assert_int_equal(sc_loop_step(NULL), SC_EINVAL);
  assert_int_equal(sc_multi_active(NULL), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_named_descriptors_wake_the_host),
      cmocka_unit_test(misuse),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
