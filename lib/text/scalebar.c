/* The JOSM scale bar (org.openstreetmap.josm.gui.MapScaler, JOSM 18646):
 * ticks drawn from y=0 to y=10 at x = (int)(5 + i * spacing), the bar at
 * y=5 from the first to the last tick, "0" centred under the first tick and
 * the label centred under the last one with its baseline at y=23 (pushed
 * right to 5 px after the "0" when they would overlap). The label is
 * SystemOfMeasurement.getDistText(): "%.2f %s" below 9.999999, "%.1f %s"
 * otherwise, "< 0.01 <small unit>" below 0.01 small units. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "text/text_priv.h"

#define TICK_HALF 5   /* major ticks reach 5 px above and below the bar */
#define BASELINE_DY 18 /* label baseline, px below the bar */

static const struct {
  const char *unit;
  double metres;
} units[] = {{"m", 1.0},      {"km", 1000.0}, {"ft", 0.3048},
             {"mi", 1609.344}, {"kbl", 185.2}, {"NM", 1852.0}};

static sc_glyphset *josm_glyphs; /* parsed once; never freed (read-only) */

static int josm_set(const sc_glyphset **out) {
  sc_glyphset *gs = __atomic_load_n(&josm_glyphs, __ATOMIC_ACQUIRE);
  if (!gs) {
    int rc = sc_glyphset_load(&gs, "josm");
    if (rc) return rc;
    sc_glyphset *expect = NULL;
    if (!__atomic_compare_exchange_n(&josm_glyphs, &expect, gs, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE)) {
      sc_glyphset_free(gs);
      gs = expect;
    }
  }
  *out = gs;
  return 0;
}

/* A JOSM-style scale bar drawn in another font: the glyph set comes from a
 * file. The last one loaded is kept per thread, so polling the same
 * profile does not parse the file on every read; a thread's set is freed
 * when the thread exits (pthread key destructor), so threads that come and
 * go leak nothing. */
typedef struct file_set_cache {
  char *path;
  sc_glyphset *gs;
} file_set_cache;

static pthread_key_t g_file_set_key;
static pthread_once_t g_file_set_once = PTHREAD_ONCE_INIT;
static int g_file_set_key_ok;

static void file_set_cache_free(void *p) {
  file_set_cache *c = p;
  if (!c) return;
  sc_glyphset_free(c->gs);
  sc__free(c->path);
  sc__free(c);
}

static void file_set_key_make(void) {
  g_file_set_key_ok = pthread_key_create(&g_file_set_key, file_set_cache_free) == 0;
}

static int file_set(const sc_glyphset **out, const char *path) {
  pthread_once(&g_file_set_once, file_set_key_make);
  if (!g_file_set_key_ok) return sc__err(SC_ENOMEM, "scalebar: no thread-local key");
  file_set_cache *c = pthread_getspecific(g_file_set_key);
  if (c && c->path && !strcmp(c->path, path)) {
    *out = c->gs;
    return 0;
  }
  if (!c) {
    if (!(c = sc__calloc(1, sizeof *c)) || pthread_setspecific(g_file_set_key, c) != 0) {
      sc__free(c);
      return sc__err(SC_ENOMEM, "scalebar: out of memory");
    }
  }
  sc_glyphset *gs = NULL;
  int rc = sc_glyphset_load(&gs, path);
  if (rc) return rc;
  char *copy = sc__strdup(path);
  if (!copy) {
    sc_glyphset_free(gs);
    return sc__err(SC_ENOMEM, "scalebar: out of memory");
  }
  sc_glyphset_free(c->gs);
  sc__free(c->path);
  c->gs = gs;
  c->path = copy;
  *out = gs;
  return 0;
}

/* "josm": the builtin set. A glyph-set path (containing '/' or ending in
 * ".glyphs"): JOSM's layout and label rules in that font. */
static int profile_set(const sc_glyphset **out, const char *profile) {
  size_t n = strlen(profile);
  if (!strcmp(profile, "josm")) return josm_set(out);
  if (strchr(profile, '/') || (n > 7 && !strcmp(profile + n - 7, ".glyphs")))
    return file_set(out, profile);
  return sc__err(SC_ENOTFOUND,
                 "scalebar: unknown profile \"%s\" (known: josm, or a .glyphs file)", profile);
}

static int ink_at(const sc__mask *mk, int x, int y) {
  return x >= 0 && y >= 0 && x < mk->w && y < mk->h && mk->m[(size_t)y * (size_t)mk->w + (size_t)x];
}

/* A major tick at column x through bar row y: 11 ink pixels, one may be lost. */
static int full_tick(const sc__mask *mk, int x, int y) {
  int miss = 0;
  for (int dy = -TICK_HALF; dy <= TICK_HALF; dy++) miss += !ink_at(mk, x, y + dy);
  return miss <= 1 && ink_at(mk, x, y);
}

/* Longest horizontal ink run with a full tick at each end. */
static int find_bar(const sc__mask *mk, int *by, int *bx0, int *bx1) {
  int best = 0;
  for (int y = TICK_HALF; y + TICK_HALF < mk->h; y++) {
    const uint8_t *row = mk->m + (size_t)y * (size_t)mk->w;
    for (int x = 0; x < mk->w;) {
      if (!row[x]) {
        x++;
        continue;
      }
      /* Lossy VNC encodings can darken a lone bar pixel: bridge 1 px holes. */
      int a = x;
      while (x < mk->w && (row[x] || (x + 1 < mk->w && row[x + 1] && x > a))) x++;
      int b = x - 1;
      if (b - a + 1 <= best) continue;
      int l = a, r = b;
      while (l < r && !full_tick(mk, l, y)) l++;
      while (r > l && !full_tick(mk, r, y)) r--;
      if (r - l >= 8 && r - l > best) {
        best = r - l;
        *by = y;
        *bx0 = l;
        *bx1 = r;
      }
    }
  }
  return best;
}

/* "123.4" -> value, checking JOSM's format: two decimals below 9.999999,
 * one otherwise, no leading zeros. */
static int parse_number(const char *s, double *v) {
  size_t n = strlen(s);
  const char *dot = strchr(s, '.');
  if (!dot || dot == s || strchr(dot + 1, '.')) return 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] != '.' && (s[i] < '0' || s[i] > '9')) return 0;
  size_t ip = (size_t)(dot - s), dp = n - ip - 1;
  if (ip > 1 && s[0] == '0') return 0;
  *v = strtod(s, NULL);
  return (*v < 9.999999 ? dp == 2 : dp == 1);
}

/* JOSM's bar always spans d * 10^n metres, d in 1..9 (TickMarks picks the
 * spacing from 10^n, 10^n / 2 and 5 * 10^n); other units print that
 * distance converted and rounded. A label whose metres, give or take its
 * rounding, are no such number was misread (a covered digit, "mi" with its
 * "i" hidden reading as "m", ...). */
static int josm_round_distance(double metres, double half_ulp_m) {
  if (!(metres > 0)) return 0;
  int n = (int)floor(log10(metres));
  for (int e = n - 1; e <= n + 1; e++) {
    double p = pow(10.0, e);
    for (int d = 1; d <= 9; d++)
      if (fabs(d * p - metres) <= half_ulp_m + 1e-9 * metres) return 1;
  }
  return 0;
}

typedef struct word {
  size_t g0, g1; /* glyph range [g0, g1) */
  char s[SC_TEXT_MAX_CHARS];
  int x0, x1;    /* ink columns, image coordinates, x1 exclusive */
} word;

/* 1 for "<", 2 for digits and '.', 3 for letters (units). */
static int glyph_class(const char *name) {
  if (name[0] == '<') return 1;
  if ((name[0] >= '0' && name[0] <= '9') || name[0] == '.') return 2;
  return 3;
}

/* Words of the label: a new word starts where the glyph class changes or
 * at a gap of WORD_GAP px. Gap width alone cannot split this font: "4 ft"
 * has a 3 px gap (the f overhangs left), "1." a 4 px one. */
#define WORD_GAP 9
#define MAX_WORD_GAP 8
static size_t split_words(word *w, size_t maxw, const sc_text_result *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->nglyphs; i++) {
    const sc_rect *b = &r->glyphs[i].box;
    int newword = i == 0 ||
                  b->x - (r->glyphs[i - 1].box.x + r->glyphs[i - 1].box.w) >= WORD_GAP ||
                  glyph_class(r->glyphs[i].name) != glyph_class(r->glyphs[i - 1].name);
    if (newword) {
      if (n == maxw) break;
      w[n] = (word){i, i, {0}, b->x, b->x};
      n++;
    }
    word *c = &w[n - 1];
    size_t l = strlen(c->s);
    snprintf(c->s + l, sizeof c->s - l, "%s", r->glyphs[i].name);
    c->g1 = i + 1;
    c->x1 = b->x + b->w;
  }
  return n;
}

SC_EXTERN int sc_scalebar_read(sc_scale_reading *out, const sc_image *img, sc_rect region,
                               const char *profile, const sc_text_options *opts) {
  if (!out || !img || !profile) return sc__err(SC_EINVAL, "scalebar: NULL argument");
  memset(out, 0, sizeof *out);
  sc_text_options o;
  if (sc__text_options_read(&o, opts, "sc_scalebar_read")) return SC_EINVAL;
  opts = &o;
  const sc_glyphset *gs = NULL;
  int rc = profile_set(&gs, profile);
  if (rc) return rc;
  if (sc__clip_region(&region, img))
    return sc__err(SC_EINVAL, "scalebar: region %dx%d%+d%+d lies outside the %dx%d image",
                   region.w, region.h, region.x, region.y, img->width, img->height);
  sc__mask mk;
  rc = sc__mask_make(&mk, img, region, gs->ink_rgb, gs->tol);
  if (rc) return rc;
  size_t ink = 0;
  for (size_t i = 0; i < (size_t)mk.w * (size_t)mk.h; i++) ink += mk.m[i];
  if (!ink) {
    rc = sc__err(SC_ENOTEXT, "scalebar: no white ink in the region");
    goto out;
  }
  int by = 0, left = 0, right = 0;
  if (!find_bar(&mk, &by, &left, &right)) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: no bar with end ticks in the region");
    goto out;
  }
  int baseline = by + BASELINE_DY;
  int y0 = by + TICK_HALF + 2, y1 = baseline + 2;
  if (y1 > mk.h) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: bar at row %d but the label is cut off below",
                 region.y + by);
    goto out;
  }
  /* The "0" centred under the left tick proves this is the bar's start
   * (a region cutting the bar leaves a middle tick as its left end). */
  sc_text_result line;
  int zx0 = left - 5, zx1 = left + 4;
  if (zx0 < 0 || zx1 > mk.w) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: the \"0\" under the left tick is cut off");
    goto out;
  }
  rc = sc__match_line(&line, &mk, zx0, zx1, y0, y1, baseline, gs, region.x, region.y);
  if (rc < 0) goto out;
  if (line.nglyphs != 1 || strcmp(line.glyphs[0].name, "0") != 0 ||
      line.confidence < opts->min_confidence || line.stray_px > opts->max_stray_px ||
      abs(2 * (line.glyphs[0].box.x - region.x) + line.glyphs[0].box.w - 1 - 2 * left + 2) > 2) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: no \"0\" under the left tick at x=%d (read \"%s\")",
                 region.x + left, line.text);
    goto out;
  }
  /* Everything right of the "0". */
  int x0 = left + 3;
  rc = sc__match_line(&line, &mk, x0, mk.w, y0, y1, baseline, gs, region.x, region.y);
  if (rc < 0) goto out;
  word w[SC_TEXT_MAX_GLYPHS];
  size_t nw = split_words(w, SC_TEXT_MAX_GLYPHS, &line);
  /* The label: [<] number unit, its unit word nearest the right tick. */
  int tick = region.x + right;
  int found = 0, bestd = 1 << 30;
  size_t lw0 = 0, lw1 = 0;
  for (size_t j = 1; j < nw; j++) {
    int is_unit = 0;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
      is_unit |= strcmp(w[j].s, units[u].unit) == 0;
    double v;
    if (!is_unit || !parse_number(w[j - 1].s, &v)) continue;
    size_t a = j - 1;
    if (a > 0 && strcmp(w[a - 1].s, "<") == 0) a--;
    int c2 = w[a].x0 + w[j].x1; /* twice the centre */
    int d = abs(c2 - 2 * tick);
    if (d < bestd) {
      bestd = d;
      lw0 = a;
      lw1 = j + 1;
      found = 1;
    }
  }
  if (!found) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: bar of %d px found but no \"<number> <unit>\" label "
                 "(read \"%s\")", right - left, line.text);
    goto out;
  }
  int lx0 = w[lw0].x0, lx1 = w[lw1 - 1].x1;
  /* JOSM centres the label on the tick, or pushes it right of the "0". */
  int off2 = lx0 + lx1 - 2 * tick;
  int pushed = lx0 - (region.x + left) <= 16 && off2 > 0;
  if (!pushed && (off2 < -4 || off2 > 4)) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: label \"%s...\" is centred %.1f px from the end tick",
                 w[lw0].s, off2 / 2.0);
    goto out;
  }
  /* A label running into the region's edge may be cut: "mi" would read "m". */
  if (lx1 - region.x + 3 > mk.w) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: label \"%s...\" runs into the region's right edge",
                 w[lw0].s);
    goto out;
  }
  /* Re-read exactly the label's columns (plus a margin) to count ink in it
   * that no glyph explains. */
  int mx0 = lx0 - region.x - 2, mx1 = lx1 - region.x + 2;
  if (mx0 < x0) mx0 = x0;
  if (mx1 > mk.w) mx1 = mk.w;
  sc_text_result lab;
  rc = sc__match_line(&lab, &mk, mx0, mx1, y0, y1, baseline, gs, region.x, region.y);
  if (rc < 0) goto out;
  rc = 0;
  size_t nlw = split_words(w, SC_TEXT_MAX_GLYPHS, &lab);
  snprintf(out->text, sizeof out->text, "%s", lab.text);
  out->confidence = lab.confidence;
  out->text_box = lab.box;
  if (lab.stray_px > opts->max_stray_px) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: label \"%s\" has %d stray ink pixels (max %d)",
                 lab.text, lab.stray_px, opts->max_stray_px);
    goto out;
  }
  for (size_t i = 0; i < lab.nglyphs; i++)
    if (lab.glyphs[i].confidence < opts->min_confidence) {
      rc = sc__err(SC_EUNREADABLE, "scalebar: label \"%s\": glyph '%s' has confidence %.2f < %.2f",
                   lab.text, lab.glyphs[i].name, lab.glyphs[i].confidence, opts->min_confidence);
      goto out;
    }
  /* The re-read must give the same words. */
  size_t k = 0;
  int lt = nlw == 3 && strcmp(w[0].s, "<") == 0;
  if (lt) k = 1;
  double v = 0;
  /* One space between the words: JOSM's gaps are 3..7 px; a covered glyph
   * ("2.00 km" with the k hidden reads "2.00 m") leaves a wider one. */
  int gaps_ok = 1;
  for (size_t j = 1; j < nlw; j++) gaps_ok &= w[j].x0 - w[j - 1].x1 <= MAX_WORD_GAP;
  if (!gaps_ok) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: label \"%s\" has a gap wider than one space",
                 lab.text);
    goto out;
  }
  if (nlw != k + 2 || !parse_number(w[k].s, &v)) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: label \"%s\" does not parse", lab.text);
    goto out;
  }
  double per = 0;
  for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
    if (strcmp(w[k + 1].s, units[u].unit) == 0) per = units[u].metres;
  if (per == 0 || v <= 0 || (lt && v != 0.01)) {
    rc = sc__err(SC_EUNREADABLE, "scalebar: label \"%s\" does not parse", lab.text);
    goto out;
  }
  snprintf(out->text, sizeof out->text, "%s%s %s", lt ? "< " : "", w[k].s, w[k + 1].s);
  double half_ulp = (v < 9.999999 ? 0.005 : 0.05) * per;
  if (!lt && !josm_round_distance(v * per, half_ulp)) {
    rc = sc__err(SC_EUNREADABLE,
                 "scalebar: label \"%s\" is %g m, not a distance JOSM draws (d x 10^n m)",
                 out->text, v * per);
    goto out;
  }
  out->value = v;
  snprintf(out->unit, sizeof out->unit, "%s", w[k + 1].s);
  out->less_than = lt;
  out->metres = v * per;
  out->bar_px = right - left;
  out->length_px = out->bar_px + 0.5;
  out->metres_per_px = out->metres / out->length_px;
  out->rel_err = 0.5 / out->bar_px;
  out->bar = (sc_rect){region.x + left, region.y + by - TICK_HALF, right - left + 1,
                       2 * TICK_HALF + 1};
out:
  sc__mask_free(&mk);
  return rc;
}

SC_EXTERN int sc_scale_ratio(double *factor, double *rel_err, const sc_scale_reading *before,
                             const sc_scale_reading *after) {
  if (!factor || !before || !after) return sc__err(SC_EINVAL, "scalebar: NULL argument");
  *factor = 0;
  if (rel_err) *rel_err = 0;
  if (before->less_than || after->less_than)
    return sc__err(SC_EDATA, "scalebar: a \"< x\" label is only a bound; no ratio");
  if (!(before->metres_per_px > 0) || !(after->metres_per_px > 0) ||
      !(before->rel_err >= 0 && before->rel_err < 1) || !(after->rel_err >= 0))
    return sc__err(SC_EDATA, "scalebar: reading without a positive scale");
  *factor = after->metres_per_px / before->metres_per_px;
  if (rel_err) *rel_err = (before->rel_err + after->rel_err) / (1.0 - before->rel_err);
  return 0;
}
