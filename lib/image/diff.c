/* Region diff with pixelmatch's perceptual colour distance (YIQ, Kotsarenko
 * and Ramos 2010): small anti-aliasing noise stays under the threshold. Alpha
 * is ignored: screenshots are opaque. */
#include <math.h>
#include <string.h>

#include "core/core.h"
#include "image/image_priv.h"
#include "core/opts.h"

/* Largest possible squared YIQ distance (black vs white) with these weights. */
#define SC_YIQ_MAX_DELTA 35215.0
/* Diff image: how much of the grey picture's contrast survives the fade
 * toward white, so red differences stand out. */
#define SC_DIFF_GREY_KEEP 0.25

static double yiq_delta(const uint8_t *p, const uint8_t *q) {
  /* YIQ is linear in RGB, so transform the channel differences directly */
  double dr = (double)p[0] - q[0], dg = (double)p[1] - q[1], db = (double)p[2] - q[2];
  double y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223;
  double i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189;
  double qq = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694;
  return 0.5053 * y * y + 0.299 * i * i + 0.1957 * qq * qq;
}

/* The pixel's R, G, B as one word, alpha masked out (as everywhere here);
 * the mask is the bytes ff ff ff 00 read as a word, so any byte order. */
static uint32_t rgb_of(const uint8_t *p) {
  static const uint8_t m[4] = {255, 255, 255, 0};
  uint32_t w, mask;
  memcpy(&w, p, 4);
  memcpy(&mask, m, 4);
  return w & mask;
}

static uint8_t grey(const uint8_t *p) {
  double y = p[0] * 0.29889531 + p[1] * 0.58662247 + p[2] * 0.11448223;
  double v = 255.0 + (y - 255.0) * SC_DIFF_GREY_KEEP;
  return (uint8_t)lround(v);
}

SC_EXTERN int sc_image_diff(size_t *ndiff, sc_rect *bbox, sc_image **diff, const sc_image *a,
                            sc_rect ra, const sc_image *b, sc_rect rb,
                            const sc_diff_options *opts) {
  if (diff) *diff = NULL;
  if (!ndiff || !a || !b) return sc__err(SC_EINVAL, "diff: NULL argument");
  *ndiff = 0;
  sc_diff_options dopts;
  if (sc__diff_options_read(&dopts, opts, "sc_image_diff")) return SC_EINVAL;
  opts = &dopts;
  if (!(opts->threshold >= 0.0) || opts->threshold > 1.0)
    return sc__err(SC_EINVAL, "sc_image_diff: threshold %g, want 0..1", opts->threshold);
  if (!sc__image_rect_inside(a, ra) || !sc__image_rect_inside(b, rb))
    return sc__err(SC_EINVAL, "diff: region %dx%d+%d+%d or %dx%d+%d+%d outside its image",
                   ra.w, ra.h, ra.x, ra.y, rb.w, rb.h, rb.x, rb.y);
  if (ra.w != rb.w || ra.h != rb.h)
    return sc__err(SC_EINVAL, "diff: region sizes differ (%dx%d vs %dx%d)", ra.w, ra.h, rb.w,
                   rb.h);
  sc_image *out = NULL;
  if (diff) {
    int rc = sc__image_alloc(&out, ra.w, ra.h, 0);
    if (rc) return rc;
  }
  double max_delta = SC_YIQ_MAX_DELTA * opts->threshold * opts->threshold;
  int exact = opts->threshold == 0.0;
  size_t n = 0;
  int x0 = ra.w, y0 = ra.h, x1 = -1, y1 = -1;
  /* The verdict on the last pair of different colours: screens are flat
   * areas and lines, so a changed region is mostly runs of one pair (black
   * where a hatch was). Same pair, same verdict: exact. */
  uint32_t last_p = 0, last_q = 0;
  int last_differs = 0;
  for (int y = 0; y < ra.h; y++) {
    const uint8_t *p = a->px + (size_t)(ra.y + y) * a->stride + (size_t)ra.x * 4;
    const uint8_t *q = b->px + (size_t)(rb.y + y) * b->stride + (size_t)rb.x * 4;
    uint8_t *o = out ? out->px + (size_t)y * out->stride : NULL;
    /* Most rows of a screenshot pair are identical: skip them whole. */
    if (!o && memcmp(p, q, (size_t)ra.w * 4) == 0) continue;
    for (int x = 0; x < ra.w; x++, p += 4, q += 4) {
      /* and, in a row that differs, identical runs of 16 pixels */
      if (!o && (x & 15) == 0 && x + 16 <= ra.w && memcmp(p, q, 64) == 0) {
        x += 15;
        p += 60;
        q += 60;
        continue;
      }
      uint32_t pv = rgb_of(p), qv = rgb_of(q);
      int differs;
      if (pv == qv)
        differs = 0;
      else if (pv == last_p && qv == last_q) /* a run of the same pair of colours */
        differs = last_differs;
      else {
        differs = exact || yiq_delta(p, q) > max_delta;
        last_p = pv;
        last_q = qv;
        last_differs = differs;
      }
      if (differs) {
        n++;
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
      if (o) {
        if (differs) {
          o[0] = 255;
          o[1] = 0;
          o[2] = 0;
        } else {
          o[0] = o[1] = o[2] = grey(q);
        }
        o[3] = 255;
        o += 4;
      }
    }
  }
  *ndiff = n;
  if (bbox) {
    sc_rect none = {0, 0, 0, 0};
    sc_rect box = {x0, y0, x1 - x0 + 1, y1 - y0 + 1};
    *bbox = n ? box : none;
  }
  if (diff) *diff = out;
  return 0;
}

SC__OPTS_DEFINE(diff_options, SC_DIFF_OPTIONS_INIT,
                 sizeof(sc_diff_options))
