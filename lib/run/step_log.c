/* A step's verdict by the page's paint log (docs/design.md, "Paint
 * log"). After the gesture the log waits in the page until the
 * application painted over the step's regions and then stopped for the
 * quiet time (or, for a step that expects nothing to change, until the
 * response window passed with no paint); one capture then, settled when
 * no paint touched the regions between the log's answer before it and
 * the one after it. A settled capture on which every expectation holds is
 * the verdict; one on which some fails is not final while the application
 * still paints: the step waits for the next paint over its regions and
 * judges again, until its timeout. Every answer dates the paints (first
 * and last, on the page's clock). Where the log turns out blind, the step
 * goes on by screenshot pairs (step.c) and says why. */
#include <string.h>

#include "core/core.h"
#include "core/debug.h"
#include "runner.h"

static void logged(int status, const char *errmsg, const sc__log_reply *rep, void *ud);
static void posted(int status, const char *errmsg, const sc__log_reply *rep, void *ud);

static double end_of(const sc__stepm *sm) { return sm->t0 + sm->st->timeout_ms; }

/* Take the times and the count of the paints an answer reports (each
 * answer counts the entries after the previous one's position). */
static void note(sc__runner *r, const sc__log_reply *rep) {
  sc__stepm *sm = &r->sm;
  sc_step_result *res = sm->res;
  sm->log_after = rep->seq;
  if (rep->n <= 0) return;
  res->paints += rep->n;
  if (res->first_paint_ms < 0 && rep->first_ms >= 0 && !rep->lost)
    res->first_paint_ms = rep->first_ms - sm->t0;
  if (rep->last_ms >= 0) res->last_paint_ms = rep->last_ms - sm->t0;
}

static void ask(sc__runner *r, double quiet, double window, int need, sc__io_logged cb) {
  sc__stepm *sm = &r->sm;
  int rc = sc__runner_log(r, sm->U, sm->log_after, quiet, window, need, end_of(sm), cb);
  if (rc < 0) sc__step_finish(r, rc);
}

/* The log went blind (or failed its self-check): this step goes on by
 * screenshot pairs from the capture it has. */
static void to_pairs(sc__runner *r, int stable) {
  r->sm.log_mode = 0;
  if (!sc__frame_has(&r->sm.cur)) {
    sc__step_capture(r);
    return;
  }
  sc__step_pace(r, stable);
}

void sc__step_log_begin(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  double q = sc__runner_quiet_ms(r);
  if (sm->st->action.kind == SC_ACTION_NONE) /* no input: judge the screen at rest */
    ask(r, q, 0, 0, logged);
  else if (sm->no_change)
    ask(r, q, r->s->response_ms, 0, logged);
  else
    ask(r, q, 0, 1, logged);
}

/* At rest after the paints (or the window, or the timeout): capture. */
static void logged(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__runner *r = ud;
  sc__stepm *sm = &r->sm;
  if (!sc__step_io_ok(r, status, errmsg)) return;
  if (!sc__runner_log_have(r, rep)) {
    to_pairs(r, 0);
    return;
  }
  note(r, rep);
  sm->log_pre = rep->seq;
  sc__step_capture(r);
}

static int self_check_due(const sc__runner *r) {
  int n = r->log_verdicts;
  if (sc__debug() & SC_DEBUG_LOG_TRUST) return 0; /* the log trusted: tests of the guards */
  return n < SC__SELF_CHECK_FIRST || n % SC__SELF_CHECK_EVERY == 0;
}

void sc__step_log_captured(sc__runner *r, int same) {
  sc__stepm *sm = &r->sm;
  int rc;
  sm->log_settled = 0;
  sm->cur_same = same;
  if ((rc = sc__frame_hold(&sm->cur)) < 0) { /* packed until it is needed */
    sc__step_finish(r, rc);
    return;
  }
  rc = sc__runner_log(r, sm->U, sm->log_pre, 0, 0, 0, end_of(sm), posted);
  if (rc < 0) sc__step_finish(r, rc);
}

/* The answer after a capture: was it settled, and what now. */
static void posted(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__runner *r = ud;
  sc__stepm *sm = &r->sm;
  if (!sc__step_io_ok(r, status, errmsg)) return;
  if (!sc__runner_log_have(r, rep)) {
    to_pairs(r, sm->cur_same);
    return;
  }
  note(r, rep);
  int over = sc__now_ms() >= end_of(sm);
  if (sm->self_check) {
    /* a second capture after a verdict the log gave: with no paint in
     * between it must show the same pixels, else the log missed a change
     * and this user is proven by pairs from now on */
    sm->self_check = 0;
    if (rep->n == 0 && !sm->cur_same) {
      sc__runner_log_off(r, "the self-check found a change the paint log did not see");
      to_pairs(r, 0);
      return;
    }
    if (rep->n == 0) {
      sm->log_settled = 1;
      sm->last_t = sm->verdict_t; /* verified when the verdict's capture was */
      sc__step_verdict(r);
      return;
    }
    /* it painted again after the verdict's capture: that was not the end
     * of its answer; judge again once it is at rest */
  }
  if (rep->n > 0) { /* it painted during the capture: not settled */
    if (over) {
      sc__step_out_of_time(r);
      return;
    }
    double since = rep->last_ms >= 0 ? sc__now_ms() - rep->last_ms : 0;
    double q = sc__runner_quiet_ms(r);
    ask(r, q, since < q ? q - since : 0, 0, logged);
    return;
  }
  sm->log_settled = 1;
  sm->res->rest = "paint-log";
  if (sc__step_all_hold(sm)) {
    if (self_check_due(r)) {
      r->log_verdicts++;
      sm->self_check = 1;
      sm->verdict_t = sm->last_t;
      sm->log_pre = sm->log_after;
      sc__step_capture(r);
      return;
    }
    r->log_verdicts++;
    sc__step_verdict(r);
    return;
  }
  if (over) {
    sc__step_out_of_time(r);
    return;
  }
  /* not as expected on a settled screen: not final while it still paints */
  ask(r, sc__runner_quiet_ms(r), 0, 1, logged);
}
