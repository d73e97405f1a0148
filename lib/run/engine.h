/* Internal parts of the multi interface, for the one-user wrapper and load
 * runs. */
#ifndef SC_RUN_MULTI_H
#define SC_RUN_MULTI_H

#include "stepcheck/load.h"
#include "stepcheck/multi.h"
#include "stepcheck/run.h"
#include "stepcheck/page.h"
#include "core/opts.h"
#include "scenario/model.h"

/* Add a user on a page that is already open (borrowed: not closed by the
 * handle); url, when known, is what the page shows (for the reports).
 * Returns the user's index or a negative sc_error. */
int sc__multi_add_page(sc_multi *m, sc_page *p, const char *name, const char *url);
/* Add a user whose runner works through io instead of a page (a scripted
 * world with a fake clock, in the engine's unit tests): its guest is
 * guest_w x guest_h, and nothing of a page or a loop is touched for it.
 * Returns the user's index or a negative sc_error. */
struct sc__io;
int sc__multi_add_io(sc_multi *m, const char *name, const struct sc__io *io, int guest_w,
                     int guest_h);
/* A load run whose users are added and run by the caller (the engine's
 * unit tests: scripted page I/O on a fake clock) instead of browsers on a
 * loop: add puts user i (-1: the warm-up) on m, perform runs m's users for
 * up to wait_ms and returns how many are still active (or < 0). */
typedef struct sc__load_driver {
  int (*add)(void *ctx, sc_multi *m, int i, const char *name);
  int (*perform)(void *ctx, sc_multi *m, double wait_ms);
  void *ctx;
} sc__load_driver;
int sc__load_run_with(sc_load_result **out, const sc_scenario *s, const sc_load_options *opts,
                      const sc__load_driver *drv);

/* The error that ended user i (0 none). */
int sc__multi_user_rc(const sc_multi *m, size_t i);
/* The handle's loop (NULL before the first user). */
sc_loop *sc__multi_loop(const sc_multi *m);
/* A flag (set from a signal handler; borrowed) that ends long computations
 * inside a user's callbacks (template searches) at once; NULL = none. */
void sc__multi_interrupt(sc_multi *m, volatile int *flag);
/* Keep passed steps' frames against *fb (runner.h; borrowed: it must
 * outlive m), which the caller owns so that one budget covers a whole run
 * (a load's warm-up and its users on two handles alike); fb->budget 0 or
 * fb NULL = none (the default). */
struct sc__frames_budget;
void sc__multi_pass_frames(sc_multi *m, struct sc__frames_budget *fb);
/* User i's page (borrowed; NULL before it opened or after it ended), for
 * tests that break a page on purpose. */
sc_page *sc__multi_page(const sc_multi *m, size_t i);
/* Users still running. */
int sc__multi_active(const sc_multi *m);
/* Shared-session detection (shared.h) for the users added from now on
 * (call before the first): every input they send and every paint start
 * their logs report are matched across them. 0, SC_EINVAL (users already
 * added), SC_ENOMEM. */
int sc__multi_watch_shared(sc_multi *m);
/* Match what came in since the last call (nothing when not watching). */
void sc__multi_shared_judge(sc_multi *m);
/* As matched so far: 1 when user b's screen followed user *a's gestures
 * (*hits of *chances, shared.h), else 0; 0 when not watching. */
int sc__multi_shared_suspect(const sc_multi *m, size_t b, int *a, int *hits, int *chances);

/* Versioned options (core/opts.h). */
SC__OPTS_DECLARE(multi_options);
SC__OPTS_DECLARE(load_options);
SC__OPTS_DECLARE(run_options);

#endif
