/* The scripted world the runner's tests run in (test_step.c: screenshot
 * pairs; test_step_log.c: the paint log): a screen that is a frame id from
 * a time on, input and captures as events on a fake clock, and a fake
 * paint log over the same changes. Static functions, one copy per test. */
#ifndef SC_TEST_WORLD_H
#define SC_TEST_WORLD_H
#pragma GCC diagnostic ignored "-Wunused-function"

#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "run/runner.h"
#include "stepcheck.h"

#define CAP 40.0 /* ms per capture */
#define W 100
#define H 50

static double g_t;
static double g_decode_ms; /* what a decode costs on the fake clock */
static double fake_now(void) { return g_t; }
static void fake_sleep(double ms) {
  (void)ms;
  fail_msg("the runner slept: every wait must be a timer or a reply");
}

/* The screen: a frame id from a time on. */
typedef struct change {
  double at;
  char id;
  sc_rect r;   /* the paint log's dirty rectangle; w = 0: the whole screen */
  int unseen;  /* a change the paint log does not see (its blind spot) */
} change;
typedef struct world {
  change ch[512];
  int nch;
  double click_at[8];
  double click_end[8];
  int nclick;
  double notch_at[8];
  int nnotch;
  int moves;
  double delay;       /* first change after an input */
  const char *after;  /* frames that follow an input, spaced by `gap` */
  double gap;
} world;

static world g_w;
static sc__runner g_r;

/* Each user may have a world of its own (the io ctx); NULL is g_w. */
static world *world_of(void *ctx) { return ctx ? ctx : &g_w; }

/* The latest change at or before t (in time; the later one of a tie). */
static char screen_at(const world *w, double t) {
  char id = 'A';
  double best = -1;
  for (int i = 0; i < w->nch; i++)
    if (w->ch[i].at <= t && w->ch[i].at >= best) {
      best = w->ch[i].at;
      id = w->ch[i].id;
    }
  return id;
}

static void schedule(world *w, double from) {
  for (const char *p = w->after; p && *p; p++) {
    double at = from + w->delay + (double)(p - w->after) * w->gap;
    w->ch[w->nch++] = (change){.at = at, .id = *p};
  }
}

/* The fake loop: events (replies and timers) in time order. */
typedef struct event {
  double at;
  uint64_t id;
  int kind; /* 0 done, 1 captured, 2 tick, 3 logged */
  sc__io_done done;
  sc__io_captured captured;
  sc__io_tick tick;
  sc__io_logged logged;
  sc__log_reply rep; /* logged: the answer */
  void *ud;
  double asked; /* a capture: when it was asked for */
  int live;
  world *world; /* a capture: whose screen */
  int status;   /* a capture that failed (its own deadline passed) */
} event;
static event g_ev[256];
static uint64_t g_next_id = 1;

static event *post(double at, int kind, void *cb, void *ud) {
  for (int i = 0; i < 256; i++)
    if (!g_ev[i].live) {
      g_ev[i] = (event){at, g_next_id++, kind, NULL, NULL, NULL, NULL, {0}, ud, g_t, 1, &g_w, 0};
      if (kind == 0) g_ev[i].done = (sc__io_done)cb;
      if (kind == 1) g_ev[i].captured = (sc__io_captured)cb;
      if (kind == 2) g_ev[i].tick = (sc__io_tick)cb;
      if (kind == 3) g_ev[i].logged = (sc__io_logged)cb;
      return &g_ev[i];
    }
  fail_msg("fake loop: too many events");
  return NULL;
}

/* Run events in time order until none is left (or `limit` on the clock). */
static void run_loop(double limit) {
  for (;;) {
    int best = -1;
    for (int i = 0; i < 256; i++)
      if (g_ev[i].live && (best < 0 || g_ev[i].at < g_ev[best].at ||
                           (g_ev[i].at == g_ev[best].at && g_ev[i].id < g_ev[best].id)))
        best = i;
    if (best < 0 || g_ev[best].at > limit) return;
    event e = g_ev[best];
    g_ev[best].live = 0;
    if (e.at > g_t) g_t = e.at;
    if (e.kind == 0) {
      e.done(e.status, e.status ? "the application's canvas is gone from the page" : NULL, e.ud);
    } else if (e.kind == 1 && e.status) {
      e.captured(e.status, e.status == SC_ECLOSED
                               ? "Page.captureScreenshot: connection closed: browser closed its pipe"
                               : "Page.captureScreenshot: timed out",
                 NULL, 0, e.ud);
    } else if (e.kind == 1) {
      char id = screen_at(e.world, e.asked + CAP / 2);
      e.captured(0, NULL, &id, 1, e.ud);
    } else if (e.kind == 3) {
      e.logged(0, NULL, &e.rep, e.ud);
    } else {
      e.tick(e.ud);
    }
  }
}

/* A frozen browser (SIGSTOP): nothing it would answer in [from, until)
 * comes before until. */
static double g_freeze_from, g_freeze_until;
static double thawed(double at) {
  return at >= g_freeze_from && at < g_freeze_until ? g_freeze_until : at;
}

static int f_move(void *ctx, sc_point at, sc__io_done cb, void *ud) {
  world *w = world_of(ctx);
  (void)at;
  w->moves++;
  post(thawed(g_t + 1), 0, (void *)cb, ud);
  return 0;
}
static int f_click(void *ctx, sc_point at, sc__io_done cb, void *ud) {
  world *w = world_of(ctx);
  (void)at;
  w->click_at[w->nclick] = g_t;
  schedule(w, g_t);
  w->click_end[w->nclick++] = g_t + 3;
  post(thawed(g_t + 3), 0, (void *)cb, ud);
  return 0;
}
/* Notch i shows after[i] `delay` ms after it is sent. */
static int f_notch(void *ctx, sc_point at, int dir, int first, sc__io_done cb, void *ud) {
  world *w = world_of(ctx);
  (void)at, (void)dir, (void)first;
  w->notch_at[w->nnotch] = g_t;
  w->ch[w->nch++] = (change){.at = g_t + w->delay, .id = w->after[w->nnotch++]};
  post(g_t + 1, 0, (void *)cb, ud);
  return 0;
}
static int f_key(void *ctx, const char *key, int repeat, sc__io_done cb, void *ud) {
  (void)ctx, (void)key, (void)repeat;
  post(g_t, 0, (void *)cb, ud);
  return 0;
}
/* Memory: while a capture is on its way, the runner holds no decoded
 * pixels (at-rest pair, before, last capture, snapshots: all packed). */
static int g_held_checks, g_held_checks_failed;
static int g_captures; /* every capture asked for */
static void check_held(const sc__runner *r) {
  g_held_checks++;
  int bad = r->settle.f.img || r->sm.before.img || r->sm.cur.img || r->sm.prev.img || r->last.img;
  bad |= r->rest.j.f.img || r->rest.j.prev.img || r->rest.answer.img || r->rest.answer_prev.img;
  for (size_t i = 0; i < r->nsnaps; i++) bad |= r->snaps[i].f.img != NULL;
  g_held_checks_failed += bad;
}

/* The browser killed: a capture not answered by then fails at that moment
 * (0: never). */
static double g_closed_at;

static int f_capture(void *ctx, sc_rect clip, int fast, double timeout_ms, sc__io_captured cb,
                     void *ud) {
  world *w = world_of(ctx);
  (void)clip, (void)fast;
  if (ud == &g_r || ud == &g_r.rest) check_held(&g_r); /* the runner's or its rest object's */
  g_captures++;
  double at = thawed(g_t + CAP);
  if (g_closed_at > 0 && at >= g_closed_at) {
    post(g_closed_at > g_t ? g_closed_at : g_t, 1, (void *)cb, ud)->status = SC_ECLOSED;
    return 0;
  }
  if (at > g_t + timeout_ms) { /* the capture's own deadline comes first */
    event *e = post(g_t + timeout_ms, 1, (void *)cb, ud);
    e->status = SC_ETIMEDOUT;
    return 0;
  }
  post(at, 1, (void *)cb, ud)->world = w;
  return 0;
}
static uint64_t f_timer(void *ctx, double at_ms, sc__io_tick cb, void *ud) {
  (void)ctx;
  return post(at_ms, 2, (void *)cb, ud)->id;
}
static void f_cancel(void *ctx, uint64_t id) {
  (void)ctx;
  for (int i = 0; i < 256; i++)
    if (g_ev[i].live && g_ev[i].id == id) g_ev[i].live = 0;
}
/* The guest check: the canvas is gone from g_guest_gone_at on (0: never). */
static double g_guest_gone_at;
static int g_guest_checks;
static int f_guest(void *ctx, sc__io_done cb, void *ud) {
  (void)ctx;
  g_guest_checks++;
  event *e = post(g_t + 1, 0, (void *)cb, ud);
  if (g_guest_gone_at > 0 && g_t >= g_guest_gone_at) e->status = SC_EGEOMETRY;
  return 0;
}
/* Frame id -> picture of guest rect clip: 'A' black; other capitals paint
 * a block at guest (10, 10) whose size grows with the letter, so every
 * frame differs from every other; a small letter is its capital plus a
 * block at guest (60, 10) (in the right half only). */
static int paint(sc_image **out, char id, sc_rect clip, int overlay) {
  int rc = sc_image_new(out, clip.w, clip.h);
  if (rc) return rc;
  int right = id >= 'a' && id <= 'z';
  if (right) id = (char)(id - 'a' + 'A');
  int side = id == 'A' ? 0 : 2 + (id - 'A') * 2;
  for (int y = 0; y < clip.h; y++)
    for (int x = 0; x < clip.w; x++) {
      uint8_t *p = (*out)->px + (size_t)y * (*out)->stride + (size_t)x * 4;
      int gx = clip.x + x, gy = clip.y + y;
      int in = gx >= 10 && gx < 10 + side && gy >= 10 && gy < 10 + side;
      in |= right && gx >= 60 && gx < 68 && gy >= 10 && gy < 18;
      p[0] = p[1] = p[2] = in ? 255 : 0;
      p[3] = 255;
    }
  if (overlay) (*out)->px[0] = 77; /* the page shows something over the canvas */
  return 0;
}

/* Screenshots show the canvas, or with g_overlay something over it too. */
static int g_overlay;
static int f_decode(void *ctx, sc_image **out, const char *raw, size_t len, sc_rect clip) {
  (void)ctx, (void)len;
  g_t += g_decode_ms;
  return paint(out, raw[0], clip, g_overlay);
}

/* The paint log: every change of the screen is an entry at its time
 * (with its rectangle), but for the unseen ones; an entry "touches" r when
 * the rectangles meet. Answers come LOGRTT ms after the moment the page
 * would answer. g_log_blind: the page says its log is blind. */
#define LOGRTT 1.0
static int g_log_blind, g_log_asks;
static int touches(const change *c, sc_rect r) {
  if (c->r.w <= 0) return 1;
  return c->r.x < r.x + r.w && r.x < c->r.x + c->r.w && c->r.y < r.y + r.h &&
         r.y < c->r.y + c->r.h;
}
/* Entries (seen changes) in time order: the k-th has sequence number k+1. */
static int log_entries(const world *w, const change **out) {
  int n = 0;
  for (int i = 0; i < w->nch; i++)
    if (!w->ch[i].unseen) out[n++] = &w->ch[i];
  for (int i = 1; i < n; i++) /* insertion sort by time, stable */
    for (int k = i; k > 0 && out[k]->at < out[k - 1]->at; k--) {
      const change *t = out[k];
      out[k] = out[k - 1];
      out[k - 1] = t;
    }
  return n;
}
/* The answer as of time T: entries after `after` up to T touching r. As
 * the page's ring (SC__LOG_RING entries), an `after` older than that is
 * "lost": it counts as a paint now. */
static sc__log_reply log_at(const world *w, const sc__log_ask *a, double T) {
  const change *e[512];
  int n = log_entries(w, e);
  sc__log_reply rep = {.have = 1, .doc = 1, .first_ms = -1, .last_ms = -1};
  for (int k = 0; k < n && e[k]->at <= T; k++) {
    rep.seq = (uint64_t)k + 1;
    if ((uint64_t)k + 1 <= a->after || !touches(e[k], a->r)) continue;
    rep.n++;
    if (rep.first_ms < 0) rep.first_ms = e[k]->at;
    rep.last_ms = e[k]->at;
  }
  if (rep.seq > a->after + SC__LOG_RING) {
    rep.lost = 1;
    rep.n++;
    rep.first_ms = -1;
    rep.last_ms = T;
  }
  return rep;
}
/* The log's position at time t (a wait asked from SC__LOG_FROM_NOW). */
static uint64_t log_pos(const world *w, double t) {
  uint64_t k = 0;
  for (int i = 0; i < w->nch; i++) k += !w->ch[i].unseen && w->ch[i].at <= t;
  return k;
}
/* The compositor witness (page/witness.h): an unseen change is a frame no
 * entry explains, reported by the first answer after it (g_no_witness: a
 * page without the witness). */
static int g_no_witness;
static double g_witnessed; /* answers reported unseen changes up to here */
static int unexplained(const world *w, double T) {
  int n = 0;
  for (int i = 0; i < w->nch; i++)
    n += w->ch[i].unseen && w->ch[i].at > g_witnessed && w->ch[i].at <= T;
  if (T > g_witnessed) g_witnessed = T;
  return g_no_witness ? 0 : n;
}
/* Has every must rectangle been touched by an entry after must->after, as
 * of time T? (g_log_must_off: a page that ignores them.) */
static int g_log_must_off;
static int must_reached(const world *w, const sc__log_ask *a, double T) {
  if (!a->must || g_log_must_off) return 1;
  const change *e[512];
  int n = log_entries(w, e);
  for (int i = 0; i < a->must->n; i++) {
    int hit = 0;
    for (int k = 0; k < n && e[k]->at <= T && !hit; k++)
      hit = (uint64_t)k + 1 > a->must->after && touches(e[k], a->must->r[i]);
    if (!hit) return 0;
  }
  return 1;
}
/* The page's rule (lib/page/paintlog_js.c), over the scripted future: the
 * first moment T >= now at which it holds. */
static int f_log_wait(void *ctx, const sc__log_ask *ask, sc__io_logged cb, void *ud) {
  world *w = world_of(ctx);
  g_log_asks++;
  sc__log_ask from_now = *ask;
  if (ask->after == SC__LOG_FROM_NOW) from_now.after = log_pos(w, g_t);
  const sc__log_ask *a = &from_now;
  double t0 = g_t, T = t0 + a->timeout_ms;
  int timed_out = 1;
  double cand[2200];
  int nc = 0;
  double mq = a->must && a->must->quiet_ms > a->quiet_ms ? a->must->quiet_ms : a->quiet_ms;
  cand[nc++] = t0;
  cand[nc++] = t0 + a->quiet_ms;
  cand[nc++] = t0 + mq;
  if (!a->need) cand[nc++] = t0 + a->window_ms;
  for (int i = 0; i < w->nch && nc < 2190; i++)
    if (!w->ch[i].unseen) {
      if (w->ch[i].at + a->quiet_ms > t0) cand[nc++] = w->ch[i].at + a->quiet_ms;
      if (w->ch[i].at + mq > t0) cand[nc++] = w->ch[i].at + mq;
    }
  for (int i = 1; i < nc; i++)
    for (int k = i; k > 0 && cand[k] < cand[k - 1]; k--) {
      double t = cand[k];
      cand[k] = cand[k - 1];
      cand[k - 1] = t;
    }
  for (int i = 0; i < nc; i++) {
    double c = cand[i];
    if (c < t0 || c >= t0 + a->timeout_ms) continue;
    sc__log_reply rep = log_at(w, a, c);
    double from = rep.last_ms > t0 ? rep.last_ms : t0;
    double q = must_reached(w, a, c) ? a->quiet_ms : mq;
    int ok = rep.n > 0 ? c - from >= q : !a->need && c - t0 >= a->window_ms;
    if (ok) {
      T = c;
      timed_out = 0;
      break;
    }
  }
  event *ev = post(thawed(T + LOGRTT), 3, (void *)cb, ud);
  ev->world = w;
  ev->rep = log_at(w, a, T);
  ev->rep.timed_out = timed_out;
  ev->rep.unexplained = unexplained(w, T);
  if (g_log_blind) ev->rep = (sc__log_reply){.blind = "a WebGL canvas on or over the guest"};
  return 0;
}

static sc_region g_regions[] = {{"r", {0, 0, W, H}}};
static sc_expect g_changed = {.kind = SC_EXPECT_CHANGED, .region = 0, .threshold = 0.1,
                              .min_pixels = 1};
static sc_step g_steps[2];
static sc_scenario g_s;
static sc_run_result g_rr;

static const sc__runner_io k_io = {f_move,   f_click, f_notch,  f_key, f_capture,
                                   f_decode, f_timer, f_cancel, f_guest, NULL,  NULL, NULL};

static void runner_init(sc__runner *r, sc_run_result *rr) {
  memset(r, 0, sizeof *r);
  memset(rr, 0, sizeof *rr);
  rr->scenario = &g_s;
  r->s = &g_s;
  r->rr = rr;
  r->io = k_io;
  r->cycles = 1;
  assert_int_equal(sc__runner_plan(r), 0);
}

static int setup(void **st) {
  (void)st;
  memset(&g_w, 0, sizeof g_w);
  memset(g_ev, 0, sizeof g_ev);
  g_t = 1000;
  g_decode_ms = 0;
  g_freeze_from = g_freeze_until = 0;
  g_closed_at = 0;
  g_guest_gone_at = 0;
  g_guest_checks = 0;
  g_held_checks = g_held_checks_failed = 0;
  g_captures = g_log_asks = 0;
  g_overlay = g_log_blind = g_log_must_off = g_no_witness = 0;
  g_witnessed = 0;
  sc__set_clock(fake_now, fake_sleep);
  memset(&g_s, 0, sizeof g_s);
  g_s.regions = g_regions;
  g_s.nregions = 1;
  g_s.guest_w = W;
  g_s.guest_h = H;
  g_s.double_click_ms = 500;
  g_s.notch_spacing_ms = 250;
  g_s.has_park = 1;
  g_s.park = (sc_point){90, 45};
  for (int i = 0; i < 2; i++)
    g_steps[i] = (sc_step){.id = i ? "second" : "first",
                           .action = {.kind = SC_ACTION_CLICK, .at = {20, 20}},
                           .timeout_ms = 2000, .settle_ms = 300, .park = 1,
                           .nexpect = 1, .expect = &g_changed};
  g_s.steps = g_steps;
  g_s.nsteps = 2;
  runner_init(&g_r, &g_rr);
  return 0;
}

static void results_clear(sc_run_result *rr) {
  for (size_t i = 0; i < rr->nresults; i++) {
    sc_step_result *x = rr->results[i];
    sc__free(x->reason);
    sc__free(x->scale_text);
    for (size_t j = 0; j < x->nartifacts; j++) sc__free(x->artifacts[j]);
    sc__free(x->artifacts);
    sc__free(x);
  }
  for (size_t i = 0; i < rr->ndrift; i++) sc__free(rr->drift[i]);
  sc__free(rr->results);
  sc__free(rr->drift);
  sc__free(rr->error);
  rr->results = NULL;
  rr->drift = NULL;
  rr->error = NULL;
  rr->nresults = rr->ndrift = 0;
}

static int teardown(void **st) {
  (void)st;
  sc__runner_clear(&g_r);
  results_clear(&g_rr);
  sc__set_clock(NULL, NULL);
  return 0;
}

/* The steps' expectations changed: plan the captures again. */
static void replan(void) {
  assert_int_equal(sc__runner_plan(&g_r), 0);
}

/* Run step i (0 first, 1 second) alone in cycle `cycle`; its result. */
static const sc_step_result *step(int i, int cycle) {
  size_t before = g_rr.nresults;
  sc__runner_step_once(&g_r, &g_steps[i], (size_t)i, cycle);
  run_loop(1e12);
  assert_int_equal(g_rr.nresults, before + 1);
  return g_rr.results[before];
}

#endif
