/* The sampler thread (host/sampler.c) on a fake proc tree: its first reading
 * is there at once, a change in the tree shows in a later reading, a reading
 * is taken once, and stopping wakes and joins it at once even with a long
 * period. Also built under ThreadSanitizer (scripts/test.sh). */
#include "testutil.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "host/host.h"

static char *g_root;

static void put_stat(const char *name, int ppid, int utime) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", g_root, name);
  mkdir(path, 0700);
  snprintf(path, sizeof path, "%s/%s/stat.tmp", g_root, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "%s (x) S %d 1 1 0 -1 4194304 100 0 0 0 %d 0 0 0 20 0 1 0 5 1000 10\n",
          strcmp(name, "self") ? name : "50", ppid, utime);
  fclose(f);
  char to[512];
  snprintf(to, sizeof to, "%s/%s/stat", g_root, name);
  assert_int_equal(rename(path, to), 0); /* whole files only: the thread reads them */
}

static int setup(void **st) {
  (void)st;
  g_root = sc_test_mkdtemp();
  put_stat("self", 1, 100);
  put_stat("60", 1, 10);
  put_stat("61", 60, 5);
  return 0;
}

static int teardown(void **st) {
  (void)st;
  sc_test_rmtree(g_root);
  sc__free(g_root);
  return 0;
}

static void readings_follow_the_tree(void **st) {
  (void)st;
  long hz = sysconf(_SC_CLK_TCK);
  double tick = 1000.0 / (double)(hz > 0 ? hz : 100);
  sc__sampler s;
  int pid = 60;
  assert_int_equal(sc__sampler_start(&s, g_root, &pid, 1, 20), 0);
  assert_int_equal(sc__sampler_wait_first(&s, 5000), 1);
  unsigned long seen = 0;
  sc__usage self, tree;
  double at = 0, cost = -1;
  assert_int_equal(sc__sampler_take(&s, &seen, &self, &tree, &at, &cost), 1);
  assert_true(seen >= 1);
  assert_true(self.cpu_ms == 100 * tick);
  assert_true(tree.cpu_ms == 15 * tick); /* 60 and its child 61 */
  assert_int_equal(tree.nproc, 2);
  assert_true(cost >= 0);
  assert_true(at > 0 && at <= sc__now_ms());
  /* The tree grows: a later reading shows it. */
  put_stat("61", 60, 25);
  double until = sc__now_ms() + 5000;
  while (sc__now_ms() < until) {
    if (sc__sampler_take(&s, &seen, &self, &tree, &at, NULL) && tree.cpu_ms == 35 * tick) break;
    usleep(5000);
  }
  assert_true(tree.cpu_ms == 35 * tick);
  /* A reading is handed out once. */
  unsigned long again = seen;
  int fresh = sc__sampler_take(&s, &again, &self, &tree, &at, NULL);
  assert_true(!fresh || again > seen);
  sc__sampler_stop(&s);
  sc__sampler_stop(&s); /* idempotent */
  assert_int_equal(sc__sampler_take(&s, &seen, &self, &tree, &at, NULL), 0);
}

static void stop_does_not_wait_for_the_period(void **st) {
  (void)st;
  sc__sampler s;
  assert_int_equal(sc__sampler_start(&s, g_root, NULL, 0, 60000), 0);
  assert_int_equal(sc__sampler_wait_first(&s, 5000), 1);
  double t0 = sc__now_ms();
  sc__sampler_stop(&s);
  assert_true(sc__now_ms() - t0 < 1000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(readings_follow_the_tree),
      cmocka_unit_test(stop_does_not_wait_for_the_period),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
