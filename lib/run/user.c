/* One user as a state machine: setup steps, then cycles (each starts with
 * a "start" snapshot at rest and ends with a drift check), until its cycles
 * or its duration are done, an error stops it, or it is canceled. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "runner.h"
#include "scenario/locators.h"

static void next(sc__runner *r);

static void tick(void *ud) {
  sc__runner *r = ud;
  void (*fn)(sc__runner *) = r->timer_fn;
  r->timer = 0;
  r->timer_fn = NULL;
  fn(r);
}

int sc__runner_after(sc__runner *r, double at_ms, void (*fn)(sc__runner *r)) {
  r->timer_fn = fn;
  r->timer = r->io.timer(r->io.ctx, at_ms, tick, r);
  return r->timer ? 0 : sc__err(SC_ENOMEM, "runner: out of memory (timer)");
}

/* The user is done: error (rc < 0) recorded on its own result, verdict. */
static void end(sc__runner *r, int rc) {
  /* Once: a cancel from inside on_step ends the user there, and the step
   * that called on_step then moves on to next(), which sees the cancel. */
  if (r->phase == SC__PH_DONE) return;
  sc_run_result *rr = r->rr;
  if (rc < 0 && !rr->error) rr->error = sc__strdup(sc_errmsg());
  if (rc < 0 && !r->rc) r->rc = rc;
  if (rc < 0 && !rr->error_code) rr->error_code = rc;
  r->phase = SC__PH_DONE;
  int drift_fail = r->s->drift == SC_DRIFT_FAIL && rr->ndrift > 0;
  rr->passed = !rr->error && rr->steps_failed == 0 && rr->nresults > 0 && !drift_fail;
  rr->ended_unix_ms = sc__unix_ms();
  if (r->on_done) r->on_done(r, r->ud);
}

void sc__runner_fail(sc__runner *r, int rc) { end(r, rc); }

static sc_rect all_regions(const sc_scenario *s) {
  sc_rect u = {0, 0, 0, 0};
  for (size_t i = 0; i < s->nregions; i++) u = sc__rect_union(u, s->regions[i].r);
  return u;
}

/* The whole guest: the canvas the page found, else the scenario's guest,
 * else (a runner driven without a page, in tests) every region. */
static sc_rect whole_guest(const sc__runner *r) {
  int w = r->guest_w > 0 ? r->guest_w : r->s->guest_w;
  int h = r->guest_h > 0 ? r->guest_h : r->s->guest_h;
  return w > 0 && h > 0 ? (sc_rect){0, 0, w, h} : all_regions(r->s);
}

/* Park the pointer (when the scenario has a park point), then fn. */
static void parked(int status, const char *errmsg, void *ud);

static void park_then(sc__runner *r, void (*fn)(sc__runner *r)) {
  r->after_park = fn;
  if (!r->s->has_park) {
    fn(r);
    return;
  }
  int rc = r->io.move(r->io.ctx, r->s->park, parked, r);
  if (rc < 0) {
    end(r, rc);
    return;
  }
  r->pending = 1;
}

static void parked(int status, const char *errmsg, void *ud) {
  sc__runner *r = ud;
  int rc = sc__runner_reply(r, status, errmsg);
  if (rc < 0) {
    end(r, rc);
    return;
  }
  r->after_park(r);
}

/* ---- the cycle's start: no snapshot of an earlier cycle survives it, and
 * "start" is taken at rest with the pointer parked. When the screen does
 * not come to rest there is no "start": what compares with it fails ("no
 * snapshot start") instead of comparing with a moving picture. ---- */

static void start_taken(sc__runner *r, int rc) {
  if (r->gate_t0 > 0) {
    if (rc == 0) r->rr->ready_ms = sc__now_ms() - r->gate_t0;
    r->gate_t0 = 0;
  }
  if (rc < 0) {
    end(r, rc);
    return;
  }
  if (rc == 0 && (rc = sc__runner_snap_put(r, "start", &r->settle.f)) < 0) {
    end(r, rc);
    return;
  }
  /* At rest: the first step's at-rest pair may begin from it. */
  if (rc == 0) {
    sc__frame_move(&r->last, &r->settle.f);
    r->last_seq = r->settle.seq;
    r->last_seq_ok = r->settle.seq_ok;
    r->last_cover = 0;
  }
  sc__frame_free(&r->settle.f);
  r->phase = SC__PH_STEPS;
  r->idx = 0;
  next(r);
}

static void take_start(sc__runner *r) {
  const sc_step *first = r->s->nsteps ? &r->s->steps[0] : NULL;
  double wait = first ? first->timeout_ms : SC__REST_WAIT_MS;
  if (r->cycle == 1 && r->s->ready_quiet_ms > 0) {
    /* The readiness gate: the first reference of the run is taken only
     * once the whole guest (not only the regions the steps name) has been
     * still for ready_quiet_ms, so a client still painting (noVNC fills
     * panels in batches) is waited for instead of becoming "start". Fresh
     * captures: a seed's age is unknown. */
    sc__frame_free(&r->last);
    if (wait < r->s->ready_quiet_ms + SC__REST_WAIT_MS) wait = r->s->ready_quiet_ms + SC__REST_WAIT_MS;
    r->gate_t0 = sc__now_ms();
    sc__runner_settle_quiet(r, whole_guest(r), r->gate_t0 + wait, r->s->ready_quiet_ms,
                            start_taken);
    return;
  }
  sc__frame seed; /* the drift check's capture, or the last step's */
  sc__runner_seed(r, &seed, all_regions(r->s));
  sc__runner_settle(r, all_regions(r->s), sc__now_ms() + wait, start_taken, &seed);
  sc__frame_free(&seed);
}

/* ---- drift: after a cycle every drift region is compared with the
 * cycle's start. Not at rest at the end, or no "start" to compare with: a
 * region that cannot be compared is reported (pixels -1), never taken as
 * no drift. ---- */

static void drift_taken(sc__runner *r, int rc) {
  const sc_scenario *s = r->s;
  if (rc < 0) {
    end(r, rc);
    return;
  }
  const sc__frame *start = sc__runner_snap_get(r, "start");
  const sc__frame *f = &r->settle.f;
  int at_rest = rc == 0;
  int comparable = at_rest && start;
  rc = 0;
  size_t n = s->ndrift ? s->ndrift : s->nregions;
  for (size_t i = 0; i < n && rc == 0; i++) {
    const sc_region *reg = &s->regions[s->ndrift ? (size_t)s->drift_regions[i] : i];
    size_t diff = 0;
    sc_diff_options dopt = SC_DIFF_OPTIONS_INIT;
    dopt.threshold = s->drift_threshold;
    if (!comparable || sc__frame_diff(&diff, NULL, start, f, reg->r, &dopt) != 0)
      rc = sc__result_drift(r->rr, r->cycle, reg->name, -1);
    else if ((long)diff > s->drift_max_pixels)
      rc = sc__result_drift(r->rr, r->cycle, reg->name, (long)diff);
  }
  if (rc == 0) { /* the next cycle's start may begin from it, or be it */
    sc__frame_move(&r->last, &r->settle.f);
    r->last_seq = r->settle.seq;
    r->last_seq_ok = at_rest && r->settle.seq_ok;
    r->last_cover = 0;
    r->last_is_drift = at_rest;
  }
  sc__frame_free(&r->settle.f);
  if (rc < 0) {
    end(r, rc);
    return;
  }
  r->cycle++;
  r->phase = SC__PH_CYCLE_START;
  next(r);
}

static void take_drift(sc__runner *r) {
  sc__frame seed;
  sc__runner_seed(r, &seed, all_regions(r->s));
  sc__runner_settle(r, all_regions(r->s), sc__now_ms() + SC__REST_WAIT_MS, drift_taken, &seed);
  sc__frame_free(&seed);
}

/* Another cycle? By count, or by duration since the first began. */
static int more_cycles(sc__runner *r) {
  if (r->duration_ms > 0) {
    if (r->cycle == 1) return 1;
    return sc__now_ms() - r->first_cycle_at < r->duration_ms;
  }
  return r->cycle <= r->cycles;
}

/* ---- locators: found before the setup, on a screen that passed the
 * readiness gate; found again at each later cycle's start when the
 * scenario asks ("relocate"). ---- */

static void located_first(sc__runner *r) {
  r->phase = SC__PH_SETUP;
  r->idx = 0;
  next(r);
}

static void relocate_then_start(sc__runner *r) { sc__runner_locate(r, 0, take_start); }

static int relocating(const sc__runner *r) {
  const sc_scenario *s = r->scenario ? r->scenario : r->s;
  return r->cycle > 1 && s->locators && s->locators->relocate;
}

/* ---- guest frames (sc_run_options.pass_frames_guest): the whole guest
 * captured before a step begins and after its verdict, apart from the
 * step's own captures, never judged. ---- */
static int guest_frames(const sc__runner *r) {
  return r->frames && r->frames->guest && r->frames->budget > 0 && r->report_dir;
}

/* The step next() is at, begun. */
static void begin_current(sc__runner *r) {
  const sc_scenario *s = r->s;
  if (r->phase == SC__PH_SETUP) sc__runner_step_begin(r, &s->setup[r->idx], r->idx);
  else sc__runner_step_begin(r, &s->steps[r->idx], s->nsetup + r->idx);
}

/* The whole guest of a capture's reply, or NULL (the frame is then left
 * out: a guest frame never fails a step). */
static sc_image *guest_image(sc__runner *r, int status, const char *errmsg, const char *raw,
                             size_t len, int *rc) {
  sc_image *img = NULL;
  *rc = sc__runner_reply(r, status, errmsg);
  if (*rc == SC_ECANCELED) return NULL;
  if (*rc == 0 && r->io.decode(r->io.ctx, &img, raw, len, whole_guest(r)) < 0) img = NULL;
  *rc = 0; /* a capture that failed loses its frame, not the step */
  return img;
}

static void guest_before_taken(int status, const char *errmsg, const char *raw, size_t len,
                               void *ud) {
  sc__runner *r = ud;
  int rc;
  sc_image_free(r->guest_before);
  r->guest_before = guest_image(r, status, errmsg, raw, len, &rc);
  if (r->canceled) {
    end(r, sc__err(SC_ECANCELED, "canceled: %s", r->cancel_why));
    return;
  }
  begin_current(r);
}

static void begin_step(sc__runner *r) {
  if (!guest_frames(r) || sc__runner_capture(r, whole_guest(r), sc__now_ms() + SC__REST_WAIT_MS,
                                             guest_before_taken) < 0)
    begin_current(r);
}

static void next(sc__runner *r) {
  const sc_scenario *s = r->s;
  if (r->canceled) {
    end(r, sc__err(SC_ECANCELED, "canceled: %s", r->cancel_why));
    return;
  }
  switch (r->phase) {
  case SC__PH_LOCATE:
    sc__runner_locate(r, s->ready_quiet_ms, located_first);
    return;
  case SC__PH_SETUP:
    if (r->idx < s->nsetup) {
      begin_step(r);
      return;
    }
    r->phase = SC__PH_CYCLE_START;
    r->cycle = 1;
    next(r);
    return;
  case SC__PH_CYCLE_START:
    if (!more_cycles(r)) {
      end(r, 0);
      return;
    }
    if (r->cycle == 1) r->first_cycle_at = sc__now_ms();
    if (r->duration_ms > 0) r->rr->cycles = r->cycle;
    sc__runner_snaps_clear(r);
    if (r->last_is_drift && !relocating(r) && sc__frame_has(&r->last)) {
      /* The drift check's capture was taken at rest, with the pointer
       * parked, over the regions "start" covers, and nothing was sent to
       * the page since: it is this cycle's start as it stands. */
      r->last_is_drift = 0;
      sc__frame_move(&r->settle.f, &r->last);
      r->settle.seq = r->last_seq;
      r->settle.seq_ok = r->last_seq_ok;
      start_taken(r, 0);
      return;
    }
    r->last_is_drift = 0;
    park_then(r, relocating(r) ? relocate_then_start : take_start);
    return;
  case SC__PH_STEPS:
    if (r->idx < s->nsteps) {
      begin_step(r);
      return;
    }
    r->phase = SC__PH_DRIFT;
    if (s->drift == SC_DRIFT_OFF) {
      r->cycle++;
      r->phase = SC__PH_CYCLE_START;
      next(r);
      return;
    }
    park_then(r, take_drift);
    return;
  default:
    return;
  }
}

static void step_end_now(sc__runner *r, int rc);

static void guest_after_taken(int status, const char *errmsg, const char *raw, size_t len,
                              void *ud) {
  sc__runner *r = ud;
  int rc;
  sc_image *after = guest_image(r, status, errmsg, raw, len, &rc);
  if (after && r->sm.res) sc__runner_guest_frames(r, r->sm.res, after);
  sc_image_free(after);
  sc_image_free(r->guest_before);
  r->guest_before = NULL;
  step_end_now(r, r->guest_rc);
}

/* A step's end: with guest frames and a verdict, the whole guest after it
 * first. */
void sc__runner_step_end(sc__runner *r, int rc) {
  if (rc == 0 && r->sm.res && !r->canceled && guest_frames(r) && r->guest_before) {
    r->guest_rc = rc;
    if (sc__runner_capture(r, whole_guest(r), sc__now_ms() + SC__REST_WAIT_MS,
                           guest_after_taken) == 0)
      return;
  }
  sc_image_free(r->guest_before);
  r->guest_before = NULL;
  step_end_now(r, rc);
}

static void step_end_now(sc__runner *r, int rc) {
  sc_step_result *res = r->sm.res;
  r->sm.res = NULL;
  if (res && r->canceled) { /* a canceled step is not judged: no result */
    sc__step_result_free(res);
    res = NULL;
  }
  if (res) {
    int passed = res->passed, setup = res->setup;
    int prc = sc__result_push(r->rr, res); /* res moved in */
    const sc_step_result *kept = r->rr->nresults ? r->rr->results[r->rr->nresults - 1] : NULL;
    if (prc == 0 && r->on_step && kept) r->on_step(r, kept, r->ud);
    if (prc < 0 && rc == 0) rc = prc;
    if (rc == 0 && setup && !passed) { /* the app is not where the cycle expects it */
      end(r, 0);
      return;
    }
  }
  if (rc < 0) {
    end(r, rc);
    return;
  }
  r->idx++;
  next(r);
}

static void kick(sc__runner *r) { next(r); }

void sc__runner_step_once(sc__runner *r, const sc_step *st, size_t ni, int cycle) {
  r->phase = SC__PH_ONE;
  r->cycle = cycle;
  sc__runner_step_begin(r, st, ni);
}

int sc__runner_start(sc__runner *r) {
  if (!r->need && sc__runner_plan(r) < 0) return SC_ENOMEM;
  int grc = sc__runner_check_guest(r);
  if (grc < 0) return grc;
  r->phase = r->s->locators ? SC__PH_LOCATE : SC__PH_SETUP;
  r->idx = 0;
  r->cycle = 0;
  if (r->cycles < 1) r->cycles = 1;
  r->rr->cycles = r->duration_ms > 0 ? 0 : r->cycles;
  if (!r->rr->started_unix_ms) r->rr->started_unix_ms = sc__unix_ms();
  r->rr->ready_ms = -1;
  r->gate_t0 = 0;
  /* From the loop, never from inside this call: on_done fires later. */
  return sc__runner_after(r, sc__now_ms(), kick);
}

void sc__runner_cancel(sc__runner *r, const char *why) {
  if (r->phase == SC__PH_DONE || r->canceled) return;
  r->canceled = 1;
  snprintf(r->cancel_why, sizeof r->cancel_why, "%s", why ? why : "by request");
  if (r->pending) return; /* the outstanding callback ends it */
  if (r->timer) {
    r->io.cancel(r->io.ctx, r->timer);
    r->timer = 0;
  }
  /* A step in progress (waiting on a timer) is dropped unjudged. */
  if (r->sm.res) {
    sc_step_result *res = r->sm.res;
    r->sm.res = NULL;
    sc__step_result_free(res);
    sc__frame_free(&r->sm.before);
    sc__frame_free(&r->sm.cur);
    sc__frame_free(&r->sm.prev);
    sc__free(r->sm.v);
    sc__free(r->sm.sb);
    sc__free(r->sm.cb); /* the colour counts too (they leaked on Ctrl-C) */
    r->sm.v = NULL;
    r->sm.sb = NULL;
    r->sm.cb = NULL;
  }
  end(r, sc__err(SC_ECANCELED, "canceled: %s", r->cancel_why));
}
