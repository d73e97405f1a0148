/* The scale-bar reader: a bar found by the shape its profile describes
 * (scaleprofile.c), its label read in the profile's glyph set where the
 * profile says it is drawn, and every rule of the profile checked before
 * a value is given (docs/text.md, "Scale-bar profiles").
 *
 * The builtin "josm" profile is JOSM's MapScaler (JOSM 18646): ticks drawn
 * from y=0 to y=10 at x = (int)(5 + i * spacing), the bar at y=5 from the
 * first to the last tick, "0" centred under the first tick and the label
 * centred under the last one with its baseline at y=23 (pushed right to
 * 5 px after the "0" when they would overlap). The label is
 * SystemOfMeasurement.getDistText(): "%.2f %s" below 9.999999, "%.1f %s"
 * otherwise, "< 0.01 <small unit>" below 0.01 small units. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "text/scaleprofile_priv.h"
#include "text/text_priv.h"

/* The profile named by a string, kept per thread: the last one loaded, so
 * polling reads do not parse it again; freed when the thread exits
 * (pthread key destructor), so threads that come and go leak nothing.
 * "josm" and the other builtins, a ".json" profile path, or (as before
 * profiles) any other path, a glyph-set file: JOSM's layout in that font. */
typedef struct profile_cache {
  char *key;
  sc_scale_profile *p;
} profile_cache;

static pthread_key_t g_profile_key;
static pthread_once_t g_profile_once = PTHREAD_ONCE_INIT;
static int g_profile_key_ok;

static void profile_cache_free(void *v) {
  profile_cache *c = v;
  if (!c) return;
  sc_scale_profile_free(c->p);
  sc__free(c->key);
  sc__free(c);
}

static void profile_key_make(void) {
  g_profile_key_ok = pthread_key_create(&g_profile_key, profile_cache_free) == 0;
}

static int load_named(sc_scale_profile **out, const char *name) {
  size_t n = strlen(name);
  int json = n > 5 && !strcmp(name + n - 5, ".json");
  if (!json && (strchr(name, '/') || (n > 7 && !strcmp(name + n - 7, ".glyphs")))) {
    sc_glyphset *gs = NULL;
    int rc = sc_glyphset_load(&gs, name);
    if (rc) return rc;
    if ((rc = sc_scale_profile_load(out, "josm"))) {
      sc_glyphset_free(gs);
      return rc;
    }
    sc_glyphset_free((*out)->gs);
    (*out)->gs = gs;
    (*out)->bar_rgb = gs->ink_rgb;
    (*out)->bar_tol = gs->tol;
    return 0;
  }
  return sc_scale_profile_load(out, name);
}

static int profile_named(const sc_scale_profile **out, const char *name) {
  pthread_once(&g_profile_once, profile_key_make);
  if (!g_profile_key_ok) return sc__err(SC_ENOMEM, "scalebar: no thread-local key");
  profile_cache *c = pthread_getspecific(g_profile_key);
  if (c && c->key && !strcmp(c->key, name)) {
    *out = c->p;
    return 0;
  }
  if (!c) {
    if (!(c = sc__calloc(1, sizeof *c)) || pthread_setspecific(g_profile_key, c) != 0) {
      sc__free(c);
      return sc__err(SC_ENOMEM, "scalebar: out of memory");
    }
  }
  sc_scale_profile *p = NULL;
  int rc = load_named(&p, name);
  if (rc) return rc;
  char *copy = sc__strdup(name);
  if (!copy) {
    sc_scale_profile_free(p);
    return sc__err(SC_ENOMEM, "scalebar: out of memory");
  }
  sc_scale_profile_free(c->p);
  sc__free(c->key);
  c->p = p;
  c->key = copy;
  *out = p;
  return 0;
}

static int ink_at(const sc__mask *mk, int x, int y) {
  return x >= 0 && y >= 0 && x < mk->w && y < mk->h && mk->m[(size_t)y * (size_t)mk->w + (size_t)x];
}

/* Rows [*t0, *t1] an end tick covers for a bar whose top row is y. */
static void tick_rows(const sc_scale_profile *p, int y, int *t0, int *t1) {
  int bottom = y + p->thick - 1;
  *t0 = p->ticks == SC__TICKS_DOWN ? y : y - p->tick_px;
  *t1 = p->ticks == SC__TICKS_UP ? bottom : bottom + p->tick_px;
}

/* An end tick at columns x..x+tick_w-1 of a bar whose top row is y: each
 * column full, one pixel per column may be lost. */
static int full_tick(const sc__mask *mk, const sc_scale_profile *p, int x, int y) {
  int t0, t1;
  tick_rows(p, y, &t0, &t1);
  for (int c = x; c < x + p->tick_w; c++) {
    int miss = 0;
    for (int r = t0; r <= t1; r++) miss += !ink_at(mk, c, r);
    if (miss > 1 || !ink_at(mk, c, y)) return 0;
  }
  return 1;
}

typedef struct bar_find {
  int y, left, right; /* top row; left columns of the end ticks */
  int run_a, run_b;   /* the longest run seen without two end ticks (for messages) */
  int run_y, run_lt, run_rt;
} bar_find;

/* Longest horizontal ink run with an end tick at each end. */
static int find_bar(const sc__mask *mk, const sc_scale_profile *p, bar_find *f) {
  int best = 0, longest = 0;
  int t0, t1;
  tick_rows(p, 0, &t0, &t1);
  for (int y = -t0; y + t1 < mk->h; y++) {
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
      int l = a, r = b - (p->tick_w - 1);
      while (l < r && !full_tick(mk, p, l, y)) l++;
      while (r > l && !full_tick(mk, p, r, y)) r--;
      if (r - l >= 8 && r - l > best) {
        best = r - l;
        f->y = y;
        f->left = l;
        f->right = r;
      } else if (b - a > longest) {
        longest = b - a;
        f->run_a = a;
        f->run_b = b;
        f->run_y = y;
        f->run_lt = full_tick(mk, p, a, y);
        f->run_rt = full_tick(mk, p, b - (p->tick_w - 1), y);
      }
    }
  }
  if (!best && longest < 16) f->run_b = -1;
  return best;
}

static const char *ticks_name(int t) {
  return t == SC__TICKS_UP ? "up" : t == SC__TICKS_DOWN ? "down" : "through the bar";
}

/* The rule that did not hold when no bar was found. */
static int no_bar(const sc__mask *mk, const sc_scale_profile *p, const bar_find *f, sc_rect region) {
  char shape[96];
  snprintf(shape, sizeof shape, "end ticks %s (%d px, %d wide)", ticks_name(p->ticks), p->tick_px,
           p->tick_w);
  if (f->run_b < 0)
    return sc__err(SC_EUNREADABLE, "scalebar: no bar with end ticks in the region (profile %s "
                   "expects a line with %s)", p->name, shape);
  int x = region.x + f->run_a, y = region.y + f->run_y;
  if (!f->run_rt && f->run_b == mk->w - 1)
    return sc__err(SC_EUNREADABLE, "scalebar: the bar at row %d runs into the region's right "
                   "edge with no end tick: the region cuts the bar", y);
  if (!f->run_lt && f->run_a == 0)
    return sc__err(SC_EUNREADABLE, "scalebar: the bar at row %d runs into the region's left "
                   "edge with no end tick: the region cuts the bar", y);
  return sc__err(SC_EUNREADABLE, "scalebar: a line of %d px at %d,%d has no %s tick; profile %s "
                 "expects %s", f->run_b - f->run_a + 1, x, y, f->run_rt ? "left" : "right", p->name,
                 shape);
}

/* A number as the profile's application prints it.
 * josm: "%.2f" below 9.999999, "%.1f" from there, no leading zeros.
 * plain: Java's and JavaScript's shortest form: "20", "0.5", "0.05": no
 * leading zeros, no trailing zeros after a '.', no '.' without digits. */
static int parse_number(const char *s, int format, double *v) {
  size_t n = strlen(s);
  const char *dot = strchr(s, '.');
  if (n == 0 || (dot && (dot == s || strchr(dot + 1, '.')))) return 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] != '.' && (s[i] < '0' || s[i] > '9')) return 0;
  size_t ip = dot ? (size_t)(dot - s) : n, dp = dot ? n - ip - 1 : 0;
  if (ip > 1 && s[0] == '0') return 0;
  *v = strtod(s, NULL);
  if (format == SC__NUMBER_JOSM) return dot && (*v < 9.999999 ? dp == 2 : dp == 1);
  return !dot || (dp > 0 && s[n - 1] != '0');
}

static int mantissa_in(const sc_scale_profile *p, double m) {
  for (int i = 0; i < p->nmant; i++)
    if (fabs(m - p->mant[i]) <= 1e-9 * p->mant[i]) return 1;
  return 0;
}

/* The label's number is mantissa * 10^n with its mantissa in the series. */
static int in_series_label(const sc_scale_profile *p, double v) {
  if (!(v > 0)) return 0;
  int e = (int)floor(log10(v) + 1e-12);
  return mantissa_in(p, v / pow(10.0, e)) || mantissa_in(p, v / pow(10.0, e - 1)) ||
         mantissa_in(p, v / pow(10.0, e + 1));
}

/* JOSM: the bar always spans d * 10^n metres (TickMarks picks the spacing
 * from 10^n, 10^n / 2 and 5 * 10^n); other units print that distance
 * converted and rounded. A label whose metres, give or take its rounding,
 * are no such number was misread (a covered digit, "mi" with its "i"
 * hidden reading as "m", ...). */
static int in_series_metres(const sc_scale_profile *p, double metres, double half_ulp_m) {
  if (!(metres > 0)) return 0;
  int n = (int)floor(log10(metres));
  for (int e = n - 1; e <= n + 1; e++) {
    double pw = pow(10.0, e);
    for (int i = 0; i < p->nmant; i++)
      if (fabs(p->mant[i] * pw - metres) <= half_ulp_m + 1e-9 * metres) return 1;
  }
  return 0;
}

static void series_text(const sc_scale_profile *p, char *buf, size_t len) {
  size_t k = 0;
  buf[0] = '\0';
  for (int i = 0; i < p->nmant && k + 8 < len; i++)
    k += (size_t)snprintf(buf + k, len - k, "%s%g", i ? "-" : "", p->mant[i]);
  snprintf(buf + k, len - k, " x 10^n%s", p->series_metres ? " m" : "");
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
 * at a gap of WORD_GAP px. Gap width alone cannot split JOSM's font: "4 ft"
 * has a 3 px gap (the f overhangs left), "1." a 4 px one. */
#define WORD_GAP 9
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

static const sc__scale_unit *unit_of(const sc_scale_profile *p, const char *s) {
  for (int u = 0; u < p->nunits; u++)
    if (strcmp(s, p->units[u].name) == 0) return &p->units[u];
  return NULL;
}

/* Everything one read needs, so the steps below read top to bottom. */
typedef struct sb {
  const sc_scale_profile *p;
  const sc_image *img_for_learn; /* learning only */
  const sc_text_options *o;
  sc_rect region;
  sc__mask bar, ink;  /* bar ink; glyph ink (the same mask when the colours agree) */
  int by, left, right;
  int baseline, y0, y1; /* label rows of the mask */
  int x0;               /* first column the label may use */
  int lx0, lx1;         /* the label's ink columns, image coordinates */
} sb;

/* The "0" centred under the left tick proves this is the bar's start
 * (a region cutting the bar leaves a middle tick as its left end). */
static int read_zero(sb *s) {
  const sc_scale_profile *p = s->p;
  sc_text_result line;
  int zx0 = s->left - 5, zx1 = s->left + 4;
  if (zx0 < 0 || zx1 > s->ink.w)
    return sc__err(SC_EUNREADABLE, "scalebar: this profile (%s) expects a \"0\" under the left "
                   "tick; it would be cut off by the region", p->name);
  int rc = sc__match_line(&line, &s->ink, zx0, zx1, s->y0, s->y1, s->baseline, p->gs, s->region.x,
                          s->region.y);
  if (rc < 0) return rc;
  if (line.nglyphs != 1 || strcmp(line.glyphs[0].name, "0") != 0 ||
      line.confidence < s->o->min_confidence || line.stray_px > s->o->max_stray_px ||
      abs(2 * (line.glyphs[0].box.x - s->region.x) + line.glyphs[0].box.w - 1 - 2 * s->left + 2) > 2)
    return sc__err(SC_EUNREADABLE, "scalebar: this profile (%s) expects a \"0\" under the left "
                   "tick at x=%d; none found (read \"%s\")", p->name, s->region.x + s->left,
                   line.text);
  return 0;
}

/* Is word j a unit preceded by a number (and "<")? Sets *a to the first word. */
static int label_at(const sc_scale_profile *p, const word *w, size_t j, size_t *a) {
  double v;
  if (j == 0 || !unit_of(p, w[j].s) || !parse_number(w[j - 1].s, p->number, &v)) return 0;
  *a = j - 1;
  if (p->less_than && *a > 0 && strcmp(w[*a - 1].s, "<") == 0) (*a)--;
  return 1;
}

/* JOSM: the label centred under the right tick (or pushed right of the
 * "0"), its unit word nearest the tick. */
static int place_under_right_tick(sb *s) {
  sc_text_result line;
  int rc = sc__match_line(&line, &s->ink, s->x0, s->ink.w, s->y0, s->y1, s->baseline, s->p->gs,
                          s->region.x, s->region.y);
  if (rc < 0) return rc;
  word w[SC_TEXT_MAX_GLYPHS];
  size_t nw = split_words(w, SC_TEXT_MAX_GLYPHS, &line);
  int tick = s->region.x + s->right;
  int found = 0, bestd = 1 << 30;
  size_t lw0 = 0, lw1 = 0;
  for (size_t j = 1; j < nw; j++) {
    size_t a;
    if (!label_at(s->p, w, j, &a)) continue;
    int d = abs(w[a].x0 + w[j].x1 - 2 * tick); /* twice the centre's distance */
    if (d < bestd) {
      bestd = d;
      lw0 = a;
      lw1 = j + 1;
      found = 1;
    }
  }
  if (!found)
    return sc__err(SC_EUNREADABLE, "scalebar: bar of %d px found but no \"<number> <unit>\" label "
                   "(read \"%s\")", s->right - s->left, line.text);
  s->lx0 = w[lw0].x0;
  s->lx1 = w[lw1 - 1].x1;
  int off2 = s->lx0 + s->lx1 - 2 * tick;
  int pushed = s->lx0 - (s->region.x + s->left) <= 16 && off2 > 0;
  if (!pushed && (off2 < -4 || off2 > 4))
    return sc__err(SC_EUNREADABLE, "scalebar: label \"%s...\" is centred %.1f px from the end "
                   "tick; this profile (%s) centres it under the right tick", w[lw0].s, off2 / 2.0,
                   s->p->name);
  return 0;
}

/* Right of the bar or inside it: the label starts dx px from the right
 * (or left) tick, give or take slack. */
static int place_beside(sb *s) {
  const sc_scale_profile *p = s->p;
  int inside = p->at == SC__LABEL_INSIDE;
  int x1 = inside ? s->right : s->ink.w;
  sc_text_result line;
  int rc = sc__match_line(&line, &s->ink, s->x0, x1, s->y0, s->y1, s->baseline, p->gs, s->region.x,
                          s->region.y);
  if (rc < 0) return rc;
  word w[SC_TEXT_MAX_GLYPHS];
  size_t nw = split_words(w, SC_TEXT_MAX_GLYPHS, &line);
  size_t a = 0, j = 1;
  for (; j < nw; j++)
    if (label_at(p, w, j, &a)) break;
  const char *where = inside ? "inside the bar" : "right of the bar";
  if (j >= nw && !inside) {
    int edge = 0; /* label ink in the last 3 columns: the region cuts the label */
    for (int y = s->y0; y < s->y1; y++)
      for (int x = s->ink.w - 3; x < s->ink.w; x++) edge |= x >= s->x0 && ink_at(&s->ink, x, y);
    if (edge)
      return sc__err(SC_EUNREADABLE, "scalebar: label runs into the region's right edge: the "
                     "region cuts it (read \"%s\")", line.text);
  }
  if (j >= nw)
    return sc__err(SC_EUNREADABLE, "scalebar: bar of %d px found but no \"<number> <unit>\" label "
                   "%s (read \"%s\")", s->right - s->left, where, line.text);
  s->lx0 = w[a].x0;
  s->lx1 = w[j].x1;
  if (p->centred) {
    int want2 = 2 * s->region.x + s->left + s->right + p->tick_w, got2 = s->lx0 + s->lx1;
    if (abs(got2 - want2) > 2 * p->slack)
      return sc__err(SC_EUNREADABLE, "scalebar: label \"%s...\" is centred %.1f px from the "
                     "bar's middle; this profile (%s) centres it inside the bar (+-%d)", w[a].s,
                     (got2 - want2) / 2.0, p->name, p->slack);
    return 0;
  }
  int want = s->region.x + (inside ? s->left : s->right) + p->dx;
  if (abs(s->lx0 - want) > p->slack)
    return sc__err(SC_EUNREADABLE, "scalebar: label \"%s...\" starts at x=%d; this profile (%s) "
                   "draws it %s from x=%d (%d px from the %s tick, +-%d)", w[a].s, s->lx0, p->name,
                   where, want, p->dx, inside ? "left" : "right", p->slack);
  return 0;
}

/* The label's own checks: nothing cut, no stray ink, confident glyphs, one
 * space between words, the application's number format, a unit it draws
 * at that value, and a value of its rounding series. */
static int check_label(sb *s, sc_scale_reading *out) {
  const sc_scale_profile *p = s->p;
  const sc_rect *region = &s->region;
  if (s->lx1 - region->x + 3 > s->ink.w)
    return sc__err(SC_EUNREADABLE, "scalebar: label runs into the region's right edge: the "
                   "region cuts it");
  int mx0 = s->lx0 - region->x - 2, mx1 = s->lx1 - region->x + 2;
  if (mx0 < s->x0) mx0 = s->x0;
  if (mx1 > s->ink.w) mx1 = s->ink.w;
  if (p->at == SC__LABEL_INSIDE && mx1 > s->right) mx1 = s->right;
  sc_text_result lab;
  int rc = sc__match_line(&lab, &s->ink, mx0, mx1, s->y0, s->y1, s->baseline, p->gs, region->x,
                          region->y);
  if (rc < 0) return rc;
  word w[SC_TEXT_MAX_GLYPHS];
  size_t nlw = split_words(w, SC_TEXT_MAX_GLYPHS, &lab);
  snprintf(out->text, sizeof out->text, "%s", lab.text);
  out->confidence = lab.confidence;
  out->text_box = lab.box;
  if (lab.stray_px > s->o->max_stray_px)
    return sc__err(SC_EUNREADABLE, "scalebar: label \"%s\" has %d stray ink pixels (max %d)",
                   lab.text, lab.stray_px, s->o->max_stray_px);
  for (size_t i = 0; i < lab.nglyphs; i++)
    if (lab.glyphs[i].confidence < s->o->min_confidence)
      return sc__err(SC_EUNREADABLE, "scalebar: label \"%s\": glyph '%s' has confidence %.2f < %.2f",
                     lab.text, lab.glyphs[i].name, lab.glyphs[i].confidence, s->o->min_confidence);
  int lt = p->less_than && nlw == 3 && strcmp(w[0].s, "<") == 0;
  size_t k = lt ? 1 : 0;
  /* One space between the words: JOSM's gaps are 3..7 px; a covered glyph
   * ("2.00 km" with the k hidden reads "2.00 m") leaves a wider one. */
  for (size_t j = 1; j < nlw; j++)
    if (w[j].x0 - w[j - 1].x1 > p->max_gap)
      return sc__err(SC_EUNREADABLE, "scalebar: label \"%s\" has a gap wider than one space "
                     "(%d px > %d)", lab.text, w[j].x0 - w[j - 1].x1, p->max_gap);
  double v = 0;
  if (nlw != k + 2 || !parse_number(w[k].s, p->number, &v))
    return sc__err(SC_EUNREADABLE, "scalebar: label \"%s\" does not parse as \"<number> <unit>\" "
                   "in this profile's number format (%s)", lab.text,
                   p->number == SC__NUMBER_JOSM ? "josm: 2 decimals below 10, 1 from 10"
                                                : "plain: 20, 0.5, 0.05");
  const sc__scale_unit *u = unit_of(p, w[k + 1].s);
  if (!u || v <= 0 || (lt && v != 0.01))
    return sc__err(SC_EUNREADABLE, "scalebar: label \"%s\" does not parse", lab.text);
  snprintf(out->text, sizeof out->text, "%s%s %s", lt ? "< " : "", w[k].s, w[k + 1].s);
  if ((u->min > 0 && v < u->min * (1 - 1e-9)) || (u->max > 0 && v > u->max * (1 + 1e-9)))
    return sc__err(SC_EUNREADABLE, "scalebar: label \"%s\": this profile (%s) draws %s only from "
                   "%g to %g", out->text, p->name, u->name, u->min, u->max);
  char series[96];
  series_text(p, series, sizeof series);
  if (!lt && p->series_metres) {
    double half_ulp = (v < 9.999999 ? 0.005 : 0.05) * u->metres;
    if (!in_series_metres(p, v * u->metres, half_ulp))
      return sc__err(SC_EUNREADABLE, "scalebar: label \"%s\" is %g m, not a distance of this "
                     "profile's series (%s)", out->text, v * u->metres, series);
  } else if (!lt && !in_series_label(p, v)) {
    return sc__err(SC_EUNREADABLE, "scalebar: label \"%s\": %s is not in this profile's series "
                   "(%s)", out->text, w[k].s, series);
  }
  out->value = v;
  snprintf(out->unit, sizeof out->unit, "%s", u->name);
  out->less_than = lt;
  out->metres = v * u->metres;
  return 0;
}

/* The length the application computed, from the tick distance it drew:
 * JOSM and GpsPrune truncate it (true length in [n, n + 1)), web maps
 * round it (true length in [n - 1/2, n + 1/2]). */
static int finish(sb *s, sc_scale_reading *out) {
  const sc_scale_profile *p = s->p;
  int n = s->right - s->left - p->offset;
  if (n < 2)
    return sc__err(SC_EUNREADABLE, "scalebar: bar of %d px is too short for this profile (%s)",
                   s->right - s->left, p->name);
  out->bar_px = n;
  if (p->rounding == SC__ROUND_FLOOR) {
    out->length_px = n + 0.5;
    out->rel_err = 0.5 / n;
  } else {
    out->length_px = n;
    out->rel_err = 0.5 / (n - 0.5);
  }
  out->metres_per_px = out->metres / out->length_px;
  int t0, t1;
  tick_rows(p, s->by, &t0, &t1);
  out->bar = (sc_rect){s->region.x + s->left, s->region.y + t0,
                       s->right - s->left + p->tick_w, t1 - t0 + 1};
  return 0;
}

static int label_rows(sb *s) {
  const sc_scale_profile *p = s->p;
  s->baseline = s->by + p->baseline;
  if (p->at == SC__LABEL_UNDER_RIGHT_TICK) {
    int t0, t1;
    tick_rows(p, s->by, &t0, &t1);
    s->y0 = t1 + 2;
    s->y1 = s->baseline + 2;
  } else {
    int asc = 1, desc = 0;
    for (size_t i = 0; i < p->gs->n; i++) {
      if (p->gs->g[i].top > asc) asc = p->gs->g[i].top;
      if (p->gs->g[i].h - p->gs->g[i].top > desc) desc = p->gs->g[i].h - p->gs->g[i].top;
    }
    s->y0 = s->baseline - asc - 1;
    s->y1 = s->baseline + desc + 1;
    if (s->y0 < 0) s->y0 = 0;
  }
  /* A profile may start the label's rows lower, clear of ticks that reach
   * down beside it (OpenLayers' bar: its division markers). */
  if (p->top && s->baseline - p->top > s->y0) s->y0 = s->baseline - p->top;
  if (s->y1 > s->ink.h)
    return sc__err(SC_EUNREADABLE, "scalebar: bar at row %d but the label is cut off below",
                   s->region.y + s->by);
  if (s->baseline - 1 < 0)
    return sc__err(SC_EUNREADABLE, "scalebar: bar at row %d but the label is cut off above",
                   s->region.y + s->by);
  return 0;
}

static int read_with(sc_scale_reading *out, const sc_image *img, sc_rect region,
                     const sc_scale_profile *p, const sc_text_options *opts) {
  sb s = {.p = p, .o = opts, .region = region};
  int rc = sc__mask_make(&s.ink, img, region, p->gs->ink_rgb, p->gs->tol);
  if (rc) return rc;
  int shared = p->bar_rgb == p->gs->ink_rgb && p->bar_tol == p->gs->tol;
  if (shared) {
    s.bar = s.ink;
  } else if ((rc = sc__mask_make(&s.bar, img, region, p->bar_rgb, p->bar_tol))) {
    sc__mask_free(&s.ink);
    return rc;
  }
  size_t ink = 0;
  for (size_t i = 0; i < (size_t)s.bar.w * (size_t)s.bar.h; i++) ink += s.bar.m[i];
  bar_find f = {0};
  if (!ink) {
    rc = sc__err(SC_ENOTEXT, "scalebar: no ink of the bar's colour (%06x) in the region",
                 (unsigned)p->bar_rgb);
  } else if (!find_bar(&s.bar, p, &f)) {
    rc = no_bar(&s.bar, p, &f, region);
  } else {
    s.by = f.y;
    s.left = f.left;
    s.right = f.right;
    s.x0 = p->at == SC__LABEL_UNDER_RIGHT_TICK ? s.left + 3
         : p->at == SC__LABEL_INSIDE ? s.left + p->tick_w : s.right + p->tick_w;
    if (!(rc = label_rows(&s)) && !(rc = p->zero ? read_zero(&s) : 0) &&
        !(rc = p->at == SC__LABEL_UNDER_RIGHT_TICK ? place_under_right_tick(&s)
                                                  : place_beside(&s)) &&
        !(rc = check_label(&s, out)))
      rc = finish(&s, out);
  }
  if (!shared) sc__mask_free(&s.bar);
  sc__mask_free(&s.ink);
  return rc;
}

SC_EXTERN int sc_scalebar_read_with(sc_scale_reading *out, const sc_image *img, sc_rect region,
                                    const sc_scale_profile *profile, const sc_text_options *opts) {
  if (!out || !img || !profile) return sc__err(SC_EINVAL, "scalebar: NULL argument");
  memset(out, 0, sizeof *out);
  sc_text_options o;
  if (sc__text_options_read(&o, opts, "sc_scalebar_read")) return SC_EINVAL;
  if (sc__clip_region(&region, img))
    return sc__err(SC_EINVAL, "scalebar: region %dx%d%+d%+d lies outside the %dx%d image",
                   region.w, region.h, region.x, region.y, img->width, img->height);
  int rc = read_with(out, img, region, profile, &o);
  if (rc) {
    char text[sizeof out->text];
    memcpy(text, out->text, sizeof text);
    memset(out, 0, sizeof *out);
    memcpy(out->text, text, sizeof text); /* what was read, for messages */
  }
  return rc;
}

SC_EXTERN int sc_scalebar_read(sc_scale_reading *out, const sc_image *img, sc_rect region,
                               const char *profile, const sc_text_options *opts) {
  if (!out || !img || !profile) return sc__err(SC_EINVAL, "scalebar: NULL argument");
  memset(out, 0, sizeof *out);
  const sc_scale_profile *p = NULL;
  int rc = profile_named(&p, profile);
  if (rc) return rc;
  return sc_scalebar_read_with(out, img, region, p, opts);
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

/* --- learning a profile from samples --------------------------------------- */

/* Where sample s of a layout draws its label (and its "0"), for learning:
 * columns and rows of the image that hold that ink and no bar ink. */
static void learn_windows(const sb *s, sc_rect *zero, sc_rect *label) {
  const sc_scale_profile *p = s->p;
  const sc_rect *g = &s->region;
  int t0, t1;
  tick_rows(p, s->by, &t0, &t1);
  *zero = (sc_rect){0, 0, 0, 0};
  if (p->at == SC__LABEL_RIGHT) {
    int x0 = s->right + p->tick_w + 1;
    *label = (sc_rect){g->x + x0, g->y, g->w - x0, g->h};
  } else if (p->at == SC__LABEL_INSIDE) {
    int x0 = s->left + p->tick_w, w = s->right - x0;
    if (p->ticks == SC__TICKS_DOWN)
      *label = (sc_rect){g->x + x0, g->y + s->by + p->thick, w, p->tick_px};
    else
      *label = (sc_rect){g->x + x0, g->y + s->by - p->tick_px, w, p->tick_px};
  } else {
    int y0 = p->top ? s->baseline - p->top : t1 + 2;
    if (y0 < 0) y0 = 0;
    *label = (sc_rect){g->x + s->left + 5, g->y + y0, g->w - s->left - 5, g->h - y0};
    if (p->zero) *zero = (sc_rect){g->x + s->left - 5, g->y + y0, 10, g->h - y0};
  }
}

/* The label's first ink column and baseline in a learned sample, relative
 * to the bar (dx from the tick the layout measures from, rows below the
 * bar's top row). */
static int learned_place(const sb *s, const sc_glyphset *gs, sc_rect win, int *dx, int *base) {
  sc_text_result t;
  sc_text_options o = SC_TEXT_OPTIONS_INIT;
  int rc = sc_text_read(&t, s->img_for_learn, win, gs, &o);
  if (rc) return rc;
  const sc__glyph *g0 = sc__glyph_find(gs, t.glyphs[0].name);
  int tick = s->p->at == SC__LABEL_RIGHT ? s->right : s->left;
  *dx = t.glyphs[0].box.x - (s->region.x + tick);
  *base = t.glyphs[0].box.y + g0->top - (s->region.y + s->by);
  return 0;
}

/* Find the bar of sample i by the layout's rules (no glyphs needed). */
static int learn_find(sb *s, const sc_image *img, sc_rect region, const sc_scale_profile *p,
                      size_t i) {
  *s = (sb){.p = p, .img_for_learn = img, .region = region};
  if (sc__clip_region(&s->region, img))
    return sc__err(SC_EINVAL, "scale learn: sample %zu: region outside the image", i + 1);
  int rc = sc__mask_make(&s->bar, img, s->region, p->bar_rgb, p->bar_tol);
  if (rc) return rc;
  bar_find f = {0};
  if (!find_bar(&s->bar, p, &f)) {
    rc = no_bar(&s->bar, p, &f, s->region);
    sc__err(rc, "scale learn: sample %zu: %s", i + 1, sc_errmsg());
  } else {
    s->by = f.y;
    s->left = f.left;
    s->right = f.right;
    s->baseline = s->by + p->baseline;
  }
  sc__mask_free(&s->bar);
  return rc;
}

SC_EXTERN int sc_scale_profile_learn(sc_scale_profile **out, const sc_scale_profile *layout,
                                     const char *name, uint32_t ink_rgb, int tol, int variants,
                                     const sc_image *const *imgs, const sc_rect *regions,
                                     const char *const *labels, size_t n) {
  if (!out) return sc__err(SC_EINVAL, "scale learn: NULL argument");
  *out = NULL;
  if (!layout || !imgs || !regions || !labels || n == 0 || (name && strlen(name) >= 64))
    return sc__err(SC_EINVAL, "scale learn: bad arguments (a layout, 1 or more samples)");
  sc_scale_profile *p = sc__calloc(1, sizeof *p);
  if (!p) return sc__err(SC_ENOMEM, "scale learn: out of memory");
  *p = *layout;
  p->gs = NULL;
  if (name) snprintf(p->name, sizeof p->name, "%s", name);
  if (tol < 0) { /* the layout's colours */
    ink_rgb = layout->gs->ink_rgb;
    tol = layout->gs->tol;
  }
  /* The layout's bar and label share a colour: so do the application's. */
  if (layout->bar_rgb == layout->gs->ink_rgb && layout->bar_tol == layout->gs->tol) {
    p->bar_rgb = ink_rgb;
    p->bar_tol = tol;
  }
  int rc = sc_glyphset_new(&p->gs, ink_rgb, tol);
  if (!rc && variants > 1) rc = sc_glyphset_set_variants(p->gs, variants);
  sb s;
  sc_rect zw, lw;
  for (size_t i = 0; !rc && i < n; i++) {
    if (!imgs[i] || !labels[i]) {
      rc = sc__err(SC_EINVAL, "scale learn: sample %zu: NULL image or label", i + 1);
      break;
    }
    if ((rc = learn_find(&s, imgs[i], regions[i], p, i))) break;
    learn_windows(&s, &zw, &lw);
    if (lw.w <= 0 || lw.h <= 0) {
      rc = sc__err(SC_EUNREADABLE, "scale learn: sample %zu: no room for the label where this "
                   "layout draws it", i + 1);
      break;
    }
    if (zw.w > 0 && (rc = sc_glyphset_learn(p->gs, imgs[i], zw, "0"))) {
      sc__err(rc, "scale learn: sample %zu: the layout's \"0\" under the left tick: %s", i + 1,
              sc_errmsg());
      break;
    }
    if ((rc = sc_glyphset_learn(p->gs, imgs[i], lw, labels[i]))) {
      sc__err(rc, "scale learn: sample %zu: the label where this layout draws it: %s", i + 1,
              sc_errmsg());
      break;
    }
  }
  /* The label's place, measured on the samples: they must agree. */
  int dx0 = 0, base0 = 0;
  for (size_t i = 0; !rc && i < n; i++) {
    int dx, base;
    if ((rc = learn_find(&s, imgs[i], regions[i], p, i))) break;
    learn_windows(&s, &zw, &lw);
    if ((rc = learned_place(&s, p->gs, lw, &dx, &base))) {
      sc__err(rc, "scale learn: sample %zu: its label does not read back: %s", i + 1, sc_errmsg());
      break;
    }
    if (i == 0) {
      dx0 = dx;
      base0 = base;
    } else if (base != base0 || (p->at != SC__LABEL_UNDER_RIGHT_TICK && !p->centred &&
                                 abs(dx - dx0) > p->slack)) {
      rc = sc__err(SC_EDATA, "scale learn: sample %zu: its label starts %d px from the tick with "
                   "its baseline %d rows from the bar; sample 1's: %d px, %d rows (+-%d px): not "
                   "one layout", i + 1, dx, base, dx0, base0, p->slack);
    }
  }
  if (!rc) {
    p->baseline = base0;
    if (p->at != SC__LABEL_UNDER_RIGHT_TICK && !p->centred) p->dx = dx0;
    *out = p;
    return 0;
  }
  sc_scale_profile_free(p);
  return rc;
}
