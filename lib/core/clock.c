/* Monotonic time in milliseconds, behind a hook so tests can run the runner
 * on a fake clock. */
#include <errno.h>
#include <time.h>

#include "core.h"

static double real_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void real_sleep(double ms) {
  if (ms <= 0) return;
  struct timespec ts;
  ts.tv_sec = (time_t)(ms / 1e3);
  ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1e3) * 1e6);
  while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
  }
}

static double (*g_now)(void) = real_now;
static void (*g_sleep)(double) = real_sleep;

double sc__now_ms(void) { return g_now(); }
void sc__sleep_ms(double ms) { g_sleep(ms); }

static double real_unix(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* With a fake clock, wall time moves with it (from when it was set), so
 * the results' wall stamps and the load levels agree with its time. */
static double g_unix_at, g_now_at;

void sc__set_clock(double (*now)(void), void (*sleep)(double)) {
  g_now = now ? now : real_now;
  g_sleep = sleep ? sleep : real_sleep;
  g_unix_at = real_unix();
  g_now_at = g_now();
}

double sc__unix_ms(void) {
  return g_now == real_now ? real_unix() : g_unix_at + (g_now() - g_now_at);
}
