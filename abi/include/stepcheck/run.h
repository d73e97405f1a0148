/* stepcheck — run a scenario: cycles x steps, verdicts with timings.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_RUN_H
#define STEPCHECK_RUN_H

#include "common.h"
#include "browser.h"
#include "page.h"
#include "scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Verdict and timings of one step in one cycle. All times in ms. */
typedef struct sc_step_result {
  const char *step_id;    /**< borrowed from the scenario */
  int cycle;              /**< 1-based; 0 for setup steps */
  int setup;              /**< non-zero for a setup step */
  int passed;
  char *reason;           /**< one line; on pass a summary ("scale x0.1250 (want x0.1250)") */
  double started_unix_ms; /**< wall clock when the first input was sent (JTL timeStamp) */
  double gesture_ms;      /**< first input sent -> last input acknowledged */
  double first_change_ms; /**< first input sent -> reply of the capture first showing an
                               expected change; -1 none (first_paint_ms dates the
                               application's response exactly on the paint log) */
  double verified_ms;     /**< first input sent -> capture on which all expectations held; -1 failed */
  int captures;           /**< captures taken after the gesture */
  double capture_ms;      /**< mean cost of one of those captures */
  double scale_factor;    /**< measured scale factor, 0 when the step has no scale check */
  char *scale_text;       /**< the readings before and after with bar lengths,
                               "100.0 m/100px -> 20.0 m/160px", or NULL */
  size_t nartifacts;
  char **artifacts;       /**< before/after/diff PNG paths written on failure */
  /* 0.2.0 */
  double idle_ms;         /**< time the polling backed off: the screen was at rest but
                               not yet as expected, so no capture was asked for (see
                               docs/design.md, "Pacing"); included in verified_ms */
  int probes;             /**< always 0 since 0.3.0 (the in-page probes gave way to the
                               paint log; kept so the struct only grows) */
  int probe_settled;      /**< always 0 since 0.3.0 */
  /* 0.3.0 */
  const char *rest;       /**< how the screen was proven at rest for this step: "paint-log"
                               (the page's own log of every paint, docs/design.md,
                               "Paint log") or "pairs" (two identical captures in a
                               row); static, never NULL in a result the library made */
  const char *rest_why;   /**< why this step used "pairs" although the paint log is the
                               default (a blind spot of the log on this page, a failed
                               self-check, or the log turned off), else NULL; static */
  double first_paint_ms;  /**< first input sent -> the application's first paint touching
                               the step's regions, on the page's clock mapped onto the
                               run's (paint-log only); -1 none or unknown */
  double last_paint_ms;   /**< first input sent -> its last paint touching them before
                               the verdict (when it finished drawing); -1 none/unknown */
  int paints;             /**< paint-log entries touching the step's regions between the
                               input and the verdict (0 with "pairs") */
  int fault;              /**< non-zero: an infrastructure fault (browser, renderer or
                               connection gone, a browser that stalled the watch, out of
                               memory) cut the step off before a verdict: it was not
                               judged, `passed` is 0 and `reason` names the fault.
                               Reports count it as an error, not as a failure */
  double ran_ms;          /**< with `fault`: first input sent (before the gesture: the
                               step's start) -> the fault, the time the step really
                               ran; reports give it as the step's elapsed time. 0
                               otherwise */
  /* 0.4.0 */
  double proven_ms;       /**< first input sent -> the answer that proved the verdict's
                               screen settled and final: on the paint log the verdict
                               capture is taken rest_capture_ms after the application's
                               last paint and proven when no paint followed it for
                               rest_quiet_ms (so verified_ms <= proven_ms); with pairs,
                               verified_ms. -1 when the step did not pass */
  int frames_skipped;     /**< non-zero: the step passed and the run keeps passed steps'
                               frames (sc_run_options.pass_frames_bytes), but its
                               frames were not written because they would have taken
                               the run past that budget (from then on no passed
                               step's are); `artifacts` is then empty */
} sc_step_result;

/** Drift found after a cycle: a region that did not come back to its cycle-start state. */
typedef struct sc_drift {
  int cycle;
  const char *region;     /**< borrowed */
  long pixels;            /**< differing pixels; -1 when it could not be compared
                                (the screen was not at rest at the cycle's start or end) */
} sc_drift;

/**
 * One user's run. Allocated by the library only and handed out by pointer:
 * fields are only ever appended (see docs/api.md), so never allocate, copy
 * or take sizeof of it. The scenario is BORROWED: keep it alive as long as
 * the result (reports read its app name, path and step timeouts).
 */
typedef struct sc_run_result {
  const sc_scenario *scenario; /**< borrowed: must outlive the result */
  int cycles;                  /**< cycles completed (or asked for by sc_run_scenario) */
  size_t nresults;
  sc_step_result **results;    /**< setup steps first, then cycle 1 steps, ...;
                                    an array of pointers so the struct may grow */
  size_t ndrift;
  sc_drift **drift;
  int passed;                  /**< every step of every cycle passed (and no failing drift) */
  int steps_passed, steps_failed; /**< over every result, setup steps included */
  char *error;                 /**< infrastructure error that stopped this user, or NULL */
  int user;                    /**< 0-based index of the user in its load run (0 alone) */
  const char *user_name;       /**< "user-1", ...; owned by the result */
  double started_unix_ms;      /**< wall clock when the user was started (page open) */
  double ended_unix_ms;        /**< wall clock when the user finished */
  /* 0.2.0 */
  const char *url;             /**< the URL this user's page was opened on: the caller's
                                    override (sc_run_options.url, --url) or else the
                                    scenario's; for a page the caller opened
                                    (sc_run_options.page), its sc_run_options.url or NULL
                                    (unknown). Reports write this one. Owned by the result */
  size_t nlocated;
  sc_located **located;        /**< where this user's locators found their points and
                                    regions, in the order they were found */
  double ready_ms;             /**< the readiness gate: ms from its first capture to the
                                    first cycle's "start" snapshot (the whole guest still
                                    for ready_quiet_ms); -1 when no gate ran (ready_quiet_ms
                                    0, or the user ended before) */
  int error_code;              /**< the sc_error behind `error` (0 when none), so a
                                    caller can tell an infrastructure fault from what
                                    the application did (SC_ELOCATE: a locator found its
                                    target nowhere or twice) */
  /* 0.4.0 */
  long long pass_frames_budget; /**< the run's sc_run_options.pass_frames_bytes (0: only
                                     failed steps' images were kept) */
  long long pass_frames_written; /**< bytes of passed steps' frames this user wrote (PNG
                                     files listed in those steps' `artifacts`) */
} sc_run_result;

/** Called after every step result (setup and cycle steps), exactly once per result. */
typedef void (*sc_progress_cb)(const sc_step_result *res, int cycles, void *userdata);

typedef struct sc_run_options {
  unsigned version;
  const char *url;          /**< overrides the scenario's url; NULL keeps it. Borrowed. */
  int cycles;               /**< default 1; < 1 is SC_EINVAL */
  const char *report_dir;   /**< failure images go here (created); NULL = none. Borrowed. */
  sc_browser *browser;      /**< borrowed; NULL = launch one for the run */
  const sc_browser_options *browser_options; /**< for the launch; NULL = defaults */
  sc_page *page;            /**< borrowed; run on this open page instead of opening one
                                 (url and viewport of the scenario are then not used) */
  int fast_capture;         /**< use optimizeForSpeed for polling captures (still lossless PNG) */
  sc_progress_cb progress;
  void *userdata;           /**< for progress */
  /** (version 2) Non-zero (e.g. set by a signal handler): stop the run at
   * the next reply or timer; the step in progress is not judged and the
   * result's error says "canceled: interrupted". Borrowed; NULL = never. */
  volatile int *cancel;
  /** (version 3) Also keep the frames of PASSED steps: for each region a
   * passed step's expectations name, its at-rest capture before the gesture
   * and the capture the verdict was given on, as
   * `USER@cCYCLE-STEP@REGION-before.png` and `-after.png` in report_dir
   * (listed in the step's `artifacts`, shown by report.html), until this
   * many bytes of PNG were written in the run: a step whose frames would
   * go past it keeps none and is marked `frames_skipped`, and so is every
   * passed step after it. 0 (the default): only failed steps' images, as
   * before. Negative, or positive with no report_dir, is SC_EINVAL.
   * Failure images are always written and never counted. */
  long long pass_frames_bytes;
  /** (version 4) Non-zero: also keep the whole guest of every step, passed
   * or failed: a capture of the whole canvas before the step begins (before
   * its park and its at-rest capture) and one after its verdict, as
   * `USER@cCYCLE-STEP@guest-before.png` and `-after.png` in report_dir,
   * listed in the step's `artifacts` after its regions' frames. They are
   * taken apart from the verdict's captures (which cover only the regions
   * the step judges), never judged, and cost the step two captures of the
   * whole guest. Needs pass_frames_bytes > 0, whose budget they count
   * against (a step whose frames would go past it keeps none). */
  int pass_frames_guest;
} sc_run_options;
/* Versions 1 to 4 are accepted (1 ends before cancel, 2 before
 * pass_frames_bytes, 3 before pass_frames_guest). */
#define SC_RUN_OPTIONS_VERSION 4
#define SC_RUN_OPTIONS_INIT \
  {SC_RUN_OPTIONS_VERSION, NULL, 1, NULL, NULL, NULL, NULL, 1, NULL, NULL, NULL, 0, 0}
/**
 * Fill *opts with the defaults of sc_run_options for a caller built against
 * `version` (1 .. the library's): the same as the INIT macro, for bindings.
 * SC_EINVAL for a NULL opts or an unknown version.
 */
SC_EXTERN int sc_run_options_init(sc_run_options *opts, unsigned version);

/**
 * Page options for a scenario: its viewport, guest size and input profile,
 * the rest defaults. For harnesses that open the page themselves and pass it
 * in sc_run_options.page.
 */
SC_EXTERN void sc_run_page_options(sc_page_options *out, const sc_scenario *s);

/**
 * Run a scenario: open its page, run the setup steps, then `cycles` cycles of
 * its steps, judging each step on the pixels.
 * @param out the result, the caller's (sc_run_result_free); set even when the
 *            run stopped on an infrastructure error (then out->error says why).
 *            The result borrows s (step ids, the app name): free the result
 *            before the scenario.
 * @return 0 when the run completed (steps may have failed: see out->passed);
 *         a negative sc_error when the browser, page or connection failed.
 */
SC_EXTERN int sc_run_scenario(sc_run_result **out, const sc_scenario *s,
                              const sc_run_options *opts);

/** Free a result; NULL is fine. */
SC_EXTERN void sc_run_result_free(sc_run_result *r);

#ifdef __cplusplus
}
#endif
#endif
