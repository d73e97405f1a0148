/* Shared by the C benchmarks: a monotonic clock in ms and the median of a
 * set of run times. Header-only: each benchmark is one program. */
#ifndef SC_BENCH_UTIL_H
#define SC_BENCH_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline int bench_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Sorts v in place (v[0] and v[n-1] are then the min and max). */
static inline double bench_median(double *v, size_t n) {
  if (n == 0) return 0;
  qsort(v, n, sizeof *v, bench_cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median and p95 by nearest rank (ceil(0.95 n)); NAN for no values.
 * Sorts v in place. */
static inline void bench_stats(double *v, size_t n, double *median, double *p95) {
  if (n == 0) {
    *median = *p95 = NAN;
    return;
  }
  *median = bench_median(v, n);
  size_t r = (95 * n + 99) / 100;
  *p95 = v[(r < 1 ? 1 : r) - 1];
}

#endif
