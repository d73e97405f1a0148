/* Limits of one load generator, checked before its first browser starts:
 * users and launched browsers by policy, memory, temp space and file
 * descriptors against what the machine has. A load that cannot fit is
 * refused in one line instead of launching browsers until the machine
 * gives out (126 Chromium processes after 12 s for --users 100000). */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "core/core.h"
#include "host/host.h"

#define MIB ((uint64_t)1 << 20)

/* MemAvailable in bytes, or UINT64_MAX when the kernel does not say. */
static uint64_t mem_available(const char *proc_root) {
  char path[512];
  snprintf(path, sizeof path, "%s/meminfo", proc_root);
  FILE *f = fopen(path, "r");
  if (!f) return UINT64_MAX;
  char line[256];
  uint64_t kib = UINT64_MAX;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1) break;
  fclose(f);
  return kib == UINT64_MAX || kib > UINT64_MAX / 1024 ? UINT64_MAX : kib * 1024;
}

static uint64_t fds_open(const char *proc_root) {
  char path[512];
  snprintf(path, sizeof path, "%s/self/fd", proc_root);
  DIR *d = opendir(path);
  if (!d) return 0;
  uint64_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)))
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n ? n - 1 : 0; /* not the one reading the directory */
}

int sc__machine_measure(sc__machine *out, const char *proc_root, const char *tmp_dir) {
  if (!out || !tmp_dir) return sc__err(SC_EINVAL, "preflight: NULL argument");
  if (!proc_root) proc_root = "/proc";
  memset(out, 0, sizeof *out);
  out->mem_avail = mem_available(proc_root);
  int rc = sc__fs_avail(&out->tmp_avail, NULL, tmp_dir);
  if (rc < 0) return rc;
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
    return sc__err(SC_EIO, "preflight: getrlimit(RLIMIT_NOFILE): %s", strerror(errno));
  out->fd_limit = rl.rlim_cur == RLIM_INFINITY ? UINT64_MAX : (uint64_t)rl.rlim_cur;
  out->fd_open = fds_open(proc_root);
  return 0;
}

/* a * b + c, saturated at UINT64_MAX */
static uint64_t madd(uint64_t a, uint64_t b, uint64_t c) {
  if (a && b > UINT64_MAX / a) return UINT64_MAX;
  return a * b > UINT64_MAX - c ? UINT64_MAX : a * b + c;
}

/* bytes as "912 MiB" or "3.2 GiB" */
static const char *size_of(char *buf, size_t cap, uint64_t bytes) {
  if (bytes >= (uint64_t)10 << 30)
    snprintf(buf, cap, "%.1f GiB", (double)bytes / (double)(1 << 30));
  else
    snprintf(buf, cap, "%" PRIu64 " MiB", (bytes + MIB - 1) / MIB);
  return buf;
}

/* Memory a load needs: browsers, contexts (launched only) and users. */
static uint64_t mem_need(uint64_t users, uint64_t launched) {
  uint64_t per_user = SC__MEM_PER_USER + (launched ? SC__MEM_PER_CONTEXT : 0);
  return madd(users, per_user, madd(launched, SC__MEM_PER_BROWSER, 0));
}

int sc__preflight_load(const sc__machine *m, const char *tmp_dir, int users, int browsers,
                       int launched) {
  if (!m || !tmp_dir) return sc__err(SC_EINVAL, "preflight: NULL argument");
  if (users < 0 || browsers < 0 || launched < 0 || launched > browsers)
    return sc__err(SC_EINVAL, "preflight: %d users, %d browsers, %d launched", users, browsers,
                   launched);
  char a[32], b[32];
  if (users > SC__LOAD_USERS_MAX)
    return sc__err(SC_ENOSPACE, "preflight: %d users, but one generator drives at most %d: "
                   "run several generators", users, SC__LOAD_USERS_MAX);
  if (launched > SC__LAUNCH_BROWSERS_MAX)
    return sc__err(SC_ENOSPACE, "preflight: %d users need %d browsers, but one generator "
                   "launches at most %d: put more users on each (--users-per-browser) or "
                   "use browsers elsewhere (--grid, --browser)", users, launched,
                   SC__LAUNCH_BROWSERS_MAX);
  uint64_t mem = mem_need((uint64_t)users, (uint64_t)launched);
  if (m->mem_avail != UINT64_MAX && mem > m->mem_avail) {
    uint64_t fit = 0;
    while (fit < (uint64_t)users && mem_need(fit + 1, (uint64_t)launched) <= m->mem_avail) fit++;
    return sc__err(SC_ENOSPACE, "preflight: %d users on %d launched browser%s need at least %s "
                   "of memory, the machine has %s available (MemAvailable): at most %" PRIu64
                   " users fit", users, launched, launched == 1 ? "" : "s",
                   size_of(a, sizeof a, mem), size_of(b, sizeof b, m->mem_avail), fit);
  }
  uint64_t shm = madd((uint64_t)launched, SC__SHM_PER_BROWSER, 0);
  if (shm > m->tmp_avail)
    return sc__err(SC_ENOSPACE, "preflight: %d launched browser%s need at least %s in %s, "
                   "which has %s free (mount -o remount,size=...)", launched,
                   launched == 1 ? "" : "s", size_of(a, sizeof a, shm), tmp_dir,
                   size_of(b, sizeof b, m->tmp_avail));
  uint64_t fds = madd((uint64_t)launched, SC__FDS_PER_LAUNCHED,
                      madd((uint64_t)(browsers - launched), SC__FDS_PER_ATTACHED,
                           SC__FDS_BASE));
  if (m->fd_limit != UINT64_MAX && madd(1, fds, m->fd_open) > m->fd_limit)
    return sc__err(SC_ENOSPACE, "preflight: %d users on %d browser%s need %" PRIu64 " more "
                   "file descriptors with %" PRIu64 " open, but the limit is %" PRIu64
                   " (ulimit -n)", users, browsers, browsers == 1 ? "" : "s", fds, m->fd_open,
                   m->fd_limit);
  return 0;
}
