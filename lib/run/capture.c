/* The runner's captures: rect geometry, replies, requests, the seed of an
 * at-rest capture, named snapshots (held packed; checks unpack the regions
 * they compare) and baseline images. Rest is proven by the rest object
 * (lib/rest), which settle.c drives. */
#include <string.h>

#include "core/core.h"
#include "locate/locate.h"
#include "runner.h"

sc_rect sc__rect_union(sc_rect a, sc_rect b) {
  if (a.w <= 0 || a.h <= 0) return b;
  if (b.w <= 0 || b.h <= 0) return a;
  int x0 = a.x < b.x ? a.x : b.x, y0 = a.y < b.y ? a.y : b.y;
  int x1 = a.x + a.w > b.x + b.w ? a.x + a.w : b.x + b.w;
  int y1 = a.y + a.h > b.y + b.h ? a.y + a.h : b.y + b.h;
  return (sc_rect){x0, y0, x1 - x0, y1 - y0};
}

int sc__rect_covers(sc_rect a, sc_rect b) {
  return b.x >= a.x && b.y >= a.y && b.x + b.w <= a.x + a.w && b.y + b.h <= a.y + a.h;
}

int sc__runner_reply(sc__runner *r, int status, const char *errmsg) {
  r->pending = 0;
  double took = sc__now_ms() - r->io_asked_at; /* for step.c's stall rule */
  if (r->io_asked_at > 0 && took > r->io_slowest) r->io_slowest = took;
  if (r->canceled) return sc__err(SC_ECANCELED, "canceled: %s", r->cancel_why);
  if (status) return sc__err(status, "%s", errmsg ? errmsg : sc_strerror(status));
  return 0;
}

/* A request's own deadline: what is left until `until`, plus the grace. */
static double io_deadline(sc__runner *r, double until) {
  r->io_asked_at = sc__now_ms();
  double left = until - r->io_asked_at;
  return (left > 0 ? left : 0) + SC__CAPTURE_GRACE_MS;
}

int sc__runner_capture(sc__runner *r, sc_rect clip, double until, sc__io_captured cb) {
  int rc = r->io.capture(r->io.ctx, clip, r->fast_capture, io_deadline(r, until), cb, r);
  if (rc == 0) r->pending = 1;
  return rc;
}

void sc__runner_seed(sc__runner *r, sc__frame *out, sc_rect clip) {
  *out = r->last;
  r->last = (sc__frame){0};
  /* proven settled at a log position only as it was captured, not composed */
  r->seed_ok = r->last_seq_ok && sc__frame_has(out) && sc__rect_covers(out->clip, clip);
  r->seed_seq = r->last_seq;
  r->last_seq_ok = 0;
  r->seed_cover = r->seed_ok ? r->last_cover : 0;
  r->last_cover = 0;
  if (!sc__frame_has(out) || sc__rect_covers(out->clip, clip)) return;
  const sc__frame *start = sc__runner_snap_get(r, "start");
  sc_image *img = NULL;
  if (start && sc__rect_covers(start->clip, clip) &&
      sc__frame_compose(&img, start, out, clip) == 0) {
    sc__frame_free(out);
    out->img = img;
    out->clip = clip;
  }
}

int sc__runner_snap_put(sc__runner *r, const char *name, const sc__frame *f) {
  sc__snap *sn = NULL;
  for (size_t i = 0; i < r->nsnaps && !sn; i++)
    if (!strcmp(r->snaps[i].name, name)) sn = &r->snaps[i];
  if (!sn) {
    sc__snap *n = sc__realloc(r->snaps, (r->nsnaps + 1) * sizeof *n);
    if (!n) return sc__err(SC_ENOMEM, "runner: out of memory");
    r->snaps = n;
    sn = &n[r->nsnaps];
    *sn = (sc__snap){0};
    sn->name = sc__strdup(name);
    if (!sn->name) return sc__err(SC_ENOMEM, "runner: out of memory");
    r->nsnaps++;
  }
  sc__frame_free(&sn->f);
  sn->f.clip = f->clip;
  return f->pk.data ? sc__packed_dup(&sn->f.pk, &f->pk) : sc__pack(&sn->f.pk, f->img);
}

const sc__frame *sc__runner_snap_get(void *ud, const char *name) {
  sc__runner *r = ud;
  for (size_t i = 0; i < r->nsnaps; i++)
    if (!strcmp(r->snaps[i].name, name))
      return sc__frame_has(&r->snaps[i].f) ? &r->snaps[i].f : NULL;
  return NULL;
}

const sc_image *sc__runner_baseline(void *ud, const char *path) {
  sc__runner *r = ud;
  for (size_t i = 0; i < r->nbaselines; i++)
    if (!strcmp(r->baselines[i].path, path)) return r->baselines[i].img;
  sc_image *img = NULL;
  if (sc_image_load_png(&img, path, NULL) < 0) return NULL;
  sc__baseline *n = sc__realloc(r->baselines, (r->nbaselines + 1) * sizeof *n);
  if (!n) {
    sc_image_free(img);
    return NULL;
  }
  r->baselines = n;
  n[r->nbaselines].path = sc__strdup(path);
  if (!n[r->nbaselines].path) {
    sc_image_free(img);
    return NULL;
  }
  n[r->nbaselines].img = img;
  r->nbaselines++;
  return img;
}

void sc__runner_snaps_clear(sc__runner *r) {
  for (size_t i = 0; i < r->nsnaps; i++) {
    sc__free(r->snaps[i].name);
    sc__frame_free(&r->snaps[i].f);
  }
  r->nsnaps = 0;
}

void sc__runner_clear(sc__runner *r) {
  if (r->timer && r->io.cancel) r->io.cancel(r->io.ctx, r->timer);
  r->timer = 0;
  sc_image_free(r->guest_before);
  r->guest_before = NULL;
  sc__frame_free(&r->settle.f);
  sc__frame_free(&r->last);
  sc__rest_clear(&r->rest);
  sc__runner_snaps_clear(r);
  sc__free(r->snaps);
  for (size_t i = 0; i < r->nbaselines; i++) {
    sc__free(r->baselines[i].path);
    sc_image_free(r->baselines[i].img);
  }
  sc__free(r->baselines);
  sc__runner_plan_free(r);
  sc__judge_prep_free(r->prep);
  if (r->scenario) r->s = r->scenario;
  sc__located_free(r->resolved);
  r->resolved = NULL;
  r->prep = NULL;
  r->keep = NULL;
  r->snaps = NULL;
  r->baselines = NULL;
  r->need = NULL;
  r->nsnaps = r->nbaselines = 0;
}
