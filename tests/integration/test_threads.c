/* Two threads, each driving its own browser (launch, open, click, capture,
 * eval, free) at the same time: the documented thread-safety rule
 * ("distinct handles on distinct threads") on real Chromium. The test
 * command also runs this under ThreadSanitizer (build-tsan). */
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stepcheck.h"

typedef struct job {
  char url[4200];
  int rc;
  char err[512];
  int clicks_seen;
} job;

static void *drive(void *arg) {
  job *j = arg;
  sc_browser *b = NULL;
  sc_page *p = NULL;
  sc_image *img = NULL;
  char *js = NULL;
  sc_page_options o = SC_PAGE_OPTIONS_INIT;
  o.guest_w = 1600;
  o.guest_h = 900;
  if ((j->rc = sc_browser_launch(&b, NULL)) < 0) goto out;
  if ((j->rc = sc_page_open(&p, b, j->url, &o)) < 0) goto out;
  for (int i = 0; i < 5 && j->rc == 0; i++) {
    if ((j->rc = sc_page_click(p, (sc_point){100 + i, 200})) < 0) break;
    if ((j->rc = sc_page_capture(&img, p, (sc_rect){0, 0, 200, 100}, 1, 0, NULL)) < 0) break;
    sc_image_free(img);
    img = NULL;
  }
  if (j->rc == 0 &&
      (j->rc = sc_page_eval(&js, p,
                            "window.__events.filter(e => e.type === 'mousedown').length")) == 0)
    j->clicks_seen = atoi(js);
out:
  if (j->rc < 0) snprintf(j->err, sizeof j->err, "%s", sc_errmsg());
  sc_free(js);
  sc_page_free(p);
  sc_browser_free(b);
  return NULL;
}

static void two_threads_two_browsers(void **st) {
  (void)st;
  job jobs[2];
  pthread_t t[2];
  for (int i = 0; i < 2; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    snprintf(jobs[i].url, sizeof jobs[i].url, "file://%s", sc_test_fixture("pages/events.html"));
    assert_int_equal(pthread_create(&t[i], NULL, drive, &jobs[i]), 0);
  }
  for (int i = 0; i < 2; i++) assert_int_equal(pthread_join(t[i], NULL), 0);
  for (int i = 0; i < 2; i++) {
    if (jobs[i].rc) fprintf(stderr, "thread %d: %s\n", i, jobs[i].err);
    assert_int_equal(jobs[i].rc, 0);
    /* Each page saw its own five clicks, not the other thread's. */
    assert_int_equal(jobs[i].clicks_seen, 5);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(two_threads_two_browsers)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
