/* Timing statistics of the reports (sc__report_stats): median of odd and
 * even counts, nearest-rank p95, one element, failures and other step ids
 * left out, steps per minute over the wall-clock span, several runs. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"

#define N 32

typedef struct fixture {
  sc_step_result res[N];
  sc_step_result *resp[N];
  sc_run_result run;
} fixture;

/* A run of n passed "s" steps with the given verified times, one second
 * apart, in the order given (the statistics must sort). */
static fixture *make(const double *v, size_t n) {
  fixture *fx = calloc(1, sizeof *fx);
  for (size_t i = 0; i < n; i++) {
    fx->res[i] = (sc_step_result){.step_id = "s", .cycle = (int)i + 1, .passed = 1,
                                  .started_unix_ms = 1000.0 * (double)i,
                                  .first_change_ms = -1, .verified_ms = v[i]};
    fx->resp[i] = &fx->res[i];
  }
  fx->run.nresults = n;
  fx->run.results = fx->resp;
  return fx;
}

static sc__stats stats_of(const fixture *fx, const char *id) {
  sc__stats st;
  assert_int_equal(sc__report_stats(&st, (const sc_run_result *const[]){&fx->run}, 1, id), 0);
  return st;
}

/* 1..n in a scrambled order (11 is coprime with 20 and 21). */
static void scrambled(double *v, size_t n) {
  for (size_t i = 0; i < n; i++) v[i] = (double)((i * 11) % n + 1);
}

static void one_element(void **st) {
  (void)st;
  double v[] = {42.5};
  fixture *fx = make(v, 1);
  sc__stats s = stats_of(fx, "s");
  assert_int_equal(s.count, 1);
  assert_int_equal(s.pass, 1);
  assert_int_equal(s.fail, 0);
  assert_near(s.avg, 42.5, 1e-9);
  assert_near(s.median, 42.5, 1e-9);
  assert_near(s.p95, 42.5, 1e-9);
  assert_near(s.max, 42.5, 1e-9);
  /* one step: 1 step in its own 42.5 ms */
  assert_near(s.per_min, 60000.0 / 42.5, 1e-9);
  free(fx);
}

static void odd_count(void **st) {
  (void)st;
  double v[] = {300, 100, 200};
  fixture *fx = make(v, 3);
  sc__stats s = stats_of(fx, "s");
  assert_near(s.median, 200, 1e-9);
  assert_near(s.avg, 200, 1e-9);
  assert_near(s.p95, 300, 1e-9); /* ceil(2.85) = 3rd */
  assert_near(s.max, 300, 1e-9);
  /* 3 steps from t=0 to t=2000+200 */
  assert_near(s.per_min, 3 * 60000.0 / 2200.0, 1e-9);
  free(fx);
}

static void even_count(void **st) {
  (void)st;
  double v[] = {40, 10, 30, 20};
  fixture *fx = make(v, 4);
  sc__stats s = stats_of(fx, "s");
  assert_near(s.median, 25, 1e-9); /* mean of 20 and 30 */
  assert_near(s.avg, 25, 1e-9);
  assert_near(s.p95, 40, 1e-9);    /* ceil(3.8) = 4th */
  free(fx);
}

/* Nearest rank: the smallest value with at least 95% of values at or below. */
static void p95_nearest_rank_20(void **st) {
  (void)st;
  double v[20];
  scrambled(v, 20);
  fixture *fx = make(v, 20);
  sc__stats s = stats_of(fx, "s");
  assert_near(s.p95, 19, 1e-9); /* ceil(0.95 * 20) = 19th */
  assert_near(s.max, 20, 1e-9);
  assert_near(s.median, 10.5, 1e-9);
  free(fx);
}

static void p95_nearest_rank_21(void **st) {
  (void)st;
  double v[21];
  scrambled(v, 21);
  fixture *fx = make(v, 21);
  sc__stats s = stats_of(fx, "s");
  assert_near(s.p95, 20, 1e-9); /* ceil(0.95 * 21) = ceil(19.95) = 20th */
  assert_near(s.median, 11, 1e-9);
  assert_near(s.avg, 11, 1e-9);
  free(fx);
}

/* Failed steps are counted but never timed; other ids are left out; a
 * passed step without a time counts as passed but is not averaged. */
static void failures_and_ids(void **st) {
  (void)st;
  double v[] = {100, 9000, 300, 5, 7};
  fixture *fx = make(v, 5);
  fx->res[1].passed = 0;
  fx->res[1].verified_ms = -1;
  fx->res[3].step_id = "other";
  fx->res[4].verified_ms = -1; /* passed, no time */
  sc__stats s = stats_of(fx, "s");
  assert_int_equal(s.count, 4);
  assert_int_equal(s.pass, 3);
  assert_int_equal(s.fail, 1);
  assert_near(s.avg, 200, 1e-9);
  assert_near(s.median, 200, 1e-9);
  assert_near(s.max, 300, 1e-9);

  s = stats_of(fx, NULL); /* every id */
  assert_int_equal(s.count, 5);
  assert_int_equal(s.pass, 4);
  assert_near(s.median, 100, 1e-9); /* 5, 100, 300 */

  /* nothing passed: zeros, not an average of failures */
  fx->run.nresults = 2;
  fx->res[0].passed = 0;
  s = stats_of(fx, "s");
  assert_int_equal(s.pass, 0);
  assert_int_equal(s.fail, 2);
  assert_near(s.avg, 0, 0);
  assert_near(s.p95, 0, 0);
  assert_near(s.per_min, 0, 0);
  free(fx);
}

/* Over several runs (the users of a load): one sample, one id order. */
static void across_runs(void **st) {
  (void)st;
  double v1[] = {10, 30}, v2[] = {20, 40, 50};
  fixture *a = make(v1, 2), *b = make(v2, 3);
  a->res[1].step_id = "t";
  b->res[0].step_id = "u";
  b->res[2].step_id = "t";
  const sc_run_result *const runs[] = {&a->run, &b->run};
  sc__stats s;
  assert_int_equal(sc__report_stats(&s, runs, 2, NULL), 0);
  assert_int_equal(s.count, 5);
  assert_near(s.median, 30, 1e-9);
  assert_near(s.p95, 50, 1e-9);
  assert_near(s.avg, 30, 1e-9);
  assert_int_equal(sc__report_stats(&s, runs, 2, "t"), 0);
  assert_int_equal(s.count, 2);
  assert_near(s.avg, 40, 1e-9); /* 30 and 50 */
  const char **ids;
  size_t n;
  assert_int_equal(sc__report_ids(&ids, &n, runs, 2), 0);
  assert_int_equal(n, 3);
  assert_string_equal(ids[0], "s");
  assert_string_equal(ids[1], "t");
  assert_string_equal(ids[2], "u");
  sc__free(ids);
  free(a);
  free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(one_element),
      cmocka_unit_test(odd_count),
      cmocka_unit_test(even_count),
      cmocka_unit_test(p95_nearest_rank_20),
      cmocka_unit_test(p95_nearest_rank_21),
      cmocka_unit_test(failures_and_ids),
      cmocka_unit_test(across_runs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
