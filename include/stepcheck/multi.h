/* stepcheck — many users from one process: the event loop and the multi
 * interface (users driven as state machines on one loop).
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_MULTI_H
#define STEPCHECK_MULTI_H

#include "common.h"
#include "browser.h"
#include "run.h"
#include "loop.h"
#include "scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sc_loop, sc_loop_new, sc_loop_free: loop.h. */

/* --------------------------------------------------------------- multi */

/** Many users on one loop, each a runner over its own page in its own
 * browser context (curl's multi interface is the model). */
typedef struct sc_multi sc_multi;

/** A step result of one user; both pointers borrowed for the call. */
typedef void (*sc_multi_step_cb)(const sc_run_result *user, const sc_step_result *res,
                                 void *userdata);
/** A user finished (all cycles, its duration, a failure that stopped it,
 * or a cancel); fires exactly once per added user. Borrowed for the call. */
typedef void (*sc_multi_user_cb)(const sc_run_result *user, void *userdata);

typedef struct sc_multi_options {
  unsigned version;
  int cycles;              /**< cycles per user (>= 1; default 1) */
  double duration_ms;      /**< > 0: a user starts new cycles until this long after
                                its first cycle started, then stops (cycles ignored) */
  const char *report_dir;  /**< failure images go here (must exist); NULL none. Borrowed. */
  int fast_capture;        /**< optimizeForSpeed for captures (still lossless PNG) */
  sc_multi_step_cb on_step;
  sc_multi_user_cb on_user_done;
  void *userdata;          /**< for the callbacks */
} sc_multi_options;
#define SC_MULTI_OPTIONS_VERSION 1
#define SC_MULTI_OPTIONS_INIT {SC_MULTI_OPTIONS_VERSION, 1, 0.0, NULL, 1, NULL, NULL, NULL}
/**
 * Fill *opts with the defaults of sc_multi_options for a caller built against
 * `version` (1 .. the library's): the same as the INIT macro, for bindings.
 * SC_EINVAL for a NULL opts or an unknown version.
 */
SC_EXTERN int sc_multi_options_init(sc_multi_options *opts, unsigned version);

/**
 * New multi handle for scenario s (borrowed: must outlive the handle and its
 * results). @param out the caller's (sc_multi_free). @param opts NULL = defaults.
 * @return 0, SC_EINVAL (bad options, sc_errmsg() names the field), SC_ENOMEM.
 */
SC_EXTERN int sc_multi_new(sc_multi **out, const sc_scenario *s, const sc_multi_options *opts);

/**
 * Add a user: a new page (own browser context) on browser b opening url
 * (NULL = the scenario's), named name (NULL = "user-N"). The user starts at
 * once; its page opens asynchronously while the others keep running. Every
 * browser of one handle must be on the same sc_loop.
 * @return the user's index (>= 0), or SC_EINVAL (NULL b, another loop),
 *         SC_ENOMEM. The browser is borrowed: it must outlive the handle.
 */
SC_EXTERN int sc_multi_add(sc_multi *m, sc_browser *b, const char *url, const char *name);

/**
 * Drive every user for up to timeout_ms (0: handle what is ready and
 * return). Returns early when a user finished. SC_EBUSY from inside a
 * callback of the loop (it would run the loop that is running it).
 * @return the number of users still running (0: all done), or a negative
 *         sc_error when the loop itself failed.
 */
SC_EXTERN int sc_multi_perform(sc_multi *m, double timeout_ms);

/** Stop user i at the next safe point (its current step is not judged): it
 * finishes with error "canceled: WHY". Out-of-range i is SC_EINVAL; a user
 * that already ended, 0. Safe from inside every callback of the loop (its
 * own on_step or on_user_done, another user's, a page's): on_user_done
 * fires later, or at once for a user whose page is still opening, never
 * twice. */
SC_EXTERN int sc_multi_cancel(sc_multi *m, int i, const char *why);

/** Number of users added. */
SC_EXTERN size_t sc_multi_count(const sc_multi *m);
/** Result of user i so far (borrowed, valid until sc_multi_free), or NULL. */
SC_EXTERN const sc_run_result *sc_multi_result(const sc_multi *m, size_t i);
/** Non-zero while user i is running. */
SC_EXTERN int sc_multi_running(const sc_multi *m, size_t i);
/** Users still running (0 when all are done, or m is NULL): the end test
 *  of a host that runs the loop itself (sc_loop_step). */
SC_EXTERN int sc_multi_active(const sc_multi *m);
/** Take user i's result out of the handle (the caller's, sc_run_result_free);
 * only once it finished, else NULL. Also from inside that user's
 * on_user_done (the result is the callback's `user`; the handle does not
 * touch it once taken). sc_multi_add works from inside the callbacks too. */
SC_EXTERN sc_run_result *sc_multi_take(sc_multi *m, size_t i);

/** Close every page and free the handle (results not taken are freed). NULL
 *  is fine. It waits for the users' last commands on the loop, so from
 *  inside one of the loop's callbacks it frees nothing and sets sc_errmsg()
 *  to an SC_EBUSY message ("sc_multi_free: called from inside a callback
 *  ..."): free the handle after the loop returned. */
SC_EXTERN void sc_multi_free(sc_multi *m);

#ifdef __cplusplus
}
#endif
#endif
