/* stepcheck inspect SCENARIO [--url URL] -o OUT.png: the scenario's points
 * and regions drawn on a settled capture of its page, one line per point
 * (with the colour under it) and per region. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void print_line(const char *text, void *ud) {
  (void)ud;
  printf("%s\n", text);
}

int cmd_inspect(int argc, char **argv) {
  const char *path = NULL, *url = NULL, *outp = NULL, *canvas = NULL, *v;
  unsigned allow = SC_URL_DEFAULT;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--url")) {
      if (!(v = cli_value(argc, argv, &i))) return EXIT_USAGE;
      url = v;
    } else if (!strcmp(a, "--canvas")) {
      if (!(v = cli_value(argc, argv, &i))) return EXIT_USAGE;
      canvas = v;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (!(v = cli_value(argc, argv, &i))) return EXIT_USAGE;
      outp = v;
    } else if (!strcmp(a, "--allow-url-scheme")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_allow_scheme(&allow, a, v) < 0)
        return EXIT_USAGE;
    } else if (a[0] == '-') {
      return cli_err(EXIT_USAGE, "inspect: unknown option '%s'", a);
    } else if (!path) {
      path = a;
    } else {
      return cli_err(EXIT_USAGE, "inspect: one scenario only ('%s')", a);
    }
  }
  if (!path || !outp)
    return cli_err(EXIT_USAGE, "usage: stepcheck inspect SCENARIO [--url URL] -o OUT.png");
  if (url && cli_check_url(url, allow) < 0) return EXIT_USAGE;
  if (cli_check_output("inspect", "-o", outp) < 0) return EXIT_USAGE;
  sc_scenario *s = NULL;
  int rc = sc_scenario_load(&s, path);
  if (rc < 0) return cli_input_err(rc, "inspect");
  if (!url && !sc_scenario_url(s)) {
    sc_scenario_free(s);
    return cli_err(EXIT_USAGE, "inspect: no URL to open: the scenario has no \"url\" and no --url was given");
  }
  if (canvas && sc_scenario_set_canvas(s, canvas) < 0) {
    sc_scenario_free(s);
    return cli_err(EXIT_USAGE, "inspect: %s", sc_errmsg());
  }
  sc_page_options po;
  sc_run_page_options(&po, s);
  sc_browser *b = NULL;
  sc_page *p = NULL;
  sc_image *img = NULL;
  int code = EXIT_OK;
  if ((rc = sc_browser_launch(&b, NULL)) < 0) {
    code = cli_browser_err(rc, "launch");
  } else if ((rc = sc_page_open(&p, b, url ? url : sc_scenario_url(s), &po)) < 0) {
    code = cli_browser_err(rc, "open");
  } else if ((rc = sc_inspect(&img, p, s, print_line, NULL)) < 0 && !img) {
    code = cli_browser_err(rc, "inspect");
  } else {
    /* a locator that failed still gets its picture: exit 1 after it */
    if (rc < 0) code = cli_browser_err(rc, "inspect");
    if ((rc = sc_image_save_png(img, outp)) < 0)
      code = cli_err(EXIT_INFRA, "inspect: %s: %s", outp, sc_errmsg());
  }
  sc_image_free(img);
  sc_page_free(p);
  sc_browser_free(b);
  sc_scenario_free(s);
  return code;
}
