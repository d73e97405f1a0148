/* Template search, bounded and decided without luck. Every position inside
 * the search rectangle is tried, the template's most distinctive pixels
 * first, giving up on a position as soon as it has more misses than the
 * threshold allows; the clock and the cancel flag are looked at every
 * SC__SEARCH_CHECK_READS pixel reads, so a search ends within a few ms of
 * its time limit or a signal whatever the template.
 *
 * sc_image_search decides "found" by a margin: the places are collected
 * down to min_score - margin, so every place that scores within margin of
 * the best is seen with its exact score, and the template is found only
 * when the best scores min_score and no other place is within margin of
 * it. When nothing matches, near misses for the message are looked for
 * with a rising threshold in the time left (a diagnosis, never a verdict). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "core/opts.h"
#include "image_priv.h"

/* Positions that match before the search says "matches almost anywhere". */
#define SC__SEARCH_HITS_CAP 4096
/* Pixel reads between two looks at the clock and the cancel flag: a few ms
 * even when every read misses the cache (a large template read in rank order). */
#define SC__SEARCH_CHECK_READS (1ul << 16)
/* Near misses: places kept while looking for them. */
#define SC__NEAR_KEEP 16
/* Standard deviations of difference that noise is allowed (is_rival). */
#define SC__NOISE_Z 2.0

SC__OPTS_DEFINE(search_options, SC_SEARCH_OPTIONS_INIT, sizeof(sc_search_options))

typedef struct scan {
  const sc_image *img, *tpl;
  sc__tpx *t;
  size_t n;
  int x0, y0, x1, y1; /* positions: x0 <= x, x + tw <= x1 (same for y) */
  int tol;
  double start, deadline;
  volatile int *cancel;
  unsigned long reads;
} scan;

/* The searching thread's CPU time in ms: the limit bounds the work, so a
 * busy machine (other processes on the cores) does not cut a search short. */
static double cpu_ms(void) {
  struct timespec t;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return sc__now_ms();
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* 0, or SC_ECANCELED / SC_ETIMEDOUT (no message set: callers say why). */
static int due(scan *s) {
  if (s->reads < SC__SEARCH_CHECK_READS) return 0;
  s->reads = 0;
  if (s->cancel && *s->cancel) return SC_ECANCELED;
  if (cpu_ms() > s->deadline) return SC_ETIMEDOUT;
  return 0;
}

/* Misses of the first `use` template pixels at (x, y), stopping past allowed. */
static size_t misses(scan *s, int x, int y, size_t use, size_t allowed) {
  const sc_image *img = s->img;
  const uint8_t *base = img->px + (size_t)y * img->stride + (size_t)x * 4;
  size_t miss = 0, i = 0;
  for (; i < use && miss <= allowed; i++)
    miss += !sc__tpx_near(base + (size_t)s->t[i].dy * img->stride + (size_t)s->t[i].dx * 4,
                          &s->t[i], s->tol);
  s->reads += i;
  return miss;
}

static int stop_msg(int rc, const scan *s) {
  if (rc == SC_ECANCELED) return sc__err(SC_ECANCELED, "template search: interrupted");
  return sc__err(SC_ETIMEDOUT, "the search for a %dx%d template took more than %.0f ms of CPU "
                 "(cut a smaller, more distinctive template or search it within a region)",
                 s->tpl->width, s->tpl->height, s->deadline - s->start);
}

static int scan_open(scan *s, const sc_image *img, const sc_image *tpl, sc_rect within, int tol,
                     double time_limit_ms, volatile int *cancel) {
  memset(s, 0, sizeof *s);
  if ((double)tpl->width * tpl->height > SC_SEARCH_MAX_TEMPLATE_PIXELS)
    return sc__err(SC_ETOOBIG, "the %dx%d template is larger than %d pixels: cut a smaller one",
                   tpl->width, tpl->height, SC_SEARCH_MAX_TEMPLATE_PIXELS);
  if (within.w <= 0 || within.h <= 0) within = (sc_rect){0, 0, img->width, img->height};
  /* clipped in 64 bits: within comes from callers */
  long long ex = (long long)within.x + within.w, ey = (long long)within.y + within.h;
  s->x0 = within.x < 0 ? 0 : within.x;
  s->y0 = within.y < 0 ? 0 : within.y;
  s->x1 = ex > img->width ? img->width : (int)ex;
  s->y1 = ey > img->height ? img->height : (int)ey;
  s->img = img, s->tpl = tpl, s->tol = tol, s->cancel = cancel;
  s->start = cpu_ms();
  s->deadline = s->start + time_limit_ms;
  if (!(s->t = sc__tpl_pixels(tpl, &s->n))) return sc__err(SC_ENOMEM, "template search: out of memory");
  if (s->n == 0) {
    sc__free(s->t);
    return sc__err(SC_EINVAL, "template search: the template has no opaque pixel");
  }
  return 0;
}

static int better(const sc_match *a, const sc_match *b) {
  if (a->score != b->score) return a->score > b->score;
  if (a->y != b->y) return a->y < b->y;
  return a->x < b->x;
}

static int by_quality(const void *a, const void *b) {
  const sc_match *p = a, *q = b;
  return better(p, q) ? -1 : better(q, p) ? 1 : 0;
}

static int overlap(const sc_match *a, const sc_match *b, const sc_image *tpl) {
  return abs(a->x - b->x) < tpl->width && abs(a->y - b->y) < tpl->height;
}

/* Best first; a hit overlapping a kept (better) one is the same place. */
static size_t distinct(sc_match *hit, size_t nhit, const sc_image *tpl) {
  if (nhit) qsort(hit, nhit, sizeof *hit, by_quality);
  size_t kept = 0;
  for (size_t i = 0; i < nhit; i++) {
    int same = 0;
    for (size_t j = 0; j < kept && !same; j++) same = overlap(&hit[i], &hit[j], tpl);
    if (!same) hit[kept++] = hit[i];
  }
  return kept;
}

static int places(sc_match **out, size_t *n, scan *s, double threshold) {
  size_t allowed = (size_t)floor((1.0 - threshold) * (double)s->n + 1e-9);
  sc_match *hit = NULL;
  size_t nhit = 0, cap = 0;
  int rc = 0;
  for (int y = s->y0; y + s->tpl->height <= s->y1 && rc == 0; y++)
    for (int x = s->x0; x + s->tpl->width <= s->x1 && rc == 0; x++) {
      size_t miss = misses(s, x, y, s->n, allowed);
      if ((rc = due(s)) < 0) {
        rc = stop_msg(rc, s);
        break;
      }
      if (miss > allowed) continue;
      if (nhit == SC__SEARCH_HITS_CAP) {
        rc = sc__err(SC_ETOOBIG, "the %dx%d template matches at more than %d positions",
                     s->tpl->width, s->tpl->height, SC__SEARCH_HITS_CAP);
        break;
      }
      if (nhit == cap) {
        size_t nc = cap ? cap * 2 : 16;
        sc_match *g = sc__realloc(hit, nc * sizeof *g);
        if (!g) {
          rc = sc__err(SC_ENOMEM, "template search: out of memory");
          break;
        }
        hit = g, cap = nc;
      }
      hit[nhit++] = (sc_match){x, y, (double)(s->n - miss) / (double)s->n};
    }
  if (rc < 0) {
    sc__free(hit);
    return rc;
  }
  *out = hit;
  *n = distinct(hit, nhit, s->tpl);
  return 0;
}

int sc__image_places(sc_match **out, size_t *n, const sc_image *img, const sc_image *tpl,
                     sc_rect within, int tol, double threshold, double time_limit_ms,
                     volatile int *cancel) {
  *out = NULL;
  *n = 0;
  scan s;
  int rc = scan_open(&s, img, tpl, within, tol, time_limit_ms, cancel);
  if (rc < 0) return rc;
  rc = places(out, n, &s, threshold);
  sc__free(s.t);
  return rc;
}

/* Keep c among the best k distinct places in top[0..*nt) (sorted). */
static void keep_best(sc_match *top, size_t *nt, size_t k, sc_match c, const sc_image *tpl) {
  for (size_t i = 0; i < *nt; i++)
    if (overlap(&top[i], &c, tpl)) {
      if (!better(&c, &top[i])) return;
      memmove(top + i, top + i + 1, (*nt - i - 1) * sizeof *top);
      (*nt)--;
      i--;
    }
  if (*nt == k && !better(&c, &top[k - 1])) return;
  size_t at = *nt < k ? (*nt)++ : k - 1;
  while (at > 0 && better(&c, &top[at - 1])) {
    top[at] = top[at - 1];
    at--;
  }
  top[at] = c;
}

/* Near misses when nothing matched: the best SC__NEAR_KEEP places, each
 * position given up as soon as it cannot beat the worst kept. Stops
 * quietly at the deadline or a cancel (what was seen so far is kept). */
static size_t near_misses(sc_match *top, scan *s) {
  size_t use = s->n, nt = 0;
  int stop = 0;
  for (int y = s->y0; y + s->tpl->height <= s->y1 && !stop; y++)
    for (int x = s->x0; x + s->tpl->width <= s->x1; x++) {
      size_t allowed = use;
      if (nt == SC__NEAR_KEEP) /* only what beats the worst kept */
        allowed = use - (size_t)lround(top[nt - 1].score * (double)use);
      size_t miss = misses(s, x, y, use, allowed);
      if ((stop = due(s) < 0)) break;
      if (miss <= allowed)
        keep_best(top, &nt, SC__NEAR_KEEP, (sc_match){x, y, (double)(use - miss) / (double)use},
                  s->tpl);
    }
  return distinct(top, nt, s->tpl);
}

/* The most two places showing the same thing can differ by through noise,
 * as a fraction of n: their scores differ by (a - b) / n, a the pixels
 * only the better one matches and b those only the other matches; if noise
 * alone made them differ, each such pixel falls either way with even odds
 * (McNemar's test), so a - b stays within SC__NOISE_Z * sqrt(a + b). Here
 * a + b is bounded by both places' misses (for how low to look). */
static double noise_bound(double a_score, double b_score, size_t n) {
  double miss = 2.0 - a_score - b_score;
  return SC__NOISE_Z * sqrt((miss > 0 ? miss : 0) / (double)n);
}

/* The lowest score a rival of a place scoring min_score can have (better
 * places have higher floors): the fixed point of
 * f = min_score - max(margin, noise_bound(min_score, f)), from above. */
static double rival_floor(double min_score, double margin, size_t n) {
  double f = min_score - margin;
  for (int i = 0; i < 16; i++) {
    double g = noise_bound(min_score, f, n);
    f = min_score - (margin > g ? margin : g);
  }
  return f - 1e-9;
}

/* c is a rival of the best place b: b does not beat it by more than the
 * margin, nor by more than noise could (b itself counts). */
static int is_rival(scan *s, const sc_match *c, const sc_match *b, double margin) {
  if (c == b) return 1;
  const sc_image *img = s->img;
  const uint8_t *pb = img->px + (size_t)b->y * img->stride + (size_t)b->x * 4;
  const uint8_t *pc = img->px + (size_t)c->y * img->stride + (size_t)c->x * 4;
  long only_b = 0, only_c = 0;
  for (size_t i = 0; i < s->n; i++) {
    size_t off = (size_t)s->t[i].dy * img->stride + (size_t)s->t[i].dx * 4;
    int mb = sc__tpx_near(pb + off, &s->t[i], s->tol), mc = sc__tpx_near(pc + off, &s->t[i], s->tol);
    only_b += mb && !mc;
    only_c += mc && !mb;
  }
  double gap = (double)(only_b - only_c);
  double noise = SC__NOISE_Z * sqrt((double)(only_b + only_c)), fixed = margin * (double)s->n;
  return gap <= (noise > fixed ? noise : fixed) + 1e-9;
}

SC_EXTERN int sc_image_search(sc_match *out, int max, int *filled, const sc_image *img,
                              const sc_image *tpl, const sc_search_options *o) {
  if (filled) *filled = 0;
  sc_search_options so;
  int rc = sc__search_options_read(&so, o, "sc_image_search");
  if (rc < 0) return rc;
  o = &so;
  if (!img || !tpl) return sc__err(SC_EINVAL, "sc_image_search: image and template are required");
  if (max > 0 && !out) return sc__err(SC_EINVAL, "sc_image_search: out is NULL");
  if (o->tol < 0 || o->tol > 255 || !(o->min_score > 0 && o->min_score <= 1) ||
      !(o->margin >= 0 && o->margin <= 0.5) || !(o->time_limit_ms > 0))
    return sc__err(SC_EINVAL, "sc_image_search: tol must be 0..255, min_score in (0, 1], margin "
                   "in [0, 0.5] and time_limit_ms > 0");
  scan s;
  if ((rc = scan_open(&s, img, tpl, o->within, o->tol, o->time_limit_ms, o->cancel)) < 0) return rc;
  /* Everything within margin of a place that could be found, exactly. */
  double floor_score = rival_floor(o->min_score, o->margin, s.n);
  sc_match *hit = NULL;
  size_t nhit = 0;
  if ((rc = places(&hit, &nhit, &s, floor_score > 0 ? floor_score : 1e-9)) < 0) {
    sc__free(s.t);
    return rc;
  }
  int contenders = 0;
  if (nhit && hit[0].score >= o->min_score - 1e-12)
    for (size_t i = 0; i < nhit; i++) contenders += is_rival(&s, &hit[i], &hit[0], o->margin);
  size_t k = 0;
  for (; k < nhit && (int)k < max; k++) out[k] = hit[k];
  if (contenders == 0 && (int)k < max) {
    sc_match top[SC__NEAR_KEEP + 1];
    size_t nt = near_misses(top, &s);
    for (size_t i = 0; i < nt && (int)k < max; i++) {
      int seen = 0;
      for (size_t j = 0; j < k && !seen; j++) seen = overlap(&out[j], &top[i], tpl);
      if (!seen) out[k++] = top[i];
    }
    qsort(out, k, sizeof *out, by_quality);
  }
  sc__free(hit);
  sc__free(s.t);
  if (filled) *filled = (int)k;
  return contenders;
}
