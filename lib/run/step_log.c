/* A step's verdict by the page's paint log (docs/design.md, "Paint
 * log"). After the gesture the log waits in the page until the
 * application painted over the step's regions and then stopped for the
 * capture delay (rest_capture_ms); one capture then, settled when no
 * paint touched the regions between the log's answer before it and the
 * one after it. A settled capture on which every expectation holds is the
 * verdict once the log proves it final: no paint over the regions for the
 * quiet time (rest_quiet_ms) after the last one; a paint in that time
 * makes it a frame the application then painted over, and the step judges
 * again on the screen it comes to rest on. A settled capture on which some
 * expectation fails is not final while the application still paints: the
 * step waits for the next paint over its regions and judges again, until
 * its timeout. A step that expects nothing to change is captured only
 * after the response window with no paint (or the quiet time after the
 * last). Every answer dates the paints (first and last, on the page's
 * clock). Where the log turns out blind, the step goes on by screenshot
 * pairs (step.c) and says why. */
#include <string.h>

#include "core/core.h"
#include "core/debug.h"
#include "runner.h"

static void logged(int status, const char *errmsg, const sc__log_reply *rep, void *ud);
static void posted(int status, const char *errmsg, const sc__log_reply *rep, void *ud);
static void confirmed(int status, const char *errmsg, const sc__log_reply *rep, void *ud);

static double end_of(const sc__stepm *sm) { return sm->t0 + sm->st->timeout_ms; }

/* The capture delay of this step: the scenario's, or longer where the
 * application's answer to it came in pieces further apart (learnt), never
 * past the quiet time. */
static double delay(const sc__runner *r) {
  double d = sc__runner_capture_ms(r), q = sc__runner_quiet_ms(r);
  double l = r->capture_at ? r->capture_at[r->sm.ni] : 0;
  if (l > d) d = l;
  return d < q ? d : q;
}

/* A paint came `gap` ms after the last one before an early capture: the
 * capture came too soon, and this step's delay covers that gap from now
 * on, with a margin (10 ms and a quarter of the gap: the pieces' spacing
 * varies from cycle to cycle). An early capture that was final lets the
 * learnt delay fall back a 32nd of the way towards the scenario's: slowly
 * enough that a step answering in pieces keeps waiting for its last piece
 * for many cycles (falling back a quarter of the way with a 10 ms margin,
 * it was under the gap again after one final capture, and every other
 * cycle took two captures), fast enough that one slow answer under load
 * does not hold the step back for the rest of the run. */
#define LEARN_MARGIN_MS 10.0
#define LEARN_DECAY 32
static void learn(sc__runner *r, double gap) {
  if (!r->capture_at) return;
  double *l = &r->capture_at[r->sm.ni];
  if (gap > 0) {
    double want = gap + gap / 4 + LEARN_MARGIN_MS;
    if (want > *l) *l = want;
  } else if (*l > 0) {
    double d = sc__runner_capture_ms(r);
    *l = *l > d ? *l - (*l - d) / LEARN_DECAY : 0;
  }
}

/* Take the times and the count of the paints an answer reports (each
 * answer counts the entries after the previous one's position). */
static void note(sc__runner *r, const sc__log_reply *rep) {
  sc__stepm *sm = &r->sm;
  sc_step_result *res = sm->res;
  sm->log_after = rep->seq;
  if (rep->n <= 0) return;
  if (sm->early_last > 0 && rep->first_ms >= 0 && !rep->lost) {
    learn(r, rep->first_ms - sm->early_last); /* the early capture came too soon */
    sm->early_last = 0;
  }
  res->paints += rep->n;
  if (res->first_paint_ms < 0 && rep->first_ms >= 0 && !rep->lost)
    res->first_paint_ms = rep->first_ms - sm->t0;
  if (rep->last_ms >= 0) {
    res->last_paint_ms = rep->last_ms - sm->t0;
    sm->last_paint_at = rep->last_ms;
  }
}

/* Ask the log about the step's regions since sm->log_after. A quiet time
 * shorter than the scenario's makes the capture it leads to an early one:
 * proven final only by confirmed(); and it counts only once the answer
 * reached every region the step expects to change (until then the quiet
 * time is the scenario's). */
static void ask(sc__runner *r, double quiet, double window, int need, sc__io_logged cb) {
  sc__stepm *sm = &r->sm;
  sm->early = quiet < sc__runner_quiet_ms(r);
  int rc = sc__runner_log_must(r, sm->U, sm->log_after, quiet, window, need, end_of(sm),
                               sm->early ? &sm->must : NULL, cb);
  if (rc < 0) sc__step_finish(r, rc);
}

/* The regions the step expects to change ("changed", a scale factor other
 * than 1): a paint must have touched each since the gesture before the
 * screen can hold. An answer that has reached only some of them (JOSM: the
 * map first, the Tags and Selection panels 60-120 ms later; through Xpra
 * up to 400 ms later) is not captured early. The quiet time until then is
 * the scenario's, so a region the application never paints is captured
 * as it was before the early capture existed. */
static void must_change(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  sc__log_must *m = &sm->must;
  m->n = 0;
  m->after = sm->log_after;
  m->quiet_ms = sc__runner_quiet_ms(r);
  for (size_t i = 0; i < sm->st->nexpect && m->n < SC__LOG_MUST_MAX; i++) {
    const sc_expect *e = &sm->st->expect[i];
    if (e->kind != SC_EXPECT_CHANGED && !(e->kind == SC_EXPECT_SCALE && e->factor != 1)) continue;
    sc_rect rr = r->s->regions[e->region].r;
    int dup = 0;
    for (int k = 0; k < m->n; k++) dup |= !memcmp(&m->r[k], &rr, sizeof rr);
    if (!dup) m->r[m->n++] = rr;
  }
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

/* An answer of the log: 1 when the step goes on with it (its paints
 * noted), 0 when the step ended or went on by pairs (from the capture it
 * has, `stable` saying whether that showed the one before it again). */
static int answered(sc__runner *r, int status, const char *errmsg, const sc__log_reply *rep,
                    int stable) {
  if (!sc__step_io_ok(r, status, errmsg)) return 0;
  if (!sc__runner_log_have(r, rep)) {
    to_pairs(r, stable);
    return 0;
  }
  note(r, rep);
  return 1;
}

void sc__step_log_begin(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  double q = sc__runner_quiet_ms(r);
  must_change(r);
  if (sm->st->action.kind == SC_ACTION_NONE) /* no input: judge the screen at rest */
    ask(r, q, 0, 0, logged);
  else if (sm->no_change)
    ask(r, q, r->s->response_ms, 0, logged);
  else
    ask(r, delay(r), 0, 1, logged);
}

/* At rest after the paints (or the window, or the timeout): capture. */
static void logged(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__runner *r = ud;
  sc__stepm *sm = &r->sm;
  if (!answered(r, status, errmsg, rep, 0)) return;
  if (sm->no_change && !rep->timed_out) {
    /* A step that expects nothing to change watches the whole response
     * window after its last input, whatever it painted inside it (an
     * identical repaint first, the real answer later): at rest, and not
     * before the window is over. */
    double q = sc__runner_quiet_ms(r), left = sm->input_at + r->s->response_ms - sc__now_ms();
    if (left > 0) {
      ask(r, q, left > q ? left : q, 0, logged);
      return;
    }
  }
  if (sm->early && rep->n > 0 && rep->last_ms >= 0 && rep->last_ms < sm->input_at) {
    /* every paint so far came before the last input was sent (a zoom's
     * earlier notches, a late hover paint): the answer to it is still to
     * come. Wait for a paint after it, for at most the response window
     * and at least the quiet time (0.3.0's rule, at the least). */
    double q = sc__runner_quiet_ms(r), left = sm->input_at + r->s->response_ms - sc__now_ms();
    ask(r, delay(r), left > q ? left : q, 0, logged);
    return;
  }
  sm->log_pre = rep->seq;
  sm->cap_early = sm->early;
  sm->early_last = sm->early ? sm->last_paint_at : 0;
  sc__step_capture(r);
}

static int self_check_due(const sc__runner *r) {
  long n = r->log_verdicts, first = r->s->self_check_first, every = r->s->self_check_every;
  if (sc__debug() & SC_DEBUG_LOG_TRUST) return 0; /* the log trusted: tests of the guards */
  return n < first || (every > 0 && n % every == 0);
}

/* "stable" on the log: a capture proven settled and final shows regions
 * no paint touched for the quiet time, which is what two equal captures
 * in a row stand for under pairs; it holds then (and only then). */
static void prove_stable(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  for (size_t i = 0; i < sm->st->nexpect; i++)
    if (sm->st->expect[i].kind == SC_EXPECT_STABLE) {
      sm->v[i].holds = 1;
      snprintf(sm->v[i].reason, sizeof sm->v[i].reason,
               "%s unchanged for %.0f ms (paint log)",
               r->s->regions[sm->st->expect[i].region].name, sc__runner_quiet_ms(r));
    }
}

/* Every expectation holds on the capture, "stable" aside (proven by the
 * log's answer that makes the capture final). */
static int hold_but_stable(const sc__stepm *sm) {
  for (size_t i = 0; i < sm->st->nexpect; i++)
    if (!sm->v[i].holds && sm->st->expect[i].kind != SC_EXPECT_STABLE) return 0;
  return 1;
}

/* The verdict holds on a capture proven settled and final: the self-check
 * when one is due, else the verdict. */
static void holds(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  sm->cap_early = 0; /* a self-check's capture is no early one */
  sm->res->proven_ms = sc__now_ms() - sm->t0;
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
}

/* Every expectation holds on an early capture (taken the capture delay
 * after the last paint): it is final once nothing painted over the
 * regions for the quiet time after that paint (confirmed). */
static void confirm(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  sm->verdict_t = sm->last_t;
  double q = sc__runner_quiet_ms(r);
  double since = sm->last_paint_at > 0 ? sc__now_ms() - sm->last_paint_at : q;
  ask(r, q, since < q ? q - since : 0, 0, confirmed);
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
  if (sm->cap_early && !sm->self_check) {
    /* An early capture has no counter read of its own: the one answer
     * that proves it final (no paint over the regions from just before
     * it until the quiet time after the last paint) proves it settled
     * too, and one that fails waits for the next paint counted from
     * before it, which a paint during it then is. */
    sm->log_after = sm->log_pre;
    if (hold_but_stable(sm)) {
      confirm(r);
      return;
    }
    if (sc__now_ms() >= end_of(sm)) {
      sc__step_out_of_time(r);
      return;
    }
    ask(r, delay(r), 0, 1, logged);
    return;
  }
  rc = sc__runner_log(r, sm->U, sm->log_pre, 0, 0, 0, end_of(sm), posted);
  if (rc < 0) sc__step_finish(r, rc);
}

/* The counter read after a capture taken after the quiet time (or a
 * self-check's): was it settled, and what now. An early capture has no
 * such read: confirmed() alone proves it (sc__step_log_captured). */
static void posted(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__runner *r = ud;
  sc__stepm *sm = &r->sm;
  if (!answered(r, status, errmsg, rep, sm->cur_same)) return;
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
    /* at rest the quiet time after its last paint (which may lie before now) */
    double q = sc__runner_quiet_ms(r);
    double since = rep->last_ms >= 0 ? sc__now_ms() - rep->last_ms : 0;
    ask(r, q, since < q ? q - since : 0, 0, logged);
    return;
  }
  sm->log_settled = 1;
  sm->res->rest = "paint-log";
  if (hold_but_stable(sm)) { /* taken after the quiet time: final as it is */
    prove_stable(r);
    holds(r);
    return;
  }
  if (over) {
    sc__step_out_of_time(r);
    return;
  }
  /* not as expected on a settled screen: not final while it still paints */
  ask(r, delay(r), 0, 1, logged);
}

/* The answer that proves an early verdict capture final, or shows that the
 * application painted over the regions after it: then it is at rest for
 * the quiet time after that paint, and the step judges a new capture. */
static void confirmed(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__runner *r = ud;
  sc__stepm *sm = &r->sm;
  if (!answered(r, status, errmsg, rep, sm->cur_same)) return;
  if (rep->n == 0 && !rep->timed_out) {
    if (sm->early_last > 0) learn(r, 0); /* it was final: the delay may shrink */
    sm->early_last = 0;
    sm->log_settled = 1;
    sm->res->rest = "paint-log";
    sm->last_t = sm->verdict_t; /* verified when the verdict's capture was */
    prove_stable(r);
    holds(r);
    return;
  }
  if (rep->timed_out || sc__now_ms() >= end_of(sm)) {
    sc__step_out_of_time(r);
    return;
  }
  sm->log_pre = rep->seq; /* quiet for the quiet time: this capture is final */
  sm->cap_early = 0;
  sc__step_capture(r);
}
