/* stepcheck — the event loop that browsers, pages and users share.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_LOOP_H
#define STEPCHECK_LOOP_H

#include <poll.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One event loop: one libwebsockets context for every browser connection
 * made on it, plus the timers of every user driven on it. Browsers that a
 * multi handle drives together must share one loop
 * (sc_browser_options.loop). Not thread-safe: use a loop from one thread.
 */
typedef struct sc_loop sc_loop;

/** New loop in *out (the caller's, sc_loop_free). Returns 0 or SC_ENOMEM. */
SC_EXTERN int sc_loop_new(sc_loop **out);
/** Free a loop; every browser made on it must be freed first. NULL is fine.
 * From inside one of the loop's own callbacks it frees nothing and sets
 * sc_errmsg() to an SC_EBUSY message. */
SC_EXTERN void sc_loop_free(sc_loop *l);

/* A loop run by the host program's own event loop (docs/api.md, "Running
 * the loop yourself"), in the manner of curl's multi_socket: the host asks
 * which descriptors to watch and how long it may wait, waits with its own
 * poll/epoll/libuv/libevent, and calls sc_loop_step when one is ready or the
 * time is up. sc_multi_perform, sc_loop_run and the blocking calls are the
 * same loop run by the library instead; use one way at a time. */

/**
 * The descriptors to watch now: up to max entries into fds (fd, and events
 * POLLIN and/or POLLOUT; revents untouched). Returns how many there are
 * (more than max: call again with room), or SC_EINVAL. The set changes as
 * connections open, close and have something to send: ask again before
 * every wait.
 */
SC_EXTERN int sc_loop_fds(sc_loop *l, struct pollfd *fds, int max);
/**
 * How long the host may wait at most before calling sc_loop_step even when
 * no descriptor is ready, in ms: 0 when something is due now, never more
 * than 1000 (libwebsockets' own timers are not visible from outside it).
 * SC_EINVAL for a NULL loop.
 */
SC_EXTERN int sc_loop_timeout(sc_loop *l);
/**
 * One round without waiting: read and write what is ready, feed the
 * protocol, run the timers that are due and the callbacks they fire.
 * Returns how many things were handled (0 is fine: a spurious wake-up),
 * SC_EINVAL, or SC_EBUSY when called from inside one of the loop's own
 * callbacks. The same SC_EBUSY answers a blocking call (sc_page_capture,
 * sc_loop_run, sc_multi_perform, ...) made from inside a callback: the
 * loop is never re-entered.
 */
SC_EXTERN int sc_loop_step(sc_loop *l);

#ifdef __cplusplus
}
#endif
#endif
