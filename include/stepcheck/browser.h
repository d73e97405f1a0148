/* stepcheck — launch headless Chromium or attach to a running one.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_BROWSER_H
#define STEPCHECK_BROWSER_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A connection to one browser (launched by us, or attached to). */
typedef struct sc_browser sc_browser;

typedef struct sc_browser_options {
  unsigned version;
  /** Browser binary; NULL = $SC_CHROMIUM, else /usr/bin/chromium. */
  const char *executable;
  /** Extra command-line flags, NULL-terminated array; NULL for none. Borrowed. */
  const char *const *extra_args;
  /** How long launch/attach may take, ms. */
  double launch_timeout_ms;
  /** Default deadline for each CDP command, ms. */
  double command_timeout_ms;
  /** Incoming CDP messages larger than this are rejected (bytes). */
  size_t max_message_bytes;
  /** Non-zero: keep Chromium's stderr (else sent to /dev/null). */
  int show_browser_stderr;
  /** (version 2) The loop this browser's connection lives on (borrowed; it
   * must outlive the browser). NULL = a private loop of the browser's own.
   * Browsers driven together by one sc_multi must share one loop. */
  struct sc_loop *loop;
  /** (version 3) Non-zero: sc_browser_connect may attach to a host other
   * than loopback. DevTools has no authentication: whoever reaches the port
   * controls the browser, so only on a private network (docs/scaling.md). */
  int allow_remote;
  /** (version 4) Non-zero (e.g. set from a signal handler): every wait of
   * the launch or attach on the network or the browser (the DevTools port,
   * /json/version, the websocket handshake, the first command) ends within
   * 200 ms with SC_ECANCELED "... interrupted". Only the launch or attach
   * looks at it. Borrowed; NULL = never. */
  volatile int *cancel;
} sc_browser_options;
/* Versions 1 to 4 are accepted (1 ends before loop, 2 before allow_remote,
 * 3 after it). */
#define SC_BROWSER_OPTIONS_VERSION 4
#define SC_BROWSER_OPTIONS_INIT \
  {SC_BROWSER_OPTIONS_VERSION, NULL, NULL, 20000.0, 30000.0, (size_t)64 << 20, 0, NULL, 0, NULL}
/**
 * Fill *opts with the defaults of sc_browser_options for a caller built against
 * `version` (1 .. the library's): the same as the INIT macro, for bindings.
 * SC_EINVAL for a NULL opts or an unknown version.
 */
SC_EXTERN int sc_browser_options_init(sc_browser_options *opts, unsigned version);

/**
 * Launch headless Chromium with a fresh 0700 profile directory on a RAM-backed
 * filesystem (/dev/shm, else $TMPDIR, else /tmp), DevTools on 127.0.0.1 with port 0 read
 * back from DevToolsActivePort. sc_browser_free stops it (by pid) and removes
 * the profile directory.
 * @param out   the new browser, the caller's (sc_browser_free).
 * @param opts  NULL for SC_BROWSER_OPTIONS_INIT.
 * @return 0, SC_ELAUNCH, SC_ETIMEDOUT, SC_ECANCELED (opts->cancel), ...;
 *         sc_errmsg() has the detail.
 */
SC_EXTERN int sc_browser_launch(sc_browser **out, const sc_browser_options *opts);

/**
 * Attach to a running browser: "ws://127.0.0.1:9222/devtools/browser/<id>",
 * a grid session's "ws://127.0.0.1:4444/session/<id>/se/cdp"
 * (sc_grid_session_cdp_url), or "http://127.0.0.1:9222" (resolved through
 * /json/version). Only loopback hosts are accepted (127.0.0.0/8, localhost,
 * [::1]) unless opts->allow_remote, checked before any network traffic.
 * sc_browser_free disconnects without closing it.
 * @param out       the new browser, the caller's (sc_browser_free).
 * @param endpoint  the URL, borrowed.
 * @param opts      NULL for SC_BROWSER_OPTIONS_INIT (launch_timeout_ms bounds
 *                  the whole attach).
 * @return 0, SC_EINVAL (bad URL, not loopback), SC_EIO (refused),
 *         SC_ETIMEDOUT, SC_ECANCELED (opts->cancel set while it waited),
 *         ...; sc_errmsg() has the detail.
 */
SC_EXTERN int sc_browser_connect(sc_browser **out, const char *endpoint,
                                 const sc_browser_options *opts);

/**
 * Close the pages still open on b (each page's target is closed; the page
 * object stays the caller's: its calls answer SC_ECLOSED and sc_page_free
 * still frees it), stop a launched browser by pid, remove its profile.
 * Free multi handles that use b first. NULL is fine. From inside a
 * callback of b's loop (an on_step, a sc_page_done_cb) it frees nothing
 * and sets sc_errmsg() to an SC_EBUSY message: the loop is still using the
 * connection; free b after the loop returned.
 */
SC_EXTERN void sc_browser_free(sc_browser *b);

/** Browser product string ("Chrome/156.0.8078.108"). Borrowed. */
SC_EXTERN const char *sc_browser_product(const sc_browser *b);

/** Process id of a launched browser, 0 when attached. */
SC_EXTERN int sc_browser_pid(const sc_browser *b);

/** The DevTools websocket URL in use. Borrowed. */
SC_EXTERN const char *sc_browser_ws_url(const sc_browser *b);

#ifdef __cplusplus
}
#endif
#endif
