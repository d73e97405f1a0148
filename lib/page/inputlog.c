/* The page's record of the inputs it was given (paintlog_js.c, `inputs`):
 * one Runtime.evaluate, answered at once, its times mapped onto the run's
 * clock as the paint log's are (paintlog.c), positions into guest px. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tab.h"
#include "inputlog.h"

typedef struct inputs_call {
  sc_page *p;
  sc__inputs_cb cb;
  void *ud;
  double sent;
} inputs_call;

static double num(json_t *a, size_t i) {
  json_t *v = json_array_get(a, i);
  return json_is_number(v) ? json_number_value(v) : -1;
}

static char kind_of(const char *k) {
  return !k                      ? 0
         : !strcmp(k, "mousedown") ? 'd'
         : !strcmp(k, "mouseup")   ? 'u'
         : !strcmp(k, "wheel")     ? 'w'
         : !strcmp(k, "keydown")   ? 'k'
                                   : 0;
}

/* The page's HTTP sends (sendlog_js.c) onto the run clock. */
static void http_sends(sc__input_evidence *ev, json_t *h, double off) {
  json_t *list = json_object_get(h, "ev");
  json_t *ok = json_object_get(h, "ok");
  if (!json_is_array(list) || !json_is_number(ok) || json_number_value(ok) != 1)
    return; /* no whole record */
  ev->http_have = 1;
  size_t n = json_array_size(list);
  for (size_t i = n > SC__HTTP_SENDS_RING ? n - SC__HTTP_SENDS_RING : 0; i < n; i++) {
    json_t *e = json_array_get(list, i);
    const char *k = json_string_value(json_array_get(e, 1));
    double t = num(e, 0);
    if (!k || t < 0) continue;
    sc__http_send *o = &ev->http[ev->nhttp++];
    o->at_ms = t - off;
    snprintf(o->kind, sizeof o->kind, "%s", k);
  }
}

static void inputs_reply(int status, json_t *res, const char *errmsg, void *ud) {
  inputs_call c = *(inputs_call *)ud;
  sc__free(ud);
  double got = sc__now_ms();
  if (status) {
    c.cb(status, errmsg ? errmsg : sc_strerror(status), NULL, c.ud);
    return;
  }
  sc__input_evidence *ev = sc__calloc(1, sizeof *ev);
  if (!ev) {
    c.cb(SC_ENOMEM, "input record: out of memory", NULL, c.ud);
    return;
  }
  json_t *both = json_object_get(json_object_get(res, "result"), "value");
  json_t *v = json_object_get(both, "l"), *h = json_object_get(both, "h");
  json_t *list = json_object_get(v, "ev"), *now = json_object_get(v, "now");
  if (json_object_get(res, "exceptionDetails") || !json_is_array(list) || !json_is_number(now)) {
    ev->blind = "the page has no paint log (it threw, or a page script replaced it)";
  } else if (json_is_string(json_object_get(v, "blind"))) {
    ev->blind = "the paint log is blind on this page";
  } else {
    const sc_page *p = c.p;
    double pnow = json_number_value(now), doc = json_number_value(json_object_get(v, "doc"));
    /* the page clock as the paint log measured it, or by this answer */
    double off = pnow - (c.sent + got) / 2, err = (got - c.sent) / 2;
    if (p->log_rtt > 0 && doc == p->log_doc) {
      off = p->log_off;
      err = p->log_rtt / 2;
    }
    ev->have = 1;
    ev->now_ms = pnow - off;
    ev->clock_err = err;
    ev->open_sockets = (int)json_number_value(json_object_get(v, "open"));
    ev->sends = (long)json_number_value(json_object_get(v, "sends"));
    size_t n = json_array_size(list);
    for (size_t i = n > SC__INPUT_RING ? n - SC__INPUT_RING : 0; i < n; i++) {
      json_t *e = json_array_get(list, i);
      char k = kind_of(json_string_value(json_array_get(e, 0)));
      if (!k) continue;
      sc__input_event *o = &ev->ev[ev->n++];
      double x = num(e, 2), y = num(e, 3), s = num(e, 5);
      o->kind = k;
      o->at_ms = num(e, 1) - off;
      o->x = k == 'k' ? -1 : x - p->cx;
      o->y = k == 'k' ? -1 : y - p->cy;
      o->dir = (int)num(e, 4);
      o->sent_ms = s < 0 ? -1 : s - off;
      o->sent_before = num(e, 6) > 0;
      const char *over = json_string_value(json_array_get(e, 7));
      if (over) snprintf(o->over, sizeof o->over, "%s", over);
    }
    http_sends(ev, h, off);
  }
  c.cb(0, NULL, ev, c.ud);
  sc__free(ev);
}

int sc__page_inputs_async(sc_page *p, double timeout_ms, sc__inputs_cb cb, void *ud) {
  int rc = sc__page_check(p, "input record");
  if (rc < 0) return rc;
  /* the input record, and the HTTP sends beside it (null when the page has
   * no record of them) */
  char *expr = sc__asprintf("({l:__stepcheck_log.inputs([%.17g,%.17g,%d,%d]),h:(function(){"
                            "try{return __stepcheck_sends.list();}catch(e){return null;}})()})",
                            p->cx, p->cy, p->cw, p->ch);
  inputs_call *c = sc__malloc(sizeof *c);
  json_t *params = expr ? json_pack("{s:s, s:b}", "expression", expr, "returnByValue", 1) : NULL;
  sc__free(expr);
  if (!params || !c) {
    json_decref(params);
    sc__free(c);
    return sc__err(SC_ENOMEM, "input record: out of memory");
  }
  *c = (inputs_call){p, cb, ud, sc__now_ms()};
  rc = sc__cdp_send(sc__client_cdp(p->cl), p->session_id, "Runtime.evaluate", params, timeout_ms,
                    inputs_reply, c, NULL);
  if (rc) {
    sc__free(c);
    return sc__err(rc, "input record (Runtime.evaluate): %s", sc_strerror(rc));
  }
  return 0;
}
