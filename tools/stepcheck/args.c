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

/* Numbers are written plainly: the C library's readers also take leading
 * white space, a '+', hex and "inf", so " -5" passed a check on s[0] and
 * reached the library (issue 39 item 9). These say what a number may look
 * like before any conversion: digits, and what each kind adds. */
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The digits at *p (at least one, at most 18: no overflow), moved past. */
static int digits(const char **p) {
  const char *s = *p;
  while (is_digit(**p)) ++*p;
  return *p > s && *p - s <= 18;
}

/* "[-]DIGITS" and nothing else (the '-' only when negative is allowed). */
static int plain_int(const char *s, int negative) {
  if (negative && *s == '-') s++;
  return digits(&s) && !*s;
}

int cli_parse_int(int *v, const char *opt, const char *s, int min, int max) {
  char *end;
  errno = 0;
  long x = plain_int(s, min < 0) ? strtol(s, &end, 10) : 0;
  if (!plain_int(s, min < 0) || errno || x < min || x > max) {
    cli_err(EXIT_USAGE, "%s: '%s' is not a whole number from %d to %d", opt, s, min, max);
    return -1;
  }
  *v = (int)x;
  return 0;
}

int cli_parse_bytes(long long *v, const char *opt, const char *s) {
  if (!strcmp(s, "all")) return *v = LLONG_MAX, 0;
  if (!strcmp(s, "failures")) return *v = 0, 0;
  char *end = NULL;
  const char *d = s;
  int ok = digits(&d); /* DIGITS[K|M|G]: no sign, no space */
  errno = 0;
  long long x = ok ? strtoll(s, &end, 10) : 0;
  long long unit = !ok ? 0 : !strcmp(d, "K") ? 1LL << 10 : !strcmp(d, "M") ? 1LL << 20
                   : !strcmp(d, "G") ? 1LL << 30 : *d ? 0 : 1;
  if (!ok || errno || end != d || !unit || x > LLONG_MAX / unit) {
    cli_err(EXIT_USAGE, "%s: '%s' is not a size (bytes, or with K, M or G), all or failures",
            opt, s);
    return -1;
  }
  *v = x * unit;
  return 0;
}

/* DIGITS then `sep` (or the end when sep is 0) into *v (< 2^31). */
static int field(const char **p, char sep, int *v) {
  const char *s = *p;
  if (!digits(p)) return 0;
  long long x = strtoll(s, NULL, 10);
  if (x > 2147483647LL) return 0;
  *v = (int)x;
  if (sep) return **p == sep ? (++*p, 1) : 0;
  return **p == '\0';
}

int cli_parse_rect(sc_rect *r, const char *opt, const char *s) {
  const char *p = s;
  if (!field(&p, ',', &r->x) || !field(&p, ',', &r->y) || !field(&p, ',', &r->w) ||
      !field(&p, 0, &r->h) || r->w <= 0 || r->h <= 0) {
    cli_err(EXIT_USAGE, "%s: '%s' is not x,y,w,h (w and h > 0)", opt, s);
    return -1;
  }
  return 0;
}

int cli_parse_size(int *w, int *h, const char *opt, const char *s) {
  const char *p = s;
  if (!field(&p, 'x', w) || !field(&p, 0, h) || *w <= 0 || *h <= 0 || *w > 16384 ||
      *h > 16384) {
    cli_err(EXIT_USAGE, "%s: '%s' is not WIDTHxHEIGHT", opt, s);
    return -1;
  }
  return 0;
}

int cli_parse_rgb(uint32_t *rgb, const char *opt, const char *s) {
  char *end;
  if (strlen(s) != 6 || strspn(s, "0123456789abcdefABCDEF") != 6 ||
      (*rgb = (uint32_t)strtoul(s, &end, 16), *end)) {
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
  /* DIGITS[.DIGITS] or .DIGITS: no sign, space, exponent, hex or inf */
  const char *p = s;
  int whole = digits(&p), dot = *p == '.', frac = dot ? (++p, digits(&p)) : 0;
  int plain = !*p && (dot ? frac : whole);
  char *end = NULL;
  double v = plain ? strtod(s, &end) : 0;
  if (!plain || !end || *end || !(v >= min_s) || v > 1e7)
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
