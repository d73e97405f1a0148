/* A quiet spot: the point of a region nearest an anchor around which no
 * ink lies within a radius, so a pointer parked or clicked there hovers
 * and hits nothing. Ink is any pixel farther than tol (any channel) from
 * the region's background, its most common colour (in 4-bit-per-channel
 * bins, the bin's mean). A summed-area table of ink makes each candidate
 * an O(1) question. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "locate/locate.h"

#define SC__BINS 4096

static int bin_of(const uint8_t *p) { return (p[0] >> 4) << 8 | (p[1] >> 4) << 4 | p[2] >> 4; }

/* The most common colour of r in img, as 0xRRGGBB. */
static uint32_t background(const sc_image *img, sc_rect r) {
  long *count = sc__calloc(SC__BINS, sizeof *count);
  long (*sum)[3] = sc__calloc(SC__BINS, sizeof *sum);
  uint32_t bg = 0;
  if (count && sum) {
    for (int y = r.y; y < r.y + r.h; y++)
      for (int x = r.x; x < r.x + r.w; x++) {
        const uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
        int b = bin_of(p);
        count[b]++, sum[b][0] += p[0], sum[b][1] += p[1], sum[b][2] += p[2];
      }
    int best = 0;
    for (int b = 1; b < SC__BINS; b++)
      if (count[b] > count[best]) best = b;
    if (count[best])
      bg = (uint32_t)(sum[best][0] / count[best]) << 16 | (uint32_t)(sum[best][1] / count[best]) << 8 |
           (uint32_t)(sum[best][2] / count[best]);
  }
  sc__free(count);
  sc__free(sum);
  return bg;
}

int sc__quiet_spot(sc_point *out, uint32_t *bg_out, const sc_image *img, sc_rect r, sc_point near,
                   int radius, int tol) {
  if (r.w <= 0 || r.h <= 0 || r.x < 0 || r.y < 0 || r.x + r.w > img->width ||
      r.y + r.h > img->height)
    return SC_EINVAL;
  uint32_t bg = background(img, r);
  *bg_out = bg;
  int br = (int)(bg >> 16), bgc = (int)(bg >> 8 & 0xff), bb = (int)(bg & 0xff);
  size_t W = (size_t)r.w + 1;
  long *sat = sc__calloc(W * ((size_t)r.h + 1), sizeof *sat);
  if (!sat) return SC_ENOMEM;
  for (int y = 0; y < r.h; y++) {
    long row = 0;
    for (int x = 0; x < r.w; x++) {
      const uint8_t *p = img->px + (size_t)(r.y + y) * img->stride + (size_t)(r.x + x) * 4;
      row += abs(p[0] - br) > tol || abs(p[1] - bgc) > tol || abs(p[2] - bb) > tol;
      sat[(size_t)(y + 1) * W + (size_t)x + 1] = sat[(size_t)y * W + (size_t)x + 1] + row;
    }
  }
  /* Candidates: pixels whose whole (2 radius + 1) square lies in r and
   * holds no ink; the nearest to near wins (ties: top, then left). */
  double best = INFINITY;
  int bx = -1, by = -1;
  for (int y = radius; y + radius < r.h; y++)
    for (int x = radius; x + radius < r.w; x++) {
      double dx = r.x + x + 0.5 - near.x, dy = r.y + y + 0.5 - near.y, d = dx * dx + dy * dy;
      if (d >= best) continue;
      size_t x0 = (size_t)(x - radius), y0 = (size_t)(y - radius);
      size_t x1 = (size_t)(x + radius + 1), y1 = (size_t)(y + radius + 1);
      long ink = sat[y1 * W + x1] - sat[y0 * W + x1] - sat[y1 * W + x0] + sat[y0 * W + x0];
      if (ink == 0) best = d, bx = x, by = y;
    }
  sc__free(sat);
  if (bx < 0) return SC_ENOTFOUND;
  *out = (sc_point){r.x + bx + 0.5, r.y + by + 0.5};
  return 0;
}
