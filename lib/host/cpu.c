/* CPU count and CPU percent between two usage samples. */
#include <unistd.h>

#include "host/host.h"

int sc__cpu_count(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n >= 1 ? (int)n : 1;
}

double sc__cpu_pct(const sc__usage *a, const sc__usage *b, double wall_ms) {
  if (!(wall_ms > 0)) return 0;
  double used = (b->cpu_ms + b->cpu_reaped_ms) - (a->cpu_ms + a->cpu_reaped_ms);
  return used > 0 ? 100.0 * used / wall_ms : 0;
}
