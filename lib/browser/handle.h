/* Internal view of a browser, for the page layer. */
#ifndef SC_BROWSER_INTERNAL_H
#define SC_BROWSER_INTERNAL_H

#include "stepcheck/browser.h"
#include "stepcheck/grid.h"
#include "../cdp/client.h"
#include "core/opts.h"

/* The connection every page of this browser shares. Borrowed. */
sc__client *sc__browser_client(sc_browser *b);
/* Default command deadline (ms) from the options. */
double sc__browser_timeout(const sc_browser *b);

/* Added: the profile directory of a launched browser (removed by
 * sc_browser_free), NULL when attached. Borrowed. */
const char *sc__browser_profile_dir(const sc_browser *b);

/* sc_browser_launch that gives up (SC_ECANCELED, the browser stopped and its
 * profile removed) as soon as *cancel is non-zero while it waits for the
 * browser to come up; cancel may be NULL. A load run launches several in
 * a row: a signal must not wait for all of them (docs/reliability.md). */
int sc__browser_launch_cancel(sc_browser **out, const sc_browser_options *opts,
                              const volatile int *cancel);

/* Objects that live on a browser's connection (pages) and must hear when
 * the browser is freed first: the browser calls orphan(dep) for each one
 * still tracked, in sc_browser_free, before its connection goes. orphan
 * must sc__browser_untrack the dep (or let the browser drop it: it is
 * unlinked before the call). Intrusive list: the dep is embedded. */
typedef struct sc__browser_dep {
  struct sc__browser_dep *prev, *next;
  void (*orphan)(struct sc__browser_dep *dep);
} sc__browser_dep;
void sc__browser_track(sc_browser *b, sc__browser_dep *dep);
/* Unlink dep (a dep not tracked, all zero, is fine). */
void sc__browser_untrack(sc_browser *b, sc__browser_dep *dep);

/* Versioned options (core/opts.h). */
SC__OPTS_DECLARE(browser_options);
SC__OPTS_DECLARE(grid_options);

#endif
