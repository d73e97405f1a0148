/* Proof of rest by the page's paint log (docs/design.md, "Paint log"):
 * the settled capture of sc__runner_settle when the log can see. The
 * screen is at rest when no paint touched the clip for the quiet time
 * (the log waits in the page: no capture, no polling); one capture then,
 * settled when no paint touched the clip between the log's answer before
 * it and the one after it. A seed proven settled at a log position is
 * the at-rest capture without a screenshot when nothing touched the clip
 * since. Where the log is blind the user switches to screenshot pairs
 * (capture.c), and says why. */
#include <string.h>

#include "core/core.h"
#include "runner.h"

int sc__runner_logging(const sc__runner *r) {
  return r->io.log_wait && !r->log_off && !r->witness_hit && !(r->s && r->s->rest_pairs);
}

void sc__runner_log_off(sc__runner *r, const char *why) {
  if (r->log_off) return;
  r->log_off = 1;
  r->log_why = why;
  r->last_seq_ok = 0;
}

int sc__runner_log(sc__runner *r, sc_rect clip, uint64_t after, double quiet_ms,
                   double window_ms, int need, double until, sc__io_logged cb) {
  return sc__runner_log_must(r, clip, after, quiet_ms, window_ms, need, until, NULL, cb);
}

int sc__runner_log_must(sc__runner *r, sc_rect clip, uint64_t after, double quiet_ms,
                        double window_ms, int need, double until, const sc__log_must *must,
                        sc__io_logged cb) {
  double now = sc__now_ms();
  sc__log_ask a = {clip, after, r->log_doc, quiet_ms, window_ms, need,
                   until > now ? until - now : 0, must && must->n > 0 ? must : NULL};
  r->io_asked_at = 0; /* a wait in the page is no stall of the browser's */
  int rc = r->io.log_wait(r->io.ctx, &a, cb, r);
  if (rc == 0) r->pending = 1;
  return rc;
}

int sc__runner_log_have(sc__runner *r, const sc__log_reply *rep) {
  if (!rep->have) {
    sc__runner_log_off(r, rep->blind);
    return 0;
  }
  if (rep->unexplained > 0) {
    /* the compositor drew what the log did not see: this step (or wait)
     * is proven by pairs, held for the quiet time (sc__runner_blind_quiet) */
    r->witness_hit = 1;
    r->last_seq_ok = 0;
    return 0;
  }
  if (rep->doc != r->log_doc) r->last_seq_ok = 0; /* positions of another document */
  /* a page or browser that stood still: the step's stall rule (step.c) */
  if (rep->stall_ms > r->log_late) r->log_late = rep->stall_ms;
  r->log_doc = rep->doc;
  return 1;
}

double sc__runner_quiet_ms(const sc__runner *r) {
  return r->s && r->s->rest_quiet_ms > 0 ? r->s->rest_quiet_ms : SC__LOG_QUIET_MS;
}

double sc__runner_capture_ms(const sc__runner *r) {
  double q = sc__runner_quiet_ms(r), d = r->s ? r->s->rest_capture_ms : 0;
  return d > 0 && d < q ? d : q;
}

double sc__runner_blind_quiet(const sc__runner *r) {
  return (r->log_off && r->log_why) || r->witness_hit ? sc__runner_quiet_ms(r) : 0;
}

/* ---- the settled capture by the log ---- */

static void log_wait_rest(sc__runner *r);

static void finish(sc__runner *r, int rc) { r->settle.done(r, rc); }

/* The log stopped answering for this page: the pairs rule takes over the
 * same settle (capture.c). */
static void to_pairs(sc__runner *r) {
  double q = sc__runner_blind_quiet(r);
  if (r->settle.quiet_ms < q) r->settle.quiet_ms = q;
  sc__runner_settle_pairs(r);
}

/* An answer of the log: 1 when the settle goes on with it; 0 when it
 * ended (an error) or went on by pairs (the log is blind). */
static int answered(sc__runner *r, int status, const char *errmsg, const sc__log_reply *rep) {
  int rc = sc__runner_reply(r, status, errmsg);
  if (rc < 0) {
    finish(r, rc);
    return 0;
  }
  if (!sc__runner_log_have(r, rep)) {
    to_pairs(r);
    return 0;
  }
  return 1;
}

static void log_post(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__runner *r = ud;
  sc__settle *st = &r->settle;
  if (!answered(r, status, errmsg, rep)) return;
  if (rep->n == 0) { /* nothing touched the clip across the capture */
    st->seq = rep->seq;
    st->seq_ok = 1;
    finish(r, 0);
    return;
  }
  if (sc__now_ms() >= st->deadline) {
    finish(r, SC__NOT_AT_REST);
    return;
  }
  log_wait_rest(r); /* it painted during the capture: at rest after that */
}

static void log_captured(int status, const char *errmsg, const char *raw, size_t len,
                         void *ud) {
  sc__runner *r = ud;
  sc__settle *st = &r->settle;
  int same = 0;
  int rc = sc__runner_settle_take(r, status, errmsg, raw, len, &same);
  if (rc == 0) rc = sc__runner_log(r, st->clip, st->log_after, 0, 0, 0, st->deadline, log_post);
  if (rc < 0) finish(r, rc);
}

static void log_rested(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__runner *r = ud;
  sc__settle *st = &r->settle;
  int rc;
  if (!answered(r, status, errmsg, rep)) return;
  if (rep->timed_out) { /* it kept painting until the deadline */
    finish(r, SC__NOT_AT_REST);
    return;
  }
  if (st->seq_ok && rep->n == 0 && !rep->lost && sc__frame_has(&st->f)) {
    sc__runner_cover_used(r, 1);
    finish(r, 0); /* the seed, proven at st->seq, still shows the clip */
    return;
  }
  sc__runner_cover_used(r, 0);
  st->seq_ok = 0;
  st->log_after = rep->seq;
  if ((rc = sc__runner_capture(r, st->clip, st->deadline, log_captured)) < 0) finish(r, rc);
}

static void log_wait_rest(sc__runner *r) {
  sc__settle *st = &r->settle;
  double q = st->quiet_ms > 0 ? st->quiet_ms : sc__runner_quiet_ms(r);
  int rc = sc__runner_log(r, st->clip, st->seq_ok ? st->seq : st->log_after, q, q, 0,
                          st->deadline, log_rested);
  if (rc < 0) finish(r, rc);
}

void sc__runner_settle_log(sc__runner *r) { log_wait_rest(r); }
