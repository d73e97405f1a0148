/* A load checks its limits before its first browser starts, and a cancel
 * (a signal) while its browsers launch ends it at once with nothing left
 * running. No Chromium: the "browser" is a script that records that it ran
 * and then never becomes ready, as a slow launch on a loaded machine. */
#include "testutil.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "core/core.h"
#include "stepcheck.h"

static const char k_scn[] =
    "{\"app\": \"a\", \"url\": \"http://127.0.0.1:9/\", \"viewport\": {\"width\": 200, \"height\": 100},"
    " \"regions\": {\"r\": [0, 0, 10, 10]}, \"cycle\": [{\"id\": \"s\", \"none\": true, "
    "\"expect\": [{\"stable\": \"r\"}]}]}";

typedef struct rig {
  char *dir;
  char exe[512], ran[512];
  sc_scenario *s;
  sc_browser_options bo;
  sc_load_options lo;
} rig;

/* A browser that appends its pid to dir/ran, then waits forever. */
static void rig_init(rig *g) {
  g->dir = sc_test_mkdtemp();
  snprintf(g->exe, sizeof g->exe, "%s/browser.sh", g->dir);
  snprintf(g->ran, sizeof g->ran, "%s/ran", g->dir);
  FILE *f = fopen(g->exe, "w");
  assert_non_null(f);
  fprintf(f, "#!/bin/sh\necho $$ >>'%s'\nexec sleep 30\n", g->ran);
  fclose(f);
  assert_int_equal(chmod(g->exe, 0755), 0);
  assert_int_equal(sc_scenario_parse(&g->s, k_scn, "limits.json"), 0);
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  bo.executable = g->exe;
  bo.launch_timeout_ms = 5000;
  g->bo = bo;
  sc_load_options lo = SC_LOAD_OPTIONS_INIT;
  lo.browser_options = &g->bo;
  lo.warmup_cycles = 0;
  lo.users_per_browser = 1;
  g->lo = lo;
}

static void rig_free(rig *g) {
  sc_scenario_free(g->s);
  sc_test_rmtree(g->dir);
  free(g->dir);
}

/* --users 100000: refused before a browser is launched (0.2.0 launched
 * 126 Chromium processes in 12 s and went on). */
static void a_huge_load_is_refused_before_any_launch(void **st) {
  (void)st;
  rig g;
  rig_init(&g);
  g.lo.users = 100000;
  g.lo.users_per_browser = 8;
  sc_load_result *r = NULL;
  assert_int_equal(sc_load_run(&r, g.s, &g.lo), SC_ENOSPACE);
  assert_non_null(strstr(sc_errmsg(), "100000 users, but one generator drives at most 1000"));
  assert_int_equal(access(g.ran, F_OK), -1); /* no browser started */
  assert_non_null(r);
  assert_non_null(strstr(r->error, "at most 1000"));
  sc_load_result_free(r);
  rig_free(&g);
}

static volatile int g_cancel;
static void on_alarm(int sig) {
  (void)sig;
  g_cancel = 1;
}

/* A signal while the browsers launch: the load ends within 2 s (0.2.0
 * waited for every launch, each up to its timeout, and then the warm-up),
 * SC_ECANCELED, and every browser process it started is gone. */
static void a_cancel_during_launch_ends_at_once(void **st) {
  (void)st;
  rig g;
  rig_init(&g);
  g.lo.users = 3;
  g.lo.cancel = &g_cancel;
  g_cancel = 0;
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, &old);
  struct itimerval it = {{0, 0}, {0, 300000}}; /* 300 ms in: inside the first launch */
  setitimer(ITIMER_REAL, &it, NULL);
  double t0 = sc__now_ms();
  sc_load_result *r = NULL;
  int rc = sc_load_run(&r, g.s, &g.lo);
  double took = sc__now_ms() - t0;
  sigaction(SIGALRM, &old, NULL);
  assert_int_equal(rc, SC_ECANCELED);
  if (took > 2000) fail_msg("the load ended %.0f ms after starting, 300 ms after the cancel", took);
  char *pids = sc_test_slurp(g.ran, NULL);
  assert_non_null(pids); /* the first launch had begun */
  for (char *p = pids; *p;) {
    long pid = strtol(p, &p, 10);
    if (pid > 0 && kill((pid_t)pid, 0) == 0) fail_msg("browser %ld still running", pid);
    while (*p == '\n') p++;
  }
  free(pids);
  sc_load_result_free(r);
  rig_free(&g);
}

/* The same for one user (sc_run_scenario launches its own browser). */
static void a_cancel_during_a_one_user_launch_ends_at_once(void **st) {
  (void)st;
  rig g;
  rig_init(&g);
  g_cancel = 0;
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, &old);
  struct itimerval it = {{0, 0}, {0, 300000}};
  setitimer(ITIMER_REAL, &it, NULL);
  sc_run_options ro = SC_RUN_OPTIONS_INIT;
  ro.browser_options = &g.bo;
  ro.cancel = &g_cancel;
  double t0 = sc__now_ms();
  sc_run_result *r = NULL;
  int rc = sc_run_scenario(&r, g.s, &ro);
  double took = sc__now_ms() - t0;
  sigaction(SIGALRM, &old, NULL);
  assert_int_equal(rc, SC_ECANCELED);
  if (took > 2000) fail_msg("the run ended %.0f ms after starting, 300 ms after the cancel", took);
  char *pids = sc_test_slurp(g.ran, NULL);
  assert_non_null(pids);
  long pid = strtol(pids, NULL, 10);
  if (pid > 0 && kill((pid_t)pid, 0) == 0) fail_msg("browser %ld still running", pid);
  free(pids);
  sc_run_result_free(r);
  rig_free(&g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_huge_load_is_refused_before_any_launch),
      cmocka_unit_test(a_cancel_during_launch_ends_at_once),
      cmocka_unit_test(a_cancel_during_a_one_user_launch_ends_at_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
