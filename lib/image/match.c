/* Template matching for locators, and making templates of one colour on a
 * varying background (sc_image_keep_color). Every position inside a search
 * rectangle is tried, checking the template's most distinctive pixels first
 * and giving up on a position as soon as it has more misses than allowed,
 * so a wrong position costs a few pixel reads and a search over a whole
 * 1600x900 guest stays in the milliseconds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "image_priv.h"

/* Positions that match before the search says "ambiguous, anywhere". */
#define SC__MATCH_CAP 4096

typedef struct tpx {
  int dx, dy;
  uint8_t r, g, b;
  int rank; /* distance from the template's mean colour: larger first */
} tpx;

static int by_rank(const void *a, const void *b) {
  const tpx *p = a, *q = b;
  if (p->rank != q->rank) return q->rank - p->rank;
  if (p->dy != q->dy) return p->dy - q->dy;
  return p->dx - q->dx;
}

/* The template's opaque pixels, most distinctive first. */
static tpx *order_pixels(const sc_image *tpl, size_t *n) {
  size_t cap = (size_t)tpl->width * (size_t)tpl->height, k = 0;
  tpx *v = sc__malloc((cap ? cap : 1) * sizeof *v);
  if (!v) return NULL;
  long sr = 0, sg = 0, sb = 0;
  for (int y = 0; y < tpl->height; y++)
    for (int x = 0; x < tpl->width; x++) {
      const uint8_t *p = tpl->px + (size_t)y * tpl->stride + (size_t)x * 4;
      if (p[3] < 128) continue;
      v[k] = (tpx){x, y, p[0], p[1], p[2], 0};
      sr += p[0], sg += p[1], sb += p[2];
      k++;
    }
  if (k) {
    int mr = (int)(sr / (long)k), mg = (int)(sg / (long)k), mb = (int)(sb / (long)k);
    for (size_t i = 0; i < k; i++)
      v[i].rank = abs(v[i].r - mr) + abs(v[i].g - mg) + abs(v[i].b - mb);
    qsort(v, k, sizeof *v, by_rank);
  }
  *n = k;
  return v;
}

static int near(const uint8_t *p, const tpx *t, int tol) {
  return abs(p[0] - t->r) <= tol && abs(p[1] - t->g) <= tol && abs(p[2] - t->b) <= tol;
}

static int better(const sc_match *a, const sc_match *b) {
  if (a->score != b->score) return a->score > b->score;
  if (a->y != b->y) return a->y < b->y;
  return a->x < b->x;
}

static int by_quality(const void *a, const void *b) {
  const sc_match *p = a, *q = b;
  return better(p, q) ? -1 : better(q, p) ? 1 : 0;
}

SC_EXTERN int sc_image_find(sc_match *out, int max, const sc_image *img, const sc_image *tpl,
                            sc_rect within, int tol, double min_score) {
  if (!img || !tpl) return sc__err(SC_EINVAL, "sc_image_find: image and template are required");
  if (max > 0 && !out) return sc__err(SC_EINVAL, "sc_image_find: out is NULL");
  if (tol < 0 || tol > 255 || !(min_score > 0 && min_score <= 1))
    return sc__err(SC_EINVAL, "sc_image_find: tol must be 0..255 and min_score in (0, 1]");
  if (within.w <= 0 || within.h <= 0) within = (sc_rect){0, 0, img->width, img->height};
  int x0 = within.x < 0 ? 0 : within.x, y0 = within.y < 0 ? 0 : within.y;
  long wx1 = (long)within.x + within.w, wy1 = (long)within.y + within.h; /* no int overflow */
  int x1 = wx1 > img->width ? img->width : (int)wx1;
  int y1 = wy1 > img->height ? img->height : (int)wy1;
  size_t n = 0;
  tpx *t = order_pixels(tpl, &n);
  if (!t) return sc__err(SC_ENOMEM, "sc_image_find: out of memory");
  if (n == 0) {
    sc__free(t);
    return sc__err(SC_EINVAL, "sc_image_find: the template has no opaque pixel");
  }
  size_t allowed = (size_t)floor((1.0 - min_score) * (double)n + 1e-9);
  sc_match *hit = NULL;
  size_t nhit = 0, cap = 0;
  int rc = 0;
  for (int y = y0; y + tpl->height <= y1 && rc == 0; y++)
    for (int x = x0; x + tpl->width <= x1; x++) {
      const uint8_t *base = img->px + (size_t)y * img->stride + (size_t)x * 4;
      size_t miss = 0, i = 0;
      for (; i < n && miss <= allowed; i++)
        miss += !near(base + (size_t)t[i].dy * img->stride + (size_t)t[i].dx * 4, &t[i], tol);
      if (miss > allowed) continue;
      if (nhit == SC__MATCH_CAP) {
        rc = sc__err(SC_ETOOBIG, "sc_image_find: the %dx%d template matches at more than %d "
                     "positions", tpl->width, tpl->height, SC__MATCH_CAP);
        break;
      }
      if (nhit == cap) {
        size_t nc = cap ? cap * 2 : 16;
        sc_match *g = sc__realloc(hit, nc * sizeof *g);
        if (!g) {
          rc = sc__err(SC_ENOMEM, "sc_image_find: out of memory");
          break;
        }
        hit = g, cap = nc;
      }
      hit[nhit++] = (sc_match){x, y, (double)(n - miss) / (double)n};
    }
  sc__free(t);
  if (rc < 0) {
    sc__free(hit);
    return rc;
  }
  /* Best first; a hit overlapping a kept (better) one is the same place. */
  if (nhit) qsort(hit, nhit, sizeof *hit, by_quality);
  size_t kept = 0;
  for (size_t i = 0; i < nhit; i++) {
    int same = 0;
    for (size_t j = 0; j < kept && !same; j++)
      same = abs(hit[i].x - hit[j].x) < tpl->width && abs(hit[i].y - hit[j].y) < tpl->height;
    if (!same) hit[kept++] = hit[i];
  }
  for (size_t i = 0; i < kept && (int)i < max; i++) out[i] = hit[i];
  sc__free(hit);
  return (int)kept;
}

SC_EXTERN long sc_image_keep_color(sc_image *img, uint32_t rgb, int tol) {
  if (!img || tol < 0 || tol > 255)
    return sc__err(SC_EINVAL, "sc_image_keep_color: an image and tol 0..255 are required");
  const tpx want = {0, 0, (uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, 0};
  long kept = 0;
  for (int y = 0; y < img->height; y++) {
    uint8_t *p = img->px + (size_t)y * img->stride;
    for (int x = 0; x < img->width; x++, p += 4) {
      int k = near(p, &want, tol);
      p[3] = k ? 255 : 0;
      kept += k;
    }
  }
  return kept;
}
