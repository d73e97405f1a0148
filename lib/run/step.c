/* One step as a state machine: settle (timer) -> park (move) -> at-rest
 * capture -> gesture (wheel notches spaced by timers, with captures in the
 * pauses) -> the verdict: the rest object (rest/verdict.c) hands this file
 * frames at rest to judge until every expectation holds on one it proves
 * final, or the timeout. A step never passes on a frame between wheel
 * notches, nor on a change that only the pointer caused. Every wait is a
 * timer or a reply: nothing sleeps. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "runner.h"

static void park_done(int status, const char *errmsg, void *ud);
static void pre_done(sc__runner *r, int rc);
static void gesture_begin(sc__runner *r);
static void notch_capture(sc__runner *r);
static void verdict_begin(sc__runner *r);

static double response_ms(const sc__runner *r) { return r->s->response_ms; }

static void set_reason(sc_step_result *res, const char *msg) {
  sc__free(res->reason);
  res->reason = sc__strdup(msg);
}

/* Join the reasons of all expectations ("; "), for a pass summary. */
static void summarize(char *buf, size_t len, const sc__verdict *v, size_t n) {
  buf[0] = '\0';
  size_t used = 0;
  for (size_t i = 0; i < n && used + 4 < len; i++) {
    int k = snprintf(buf + used, len - used, "%s%s", i ? "; " : "", v[i].reason);
    if (k < 0) break;
    used += (size_t)k;
  }
}

/* The per-expectation arrays of a step: verdicts, scale and colour read on
 * the at-rest capture. */
static void per_expect_free(sc__stepm *sm) {
  sc__free(sm->v);
  sc__free(sm->sb);
  sc__free(sm->cb);
  sm->v = NULL;
  sm->sb = NULL;
  sm->cb = NULL;
}

/* The step is over (rc < 0: an error stopped it; its message is taken
 * now, before anything else can overwrite it). */
static void finish(sc__runner *r, int rc) {
  sc__stepm *sm = &r->sm;
  sc_step_result *res = sm->res;
  if (rc < 0 && !res->reason) set_reason(res, sc_errmsg());
  if (rc < 0) {
    /* cut off by a fault, not judged: it ran until now, not its timeout */
    res->fault = 1;
    res->ran_ms = sc__now_ms() - (sm->t0 > 0 ? sm->t0 : sm->begun);
  }
  res->capture_ms = res->captures ? sm->capsum / res->captures : 0;
  if (!res->passed) res->proven_ms = -1;
  else if (res->proven_ms < 0) res->proven_ms = res->verified_ms;
  for (size_t i = 0; i < sm->st->nexpect && sm->v; i++)
    if (sm->st->expect[i].kind == SC_EXPECT_SCALE) {
      res->scale_factor = sm->v[i].factor;
      if (sm->v[i].scale_text[0] && !res->scale_text)
        res->scale_text = sc__strdup(sm->v[i].scale_text);
    }
  sc__frame_free(&sm->before);
  /* the rule in force when the step ended (one that ended before its
   * at-rest capture was still under it) */
  int logging = sc__runner_logging(r);
  res->rest = logging ? "paint-log" : "pairs";
  res->rest_why = sc__rest_why(&r->rest);
  /* The step's last capture may be the first of the next step's at-rest
   * pair (it was taken before the settle wait and the park: if the next
   * capture still shows the same pixels, nothing moved in between), and
   * with the log, the at-rest capture itself when nothing painted since
   * the position the verdict's proof gives. */
  if (rc == 0 && sc__frame_has(&sm->cur)) {
    int proven = logging && sm->mark.ok;
    sc_rect clip = sm->cur.clip;
    sc__frame_move(&r->last, &sm->cur);
    r->last_seq = sm->mark.seq;
    r->last_seq_ok = proven;
    /* a capture wider than the step's own need, for the next one's */
    r->last_cover = proven && memcmp(&clip, &sm->U, sizeof sm->U) ? sm->ni + 1 : 0;
  } else {
    sc__frame_free(&sm->cur);
  }
  sc__frame_free(&sm->prev);
  per_expect_free(sm);
  sc__runner_step_end(r, rc);
}

/* An I/O callback arrived: 1 when the machine may go on, 0 when it ended
 * the step (cancel or error). */
static int io_ok(sc__runner *r, int status, const char *errmsg) {
  int rc = sc__runner_reply(r, status, errmsg);
  if (rc < 0) finish(r, rc);
  return rc == 0;
}

/* Start an I/O call: on a synchronous failure the step ends. The time is
 * taken before the call: `call` is the call's result. */
#define IO_START(r, call) (io_asked(r), io_started(r, (call)))
static void io_asked(sc__runner *r) { r->io_asked_at = sc__now_ms(); }
static int io_started(sc__runner *r, int rc) {
  if (rc < 0) {
    finish(r, rc);
    return 0;
  }
  r->pending = 1;
  return 1;
}

/* The step's time ran out. If the browser kept a request waiting longer
 * than SC__STALL_MS, the screen was not watched for the whole timeout: that
 * is the infrastructure's failure, not the application's, and the step ends
 * as an error (the run is VOID) instead of a verdict. 1 when so. */
static int stalled(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  /* a paint log's answer is due the moment the page gives it: one that
   * came SC__LOG_LATE_MS late crossed a browser that stood still, while
   * the page may have been waiting for the very data it held up */
  double late = r->rest.log_late;
  if (r->io_slowest < SC__STALL_MS && late < SC__LOG_LATE_MS) return 0;
  if (late > r->io_slowest) r->io_slowest = late;
  finish(r, sc__err(SC_ETIMEDOUT,
                    "browser did not answer for %.0f ms during step %s, so its %.0f ms "
                    "timeout was not watched: not judged (infrastructure stall)",
                    r->io_slowest, sm->st->id, sm->st->timeout_ms));
  return 1;
}

/* ---- settle floor and park ---- */

static void settled(sc__runner *r) {
  const sc_scenario *s = r->s;
  if (r->sm.st->park && s->has_park) {
    IO_START(r, r->io.move(r->io.ctx, s->park, park_done, r));
    return;
  }
  park_done(0, NULL, r);
}

/* The settle floor: time since the last gesture, and no accidental double
 * click on the same point. */
void sc__runner_step_begin(sc__runner *r, const sc_step *st, size_t ni) {
  sc__stepm *sm = &r->sm;
  memset(sm, 0, sizeof *sm);
  sm->st = st;
  sm->ni = ni;
  sm->begun = sc__now_ms();
  sc__rest_step(sc__runner_rest(r)); /* each step tries the log again */
  size_t n = r->s->nsetup + r->s->nsteps;
  sm->U = r->need[ni];
  sm->C = r->need[n + ni];
  sm->B = r->need[2 * n + ni];
  r->io_slowest = 0;
  sm->res = sc__calloc(1, sizeof *sm->res);
  sm->v = sc__calloc(st->nexpect ? st->nexpect : 1, sizeof *sm->v);
  sm->sb = sc__calloc(st->nexpect ? st->nexpect : 1, sizeof *sm->sb);
  sm->cb = sc__calloc(st->nexpect ? st->nexpect : 1, sizeof *sm->cb);
  if (!sm->res || !sm->v || !sm->sb || !sm->cb) {
    sc__free(sm->res);
    sm->res = NULL;
    per_expect_free(sm);
    sc__runner_step_end(r, sc__err(SC_ENOMEM, "runner: out of memory"));
    return;
  }
  for (size_t i = 0; i < st->nexpect; i++) sm->keep_prev |= st->expect[i].kind == SC_EXPECT_STABLE;
  sc_step_result *res = sm->res;
  res->step_id = st->id;
  res->cycle = r->cycle;
  res->setup = r->phase == SC__PH_SETUP;
  res->first_change_ms = -1;
  res->first_paint_ms = res->last_paint_ms = -1;
  res->rest = "pairs";
  /* A gesture none of whose expectations needs a change is verified only
   * after the response window: nothing may pass before the application
   * had the time to answer (docs/design.md, "Paint log"). */
  sm->no_change = st->action.kind != SC_ACTION_NONE;
  for (size_t i = 0; i < st->nexpect; i++)
    if (st->expect[i].kind == SC_EXPECT_CHANGED || st->expect[i].kind == SC_EXPECT_SCALE)
      sm->no_change = 0;
  /* A step that fails before its gesture still has a time (reports sort
   * and count by it); the gesture sets the exact one. */
  res->started_unix_ms = sc__unix_ms();
  res->verified_ms = -1;
  res->proven_ms = -1;
  double until = r->last_gesture_end > 0 ? r->last_gesture_end + st->settle_ms : 0;
  if (st->action.kind == SC_ACTION_CLICK && r->have_click &&
      fabs(st->action.at.x - r->last_click.x) < 8 && fabs(st->action.at.y - r->last_click.y) < 8) {
    double dc = r->last_click_at + r->s->double_click_ms + 1;
    if (dc > until) until = dc;
  }
  if (until > sc__now_ms()) {
    if (sc__runner_after(r, until, settled) < 0) finish(r, SC_ENOMEM);
    return;
  }
  settled(r);
}

/* ---- the at-rest capture before the gesture ---- */

static void pre_settle(sc__runner *r);

static void park_done(int status, const char *errmsg, void *ud) {
  sc__runner *r = ud;
  if (!io_ok(r, status, errmsg)) return;
  pre_settle(r);
}

static void pre_settle(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  if (sm->B.w > 0) {
    sc__frame seed;
    sc__runner_seed(r, &seed, sm->B);
    sc__runner_settle(r, sm->B, sc__now_ms() + sm->st->timeout_ms, pre_done, &seed);
    sc__frame_free(&seed);
    return;
  }
  sc__frame_free(&r->last);
  gesture_begin(r);
}

static void pre_done(sc__runner *r, int rc) {
  sc__stepm *sm = &r->sm;
  const sc_scenario *s = r->s;
  const sc_step *st = sm->st;
  sc__frame_move(&sm->before, &r->settle.f);
  if (rc == SC__NOT_AT_REST) {
    if (stalled(r)) return;
    char msg[128];
    snprintf(msg, sizeof msg, "screen not at rest before the gesture (%.0f ms)", st->timeout_ms);
    set_reason(sm->res, msg);
    finish(r, 0);
    return;
  }
  if (rc < 0) {
    finish(r, rc);
    return;
  }
  /* This step's at-rest capture is the snapshot later steps name by id:
   * kept (packed) only when one does. */
  sm->log_mode = sc__runner_logging(r) && r->settle.seq_ok;
  sm->mark = (sc__rest_mark){r->settle.seq, r->settle.seq_ok};
  if (r->keep[sm->ni] && (rc = sc__runner_snap_put(r, st->id, &sm->before)) < 0) {
    finish(r, rc);
    return;
  }
  /* What later captures are compared with and does not change: read once */
  for (size_t i = 0; i < st->nexpect; i++) {
    const sc_expect *e = &st->expect[i];
    if (e->kind == SC_EXPECT_SCALE)
      sc__scale_read(&sm->sb[i], &sm->before, s->regions[e->region].r, e->profile);
    else if (e->kind == SC_EXPECT_COLOR)
      sm->cb[i] = sc__color_count(&sm->before, s->regions[e->region].r, e);
  }
  gesture_begin(r);
}

/* ---- judging one capture ---- */

/* *all and *first_bad from the verdicts. */
static void tally(const sc__stepm *sm, int *all, size_t *first_bad) {
  *all = 1;
  *first_bad = sm->st->nexpect;
  for (size_t i = 0; i < sm->st->nexpect; i++)
    if (!sm->v[i].holds) {
      *all = 0;
      if (*first_bad == sm->st->nexpect) *first_bad = i;
    }
}

/* Judge every expectation on capture f (prev: the one before it, when the
 * step keeps it); same = it shows the last capture's pixels again. Such a
 * capture is not judged again: every verdict depends only on the pixels
 * and fixed references, except "stable", which now holds (0 px changed).
 * Times are those of the capture's reply. */
static void judge_frame(sc__runner *r, sc__frame *f, sc__frame *prev, int same, double t_req,
                        double t_reply) {
  sc__stepm *sm = &r->sm;
  double t = t_reply - sm->t0;
  double ms = t_reply - t_req;
  sm->last_t = t;
  sm->res->captures++;
  sm->capsum += ms;
  sm->cap_last = ms;
  if (same) {
    for (size_t i = 0; i < sm->st->nexpect; i++)
      if (sm->st->expect[i].kind == SC_EXPECT_STABLE) {
        sm->v[i].holds = 1;
        snprintf(sm->v[i].reason, sizeof sm->v[i].reason, "%s equals previous capture",
                 r->s->regions[sm->st->expect[i].region].name);
      }
    return;
  }
  sm->ctx.cur = f;
  sm->ctx.prev = sc__frame_has(prev) ? prev : NULL;
  sm->ctx.elapsed_ms = t;
  int change = 0;
  for (size_t i = 0; i < sm->st->nexpect; i++) {
    sc__judge_expect(&sm->v[i], sm->st, i, &sm->ctx);
    change |= sm->v[i].shows_change;
  }
  if (change && sm->res->first_change_ms < 0) sm->res->first_change_ms = t;
}

/* The verdict job's judge (rest.h): 1 when every expectation holds on the
 * frame, "stable" aside (that is the frame's finality, which the proof
 * gives). */
static int judged(void *ud, sc__frame *f, sc__frame *prev, int same, double t_req,
                  double t_reply) {
  sc__runner *r = ud;
  sc__stepm *sm = &r->sm;
  judge_frame(r, f, prev, same, t_req, t_reply);
  for (size_t i = 0; i < sm->st->nexpect; i++)
    if (!sm->v[i].holds && sm->st->expect[i].kind != SC_EXPECT_STABLE) return 0;
  return 1;
}

/* ---- the gesture ---- */

static void gesture_done(sc__runner *r);
static void notch_send(sc__runner *r);

static void input_done(int status, const char *errmsg, void *ud) {
  sc__runner *r = ud;
  if (!io_ok(r, status, errmsg)) return;
  sc__stepm *sm = &r->sm;
  const sc_action *a = &sm->st->action;
  if (a->kind == SC_ACTION_KEY && a->has_at && !sm->key_moved) {
    sm->key_moved = 1;
    sm->input_at = sc__now_ms();
    IO_START(r, r->io.key(r->io.ctx, a->key, a->repeat > 0 ? a->repeat : 1, input_done, r));
    return;
  }
  if (a->kind == SC_ACTION_WHEEL) {
    int n = a->notches < 0 ? -a->notches : a->notches;
    if (++sm->notch < n) {
      sm->next_notch_at = sc__now_ms() + r->s->notch_spacing_ms;
      /* Capture in the pause when one fits, so the first change is seen
       * when it happens, not only after the last notch. Such frames are
       * never verdict frames: the gesture is not complete. */
      double room = sm->next_notch_at - sc__now_ms();
      if (!sm->log_mode && sm->res->first_change_ms < 0 && sm->st->nexpect > 0 && sm->U.w > 0 &&
          room >= 1.5 * (sm->cap_last > 0 ? sm->cap_last : 100)) {
        notch_capture(r);
        return;
      }
      if (sc__runner_after(r, sm->next_notch_at, notch_send) < 0) finish(r, SC_ENOMEM);
      return;
    }
  }
  gesture_done(r);
}

static void notch_send(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  const sc_action *a = &sm->st->action;
  sm->input_at = sc__now_ms();
  IO_START(r, r->io.notch(r->io.ctx, a->at, a->notches, sm->notch == 0, input_done, r));
}

static void gesture_begin(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  const sc_scenario *s = r->s;
  sm->ctx = (sc__judge_ctx){s, &sm->before, NULL, NULL, sc__runner_snap_get, sc__runner_baseline,
                            r, sm->sb, 0, r->prep, sm->cb};
  sm->t0 = sm->input_at = sc__now_ms();
  sm->res->started_unix_ms = sc__unix_ms();
  const sc_action *a = &sm->st->action;
  switch (a->kind) {
  case SC_ACTION_NONE:
    gesture_done(r);
    return;
  case SC_ACTION_CLICK:
    IO_START(r, r->io.click(r->io.ctx, a->at, input_done, r));
    return;
  case SC_ACTION_MOVE:
    IO_START(r, r->io.move(r->io.ctx, a->at, input_done, r));
    return;
  case SC_ACTION_WHEEL:
    notch_send(r);
    return;
  case SC_ACTION_KEY:
    if (a->has_at) {
      IO_START(r, r->io.move(r->io.ctx, a->at, input_done, r));
    } else {
      sm->key_moved = 1;
      IO_START(r, r->io.key(r->io.ctx, a->key, a->repeat > 0 ? a->repeat : 1, input_done, r));
    }
    return;
  }
  finish(r, sc__err(SC_EINVAL, "step %s: unknown action", sm->st->id));
}

static void gesture_done(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  double t1 = sc__now_ms();
  sm->res->gesture_ms = t1 - sm->t0;
  r->last_gesture_end = t1;
  if (sm->st->action.kind == SC_ACTION_CLICK) {
    r->have_click = 1;
    r->last_click = sm->st->action.at;
    r->last_click_at = t1;
  }
  if (sm->st->nexpect == 0) {
    sm->res->passed = 1;
    sm->res->verified_ms = sm->res->gesture_ms;
    set_reason(sm->res, "no expectations (gesture only)");
    finish(r, 0);
    return;
  }
  sm->in_poll = 1;
  verdict_begin(r);
}

/* ---- the verdict ---- */

/* The timeout: the first failing expectation says why, as of the last
 * capture, and the failure images show what it compared. */
static void timed_out(sc__runner *r, size_t first_bad) {
  sc__stepm *sm = &r->sm;
  const sc_step *st = sm->st;
  char msg[1024];
  if (first_bad < st->nexpect) {
    sm->ctx.cur = &sm->cur;
    sm->ctx.elapsed_ms = sm->last_t;
    sc__judge_expect(&sm->v[first_bad], st, first_bad, &sm->ctx);
    set_reason(sm->res, sm->v[first_bad].reason);
    const sc_expect *e = &st->expect[first_bad];
    const sc__frame *ref = &sm->before;
    if (e->kind == SC_EXPECT_EQUALS && e->snapshot && sc__runner_snap_get(r, e->snapshot))
      ref = sc__runner_snap_get(r, e->snapshot);
    else if (e->kind == SC_EXPECT_STABLE && sc__frame_has(&sm->prev))
      ref = &sm->prev;
    sc__runner_artifacts(r, sm->res, r->s->regions[e->region].name, r->s->regions[e->region].r,
                         ref, &sm->cur, r->cycle);
  } else {
    snprintf(msg, sizeof msg, "screen not settled after %.0f ms", sm->last_t);
    set_reason(sm->res, msg);
  }
  sc__step_failed(r); /* unless the input never left the browser (input_seen.c) */
}

/* The pass, once the canvas was found where the page opened it; a canvas
 * gone or moved fails the step with what became of it (the pixels were
 * the page's, not the application's). */
static void guest_checked(int status, const char *errmsg, void *ud) {
  sc__runner *r = ud;
  sc__stepm *sm = &r->sm;
  char msg[1024];
  if (status == SC_EGEOMETRY) {
    r->pending = 0;
    snprintf(msg, sizeof msg, "%s: not judged", errmsg ? errmsg : "canvas changed");
    set_reason(sm->res, msg);
    finish(r, 0);
    return;
  }
  if (!io_ok(r, status, errmsg)) return;
  sm->res->verified_ms = sm->last_t;
  sm->res->passed = 1;
  summarize(msg, sizeof msg, sm->v, sm->st->nexpect);
  /* verified only once its time was up: a pass, but one that took the whole
   * timeout (a screen never proven at rest before, a response window as
   * long as the timeout) says so rather than pass as if quick */
  size_t used = strlen(msg);
  if (sm->last_t >= sm->st->timeout_ms && used + 1 < sizeof msg)
    snprintf(msg + used, sizeof msg - used, "; passed only at its deadline (verified at %.0f ms, "
             "timeout %.0f ms)", sm->last_t, sm->st->timeout_ms);
  set_reason(sm->res, msg);
  sc__runner_pass_frames(r);
  finish(r, 0);
}

/* "stable" holds on a frame proven final: by the log, its regions had no
 * paint for the quiet time (under pairs the judge saw two equal captures). */
static void prove_stable(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  for (size_t i = 0; i < sm->st->nexpect; i++)
    if (sm->st->expect[i].kind == SC_EXPECT_STABLE && !sm->v[i].holds) {
      sm->v[i].holds = 1;
      snprintf(sm->v[i].reason, sizeof sm->v[i].reason, "%s unchanged for %.0f ms (paint log)",
               r->s->regions[sm->st->expect[i].region].name, sc__rest_quiet_ms(&r->rest));
    }
}

/* The proof: final (the verdict holds on the pixels; it is given only if
 * they are still the application's: guest_checked), the deadline (the
 * reason as of the last capture), or an error. */
static void proven(void *ud, const sc__rest_proof *p) {
  sc__runner *r = ud;
  sc__stepm *sm = &r->sm;
  sc_step_result *res = sm->res;
  sc__frame_free(&sm->cur);
  sc__frame_free(&sm->prev);
  sc__frame_move(&sm->cur, p->f);
  sc__frame_move(&sm->prev, p->prev);
  sm->mark = p->mark;
  res->paints += p->paints;
  if (p->first_paint >= 0 && res->first_paint_ms < 0) res->first_paint_ms = p->first_paint - sm->t0;
  if (p->last_paint >= 0) res->last_paint_ms = p->last_paint - sm->t0;
  res->idle_ms += p->idle_ms;
  if (p->rc < 0) {
    finish(r, p->rc);
    return;
  }
  if (p->rc == SC__NOT_AT_REST) {
    int all;
    size_t first_bad;
    tally(sm, &all, &first_bad);
    if (!stalled(r)) timed_out(r, first_bad);
    return;
  }
  sm->last_t = p->at - sm->t0; /* verified when the final frame's capture was */
  res->proven_ms = p->proven - sm->t0;
  if (p->log_settled) prove_stable(r);
  if (!r->io.guest) {
    guest_checked(0, NULL, r);
    return;
  }
  IO_START(r, r->io.guest(r->io.ctx, guest_checked, r));
}

/* The regions the step expects to change ("changed", a scale factor other
 * than 1): a paint must have touched each since the gesture before the
 * screen can hold. An answer that has reached only some of them (JOSM: the
 * map first, the Tags and Selection panels 60-120 ms later; through Xpra
 * up to 400 ms later) is not captured early. The quiet time until then is
 * the scenario's, so a region the application never paints is captured
 * as it was before the early capture existed. */
static void must_change(const sc__runner *r, sc__log_must *m) {
  const sc__stepm *sm = &r->sm;
  m->n = 0;
  for (size_t i = 0; i < sm->st->nexpect && m->n < SC__LOG_MUST_MAX; i++) {
    const sc_expect *e = &sm->st->expect[i];
    if (e->kind != SC_EXPECT_CHANGED && !(e->kind == SC_EXPECT_SCALE && e->factor != 1)) continue;
    sc_rect rr = r->s->regions[e->region].r;
    int dup = 0;
    for (int k = 0; k < m->n; k++) dup |= !memcmp(&m->r[k], &rr, sizeof rr);
    if (!dup) m->r[m->n++] = rr;
  }
}

static void verdict_begin(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  const sc_action *a = &sm->st->action;
  sc__rest_want w = {
      .clip = sm->U,
      .wide = sm->C,
      .cover = sc__runner_covering(r, sm->ni),
      .deadline = sm->t0 + sm->st->timeout_ms,
      .gesture_end = r->last_gesture_end,
      .input_at = a->kind == SC_ACTION_NONE ? 0 : sm->input_at,
      /* a gesture none of whose expectations needs a change is verified
       * only after the response window: nothing may pass before the
       * application had the time to answer */
      .not_before = sm->no_change ? sm->input_at + response_ms(r) : 0,
      .window_ms = response_ms(r),
      .need_paint = a->kind != SC_ACTION_NONE && !sm->no_change,
      .delay = r->capture_at ? &r->capture_at[sm->ni] : NULL,
      .from = sm->mark,
      .log = sm->log_mode,
      .also = &sm->before,
      .keep_prev = sm->keep_prev,
  };
  must_change(r, &w.must);
  sc__rest_verdict(&r->rest, &w, judged, proven, r);
}

/* A capture in a pause between notches: the first change only, never a
 * verdict frame (the gesture is not complete). */
static void notch_polled(int status, const char *errmsg, const char *raw, size_t len, void *ud) {
  sc__runner *r = ud;
  if (!io_ok(r, status, errmsg)) return;
  sc__stepm *sm = &r->sm;
  sc__frame f = {0};
  int same = 0;
  double reply = sc__now_ms();
  int rc = sc__rest_take(&r->io, &f, NULL, sm->U, raw, len, &same, &sm->before);
  if (rc == 0) judge_frame(r, &f, NULL, same, sm->cap_req_at, reply);
  sc__frame_free(&f);
  if (rc < 0) {
    finish(r, rc);
    return;
  }
  double at = sm->next_notch_at > sc__now_ms() ? sm->next_notch_at : sc__now_ms();
  if (sc__runner_after(r, at, notch_send) < 0) finish(r, SC_ENOMEM);
}

static void notch_capture(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  sm->cap_req_at = sc__now_ms();
  int rc = sc__runner_capture(r, sm->U, sm->t0 + sm->st->timeout_ms, notch_polled);
  if (rc < 0) finish(r, rc);
}

void sc__step_finish(sc__runner *r, int rc) { finish(r, rc); }
