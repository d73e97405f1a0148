/* The runner's locate phase: the whole guest captured at rest, the
 * scenario's locators resolved on it (lib/locate), and this user's steps
 * from then on run on the resolved copy. Where each was found goes to the
 * user's result. A locator not found or ambiguous ends the user with the
 * locator's own message. */
#include <string.h>

#include "core/core.h"
#include "locate/locate.h"
#include "runner.h"
#include "scenario/locators.h"

static int record(sc_run_result *rr, sc_located **f, size_t n) {
  sc_located **v = sc__realloc(rr->located, (rr->nlocated + n) * sizeof *v);
  if (!v) return sc__err(SC_ENOMEM, "runner: out of memory");
  rr->located = v;
  memcpy(v + rr->nlocated, f, n * sizeof *f);
  rr->nlocated += n;
  return 0;
}

static void locate_again(sc__runner *r);

static void located(sc__runner *r, int rc) {
  void (*fn)(sc__runner *) = r->after_locate;
  sc_scenario *c = NULL;
  sc_located **f = NULL;
  size_t n = 0;
  sc__locate_miss miss = {-1, 0, {{0, 0, 0, 0}}, {0}, 0};
  if (rc == SC__NOT_AT_REST)
    rc = sc__err(SC_ETIMEDOUT, "locators: the screen did not come to rest to find them on");
  if (rc == 0) rc = sc__frame_pixels(&r->settle.f);
  if (rc == 0) rc = sc__locate(&c, &f, &n, r->scenario, r->settle.f.img, r->cycle, r->interrupt, &miss);
  if (rc < 0 && f) { /* what was found before the failure: not wanted here */
    for (size_t i = 0; i < n; i++) sc__free(f[i]);
    sc__free(f);
    f = NULL;
    n = 0;
  }
  sc__frame_free(&r->settle.f);
  if (rc == SC_ELOCATE && !miss.final && sc__now_ms() + SC__LOCATE_RETRY_MS < r->locate_until) {
    /* not painted yet, perhaps: look again on a later still screen */
    if (sc__runner_after(r, sc__now_ms() + SC__LOCATE_RETRY_MS, locate_again) < 0)
      sc__runner_fail(r, SC_ENOMEM);
    return;
  }
  if (rc == 0 && (rc = record(r->rr, f, n)) < 0) {
    for (size_t i = 0; i < n; i++) sc__free(f[i]);
  }
  sc__free(f);
  if (rc == 0) {
    /* what each step captures follows the regions where they are now */
    sc__runner_plan_free(r);
    sc__located_free(r->resolved);
    r->resolved = c;
    r->s = c;
    c = NULL;
    rc = sc__runner_plan(r);
    /* the next at-rest capture may not start from a frame of the old plan */
    sc__frame_free(&r->last);
  }
  sc__located_free(c);
  r->settle.done = NULL;
  if (rc < 0) {
    sc__runner_fail(r, rc);
    return;
  }
  fn(r);
}

int sc__runner_check_guest(sc__runner *r) {
  const sc_scenario *s = r->scenario ? r->scenario : r->s;
  int w = r->guest_w, h = r->guest_h;
  if (s->guest_w > 0 || w <= 0) return 0; /* the page held the canvas to the scenario's guest */
  for (size_t i = 0; i < s->npoints; i++) {
    sc_point p = s->points[i].p;
    if (!sc__scenario_located(s, 0, i) && !(p.x >= 0 && p.y >= 0 && p.x < w && p.y < h))
      return sc__err(SC_EGEOMETRY, "point \"%s\" (%g, %g) is outside the %dx%d canvas",
                     s->points[i].name, p.x, p.y, w, h);
  }
  if (s->has_park && !(s->park.x >= 0 && s->park.y >= 0 && s->park.x < w && s->park.y < h))
    return sc__err(SC_EGEOMETRY, "park (%g, %g) is outside the %dx%d canvas", s->park.x,
                   s->park.y, w, h);
  for (size_t i = 0; i < s->nregions; i++) {
    sc_rect g = s->regions[i].r;
    if (!sc__scenario_located(s, 1, i) && !sc__rect_within(g, w, h))
      return sc__err(SC_EGEOMETRY, "region \"%s\" (%d,%d %dx%d) is outside the %dx%d canvas",
                     s->regions[i].name, g.x, g.y, g.w, g.h, w, h);
  }
  return 0;
}

static void locate_again(sc__runner *r) {
  const sc_scenario *s = r->scenario;
  sc_rect guest = {0, 0, r->guest_w > 0 ? r->guest_w : s->guest_w,
                   r->guest_h > 0 ? r->guest_h : s->guest_h};
  sc__runner_settle_quiet(r, guest, sc__now_ms() + r->locate_quiet + SC__REST_WAIT_MS,
                          r->locate_quiet, located);
}

void sc__runner_locate(sc__runner *r, double quiet_ms, void (*fn)(sc__runner *r)) {
  if (!r->scenario) r->scenario = r->s;
  r->after_locate = fn;
  r->locate_quiet = quiet_ms;
  r->locate_until = sc__now_ms() + SC__LOCATE_WAIT_MS;
  sc__frame_free(&r->last);
  locate_again(r);
}
