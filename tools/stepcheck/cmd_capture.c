/* stepcheck capture: open a page, screenshot (a region of) its canvas. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_capture(int argc, char **argv) {
  const char *url = NULL, *out = NULL, *v;
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  sc_rect region = {0, 0, 0, 0};
  int scale_pct = 100;
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

  sc_browser *b = NULL;
  sc_page *p = NULL;
  sc_image *img = NULL;
  int code = EXIT_OK, rc;
  double ms = 0;
  if ((rc = sc_browser_launch(&b, NULL)) < 0) return cli_browser_err(rc, "launch");
  if ((rc = sc_page_open(&p, b, url, &po)) < 0) {
    code = cli_browser_err(rc, "open");
    goto done;
  }
  int cw, ch;
  sc_page_canvas(p, NULL, NULL, &cw, &ch);
  if (region.w == 0) region = (sc_rect){0, 0, cw, ch};
  if ((rc = sc_page_capture(&img, p, region, scale_pct / 100.0, 0, &ms)) < 0) {
    code = cli_browser_err(rc, "capture");
    goto done;
  }
  long kept = keep_rgb >= 0 ? sc_image_keep_color(img, (uint32_t)keep_rgb, keep_tol) : -1;
  if ((rc = sc_image_save_png(img, out)) < 0) {
    code = cli_lib_err(rc, "write");
    goto done;
  }
  printf("%s: %dx%d from canvas %dx%d, region %d,%d,%d,%d, %.1f ms", out, img->width,
         img->height, cw, ch, region.x, region.y, region.w, region.h, ms);
  if (kept >= 0) printf(", %ld pixels kept (the rest transparent)", kept);
  putchar('\n');
done:
  sc_image_free(img);
  sc_page_free(p);
  sc_browser_free(b);
  return code;
}
