/* The paint log's C side: one Runtime.evaluate that awaits the page's
 * answer (paintlog_js.c says what it waits for), and the page clock
 * mapped onto the run's. No polling round trips: the page answers when
 * what was asked for happened, or at the timeout.
 *
 * Clocks: each answer carries the page's performance.now() when the call
 * began and when it answered: the first lies after our send, the second
 * before our receipt, so the page's offset lies between the two, however
 * long the page waited. It is taken from the answer with the narrowest
 * such bracket in this document (loopback: well under a millisecond), so
 * page times map onto sc__now_ms() within half of it. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "core/debug.h"
#include "tab.h"
#include "paintlog.h"

/* The command's own deadline past the page's timeout: a page that does
 * not answer by then is hung. */
#define SC__LOG_GRACE_MS 2000.0

typedef struct log_call {
  sc_page *p;
  sc__log_cb cb;
  void *ud;
  double sent;
} log_call;

/* The page names what it cannot see; the result says it in words
 * (static text). */
static const char *blind_text(const char *s) {
  static const struct {
    const char *code, *text;
  } k[] = {
      {"context:webgl", "a WebGL canvas on or over the guest"},
      {"context:webgl2", "a WebGL canvas on or over the guest"},
      {"context:experimental-webgl", "a WebGL canvas on or over the guest"},
      {"context:bitmaprenderer", "a bitmaprenderer canvas on or over the guest"},
      {"context:webgpu", "a WebGPU canvas on or over the guest"},
      {"offscreen", "a canvas drawn by a worker (transferControlToOffscreen) on or over the guest"},
      {"iframe", "a frame over the guest (its document paints where the log cannot see)"},
      {"frame", "a frame over the guest (its document paints where the log cannot see)"},
      {"object", "an embedded object over the guest"},
      {"embed", "an embedded object over the guest"},
      {"video", "a video element over the guest"},
      {"shadow", "a shadow DOM tree over the guest (its changes are not observed)"},
      {"shadow-unknown", "markup declaring shadow roots the log cannot find (their changes are not observed)"},
      {"audio", "an audio element over the guest"},
      {"marquee", "a marquee element over the guest (it moves with no change the log sees)"},
      {"frame-realm", "a same-origin frame whose drawing calls the log cannot see (they reach the guest)"},
      {"popup", "a window the page opened (its scripts can draw on the guest unseen)"},
  };
  for (size_t i = 0; i < sizeof k / sizeof *k; i++)
    if (!strcmp(s, k[i].code)) return k[i].text;
  return "a canvas context the paint log cannot see on or over the guest";
}

static double num(json_t *o, const char *k, double dflt) {
  json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : dflt;
}

static double to_run(const sc_page *p, double page_ms) {
  return page_ms < 0 || p->log_rtt <= 0 ? -1 : page_ms - p->log_off;
}

/* The witness's frames until the page answered (v: an answer or a
 * probe's), judged against the times of the log's entries it carries
 * (witness.h): ea from position ef on, el of them lost before. */
static int judge_frames(sc_page *p, json_t *v) {
  double ents[SC__LOG_RING];
  size_t n = 0;
  json_t *ea = json_object_get(v, "ea");
  for (size_t i = 0; json_is_array(ea) && i < json_array_size(ea) && n < SC__LOG_RING; i++) {
    json_t *e = json_array_get(ea, i);
    ents[n++] = to_run(p, json_is_number(e) ? json_number_value(e) : -1);
  }
  double ef = num(v, "ef", 0), until = to_run(p, num(v, "now", -1));
  return sc__witness_judge(p, ents, n, ef > 0 ? (uint64_t)ef : 0, num(v, "el", 0) > 0,
                           until >= 0 ? until : sc__now_ms());
}

/* A probe's answer: an unexplained frame is kept for the next answer of a
 * wait, which cut() makes come at once. A page freed meanwhile answers
 * with an error, and is not touched. */
static void probe_reply(int status, json_t *res, const char *errmsg, void *ud) {
  (void)errmsg;
  sc_page *p = ud;
  if (status) return;
  p->wit.probing = 0;
  json_t *v = json_object_get(json_object_get(res, "result"), "value");
  if (!json_is_object(v) || num(v, "doc", 0) != p->log_doc || p->log_rtt <= 0) return;
  int bad = judge_frames(p, v);
  if (bad <= 0) return;
  p->wit.pending_bad += bad;
  sc__cdp_send(sc__client_cdp(p->cl), p->session_id, "Runtime.evaluate",
               json_pack("{s:s}", "expression", "__stepcheck_log.cut()"), p->timeout_ms, NULL,
               NULL, NULL);
}

int sc__page_log_probe(sc_page *p) {
  char expr[64];
  snprintf(expr, sizeof expr, "__stepcheck_log.entries(%llu)",
           (unsigned long long)p->wit.seq_have);
  return sc__cdp_send(sc__client_cdp(p->cl), p->session_id, "Runtime.evaluate",
                      json_pack("{s:s, s:b}", "expression", expr, "returnByValue", 1),
                      p->timeout_ms, probe_reply, p, NULL);
}

static void log_reply(int status, json_t *res, const char *errmsg, void *ud) {
  log_call c = *(log_call *)ud;
  sc__free(ud);
  double got = sc__now_ms();
  char msg[300];
  if (!status && c.p->log_waiting > 0) c.p->log_waiting--; /* (a failure may outlive p) */
  if (status) {
    snprintf(msg, sizeof msg, "paint log (Runtime.evaluate): %s",
             errmsg ? errmsg : sc_strerror(status));
    c.cb(status, msg, NULL, c.ud);
    return;
  }
  sc__log_reply rep = {0};
  rep.first_ms = rep.last_ms = rep.now_ms = -1;
  json_t *v = json_object_get(json_object_get(res, "result"), "value");
  json_t *b = json_object_get(v, "blind");
  if (json_object_get(res, "exceptionDetails") || !json_is_object(v) ||
      !json_is_number(json_object_get(v, "seq"))) {
    rep.blind = "the page has no paint log (it threw, or a page script replaced it)";
    c.cb(0, NULL, &rep, c.ud);
    return;
  }
  if (json_is_string(b) && !(sc__debug() & SC_DEBUG_LOG_TRUST)) {
    rep.blind = blind_text(json_string_value(b));
    c.cb(0, NULL, &rep, c.ud);
    return;
  }
  sc_page *p = c.p;
  double doc = num(v, "doc", 0), now = num(v, "now", -1), seq = num(v, "seq", -1);
  if (doc != p->log_doc) { /* another document: its own clock origin */
    p->log_doc = doc;
    p->log_rtt = 0;
  }
  /* The page's clock runs `off` ahead of ours: its call began (t0) after
   * we sent it and it answered (now) before we got the answer, so off lies
   * in [now - got, t0 - sent], however long the page waited; the narrowest
   * such bracket in this document is the best. */
  double t0 = num(v, "t0", -1);
  double lo = now - got, hi = t0 >= 0 && t0 <= now ? t0 - c.sent : now - c.sent;
  double rtt = hi - lo;
  if (now >= 0 && (p->log_rtt <= 0 || rtt < p->log_rtt)) {
    p->log_rtt = rtt > 0 ? rtt : 1e-3;
    p->log_off = (lo + hi) / 2;
  }
  rep.have = 1;
  rep.doc = doc;
  rep.seq = seq > 0 ? (uint64_t)seq : 0;
  rep.n = (int)num(v, "n", 1);
  rep.first_ms = to_run(p, num(v, "first", -1));
  rep.last_ms = to_run(p, num(v, "last", -1));
  rep.timed_out = json_is_true(json_object_get(v, "timedOut"));
  /* the heartbeat ticks every 100 ms; the answer should arrive at once */
  double gap = num(v, "gap", 0) - 100;
  double late = now >= 0 && p->log_rtt > 0 ? got - (now - p->log_off) : 0;
  rep.stall_ms = gap > late ? gap : late;
  rep.lost = json_is_true(json_object_get(v, "lost"));
  rep.now_ms = to_run(p, now);
  /* the paint starts since the last answer (the page's ring holds no more) */
  double starts[SC__LOG_RING];
  json_t *st = json_object_get(v, "st");
  for (size_t i = 0; json_is_array(st) && i < json_array_size(st) && rep.nstarts < SC__LOG_RING;
       i++) {
    double t = to_run(p, json_is_number(json_array_get(st, i))
                             ? json_number_value(json_array_get(st, i)) : -1);
    if (t >= 0) starts[rep.nstarts++] = t;
  }
  rep.starts = starts;
  rep.starts_lost = num(v, "sl", 0) > 0;
  if (p->wit.state < 0) { /* no witness: what the log does not see would pass */
    rep.have = 0;
    rep.blind = "no compositor witness on this page (Page.startScreencast failed)";
    c.cb(0, NULL, &rep, c.ud);
    return;
  }
  rep.unexplained = judge_frames(p, v) + sc__witness_take(p);
  c.cb(0, NULL, &rep, c.ud);
}

int sc__page_log_wait_async(sc_page *p, const sc__log_ask *a, sc__log_cb cb, void *ud) {
  int rc = sc__page_check(p, "paint log");
  if (rc < 0) return rc;
  if ((rc = sc__page_check_rect(p, a->r, "paint log")) < 0) return rc;
  double timeout = a->timeout_ms > 0 ? a->timeout_ms : 0;
  /* the must rectangles, in page coordinates: [x,y,w,h,...] */
  char must[SC__LOG_MUST_MAX * 4 * 26 + 8] = "null";
  const sc__log_must *m = a->must;
  if (m && m->n > 0) {
    size_t used = 0;
    int n = m->n < SC__LOG_MUST_MAX ? m->n : SC__LOG_MUST_MAX;
    for (int i = 0; i < n; i++)
      used += (size_t)snprintf(must + used, sizeof must - used, "%c%.17g,%.17g,%d,%d",
                               i ? ',' : '[', p->cx + m->r[i].x, p->cy + m->r[i].y, m->r[i].w,
                               m->r[i].h);
    snprintf(must + used, sizeof must - used, "]");
  }
  char *expr = sc__asprintf(
      "__stepcheck_log.wait([%.17g,%.17g,%d,%d],[%.17g,%.17g,%d,%d],%lld,%.17g,%.17g,%.17g,%s,"
      "%.17g,%s,%s,%llu,%.17g)",
      p->cx, p->cy, p->cw, p->ch, p->cx + a->r.x, p->cy + a->r.y, a->r.w, a->r.h,
      a->after == SC__LOG_FROM_NOW ? -1LL : (long long)a->after, a->doc, a->quiet_ms, a->window_ms, a->need ? "true" : "false",
      timeout, sc__debug() & SC_DEBUG_LOG_TRUST ? "true" : "false", must,
      (unsigned long long)(m ? m->after : 0), m ? m->quiet_ms : 0.0);
  log_call *c = sc__malloc(sizeof *c);
  json_t *params = expr ? json_pack("{s:s, s:b, s:b}", "expression", expr, "returnByValue", 1,
                                    "awaitPromise", 1)
                        : NULL;
  sc__free(expr);
  if (!params || !c) {
    json_decref(params);
    sc__free(c);
    return sc__err(SC_ENOMEM, "paint log: out of memory");
  }
  *c = (log_call){p, cb, ud, sc__now_ms()};
  rc = sc__cdp_send(sc__client_cdp(p->cl), p->session_id, "Runtime.evaluate", params,
                    timeout + SC__LOG_GRACE_MS, log_reply, c, NULL);
  if (rc == 0) p->log_waiting++;
  if (rc) {
    sc__free(c);
    return sc__err(rc, "paint log (Runtime.evaluate): %s", sc_strerror(rc));
  }
  return 0;
}
