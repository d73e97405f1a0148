/* bench_capture: what one sc_page_capture costs, by clip size, scale and
 * optimizeForSpeed, on a 1600x900 canvas in headless Chromium.
 *
 * The time is taken around sc_page_capture by the caller: CDP round trip
 * (Page.captureScreenshot), base64 decode and PNG decode to RGBA — what the
 * runner pays for every poll (tool=stepcheck, public API). For a breakdown,
 * each is followed by the same Page.captureScreenshot through the page's
 * internal CDP call (tool=stepcheck-cdp: round trip with JSON parse only, like
 * the peer's raw CDP session), with the base64 and the PNG decode of that
 * reply timed apart (b64_median_ms, png_median_ms: decode-only cost on
 * Chromium's own PNG). Cases run round-robin (each case once per round) so
 * that drift in the machine's load spreads over all of them.
 *
 *   bench_capture [-n RUNS] [-w WARMUPS] [--url URL] [--label PAGE] [--tool NAME]
 *                 [--browser-arg ARG]...
 *
 * Defaults: 30 runs after 3 warm-ups per case; the page is
 * bench/capture/canvas.html (a map-like picture), label "canvas", tool
 * "stepcheck" (--tool names a launch variant made with --browser-arg). Output:
 * one line per case,
 *   tool=stepcheck page=canvas case=clip1200x800 scale=1 fast=0 n=30 median_ms=.. p95_ms=.. min_ms=.. max_ms=..
 * plus "# ..." lines with the browser version and canvas geometry. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "page/tab.h"
#include "bench_util.h"
#include "stepcheck.h"

#ifndef BENCH_SOURCE_DIR
#define BENCH_SOURCE_DIR "."
#endif

typedef struct bench_case {
  const char *name;
  sc_rect clip;
  double scale;
  int fast;
  double *ms;                  /* public API, per run */
  double *raw, *b64, *png;     /* internal CDP call; base64; PNG decode */
} bench_case;

/* The same capture as sc_page_capture, through the page's internal CDP call,
 * timing the round trip (with JSON parse), the base64 decode and the PNG
 * decode apart. Parameters as lib/page/capture.c sends them. */
static int raw_capture(sc_page *p, const bench_case *k, double *raw, double *b64,
                       double *png) {
  json_t *params = json_pack(
      "{s:s, s:{s:f, s:f, s:f, s:f, s:f}, s:b, s:b, s:b}", "format", "png", "clip", "x",
      p->cx + k->clip.x, "y", p->cy + k->clip.y, "width", (double)k->clip.w, "height",
      (double)k->clip.h, "scale", k->scale, "fromSurface", 1, "captureBeyondViewport", 0,
      "optimizeForSpeed", k->fast);
  json_t *res = NULL;
  double t0 = bench_now_ms();
  int rc = sc__page_call(p, "Page.captureScreenshot", params, &res);
  double t1 = bench_now_ms();
  if (rc < 0) return rc;
  const char *data = json_string_value(json_object_get(res, "data"));
  uint8_t *bytes = NULL;
  size_t len = 0;
  rc = data ? sc__base64_decode(&bytes, &len, data, strlen(data)) : SC_EPROTO;
  double t2 = bench_now_ms();
  json_decref(res);
  if (rc < 0) return rc;
  sc_image *img = NULL;
  rc = sc_image_decode_png(&img, bytes, len, NULL);
  double t3 = bench_now_ms();
  sc__free(bytes);
  sc_image_free(img);
  *raw = t1 - t0;
  *b64 = t2 - t1;
  *png = t3 - t2;
  return rc;
}

/* bench/run.sh stops what it started even when a benchmark dies: it reads
 * the browser's pid (its own process group) from $BENCH_PIDFILE. */
static void note_pid(int pid) {
  const char *f = getenv("BENCH_PIDFILE");
  FILE *fp = f && *f && pid > 0 ? fopen(f, "a") : NULL;
  if (fp) {
    fprintf(fp, "%d\n", pid);
    fclose(fp);
  }
}

static void usage(void) {
  fprintf(stderr, "usage: bench_capture [-n RUNS] [-w WARMUPS] [--url URL] [--label PAGE] "
                  "[--tool NAME] [--browser-arg ARG]...\n");
}

int main(int argc, char **argv) {
  int runs = 30, warm = 3;
  const char *url = NULL, *label = "canvas", *tool = "stepcheck";
  const char *xargs[16] = {NULL};
  int nxargs = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      runs = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-w") && i + 1 < argc)
      warm = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--url") && i + 1 < argc)
      url = argv[++i];
    else if (!strcmp(argv[i], "--label") && i + 1 < argc)
      label = argv[++i];
    else if (!strcmp(argv[i], "--tool") && i + 1 < argc)
      tool = argv[++i];
    else if (!strcmp(argv[i], "--browser-arg") && i + 1 < argc && nxargs < 15)
      xargs[nxargs++] = argv[++i];
    else {
      usage();
      return 2;
    }
  }
  if (runs < 1 || warm < 0) {
    usage();
    return 2;
  }
  char defurl[4096];
  if (!url) {
    snprintf(defurl, sizeof defurl, "file://%s/bench/capture/canvas.html", BENCH_SOURCE_DIR);
    url = defurl;
  }

  bench_case cases[] = {
      {"full1600x900", {0, 0, 1600, 900}, 1.0, 0, NULL, NULL, NULL, NULL},
      {"full1600x900", {0, 0, 1600, 900}, 1.0, 1, NULL, NULL, NULL, NULL},
      {"clip1200x800", {40, 65, 1200, 800}, 1.0, 0, NULL, NULL, NULL, NULL},
      {"clip1200x800", {40, 65, 1200, 800}, 1.0, 1, NULL, NULL, NULL, NULL},
      {"clip160x24", {36, 84, 160, 24}, 1.0, 0, NULL, NULL, NULL, NULL},
      {"clip160x24", {36, 84, 160, 24}, 1.0, 1, NULL, NULL, NULL, NULL},
      {"clip1200x800", {40, 65, 1200, 800}, 0.25, 0, NULL, NULL, NULL, NULL},
      {"clip1200x800", {40, 65, 1200, 800}, 0.25, 1, NULL, NULL, NULL, NULL},
  };
  const int ncases = (int)(sizeof cases / sizeof cases[0]);

  sc_browser *b = NULL;
  sc_page *p = NULL;
  int status = 1;
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  bo.extra_args = xargs;
  if (sc_browser_launch(&b, &bo) < 0) {
    fprintf(stderr, "bench_capture: launch: %s\n", sc_errmsg());
    return 1;
  }
  note_pid(sc_browser_pid(b));
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  po.viewport_w = 1600;
  po.viewport_h = 940;
  po.guest_w = 1600;
  po.guest_h = 900;
  if (sc_page_open(&p, b, url, &po) < 0) {
    fprintf(stderr, "bench_capture: open %s: %s\n", url, sc_errmsg());
    goto out;
  }
  double cx, cy;
  int cw, ch;
  sc_page_canvas(p, &cx, &cy, &cw, &ch);
  printf("# browser=%s url=%s canvas=%dx%d@(%g,%g) runs=%d warmups=%d extra_args=",
         sc_browser_product(b), url, cw, ch, cx, cy, runs, warm);
  for (int i = 0; i < nxargs; i++) printf("%s%s", i ? "," : "", xargs[i]);
  printf("\n");

  for (int c = 0; c < ncases; c++) {
    bench_case *k = &cases[c];
    k->ms = calloc((size_t)runs, sizeof(double));
    k->raw = calloc((size_t)runs, sizeof(double));
    k->b64 = calloc((size_t)runs, sizeof(double));
    k->png = calloc((size_t)runs, sizeof(double));
    if (!k->ms || !k->raw || !k->b64 || !k->png) {
      fprintf(stderr, "bench_capture: out of memory\n");
      goto out;
    }
  }
  for (int round = -warm; round < runs; round++)
    for (int c = 0; c < ncases; c++) {
      bench_case *k = &cases[c];
      sc_image *img = NULL;
      double t0 = bench_now_ms();
      int rc = sc_page_capture(&img, p, k->clip, k->scale, k->fast, NULL);
      double t = bench_now_ms() - t0;
      if (rc < 0) {
        fprintf(stderr, "bench_capture: capture %s: %s\n", k->name, sc_errmsg());
        goto out;
      }
      sc_image_free(img);
      double raw, b64, png;
      if (raw_capture(p, k, &raw, &b64, &png) < 0) {
        fprintf(stderr, "bench_capture: raw capture %s: %s\n", k->name, sc_errmsg());
        goto out;
      }
      if (round >= 0) {
        k->ms[round] = t;
        k->raw[round] = raw;
        k->b64[round] = b64;
        k->png[round] = png;
      }
    }

  for (int c = 0; c < ncases; c++) {
    bench_case *k = &cases[c];
    double med, p95, rmed, rp95, bmed, bp95, pmed, pp95;
    bench_stats(k->ms, (size_t)runs, &med, &p95);
    bench_stats(k->raw, (size_t)runs, &rmed, &rp95);
    bench_stats(k->b64, (size_t)runs, &bmed, &bp95);
    bench_stats(k->png, (size_t)runs, &pmed, &pp95);
    double mp = k->clip.w * k->scale * k->clip.h * k->scale / 1e6;
    printf("tool=%s page=%s case=%s scale=%g fast=%d n=%d median_ms=%.1f p95_ms=%.1f "
           "min_ms=%.1f max_ms=%.1f\n",
           tool, label, k->name, k->scale, k->fast, runs, med, p95, k->ms[0], k->ms[runs - 1]);
    printf("tool=%s-cdp page=%s case=%s scale=%g fast=%d n=%d median_ms=%.1f "
           "p95_ms=%.1f min_ms=%.1f max_ms=%.1f b64_median_ms=%.2f png_median_ms=%.2f "
           "png_ms_per_mp=%.1f\n",
           tool, label, k->name, k->scale, k->fast, runs, rmed, rp95, k->raw[0], k->raw[runs - 1],
           bmed, pmed, pmed / mp);
  }
  fflush(stdout);
  status = 0;
out:
  for (int c = 0; c < ncases; c++) {
    free(cases[c].ms);
    free(cases[c].raw);
    free(cases[c].b64);
    free(cases[c].png);
  }
  sc_page_free(p);
  sc_browser_free(b);
  return status;
}
