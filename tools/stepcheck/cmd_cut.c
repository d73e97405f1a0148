/* stepcheck cut (SCENARIO | --url URL) -o DIR NAME=x,y,w,h[:RRGGBB[,TOL]] ...:
 * any number of templates cut from one settled capture of the whole guest
 * (one browser), each checked on that same capture the way a locator
 * would search it, and the locator JSON to paste printed on stdout. Exit 1
 * when a template would not be found in exactly one place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

#define CUT_MAX 64

typedef cli_cut cut;

/* Cut one, save it, check it on the capture; prints its status on stderr.
 * 0 found once, 1 not, minus an exit code with an error printed. */
static int cut_one(const cut *c, const sc_image *guest, const char *dir, char *path, size_t len) {
  sc_image *t = NULL;
  if (c->r.x < 0 || c->r.y < 0 || c->r.w > guest->width - c->r.x ||
      c->r.h > guest->height - c->r.y)
    return -cli_err(EXIT_USAGE, "cut: %s %d,%d %dx%d is not inside the %dx%d guest", c->name,
                   c->r.x, c->r.y, c->r.w, c->r.h, guest->width, guest->height);
  int rc = sc_image_crop(&t, guest, c->r);
  if (rc < 0) return -cli_lib_err(rc, "cut");
  long kept = (long)c->r.w * c->r.h;
  if (c->keep_rgb >= 0) kept = sc_image_keep_color(t, (uint32_t)c->keep_rgb, c->keep_tol);
  if (kept < 16) {
    sc_image_free(t);
    return -cli_err(EXIT_USAGE, "cut: %s keeps %ld pixels; a template needs 16 (another colour "
                   "or tolerance?)", c->name, kept);
  }
  if ((size_t)snprintf(path, len, "%s/%s.png", dir, c->name) >= len) {
    sc_image_free(t);
    return -cli_err(EXIT_USAGE, "cut: %s/%s.png: path too long", dir, c->name);
  }
  if ((rc = sc_image_save_png(t, path)) < 0) {
    sc_image_free(t);
    return -cli_err(EXIT_INFRA, "cut: %s: %s", path, sc_errmsg());
  }
  sc_search_options o = SC_SEARCH_OPTIONS_INIT;
  sc_match m[3];
  int filled = 0, n = sc_image_search(m, 3, &filled, guest, t, &o);
  sc_image_free(t);
  if (n < 0) {
    fprintf(stderr, "%s: %s\n", c->name, sc_errmsg());
    return 1;
  }
  if (n == 1) {
    fprintf(stderr, "%s: found once at %d,%d (score %.3f", c->name, m[0].x, m[0].y, m[0].score);
    if (filled > 1) fprintf(stderr, "; next best %.3f at %d,%d", m[1].score, m[1].x, m[1].y);
    fprintf(stderr, ")\n");
    /* found, but by less than twice the margin: a little noise on the page
     * (another renderer, a lossy copy) could make it ambiguous */
    if (filled > 1 && m[0].score - m[1].score < 2 * o.margin)
      fprintf(stderr, "%s: warning: the next best place is only %.3f behind (the margin is %.3f; "
              "want %.3f or more to be safe): cut a larger, more distinctive part\n", c->name,
              m[0].score - m[1].score, o.margin, 2 * o.margin);
    return 0;
  }
  fprintf(stderr, "%s: %s", c->name, n ? "ambiguous: found in" : "not found on its own capture");
  if (n) fprintf(stderr, " %d places", n);
  for (int i = 0; i < filled; i++)
    fprintf(stderr, "%s(%d,%d) %.3f", i ? ", " : ": ", m[i].x, m[i].y, m[i].score);
  fprintf(stderr, "; cut a larger, more distinctive part\n");
  return 1;
}

/* The path as a JSON string body: what would need escaping becomes '?'
 * (the file keeps its name; the line says to look). */
static const char *json_safe(char *s) {
  for (char *c = s; *c; c++)
    if (*c == '"' || *c == '\\' || (unsigned char)*c < 0x20) *c = '?';
  return s;
}

int cmd_cut(int argc, char **argv) {
  const char *path = NULL, *url = NULL, *dir = NULL, *v;
  unsigned allow = SC_URL_DEFAULT;
  long keep_rgb = -1;
  int keep_tol = 64, ncuts = 0;
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  static cut cuts[CUT_MAX];
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--url")) {
      if (!(url = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (!(dir = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--keep")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_keep(&keep_rgb, &keep_tol, a, v) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--viewport")) {
      if (!(v = cli_value(argc, argv, &i)) ||
          cli_parse_size(&po.viewport_w, &po.viewport_h, a, v) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--allow-url-scheme")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_allow_scheme(&allow, a, v) < 0)
        return EXIT_USAGE;
    } else if (a[0] == '-') {
      return cli_err(EXIT_USAGE, "cut: unknown option '%s'", a);
    } else if (strchr(a, '=')) {
      if (ncuts == CUT_MAX) return cli_err(EXIT_USAGE, "cut: at most %d templates at once", CUT_MAX);
      if (cli_parse_cut(&cuts[ncuts], a, keep_rgb, keep_tol) < 0) return EXIT_USAGE;
      ncuts++;
    } else if (!path) {
      path = a;
    } else {
      return cli_err(EXIT_USAGE, "cut: one scenario only ('%s')", a);
    }
  }
  if ((!path && !url) || !dir || ncuts == 0)
    return cli_err(EXIT_USAGE, "usage: stepcheck cut (SCENARIO | --url URL) [--keep RRGGBB[,TOL]] "
                   "-o DIR NAME=x,y,w,h[:RRGGBB[,TOL]] ...");
  if (url && cli_check_url(url, allow) < 0) return EXIT_USAGE;
  struct stat st;
  if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) /* before any browser starts */
    return cli_err(EXIT_USAGE, "cut: -o %s: not a directory", dir);
  /* Every template's file, before any browser starts: a name given twice
   * would overwrite its first template and print a duplicate key the
   * loader refuses; a path that is a FIFO, a folder or a device would be
   * refused only after the capture (exit 3). */
  char file[4096];
  for (int i = 0; i < ncuts; i++) {
    for (int j = 0; j < i; j++)
      if (!strcmp(cuts[i].name, cuts[j].name))
        return cli_err(EXIT_USAGE, "cut: the name %s is given twice (one template, one locator "
                                   "per name)", cuts[i].name);
    if ((size_t)snprintf(file, sizeof file, "%s/%s.png", dir, cuts[i].name) >= sizeof file)
      return cli_err(EXIT_USAGE, "cut: %s/%s.png: path too long", dir, cuts[i].name);
    if (cli_check_output("cut", cuts[i].name, file) < 0) return EXIT_USAGE;
  }
  sc_scenario *s = NULL;
  int rc;
  if (path) {
    if ((rc = sc_scenario_load(&s, path)) < 0) return cli_input_err(rc, "cut");
    sc_run_page_options(&po, s);
    if (!url) url = sc_scenario_url(s);
    if (!url) {
      sc_scenario_free(s);
      return cli_err(EXIT_USAGE, "cut: no URL to open: the scenario has no \"url\" and no --url was given");
    }
  }
  sc_browser *b = NULL;
  sc_page *p = NULL;
  sc_image *guest = NULL;
  int code = EXIT_OK, w = 0, h = 0;
  if ((rc = sc_browser_launch(&b, NULL)) < 0) {
    code = cli_browser_err(rc, "launch");
  } else if ((rc = sc_page_open(&p, b, url, &po)) < 0) {
    code = cli_browser_err(rc, "open");
  } else {
    sc_page_canvas(p, NULL, NULL, &w, &h);
    if ((rc = sc_page_capture_at_rest(&guest, p, (sc_rect){0, 0, w, h}, 10000)) < 0)
      code = cli_browser_err(rc, "capture");
  }
  sc_page_free(p);
  sc_browser_free(b);
  int unsure = 0;
  if (guest) {
    printf("{\n");
    for (int i = 0; i < ncuts && code == EXIT_OK; i++) {
      int r = cut_one(&cuts[i], guest, dir, file, sizeof file);
      if (r < 0) code = -r;
      unsure |= r > 0;
      if (r >= 0)
        printf("%s  \"%s\": {\"template\": \"%s\"}", i ? ",\n" : "", cuts[i].name,
               json_safe(file));
    }
    printf("\n}\n");
  }
  sc_image_free(guest);
  sc_scenario_free(s);
  return code == EXIT_OK && unsure ? EXIT_FAIL : code;
}
