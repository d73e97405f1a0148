/* Internal view of a browser, for the page layer. */
#ifndef SC_BROWSER_INTERNAL_H
#define SC_BROWSER_INTERNAL_H

#include "stepcheck/browser.h"
#include "../cdp/client.h"

/* The connection every page of this browser shares. Borrowed. */
sc__client *sc__browser_client(sc_browser *b);
/* Default command deadline (ms) from the options. */
double sc__browser_timeout(const sc_browser *b);

/* Added: the profile directory of a launched browser (removed by
 * sc_browser_free), NULL when attached. Borrowed. */
const char *sc__browser_profile_dir(const sc_browser *b);

#endif
