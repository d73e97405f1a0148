/* The runner's locate phase: the whole guest captured at rest, the
 * scenario's locators resolved on it (lib/locate), and this user's steps
 * from then on run on the resolved copy. Where each was found goes to the
 * user's result. A locator not found or ambiguous ends the user with the
 * locator's own message. */
#include <string.h>

#include "core/core.h"
#include "locate/locate.h"
#include "runner.h"

static int record(sc_run_result *rr, sc_located **f, size_t n) {
  sc_located **v = sc__realloc(rr->located, (rr->nlocated + n) * sizeof *v);
  if (!v) return sc__err(SC_ENOMEM, "runner: out of memory");
  rr->located = v;
  memcpy(v + rr->nlocated, f, n * sizeof *f);
  rr->nlocated += n;
  return 0;
}

static void located(sc__runner *r, int rc) {
  void (*fn)(sc__runner *) = r->after_locate;
  sc_scenario *c = NULL;
  sc_located **f = NULL;
  size_t n = 0;
  if (rc == SC__NOT_AT_REST)
    rc = sc__err(SC_ETIMEDOUT, "locators: the screen did not come to rest to find them on");
  if (rc == 0) rc = sc__frame_pixels(&r->settle.f);
  if (rc == 0) rc = sc__locate(&c, &f, &n, r->scenario, r->settle.f.img, r->cycle);
  sc__frame_free(&r->settle.f);
  if (rc == 0 && (rc = record(r->rr, f, n)) < 0) {
    for (size_t i = 0; i < n; i++) sc__free(f[i]);
  }
  sc__free(f);
  if (rc == 0) {
    /* what each step captures follows the regions where they are now */
    sc__free(r->need);
    sc__free(r->keep);
    r->need = NULL;
    r->keep = NULL;
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

void sc__runner_locate(sc__runner *r, double quiet_ms, void (*fn)(sc__runner *r)) {
  if (!r->scenario) r->scenario = r->s;
  const sc_scenario *s = r->scenario;
  sc_rect guest = {0, 0, s->guest_w, s->guest_h};
  double wait = quiet_ms + SC__REST_WAIT_MS;
  r->after_locate = fn;
  sc__frame_free(&r->last);
  sc__runner_settle_quiet(r, guest, sc__now_ms() + wait, quiet_ms, located);
}
