/* A template's pixels in the order searches read them (search.c), the
 * threshold search sc_image_find, and making templates of one colour on a
 * varying background (sc_image_keep_color). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "image_priv.h"

static int by_rank(const void *a, const void *b) {
  const sc__tpx *p = a, *q = b;
  if (p->rank != q->rank) return q->rank - p->rank;
  if (p->dy != q->dy) return p->dy - q->dy;
  return p->dx - q->dx;
}

sc__tpx *sc__tpl_pixels(const sc_image *tpl, size_t *n) {
  size_t cap = (size_t)tpl->width * (size_t)tpl->height, k = 0;
  sc__tpx *v = sc__malloc((cap ? cap : 1) * sizeof *v);
  if (!v) return NULL;
  long sr = 0, sg = 0, sb = 0;
  for (int y = 0; y < tpl->height; y++)
    for (int x = 0; x < tpl->width; x++) {
      const uint8_t *p = tpl->px + (size_t)y * tpl->stride + (size_t)x * 4;
      if (p[3] < 128) continue;
      v[k] = (sc__tpx){x, y, p[0], p[1], p[2], 0};
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

SC_EXTERN int sc_image_find(sc_match *out, int max, const sc_image *img, const sc_image *tpl,
                            sc_rect within, int tol, double min_score) {
  if (!img || !tpl) return sc__err(SC_EINVAL, "sc_image_find: image and template are required");
  if (max > 0 && !out) return sc__err(SC_EINVAL, "sc_image_find: out is NULL");
  if (tol < 0 || tol > 255 || !(min_score > 0 && min_score <= 1))
    return sc__err(SC_EINVAL, "sc_image_find: tol must be 0..255 and min_score in (0, 1]");
  sc_match *hit = NULL;
  size_t n = 0;
  int rc = sc__image_places(&hit, &n, img, tpl, within, tol, min_score, SC_SEARCH_TIME_LIMIT_MS,
                            NULL);
  if (rc < 0) return rc;
  for (size_t i = 0; i < n && (int)i < max; i++) out[i] = hit[i];
  sc__free(hit);
  return (int)n;
}

SC_EXTERN long sc_image_keep_color(sc_image *img, uint32_t rgb, int tol) {
  if (!img || tol < 0 || tol > 255)
    return sc__err(SC_EINVAL, "sc_image_keep_color: an image and tol 0..255 are required");
  const sc__tpx want = {0, 0, (uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, 0};
  long kept = 0;
  for (int y = 0; y < img->height; y++) {
    uint8_t *p = img->px + (size_t)y * img->stride;
    for (int x = 0; x < img->width; x++, p += 4) {
      int k = sc__tpx_near(p, &want, tol);
      p[3] = k ? 255 : 0;
      kept += k;
    }
  }
  return kept;
}
