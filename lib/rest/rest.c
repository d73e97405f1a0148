/* The rest object's strategy (rest.h): which rule proves rest now, the
 * quiet times, the log's questions and the filter every answer passes
 * (blind, witness, another document, a stall), the one pairs rule, and
 * the end of a job. */
#include <string.h>

#include "core/core.h"
#include "rest/rest.h"

void sc__rest_init(sc__rest *rs, const sc__io *io, sc__rest_owner own, sc__rest_config cfg) {
  memset(rs, 0, sizeof *rs);
  rs->io = io;
  rs->own = own;
  rs->cfg = cfg;
}

void sc__rest_clear(sc__rest *rs) {
  sc__frame_free(&rs->j.f);
  sc__frame_free(&rs->j.prev);
  sc__frame_free(&rs->answer);
  sc__frame_free(&rs->answer_prev);
  rs->j.kind = 0;
}

void sc__rest_step(sc__rest *rs) {
  rs->witness_hit = 0; /* each step tries the log again */
  rs->log_late = 0;
}

int sc__rest_logging(const sc__rest *rs) {
  return rs->io && rs->io->log_wait && !rs->log_off && !rs->witness_hit && !rs->cfg.pairs;
}

void sc__rest_off(sc__rest *rs, const char *why) {
  if (rs->log_off) return;
  rs->log_off = 1;
  rs->log_why = why;
}

const char *sc__rest_why(const sc__rest *rs) {
  if (sc__rest_logging(rs)) return NULL;
  if (rs->witness_hit) return SC__WITNESS_WHY;
  if (rs->log_why) return rs->log_why;
  if (rs->cfg.pairs) return "the scenario says \"rest\": \"pairs\"";
  if (!rs->io || !rs->io->log_wait) return "no paint log on this page";
  return NULL;
}

double sc__rest_quiet_ms(const sc__rest *rs) {
  return rs->cfg.quiet_ms > 0 ? rs->cfg.quiet_ms : SC__LOG_QUIET_MS;
}

double sc__rest_capture_ms(const sc__rest *rs) {
  double q = sc__rest_quiet_ms(rs), d = rs->cfg.capture_ms;
  return d > 0 && d < q ? d : q;
}

double sc__rest_blind_quiet(const sc__rest *rs) {
  return (rs->log_off && rs->log_why) || rs->witness_hit ? sc__rest_quiet_ms(rs) : 0;
}

int sc__rest_ask(sc__rest *rs, sc_rect clip, uint64_t after, double quiet_ms, double window_ms,
                 int need, double until, const sc__log_must *must, sc__io_logged cb) {
  double now = sc__now_ms();
  sc__log_ask a = {clip,     after, rs->log_doc, quiet_ms, window_ms, need,
                   until > now ? until - now : 0, must && must->n > 0 ? must : NULL};
  int rc = rs->io->log_wait(rs->io->ctx, &a, cb, rs);
  if (rc == 0) rs->own.asked(rs->own.ud, 0); /* a wait in the page is no stall of the browser's */
  return rc;
}

int sc__rest_have(sc__rest *rs, const sc__log_reply *rep) {
  if (!rep->have) {
    sc__rest_off(rs, rep->blind);
    return 0;
  }
  if (rep->unexplained > 0) {
    /* the compositor drew what the log did not see: this step (or wait)
     * is proven by pairs, held for the quiet time */
    rs->witness_hit = 1;
    return 0;
  }
  /* positions of another document than the one the last answer counted in */
  if (rs->log_doc != 0 && rep->doc != rs->log_doc) rs->j.mark.ok = 0;
  /* a page or browser that stood still: the owner's stall rule */
  if (rep->stall_ms > rs->log_late) rs->log_late = rep->stall_ms;
  rs->log_doc = rep->doc;
  return 1;
}

int sc__rest_capture(sc__rest *rs, sc_rect clip, double until, sc__io_captured cb) {
  double now = sc__now_ms(), left = until - now;
  int rc = rs->io->capture(rs->io->ctx, clip, rs->cfg.fast,
                           (left > 0 ? left : 0) + SC__CAPTURE_GRACE_MS, cb, rs);
  if (rc == 0) rs->own.asked(rs->own.ud, 1);
  return rc;
}

int sc__rest_pairs_hold(double since, double req, double quiet_ms) {
  return quiet_ms <= 0 || (since > 0 && req - since >= quiet_ms);
}

void sc__rest_end(sc__rest *rs, sc__rest_proof *p) {
  sc__rest_job *j = &rs->j;
  sc__rest_done done = j->done;
  void *ud = j->ud;
  sc__frame_free(&rs->answer);
  sc__frame_free(&rs->answer_prev);
  sc__frame_move(&rs->answer, &j->f);
  sc__frame_move(&rs->answer_prev, &j->prev);
  p->f = &rs->answer;
  p->prev = &rs->answer_prev;
  if (!p->by) p->by = sc__rest_logging(rs) ? "paint-log" : "pairs";
  j->kind = 0;
  done(ud, p);
}
