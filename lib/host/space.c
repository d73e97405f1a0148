/* Temp space preflight: does the RAM-backed filesystem the browsers write to
 * (/dev/shm, a tmpfs profile dir) have room for more users? */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>

#include "core/core.h"
#include "host/host.h"

#define MIB ((uint64_t)1 << 20)

int sc__fs_avail(uint64_t *avail_bytes, uint64_t *used_bytes, const char *path) {
  struct statvfs v;
  if (!path) return sc__err(SC_EINVAL, "space: NULL path");
  if (statvfs(path, &v) != 0) return sc__err(SC_EIO, "space: %s: %s", path, strerror(errno));
  if (avail_bytes) *avail_bytes = (uint64_t)v.f_bavail * v.f_frsize;
  if (used_bytes) *used_bytes = (uint64_t)(v.f_blocks - v.f_bfree) * v.f_frsize;
  return 0;
}

/* Margin for a need of need bytes. */
static uint64_t margin_for(uint64_t need) {
  uint64_t m = need / 100 * SC__SPACE_MARGIN_PERCENT + need % 100 * SC__SPACE_MARGIN_PERCENT / 100;
  return m > SC__SPACE_MARGIN_MIN_BYTES ? m : SC__SPACE_MARGIN_MIN_BYTES;
}

/* users * per_user, saturated at UINT64_MAX. */
static uint64_t need_for(uint64_t users, uint64_t per_user) {
  return per_user && users > UINT64_MAX / per_user ? UINT64_MAX : users * per_user;
}

/* Whether users users of per_user bytes each, plus the margin, fit. */
static int fits(uint64_t avail, uint64_t per_user, uint64_t users) {
  uint64_t need = need_for(users, per_user);
  if (need > UINT64_MAX / 2) return 0; /* no filesystem is that big; need + margin overflows */
  return need + margin_for(need) <= avail;
}

/* Most users that fit (fits() only gets harder as users grows). */
static uint64_t max_users(uint64_t avail, uint64_t per_user, uint64_t limit) {
  uint64_t lo = 0, hi = limit; /* fits(lo) or lo == 0; !fits(hi + 1) */
  if (!fits(avail, per_user, 0)) return 0;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(avail, per_user, mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* bytes as "912 MiB", or "57.4 MiB" when not a whole number of MiB. */
static const char *mib(char *buf, size_t cap, uint64_t bytes) {
  if (bytes % MIB == 0)
    snprintf(buf, cap, "%" PRIu64 " MiB", bytes / MIB);
  else
    snprintf(buf, cap, "%.1f MiB", (double)bytes / (double)MIB);
  return buf;
}

int sc__preflight_space(const char *dir, uint64_t avail_bytes, uint64_t per_user_bytes,
                        int users_to_add) {
  if (!dir) return sc__err(SC_EINVAL, "preflight: NULL directory");
  if (users_to_add < 0) return sc__err(SC_EINVAL, "preflight: %d users to add", users_to_add);
  if (users_to_add == 0 || fits(avail_bytes, per_user_bytes, (uint64_t)users_to_add)) return 0;
  uint64_t need = need_for((uint64_t)users_to_add, per_user_bytes);
  uint64_t most = max_users(avail_bytes, per_user_bytes, (uint64_t)users_to_add - 1);
  char a[32], p[32], n[32], m[32];
  return sc__err(SC_ENOSPACE,
                 "preflight: %s has %s free; %d users need %d x %s = %s (measured at the "
                 "warm-up) + %s margin: add at most %" PRIu64 " user%s, or give %s more room "
                 "(mount -o remount,size=...)",
                 dir, mib(a, sizeof a, avail_bytes), users_to_add, users_to_add,
                 mib(p, sizeof p, per_user_bytes), mib(n, sizeof n, need),
                 mib(m, sizeof m, margin_for(need)), most, most == 1 ? "" : "s", dir);
}
