/* Locators resolved on one capture of the whole guest: templates are
 * matched and texts read (exactly one place, or an error naming the locator: never a
 * guess), relative points and regions placed from what they name, and the
 * result checked to lie inside the guest. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "stepcheck/text.h"
#include "locate/locate.h"
#include "scenario/locators.h"


void sc__located_free(sc_scenario *r) {
  if (!r) return;
  sc__free(r->points);
  sc__free(r->regions);
  sc__free(r->setup);
  sc__free(r->steps);
  sc__free(r);
}

/* A shallow copy with arrays of its own for everything resolving changes. */
static sc_scenario *copy_of(const sc_scenario *s) {
  sc_scenario *c = sc__malloc(sizeof *c);
  if (!c) return NULL;
  *c = *s;
  c->points = c->npoints ? sc__malloc(s->npoints * sizeof *s->points) : NULL;
  c->regions = c->nregions ? sc__malloc(s->nregions * sizeof *s->regions) : NULL;
  c->setup = c->nsetup ? sc__malloc(s->nsetup * sizeof *s->setup) : NULL;
  c->steps = c->nsteps ? sc__malloc(s->nsteps * sizeof *s->steps) : NULL;
  if ((s->npoints && !c->points) || (s->nregions && !c->regions) || (s->nsetup && !c->setup) ||
      (s->nsteps && !c->steps)) {
    sc__located_free(c);
    return NULL;
  }
  if (s->npoints) memcpy(c->points, s->points, s->npoints * sizeof *s->points);
  if (s->nregions) memcpy(c->regions, s->regions, s->nregions * sizeof *s->regions);
  if (s->nsetup) memcpy(c->setup, s->setup, s->nsetup * sizeof *s->setup);
  if (s->nsteps) memcpy(c->steps, s->steps, s->nsteps * sizeof *s->steps);
  return c;
}

static const char *name_of(const sc_scenario *s, sc__ref r) {
  return r.is_region ? s->regions[r.index].name : s->points[r.index].name;
}

/* A reference as a rectangle (a point: the pixel it lies on). */
static sc_rect rect_of(const sc_scenario *s, sc__ref r) {
  if (r.is_region) return s->regions[r.index].r;
  sc_point p = s->points[r.index].p;
  return (sc_rect){(int)floor(p.x), (int)floor(p.y), 1, 1};
}

/* Where l searches (its "within" region, or the whole guest: w = 0), and
 * " within region ..." for messages into where ("" for the whole guest). */
static sc_rect search_area(const sc_scenario *s, const sc__locator *l, char *where, size_t len) {
  where[0] = '\0';
  if (l->within < 0) return (sc_rect){0, 0, 0, 0};
  sc_rect r = s->regions[l->within].r;
  snprintf(where, len, " within region \"%s\" (%d,%d %dx%d)", s->regions[l->within].name, r.x,
           r.y, r.w, r.h);
  return r;
}

/* "(609,528) 1.000, (545,560) 0.977" from m[0..n). */
static void list_places(char *list, size_t len, const sc_match *m, int n) {
  size_t k = 0;
  list[0] = '\0';
  for (int i = 0; i < n && k < len; i++)
    k += (size_t)snprintf(list + k, len - k, "%s(%d,%d) %.3f", i ? ", " : "", m[i].x, m[i].y,
                          m[i].score);
}

static void note_miss(sc__locate_miss *miss, const sc_match *m, int n, int w, int h) {
  if (!miss) return;
  miss->ncand = n < SC__LOC_SHOW ? n : SC__LOC_SHOW;
  for (int i = 0; i < miss->ncand; i++) {
    miss->cand[i] = (sc_rect){m[i].x, m[i].y, w, h};
    miss->score[i] = m[i].score;
  }
}

static int template_place(const sc_scenario *s, const sc__locator *l, const sc_image *guest,
                          volatile int *cancel, sc_match *m, sc__locate_miss *miss) {
  sc_match best[SC__LOC_SHOW];
  char where[128], list[256], hint[320] = "";
  sc_search_options o = SC_SEARCH_OPTIONS_INIT;
  o.within = search_area(s, l, where, sizeof where);
  o.tol = l->tol;
  o.min_score = l->score;
  o.margin = l->margin;
  o.cancel = cancel;
  const char *who = name_of(s, l->self);
  int filled = 0;
  int n = sc_image_search(best, SC__LOC_SHOW, &filled, guest, l->tpl, &o);
  if ((n == SC_ETOOBIG || n == SC_ETIMEDOUT) && miss) miss->final = 1;
  if (n == SC_ETOOBIG || n == SC_ETIMEDOUT) { /* the message says which */
    char why[256];
    snprintf(why, sizeof why, "%s", sc_errmsg()); /* not formatted into itself */
    return sc__err(SC_ELOCATE, "locator \"%s\": template %s%s: %s", who, l->path, where, why);
  }
  if (n < 0) return n;
  note_miss(miss, best, filled, l->tpl->width, l->tpl->height);
  list_places(list, sizeof list, best, filled);
  if (l->hint) snprintf(hint, sizeof hint, "; %s", l->hint);
  if (n == 0)
    return sc__err(SC_ELOCATE, "locator \"%s\": template %s not found%s (no place with %.0f%% of "
                   "its pixels within %d; best: %s)%s%s", who, l->path, where, l->score * 100,
                   l->tol, filled ? list : "none", hint,
                   l->hint ? "" : "; look with stepcheck inspect, which marks the best places");
  if (n > 1)
    return sc__err(SC_ELOCATE, "locator \"%s\": template %s found in %d places%s: %s%s (the best "
                   "must beat every other by more than %.3f or than noise could); narrow it with "
                   "\"within\" or cut a larger template", who, l->path, n, where, list,
                   n > filled ? ", ..." : "", l->margin);
  *m = best[0];
  return 0;
}

static int text_place(const sc_scenario *s, const sc__locator *l, const sc_image *guest,
                      sc_text_match *m, sc__locate_miss *miss) {
  sc_text_match best[SC__LOC_SHOW];
  char where[128];
  sc_rect within = search_area(s, l, where, sizeof where);
  const char *who = name_of(s, l->self);
  int bad = 0;
  int n = sc_text_find(best, SC__LOC_SHOW, guest, within, l->gs, l->text, NULL, &bad);
  if (n < 0) return n;
  if (n == 0)
    return sc__err(SC_ELOCATE, "locator \"%s\": text \"%s\" not found%s (%d line%s of ink "
                   "did not read with the glyph set)%s%s", who, l->text, where, bad,
                   bad == 1 ? "" : "s", l->hint ? "; " : "", l->hint ? l->hint : "");
  if (n > 1) {
    if (miss) {
      miss->ncand = n < SC__LOC_SHOW ? n : SC__LOC_SHOW;
      for (int i = 0; i < miss->ncand; i++) miss->cand[i] = best[i].box, miss->score[i] = 0;
    }
    char list[256] = "";
    size_t k = 0;
    for (int i = 0; i < n && i < SC__LOC_SHOW; i++)
      k += (size_t)snprintf(list + k, sizeof list - k, "%s(%d,%d)", i ? ", " : "", best[i].box.x,
                            best[i].box.y);
    return sc__err(SC_ELOCATE, "locator \"%s\": text \"%s\" found in %d places%s: %s%s; narrow "
                   "it with \"within\"", who, l->text, n, where, list, n > SC__LOC_SHOW ? ", ..." : "");
  }
  *m = best[0];
  return 0;
}

static int resolve_one(sc_scenario *s, const sc__locator *l, const sc_image *guest,
                       volatile int *cancel, sc_located *out, sc__locate_miss *miss) {
  const char *who = name_of(s, l->self);
  sc_point p = {0, 0};
  sc_rect r = {0, 0, 0, 0}, from = {0, 0, 0, 0};
  double score = 1;
  int rc;
  switch (l->kind) {
  case SC__LOC_TEMPLATE: {
    sc_match m = {0, 0, 0};
    if ((rc = template_place(s, l, guest, cancel, &m, miss)) < 0) return rc;
    score = m.score;
    from = (sc_rect){m.x, m.y, l->tpl->width, l->tpl->height};
    p = l->has_offset ? (sc_point){m.x + l->dx, m.y + l->dy}
                      : (sc_point){m.x + l->tpl->width / 2.0, m.y + l->tpl->height / 2.0};
    r = (sc_rect){m.x + (int)l->dx, m.y + (int)l->dy, l->w > 0 ? l->w : l->tpl->width,
                  l->h > 0 ? l->h : l->tpl->height};
    break;
  }
  case SC__LOC_TEXT: {
    sc_text_match m;
    memset(&m, 0, sizeof m);
    if ((rc = text_place(s, l, guest, &m, miss)) < 0) return rc;
    score = m.confidence;
    from = m.box;
    p = l->has_offset ? (sc_point){m.box.x + l->dx, m.box.y + l->dy}
                      : (sc_point){m.box.x + m.box.w / 2.0, m.box.y + m.box.h / 2.0};
    r = (sc_rect){m.box.x + (int)l->dx, m.box.y + (int)l->dy, l->w > 0 ? l->w : m.box.w,
                  l->h > 0 ? l->h : m.box.h};
    break;
  }
  case SC__LOC_FROM:
    from = rect_of(s, l->a);
    if (l->a.is_region) p = (sc_point){from.x + l->dx, from.y + l->dy};
    else p = (sc_point){s->points[l->a.index].p.x + l->dx, s->points[l->a.index].p.y + l->dy};
    r = (sc_rect){(int)floor(p.x), (int)floor(p.y), l->w, l->h};
    break;
  case SC__LOC_CENTRE:
    from = s->regions[l->a.index].r;
    p = (sc_point){from.x + from.w / 2.0, from.y + from.h / 2.0};
    break;
  case SC__LOC_QUIET: {
    from = s->regions[l->a.index].r;
    sc_rect n = l->nmore ? rect_of(s, l->more[0]) : from;
    sc_point anchor = l->nmore && !l->more[0].is_region ? s->points[l->more[0].index].p
                                                        : (sc_point){n.x + n.w / 2.0, n.y + n.h / 2.0};
    uint32_t bg = 0;
    rc = sc__quiet_spot(&p, &bg, guest, from, anchor, l->radius, l->tol);
    if (rc == SC_ENOMEM) return sc__err(SC_ENOMEM, "locate: out of memory");
    if (rc == SC_EINVAL)
      return sc__err(SC_ELOCATE, "locator \"%s\": region \"%s\" (%d,%d %dx%d) is not inside the "
                     "%dx%d guest", who, s->regions[l->a.index].name, from.x, from.y, from.w,
                     from.h, guest->width, guest->height);
    if (rc < 0)
      return sc__err(SC_ELOCATE, "locator \"%s\": no quiet spot in region \"%s\" (%d,%d %dx%d): "
                     "every place has ink (farther than %d from the background #%06x) within %d "
                     "px; a smaller \"radius\" or a larger \"tol\"?", who,
                     s->regions[l->a.index].name, from.x, from.y, from.w, from.h, l->tol,
                     (unsigned)bg, l->radius);
    break;
  }
  case SC__LOC_BETWEEN: {
    sc_rect a = rect_of(s, l->a);
    int x0 = a.x, y0 = a.y, x1 = a.x + a.w, y1 = a.y + a.h;
    for (int i = 0; i < l->nmore; i++) {
      sc_rect b = rect_of(s, l->more[i]);
      if (b.x < x0) x0 = b.x;
      if (b.y < y0) y0 = b.y;
      if (b.x + b.w > x1) x1 = b.x + b.w;
      if (b.y + b.h > y1) y1 = b.y + b.h;
    }
    r = (sc_rect){x0, y0, x1 - x0, y1 - y0};
    break;
  }
  }
  if (l->self.is_region) {
    /* what the inset leaves of what was found: nothing is the scenario's
     * fault and looking again will not change it, so not SC_ELOCATE (the
     * runner retries that) */
    if (r.w - 2 * l->inset <= 0 || r.h - 2 * l->inset <= 0)
      return sc__err(SC_ESCENARIO, "locator \"%s\": \"inset\" %d leaves nothing of the %dx%d "
                     "found at %d,%d", who, l->inset, r.w, r.h, r.x, r.y);
    r = (sc_rect){r.x + l->inset, r.y + l->inset, r.w - 2 * l->inset, r.h - 2 * l->inset};
    if (!sc__rect_within(r, guest->width, guest->height))
      return sc__err(SC_ELOCATE, "locator \"%s\": the region lands at %d,%d %dx%d, not inside the "
                     "%dx%d guest", who, r.x, r.y, r.w, r.h, guest->width, guest->height);
    s->regions[l->self.index].r = r;
    *out = (sc_located){who, 1, {r.x, r.y}, r, score, 0};
  } else {
    if (!(p.x >= 0 && p.y >= 0 && p.x < guest->width && p.y < guest->height))
      return sc__err(SC_ELOCATE, "locator \"%s\": the point lands at (%g, %g), outside the %dx%d "
                     "guest", who, p.x, p.y, guest->width, guest->height);
    s->points[l->self.index].p = p;
    *out = (sc_located){who, 0, p, from, score, 0};
  }
  return 0;
}

static void found_free(sc_located **f, size_t n) {
  for (size_t i = 0; i < n; i++) sc__free(f[i]);
  sc__free(f);
}

int sc__locate(sc_scenario **out, sc_located ***found, size_t *n, const sc_scenario *s,
               const sc_image *guest, int cycle, volatile int *cancel, sc__locate_miss *miss) {
  *out = NULL;
  *found = NULL;
  *n = 0;
  const struct sc_locators *L = s->locators;
  if (!L) return sc__err(SC_EINVAL, "locate: the scenario has no locators");
  sc_scenario *c = copy_of(s);
  sc_located **f = sc__calloc(L->n ? L->n : 1, sizeof *f);
  if (!c || !f) {
    sc__located_free(c);
    sc__free(f);
    return sc__err(SC_ENOMEM, "locate: out of memory");
  }
  int rc = 0;
  size_t k = 0;
  if (miss) *miss = (sc__locate_miss){-1, 0, {{0, 0, 0, 0}}, {0}, 0};
  for (; k < L->n && rc == 0; k++) {
    if (!(f[k] = sc__malloc(sizeof **f))) rc = sc__err(SC_ENOMEM, "locate: out of memory");
    else if ((rc = resolve_one(c, &L->v[k], guest, cancel, f[k], miss)) == 0) f[k]->cycle = cycle;
  }
  if (rc < 0) {
    sc__located_free(c);
    if (miss && rc != SC_ENOMEM) { /* what was found before the one that failed */
      miss->locator = (int)k - 1;
      sc__free(f[k - 1]);
      f[k - 1] = NULL;
      *found = f;
      *n = k - 1;
      return rc;
    }
    found_free(f, k);
    return rc;
  }
  /* Every gesture and park that names a point goes where it is now. */
  for (size_t i = 0; i < L->nbind; i++) {
    const sc__bind *b = &L->bind[i];
    sc_point p = c->points[b->point].p;
    if (b->section == 2) c->park = p;
    else if (b->section == 0 && b->step < c->nsetup) c->setup[b->step].action.at = p;
    else if (b->section == 1 && b->step < c->nsteps) c->steps[b->step].action.at = p;
  }
  *out = c;
  *found = f;
  *n = L->n;
  return 0;
}
