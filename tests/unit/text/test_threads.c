/* Threads and the scale-bar reader's per-thread glyph-set cache: threads
 * that read with a file profile and exit leave nothing allocated behind
 * (the cache is freed with its thread), and threads reading at once with
 * different profiles each get their own set. Run under ASan, TSan and
 * valgrind by the test command as well. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stepcheck.h"
#include "testutil.h"

static char g_profile[4096];

static void *read_once(void *arg) {
  (void)arg;
  sc_image *img = NULL;
  if (sc_image_new(&img, 64, 32) != 0) return (void *)1;
  sc_scale_reading rd;
  /* A blank image: the set loads, then "no ink" is the answer. */
  int rc = sc_scalebar_read(&rd, img, (sc_rect){0, 0, 64, 32}, g_profile, NULL);
  sc_image_free(img);
  return rc == SC_ENOTEXT ? NULL : (void *)2;
}

static void exiting_threads_leave_nothing(void **st) {
  (void)st;
  snprintf(g_profile, sizeof g_profile, "%s/mapapp/scalebar.glyphs", getenv("SC_FIXTURES"));
  sc_test_alloc_install();
  long live0 = sc_test_alloc_live();
  for (int i = 0; i < 4; i++) { /* one at a time: the counter is not atomic */
    pthread_t t;
    void *res = (void *)9;
    assert_int_equal(pthread_create(&t, NULL, read_once, NULL), 0);
    assert_int_equal(pthread_join(t, &res), 0);
    assert_null(res);
    assert_int_equal(sc_test_alloc_live(), live0);
  }
  /* The reading thread itself keeps its set until it exits: the cache works. */
  assert_null(read_once(NULL));
  assert_true(sc_test_alloc_live() > live0);
  sc_set_allocator(NULL, NULL, NULL);
}

static void concurrent_readers(void **st) {
  (void)st;
  snprintf(g_profile, sizeof g_profile, "%s/mapapp/scalebar.glyphs", getenv("SC_FIXTURES"));
  pthread_t t[4];
  for (int i = 0; i < 4; i++) assert_int_equal(pthread_create(&t[i], NULL, read_once, NULL), 0);
  for (int i = 0; i < 4; i++) {
    void *res = (void *)9;
    assert_int_equal(pthread_join(t[i], &res), 0);
    assert_null(res);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(exiting_threads_leave_nothing),
      cmocka_unit_test(concurrent_readers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
