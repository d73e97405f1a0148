/* Opening a page without blocking: own browser context, target, flat
 * session, viewport, navigation, then a poll for the guest canvas (size
 * checked: a silently scaled canvas puts every click somewhere plausible
 * and wrong). Each command is sent from the previous one's reply and the
 * poll runs on a loop timer, so many users open pages on one loop while
 * the others keep running. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cdp/loop.h"
#include "core/core.h"
#include "tab.h"
#include "core/opts.h"
#include "core/json.h"
#include "core/debug.h"
#include "inputlog.h"
#include "paintlog.h"

#define SC__CANVAS_POLL_MS 50.0
/* A loaded page whose canvas keeps one wrong size (or has none) this long
 * fails at once with what it has: clients such as noVNC resize their
 * canvas once connected, so a wrong size is not final at first sight. */
#define SC__CANVAS_SETTLED_MS 5000.0

/* Every canvas (or the one the selector names) with its box in the
 * viewport and its backing size, and the page around them: viewport,
 * scroll, load state, HTTP status. choose.c decides which is the guest. */
static const char k_find_canvas[] =
    "(function(sel){var cs=sel?[document.querySelector(sel)]:"
    "Array.prototype.slice.call(document.querySelectorAll('canvas'));"
    "var out=[];cs.forEach(function(c){if(!c)return;var r=c.getBoundingClientRect();"
    "if(r.width>0&&r.height>0)out.push({x:r.left,y:r.top,w:r.width,h:r.height,"
    "cw:c.width,ch:c.height});});"
    "var n=performance.getEntriesByType('navigation')[0];"
    "return {cs:out,vw:window.innerWidth,vh:window.innerHeight,sx:window.scrollX,"
    "sy:window.scrollY,ready:document.readyState,"
    "status:n&&n.responseStatus?n.responseStatus:0};})(%s)";

/* Check the canvases found against what the caller expects: 1 = good,
 * 2 = scroll first, 0 = not yet (keep waiting), -1 = never (an HTTP error
 * page); *why says what was seen. */
static int check_canvas(sc_page *p, json_t *g, sc__guest_pick *pick, char *why, size_t whylen) {
  int rc = sc__guest_choose(g, p->opts.guest_w, p->opts.guest_h, p->by_selector, pick, why,
                            whylen);
  if (rc == 1) {
    p->cx = pick->x;
    p->cy = pick->y;
    p->sx = json_number_value(json_object_get(g, "sx"));
    p->sy = json_number_value(json_object_get(g, "sy"));
    p->cw = pick->cw;
    p->ch = pick->ch;
  }
  return rc;
}

enum { OPEN_CONTEXT, OPEN_TARGET, OPEN_ATTACH, OPEN_METRICS, OPEN_ENABLE, OPEN_INSPECTOR,
       OPEN_PAINTLOG, OPEN_NAVIGATE, OPEN_CANVAS, OPEN_SCROLL, OPEN_WITNESS };

static const char *const k_open_method[] = {
    "Target.createBrowserContext", "Target.createTarget", "Target.attachToTarget",
    "Emulation.setDeviceMetricsOverride", "Page.enable", "Inspector.enable",
    "Page.addScriptToEvaluateOnNewDocument", "Page.navigate",
    "Runtime.evaluate", "Runtime.evaluate", "Page.startScreencast"};

typedef struct sc__opener {
  sc_page *p;          /* NULL once the page was closed during the open */
  int state;
  int inflight;        /* a command of ours awaits its reply */
  char *url;
  char *expr;          /* the canvas finder */
  double deadline;     /* for the canvas */
  char why[256];       /* what the canvas looked like last */
  double why_since;    /* when the loaded page first looked like that, 0 = not loaded */
  sc__timer_id timer;
  sc_loop *loop;
  sc__done_cb cb;
  void *ud;
} sc__opener;

static void opener_free(sc__opener *op) {
  if (op->p) op->p->opener = NULL;
  if (op->timer) sc__loop_cancel(op->loop, op->timer);
  sc__free(op->url);
  sc__free(op->expr);
  sc__free(op);
}

void sc__page_open_abandon(sc_page *p) {
  sc__opener *op = p->opener;
  if (!op) return;
  p->opener = NULL;
  op->p = NULL;
  /* A reply still to come frees it; a waiting timer is ours to cancel. */
  if (!op->inflight) opener_free(op);
}

static void open_done(sc__opener *op, int status, const char *msg) {
  char text[512] = "";
  if (status) snprintf(text, sizeof text, "%s", msg ? msg : sc_strerror(status));
  sc__done_cb cb = op->cb;
  void *ud = op->ud;
  opener_free(op);
  if (cb) cb(status, status ? text : NULL, ud);
}

static void open_reply(int status, json_t *res, const char *errmsg, void *ud);

/* The page learns of its own crash, so a failure can say what happened:
 * from its session (Inspector.targetCrashed) or from the browser
 * (Target.targetCrashed naming its target), whichever comes first. */
static void on_event(const char *sid, const char *method, json_t *params, void *ud) {
  sc_page *p = ud;
  int ours = sid && p->session_id && !strcmp(sid, p->session_id);
  if (ours && !strcmp(method, "Page.screencastFrame")) {
    sc__witness_frame(p, params);
    return;
  }
  if (ours && !strcmp(method, "Inspector.targetCrashed"))
    p->crashed = 1;
  const char *tid = json_string_value(json_object_get(params, "targetId"));
  if (!sid && tid && p->target_id && !strcmp(tid, p->target_id) &&
      !strcmp(method, "Target.targetCrashed"))
    p->crashed = 1;
}

static int open_send(sc__opener *op, const char *session, json_t *params) {
  sc_page *p = op->p;
  int rc = sc__cdp_send(sc__client_cdp(p->cl), session, k_open_method[op->state], params,
                        p->timeout_ms, open_reply, op, NULL);
  op->inflight = rc == 0;
  return rc;
}

static void poll_canvas(void *ud) {
  sc__opener *op = ud;
  op->timer = 0;
  int rc = open_send(op, op->p->session_id,
                     json_pack("{s:s, s:b, s:b}", "expression", op->expr, "returnByValue", 1,
                               "awaitPromise", 1));
  if (rc) open_done(op, rc, "page: looking for the canvas: cannot send");
}

/* The compositor witness (witness.h), once the page is there; without it
 * (the debug flag of its sabotage tests) the page is opened as before. */
static void start_witness(sc__opener *op) {
  if (sc__debug() & SC_DEBUG_NO_WITNESS) {
    open_done(op, 0, NULL);
    return;
  }
  op->state = OPEN_WITNESS;
  int rc = open_send(op, op->p->session_id,
                     json_pack("{s:s, s:i, s:i, s:i, s:i}", "format", "jpeg", "quality", 10,
                               "maxWidth", SC__WITNESS_SIZE, "maxHeight", SC__WITNESS_SIZE,
                               "everyNthFrame", 1));
  if (rc) open_done(op, rc, "page: starting the compositor witness: cannot send");
}

/* The canvas reply: good, keep polling, or give up at the deadline. */
static void on_canvas(sc__opener *op, json_t *res) {
  json_t *g = json_object_get(json_object_get(res, "result"), "value");
  char why[sizeof op->why];
  sc__guest_pick pick;
  int ok = check_canvas(op->p, g, &pick, why, sizeof why);
  char msg[400];
  if (ok == 1) {
    sc__free(op->p->finder); /* kept for the guest check (guest.c) */
    op->p->finder = sc__strdup(op->expr);
    if (!op->p->finder) {
      open_done(op, SC_ENOMEM, "page: out of memory");
      return;
    }
    start_witness(op);
    return;
  }
  if (ok < 0) {
    snprintf(msg, sizeof msg, "page: %s: %s", op->url, why);
    open_done(op, SC_EIO, msg);
    return;
  }
  double now = sc__now_ms();
  const char *ready = json_string_value(json_object_get(g, "ready"));
  if (ok == 2) { /* the page is larger than the viewport: bring the guest in */
    if (op->why_since == 0 || strcmp(why, op->why) != 0) op->why_since = now;
    memcpy(op->why, why, sizeof why);
    if (now - op->why_since >= SC__CANVAS_SETTLED_MS || now >= op->deadline) {
      snprintf(msg, sizeof msg, "page: %s (the page did not scroll)", op->why);
      open_done(op, SC_EGEOMETRY, msg);
      return;
    }
    char *js = sc__asprintf("window.scrollTo(%.0f,%.0f)", pick.scroll_x, pick.scroll_y);
    int rc = SC_ENOMEM;
    if (js) {
      op->state = OPEN_SCROLL;
      rc = open_send(op, op->p->session_id, json_pack("{s:s}", "expression", js));
      sc__free(js);
    }
    if (rc) open_done(op, rc, "page: scrolling to the canvas: cannot send");
    return;
  }
  int loaded = ready && !strcmp(ready, "complete");
  if (!loaded) op->why_since = 0;
  else if (op->why_since == 0 || strcmp(why, op->why) != 0) op->why_since = now;
  memcpy(op->why, why, sizeof why);
  if (op->why_since > 0 && now - op->why_since >= SC__CANVAS_SETTLED_MS) {
    snprintf(msg, sizeof msg, "page: %s (unchanged for %.0f ms after the page loaded)", op->why,
             now - op->why_since);
    open_done(op, SC_EGEOMETRY, msg);
    return;
  }
  if (now >= op->deadline) {
    snprintf(msg, sizeof msg, "page: %s (after %.0f ms)", op->why, op->p->opts.load_timeout_ms);
    open_done(op, SC_EGEOMETRY, msg);
    return;
  }
  op->timer = sc__loop_timer(op->loop, sc__now_ms() + SC__CANVAS_POLL_MS, poll_canvas, op);
  if (!op->timer) open_done(op, SC_ENOMEM, "page: out of memory");
}

/* Take the id a reply must carry into *dst; 0 or an error message. */
static const char *take_id(char **dst, json_t *res, const char *key) {
  const char *id = json_string_value(json_object_get(res, key));
  if (!id) return "no id in the reply";
  if (!(*dst = sc__strdup(id))) return "out of memory";
  return NULL;
}

static void open_reply(int status, json_t *res, const char *errmsg, void *ud) {
  sc__opener *op = ud;
  op->inflight = 0;
  if (!op->p) { /* closed meanwhile: nothing to report */
    opener_free(op);
    return;
  }
  sc_page *p = op->p;
  char msg[512];
  const char *bad = NULL, *text;
  int rc = 0;
  if (status && op->state == OPEN_WITNESS) {
    /* the page works without it; the paint log then proves nothing
     * (paintlog.c: such a page is blind) */
    snprintf(msg, sizeof msg, "Page.startScreencast: %s", errmsg ? errmsg : sc_strerror(status));
    sc__witness_started(p, 0, msg);
    open_done(op, 0, NULL);
    return;
  }
  if (status) {
    snprintf(msg, sizeof msg, "%s: %s", k_open_method[op->state], errmsg ? errmsg : "");
    open_done(op, status, msg);
    return;
  }
  switch (op->state) {
  case OPEN_CONTEXT:
    if ((bad = take_id(&p->context_id, res, "browserContextId"))) break;
    op->state = OPEN_TARGET;
    rc = open_send(op, NULL,
                   json_pack("{s:s, s:s, s:i, s:i}", "url", "about:blank", "browserContextId",
                             p->context_id, "width", p->opts.viewport_w, "height",
                             p->opts.viewport_h));
    break;
  case OPEN_TARGET:
    if ((bad = take_id(&p->target_id, res, "targetId"))) break;
    op->state = OPEN_ATTACH;
    rc = open_send(op, NULL, json_pack("{s:s, s:b}", "targetId", p->target_id, "flatten", 1));
    break;
  case OPEN_ATTACH:
    if ((bad = take_id(&p->session_id, res, "sessionId"))) break;
    if ((p->lid = sc__client_listen(p->cl, on_event, p)) < 0) {
      p->lid = 0;
      bad = "out of memory";
      break;
    }
    op->state = OPEN_METRICS;
    rc = open_send(op, p->session_id,
                   json_pack("{s:i, s:i, s:f, s:b}", "width", p->opts.viewport_w, "height",
                             p->opts.viewport_h, "deviceScaleFactor", 1.0, "mobile", 0));
    break;
  case OPEN_METRICS:
    op->state = OPEN_ENABLE;
    rc = open_send(op, p->session_id, NULL);
    break;
  case OPEN_ENABLE:
    op->state = OPEN_INSPECTOR; /* for Inspector.targetCrashed */
    rc = open_send(op, p->session_id, NULL);
    break;
  case OPEN_INSPECTOR:
    /* the paint log, before any script of the page's (paintlog_js.c) */
    op->state = OPEN_PAINTLOG;
    {
      /* and the HTTP sends' record after it (sendlog_js.c), one source */
      char *src = sc__asprintf("%s\n%s", sc__paintlog_js, sc__sendlog_js);
      rc = src ? open_send(op, p->session_id, json_pack("{s:s}", "source", src))
               : sc__err(SC_ENOMEM, "page: out of memory");
      sc__free(src);
    }
    break;
  case OPEN_PAINTLOG:
    op->state = OPEN_NAVIGATE;
    rc = open_send(op, p->session_id, json_pack("{s:s}", "url", op->url));
    break;
  case OPEN_NAVIGATE:
    if ((text = json_string_value(json_object_get(res, "errorText")))) {
      snprintf(msg, sizeof msg, "page: navigate to %s: %s", op->url, text);
      open_done(op, SC_EIO, msg);
      return;
    }
    op->state = OPEN_CANVAS;
    op->deadline = sc__now_ms() + p->opts.load_timeout_ms;
    poll_canvas(op);
    return;
  case OPEN_SCROLL:
    op->state = OPEN_CANVAS;
    op->timer = sc__loop_timer(op->loop, sc__now_ms() + SC__CANVAS_POLL_MS, poll_canvas, op);
    if (!op->timer) open_done(op, SC_ENOMEM, "page: out of memory");
    return;
  case OPEN_WITNESS:
    sc__witness_started(p, 1, NULL);
    open_done(op, 0, NULL);
    return;
  case OPEN_CANVAS:
    if (json_object_get(res, "exceptionDetails")) {
      open_done(op, SC_EPROTO, "page: the canvas finder threw an exception");
      return;
    }
    on_canvas(op, res);
    return;
  }
  if (bad || rc) {
    snprintf(msg, sizeof msg, "%s: %s", k_open_method[op->state],
             bad ? bad : sc_strerror(rc));
    open_done(op, bad ? SC_EPROTO : rc, msg);
  }
}

static int check_open_args(sc_browser *b, const char *url, const sc_page_options *opts) {
  if (!b || !url) return sc__err(SC_EINVAL, "sc_page_open: browser and url are required");
  if (opts->viewport_w <= 0 || opts->viewport_h <= 0)
    return sc__err(SC_EINVAL, "sc_page_open: viewport %dx%d", opts->viewport_w,
                   opts->viewport_h);
  return 0;
}

static char *canvas_finder(const char *selector) {
  if (!selector) return sc__asprintf(k_find_canvas, "null");
  json_t *s = json_string(selector);
  char *lit = s ? sc__json_dump(s, JSON_ENCODE_ANY) : NULL;
  json_decref(s);
  char *expr = lit ? sc__asprintf(k_find_canvas, lit) : NULL;
  sc__free(lit);
  return expr;
}

int sc__page_open_async(sc_page **out, sc_browser *b, const char *url,
                        const sc_page_options *opts, sc__done_cb cb, void *ud) {
  *out = NULL;
  sc_page_options o;
  int rc = sc__page_options_read(&o, opts, "sc_page_open");
  if (rc) return rc;
  opts = &o;
  if ((rc = check_open_args(b, url, opts))) return rc;
  sc_page *p = sc__calloc(1, sizeof *p);
  sc__opener *op = sc__calloc(1, sizeof *op);
  if (!p || !op || !(op->url = sc__strdup(url)) ||
      !(op->expr = canvas_finder(opts->canvas_selector))) {
    if (op) opener_free(op);
    sc__free(p);
    return sc__err(SC_ENOMEM, "page: out of memory");
  }
  p->browser = b;
  p->cl = sc__browser_client(b);
  sc__page_track(p);
  p->opts = *opts;
  p->by_selector = opts->canvas_selector != NULL;
  p->opts.canvas_selector = NULL; /* borrowed: not kept past open */
  p->timeout_ms = sc__browser_timeout(b);
  if (p->opts.wheel_delta <= 0) p->opts.wheel_delta = 100;
  if (p->opts.notch_spacing_ms < 0) p->opts.notch_spacing_ms = 0;
  if (p->opts.load_timeout_ms <= 0) p->opts.load_timeout_ms = 30000;
  op->p = p;
  op->loop = sc__client_loop(p->cl);
  op->cb = cb;
  op->ud = ud;
  p->opener = op;
  rc = open_send(op, NULL, json_pack("{s:b}", "disposeOnDetach", 1));
  if (rc) {
    opener_free(op);
    sc__free(p);
    return sc__err(rc, "Target.createBrowserContext: %s", sc_strerror(rc));
  }
  *out = p;
  return 0;
}

SC_EXTERN int sc_page_open(sc_page **out, sc_browser *b, const char *url,
                           const sc_page_options *opts) {
  if (!out) return sc__err(SC_EINVAL, "sc_page_open: out is NULL");
  int brc = b ? sc__loop_busy(sc__client_loop(sc__browser_client(b)), "sc_page_open") : 0;
  if (brc) return brc;
  sc__waiter w = {0, 0, ""};
  sc_page *p = NULL;
  int rc = sc__page_open_async(&p, b, url, opts, sc__waited, &w);
  if (rc) return rc;
  if ((rc = sc__page_wait_for(p, &w, 0)) < 0) {
    sc__errsave e;
    sc__err_save(&e);
    sc_page_free(p);
    return sc__err_restore(&e, rc);
  }
  *out = p;
  return 0;
}
