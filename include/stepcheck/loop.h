/* stepcheck — the event loop that browsers, pages and users share.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_LOOP_H
#define STEPCHECK_LOOP_H

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
/** Free a loop; every browser made on it must be freed first. NULL is fine. */
SC_EXTERN void sc_loop_free(sc_loop *l);

#ifdef __cplusplus
}
#endif
#endif
