/* stepcheck — browsers from a Selenium Grid 4: one WebDriver session per
 * browser, driven through the CDP websocket the grid exposes (se:cdp).
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_GRID_H
#define STEPCHECK_GRID_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One WebDriver session on a grid: a Chromium that a grid node started. */
typedef struct sc_grid_session sc_grid_session;

/** Default deadline of a request to the grid, ms: creating a session waits
 * while a node starts a browser (and while the grid queues the request when
 * every slot is busy). */
#define SC_GRID_TIMEOUT_MS 60000.0

typedef struct sc_grid_options {
  unsigned version;
  /** Deadline of each request to the grid, ms (deleting a session waits at
   * most 15 s of it). */
  double timeout_ms;
  /** Chromium binary on the node; NULL = /usr/bin/chromium. Borrowed. */
  const char *binary;
  /** Flags after stepcheck's own headless flags, NULL-terminated; NULL for
   * none. Borrowed. A node running as root needs "--no-sandbox". */
  const char *const *extra_args;
  /** Non-zero: the grid may be on a host other than loopback. Whoever
   * reaches the grid or its CDP websocket controls the browsers: only on a
   * private network or through a tunnel (docs/scaling.md). */
  int allow_remote;
  /** (version 2) Non-zero (e.g. set from a signal handler): a session being
   * created stops waiting for the grid within 200 ms, SC_ECANCELED "grid
   * URL: interrupted" (the grid may still make the session it was asked
   * for). Deleting a session does not look at it: it runs on the way out of
   * an interrupted run, at most 15 s. Borrowed; NULL = never. */
  volatile int *cancel;
} sc_grid_options;
/* Versions 1 and 2 are accepted (1 ends after allow_remote). */
#define SC_GRID_OPTIONS_VERSION 2
#define SC_GRID_OPTIONS_INIT {SC_GRID_OPTIONS_VERSION, SC_GRID_TIMEOUT_MS, NULL, NULL, 0, NULL}
/**
 * Fill *opts with the defaults of sc_grid_options for a caller built against
 * `version` (1 .. the library's): the same as the INIT macro, for bindings.
 * SC_EINVAL for a NULL opts or an unknown version.
 */
SC_EXTERN int sc_grid_options_init(sc_grid_options *opts, unsigned version);

/**
 * Create a session: POST grid_url/session asking for Chrome with the given
 * binary and stepcheck's headless flags. The CDP URL is the grid's se:cdp
 * path on grid_url's host and port (so a grid reached through a tunnel is
 * reached the same way for CDP; the reply cannot point elsewhere).
 * @param out       the new session, the caller's (sc_grid_session_free).
 * @param grid_url  "http://127.0.0.1:4444" (a path prefix is kept), borrowed.
 *                  Loopback hosts only (127.0.0.0/8, localhost, [::1]) unless
 *                  opts->allow_remote, checked before any network traffic.
 * @param opts      NULL for SC_GRID_OPTIONS_INIT.
 * @return 0, SC_EINVAL (bad URL or options, not loopback), SC_EIO (grid not
 *         reachable), SC_ETIMEDOUT, SC_EPROTO (the grid refused: status and its
 *         message; or a reply without sessionId or se:cdp, in which case the
 *         session it did create is deleted again), SC_ECANCELED (opts->cancel
 *         was set while it waited), SC_ENOMEM. sc_errmsg()
 *         names the grid URL and what was wrong, on one line.
 */
SC_EXTERN int sc_grid_session_new(sc_grid_session **out, const char *grid_url,
                                  const sc_grid_options *opts);

/** The CDP websocket URL ("ws://127.0.0.1:4444/session/ID/se/cdp"), for
 * sc_browser_connect (with allow_remote there too for a remote grid).
 * Borrowed: valid until sc_grid_session_free. */
SC_EXTERN const char *sc_grid_session_cdp_url(const sc_grid_session *g);

/** The WebDriver session id. Borrowed: valid until sc_grid_session_free. */
SC_EXTERN const char *sc_grid_session_id(const sc_grid_session *g);

/**
 * End the session: DELETE grid_url/session/ID, which quits the browser on the
 * node. Free a browser connected to it first (its websocket closes here).
 * Idempotent: once deleted (or when the grid no longer knows the session,
 * status 404), further calls return 0 without traffic.
 * @return 0, SC_EIO, SC_ETIMEDOUT, SC_EPROTO (another status; the session may
 *         still exist, a later call tries again), SC_EINVAL (NULL).
 */
SC_EXTERN int sc_grid_session_delete(sc_grid_session *g);

/** Delete the session if not yet deleted (failures ignored; sc_errmsg() is
 * left as it was), then free. NULL is fine. */
SC_EXTERN void sc_grid_session_free(sc_grid_session *g);

#ifdef __cplusplus
}
#endif
#endif
