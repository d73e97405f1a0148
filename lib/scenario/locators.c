/* Locators in the scenario file: a point or region given as an object is
 * found at run time (lib/locate). Checked here once every point, region
 * and step is known: the template loads, names resolve, nothing depends on
 * itself; ordered so that what a locator uses is found before it. */
#include <stdio.h>
#include <string.h>

#include "scenario/locators.h"
#include "scenario/scn.h"

static const char *const K_POINT[] = {"template", "tol",    "score",  "margin", "within",
                                      "at",       "from",   "text",   "glyphs", "offset",
                                      "hint",     "centre", "quiet",  "near",   "radius", NULL};
static const char *const K_REGION[] = {"template", "tol",    "score",  "margin", "within",
                                       "offset",   "size",   "from",   "text",   "glyphs",
                                       "between",  "inset",  "hint",   NULL};
static const char *const KINDS[] = {"template", "text", "from", "between", "centre", "quiet", NULL};
/* Kinds for points only, regions only. */
static int kind_fits(const char *k, int is_region) {
  if (!strcmp(k, "between")) return is_region;
  if (!strcmp(k, "centre") || !strcmp(k, "quiet")) return !is_region;
  return 1;
}

#define SC__LOC_TOL 48
#define SC__LOC_SCORE 0.99
/* Quiet spots: default radius (px) and colour tolerance from the background. */
#define SC__QUIET_RADIUS 8
#define SC__QUIET_RADIUS_MAX 200
#define SC__QUIET_TOL 24

void sc__locators_free(struct sc_locators *l) {
  if (!l) return;
  for (size_t i = 0; i < l->n; i++) {
    sc__free(l->v[i].path);
    sc_image_free(l->v[i].tpl);
    sc__free(l->v[i].text);
    sc__free(l->v[i].hint);
    sc_glyphset_free(l->v[i].gs);
  }
  sc__free(l->v);
  sc__free(l->bind);
  sc__free(l);
}

static int has_kind(json_t *v) {
  for (const char *const *k = KINDS; *k; k++)
    if (json_object_get(v, *k)) return 1;
  return 0;
}

int sc__scn_locator_note(sc__scn *c, const char *name, int is_region, int index, json_t *v) {
  if (!json_is_object(v) || (is_region && !has_kind(v))) return 0;
  void *n = sc__realloc(c->locs, (c->nlocs + 1) * sizeof *c->locs);
  if (!n) {
    c->oom = 1;
    return 1;
  }
  c->locs = n;
  c->locs[c->nlocs].name = name;
  c->locs[c->nlocs].is_region = is_region;
  c->locs[c->nlocs].index = index;
  c->locs[c->nlocs].v = v;
  c->nlocs++;
  return 1;
}

void sc__scn_bind(sc__scn *c, int section) {
  if (c->last_point < 0) return;
  if (c->nbinds == c->bindcap) {
    size_t cap = c->bindcap ? c->bindcap * 2 : 8;
    sc__bind *n = sc__realloc(c->binds, cap * sizeof *n);
    if (!n) {
      c->oom = 1;
      return;
    }
    c->binds = n;
    c->bindcap = cap;
  }
  c->binds[c->nbinds++] = (sc__bind){section, section == 2 ? 0 : c->cur_step, c->last_point};
}

/* A point or region by name: exactly one of them must have it. */
static int ref(sc__scn *c, json_t *v, const char *label, sc__ref *out) {
  const char *name = json_string_value(v);
  if (!name) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" must name a point or a region", label);
    return -1;
  }
  size_t pi, ri;
  int p = sc__strmap_get(&c->pointmap, name, strlen(name), &pi);
  int r = sc__strmap_get(&c->regmap, name, strlen(name), &ri);
  if (p && r) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" names both a point and a region; rename one", name);
    return -1;
  }
  if (!p && !r) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\": no point or region \"%s\"", label, name);
    return -1;
  }
  *out = (sc__ref){r, r ? (int)ri : (int)pi};
  return 0;
}

/* [a, b] of numbers (integers when integer), into *x, *y. */
static int pair(sc__scn *c, json_t *obj, const char *key, int integer, double *x, double *y) {
  json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  json_t *a = json_array_get(v, 0), *b = json_array_get(v, 1);
  int ok = json_is_array(v) && json_array_size(v) == 2 &&
           (integer ? json_is_integer(a) && json_is_integer(b) : json_is_number(a) && json_is_number(b));
  double va = ok ? json_number_value(a) : 0, vb = ok ? json_number_value(b) : 0;
  if (ok) ok = va >= -100000 && va <= 100000 && vb >= -100000 && vb <= 100000;
  if (!ok) {
    sc__scn_enter(c, key);
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" must be [%s, %s] within +-100000", key,
                    integer ? "integer" : "number", integer ? "integer" : "number");
    sc__scn_leave(c);
    return -1;
  }
  *x = va;
  *y = vb;
  return 1;
}

static void load_template(sc__scn *c, json_t *v, sc__locator *l) {
  const char *file = json_string_value(json_object_get(v, "template"));
  sc__scn_enter(c, "template");
  if (!file || !*file) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"template\" must be the path of a PNG");
    sc__scn_leave(c);
    return;
  }
  l->path = file[0] == '/' ? sc__strdup(file) : sc__asprintf("%s%s", c->dir, file);
  if (!l->path) {
    c->oom = 1;
    sc__scn_leave(c);
    return;
  }
  int rc = sc_image_load_png(&l->tpl, l->path, NULL);
  const sc_scenario *s = c->s;
  if (rc == SC_ENOMEM) c->oom = 1;
  else if (rc) sc__scn_problem(c, SC__AT_VAL(c), "template \"%s\": %s", file, sc_errmsg());
  else if ((double)l->tpl->width * l->tpl->height > SC_SEARCH_MAX_TEMPLATE_PIXELS)
    sc__scn_problem(c, SC__AT_VAL(c), "template \"%s\" (%dx%d) is larger than %d pixels: a "
                    "search for it would be slow; cut a smaller, distinctive part", file,
                    l->tpl->width, l->tpl->height, SC_SEARCH_MAX_TEMPLATE_PIXELS);
  else if (s->guest_w > 0 && (l->tpl->width > s->guest_w || l->tpl->height > s->guest_h))
    sc__scn_problem(c, SC__AT_VAL(c), "template \"%s\" (%dx%d) is larger than the guest (%dx%d)",
                    file, l->tpl->width, l->tpl->height, s->guest_w, s->guest_h);
  else {
    size_t opaque = 0;
    for (int y = 0; y < l->tpl->height; y++)
      for (int x = 0; x < l->tpl->width; x++) opaque += sc_image_pixel(l->tpl, x, y) & 0xff ? 1 : 0;
    if (opaque < 16)
      sc__scn_problem(c, SC__AT_VAL(c),
                      "template \"%s\" has %zu opaque pixels; at least 16 are needed to tell "
                      "places apart", file, opaque);
  }
  sc__scn_leave(c);
}

/* "text": words split by single spaces; "glyphs": a glyph set file
 * (against the scenario's directory) or a builtin name, which must be able
 * to spell every word. */
static void load_text(sc__scn *c, json_t *v, sc__locator *l) {
  const char *text = json_string_value(json_object_get(v, "text"));
  sc__scn_enter(c, "text");
  if (!text || !*text || text[0] == ' ' || text[strlen(text) - 1] == ' ' || strstr(text, "  ") ||
      strlen(text) >= SC_TEXT_MAX_CHARS)
    sc__scn_problem(c, SC__AT_VAL(c), "\"text\" must be words split by single spaces, 1 to %d "
                    "characters", SC_TEXT_MAX_CHARS - 1);
  else if (!(l->text = sc__strdup(text)))
    c->oom = 1;
  sc__scn_leave(c);
  json_t *g = json_object_get(v, "glyphs");
  const char *name = json_string_value(g);
  if (!g) {
    sc__scn_problem(c, SC__AT_VAL(c), "a \"text\" locator needs \"glyphs\": the glyph set "
                    "file it is read with (stepcheck glyphs learn)");
    return;
  }
  sc__scn_enter(c, "glyphs");
  if (!name || !*name) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"glyphs\" must be a glyph set file or a builtin name");
    sc__scn_leave(c);
    return;
  }
  int file = strchr(name, '/') || strstr(name, ".glyphs");
  char *path = file && name[0] != '/' ? sc__asprintf("%s%s", c->dir, name) : sc__strdup(name);
  if (!path) {
    c->oom = 1;
    sc__scn_leave(c);
    return;
  }
  int rc = sc_glyphset_load(&l->gs, path);
  sc__free(path);
  char missing[SC_GLYPH_NAME_MAX + 2];
  if (rc == SC_ENOMEM) c->oom = 1;
  else if (rc) sc__scn_problem(c, SC__AT_VAL(c), "glyph set \"%s\": %s", name, sc_errmsg());
  else if (l->text && sc_glyphset_spell(l->gs, l->text, missing) != 0)
    sc__scn_problem(c, SC__AT_VAL(c), "glyph set \"%s\" cannot spell \"%s\": it has no glyph for "
                    "\"%s\"", name, l->text, missing);
  sc__scn_leave(c);
}

/* An inset must leave something, as a literal region's must (top.c): of
 * the size when it is known now ("size", else the template's), else of
 * the guest, the most any region found at run time can be. */
static void check_inset(sc__scn *c, const sc__locator *l, long inset) {
  long w = l->w, h = l->h;
  if ((w <= 0 || h <= 0) && l->kind == SC__LOC_TEMPLATE && l->tpl) {
    w = l->tpl->width;
    h = l->tpl->height;
  }
  const sc_scenario *s = c->s;
  int known = w > 0 && h > 0;
  if (!known) {
    w = s->guest_w;
    h = s->guest_h;
  }
  if (w <= 0 || h <= 0 || (w - 2 * inset > 0 && h - 2 * inset > 0)) return;
  sc__scn_enter(c, "inset");
  if (known)
    sc__scn_problem(c, SC__AT_VAL(c), "\"inset\" %ld leaves nothing of %ldx%ld", inset, w, h);
  else
    sc__scn_problem(c, SC__AT_VAL(c), "\"inset\" %ld leaves nothing of any region in the %ldx%ld guest",
                    inset, w, h);
  sc__scn_leave(c);
}

static void check_one(sc__scn *c, size_t i, sc__locator *l) {
  json_t *v = c->locs[i].v;
  int is_region = c->locs[i].is_region;
  l->self = (sc__ref){is_region, c->locs[i].index};
  l->within = -1;
  l->tol = SC__LOC_TOL;
  l->score = SC__LOC_SCORE;
  l->margin = SC_SEARCH_MARGIN;
  sc__scn_keys(c, v, is_region ? K_REGION : K_POINT);
  const char *kind = NULL;
  int nk = 0;
  for (const char *const *k = KINDS; *k; k++)
    if (json_object_get(v, *k) && kind_fits(*k, is_region)) kind = kind ? kind : *k, nk++;
  if (nk != 1) {
    sc__scn_problem(c, SC__AT_VAL(c), "a %s locator has exactly one of %s", is_region ? "region" : "point",
                    is_region ? "\"template\", \"text\", \"from\", \"between\""
                              : "\"template\", \"text\", \"from\", \"centre\", \"quiet\"");
    return;
  }
  if (!strcmp(kind, "centre") || !strcmp(kind, "quiet")) {
    int centre = !strcmp(kind, "centre");
    l->kind = centre ? SC__LOC_CENTRE : SC__LOC_QUIET;
    sc__scn_enter(c, kind);
    int r = sc__scn_region_ref(c, json_object_get(v, kind), kind);
    sc__scn_leave(c);
    l->a = (sc__ref){1, r < 0 ? 0 : r};
    if (centre) {
      static const char *const not_centre[] = {"near", "radius", "tol", NULL};
      for (const char *const *k = not_centre; *k; k++)
        if (json_object_get(v, *k)) {
          sc__scn_enter(c, *k);
          sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" is for \"quiet\" locators", *k);
          sc__scn_leave(c);
        }
      return;
    }
    json_t *near = json_object_get(v, "near");
    if (near) {
      sc__scn_enter(c, "near");
      if (ref(c, near, "near", &l->more[0]) == 0) l->nmore = 1;
      sc__scn_leave(c);
    }
    long radius = SC__QUIET_RADIUS, tol = SC__QUIET_TOL;
    if (sc__scn_integer(c, v, "radius", 0, SC__R_NONNEG, &radius) == 1 &&
        (radius < 1 || radius > SC__QUIET_RADIUS_MAX)) {
      sc__scn_enter(c, "radius");
      sc__scn_problem(c, SC__AT_VAL(c), "\"radius\" must be from 1 to %d", SC__QUIET_RADIUS_MAX);
      sc__scn_leave(c);
    }
    sc__scn_integer(c, v, "tol", 0, SC__R_BYTE, &tol);
    l->radius = (int)radius;
    l->tol = (int)tol;
    static const char *const tpl_only[] = {"score", "margin", "within", "at", "offset", NULL};
    for (const char *const *k = tpl_only; *k; k++)
      if (json_object_get(v, *k)) {
        sc__scn_enter(c, *k);
        sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" is not for \"quiet\" locators", *k);
        sc__scn_leave(c);
      }
    return;
  }
  double w = 0, h = 0;
  if (!strcmp(kind, "template") || !strcmp(kind, "text")) {
    if (!strcmp(kind, "template")) {
      l->kind = SC__LOC_TEMPLATE;
      load_template(c, v, l);
      long tol = SC__LOC_TOL;
      if (sc__scn_integer(c, v, "tol", 0, SC__R_BYTE, &tol) == 1) l->tol = (int)tol;
      if (sc__scn_number(c, v, "score", 0, SC__R_UNIT, &l->score) == 1 && l->score < 0.5) {
        sc__scn_enter(c, "score");
        sc__scn_problem(c, SC__AT_VAL(c), "\"score\" must be from 0.5 to 1 (a match needs most of the template)");
        sc__scn_leave(c);
      }
      if (sc__scn_number(c, v, "margin", 0, SC__R_UNIT, &l->margin) == 1 && l->margin > 0.5) {
        sc__scn_enter(c, "margin");
        sc__scn_problem(c, SC__AT_VAL(c), "\"margin\" must be from 0 to 0.5 (how much the best place "
                        "must beat every other)");
        sc__scn_leave(c);
      }
    } else {
      l->kind = SC__LOC_TEXT;
      load_text(c, v, l);
      static const char *const tpl_only[] = {"tol", "score", "margin", NULL};
      for (const char *const *k = tpl_only; *k; k++)
        if (json_object_get(v, *k)) {
          sc__scn_enter(c, *k);
          sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" is for \"template\" locators; a \"text\" "
                          "locator takes the ink colour and tolerance of its glyph set", *k);
          sc__scn_leave(c);
        }
    }
    sc__scn_strdup(c, v, "hint", 0, &l->hint);
    json_t *in = json_object_get(v, "within");
    if (in) {
      sc__scn_enter(c, "within");
      l->within = sc__scn_region_ref(c, in, "within");
      if (is_region && l->within == l->self.index) {
        sc__scn_problem(c, SC__AT_VAL(c), "a region cannot be found within itself");
        l->within = -1;
      }
      sc__scn_leave(c);
    }
    if (!is_region && pair(c, v, "at", 0, &l->dx, &l->dy) == 1) l->has_offset = 1;
    if (is_region && pair(c, v, "offset", 1, &l->dx, &l->dy) == 1) l->has_offset = 1;
    if (is_region && pair(c, v, "size", 1, &w, &h) == 1 && (w < 1 || h < 1)) {
      sc__scn_enter(c, "size");
      sc__scn_problem(c, SC__AT_VAL(c), "\"size\" must be [w, h] with w, h > 0");
      sc__scn_leave(c);
    }
  } else if (!strcmp(kind, "from")) {
    l->kind = SC__LOC_FROM;
    sc__scn_enter(c, "from");
    ref(c, json_object_get(v, "from"), "from", &l->a);
    sc__scn_leave(c);
    if (pair(c, v, "offset", is_region, &l->dx, &l->dy) == 1) l->has_offset = 1;
    if (is_region) {
      int got = pair(c, v, "size", 1, &w, &h);
      if (got == 0) sc__scn_problem(c, SC__AT_VAL(c), "a region \"from\" another needs \"size\": [w, h]");
      else if (got == 1 && (w < 1 || h < 1)) {
        sc__scn_enter(c, "size");
        sc__scn_problem(c, SC__AT_VAL(c), "\"size\" must be [w, h] with w, h > 0");
        sc__scn_leave(c);
      }
    }
  } else {
    l->kind = SC__LOC_BETWEEN;
    json_t *b = json_object_get(v, "between");
    sc__scn_enter(c, "between");
    size_t nb = json_is_array(b) ? json_array_size(b) : 0;
    if (nb < 2 || nb > SC__LOC_ANCHORS) {
      sc__scn_problem(c, SC__AT_VAL(c), "\"between\" must be [NAME, NAME, ...] of 2 to %d points "
                      "or regions", SC__LOC_ANCHORS);
    } else {
      for (size_t k = 0; k < nb; k++) {
        sc__scn_enter_index(c, k);
        if (ref(c, json_array_get(b, k), "between", k ? &l->more[k - 1] : &l->a) == 0 && k)
          l->nmore = (int)k;
        sc__scn_leave(c);
      }
    }
    sc__scn_leave(c);
  }
  l->w = (int)w;
  l->h = (int)h;
  long inset = 0;
  if (is_region && sc__scn_integer(c, v, "inset", 0, SC__R_NONNEG, &inset) == 1) {
    l->inset = (int)inset;
    check_inset(c, l, inset);
  }
}

int sc__locator_of(const sc__locator *all, size_t n, sc__ref r) {
  for (size_t i = 0; i < n; i++)
    if (all[i].self.is_region == r.is_region && all[i].self.index == r.index) return (int)i;
  return -1;
}

int sc__scenario_located(const sc_scenario *s, int is_region, size_t i) {
  return s->locators &&
         sc__locator_of(s->locators->v, s->locators->n, (sc__ref){is_region, (int)i}) >= 0;
}

/* Index in all[] of the locator filling each point and region (-1: given
 * in the file), so that a dependency is found in O(1). */
typedef struct fillers {
  int *point, *region;
  size_t npoints, nregions;
} fillers;

static int filler(const fillers *f, sc__ref r) {
  if (r.index < 0) return -1;
  if (r.is_region) return (size_t)r.index < f->nregions ? f->region[r.index] : -1;
  return (size_t)r.index < f->npoints ? f->point[r.index] : -1;
}

/* What l needs found first: up to SC__LOC_ANCHORS + 1 locators. */
static int deps(const fillers *f, const sc__locator *l, int out[SC__LOC_ANCHORS + 1]) {
  int k = 0, d;
  if (l->kind == SC__LOC_FROM || l->kind == SC__LOC_BETWEEN || l->kind == SC__LOC_CENTRE ||
      l->kind == SC__LOC_QUIET)
    if ((d = filler(f, l->a)) >= 0) out[k++] = d;
  for (int i = 0; (l->kind == SC__LOC_BETWEEN || l->kind == SC__LOC_QUIET) && i < l->nmore; i++)
    if ((d = filler(f, l->more[i])) >= 0) out[k++] = d;
  if (l->within >= 0 && (d = filler(f, (sc__ref){1, l->within})) >= 0) out[k++] = d;
  return k;
}

/* Resolution order (Kahn): a locator is placed once everything it depends
 * on is, each edge looked at once, so a chain of any order costs O(n).
 * order[0..placed) gets the indices; state[i] = 1 for every placed one.
 * What is left unplaced sits on or behind a cycle. Returns placed, or -1
 * out of memory. */
static long order(const sc__locator *all, size_t n, const sc_scenario *s, size_t *ord, int *state) {
  fillers f = {sc__malloc((s->npoints ? s->npoints : 1) * sizeof(int)),
               sc__malloc((s->nregions ? s->nregions : 1) * sizeof(int)), s->npoints, s->nregions};
  int *need = sc__calloc(n, sizeof *need);       /* dependencies not yet placed */
  size_t *first = sc__calloc(n + 1, sizeof *first); /* users of i: by[first[i]..first[i+1]) */
  int *by = sc__malloc((n * (SC__LOC_ANCHORS + 1) + 1) * sizeof *by);
  long placed = -1;
  if (!f.point || !f.region || !need || !first || !by) goto done;
  for (size_t i = 0; i < f.npoints; i++) f.point[i] = -1;
  for (size_t i = 0; i < f.nregions; i++) f.region[i] = -1;
  for (size_t i = 0; i < n; i++) {
    sc__ref r = all[i].self;
    if (r.index >= 0 && (size_t)r.index < (r.is_region ? f.nregions : f.npoints))
      (r.is_region ? f.region : f.point)[r.index] = (int)i;
  }
  int d[SC__LOC_ANCHORS + 1];
  for (size_t i = 0; i < n; i++) {
    int k = deps(&f, &all[i], d);
    need[i] = k;
    for (int j = 0; j < k; j++) first[d[j] + 1]++;
  }
  for (size_t i = 0; i < n; i++) first[i + 1] += first[i];
  size_t *fill = sc__malloc((n ? n : 1) * sizeof *fill);
  if (!fill) goto done;
  memcpy(fill, first, n * sizeof *fill);
  for (size_t i = 0; i < n; i++) {
    int k = deps(&f, &all[i], d);
    for (int j = 0; j < k; j++) by[fill[d[j]]++] = (int)i;
  }
  sc__free(fill);
  /* ord doubles as the queue: what is ready, in file order, then what
   * each placement makes ready */
  size_t tail = 0;
  for (size_t i = 0; i < n; i++)
    if (need[i] == 0) ord[tail++] = i, state[i] = 1;
  for (size_t head = 0; head < tail; head++) {
    size_t i = ord[head];
    for (size_t e = first[i]; e < first[i + 1]; e++)
      if (--need[by[e]] == 0) ord[tail++] = (size_t)by[e], state[by[e]] = 1;
  }
  placed = (long)tail;
done:
  sc__free(f.point);
  sc__free(f.region);
  sc__free(need);
  sc__free(first);
  sc__free(by);
  return placed;
}

void sc__scn_locators(sc__scn *c, json_t *root) {
  sc_scenario *s = c->s;
  int relocate = 0;
  sc__scn_bool(c, root, "relocate", &relocate);
  if (relocate && c->nlocs == 0) {
    sc__scn_enter(c, "relocate");
    sc__scn_problem(c, SC__AT_VAL(c), "\"relocate\" is for scenarios with locators; this one has none");
    sc__scn_leave(c);
  }
  if (c->nlocs == 0 || c->oom) return;
  sc__locator *all = sc__calloc(c->nlocs, sizeof *all);
  struct sc_locators *L = sc__calloc(1, sizeof *L);
  int *state = sc__calloc(c->nlocs, sizeof *state);
  if (!all || !L || !state) {
    sc__free(all);
    sc__free(L);
    sc__free(state);
    c->oom = 1;
    return;
  }
  for (size_t i = 0; i < c->nlocs; i++) {
    const char *sect = c->locs[i].is_region ? "regions" : "points";
    sc__scn_enter(c, sect);
    sc__scn_enter(c, c->locs[i].name);
    snprintf(c->pre, sizeof c->pre, "%s \"%s\": ", sect, c->locs[i].name);
    check_one(c, i, &all[i]);
    c->pre[0] = '\0';
    sc__scn_leave(c);
    sc__scn_leave(c);
  }
  L->v = sc__calloc(c->nlocs, sizeof *L->v);
  size_t *ord = sc__calloc(c->nlocs, sizeof *ord);
  long got = L->v && ord ? order(all, c->nlocs, s, ord, state) : -1;
  if (got < 0) {
    sc__free(L->v);
    L->v = NULL;
    c->oom = 1;
  }
  size_t placed = got < 0 ? 0 : (size_t)got;
  for (size_t k = 0; k < placed; k++) L->v[k] = all[ord[k]];
  sc__free(ord);
  for (size_t i = 0; L->v && i < c->nlocs; i++) {
    if (state[i]) continue;
    const char *sect = c->locs[i].is_region ? "regions" : "points";
    sc__scn_enter(c, sect);
    sc__scn_enter(c, c->locs[i].name);
    sc__scn_problem(c, SC__AT_VAL(c), "%s \"%s\": its locator depends on itself (through \"from\", "
                    "\"between\", \"within\", \"centre\", \"quiet\" or \"near\")", sect,
                    c->locs[i].name);
    sc__scn_leave(c);
    sc__scn_leave(c);
    L->v[placed++] = all[i]; /* owned by L from here, for freeing */
  }
  if (!L->v)
    for (size_t i = 0; i < c->nlocs; i++) {
      sc__free(all[i].path);
      sc_image_free(all[i].tpl);
      sc__free(all[i].text);
      sc__free(all[i].hint);
      sc_glyphset_free(all[i].gs);
    }
  sc__free(state);
  sc__free(all);
  L->n = L->v ? c->nlocs : 0;
  L->relocate = relocate;
  L->bind = c->binds;
  L->nbind = c->nbinds;
  c->binds = NULL;
  c->nbinds = c->bindcap = 0;
  s->locators = L;
}
