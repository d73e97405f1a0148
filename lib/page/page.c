/* Page lifecycle: own browser context + target + flat session, navigation,
 * and finding the guest canvas (size checked: a silently scaled canvas puts
 * every click somewhere plausible and wrong). */
#include <math.h>
#include <string.h>

#include "core/core.h"
#include "page_internal.h"

int sc__page_call(sc_page *p, const char *method, json_t *params, json_t **result) {
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
  if (x) *x = p->cx;
  if (y) *y = p->cy;
  if (w) *w = p->cw;
  if (h) *h = p->ch;
}

SC_EXTERN int sc_page_eval(char **json, sc_page *p, const char *expr) {
  if (json) *json = NULL;
  json_t *res = NULL;
  int rc = sc__page_call(p, "Runtime.evaluate",
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
    *json = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : sc__strdup("null");
    if (!*json) rc = sc__err(SC_ENOMEM, "evaluate: out of memory");
  }
  json_decref(res);
  return rc;
}

/* Geometry of the guest canvas as JSON {x,y,w,h,cw,ch,n} or null. */
static const char k_find_canvas[] =
    "(function(sel){var cs=sel?[document.querySelector(sel)]:"
    "Array.prototype.slice.call(document.querySelectorAll('canvas'));"
    "var best=null,ba=-1;cs.forEach(function(c){if(!c)return;"
    "var r=c.getBoundingClientRect();var a=r.width*r.height;"
    "if(a>ba){ba=a;best={x:r.left,y:r.top,w:r.width,h:r.height,cw:c.width,ch:c.height};}});"
    "if(best){best.vw=window.innerWidth;best.vh=window.innerHeight;"
    "best.ready=document.readyState;}return best;})(%s)";

/* Check the canvas found against what the caller expects. 1 = good,
 * 0 = not yet (keep waiting), negative = error with message. */
static int check_canvas(sc_page *p, json_t *g, char *why, size_t whylen) {
  if (!json_is_object(g)) {
    snprintf(why, whylen, "no canvas in the page");
    return 0;
  }
  double x = json_number_value(json_object_get(g, "x"));
  double y = json_number_value(json_object_get(g, "y"));
  double w = json_number_value(json_object_get(g, "w"));
  double h = json_number_value(json_object_get(g, "h"));
  int cw = (int)json_integer_value(json_object_get(g, "cw"));
  int ch = (int)json_integer_value(json_object_get(g, "ch"));
  double vw = json_number_value(json_object_get(g, "vw"));
  double vh = json_number_value(json_object_get(g, "vh"));
  const char *ready = json_string_value(json_object_get(g, "ready"));
  int gw = p->opts.guest_w, gh = p->opts.guest_h;
  if (gw <= 0) gw = cw;
  if (gh <= 0) gh = ch;
  snprintf(why, whylen, "canvas %gx%g (backing %dx%d) at (%g,%g) in viewport %gx%g, want %dx%d",
           w, h, cw, ch, x, y, vw, vh, gw, gh);
  if (!ready || strcmp(ready, "complete") != 0) return 0;
  if (fabs(w - gw) > 1 || fabs(h - gh) > 1 || abs(cw - gw) > 1 || abs(ch - gh) > 1 || cw <= 0)
    return 0;
  if (x < 0 || y < 0 || x + w > vw + 0.01 || y + h > vh + 0.01) return 0;
  p->cx = x;
  p->cy = y;
  p->cw = cw;
  p->ch = ch;
  return 1;
}

static int wait_canvas(sc_page *p) {
  char *expr = NULL;
  if (p->opts.canvas_selector) {
    json_t *s = json_string(p->opts.canvas_selector);
    char *lit = s ? json_dumps(s, JSON_ENCODE_ANY) : NULL;
    json_decref(s);
    if (lit) expr = sc__asprintf(k_find_canvas, lit);
    sc__free(lit);
  } else {
    expr = sc__asprintf(k_find_canvas, "null");
  }
  if (!expr) return sc__err(SC_ENOMEM, "page: out of memory");
  double deadline = sc__now_ms() + p->opts.load_timeout_ms;
  char why[256] = "no answer";
  int rc;
  for (;;) {
    char *js = NULL;
    rc = sc_page_eval(&js, p, expr);
    if (rc < 0) break;
    json_t *g = json_loads(js, JSON_DECODE_ANY, NULL);
    sc__free(js);
    rc = check_canvas(p, g, why, sizeof why);
    json_decref(g);
    if (rc == 1) {
      rc = 0;
      break;
    }
    if (sc__now_ms() >= deadline) {
      rc = sc__err(SC_EGEOMETRY, "page: %s (after %.0f ms)", why, p->opts.load_timeout_ms);
      break;
    }
    /* Keep serving the connection while the app (e.g. noVNC) connects. */
    rc = sc__client_service(p->cl, 50);
    if (rc < 0) break;
  }
  sc__free(expr);
  return rc;
}

static int open_target(sc_page *p, const char *url) {
  json_t *res = NULL;
  int rc = sc__client_call(p->cl, NULL, "Target.createBrowserContext",
                           json_pack("{s:b}", "disposeOnDetach", 1), p->timeout_ms, &res);
  if (rc < 0) return rc;
  p->context_id = sc__strdup(json_string_value(json_object_get(res, "browserContextId")));
  json_decref(res);
  if (!p->context_id) return sc__err(SC_EPROTO, "Target.createBrowserContext: no id");

  rc = sc__client_call(p->cl, NULL, "Target.createTarget",
                       json_pack("{s:s, s:s, s:i, s:i}", "url", "about:blank",
                                 "browserContextId", p->context_id, "width",
                                 p->opts.viewport_w, "height", p->opts.viewport_h),
                       p->timeout_ms, &res);
  if (rc < 0) return rc;
  p->target_id = sc__strdup(json_string_value(json_object_get(res, "targetId")));
  json_decref(res);
  if (!p->target_id) return sc__err(SC_EPROTO, "Target.createTarget: no targetId");

  rc = sc__client_call(p->cl, NULL, "Target.attachToTarget",
                       json_pack("{s:s, s:b}", "targetId", p->target_id, "flatten", 1),
                       p->timeout_ms, &res);
  if (rc < 0) return rc;
  p->session_id = sc__strdup(json_string_value(json_object_get(res, "sessionId")));
  json_decref(res);
  if (!p->session_id) return sc__err(SC_EPROTO, "Target.attachToTarget: no sessionId");

  rc = sc__page_call(p, "Emulation.setDeviceMetricsOverride",
                     json_pack("{s:i, s:i, s:f, s:b}", "width", p->opts.viewport_w, "height",
                               p->opts.viewport_h, "deviceScaleFactor", 1.0, "mobile", 0),
                     NULL);
  if (rc < 0) return rc;
  rc = sc__page_call(p, "Page.enable", NULL, NULL);
  if (rc < 0) return rc;
  rc = sc__page_call(p, "Page.navigate", json_pack("{s:s}", "url", url), &res);
  if (rc < 0) return rc;
  const char *err = json_string_value(json_object_get(res, "errorText"));
  if (err) rc = sc__err(SC_EIO, "page: navigate to %s: %s", url, err);
  json_decref(res);
  return rc;
}

SC_EXTERN int sc_page_open(sc_page **out, sc_browser *b, const char *url,
                           const sc_page_options *opts) {
  *out = NULL;
  if (!b || !url) return sc__err(SC_EINVAL, "sc_page_open: browser and url are required");
  sc_page_options def = SC_PAGE_OPTIONS_INIT;
  if (!opts) opts = &def;
  if (opts->version != SC_PAGE_OPTIONS_VERSION)
    return sc__err(SC_EINVAL, "sc_page_open: options version %u, want %u", opts->version,
                   SC_PAGE_OPTIONS_VERSION);
  if (opts->viewport_w <= 0 || opts->viewport_h <= 0)
    return sc__err(SC_EINVAL, "sc_page_open: viewport %dx%d", opts->viewport_w,
                   opts->viewport_h);
  sc_page *p = sc__calloc(1, sizeof *p);
  if (!p) return sc__err(SC_ENOMEM, "page: out of memory");
  p->browser = b;
  p->cl = sc__browser_client(b);
  p->opts = *opts;
  p->opts.canvas_selector = NULL;
  p->timeout_ms = sc__browser_timeout(b);
  if (p->opts.wheel_delta <= 0) p->opts.wheel_delta = 100;
  if (p->opts.notch_spacing_ms < 0) p->opts.notch_spacing_ms = 0;
  if (p->opts.load_timeout_ms <= 0) p->opts.load_timeout_ms = 30000;
  p->opts.canvas_selector = opts->canvas_selector;
  int rc = open_target(p, url);
  if (rc == 0) rc = wait_canvas(p);
  p->opts.canvas_selector = NULL; /* borrowed: not kept past open */
  if (rc < 0) {
    sc__errsave e;
    sc__err_save(&e);
    sc_page_free(p);
    return sc__err_restore(&e, rc);
  }
  *out = p;
  return 0;
}

SC_EXTERN void sc_page_free(sc_page *p) {
  if (!p) return;
  if (p->target_id && !sc__cdp_is_closed(sc__client_cdp(p->cl)))
    sc__client_call(p->cl, NULL, "Target.closeTarget",
                    json_pack("{s:s}", "targetId", p->target_id), 5000, NULL);
  if (p->context_id && !sc__cdp_is_closed(sc__client_cdp(p->cl)))
    sc__client_call(p->cl, NULL, "Target.disposeBrowserContext",
                    json_pack("{s:s}", "browserContextId", p->context_id), 5000, NULL);
  sc__free(p->context_id);
  sc__free(p->target_id);
  sc__free(p->session_id);
  sc__free(p);
}
