/* sc_run_scenario: browser, page, setup, cycles, drift; result bookkeeping. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "runner.h"

/* What each step must capture: the regions its expectations name, plus the
 * regions later steps compare with this step's snapshot. */
int sc__runner_plan(sc__runner *r) {
  const sc_scenario *s = r->s;
  size_t n = s->nsetup + s->nsteps;
  r->need = sc__calloc(n ? n : 1, sizeof *r->need);
  if (!r->need) return sc__err(SC_ENOMEM, "runner: out of memory");
  for (size_t i = 0; i < n; i++) {
    const sc_step *st = i < s->nsetup ? &s->setup[i] : &s->steps[i - s->nsetup];
    for (size_t e = 0; e < st->nexpect; e++) {
      const sc_expect *x = &st->expect[e];
      r->need[i] = sc__rect_union(r->need[i], s->regions[x->region].r);
      if (x->kind == SC_EXPECT_EQUALS && x->snapshot && strcmp(x->snapshot, "start") != 0) {
        for (size_t j = 0; j < n; j++) {
          const sc_step *o = j < s->nsetup ? &s->setup[j] : &s->steps[j - s->nsetup];
          if (!strcmp(o->id, x->snapshot))
            r->need[j] = sc__rect_union(r->need[j], s->regions[x->region].r);
        }
      }
    }
  }
  return 0;
}

static sc_rect all_regions(const sc_scenario *s) {
  sc_rect u = {0, 0, 0, 0};
  for (size_t i = 0; i < s->nregions; i++) u = sc__rect_union(u, s->regions[i].r);
  return u;
}

static int push_result(sc_run_result *rr, sc_step_result *res) {
  sc_step_result **n = sc__realloc(rr->results, (rr->nresults + 1) * sizeof *n);
  if (!n) return sc__err(SC_ENOMEM, "runner: out of memory");
  rr->results = n;
  if (!(n[rr->nresults] = sc__malloc(sizeof **n))) return sc__err(SC_ENOMEM, "runner: out of memory");
  *n[rr->nresults++] = *res;
  if (res->passed)
    rr->steps_passed++;
  else
    rr->steps_failed++;
  return 0;
}

/* The cycle's start: no snapshot of an earlier cycle survives it, and the
 * snapshot named "start" is taken at rest with the pointer parked. When the
 * screen does not come to rest there is no "start": what compares with it
 * fails ("no snapshot start") instead of comparing with a moving picture. */
int sc__runner_cycle_start(sc__runner *r, const sc_step *first) {
  const sc_scenario *s = r->s;
  sc__runner_snaps_clear(r);
  if (s->has_park) {
    int rc = r->io.move(r->io.ctx, s->park);
    if (rc < 0) return rc;
  }
  sc__frame f = {0};
  int rc = sc__runner_capture_settled(r, &f, all_regions(s),
                                      sc__now_ms() + (first ? first->timeout_ms : 8000));
  if (rc == 0) rc = sc__runner_snap_put(r, "start", &f);
  sc__frame_free(&f);
  return rc < 0 ? rc : 0;
}

static int add_drift(sc_run_result *rr, int cycle, const char *region, long pixels) {
  sc_drift **d = sc__realloc(rr->drift, (rr->ndrift + 1) * sizeof *d);
  if (!d) return sc__err(SC_ENOMEM, "runner: out of memory");
  rr->drift = d;
  if (!(d[rr->ndrift] = sc__malloc(sizeof **d))) return sc__err(SC_ENOMEM, "runner: out of memory");
  *d[rr->ndrift++] = (sc_drift){cycle, region, pixels};
  return 0;
}

/* After a cycle: every drift region compared with the cycle's start. */
static int check_drift(sc__runner *r, sc_run_result *rr, int cycle) {
  const sc_scenario *s = r->s;
  if (s->drift == SC_DRIFT_OFF) return 0;
  if (s->has_park) {
    int rc = r->io.move(r->io.ctx, s->park);
    if (rc < 0) return rc;
  }
  sc__frame f = {0};
  int rc = sc__runner_capture_settled(r, &f, all_regions(s), sc__now_ms() + 8000);
  if (rc < 0) return rc;
  /* Not at rest at the end, or no "start" to compare with: a region that
   * cannot be compared is reported (pixels -1), never taken as no drift. */
  const sc__frame *start = sc__runner_snap_get(r, "start");
  int comparable = rc == 0 && start;
  rc = 0;
  size_t n = s->ndrift ? s->ndrift : s->nregions;
  for (size_t i = 0; i < n && rc == 0; i++) {
    const sc_region *reg = &s->regions[s->ndrift ? (size_t)s->drift_regions[i] : i];
    sc_rect a, b;
    size_t diff = 0;
    sc_diff_options dopt = SC_DIFF_OPTIONS_INIT;
    dopt.threshold = s->drift_threshold;
    if (!comparable || sc__frame_sub(start, reg->r, &a) < 0 || sc__frame_sub(&f, reg->r, &b) < 0 ||
        sc_image_diff(&diff, NULL, NULL, start->img, a, f.img, b, &dopt) < 0)
      rc = add_drift(rr, cycle, reg->name, -1);
    else if ((long)diff > s->drift_max_pixels)
      rc = add_drift(rr, cycle, reg->name, (long)diff);
  }
  sc__frame_free(&f);
  return rc;
}

static int run_steps(sc__runner *r, sc_run_result *rr, int cycles) {
  const sc_scenario *s = r->s;
  const sc_run_options *o = r->o;
  int rc = 0;
  for (size_t i = 0; i < s->nsetup && rc == 0; i++) {
    sc_step_result res;
    rc = sc__runner_step(r, &res, &s->setup[i], i, 0);
    res.setup = 1;
    if (push_result(rr, &res) < 0) return SC_ENOMEM;
    if (o->progress) o->progress(&res, cycles, o->userdata);
    if (!res.passed && rc == 0) return 0; /* the app is not where the cycle expects it */
  }
  for (int c = 1; c <= cycles && rc == 0; c++) {
    if ((rc = sc__runner_cycle_start(r, s->nsteps ? &s->steps[0] : NULL)) < 0) break;
    for (size_t i = 0; i < s->nsteps && rc == 0; i++) {
      sc_step_result res;
      rc = sc__runner_step(r, &res, &s->steps[i], s->nsetup + i, c);
      if (push_result(rr, &res) < 0) return SC_ENOMEM;
      if (o->progress) o->progress(&res, cycles, o->userdata);
    }
    if (rc == 0) rc = check_drift(r, rr, c);
  }
  return rc;
}

SC_EXTERN void sc_run_page_options(sc_page_options *out, const sc_scenario *s) {
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  po.viewport_w = s->viewport_w;
  po.viewport_h = s->viewport_h;
  po.guest_w = s->guest_w;
  po.guest_h = s->guest_h;
  po.wheel_delta = s->wheel_delta;
  po.notch_spacing_ms = s->notch_spacing_ms;
  *out = po;
}

SC_EXTERN int sc_run_scenario(sc_run_result **out, const sc_scenario *s,
                              const sc_run_options *opts) {
  *out = NULL;
  sc_run_options def = SC_RUN_OPTIONS_INIT;
  if (!opts) opts = &def;
  if (!s) return sc__err(SC_EINVAL, "sc_run_scenario: no scenario");
  if (opts->version != SC_RUN_OPTIONS_VERSION)
    return sc__err(SC_EINVAL, "sc_run_scenario: options version %u, want %u", opts->version,
                   SC_RUN_OPTIONS_VERSION);
  sc_run_result *rr = sc__calloc(1, sizeof *rr);
  if (!rr) return sc__err(SC_ENOMEM, "runner: out of memory");
  rr->scenario = s;
  rr->cycles = opts->cycles > 0 ? opts->cycles : 1;
  *out = rr;

  sc__runner r = {0};
  r.s = s;
  r.o = opts;
  sc_browser *b = opts->browser, *own = NULL;
  sc_page *page = NULL, *use = opts->page;
  int rc = sc__runner_plan(&r);
  if (rc == 0 && !use && !b) {
    rc = sc_browser_launch(&own, opts->browser_options);
    b = own;
  }
  if (rc == 0 && !use) {
    sc_page_options po;
    sc_run_page_options(&po, s);
    rc = sc_page_open(&page, b, opts->url ? opts->url : s->url, &po);
    use = page;
  }
  if (rc == 0) {
    r.io = sc__runner_page_io(use);
    rc = run_steps(&r, rr, rr->cycles);
  }
  if (rc < 0) rr->error = sc__strdup(sc_errmsg());
  sc__errsave keep;
  sc__err_save(&keep);
  sc__runner_clear(&r);
  sc_page_free(page);
  sc_browser_free(own);
  int drift_fail = s->drift == SC_DRIFT_FAIL && rr->ndrift > 0;
  rr->passed = rc == 0 && rr->steps_failed == 0 && rr->nresults > 0 && !drift_fail;
  if (rc < 0) sc__err_restore(&keep, rc);
  return rc;
}

SC_EXTERN void sc_run_result_free(sc_run_result *r) {
  if (!r) return;
  for (size_t i = 0; i < r->nresults; i++) {
    sc_step_result *x = r->results[i];
    sc__free(x->reason);
    sc__free(x->scale_text);
    for (size_t j = 0; j < x->nartifacts; j++) sc__free(x->artifacts[j]);
    sc__free(x->artifacts);
    sc__free(x);
  }
  for (size_t i = 0; i < r->ndrift; i++) sc__free(r->drift[i]);
  sc__free(r->results);
  sc__free(r->drift);
  sc__free(r->error);
  sc__free(r);
}
