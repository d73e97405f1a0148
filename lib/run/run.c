/* sc_run_scenario (one user on the multi engine), the capture plan,
 * result bookkeeping and freeing. */
#include <stdio.h>
#include <string.h>

#include "browser/handle.h"
#include "core/core.h"
#include "engine.h"
#include "runner.h"
#include "core/opts.h"

/* What each step must capture: the regions its expectations name, plus the
 * regions later steps compare with this step's snapshot. */
static long area(sc_rect r) { return (long)r.w * (long)r.h; }

/* What the paint log's verdict capture of step i covers: its own regions
 * and, when the bounding box wastes no more than the two apart would
 * cost, what the next capture will need (the next step's at-rest capture
 * before its gesture; after the last step, every region: the drift check
 * and the next cycle's start). That capture is then proven for the next
 * need too, and seeds it when the log shows no paint there since (no
 * second screenshot). */
static void plan_captures(const sc_rect *need, sc_rect *cap, const sc_rect *before,
                          const sc_scenario *s, size_t n) {
  sc_rect all = {0, 0, 0, 0};
  for (size_t i = 0; i < s->nregions; i++) all = sc__rect_union(all, s->regions[i].r);
  for (size_t i = 0; i < n; i++) {
    int last_setup = i + 1 == s->nsetup, last = i + 1 == n;
    sc_rect next = last_setup || last ? all : before[i + 1];
    sc_rect u = sc__rect_union(need[i], next);
    cap[i] = need[i].w > 0 && next.w > 0 && area(u) <= area(need[i]) + area(next) ? u : need[i];
  }
}

/* Does the verdict of this kind compare with the at-rest capture before
 * the gesture? (equals, stable, colour and text are judged on the
 * capture alone; "before" only dates their first change) */
static int needs_before(sc_expect_kind k) {
  return k == SC_EXPECT_CHANGED || k == SC_EXPECT_UNCHANGED || k == SC_EXPECT_SCALE;
}

int sc__runner_plan(sc__runner *r) {
  const sc_scenario *s = r->s;
  size_t n = s->nsetup + s->nsteps;
  sc__runner_plan_free(r); /* a plan made again (the regions moved) */
  sc__runner_rest(r);      /* set up once: its strategy outlives the plan */
  /* need, then capture clips, then the at-rest captures before gestures */
  r->need = sc__calloc(n ? 3 * n : 1, sizeof *r->need);
  r->keep = sc__calloc(n ? n : 1, 1);
  r->cover = sc__calloc(n ? n : 1, 1);
  r->capture_at = sc__calloc(n ? n : 1, sizeof *r->capture_at);
  r->last_cover = r->seed_cover = 0;
  if (!r->need || !r->keep || !r->cover || !r->capture_at) return sc__err(SC_ENOMEM, "runner: out of memory");
  int rc = r->prep ? 0 : sc__judge_prep_new(&r->prep, s);
  if (rc < 0) return rc;
  sc_rect *before = r->need + 2 * n;
  for (size_t i = 0; i < n; i++) {
    const sc_step *st = i < s->nsetup ? &s->setup[i] : &s->steps[i - s->nsetup];
    for (size_t e = 0; e < st->nexpect; e++) {
      const sc_expect *x = &st->expect[e];
      r->need[i] = sc__rect_union(r->need[i], s->regions[x->region].r);
      if (needs_before(x->kind)) before[i] = sc__rect_union(before[i], s->regions[x->region].r);
      if (x->kind == SC_EXPECT_EQUALS && x->snapshot && strcmp(x->snapshot, "start") != 0) {
        for (size_t j = 0; j < n; j++) {
          const sc_step *o = j < s->nsetup ? &s->setup[j] : &s->steps[j - s->nsetup];
          if (!strcmp(o->id, x->snapshot)) {
            r->need[j] = sc__rect_union(r->need[j], s->regions[x->region].r);
            before[j] = sc__rect_union(before[j], s->regions[x->region].r);
            r->keep[j] = 1;
          }
        }
      }
    }
  }
  /* A step none of whose verdicts compares with the screen before it is
   * still captured at rest before its gesture (the log counts its news
   * from there): over all its regions, as before this plan. */
  for (size_t i = 0; i < n; i++)
    if (before[i].w <= 0) before[i] = r->need[i];
  plan_captures(r->need, r->need + n, before, s, n);
  return 0;
}

void sc__runner_plan_free(sc__runner *r) {
  sc__free(r->need);
  sc__free(r->keep);
  sc__free(r->cover);
  sc__free(r->capture_at);
  r->need = NULL;
  r->keep = NULL;
  r->cover = NULL;
  r->capture_at = NULL;
  r->last_cover = r->seed_cover = 0;
}

/* A step stops covering when its covering captures went unused twice more
 * often than used (the score starts at 0, a use counts up to 2). */
#define COVER_MAX 2
#define COVER_OFF (-2)

int sc__runner_covering(const sc__runner *r, size_t ni) {
  return r->cover && r->cover[ni] > COVER_OFF;
}

void sc__runner_cover_used(sc__runner *r, int used) {
  size_t i = r->seed_cover;
  r->seed_cover = 0;
  if (!i || !r->cover) return;
  signed char *c = &r->cover[i - 1];
  if (used && *c < COVER_MAX) ++*c;
  else if (!used && *c > COVER_OFF) --*c;
}

void sc__step_result_free(sc_step_result *x) {
  if (!x) return;
  sc__free(x->reason);
  sc__free(x->scale_text);
  for (size_t j = 0; j < x->nartifacts; j++) sc__free(x->artifacts[j]);
  sc__free(x->artifacts);
  sc__free(x);
}

int sc__result_push(sc_run_result *rr, sc_step_result *res) {
  sc_step_result **n = sc__realloc(rr->results, (rr->nresults + 1) * sizeof *n);
  if (!n) {
    sc__step_result_free(res);
    return sc__err(SC_ENOMEM, "runner: out of memory");
  }
  rr->results = n;
  n[rr->nresults++] = res;
  if (res->passed)
    rr->steps_passed++;
  else
    rr->steps_failed++;
  return 0;
}

int sc__result_drift(sc_run_result *rr, int cycle, const char *region, long pixels) {
  sc_drift **d = sc__realloc(rr->drift, (rr->ndrift + 1) * sizeof *d);
  if (!d) return sc__err(SC_ENOMEM, "runner: out of memory");
  rr->drift = d;
  if (!(d[rr->ndrift] = sc__malloc(sizeof **d))) return sc__err(SC_ENOMEM, "runner: out of memory");
  *d[rr->ndrift++] = (sc_drift){cycle, region, pixels};
  return 0;
}

SC_EXTERN void sc_run_page_options(sc_page_options *out, const sc_scenario *s) {
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  if (!out) return;
  if (!s) {
    *out = po;
    return;
  }
  po.viewport_w = s->viewport_w;
  po.viewport_h = s->viewport_h;
  po.guest_w = s->guest_w;
  po.guest_h = s->guest_h;
  po.wheel_delta = s->wheel_delta;
  po.notch_spacing_ms = s->notch_spacing_ms;
  po.canvas_selector = s->canvas; /* borrowed: lives as long as s */
  *out = po;
}

/* How often a run with a cancel flag looks at it (a signal also wakes the
 * loop's poll at once). */
#define SC__CANCEL_POLL_MS 200.0

typedef struct progress_fwd {
  const sc_run_options *o;
  int cycles;
} progress_fwd;

static void forward_step(const sc_run_result *user, const sc_step_result *res, void *ud) {
  (void)user;
  progress_fwd *f = ud;
  if (f->o->progress) f->o->progress(res, f->cycles, f->o->userdata);
}

SC_EXTERN int sc_run_scenario(sc_run_result **out, const sc_scenario *s,
                              const sc_run_options *opts) {
  if (!out) return sc__err(SC_EINVAL, "sc_run_scenario: out is NULL");
  *out = NULL;
  sc_run_options o;
  if (sc__run_options_read(&o, opts, "sc_run_scenario")) return SC_EINVAL;
  opts = &o;
  if (!s) return sc__err(SC_EINVAL, "sc_run_scenario: no scenario");
  if (opts->cycles < 1) return sc__err(SC_EINVAL, "sc_run_scenario: cycles %d < 1", opts->cycles);
  if (opts->pass_frames_bytes < 0)
    return sc__err(SC_EINVAL, "sc_run_scenario: pass_frames_bytes %lld < 0",
                   opts->pass_frames_bytes);
  if (opts->pass_frames_guest && opts->pass_frames_bytes <= 0)
    return sc__err(SC_EINVAL, "sc_run_scenario: pass_frames_guest needs pass_frames_bytes > 0");
  if (opts->pass_frames_bytes > 0 && !opts->report_dir)
    return sc__err(SC_EINVAL, "sc_run_scenario: pass_frames_bytes needs a report_dir");
  volatile int *cancel = opts->cancel;
  progress_fwd fwd = {opts, opts->cycles};
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.cycles = fwd.cycles;
  mo.report_dir = opts->report_dir;
  mo.fast_capture = opts->fast_capture;
  mo.on_step = forward_step;
  mo.userdata = &fwd;
  sc_browser *own = NULL;
  sc_multi *m = NULL;
  int rc = sc_multi_new(&m, s, &mo);
  if (rc == 0) sc__multi_interrupt(m, cancel);
  sc__frames_budget frames = {opts->pass_frames_bytes, 0, 0, opts->pass_frames_guest != 0};
  if (rc == 0) sc__multi_pass_frames(m, &frames);
  /* a cancel while the browser comes up ends the run then, not after */
  if (rc == 0 && !opts->page && !opts->browser)
    rc = sc__browser_launch_cancel(&own, opts->browser_options, cancel);
  if (rc == 0)
    rc = opts->page ? sc__multi_add_page(m, opts->page, NULL, opts->url)
                    : sc_multi_add(m, opts->browser ? opts->browser : own, opts->url, NULL);
  if (rc >= 0) {
    int canceled = 0;
    while ((rc = sc_multi_perform(m, cancel ? SC__CANCEL_POLL_MS : 1000)) > 0)
      if (cancel && *cancel && !canceled) {
        sc_multi_cancel(m, 0, "interrupted");
        canceled = 1;
      }
  }
  sc_run_result *rr = NULL;
  if (rc == 0) {
    rc = sc__multi_user_rc(m, 0);
    rr = sc_multi_take(m, 0);
    if (rc < 0) sc__err(rc, "%s", rr && rr->error ? rr->error : sc_strerror(rc));
  }
  if (!rr && rc < 0) { /* nothing ran: still a result that says why */
    sc__errsave e;
    sc__err_save(&e);
    rr = sc__calloc(1, sizeof *rr);
    if (rr) {
      rr->scenario = s;
      rr->ready_ms = -1;
      rr->cycles = fwd.cycles;
      rr->error = sc__strdup(e.msg);
      rr->error_code = rc;
      const char *url = opts->url || opts->page ? opts->url : s->url;
      rr->url = url ? sc__strdup(url) : NULL;
    }
    sc__err_restore(&e, rc);
  }
  sc__errsave keep;
  sc__err_save(&keep);
  sc_multi_free(m);
  sc_browser_free(own);
  *out = rr;
  return rc < 0 ? sc__err_restore(&keep, rc) : 0;
}

SC_EXTERN void sc_run_result_free(sc_run_result *r) {
  if (!r) return;
  for (size_t i = 0; i < r->nresults; i++) sc__step_result_free(r->results[i]);
  for (size_t i = 0; i < r->ndrift; i++) sc__free(r->drift[i]);
  for (size_t i = 0; i < r->nlocated; i++) sc__free(r->located[i]);
  sc__free(r->located);
  sc__free(r->results);
  sc__free(r->drift);
  sc__free(r->error);
  sc__free((char *)r->user_name);
  sc__free((char *)r->url);
  sc__free(r);
}

/* A version's end is the end of its last field, not the offset of the
 * next: a 32-bit caller's version-2 struct may end before the 8-aligned
 * pass_frames_bytes. */
SC__OPTS_DEFINE(run_options, SC_RUN_OPTIONS_INIT,
                 offsetof(sc_run_options, cancel),
                 offsetof(sc_run_options, cancel) + sizeof(volatile int *),
                 offsetof(sc_run_options, pass_frames_bytes) + sizeof(long long),
                 sizeof(sc_run_options))
