/* Prints the paint-log script the library injects into every page
 * (lib/page/paintlog_js.c, macros expanded), so that a peer can run it
 * without stepcheck: bench/peer/steps.js --verify none --inject FILE drives
 * the same gestures with the log in the page and nothing else, which
 * measures what the log costs the page (docs/benchmarks.md).
 *
 *   build-bench/bench/print_paintlog > paintlog.js */
#include <stdio.h>

#include "page/paintlog.h"

int main(void) { return fputs(sc__paintlog_js, stdout) < 0 || fflush(stdout) ? 1 : 0; }
