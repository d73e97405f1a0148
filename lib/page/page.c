/* Page lifecycle: own browser context + target + flat session, navigation,
 * and finding the guest canvas (size checked: a silently scaled canvas puts
 * every click somewhere plausible and wrong). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "cdp/loop.h"
#include "core/core.h"
#include "tab.h"
#include "core/opts.h"
#include "core/json.h"

int sc__page_call(sc_page *p, const char *method, json_t *params, json_t **result) {
  if (!p->cl) {
    json_decref(params);
    return sc__page_check(p, method);
  }
  return sc__client_call(p->cl, p->session_id, method, params, p->timeout_ms, result);
}

void sc__page_to_css(const sc_page *p, sc_point g, double *x, double *y) {
  /* An integer guest point names a pixel; input goes to its centre so that
   * neither rounding down nor rounding to nearest in the app (noVNC's canvas
   * sits at y = 32.5) lands on a neighbour. Fractions are kept. */
  *x = p->cx + g.x + 0.5;
  *y = p->cy + g.y + 0.5;
}

SC_EXTERN void sc_page_canvas(const sc_page *p, double *x, double *y, int *w, int *h) {
  if (x) *x = p ? p->cx : 0;
  if (y) *y = p ? p->cy : 0;
  if (w) *w = p ? p->cw : 0;
  if (h) *h = p ? p->ch : 0;
}

SC_EXTERN int sc_page_eval(char **json, sc_page *p, const char *expr) {
  if (json) *json = NULL;
  int rc = sc__page_blocking(p, "sc_page_eval");
  if (rc) return rc;
  if (!expr) return sc__err(SC_EINVAL, "sc_page_eval: expr is NULL");
  json_t *res = NULL;
  rc = sc__page_call(p, "Runtime.evaluate",
                         json_pack("{s:s, s:b, s:b}", "expression", expr, "returnByValue", 1,
                                   "awaitPromise", 1),
                         &res);
  if (rc < 0) return rc;
  json_t *exc = json_object_get(res, "exceptionDetails");
  if (exc) {
    json_t *d = json_object_get(json_object_get(exc, "exception"), "description");
    const char *msg = json_string_value(d) ? json_string_value(d)
                                           : json_string_value(json_object_get(exc, "text"));
    rc = sc__err(SC_EPROTO, "evaluate: %s", msg ? msg : "exception");
    json_decref(res);
    return rc;
  }
  if (json) {
    json_t *v = json_object_get(json_object_get(res, "result"), "value");
    *json = v ? sc__json_dump(v, JSON_ENCODE_ANY | JSON_COMPACT) : sc__strdup("null");
    if (!*json) rc = sc__err(SC_ENOMEM, "evaluate: out of memory");
  }
  json_decref(res);
  return rc;
}

/* Close the target and its context. Blocking (sc_page_free) waits for
 * both replies; the asynchronous close sends them and forgets. An open in
 * flight is abandoned: its replies find no page. */
static void close_target(sc_page *p, int wait) {
  sc__page_open_abandon(p);
  if (!p->cl) return; /* orphaned: the browser closed us already */
  sc__cdp *cdp = sc__client_cdp(p->cl);
  if (sc__cdp_is_closed(cdp)) return;
  if (p->target_id) {
    json_t *a = json_pack("{s:s}", "targetId", p->target_id);
    if (wait) sc__client_call(p->cl, NULL, "Target.closeTarget", a, 5000, NULL);
    else sc__cdp_send(cdp, NULL, "Target.closeTarget", a, 5000, NULL, NULL, NULL);
  }
  if (p->context_id) {
    json_t *a = json_pack("{s:s}", "browserContextId", p->context_id);
    if (wait) sc__client_call(p->cl, NULL, "Target.disposeBrowserContext", a, 5000, NULL);
    else sc__cdp_send(cdp, NULL, "Target.disposeBrowserContext", a, 5000, NULL, NULL, NULL);
  }
}

int sc__page_crashed(const sc_page *p) { return p->crashed; }

void sc__page_set_timeout(sc_page *p, double ms) {
  if (ms > 0) p->timeout_ms = ms;
}

static void page_release(sc_page *p) {
  if (p->browser) sc__browser_untrack(p->browser, &p->dep);
  if (p->lid && p->cl) sc__client_unlisten(p->cl, p->lid);
  sc__free(p->context_id);
  sc__free(p->target_id);
  sc__free(p->session_id);
  sc__free(p->finder);
  sc__free(p);
}

/* The browser is being freed with this page open: close its target while
 * the connection lives, then cut the page loose. The caller still owns p. */
static void page_orphan(sc__browser_dep *dep) {
  sc_page *p = (sc_page *)(void *)((char *)dep - offsetof(sc_page, dep));
  close_target(p, 1);
  if (p->lid) sc__client_unlisten(p->cl, p->lid);
  p->lid = 0;
  p->cl = NULL;
  p->browser = NULL;
}

void sc__page_track(sc_page *p) {
  p->dep.orphan = page_orphan;
  sc__browser_track(p->browser, &p->dep);
}

void sc__page_close_async(sc_page *p) {
  if (!p) return;
  close_target(p, 0);
  page_release(p);
}

SC_EXTERN void sc_page_free(sc_page *p) {
  if (!p) return;
  /* From inside a callback of the loop (the page's own, once it returns
   * nothing of the page is touched) the close cannot be waited for: it is
   * sent as the asynchronous close sends it. */
  int busy = p->cl && sc__loop_running(sc__page_loop(p));
  close_target(p, !busy);
  page_release(p);
}

SC__OPTS_DEFINE(page_options, SC_PAGE_OPTIONS_INIT,
                 sizeof(sc_page_options))
