/* The verdict job (rest.h): after a gesture, frames of the step's regions
 * at rest, each judged by the caller, until one it accepts is proven
 * final, or the deadline.
 *
 * On the paint log the log waits in the page until the application painted
 * over the regions and then stopped for the capture delay
 * (rest_capture_ms); one capture then, settled when no paint touched the
 * regions between the log's answer before it and the one after it. A
 * settled capture the judge accepts is final once the log proves it: no
 * paint over the regions for the quiet time (rest_quiet_ms) after the last
 * one; a paint in that time makes it a frame the application then painted
 * over, and the job judges again on the screen it comes to rest on. A
 * settled capture the judge refuses is not final while the application
 * still paints: the job waits for the next paint over the regions and
 * judges again. A step that expects nothing to change is captured only
 * after the response window with no paint (or the quiet time after the
 * last). Every answer dates the paints (first and last, on the page's
 * clock). A verdict the log gave is sampled by a self-check (a second
 * capture that must show the same pixels when nothing painted).
 *
 * By pairs (the scenario's choice, a page the log is blind on, a step the
 * witness saw more in): captures back to back while the screen moves,
 * backing off while it is still but not yet accepted; final on a capture
 * that shows the one before it again, held for the quiet time where the
 * log turned out blind (sc__rest_pairs_hold, the rule settle.c uses).
 * Either way nothing is final on a capture asked for before not_before. */
#include <string.h>

#include "core/core.h"
#include "rest/rest.h"

static void logged(int status, const char *errmsg, const sc__log_reply *rep, void *ud);
static void posted(int status, const char *errmsg, const sc__log_reply *rep, void *ud);
static void confirmed(int status, const char *errmsg, const sc__log_reply *rep, void *ud);
static void capture_now(void *arg);

/* ---- the end ---- */

static void finish(sc__rest *rs, int rc) {
  sc__rest_job *j = &rs->j;
  double now = sc__now_ms();
  sc__rest_proof p = {.rc = rc,
                      .at = j->verdict_t > 0 ? j->verdict_t : now,
                      .proven = j->proven_at > 0 ? j->proven_at : now,
                      .mark = {j->log_settled ? j->pre : j->after,
                               j->log_mode && j->log_settled && sc__rest_logging(rs)},
                      .log_settled = j->log_settled,
                      .seed_used = -1,
                      .paints = j->paints,
                      .first_paint = j->first_paint,
                      .last_paint = j->last_paint,
                      .idle_ms = j->idle_ms};
  sc__rest_end(rs, &p);
}

/* Final: the frame the judge accepted, verified when its capture replied. */
static void final(sc__rest *rs, double at) {
  rs->j.verdict_t = at;
  finish(rs, 0);
}

static void out_of_time(sc__rest *rs) {
  rs->j.verdict_t = 0;
  finish(rs, SC__NOT_AT_REST);
}

static double end_of(const sc__rest_job *j) { return j->w.deadline; }

/* ---- by pairs ---- */

/* The next capture: right away while the screen moves; when it is at rest
 * but not yet accepted, after a back-off that grows with how long it has
 * been at rest (never past the deadline, which the capture then meets). */
static void pace(sc__rest *rs, int stable) {
  sc__rest_job *j = &rs->j;
  double now = sc__now_ms();
  if (!stable) j->since = now;
  double gap = stable ? (now - j->since) / SC__BACKOFF_DIV : 0;
  if (gap > SC__BACKOFF_MAX_MS) gap = SC__BACKOFF_MAX_MS;
  if (now + gap > end_of(j)) gap = end_of(j) - now;
  if (gap >= 1) {
    j->idle_ms += gap;
    if (rs->own.after(rs->own.ud, now + gap, capture_now, rs) < 0) finish(rs, SC_ENOMEM);
    return;
  }
  capture_now(rs);
}

static void pairs_judged(sc__rest *rs) {
  sc__rest_job *j = &rs->j;
  int rc;
  /* final: accepted, shown twice in a row (held for the quiet time where
   * the log is blind, counted from the reply that last showed a change),
   * and asked for no earlier than not_before */
  int settled = j->same && sc__rest_pairs_hold(j->since, j->cap_req_at, sc__rest_blind_quiet(rs));
  if (j->holds && settled && j->cap_req_at >= j->w.not_before) {
    j->proven_at = j->cap_at;
    final(rs, j->cap_at);
    return;
  }
  if (sc__now_ms() >= end_of(j)) {
    out_of_time(rs);
    return;
  }
  if ((rc = sc__frame_hold(&j->f)) < 0) { /* packed until the next capture */
    finish(rs, rc);
    return;
  }
  pace(rs, j->same);
}

/* The log went blind (or failed its self-check, or the witness saw more):
 * the job goes on by pairs from the capture it has. */
static void to_pairs(sc__rest *rs, int stable) {
  sc__rest_job *j = &rs->j;
  j->log_mode = 0;
  j->verdict_t = j->proven_at = 0;
  if (!sc__frame_has(&j->f)) {
    capture_now(rs);
    return;
  }
  pace(rs, stable);
}

/* ---- by the log ---- */

/* The capture delay of this step: the owner's, or longer where the
 * application's answer to it came in pieces further apart (learnt), never
 * past the quiet time. */
static double delay(const sc__rest *rs) {
  double d = sc__rest_capture_ms(rs), q = sc__rest_quiet_ms(rs);
  double l = rs->j.w.delay ? *rs->j.w.delay : 0;
  if (l > d) d = l;
  return d < q ? d : q;
}

/* A paint came `gap` ms after the last one before an early capture: the
 * capture came too soon, and this step's delay covers that gap from now
 * on, with a margin (10 ms and a quarter of the gap: the pieces' spacing
 * varies from cycle to cycle). An early capture that was final lets the
 * learnt delay fall back a 32nd of the way towards the owner's: slowly
 * enough that a step answering in pieces keeps waiting for its last piece
 * for many cycles (falling back a quarter of the way with a 10 ms margin,
 * it was under the gap again after one final capture, and every other
 * cycle took two captures), fast enough that one slow answer under load
 * does not hold the step back for the rest of the run. */
#define LEARN_MARGIN_MS 10.0
#define LEARN_DECAY 32
static void learn(sc__rest *rs, double gap) {
  double *l = rs->j.w.delay;
  if (!l) return;
  if (gap > 0) {
    double want = gap + gap / 4 + LEARN_MARGIN_MS;
    if (want > *l) *l = want;
  } else if (*l > 0) {
    double d = sc__rest_capture_ms(rs);
    *l = *l > d ? *l - (*l - d) / LEARN_DECAY : 0;
  }
}

/* Take the times and the count of the paints an answer reports (each
 * answer counts the entries after the previous one's position). */
static void note(sc__rest *rs, const sc__log_reply *rep) {
  sc__rest_job *j = &rs->j;
  j->after = rep->seq;
  if (rep->n <= 0) return;
  if (j->early_last > 0 && rep->first_ms >= 0 && !rep->lost) {
    learn(rs, rep->first_ms - j->early_last); /* the early capture came too soon */
    j->early_last = 0;
  }
  j->paints += rep->n;
  if (j->first_paint < 0 && rep->first_ms >= 0 && !rep->lost) j->first_paint = rep->first_ms;
  if (rep->last_ms >= 0) j->last_paint = j->last_paint_at = rep->last_ms;
}

/* Ask the log about the regions since j->after. A quiet time shorter than
 * the owner's makes the capture it leads to an early one: proven final
 * only by confirmed(); and it counts only once the answer reached every
 * region the step expects to change (until then the quiet time is the
 * owner's). */
static void ask(sc__rest *rs, double quiet, double window, int need, sc__io_logged cb) {
  sc__rest_job *j = &rs->j;
  j->early = quiet < sc__rest_quiet_ms(rs);
  int rc = sc__rest_ask(rs, j->w.clip, j->after, quiet, window, need, end_of(j),
                        j->early ? &j->w.must : NULL, cb);
  if (rc < 0) finish(rs, rc);
}

/* An answer of the log: 1 when the job goes on with it (its paints noted),
 * 0 when it ended or went on by pairs (from the capture it has, `stable`
 * saying whether that showed the one before it again). */
static int answered(sc__rest *rs, int status, const char *errmsg, const sc__log_reply *rep,
                    int stable) {
  int rc = rs->own.reply(rs->own.ud, status, errmsg);
  if (rc < 0) {
    finish(rs, rc);
    return 0;
  }
  if (!sc__rest_have(rs, rep)) {
    to_pairs(rs, stable);
    return 0;
  }
  note(rs, rep);
  return 1;
}

static void log_begin(sc__rest *rs) {
  sc__rest_job *j = &rs->j;
  double q = sc__rest_quiet_ms(rs);
  j->w.must.after = j->after;
  j->w.must.quiet_ms = q;
  if (j->w.input_at <= 0) /* no input: judge the screen at rest */
    ask(rs, q, 0, 0, logged);
  else if (!j->w.need_paint)
    ask(rs, q, j->w.window_ms, 0, logged);
  else
    ask(rs, delay(rs), 0, 1, logged);
}

/* At rest after the paints (or the window, or the timeout): capture. */
static void logged(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__rest *rs = ud;
  sc__rest_job *j = &rs->j;
  if (!answered(rs, status, errmsg, rep, 0)) return;
  double q = sc__rest_quiet_ms(rs), left = j->w.not_before - sc__now_ms();
  if (j->w.not_before > 0 && !rep->timed_out && left > 0) {
    /* Nothing is final before not_before (a step that expects nothing to
     * change watches its whole response window after the last input,
     * whatever it painted inside it: an identical repaint first, the real
     * answer later): at rest, and not before the window is over. */
    ask(rs, q, left > q ? left : q, 0, logged);
    return;
  }
  if (j->early && rep->n > 0 && rep->last_ms >= 0 && rep->last_ms < j->w.input_at) {
    /* every paint so far came before the last input was sent (a zoom's
     * earlier notches, a late hover paint): the answer to it is still to
     * come. Wait for a paint after it, for at most the response window
     * and at least the quiet time (0.3.0's rule, at the least). */
    left = j->w.input_at + j->w.window_ms - sc__now_ms();
    ask(rs, delay(rs), left > q ? left : q, 0, logged);
    return;
  }
  j->pre = rep->seq;
  j->cap_early = j->early;
  j->early_last = j->early ? j->last_paint_at : 0;
  capture_now(rs);
}

static int self_check_due(const sc__rest *rs) {
  long n = rs->log_verdicts, first = rs->cfg.self_first, every = rs->cfg.self_every;
  if (rs->cfg.trust) return 0; /* the log trusted: tests of the guards */
  return n < first || (every > 0 && n % every == 0);
}

/* The judge accepted a capture proven settled and final: the self-check
 * when one is due, else final. */
static void holds(sc__rest *rs, double at) {
  sc__rest_job *j = &rs->j;
  j->cap_early = 0; /* a self-check's capture is no early one */
  j->proven_at = sc__now_ms();
  int due = self_check_due(rs);
  rs->log_verdicts++;
  if (due) {
    j->self_check = 1;
    j->verdict_t = at;
    j->pre = j->after;
    capture_now(rs);
    return;
  }
  final(rs, at);
}

/* The judge accepted an early capture (taken the capture delay after the
 * last paint): it is final once nothing painted over the regions for the
 * quiet time after that paint (confirmed). */
static void confirm(sc__rest *rs) {
  sc__rest_job *j = &rs->j;
  j->verdict_t = j->cap_at;
  double q = sc__rest_quiet_ms(rs);
  double since = j->last_paint_at > 0 ? sc__now_ms() - j->last_paint_at : q;
  ask(rs, q, since < q ? q - since : 0, 0, confirmed);
}

static void log_judged(sc__rest *rs) {
  sc__rest_job *j = &rs->j;
  int rc;
  j->log_settled = 0;
  if ((rc = sc__frame_hold(&j->f)) < 0) { /* packed until it is needed */
    finish(rs, rc);
    return;
  }
  if (j->cap_early && !j->self_check) {
    /* An early capture has no counter read of its own: the one answer
     * that proves it final (no paint over the regions from just before
     * it until the quiet time after the last paint) proves it settled
     * too, and one that fails waits for the next paint counted from
     * before it, which a paint during it then is. */
    j->after = j->pre;
    if (j->holds) {
      confirm(rs);
      return;
    }
    if (sc__now_ms() >= end_of(j)) {
      out_of_time(rs);
      return;
    }
    ask(rs, delay(rs), 0, 1, logged);
    return;
  }
  rc = sc__rest_ask(rs, j->w.clip, j->pre, 0, 0, 0, end_of(j), NULL, posted);
  if (rc < 0) finish(rs, rc);
}

/* The counter read after a capture taken after the quiet time (or a
 * self-check's): was it settled, and what now. An early capture has no
 * such read: confirmed() alone proves it (log_judged). */
static void posted(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__rest *rs = ud;
  sc__rest_job *j = &rs->j;
  if (!answered(rs, status, errmsg, rep, j->same)) return;
  int over = sc__now_ms() >= end_of(j);
  if (j->self_check) {
    /* a second capture after a verdict the log gave: with no paint in
     * between it must show the same pixels, else the log missed a change
     * and rest is proven by pairs from now on */
    j->self_check = 0;
    if (rep->n == 0 && !j->same) {
      sc__rest_off(rs, "the self-check found a change the paint log did not see");
      to_pairs(rs, 0);
      return;
    }
    if (rep->n == 0) {
      j->log_settled = 1;
      final(rs, j->verdict_t); /* verified when the verdict's capture was */
      return;
    }
    /* it painted again after the verdict's capture: that was not the end
     * of its answer; judge again once it is at rest */
    j->verdict_t = j->proven_at = 0;
  }
  if (rep->n > 0) { /* it painted during the capture: not settled */
    if (over) {
      out_of_time(rs);
      return;
    }
    /* at rest the quiet time after its last paint (which may lie before now) */
    double q = sc__rest_quiet_ms(rs);
    double since = rep->last_ms >= 0 ? sc__now_ms() - rep->last_ms : 0;
    ask(rs, q, since < q ? q - since : 0, 0, logged);
    return;
  }
  j->log_settled = 1;
  if (j->holds) { /* taken after the quiet time: final as it is */
    holds(rs, j->cap_at);
    return;
  }
  if (over) {
    out_of_time(rs);
    return;
  }
  /* not as expected on a settled screen: not final while it still paints */
  ask(rs, delay(rs), 0, 1, logged);
}

/* The answer that proves an early capture final, or shows that the
 * application painted over the regions after it: then it is at rest for
 * the quiet time after that paint, and the job judges a new capture. */
static void confirmed(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__rest *rs = ud;
  sc__rest_job *j = &rs->j;
  if (!answered(rs, status, errmsg, rep, j->same)) return;
  if (rep->n == 0 && !rep->timed_out) {
    if (j->early_last > 0) learn(rs, 0); /* it was final: the delay may shrink */
    j->early_last = 0;
    j->log_settled = 1;
    holds(rs, j->verdict_t);
    return;
  }
  j->verdict_t = 0;
  if (rep->timed_out || sc__now_ms() >= end_of(j)) {
    out_of_time(rs);
    return;
  }
  j->pre = rep->seq; /* quiet for the quiet time: this capture is final */
  j->cap_early = 0;
  capture_now(rs);
}

/* ---- every capture ---- */

static void captured(int status, const char *errmsg, const char *raw, size_t len, void *ud) {
  sc__rest *rs = ud;
  sc__rest_job *j = &rs->j;
  int rc = rs->own.reply(rs->own.ud, status, errmsg);
  int same = 0;
  j->cap_at = sc__now_ms(); /* when the capture judged replied: the time it shows */
  if (rc == 0)
    rc = sc__rest_take(rs->io, &j->f, j->w.keep_prev ? &j->prev : NULL, j->now_clip, raw, len,
                       &same, j->w.also);
  if (rc < 0) {
    finish(rs, rc);
    return;
  }
  j->same = same;
  j->holds = j->judge(j->ud, &j->f, &j->prev, same, j->cap_req_at, j->cap_at) == 1;
  if (j->log_mode)
    log_judged(rs);
  else
    pairs_judged(rs);
}

static void capture_now(void *arg) {
  sc__rest *rs = arg;
  sc__rest_job *j = &rs->j;
  j->cap_req_at = sc__now_ms();
  /* On the log: the wider clip (the next need too), proven for the step's
   * regions by posted() and for the rest from before the capture when the
   * next step asks (its mark). Pairs compare captures of the clip itself. */
  j->now_clip = j->log_mode && j->w.cover ? j->w.wide : j->w.clip;
  int rc = sc__rest_capture(rs, j->now_clip, end_of(j), captured);
  if (rc < 0) finish(rs, rc);
}

void sc__rest_verdict(sc__rest *rs, const sc__rest_want *want, sc__rest_judge judge,
                      sc__rest_done done, void *ud) {
  sc__rest_job *j = &rs->j;
  sc__frame_free(&j->f);
  sc__frame_free(&j->prev);
  memset(j, 0, sizeof *j);
  j->kind = SC__REST_VERDICT;
  j->w = *want;
  j->judge = judge;
  j->done = done;
  j->ud = ud;
  j->clip = want->clip;
  j->deadline = want->deadline;
  j->begun = sc__now_ms();
  j->first_paint = j->last_paint = -1;
  j->since = want->gesture_end;
  j->after = want->from.seq;
  j->log_mode = want->log && sc__rest_logging(rs);
  if (j->log_mode)
    log_begin(rs);
  else
    capture_now(rs);
}
