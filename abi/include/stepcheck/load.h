/* stepcheck — load runs: a one-user warm-up, then users added in ramp
 * levels on one loop, judged against the quality bar, with the generator's
 * own CPU and memory sampled into the result.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_LOAD_H
#define STEPCHECK_LOAD_H

#include "common.h"
#include "browser.h"
#include "multi.h"
#include "run.h"
#include "scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One ramp level: the span from the moment its users were added until the
 * next level's were (or the end). Library-allocated, append-only.
 */
typedef struct sc_level {
  int index;               /**< 0-based */
  int users;               /**< users added so far (running in this level) */
  double start_ms, end_ms; /**< since the load run started (after the warm-up) */
  int steps_passed;        /**< step results that ended in this level */
  int steps_failed;
  int healthy;             /**< the quality bar held for the whole level */
  char *reason;            /**< first reason it is degraded ("user-3: zoom-in 2210 ms
                                > bar 750 ms"), NULL when healthy */
} sc_level;

/** One sample of the generator's own cost. Library-allocated, append-only. */
typedef struct sc_gen_sample {
  double t_ms;             /**< since the load run started */
  double cpu_pct;          /**< CPU of this process + launched browser trees since the
                                previous sample, % of one core (200 = two cores busy) */
  double lib_cpu_pct;      /**< this process alone */
  double pss_mib;          /**< PSS of this process + launched browser trees */
  double lib_pss_mib;      /**< PSS of this process alone */
  int users;               /**< users running */
} sc_gen_sample;

/**
 * What a load run produced. Library-allocated (sc_load_result_free),
 * append-only; arrays are arrays of pointers.
 */
typedef struct sc_load_result {
  const sc_scenario *scenario;  /**< borrowed: must outlive the result */
  sc_run_result *warmup;        /**< the one-user warm-up run, or NULL (none asked) */
  size_t nusers;
  sc_run_result **users;        /**< every user, in the order added */
  size_t nlevels;
  sc_level **levels;
  int last_healthy_users;       /**< users of the last healthy level before the first
                                     degraded one; 0 when none was healthy */
  size_t nsamples;
  sc_gen_sample **samples;      /**< one per second */
  int cores;                    /**< online CPUs of the generator */
  double cpu_warn_pct;          /**< 80% of cores x 100 */
  int passed;                   /**< every step of every user verified, no error */
  int steps_passed, steps_failed;
  char *error;                  /**< what stopped the run (preflight, launch), or NULL */
  size_t nwarnings;
  char **warnings;              /**< e.g. "generator CPU 171% > 160% (80% of 2 cores)
                                     at 42 s: counts past here measure the generator" */
  double started_unix_ms, ended_unix_ms;
  /* 0.2.0 */
  const char *url;              /**< the URL every user was opened on (with one server
                                     per user: the first; each user's own is in its
                                     sc_run_result.url) (the override, or the
                                     scenario's); reports write this one. Owned */
} sc_load_result;

typedef struct sc_load_options {
  unsigned version;
  int users;                    /**< users in all (>= 1) */
  int ramp;                     /**< users added per level (>= 1; default: all at once) */
  double every_ms;              /**< time between levels (> 0 when ramp < users) */
  int cycles;                   /**< cycles per user (default 1), unless duration_ms */
  double duration_ms;           /**< > 0: each user repeats cycles this long */
  int warmup_cycles;            /**< one user alone first (default 2; 0 = no warm-up and
                                     no quality bar) */
  const char *const *endpoints; /**< browsers to attach to (NULL-terminated); NULL =
                                     launch locally. Borrowed. */
  int users_per_browser;        /**< users per browser (default: all users on one per
                                     endpoint, or 8 per launched browser) */
  const sc_browser_options *browser_options; /**< launch/attach; NULL = defaults */
  const char *url;              /**< overrides the scenario's url. Borrowed. */
  const char *report_dir;       /**< failure images; NULL none. Borrowed. */
  int fast_capture;
  const char *tmp_dir;          /**< the RAM-backed dir browsers put profiles in
                                     (preflight); NULL = /dev/shm */
  sc_multi_step_cb on_step;     /**< every user's step results */
  void (*on_level)(const sc_level *lv, const sc_gen_sample *last, void *userdata);
                                /**< a level ended (for progress lines); may be NULL */
  void (*on_sample)(const sc_gen_sample *s, void *userdata); /**< each sample; may be NULL */
  void *userdata;
  volatile int *cancel;         /**< non-zero (e.g. set from a signal handler): stop every
                                     user and end the run; borrowed, may be NULL */
  /* version 2 */
  const char *const *urls;      /**< one server per user (NULL-terminated, e.g. one JOSM
                                     per user behind Xpra): user i (0-based) opens
                                     urls[i], the warm-up urls[0] alone before the others;
                                     users must not outnumber them. NULL: every user
                                     opens `url`. Borrowed. */
  /* version 3 */
  long long pass_frames_bytes;  /**< also keep passed steps' frames, as
                                     sc_run_options.pass_frames_bytes, with one budget
                                     for the whole run (the warm-up and every user
                                     count against it); 0 = failure images only */
} sc_load_options;
#define SC_LOAD_OPTIONS_VERSION 3
#define SC_LOAD_OPTIONS_INIT                                                                 \
  {SC_LOAD_OPTIONS_VERSION, 1, 0, 0.0, 1, 0.0, 2, NULL, 0, NULL, NULL, NULL, 1, NULL, NULL, \
   NULL, NULL, NULL, NULL, NULL, 0}
/**
 * Fill *opts with the defaults of sc_load_options for a caller built against
 * `version` (1 .. the library's): the same as the INIT macro, for bindings.
 * SC_EINVAL for a NULL opts or an unknown version.
 */
SC_EXTERN int sc_load_options_init(sc_load_options *opts, unsigned version);

/**
 * Run a load: launch or attach browsers, run the warm-up user alone, check
 * the RAM-backed temp filesystem has room for every user (per-user need
 * measured at the warm-up), then add users `ramp` at a time every
 * `every_ms`, all on one loop, sampling the generator every second.
 * Browsers launched here are stopped before it returns.
 * @param out the result, the caller's (sc_load_result_free); set even when
 *            the run stopped early (out->error says why).
 * @return 0 when the run completed (steps may have failed: out->passed),
 *         negative sc_error when it could not (preflight, launch, attach).
 */
SC_EXTERN int sc_load_run(sc_load_result **out, const sc_scenario *s,
                          const sc_load_options *opts);

/** Free a load result; NULL is fine. */
SC_EXTERN void sc_load_result_free(sc_load_result *r);

#ifdef __cplusplus
}
#endif
#endif
