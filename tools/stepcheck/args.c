/* Argument helpers and error printing for the CLI. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Every line the CLI prints about an error quotes something from outside
 * (an argument, a path, a message): one line, its controls escaped. */
int cli_err(int code, const char *fmt, ...) {
  char raw[8192], shown[8192];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  sc_escape_ctl(shown, sizeof shown, raw);
  fprintf(stderr, "stepcheck: %s\n", shown);
  return code;
}

const char *cli_shown(char *buf, size_t n, const char *s) {
  sc_escape_ctl(buf, n, s);
  return buf;
}

int cli_lib_err(int rc, const char *what) {
  const char *m = sc_errmsg();
  int code = (rc == SC_EINVAL || rc == SC_ESCENARIO || rc == SC_EFORMAT || rc == SC_ETOOBIG ||
              rc == SC_ENOTEXT || rc == SC_EUNREADABLE || rc == SC_EDATA)
                 ? EXIT_USAGE
                 : EXIT_INFRA;
  return cli_err(code, "%s: %s", what, *m ? m : sc_strerror(rc));
}

/* A run that stopped on rc: a locator that found nothing (or two places)
 * is the application not showing what the scenario looks for, like a
 * failed step, and the same every time: not an infrastructure error. A
 * scenario that breaks a rule only the screen could show (an inset that
 * leaves nothing of what a locator found) is the scenario's: 2. */
int cli_run_exit(int rc) {
  return rc == SC_ELOCATE ? EXIT_FAIL : rc == SC_ESCENARIO ? EXIT_USAGE : EXIT_INFRA;
}

int cli_browser_err(int rc, const char *what) {
  const char *m = sc_errmsg();
  /* Only an argument refused before the browser was asked is the user's
   * (a bad URL, a region outside the canvas); what the browser sent back,
   * malformed or too big, is a runtime error like a crash or a timeout. */
  int code = rc == SC_EINVAL ? EXIT_USAGE : cli_run_exit(rc);
  return cli_err(code, "%s: %s", what, *m ? m : sc_strerror(rc));
}

int cli_input_err(int rc, const char *what) {
  const char *m = sc_errmsg();
  return cli_err(EXIT_USAGE, "%s: %s", what, *m ? m : sc_strerror(rc));
}

const char *cli_value(int argc, char **argv, int *i) {
  if (*i + 1 >= argc) {
    cli_err(EXIT_USAGE, "option %s needs a value", argv[*i]);
    return NULL;
  }
  return argv[++*i];
}

int cli_parse_int(int *v, const char *opt, const char *s, int min, int max) {
  char *end;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (errno || end == s || *end || x < min || x > max) {
    cli_err(EXIT_USAGE, "%s: '%s' is not a whole number from %d to %d", opt, s, min, max);
    return -1;
  }
  *v = (int)x;
  return 0;
}

int cli_parse_bytes(long long *v, const char *opt, const char *s) {
  if (!strcmp(s, "all")) return *v = LLONG_MAX, 0;
  if (!strcmp(s, "failures")) return *v = 0, 0;
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  long long unit = !strcmp(end, "K") ? 1LL << 10 : !strcmp(end, "M") ? 1LL << 20
                   : !strcmp(end, "G") ? 1LL << 30 : *end ? 0 : 1;
  if (errno || end == s || s[0] == '-' || !unit || x > LLONG_MAX / unit) {
    cli_err(EXIT_USAGE, "%s: '%s' is not a size (bytes, or with K, M or G), all or failures",
            opt, s);
    return -1;
  }
  *v = x * unit;
  return 0;
}

int cli_parse_rect(sc_rect *r, const char *opt, const char *s) {
  int n = 0;
  if (sscanf(s, "%d,%d,%d,%d%n", &r->x, &r->y, &r->w, &r->h, &n) != 4 || s[n] || r->w <= 0 ||
      r->h <= 0 || r->x < 0 || r->y < 0) {
    cli_err(EXIT_USAGE, "%s: '%s' is not x,y,w,h (w and h > 0)", opt, s);
    return -1;
  }
  return 0;
}

int cli_parse_size(int *w, int *h, const char *opt, const char *s) {
  int n = 0;
  if (sscanf(s, "%dx%d%n", w, h, &n) != 2 || s[n] || *w <= 0 || *h <= 0 || *w > 16384 ||
      *h > 16384) {
    cli_err(EXIT_USAGE, "%s: '%s' is not WIDTHxHEIGHT", opt, s);
    return -1;
  }
  return 0;
}

int cli_parse_rgb(uint32_t *rgb, const char *opt, const char *s) {
  char *end;
  if (strlen(s) != 6 || (*rgb = (uint32_t)strtoul(s, &end, 16), *end)) {
    cli_err(EXIT_USAGE, "%s: '%s' is not a colour RRGGBB", opt, s);
    return -1;
  }
  return 0;
}

/* RRGGBB or RRGGBB,TOL (TOL 0..255; *tol keeps its default without one). */
int cli_parse_keep(long *rgb, int *tol, const char *opt, const char *s) {
  char hex[7];
  const char *comma = strchr(s, ',');
  size_t n = comma ? (size_t)(comma - s) : strlen(s);
  uint32_t v = 0;
  if (n != 6) return cli_err(EXIT_USAGE, "%s: '%s' is not RRGGBB or RRGGBB,TOL", opt, s), -1;
  memcpy(hex, s, 6);
  hex[6] = '\0';
  if (cli_parse_rgb(&v, opt, hex) < 0) return -1;
  if (comma && cli_parse_int(tol, opt, comma + 1, 0, 255) < 0) return -1;
  *rgb = (long)v;
  return 0;
}

int cli_parse_seconds(double *ms, const char *opt, const char *s, double min_s) {
  char *end = NULL;
  double v = strtod(s, &end);
  if (!end || end == s || *end || !(v >= min_s) || v > 1e7)
    return cli_err(EXIT_USAGE, "%s: '%s' is not a number of seconds >= %g", opt, s, min_s), -1;
  *ms = v * 1000.0;
  return 0;
}

int cli_allow_scheme(unsigned *allow, const char *opt, const char *v) {
  if (!strcmp(v, "file")) *allow |= SC_URL_FILE;
  else if (!strcmp(v, "data")) *allow |= SC_URL_DATA;
  else if (!strcmp(v, "http") || !strcmp(v, "https")) *allow |= SC_URL_DEFAULT;
  else return cli_err(EXIT_USAGE, "%s: '%s' is not a scheme that can be allowed (file, data)", opt, v), -1;
  return 0;
}

int cli_check_output(const char *cmd, const char *opt, const char *path) {
  if (sc_output_check(path) == 0) return 0;
  const char *m = sc_errmsg(); /* "PATH: why": the path is said once */
  size_t n = strlen(path);
  if (!strncmp(m, path, n) && !strncmp(m + n, ": ", 2)) m += n + 2;
  cli_err(EXIT_USAGE, "%s: %s %s: %s", cmd, opt, path, m);
  return -1;
}

int cli_check_output_dir(const char *cmd, const char *opt, const char *dir) {
  if (sc_output_check_dir(dir) == 0) return 0;
  cli_err(EXIT_USAGE, "%s: %s %s", cmd, opt, sc_errmsg());
  return -1;
}

int cli_check_url(const char *url, unsigned allow) {
  if (sc_url_check(url, allow) < 0) {
    cli_err(EXIT_USAGE, "--url: %s%s", sc_errmsg(),
            allow & SC_URL_FILE ? "" : " (--allow-url-scheme file opens local files)");
    return -1;
  }
  return 0;
}
