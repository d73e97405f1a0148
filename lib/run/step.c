/* One step: settle, park, capture at rest, gesture, then capture back to
 * back until every expectation holds on a settled frame (two identical
 * captures in a row) or the timeout. A step never passes on a frame between
 * wheel notches, nor on a change that only the pointer caused. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "runner.h"

/* What polling needs, shared with the idle hook between wheel notches. */
typedef struct poll {
  sc__runner *r;
  const sc_step *st;
  sc_step_result *res;
  sc_rect U;
  sc__judge_ctx ctx;
  sc__verdict *v;
  double t0;
  double capsum;   /* cost of the captures after the first input */
  double cap_last; /* cost of the latest capture, to fit captures into pauses */
  double last_t;   /* reply time of the latest capture, ms after the first input */
} poll;

/* *all and *first_bad from the verdicts in ps->v. */
static void tally(poll *ps, int *all, size_t *first_bad) {
  *all = 1;
  *first_bad = ps->st->nexpect;
  for (size_t i = 0; i < ps->st->nexpect; i++)
    if (!ps->v[i].holds) {
      *all = 0;
      if (*first_bad == ps->st->nexpect) *first_bad = i;
    }
}

/* Capture U into f and judge every expectation on it; *all = all hold,
 * *same = the capture is byte-identical to prev. An identical capture is
 * not decoded nor judged again: every verdict depends only on the pixels
 * and fixed references, except "stable", which now holds (0 px changed).
 * Times are those of the capture's reply. Returns 1 when any expectation
 * shows an expected change, negative on error. */
static int poll_once(poll *ps, sc__frame *f, const sc__frame *prev, int *all, size_t *first_bad,
                     int *same) {
  double ms = 0, reply = 0;
  int rc = sc__runner_capture(ps->r, f, ps->U, &ms, &reply, prev, same, ps->ctx.before);
  if (rc < 0) return rc;
  double t = reply - ps->t0;
  ps->last_t = t;
  ps->res->captures++;
  ps->capsum += ms;
  ps->cap_last = ms;
  if (*same) {
    for (size_t i = 0; i < ps->st->nexpect; i++)
      if (ps->st->expect[i].kind == SC_EXPECT_STABLE) {
        ps->v[i].holds = 1;
        snprintf(ps->v[i].reason, sizeof ps->v[i].reason, "%s equals previous capture",
                 ps->r->s->regions[ps->st->expect[i].region].name);
      }
    tally(ps, all, first_bad);
    return 0;
  }
  ps->ctx.cur = f;
  ps->ctx.prev = prev && prev->img ? prev : NULL;
  ps->ctx.elapsed_ms = t;
  int change = 0;
  for (size_t i = 0; i < ps->st->nexpect; i++) {
    sc__judge_expect(&ps->v[i], ps->st, i, &ps->ctx);
    change |= ps->v[i].shows_change;
  }
  tally(ps, all, first_bad);
  if (change && ps->res->first_change_ms < 0) ps->res->first_change_ms = t;
  return change;
}

/* Between wheel notches: capture when one fits in the pause, so the first
 * change is seen when it happens, not only after the last notch. Frames
 * taken here are never verdict frames (the gesture is not complete). */
static int between_notches(void *ud, double until) {
  poll *ps = ud;
  if (ps->res->first_change_ms >= 0 || ps->st->nexpect == 0) return 0;
  if (until - sc__now_ms() < 1.5 * (ps->cap_last > 0 ? ps->cap_last : 100)) return 0;
  sc__frame f = {0};
  int all, same;
  size_t bad;
  int rc = poll_once(ps, &f, NULL, &all, &bad, &same);
  sc__frame_free(&f);
  return rc < 0 ? rc : 0;
}

static double unix_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int gesture(sc__runner *r, const sc_step *st, poll *ps) {
  const sc_action *a = &st->action;
  switch (a->kind) {
  case SC_ACTION_NONE:
    return 0;
  case SC_ACTION_CLICK:
    return r->io.click(r->io.ctx, a->at);
  case SC_ACTION_MOVE:
    return r->io.move(r->io.ctx, a->at);
  case SC_ACTION_WHEEL:
    return r->io.wheel(r->io.ctx, a->at, a->notches, between_notches, ps);
  case SC_ACTION_KEY: {
    int rc = a->has_at ? r->io.move(r->io.ctx, a->at) : 0;
    return rc < 0 ? rc : r->io.key(r->io.ctx, a->key, a->repeat > 0 ? a->repeat : 1);
  }
  }
  return sc__err(SC_EINVAL, "step %s: unknown action", st->id);
}

/* The settle floor: time since the last gesture, and no accidental double
 * click on the same point. */
static void settle(sc__runner *r, const sc_step *st) {
  double until = r->last_gesture_end > 0 ? r->last_gesture_end + st->settle_ms : 0;
  if (st->action.kind == SC_ACTION_CLICK && r->have_click &&
      fabs(st->action.at.x - r->last_click.x) < 8 && fabs(st->action.at.y - r->last_click.y) < 8) {
    double dc = r->last_click_at + r->s->double_click_ms + 1;
    if (dc > until) until = dc;
  }
  sc__sleep_ms(until - sc__now_ms());
}

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

int sc__runner_step(sc__runner *r, sc_step_result *res, const sc_step *st, size_t ni,
                    int cycle) {
  const sc_scenario *s = r->s;
  memset(res, 0, sizeof *res);
  res->step_id = st->id;
  res->cycle = cycle;
  res->first_change_ms = -1;
  res->verified_ms = -1;
  sc_rect U = r->need[ni];
  sc__frame before = {0}, cur = {0}, prev = {0};
  sc__verdict *v = sc__calloc(st->nexpect ? st->nexpect : 1, sizeof *v);
  sc__scale *sb = sc__calloc(st->nexpect ? st->nexpect : 1, sizeof *sb);
  char msg[1024];
  int rc = 0;
  if (!v || !sb) {
    rc = sc__err(SC_ENOMEM, "runner: out of memory");
    goto done;
  }

  settle(r, st);
  if (st->park && s->has_park && (rc = r->io.move(r->io.ctx, s->park)) < 0) goto done;

  if (U.w > 0) {
    rc = sc__runner_capture_settled(r, &before, U, sc__now_ms() + st->timeout_ms);
    if (rc == SC__NOT_AT_REST) {
      rc = 0;
      snprintf(msg, sizeof msg, "screen not at rest before the gesture (%.0f ms)",
               st->timeout_ms);
      set_reason(res, msg);
      goto done;
    }
    if (rc < 0) goto done;
    /* This step's at-rest capture is the snapshot later steps name by id. */
    sc__frame snap = {.img = NULL, .clip = before.clip};
    if ((rc = sc_image_crop(&snap.img, before.img, (sc_rect){0, 0, U.w, U.h})) < 0) goto done;
    if ((rc = sc__runner_snap_put(r, st->id, &snap)) < 0) {
      sc__frame_free(&snap);
      goto done;
    }
    for (size_t i = 0; i < st->nexpect; i++)
      if (st->expect[i].kind == SC_EXPECT_SCALE)
        sc__scale_read(&sb[i], &before, s->regions[st->expect[i].region].r,
                       st->expect[i].profile);
  }

  poll ps = {r, st, res, U, {s, &before, NULL, NULL, sc__runner_snap_get, sc__runner_baseline,
                            r, sb, 0}, v, 0, 0, 0, 0};
  ps.t0 = sc__now_ms();
  res->started_unix_ms = unix_ms();
  rc = gesture(r, st, &ps);
  double t1 = sc__now_ms();
  res->gesture_ms = t1 - ps.t0;
  r->last_gesture_end = t1;
  if (st->action.kind == SC_ACTION_CLICK) {
    r->have_click = 1;
    r->last_click = st->action.at;
    r->last_click_at = t1;
  }
  if (rc < 0) goto done;
  if (st->nexpect == 0) {
    res->passed = 1;
    res->verified_ms = res->gesture_ms;
    set_reason(res, "no expectations (gesture only)");
    goto done;
  }

  for (;;) {
    int all, same = 0;
    size_t first_bad;
    if ((rc = poll_once(&ps, &cur, &prev, &all, &first_bad, &same)) < 0) goto done;
    rc = 0;
    double t = ps.last_t;
    int stable = prev.img && (same || sc__frame_equal(&prev, &cur, U));
    if (all && stable) {
      res->verified_ms = t;
      res->passed = 1;
      summarize(msg, sizeof msg, v, st->nexpect);
      set_reason(res, msg);
      break;
    }
    if (t >= st->timeout_ms) {
      if (first_bad < st->nexpect) {
        /* A byte-identical capture kept the earlier verdict; say it as of now. */
        ps.ctx.cur = &cur;
        ps.ctx.elapsed_ms = t;
        sc__judge_expect(&v[first_bad], st, first_bad, &ps.ctx);
        snprintf(msg, sizeof msg, "%s", v[first_bad].reason);
        set_reason(res, msg);
        const sc_expect *e = &st->expect[first_bad];
        /* The images compare what the failed check compared: the snapshot
         * or the previous capture where it used one, else the step's start. */
        const sc__frame *ref = &before;
        if (e->kind == SC_EXPECT_EQUALS && e->snapshot && sc__runner_snap_get(r, e->snapshot))
          ref = sc__runner_snap_get(r, e->snapshot);
        else if (e->kind == SC_EXPECT_STABLE && prev.img)
          ref = &prev;
        sc__runner_artifacts(r, res, s->regions[e->region].name, s->regions[e->region].r, ref,
                             &cur, cycle);
      } else {
        snprintf(msg, sizeof msg, "screen not settled after %.0f ms", t);
        set_reason(res, msg);
      }
      break;
    }
    sc__frame_move(&prev, &cur);
  }
  res->capture_ms = res->captures ? ps.capsum / res->captures : 0;
  for (size_t i = 0; i < st->nexpect; i++)
    if (st->expect[i].kind == SC_EXPECT_SCALE) {
      res->scale_factor = v[i].factor;
      if (v[i].scale_text[0]) res->scale_text = sc__strdup(v[i].scale_text);
    }

done:
  if (rc < 0 && !res->reason) {
    snprintf(msg, sizeof msg, "%s", sc_errmsg());
    set_reason(res, msg);
  }
  sc__frame_free(&before);
  sc__frame_free(&cur);
  sc__frame_free(&prev);
  sc__free(v);
  sc__free(sb);
  return rc;
}
