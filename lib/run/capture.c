/* Captures for judging: single, and "settled" (two identical in a row);
 * named snapshots and baseline images. */
#include <string.h>

#include "core/core.h"
#include "runner.h"

sc_rect sc__rect_union(sc_rect a, sc_rect b) {
  if (a.w <= 0 || a.h <= 0) return b;
  if (b.w <= 0 || b.h <= 0) return a;
  int x0 = a.x < b.x ? a.x : b.x, y0 = a.y < b.y ? a.y : b.y;
  int x1 = a.x + a.w > b.x + b.w ? a.x + a.w : b.x + b.w;
  int y1 = a.y + a.h > b.y + b.h ? a.y + a.h : b.y + b.h;
  return (sc_rect){x0, y0, x1 - x0, y1 - y0};
}

static int same_bytes(const sc__frame *k, sc_rect clip, const char *raw, size_t len) {
  return k && k->raw && k->img && k->rawlen == len && !memcmp(&k->clip, &clip, sizeof clip) &&
         !memcmp(k->raw, raw, len);
}

int sc__runner_capture(sc__runner *r, sc__frame *f, sc_rect clip, double *ms, double *reply,
                       const sc__frame *prev, int *same, const sc__frame *also) {
  double t0 = sc__now_ms();
  char *b64 = NULL;
  size_t len = 0;
  if (same) *same = 0;
  int rc = r->io.capture(r->io.ctx, &b64, &len, clip, r->o->fast_capture);
  if (rc < 0) return rc;
  if (reply) *reply = sc__now_ms();
  sc_image *img = NULL;
  const sc__frame *known = same_bytes(prev, clip, b64, len)   ? prev
                           : same_bytes(also, clip, b64, len) ? also
                                                               : NULL;
  if (known) {
    /* Same bytes, same pixels: copy instead of decoding. */
    rc = sc_image_crop(&img, known->img, (sc_rect){0, 0, known->img->width, known->img->height});
    if (same && rc == 0 && known == prev) *same = 1;
  } else {
    rc = r->io.decode(r->io.ctx, &img, b64, len, clip);
  }
  if (rc < 0) {
    sc__free(b64);
    return rc;
  }
  sc__frame_free(f);
  f->img = img;
  f->clip = clip;
  f->raw = b64;
  f->rawlen = len;
  if (ms) *ms = sc__now_ms() - t0;
  return 0;
}

int sc__runner_capture_settled(sc__runner *r, sc__frame *f, sc_rect clip, double deadline) {
  sc__frame prev = {0};
  int rc, same = 0;
  for (;;) {
    rc = sc__runner_capture(r, f, clip, NULL, NULL, &prev, &same, NULL);
    if (rc < 0) break;
    if (prev.img && (same || sc__frame_equal(&prev, f, clip))) break;
    if (sc__now_ms() >= deadline) {
      rc = SC__NOT_AT_REST;
      break;
    }
    sc__frame_move(&prev, f);
  }
  sc__frame_free(&prev);
  return rc;
}

int sc__runner_snap_put(sc__runner *r, const char *name, sc__frame *f) {
  for (size_t i = 0; i < r->nsnaps; i++)
    if (!strcmp(r->snaps[i].name, name)) {
      sc__frame_move(&r->snaps[i].f, f);
      return 0;
    }
  sc__snap *n = sc__realloc(r->snaps, (r->nsnaps + 1) * sizeof *n);
  if (!n) return sc__err(SC_ENOMEM, "runner: out of memory");
  r->snaps = n;
  n[r->nsnaps].name = sc__strdup(name);
  if (!n[r->nsnaps].name) return sc__err(SC_ENOMEM, "runner: out of memory");
  n[r->nsnaps].f = (sc__frame){0};
  sc__frame_move(&n[r->nsnaps].f, f);
  r->nsnaps++;
  return 0;
}

const sc__frame *sc__runner_snap_get(void *ud, const char *name) {
  sc__runner *r = ud;
  for (size_t i = 0; i < r->nsnaps; i++)
    if (!strcmp(r->snaps[i].name, name)) return &r->snaps[i].f;
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
  sc__runner_snaps_clear(r);
  sc__free(r->snaps);
  for (size_t i = 0; i < r->nbaselines; i++) {
    sc__free(r->baselines[i].path);
    sc_image_free(r->baselines[i].img);
  }
  sc__free(r->baselines);
  sc__free(r->need);
  r->snaps = NULL;
  r->baselines = NULL;
  r->need = NULL;
  r->nsnaps = r->nbaselines = 0;
}
