/* Monotonic time in milliseconds. */
#include <errno.h>
#include <time.h>

#include "core.h"

double sc__now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void sc__sleep_ms(double ms) {
  if (ms <= 0) return;
  struct timespec ts;
  ts.tv_sec = (time_t)(ms / 1e3);
  ts.tv_nsec = (long)((ms - (double)ts.tv_sec * 1e3) * 1e6);
  while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
  }
}
