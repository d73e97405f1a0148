/* One expectation on one frame. Every kind says, in one line, why it holds
 * or not; a step passes only when all of its expectations hold on the same
 * settled frame (the runner's job). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "judge.h"

/* Differing pixels between region r of frames a and b. -1 if r is not in both. */
static long diff_count(const sc__frame *a, const sc__frame *b, sc_rect r, double threshold) {
  size_t n = 0;
  sc_diff_options o = SC_DIFF_OPTIONS_INIT;
  o.threshold = threshold;
  return sc__frame_diff(&n, NULL, a, b, r, &o) == 0 ? (long)n : -1;
}

long sc__color_count(const sc__frame *f, sc_rect r, const sc_expect *e) {
  const sc_image *img;
  sc_image *tmp;
  sc_rect s;
  if (sc__frame_view(f, r, &img, &s, &tmp) != 0) return -1;
  long n = (long)sc_image_count_color(img, s, e->rgb, e->color_tol);
  sc_image_free(tmp);
  return n;
}

static long allowed(const sc_expect *e, sc_rect r) {
  long m = e->max_pixels;
  if (e->max_ratio > 0) {
    long byratio = (long)floor(e->max_ratio * (double)r.w * (double)r.h);
    if (byratio > m) m = byratio;
  }
  return m;
}

static int judge_changed(sc__verdict *v, const sc_expect *e, const char *rn, sc_rect r,
                         const sc__judge_ctx *c) {
  long n = diff_count(c->before, c->cur, r, e->threshold);
  if (n < 0) return snprintf(v->reason, sizeof v->reason, "%s: not captured", rn), 0;
  long min = e->min_pixels > 0 ? e->min_pixels : 1;
  v->pixels = n;
  v->shows_change = n >= min;
  v->holds = n >= min;
  if (v->holds)
    snprintf(v->reason, sizeof v->reason, "%s changed %ld px", rn, n);
  else if (n == 0)
    snprintf(v->reason, sizeof v->reason, "%s unchanged after %.0f ms", rn, c->elapsed_ms);
  else
    snprintf(v->reason, sizeof v->reason, "%s changed by %ld px (min %ld) after %.0f ms", rn,
             n, min, c->elapsed_ms);
  return 0;
}

static int judge_equal_to(sc__verdict *v, const sc_expect *e, const char *rn, sc_rect r,
                          const sc__frame *ref, const char *refname, const sc__judge_ctx *c) {
  long n = diff_count(ref, c->cur, r, e->threshold);
  if (n < 0)
    return snprintf(v->reason, sizeof v->reason, "%s: %s has no capture of it", rn, refname), 0;
  long max = allowed(e, r);
  v->pixels = n;
  v->holds = n <= max;
  /* Coming back to a snapshot is the change a restore step expects: the
   * region equals the snapshot and is not, pixel for pixel, what it was
   * before the gesture (an exact compare that stops at the first
   * difference; this only dates first_change_ms, it decides no verdict). */
  v->shows_change = e->kind == SC_EXPECT_EQUALS && n <= max && sc__frame_has(c->before) &&
                    !sc__frame_equal(c->before, c->cur, r);
  if (v->holds)
    snprintf(v->reason, sizeof v->reason, "%s equals %s (%ld px differ, max %ld)", rn, refname,
             n, max);
  else
    snprintf(v->reason, sizeof v->reason, "%s differs from %s by %ld px (max %ld)", rn,
             refname, n, max);
  return 0;
}

static int judge_equals(sc__verdict *v, const sc_expect *e, const char *rn, sc_rect r,
                        const sc__judge_ctx *c) {
  char name[160];
  if (e->baseline) {
    const sc_image *img = c->baseline ? c->baseline(c->ud, e->baseline) : NULL;
    if (!img)
      return snprintf(v->reason, sizeof v->reason, "%s: baseline %s unreadable", rn,
                      e->baseline), 0;
    /* A baseline is the region itself, or a whole guest-sized image. */
    sc__frame bf = {.img = (sc_image *)img, .clip = {r.x, r.y, img->width, img->height}};
    if (img->width != r.w || img->height != r.h) bf.clip = (sc_rect){0, 0, img->width, img->height};
    snprintf(name, sizeof name, "baseline %s", e->baseline);
    return judge_equal_to(v, e, rn, r, &bf, name, c);
  }
  const sc__frame *snap = c->snapshot ? c->snapshot(c->ud, e->snapshot) : NULL;
  if (!snap)
    return snprintf(v->reason, sizeof v->reason, "%s: no snapshot %s", rn, e->snapshot), 0;
  snprintf(name, sizeof name, "snapshot %s", e->snapshot);
  return judge_equal_to(v, e, rn, r, snap, name, c);
}

static int judge_color(sc__verdict *v, size_t ei, const sc_expect *e, const char *rn, sc_rect r,
                       const sc__judge_ctx *c) {
  long n = sc__color_count(c->cur, r, e);
  if (n < 0) return snprintf(v->reason, sizeof v->reason, "%s: not captured", rn), 0;
  long min = e->min_pixels > 0 ? e->min_pixels : 1;
  v->pixels = n;
  v->holds = e->absent ? n < min : n >= min;
  /* Did the colour's presence flip compared with before the gesture? */
  long nb = c->color_before ? c->color_before[ei] : sc__color_count(c->before, r, e);
  if (nb >= 0) v->shows_change = v->holds && ((nb >= min) != (n >= min));
  if (e->absent)
    snprintf(v->reason, sizeof v->reason, "color %06x %s in %s (%ld px, %s %ld)", e->rgb,
             v->holds ? "absent" : "present", rn, n, "want <", min);
  else
    snprintf(v->reason, sizeof v->reason, "color %06x %s in %s (%ld px, min %ld)", e->rgb,
             v->holds ? "present" : "absent", rn, n, min);
  return 0;
}

static int judge_scale(sc__verdict *v, const sc_step *st, size_t ei, const char *rn, sc_rect r,
                       const sc__judge_ctx *c) {
  const sc_expect *e = &st->expect[ei];
  const sc__scale *b = c->scale_before ? &c->scale_before[ei] : NULL;
  if (!b || !b->ok)
    return snprintf(v->reason, sizeof v->reason, "scale bar %s unreadable before the gesture: %s",
                    rn, b ? b->why : "not read"), 0;
  sc__scale a;
  sc__scale_read(&a, c->cur, r, e->profile);
  if (!a.ok)
    return snprintf(v->reason, sizeof v->reason, "scale bar %s unreadable: %s", rn, a.why), 0;
  double f = a.mpp / b->mpp;
  v->factor = f;
  snprintf(v->scale_text, sizeof v->scale_text, "%s/%gpx -> %s/%gpx", b->text, b->bar_px,
           a.text, a.bar_px);
  /* A reading equal to the start is no change at all (a frame before the
   * zoom landed), whatever factor was asked for. */
  v->shows_change = strcmp(a.text, b->text) != 0 || a.bar_px != b->bar_px;
  /* Tolerance: the asked relative tolerance, widened by the reading's own
   * error bound (±0.5 px on each tick of both bars). */
  double tol = e->factor_tol + a.rel_err + b->rel_err;
  v->holds = v->shows_change && fabs(f / e->factor - 1.0) <= tol;
  snprintf(v->reason, sizeof v->reason, "scale x%.4f (want x%.4f)", f, e->factor);
  return 0;
}

static int judge_text(sc__verdict *v, const sc_expect *e, const char *rn, sc_rect r,
                      const sc__judge_ctx *c) {
  char txt[256];
  const sc_glyphset *gs;
  const sc__regex *re;
  const char *why;
  if (sc__judge_prep_text(c->prep, e, &gs, &re, &why) < 0)
    return snprintf(v->reason, sizeof v->reason, "text in %s: not prepared", rn), 0;
  if (why) return snprintf(v->reason, sizeof v->reason, "text in %s: %s", rn, why), 0;
  int rc = sc__text_read(txt, sizeof txt, c->cur, r, gs);
  if (rc < 0)
    return snprintf(v->reason, sizeof v->reason, "text in %s: %s", rn, sc_strerror(rc)), 0;
  if (e->text_equals) {
    v->holds = strcmp(txt, e->text_equals) == 0;
    snprintf(v->reason, sizeof v->reason, "text in %s \"%s\" (want \"%s\")", rn, txt,
             e->text_equals);
  } else if (re) {
    int m = sc__regex_match(re, txt);
    if (m < 0) return snprintf(v->reason, sizeof v->reason, "text in %s: %s", rn, sc_strerror(m)), 0;
    v->holds = m == 1;
    snprintf(v->reason, sizeof v->reason, "text in %s \"%s\" %s /%s/", rn, txt,
             v->holds ? "matches" : "does not match", e->text_match);
  }
  /* A change only if the text on screen before the gesture was another. */
  char was[256];
  v->shows_change =
      v->holds && (sc__text_read(was, sizeof was, c->before, r, gs) < 0 || strcmp(was, txt));
  return 0;
}

int sc__judge_expect(sc__verdict *v, const sc_step *st, size_t ei, const sc__judge_ctx *c) {
  memset(v, 0, sizeof *v);
  const sc_expect *e = &st->expect[ei];
  if (e->region < 0 || (size_t)e->region >= c->s->nregions)
    return snprintf(v->reason, sizeof v->reason, "expectation %zu: bad region", ei), 0;
  const sc_region *reg = &c->s->regions[e->region];
  const char *rn = reg->name;
  sc_rect r = reg->r;
  switch (e->kind) {
  case SC_EXPECT_CHANGED:
    return judge_changed(v, e, rn, r, c);
  case SC_EXPECT_UNCHANGED:
    return judge_equal_to(v, e, rn, r, c->before, "before", c);
  case SC_EXPECT_EQUALS:
    return judge_equals(v, e, rn, r, c);
  case SC_EXPECT_STABLE:
    if (!c->prev) return snprintf(v->reason, sizeof v->reason, "%s: one capture so far", rn), 0;
    return judge_equal_to(v, e, rn, r, c->prev, "previous capture", c);
  case SC_EXPECT_COLOR:
    return judge_color(v, ei, e, rn, r, c);
  case SC_EXPECT_SCALE:
    return judge_scale(v, st, ei, rn, r, c);
  case SC_EXPECT_TEXT:
    return judge_text(v, e, rn, r, c);
  }
  snprintf(v->reason, sizeof v->reason, "expectation %zu: unknown kind", ei);
  return 0;
}
