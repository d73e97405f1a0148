/* Time sc_scalebar_read on a real 200x34 JOSM crop and sc_text_read on a
 * ~400x20 line (median of 10,000 reads each), in milliseconds per read.
 *
 * usage: bench_text [FIXTURES_DIR]   (default: $SC_FIXTURES or ./fixtures)
 * build: see docs/text.md ("Benchmark"). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_util.h"
#include "stepcheck.h"

#define N 10000

static sc_image *load(const char *dir, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/text/josm/%s", dir, name);
  sc_image *img;
  if (sc_image_load_png(&img, path, NULL)) {
    fprintf(stderr, "%s\n", sc_errmsg());
    exit(1);
  }
  return img;
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : getenv("SC_FIXTURES") ? getenv("SC_FIXTURES") : "fixtures";
  static double t[N];
  /* Scale bar: a busy background (streets, buildings, labels). */
  sc_image *img = load(dir, "m-labels-100m.png");
  sc_rect all = {0, 0, img->width, img->height};
  sc_scale_reading r;
  for (int i = 0; i < N; i++) {
    double t0 = bench_now_ms();
    int rc = sc_scalebar_read(&r, img, all, "josm", NULL);
    t[i] = bench_now_ms() - t0;
    if (rc) {
      fprintf(stderr, "scalebar: %s\n", sc_errmsg());
      return 1;
    }
  }
  printf("sc_scalebar_read  %dx%d crop \"%s\"   median %.4f ms/read (%d reads)\n", img->width,
         img->height, r.text, bench_median(t, N), N);

  /* Text line: four labels side by side on a 400x20 black strip, baselines
   * aligned (row 15). */
  const char *parts[] = {"m-hatch-5000km.png", "i-hatch-1242.7mi.png", "n-black-lt0.01kbl-a.png",
                         "m-hatch-0.04m.png"};
  sc_image *line;
  if (sc_image_new(&line, 400, 20)) return 1;
  for (int y = 0; y < 20; y++)
    for (int x = 0; x < 400; x++) line->px[(size_t)y * line->stride + (size_t)x * 4 + 3] = 255;
  int x = 2;
  for (int k = 0; k < 4; k++) {
    sc_image *c = load(dir, parts[k]);
    sc_scale_reading s;
    if (sc_scalebar_read(&s, c, (sc_rect){0, 0, c->width, c->height}, "josm", NULL)) return 1;
    sc_rect b = s.text_box;
    for (int yy = 0; yy < b.h; yy++)
      memcpy(line->px + (size_t)(15 - b.h + yy) * line->stride + (size_t)x * 4,
             c->px + (size_t)(b.y + yy) * c->stride + (size_t)b.x * 4, (size_t)b.w * 4);
    x += b.w + 12;
    sc_image_free(c);
  }
  sc_glyphset *gs;
  if (sc_glyphset_load(&gs, "josm")) return 1;
  sc_text_result tr;
  for (int i = 0; i < N; i++) {
    double t0 = bench_now_ms();
    int rc = sc_text_read(&tr, line, (sc_rect){0, 0, 400, 20}, gs, NULL);
    t[i] = bench_now_ms() - t0;
    if (rc) {
      fprintf(stderr, "text: %s\n", sc_errmsg());
      return 1;
    }
  }
  printf("sc_text_read      400x20 line \"%s\"   median %.4f ms/read (%d reads)\n", tr.text,
         bench_median(t, N), N);
  sc_glyphset_free(gs);
  sc_image_free(line);
  sc_image_free(img);
  return 0;
}
