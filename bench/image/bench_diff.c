/* bench_diff: how long sc_image_diff takes on a pair of screenshots.
 *
 * Decodes two PNGs of the same size (bench/image/pairs.js makes the map
 * app's: at rest, a building selected, zoomed in), diffs them whole N times
 * with pixelmatch's default threshold (0.1) and prints the median time per
 * diff and per megapixel, with the count of differing pixels (which must
 * not change when the diff gets faster). Uses only the public API.
 *
 *   bench_diff A.png B.png [runs]       runs default 50
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_util.h"
#include "stepcheck.h"

static sc_image *load(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return NULL;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  rewind(f);
  void *buf = len > 0 ? malloc((size_t)len) : NULL;
  sc_image *img = NULL;
  if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len)
    fprintf(stderr, "%s: read failed\n", path);
  else if (sc_image_decode_png(&img, buf, (size_t)len, NULL))
    fprintf(stderr, "%s: %s\n", path, sc_errmsg());
  free(buf);
  fclose(f);
  return img;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench_diff A.png B.png [runs]\n");
    return 2;
  }
  int runs = argc > 3 ? atoi(argv[3]) : 50;
  if (runs < 1) runs = 1;
  sc_image *a = load(argv[1]), *b = load(argv[2]);
  if (!a || !b) return 1;
  if (a->width != b->width || a->height != b->height) {
    fprintf(stderr, "bench_diff: %s is %dx%d, %s %dx%d\n", argv[1], a->width, a->height, argv[2],
            b->width, b->height);
    return 1;
  }
  sc_rect r = {0, 0, a->width, a->height};
  sc_diff_options o = SC_DIFF_OPTIONS_INIT;
  double *ms = malloc(sizeof *ms * (size_t)runs);
  size_t n = 0;
  for (int i = 0; i < runs; i++) {
    double t0 = bench_now_ms();
    if (sc_image_diff(&n, NULL, NULL, a, r, b, r, &o)) {
      fprintf(stderr, "diff: %s\n", sc_errmsg());
      return 1;
    }
    ms[i] = bench_now_ms() - t0;
  }
  double med = bench_median(ms, (size_t)runs);
  double mp = (double)a->width * a->height / 1e6;
  printf("pair       %s %s, %dx%d (%.2f MP)\n", argv[1], argv[2], a->width, a->height, mp);
  printf("differ     %zu px (threshold %.2f)\n", n, o.threshold);
  printf("diff       median %.3f ms over %d runs (min %.3f, max %.3f)\n", med, runs, ms[0],
         ms[runs - 1]);
  printf("per MP     %.3f ms/MP\n", med / mp);
  free(ms);
  sc_image_free(a);
  sc_image_free(b);
  return 0;
}
