/* The load generator's self-checks: what this process and the browsers it
 * launched cost (CPU, memory from /proc), how many CPUs there are, and
 * whether the RAM-backed temp space has room for more users. Linux only;
 * no CDP, no pages. Not installed. */
#ifndef SC_HOST_H
#define SC_HOST_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "stepcheck/common.h"

/* Resource usage of a set of processes at one moment. */
typedef struct sc__usage {
  double cpu_ms;        /* utime+stime of every process counted, ms */
  double cpu_reaped_ms; /* cutime+cstime of those processes: CPU of exited
                         * children they waited for, ms. A process that exits
                         * and is reaped inside the set moves its CPU from
                         * cpu_ms to here, so the sum of both only grows. */
  double pss_kib;       /* proportional set size ("Pss:" of smaps_rollup), KiB;
                         * 0 for a process whose smaps_rollup is unreadable */
  int nproc;            /* processes counted (zombies included) */
} sc__usage;

/* Usage of the process trees rooted at roots[0..nroots): every root pid and,
 * when include_root_children is non-zero, all its live descendants (found by
 * the ppid in proc_root/<pid>/stat); with 0, the roots alone. Each process is
 * counted once even if trees overlap or a pid is repeated. A process that
 * vanished mid-scan (or a root that does not exist) is skipped silently.
 * proc_root: the procfs mount, NULL for "/proc" (tests pass a fake tree);
 * roots is borrowed. Returns 0; SC_EINVAL for a pid <= 0; SC_EIO when
 * proc_root cannot be read (the message names it); SC_ENOMEM. */
int sc__usage_trees(sc__usage *out, const char *proc_root, const int *roots, size_t nroots,
                    int include_root_children);

/* A thread that reads sc__usage_self and sc__usage_trees(pids, with
 * children) every period_ms, so the loop thread never scans /proc
 * (sampler.c). The loop thread takes the latest reading when it wants one.
 * The library's allocator is called from that thread (sc_set_allocator's
 * functions must be thread-safe for load runs, docs/api.md). */
typedef struct sc__sampler {
  pthread_t th;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int started, stop;
  const char *proc_root; /* NULL: /proc; borrowed */
  int *pids;             /* copied */
  size_t npids;
  double period_ms;
  sc__usage self, tree;  /* the latest reading, under mu */
  double at_ms;          /* when it was made (monotonic) */
  double cost_ms;        /* how long the last scan took (on the sampler thread) */
  unsigned long seq;     /* readings so far */
} sc__sampler;

/* Start it (a first reading at once). 0, or SC_ENOMEM. */
int sc__sampler_start(sc__sampler *s, const char *proc_root, const int *pids, size_t npids,
                      double period_ms);
/* Wait up to timeout_ms for the first reading: 1 when there is one. */
int sc__sampler_wait_first(sc__sampler *s, double timeout_ms);
/* 1 and the latest reading when it is newer than *seen (updated), else 0. */
int sc__sampler_take(sc__sampler *s, unsigned long *seen, sc__usage *self, sc__usage *tree,
                     double *at_ms, double *cost_ms);
/* Stop and join the thread; nothing after it reads /proc. Idempotent. */
void sc__sampler_stop(sc__sampler *s);

/* Usage of this process alone (proc_root/self: stat and smaps_rollup; no
 * scan). proc_root: NULL for "/proc". Returns 0; SC_EIO naming the stat file
 * when it cannot be read. */
int sc__usage_self(sc__usage *out, const char *proc_root);

/* Online CPUs (sysconf(_SC_NPROCESSORS_ONLN)); at least 1. */
int sc__cpu_count(void);

/* CPU percent of one core used between two usages of the same set taken
 * wall_ms apart (a first, b later): 100 * delta(cpu_ms + cpu_reaped_ms) /
 * wall_ms, so 250 means two and a half cores. 0 when wall_ms <= 0 or the CPU
 * went down (a process left the set without being reaped inside it). */
double sc__cpu_pct(const sc__usage *a, const sc__usage *b, double wall_ms);

/* Free and used bytes of the filesystem holding path (statvfs): *avail_bytes
 * is what an unprivileged writer may still use. Either out-param may be NULL.
 * Returns 0; SC_EIO naming path on failure. */
int sc__fs_avail(uint64_t *avail_bytes, uint64_t *used_bytes, const char *path);

/* Safety margin of the space preflight: this fraction of the need, and at
 * least SC__SPACE_MARGIN_MIN_BYTES (a user's use varies around the warm-up
 * measurement; Chromium needs some shared memory before it writes anything). */
#define SC__SPACE_MARGIN_PERCENT 10
#define SC__SPACE_MARGIN_MIN_BYTES ((uint64_t)16 << 20)

/* Whether users_to_add more users fit in the temp space of dir: 0 when
 * users_to_add * per_user_bytes plus the margin is at most avail_bytes (and
 * always when users_to_add is 0). Pure: the caller measures avail_bytes
 * (sc__fs_avail) and per_user_bytes (free bytes before minus after the
 * warm-up user); dir only names the space in the message. Returns 0;
 * SC_ENOSPACE with a message giving the numbers, how many users do fit and
 * how to give dir more room; SC_EINVAL for users_to_add < 0 or a NULL dir. */
int sc__preflight_space(const char *dir, uint64_t avail_bytes, uint64_t per_user_bytes,
                        int users_to_add);

/* ---- limits of one generator (limits.c), checked before its first
 * browser starts (docs/scaling.md, "Limits of one generator") */

/* Users one generator drives, wherever its browsers are. */
#define SC__LOAD_USERS_MAX 1000
/* Browsers one generator launches itself (--grid and --browser are not
 * counted: they run elsewhere). */
#define SC__LAUNCH_BROWSERS_MAX 64
/* Floors of what each costs: a load that cannot have even these is refused
 * before it starts. Memory: a launched browser without pages (headless
 * shell or chromium) 128 MiB, a user's browser context (its renderer) 48
 * MiB (docs/scaling.md: 50-100 MiB), the library's state of one user 1 MiB
 * (docs/scaling.md: 0.77-0.97 MiB). Temp space: a launched browser's
 * profile 1 MiB (1076 KiB measured with two users). File descriptors of
 * this process: 16 for itself, 4 per launched browser (its pipe, the
 * reaper's pipe), 2 per attached one (the websocket). */
#define SC__MEM_PER_BROWSER ((uint64_t)128 << 20)
#define SC__MEM_PER_CONTEXT ((uint64_t)48 << 20)
#define SC__MEM_PER_USER ((uint64_t)1 << 20)
#define SC__SHM_PER_BROWSER ((uint64_t)1 << 20)
#define SC__FDS_BASE 16
#define SC__FDS_PER_LAUNCHED 4
#define SC__FDS_PER_ATTACHED 2

/* What the machine offers, measured once. */
typedef struct sc__machine {
  uint64_t mem_avail; /* MemAvailable of /proc/meminfo, bytes (UINT64_MAX: unknown) */
  uint64_t tmp_avail; /* free bytes of the temp dir the browsers use */
  uint64_t fd_limit;  /* RLIMIT_NOFILE soft limit (UINT64_MAX: unlimited) */
  uint64_t fd_open;   /* descriptors this process has open now */
} sc__machine;

/* Measure the machine: proc_root NULL for "/proc", tmp_dir the browsers'
 * temp dir (statvfs). Returns 0; SC_EIO naming what could not be read. */
int sc__machine_measure(sc__machine *out, const char *proc_root, const char *tmp_dir);

/* Whether users users on browsers browsers, launched of which start here
 * (the rest are attached), fit the limits above and the machine m. Pure.
 * Returns 0; SC_ENOSPACE with one line naming the limit, the need and the
 * measured figure (and how many users fit, when that helps); SC_EINVAL for
 * a negative count or a NULL argument. */
int sc__preflight_load(const sc__machine *m, const char *tmp_dir, int users, int browsers,
                       int launched);

#endif
