/* Is the guest still there? The canvas the page opened on, looked up again
 * (same finder, same selector) and compared with the geometry found at
 * open. A verdict is only given while it holds: captures are clips of the
 * page, so after the canvas is gone (the application or its client died)
 * they show the page behind it, and checks that a blank screen satisfies
 * ("something changed", "colour absent") must not pass on it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tab.h"

typedef struct gcheck {
  double cx, cy;
  int cw, ch;
  int by_selector;
  sc__done_cb cb;
  void *ud;
} gcheck;

static void guest_reply(int status, json_t *res, const char *errmsg, void *ud) {
  gcheck g = *(gcheck *)ud;
  sc__free(ud);
  if (status) {
    g.cb(status, errmsg, g.ud);
    return;
  }
  json_t *v = json_object_get(json_object_get(res, "result"), "value");
  char msg[400], why[256];
  sc__guest_pick pick;
  /* the same choice as at open, by the size it was opened with */
  int rc = sc__guest_choose(v, g.cw, g.ch, g.by_selector, &pick, why, sizeof why);
  if (rc <= 0) {
    snprintf(msg, sizeof msg, "the application's canvas is gone from the page (%s)", why);
    g.cb(SC_EGEOMETRY, msg, g.ud);
    return;
  }
  if (fabs(pick.x - g.cx) > 0.01 || fabs(pick.y - g.cy) > 0.01) {
    snprintf(msg, sizeof msg,
             "the application's window moved: its %dx%d canvas is now at (%g,%g), opened at "
             "(%g,%g)", g.cw, g.ch, pick.x, pick.y, g.cx, g.cy);
    g.cb(SC_EGEOMETRY, msg, g.ud);
    return;
  }
  g.cb(0, NULL, g.ud);
}

int sc__page_guest_check_async(sc_page *p, sc__done_cb cb, void *ud) {
  int rc = sc__page_check(p, "guest check");
  if (rc) return rc;
  if (!p->finder) return sc__err(SC_EINVAL, "guest check: the page was not opened");
  gcheck *g = sc__malloc(sizeof *g);
  if (!g) return sc__err(SC_ENOMEM, "guest check: out of memory");
  *g = (gcheck){p->cx, p->cy, p->cw, p->ch, p->by_selector, cb, ud};
  /* The reply carries a copy of what to compare with, not the page: a page
   * freed meanwhile is never touched. */
  rc = sc__cdp_send(sc__client_cdp(p->cl), p->session_id, "Runtime.evaluate",
                    json_pack("{s:s, s:b}", "expression", p->finder, "returnByValue", 1),
                    p->timeout_ms, guest_reply, g, NULL);
  if (rc) sc__free(g);
  return rc;
}
