/* bench_png: how long sc_image_decode_png takes on a screenshot-sized PNG.
 *
 * Draws a 1600x900 map-like picture in memory (land-use areas, buildings,
 * anti-aliased roads with casings, label-like speckles), encodes it with
 * sc_image_encode_png, then decodes it N times and prints the median time per
 * decode and per megapixel. Uses only the public API.
 *
 *   bench_png [runs] [file.png]     runs default 50; a file replaces the
 *                                   generated picture (e.g. a real capture)
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "stepcheck.h"

#define W 1600
#define H 900

static uint32_t rng_state = 0x9e3779b9u;
static uint32_t rnd(void) { /* xorshift32: the same picture on every run */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 17;
  rng_state ^= rng_state << 5;
  return rng_state;
}
static int rnd_in(int lo, int hi) { return lo + (int)(rnd() % (uint32_t)(hi - lo + 1)); }

static void blend(sc_image *img, int x, int y, uint32_t rgb, double cov) {
  if (x < 0 || y < 0 || x >= img->width || y >= img->height || cov <= 0) return;
  if (cov > 1) cov = 1;
  uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
  for (int c = 0; c < 3; c++) {
    double v = (rgb >> (16 - 8 * c)) & 255;
    p[c] = (uint8_t)lround(p[c] + (v - p[c]) * cov);
  }
  p[3] = 255;
}

static void fill_rect(sc_image *img, int x0, int y0, int w, int h, uint32_t rgb) {
  for (int y = y0; y < y0 + h; y++)
    for (int x = x0; x < x0 + w; x++) blend(img, x, y, rgb, 1.0);
}

/* Anti-aliased thick segment: coverage from the distance to the segment. */
static void line(sc_image *img, double ax, double ay, double bx, double by, double width,
                 uint32_t rgb) {
  double r = width / 2 + 1;
  int x0 = (int)floor(fmin(ax, bx) - r), x1 = (int)ceil(fmax(ax, bx) + r);
  int y0 = (int)floor(fmin(ay, by) - r), y1 = (int)ceil(fmax(ay, by) + r);
  double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
  for (int y = y0; y <= y1; y++)
    for (int x = x0; x <= x1; x++) {
      double t = len2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      double ex = ax + t * dx - x, ey = ay + t * dy - y;
      double d = sqrt(ex * ex + ey * ey);
      blend(img, x, y, rgb, width / 2 + 0.5 - d);
    }
}

static void polyline(sc_image *img, const double *pts, int n, double width, uint32_t rgb) {
  for (int i = 0; i + 1 < n; i++)
    line(img, pts[2 * i], pts[2 * i + 1], pts[2 * i + 2], pts[2 * i + 3], width, rgb);
}

static sc_image *draw_map(void) {
  sc_image *img;
  if (sc_image_new(&img, W, H)) return NULL;
  fill_rect(img, 0, 0, W, H, 0xf2efe9); /* OSM-like background */
  static const uint32_t landuse[] = {0xc8facc, 0xadd19e, 0xaad3df, 0xf2dad9, 0xe0dfdf};
  for (int i = 0; i < 40; i++)
    fill_rect(img, rnd_in(0, W - 50), rnd_in(0, H - 50), rnd_in(40, 300), rnd_in(30, 200),
              landuse[rnd() % 5]);
  for (int i = 0; i < 1500; i++) { /* buildings with an outline */
    int x = rnd_in(0, W - 20), y = rnd_in(0, H - 20), w = rnd_in(6, 22), h = rnd_in(6, 18);
    fill_rect(img, x, y, w, h, 0xc4b6ab);
    fill_rect(img, x + 1, y + 1, w - 2, h - 2, 0xd9d0c9);
  }
  for (int i = 0; i < 60; i++) { /* roads: wobbly polylines, casing then fill */
    double pts[2 * 12];
    double x = rnd_in(0, W), y = rnd_in(0, H), ang = (rnd() % 628) / 100.0;
    for (int k = 0; k < 12; k++) {
      pts[2 * k] = x;
      pts[2 * k + 1] = y;
      ang += ((int)(rnd() % 61) - 30) / 100.0;
      x += cos(ang) * 70;
      y += sin(ang) * 70;
    }
    int major = i < 12;
    double w = major ? 9 : 5;
    polyline(img, pts, 12, w + 2, 0xbbbbbb);
    polyline(img, pts, 12, w, major ? 0xfcd6a4 : 0xffffff);
  }
  for (int i = 0; i < 400; i++) { /* label-like speckles: short dark strokes */
    int x = rnd_in(0, W - 60), y = rnd_in(0, H - 10), n = rnd_in(4, 12);
    for (int k = 0; k < n; k++)
      line(img, x + k * 6, y + (rnd() % 3), x + k * 6 + 3, y + 7 - (rnd() % 3), 1.2, 0x333333);
  }
  return img;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 50;
  if (runs < 1) runs = 1;
  void *png = NULL;
  size_t len = 0;
  double enc_ms = -1;
  if (argc > 2) {
    FILE *f = fopen(argv[2], "rb");
    if (!f) {
      perror(argv[2]);
      return 1;
    }
    fseek(f, 0, SEEK_END);
    len = (size_t)ftell(f);
    rewind(f);
    png = malloc(len);
    if (!png || fread(png, 1, len, f) != len) {
      fprintf(stderr, "%s: read failed\n", argv[2]);
      return 1;
    }
    fclose(f);
  } else {
    sc_image *img = draw_map();
    if (!img) {
      fprintf(stderr, "out of memory\n");
      return 1;
    }
    double t0 = bench_now_ms();
    int rc = sc_image_encode_png(&png, &len, img);
    enc_ms = bench_now_ms() - t0;
    sc_image_free(img);
    if (rc) {
      fprintf(stderr, "encode: %s\n", sc_errmsg());
      return 1;
    }
  }

  double *ms = malloc(sizeof *ms * (size_t)runs);
  int w = 0, h = 0;
  for (int i = 0; i < runs; i++) {
    sc_image *out;
    double t0 = bench_now_ms();
    int rc = sc_image_decode_png(&out, png, len, NULL);
    ms[i] = bench_now_ms() - t0;
    if (rc) {
      fprintf(stderr, "decode: %s\n", sc_errmsg());
      return 1;
    }
    w = out->width;
    h = out->height;
    sc_image_free(out);
  }
  double med = bench_median(ms, (size_t)runs);
  double mp = (double)w * h / 1e6;
  printf("image      %dx%d (%.2f MP), PNG %zu bytes%s\n", w, h, mp, len,
         argc > 2 ? "" : " (generated map, encoded by sc_image_encode_png)");
  if (enc_ms >= 0) printf("encode     %.2f ms (one run, Z_BEST_SPEED)\n", enc_ms);
  printf("decode     median %.2f ms over %d runs (min %.2f, max %.2f)\n", med, runs, ms[0],
         ms[runs - 1]);
  printf("per MP     %.2f ms/MP\n", med / mp);
  free(ms);
  if (argc > 2)
    free(png);
  else
    sc_free(png);
  return 0;
}
