/* Argument checks shared by the page's public and asynchronous calls: a
 * NULL page or a point that is not a pixel of the guest is SC_EINVAL with
 * the function's name, never a crash or a click somewhere harmless. */
#include <math.h>

#include "cdp/loop.h"
#include "core/core.h"
#include "tab.h"

int sc__page_check(const sc_page *p, const char *fn) {
  if (!p) return sc__err(SC_EINVAL, "%s: page is NULL", fn);
  if (!p->cl) return sc__err(SC_ECLOSED, "%s: the page's browser was freed", fn);
  return 0;
}

int sc__page_blocking(const sc_page *p, const char *fn) {
  int rc = sc__page_check(p, fn);
  return rc ? rc : sc__loop_busy(sc__page_loop((sc_page *)p), fn);
}

int sc__page_check_point(const sc_page *p, sc_point at, const char *fn) {
  int rc = sc__page_check(p, fn);
  if (rc) return rc;
  if (!isfinite(at.x) || !isfinite(at.y))
    return sc__err(SC_EINVAL, "%s: point (%g, %g) is not finite", fn, at.x, at.y);
  /* Input lands at (x + 0.5, y + 0.5), the centre of the pixel an integer
   * point names: that place must be on the guest. */
  if (at.x + 0.5 < 0 || at.y + 0.5 < 0 || at.x + 0.5 >= p->cw || at.y + 0.5 >= p->ch)
    return sc__err(SC_EINVAL, "%s: point (%g, %g) outside the %dx%d guest", fn, at.x, at.y,
                   p->cw, p->ch);
  return 0;
}
