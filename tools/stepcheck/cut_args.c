/* `stepcheck cut`'s NAME=x,y,w,h[:RRGGBB[,TOL]] arguments (cmd_cut.c),
 * apart so that the fuzz target of the option parsers (tests/fuzz/
 * fuzz_args.c) reads them the way the CLI does. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int name_ok(const char *s, size_t n) {
  if (n == 0 || n >= 64) return 0;
  for (size_t i = 0; i < n; i++)
    if (!(s[i] == '_' || s[i] == '-' || (s[i] >= '0' && s[i] <= '9') ||
          (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
      return 0;
  return 1;
}

/* NAME=x,y,w,h[:RRGGBB[,TOL]]; the --keep given so far is the default. */
int cli_parse_cut(cli_cut *c, const char *arg, long keep_rgb, int keep_tol) {
  const char *eq = strchr(arg, '=');
  if (!eq || !name_ok(arg, (size_t)(eq - arg))) {
    cli_err(EXIT_USAGE, "cut: '%s' is not NAME=x,y,w,h (a name of letters, digits, _ and -)", arg);
    return -1;
  }
  memcpy(c->name, arg, (size_t)(eq - arg));
  c->name[eq - arg] = '\0';
  char rect[64];
  const char *colon = strchr(eq + 1, ':');
  size_t n = colon ? (size_t)(colon - eq - 1) : strlen(eq + 1);
  if (n >= sizeof rect) {
    cli_err(EXIT_USAGE, "cut: '%s': the rectangle is too long", arg);
    return -1;
  }
  memcpy(rect, eq + 1, n);
  rect[n] = '\0';
  if (cli_parse_rect(&c->r, c->name, rect) < 0) return -1;
  c->keep_rgb = keep_rgb, c->keep_tol = keep_tol;
  if (colon && cli_parse_keep(&c->keep_rgb, &c->keep_tol, c->name, colon + 1) < 0) return -1;
  return 0;
}
