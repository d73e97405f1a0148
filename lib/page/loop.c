/* The page's loop for harnesses that drive asynchronous page calls
 * themselves: which loop a page lives on, and one run of it. */
#include "cdp/loop.h"
#include "core/core.h"
#include "tab.h"

SC_EXTERN sc_loop *sc_page_loop(sc_page *p) { return p && p->cl ? sc__page_loop(p) : NULL; }

SC_EXTERN int sc_loop_run(sc_loop *l, double timeout_ms) {
  if (!l) return sc__err(SC_EINVAL, "sc_loop_run: loop is NULL");
  int rc = sc__loop_busy(l, "sc_loop_run");
  if (rc) return rc;
  double end = sc__now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
  int n = 0;
  do {
    int k = sc__loop_service(l, end - sc__now_ms());
    if (k < 0) return k;
    n += k;
  } while (n == 0 && sc__now_ms() < end);
  return n;
}
