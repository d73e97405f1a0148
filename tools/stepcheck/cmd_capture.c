/* stepcheck capture: open a page, screenshot (a region of) its canvas. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One colour everywhere: a client that has not painted yet (noVNC's grey). */
static int uniform(const sc_image *img) {
  uint32_t first = sc_image_pixel(img, 0, 0);
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++)
      if (sc_image_pixel(img, x, y) != first) return 0;
  return 1;
}

/* Capture once the region shows more than one colour and has not changed
 * for settle_ms (captures settle_ms apart, equal by hash); settle_ms 0: at
 * once. SC_ETIMEDOUT (with the reason) when that does not happen by the
 * deadline. */
static int capture_settled(sc_image **out, sc_page *p, sc_rect region, double scale,
                           int settle_ms, double timeout_ms, double *ms, const char **why) {
  double deadline = now_ms() + timeout_ms;
  sc_image *img = NULL;
  uint64_t last = 0;
  int have = 0, rc, blank = 0;
  for (;;) {
    if ((rc = sc_page_capture(&img, p, region, scale, 0, ms)) < 0) return rc;
    if (settle_ms == 0) break;
    blank = uniform(img);
    uint64_t h = sc_image_hash(img, (sc_rect){0, 0, img->width, img->height});
    if (!blank && have && h == last) break;
    last = h;
    have = !blank;
    sc_image_free(img);
    img = NULL;
    double left = deadline - now_ms();
    if (left <= 0) {
      *why = blank ? "the canvas showed one colour only (nothing painted) until --timeout"
                   : "the canvas did not stay unchanged for --settle ms until --timeout";
      return SC_ETIMEDOUT;
    }
    sc_loop_run(sc_page_loop(p), settle_ms < left ? settle_ms : left);
  }
  *out = img;
  return 0;
}

int cmd_capture(int argc, char **argv) {
  const char *url = NULL, *out = NULL, *v;
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  sc_rect region = {0, 0, 0, 0};
  int scale_pct = 100, settle_ms = 500;
  long keep_rgb = -1;
  int keep_tol = 64;
  unsigned allow = SC_URL_DEFAULT;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--url")) {
      if (!(url = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (!(out = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--viewport")) {
      if (!(v = cli_value(argc, argv, &i)) ||
          cli_parse_size(&po.viewport_w, &po.viewport_h, a, v) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--guest")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_size(&po.guest_w, &po.guest_h, a, v) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--region")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_rect(&region, a, v) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--timeout")) {
      int ms;
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_int(&ms, a, v, 1, 3600000) < 0)
        return EXIT_USAGE;
      po.load_timeout_ms = ms;
    } else if (!strcmp(a, "--settle")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_int(&settle_ms, a, v, 0, 600000) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--scale")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_int(&scale_pct, a, v, 1, 100) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--keep")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_keep(&keep_rgb, &keep_tol, a, v) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--allow-url-scheme")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_allow_scheme(&allow, a, v) < 0)
        return EXIT_USAGE;
    } else {
      return cli_err(EXIT_USAGE, "capture: unknown option '%s'", a);
    }
  }
  if (!url) return cli_err(EXIT_USAGE, "capture: --url is required");
  if (!out) return cli_err(EXIT_USAGE, "capture: -o OUT.png is required");
  if (cli_check_url(url, allow) < 0) return EXIT_USAGE;
  if (cli_check_output("capture", "-o", out) < 0) return EXIT_USAGE;

  sc_browser *b = NULL;
  sc_page *p = NULL;
  sc_image *img = NULL;
  int code = EXIT_OK, rc;
  double ms = 0;
  const char *why = NULL;
  if ((rc = sc_browser_launch(&b, NULL)) < 0) return cli_browser_err(rc, "launch");
  if ((rc = sc_page_open(&p, b, url, &po)) < 0) {
    code = cli_browser_err(rc, "open");
    goto done;
  }
  int cw, ch;
  sc_page_canvas(p, NULL, NULL, &cw, &ch);
  if (region.w == 0) region = (sc_rect){0, 0, cw, ch};
  if ((rc = capture_settled(&img, p, region, scale_pct / 100.0, settle_ms,
                            po.load_timeout_ms > 0 ? po.load_timeout_ms : 30000, &ms, &why)) < 0) {
    code = why ? cli_err(cli_run_exit(rc), "capture: %s", why) : cli_browser_err(rc, "capture");
    goto done;
  }
  long kept = keep_rgb >= 0 ? sc_image_keep_color(img, (uint32_t)keep_rgb, keep_tol) : -1;
  if ((rc = sc_image_save_png(img, out)) < 0) {
    code = cli_lib_err(rc, "write");
    goto done;
  }
  char shown[CLI_SHOWN_MAX];
  printf("%s: %dx%d from canvas %dx%d, region %d,%d,%d,%d, %.1f ms",
         cli_shown(shown, sizeof shown, out), img->width,
         img->height, cw, ch, region.x, region.y, region.w, region.h, ms);
  if (kept >= 0) printf(", %ld pixels kept (the rest transparent)", kept);
  putchar('\n');
done:
  sc_image_free(img);
  sc_page_free(p);
  sc_browser_free(b);
  return code;
}
