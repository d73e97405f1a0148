/* Process-tree usage on a fake proc tree (exact sums) and on the real /proc. */
#include "testutil.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "host/host.h"

static char *g_root;

/* ms of n clock ticks, as the library computes them. */
static double ticks_ms(double n) {
  long hz = sysconf(_SC_CLK_TCK);
  return n * 1000.0 / (double)(hz > 0 ? hz : 100);
}

/* pid dir with a stat file (and smaps_rollup unless pss_kib < 0). */
static void put_proc(int pid, const char *comm, int ppid, int ut, int st, int cut, int cst,
                     long pss_kib) {
  char path[512];
  snprintf(path, sizeof path, "%s/%d", g_root, pid);
  assert_int_equal(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/%d/stat", g_root, pid);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fprintf(f, "%d (%s) S %d %d %d 0 -1 4194304 100 0 0 0 %d %d %d %d 20 0 1 0 5 1000 10\n", pid,
          comm, ppid, pid, pid, ut, st, cut, cst);
  fclose(f);
  if (pss_kib < 0) return;
  snprintf(path, sizeof path, "%s/%d/smaps_rollup", g_root, pid);
  f = fopen(path, "w");
  assert_non_null(f);
  /* Pss_* lines first: only the exact "Pss:" line counts. */
  fprintf(f,
          "00400000-7ffc0000 ---p 00000000 00:00 0  [rollup]\n"
          "Rss:              %ld kB\nPss_Anon:          7 kB\nPss:              %ld kB\n"
          "Pss_File:          3 kB\n",
          pss_kib * 2, pss_kib);
  fclose(f);
}

/* init(1) -> 100 -> {101 -> 103, 102}; 200 unrelated; 300 vanished. */
static int setup(void **st) {
  (void)st;
  g_root = sc_test_mkdtemp();
  assert_non_null(g_root);
  put_proc(1, "init", 0, 7, 0, 0, 0, 10);
  put_proc(100, "chrome", 1, 10, 5, 2, 1, 1000);
  put_proc(101, "Web Content) x", 100, 20, 0, 0, 0, 200);
  put_proc(102, "chrome", 100, 3, 4, 0, 0, 300);
  put_proc(103, "zombie", 101, 1, 1, 0, 0, -1); /* no smaps_rollup: pss 0 */
  put_proc(200, "other", 1, 1000, 0, 0, 0, 50000);
  char path[512];
  snprintf(path, sizeof path, "%s/300", g_root);
  assert_int_equal(mkdir(path, 0700), 0); /* vanished: no stat */
  snprintf(path, sizeof path, "%s/self", g_root);
  assert_int_equal(symlink("100", path), 0);
  snprintf(path, sizeof path, "%s/uptime", g_root);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fclose(f);
  return 0;
}

static int teardown(void **st) {
  (void)st;
  sc_test_rmtree(g_root);
  free(g_root);
  return 0;
}

static void expect(const sc__usage *u, double ticks, double reaped_ticks, double pss, int n) {
  assert_true(fabs(u->cpu_ms - ticks_ms(ticks)) < 1e-6);
  assert_true(fabs(u->cpu_reaped_ms - ticks_ms(reaped_ticks)) < 1e-6);
  assert_true(fabs(u->pss_kib - pss) < 1e-6);
  assert_int_equal(u->nproc, n);
}

static void tree_sums(void **st) {
  (void)st;
  sc__usage u;
  int r100[] = {100};
  assert_int_equal(sc__usage_trees(&u, g_root, r100, 1, 1), 0);
  expect(&u, 15 + 20 + 7 + 2, 3, 1000 + 200 + 300, 4);
  int r101[] = {101};
  assert_int_equal(sc__usage_trees(&u, g_root, r101, 1, 1), 0);
  expect(&u, 20 + 2, 0, 200, 2);
  int r1[] = {1};
  assert_int_equal(sc__usage_trees(&u, g_root, r1, 1, 1), 0);
  expect(&u, 7 + 44 + 1000, 3, 10 + 1500 + 50000, 6);
}

static void overlap_counted_once(void **st) {
  (void)st;
  sc__usage u;
  int roots[] = {101, 100, 100, 103};
  assert_int_equal(sc__usage_trees(&u, g_root, roots, 4, 1), 0);
  expect(&u, 44, 3, 1500, 4);
}

static void several_trees_and_vanished(void **st) {
  (void)st;
  sc__usage u;
  int roots[] = {100, 200, 300, 999};
  assert_int_equal(sc__usage_trees(&u, g_root, roots, 4, 1), 0);
  expect(&u, 44 + 1000, 3, 1500 + 50000, 5);
  int gone[] = {300, 999};
  assert_int_equal(sc__usage_trees(&u, g_root, gone, 2, 1), 0);
  expect(&u, 0, 0, 0, 0);
  assert_int_equal(sc__usage_trees(&u, g_root, gone, 2, 0), 0);
  expect(&u, 0, 0, 0, 0);
}

static void roots_alone(void **st) {
  (void)st;
  sc__usage u;
  int roots[] = {100, 103, 100, 300};
  assert_int_equal(sc__usage_trees(&u, g_root, roots, 4, 0), 0);
  expect(&u, 15 + 2, 3, 1000, 2);
}

static void self_fake(void **st) {
  (void)st;
  sc__usage u;
  assert_int_equal(sc__usage_self(&u, g_root), 0);
  expect(&u, 15, 3, 1000, 1);
}

static void bad_arguments(void **st) {
  (void)st;
  sc__usage u;
  int zero[] = {100, 0};
  assert_int_equal(sc__usage_trees(&u, g_root, zero, 2, 1), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "index 1"));
  assert_int_equal(sc__usage_trees(&u, g_root, NULL, 1, 1), SC_EINVAL);
}

static void missing_root_is_an_error(void **st) {
  (void)st;
  char path[512];
  snprintf(path, sizeof path, "%s/no-proc-here", g_root);
  sc__usage u;
  int roots[] = {100};
  for (int children = 0; children <= 1; children++) {
    sc__err_clear();
    assert_int_equal(sc__usage_trees(&u, path, roots, 1, children), SC_EIO);
    assert_non_null(strstr(sc_errmsg(), path));
  }
  sc__err_clear();
  assert_int_equal(sc__usage_self(&u, path), SC_EIO);
  assert_non_null(strstr(sc_errmsg(), path));
}

/* A chain 1000 -> 1001 -> ... -> 1299 outside init's tree: past the first
 * row allocation, deep. */
static void deep_chain(void **st) {
  (void)st;
  for (int i = 0; i < 300; i++) put_proc(1000 + i, "c", i ? 999 + i : 0, 1, 0, 0, 0, 1);
  sc__usage u;
  int roots[] = {1000};
  assert_int_equal(sc__usage_trees(&u, g_root, roots, 1, 1), 0);
  expect(&u, 300, 0, 300, 300);
  int mid[] = {1250};
  assert_int_equal(sc__usage_trees(&u, g_root, mid, 1, 1), 0);
  expect(&u, 50, 0, 50, 50);
}

/* After pid wrap-around a child's pid is below its parent's: 600 -> 50 -> 700.
 * Marking a root must not pull in its parent (outside init's tree). */
static void parent_with_higher_pid(void **st) {
  (void)st;
  put_proc(600, "p", 0, 100, 0, 0, 0, 100);
  put_proc(50, "c", 600, 10, 0, 0, 0, 10);
  put_proc(700, "g", 50, 1, 0, 0, 0, 1);
  sc__usage u;
  int roots[] = {50};
  assert_int_equal(sc__usage_trees(&u, g_root, roots, 1, 1), 0);
  expect(&u, 11, 0, 11, 2);
  int top[] = {600};
  assert_int_equal(sc__usage_trees(&u, g_root, top, 1, 1), 0);
  expect(&u, 111, 0, 111, 3);
}

/* A ppid cycle cannot happen in a real procfs; a fake one must not hang. */
static void ppid_cycle_ends(void **st) {
  (void)st;
  put_proc(800, "a", 801, 1, 0, 0, 0, 1);
  put_proc(801, "b", 800, 1, 0, 0, 0, 1);
  sc__usage u;
  int roots[] = {100};
  assert_int_equal(sc__usage_trees(&u, g_root, roots, 1, 1), 0);
  expect(&u, 44, 3, 1500, 4);
  int in_cycle[] = {801};
  assert_int_equal(sc__usage_trees(&u, g_root, in_cycle, 1, 1), 0);
  expect(&u, 2, 0, 2, 2);
}

static void out_of_memory(void **st) {
  (void)st;
  sc_test_alloc_install();
  int roots[] = {100};
  sc__usage u;
  int rc = -1;
  for (long k = 0; rc != 0; k++) {
    long live = sc_test_alloc_live();
    sc_test_alloc_fail_after(k);
    rc = sc__usage_trees(&u, g_root, roots, 1, 1);
    sc_test_alloc_fail_after(-1);
    assert_true(rc == 0 || rc == SC_ENOMEM);
    assert_int_equal(sc_test_alloc_live(), live);
  }
  expect(&u, 44, 3, 1500, 4);
}

/* Burn about ms of CPU. */
static void burn_cpu_ms(double ms) {
  struct timespec t;
  volatile double x = 0;
  do {
    for (int i = 0; i < 100000; i++) x += i;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  } while ((double)t.tv_sec * 1000 + (double)t.tv_nsec / 1e6 < ms);
}

static void real_proc(void **st) {
  (void)st;
  sc__usage self, tree, alone;
  assert_int_equal(sc__usage_self(&self, NULL), 0);
  assert_int_equal(self.nproc, 1);
  assert_true(self.pss_kib > 0);
  assert_true(self.cpu_ms >= 0);

  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    pause();
    _exit(0);
  }
  int me = (int)getpid();
  assert_int_equal(sc__usage_trees(&tree, NULL, &me, 1, 1), 0);
  assert_int_equal(sc__usage_trees(&alone, NULL, &me, 1, 0), 0);
  kill(child, SIGKILL);
  waitpid(child, NULL, 0);
  assert_true(tree.nproc >= 2);
  assert_true(tree.pss_kib > alone.pss_kib);
  assert_int_equal(alone.nproc, 1);
  assert_true(alone.pss_kib > 0);

  /* A reaped child's CPU shows as cpu_reaped_ms. */
  child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    burn_cpu_ms(100);
    _exit(0);
  }
  waitpid(child, NULL, 0);
  assert_int_equal(sc__usage_self(&self, NULL), 0);
  assert_true(self.cpu_reaped_ms >= 50);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tree_sums),
      cmocka_unit_test(overlap_counted_once),
      cmocka_unit_test(several_trees_and_vanished),
      cmocka_unit_test(roots_alone),
      cmocka_unit_test(self_fake),
      cmocka_unit_test(bad_arguments),
      cmocka_unit_test(missing_root_is_an_error),
      cmocka_unit_test(deep_chain),
      cmocka_unit_test(parent_with_higher_pid),
      cmocka_unit_test(ppid_cycle_ends),
      cmocka_unit_test(out_of_memory),
      cmocka_unit_test(real_proc),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
