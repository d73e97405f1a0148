/* The CLI's option parsers (tools/stepcheck/args.c, cut_args.c): whole
 * numbers, sizes in bytes, seconds, WxH, x,y,w,h, RRGGBB, RRGGBB,TOL and
 * cut's NAME=x,y,w,h[:RRGGBB[,TOL]]. Input: the first byte picks the
 * parser (mod 8), the rest up to its first NUL is the value. Invariants
 * beyond "no crash, leak or UB": a value is accepted only when it is
 * written plainly (digits, and what its kind adds: no space, '+', hex,
 * exponent, "inf"), every accepted number lies in its range, and a cut
 * name is 1..63 letters, digits, _ and -. (Issue 39 item 9: " -5" passed
 * --frames.) */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"

/* s matches DIGITS (1..18 of them) from *p on, moved past them. */
static int digits(const char **p) {
  const char *s = *p;
  while (**p >= '0' && **p <= '9') ++*p;
  return *p > s;
}

static int plain_int(const char *s) {
  if (*s == '-') s++;
  return digits(&s) && !*s;
}

static int fields(const char *s, int n, char sep) {
  for (int i = 0; i < n; i++) {
    if (!digits(&s)) return 0;
    if (i < n - 1 && *s++ != sep) return 0;
  }
  return !*s;
}

static int hex6(const char *s) { return strlen(s) == 6 && strspn(s, "0123456789abcdefABCDEF") == 6; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char v[512];
  size_t n = size - 1 < sizeof v - 1 ? size - 1 : sizeof v - 1;
  memcpy(v, data + 1, n);
  v[n] = '\0';
  switch (data[0] % 8) {
  case 0: { /* --cycles-like and a range with negatives */
    int x = 7;
    if (cli_parse_int(&x, "--n", v, 1, 1000000) == 0) FUZZ_CHECK(plain_int(v) && v[0] != '-' && x >= 1 && x <= 1000000);
    if (cli_parse_int(&x, "--n", v, -50, 50) == 0) FUZZ_CHECK(plain_int(v) && x >= -50 && x <= 50);
    break;
  }
  case 1: { /* --frames */
    long long b = -1;
    if (cli_parse_bytes(&b, "--frames", v) == 0) {
      const char *p = v;
      int ok = !strcmp(v, "all") || !strcmp(v, "failures") ||
               (digits(&p) && (!*p || ((*p == 'K' || *p == 'M' || *p == 'G') && !p[1])));
      FUZZ_CHECK(ok && b >= 0);
    }
    break;
  }
  case 2: { /* --duration, --every */
    double ms = -1;
    if (cli_parse_seconds(&ms, "--duration", v, 0.001) == 0) {
      const char *p = v;
      int whole = digits(&p), frac = 0;
      if (*p == '.') p++, frac = digits(&p);
      FUZZ_CHECK(!*p && (strchr(v, '.') ? frac : whole) && ms >= 1.0 && ms <= 1e10);
    }
    break;
  }
  case 3: { /* --viewport, --guest */
    int w = 0, h = 0;
    if (cli_parse_size(&w, &h, "--viewport", v) == 0)
      FUZZ_CHECK(fields(v, 2, 'x') && w >= 1 && w <= 16384 && h >= 1 && h <= 16384);
    break;
  }
  case 4: { /* --region */
    sc_rect r;
    if (cli_parse_rect(&r, "--region", v) == 0)
      FUZZ_CHECK(fields(v, 4, ',') && r.x >= 0 && r.y >= 0 && r.w > 0 && r.h > 0);
    break;
  }
  case 5: { /* --ink */
    uint32_t rgb = 0;
    if (cli_parse_rgb(&rgb, "--ink", v) == 0) FUZZ_CHECK(hex6(v) && rgb <= 0xffffff);
    break;
  }
  case 6: { /* --keep */
    long rgb = -1;
    int tol = 64;
    if (cli_parse_keep(&rgb, &tol, "--keep", v) == 0)
      FUZZ_CHECK(rgb >= 0 && rgb <= 0xffffff && tol >= 0 && tol <= 255 &&
                 (strlen(v) == 6 || (v[6] == ',' && plain_int(v + 7) && v[7] != '-')));
    break;
  }
  default: { /* cut NAME=x,y,w,h[:RRGGBB[,TOL]] */
    cli_cut c;
    if (cli_parse_cut(&c, v, -1, 64) == 0) {
      size_t k = strlen(c.name);
      FUZZ_CHECK(k >= 1 && k <= 63 && !strncmp(v, c.name, k) && v[k] == '=');
      FUZZ_CHECK(strspn(c.name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == k);
      FUZZ_CHECK(c.r.x >= 0 && c.r.y >= 0 && c.r.w > 0 && c.r.h > 0);
      FUZZ_CHECK(c.keep_rgb >= -1 && c.keep_rgb <= 0xffffff && c.keep_tol >= 0 && c.keep_tol <= 255);
    }
    break;
  }
  }
  return 0;
}
