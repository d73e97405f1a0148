/* Reading the scenario model through the public accessors (the model itself
 * is scenario/model.h, the library's own). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "core/json.h"
#include "scenario/model.h"

SC_EXTERN const char *sc_scenario_path(const sc_scenario *s) { return s ? s->path : NULL; }
SC_EXTERN const char *sc_scenario_app(const sc_scenario *s) { return s ? s->app : NULL; }
SC_EXTERN const char *sc_scenario_url(const sc_scenario *s) { return s ? s->url : NULL; }

SC_EXTERN void sc_scenario_guest_size(const sc_scenario *s, int *w, int *h) {
  if (w) *w = s ? s->guest_w : 0;
  if (h) *h = s ? s->guest_h : 0;
}

SC_EXTERN void sc_scenario_viewport(const sc_scenario *s, int *w, int *h) {
  if (w) *w = s ? s->viewport_w : 0;
  if (h) *h = s ? s->viewport_h : 0;
}

SC_EXTERN size_t sc_scenario_nregions(const sc_scenario *s) { return s ? s->nregions : 0; }

SC_EXTERN const char *sc_scenario_region_name(const sc_scenario *s, size_t i) {
  return s && i < s->nregions ? s->regions[i].name : NULL;
}

SC_EXTERN sc_rect sc_scenario_region_rect(const sc_scenario *s, size_t i) {
  return s && i < s->nregions ? s->regions[i].r : (sc_rect){0, 0, 0, 0};
}

SC_EXTERN size_t sc_scenario_npoints(const sc_scenario *s) { return s ? s->npoints : 0; }

SC_EXTERN const char *sc_scenario_point_name(const sc_scenario *s, size_t i) {
  return s && i < s->npoints ? s->points[i].name : NULL;
}

SC_EXTERN sc_point sc_scenario_point(const sc_scenario *s, size_t i) {
  return s && i < s->npoints ? s->points[i].p : (sc_point){0, 0};
}

SC_EXTERN size_t sc_scenario_nsteps(const sc_scenario *s) { return s ? s->nsteps : 0; }

SC_EXTERN const sc_step *sc_scenario_step(const sc_scenario *s, size_t i) {
  return s && i < s->nsteps ? &s->steps[i] : NULL;
}

SC_EXTERN size_t sc_scenario_nsetup(const sc_scenario *s) { return s ? s->nsetup : 0; }

SC_EXTERN const sc_step *sc_scenario_setup_step(const sc_scenario *s, size_t i) {
  return s && i < s->nsetup ? &s->setup[i] : NULL;
}

SC_EXTERN const char *sc_scenario_rest(const sc_scenario *s) {
  return !s ? NULL : s->rest_pairs ? "pairs" : "paint-log";
}

SC_EXTERN int sc_scenario_set_rest(sc_scenario *s, const char *rule) {
  if (!s || !rule) return sc__err(SC_EINVAL, "sc_scenario_set_rest: NULL argument");
  if (strcmp(rule, "pairs") && strcmp(rule, "paint-log"))
    return sc__err(SC_EINVAL, "sc_scenario_set_rest: rest \"%s\": want paint-log or pairs", rule);
  s->rest_pairs = strcmp(rule, "pairs") == 0;
  return 0;
}

SC_EXTERN const char *sc_scenario_canvas(const sc_scenario *s) { return s ? s->canvas : NULL; }

SC_EXTERN int sc_scenario_set_canvas(sc_scenario *s, const char *selector) {
  if (!s) return sc__err(SC_EINVAL, "sc_scenario_set_canvas: s is NULL");
  if (selector && !*selector)
    return sc__err(SC_EINVAL, "sc_scenario_set_canvas: an empty selector (NULL: the largest "
                              "visible canvas)");
  char *v = NULL;
  if (selector && !(v = sc__strdup(selector)))
    return sc__err(SC_ENOMEM, "sc_scenario_set_canvas: out of memory");
  sc__free(s->canvas);
  s->canvas = v;
  return 0;
}

SC_EXTERN const char *sc_step_id(const sc_step *st) { return st ? st->id : NULL; }

SC_EXTERN sc_action_kind sc_step_action(const sc_step *st) {
  return st ? st->action.kind : SC_ACTION_NONE;
}

SC_EXTERN int sc_step_point(const sc_step *st, sc_point *at) {
  if (!st) return 0;
  int has = st->action.kind == SC_ACTION_CLICK || st->action.kind == SC_ACTION_WHEEL ||
            st->action.kind == SC_ACTION_MOVE ||
            (st->action.kind == SC_ACTION_KEY && st->action.has_at);
  if (has && at) *at = st->action.at;
  return has;
}

SC_EXTERN int sc_step_notches(const sc_step *st) {
  return st && st->action.kind == SC_ACTION_WHEEL ? st->action.notches : 0;
}

SC_EXTERN const char *sc_step_key(const sc_step *st, int *repeat) {
  int key = st && st->action.kind == SC_ACTION_KEY;
  if (repeat) *repeat = key ? st->action.repeat : 0;
  return key ? st->action.key : NULL;
}

SC_EXTERN double sc_step_timeout_ms(const sc_step *st) { return st ? st->timeout_ms : 0; }
SC_EXTERN int sc_step_line(const sc_step *st) { return st ? st->line : 0; }
SC_EXTERN size_t sc_step_nexpect(const sc_step *st) { return st ? st->nexpect : 0; }

SC_EXTERN const sc_expect *sc_step_expect(const sc_step *st, size_t i) {
  return st && i < st->nexpect ? &st->expect[i] : NULL;
}

SC_EXTERN sc_expect_kind sc_expect_kind_of(const sc_expect *e) {
  return e ? e->kind : (sc_expect_kind)0;
}

SC_EXTERN int sc_expect_region(const sc_expect *e) { return e ? e->region : -1; }

static const char *const k_kind[] = {
    [SC_EXPECT_CHANGED] = "changed", [SC_EXPECT_UNCHANGED] = "unchanged",
    [SC_EXPECT_EQUALS] = "equals",   [SC_EXPECT_STABLE] = "stable",
    [SC_EXPECT_COLOR] = "color",     [SC_EXPECT_SCALE] = "scale",
    [SC_EXPECT_TEXT] = "text",
};

/* The tolerance keys of changed/unchanged/equals/stable. */
static void put_tol(json_t *o, const sc_expect *e) {
  json_object_set_new(o, "threshold", json_real(e->threshold));
  json_object_set_new(o, "max_pixels", json_integer(e->max_pixels));
  if (e->max_ratio > 0) json_object_set_new(o, "max_ratio", json_real(e->max_ratio));
}

static void put_str(json_t *o, const char *k, const char *v) {
  if (v) json_object_set_new(o, k, json_string(v));
}

/* Every key the loader reads for the kind, with the value in effect
 * (defaults applied), so the text loads back into the same expectation. */
SC_EXTERN char *sc_expect_json(const sc_scenario *s, const sc_expect *e) {
  if (!s || !e || (unsigned)e->kind >= sizeof k_kind / sizeof k_kind[0] || !k_kind[e->kind])
    return NULL;
  const char *region = sc_scenario_region_name(s, (size_t)e->region);
  json_t *o = json_object();
  if (!o) return NULL;
  json_object_set_new(o, k_kind[e->kind], region ? json_string(region) : json_null());
  switch (e->kind) {
  case SC_EXPECT_CHANGED:
    json_object_set_new(o, "threshold", json_real(e->threshold));
    json_object_set_new(o, "min_pixels", json_integer(e->min_pixels));
    break;
  case SC_EXPECT_EQUALS:
    put_tol(o, e);
    put_str(o, "snapshot", e->snapshot);
    put_str(o, "baseline", e->baseline);
    break;
  case SC_EXPECT_UNCHANGED:
  case SC_EXPECT_STABLE:
    put_tol(o, e);
    break;
  case SC_EXPECT_COLOR: {
    char rgb[8];
    snprintf(rgb, sizeof rgb, "%06x", (unsigned)(e->rgb & 0xffffffu));
    json_object_set_new(o, "rgb", json_string(rgb));
    json_object_set_new(o, "tol", json_integer(e->color_tol));
    json_object_set_new(o, "min_pixels", json_integer(e->min_pixels));
    json_object_set_new(o, "absent", json_boolean(e->absent));
    break;
  }
  case SC_EXPECT_SCALE:
    json_object_set_new(o, "factor", json_real(e->factor));
    json_object_set_new(o, "tol", json_real(e->factor_tol));
    put_str(o, "profile", e->profile);
    break;
  case SC_EXPECT_TEXT:
    put_str(o, "equals", e->text_equals);
    put_str(o, "match", e->text_match);
    put_str(o, "glyphs", e->glyphs);
    break;
  }
  char *txt = sc__json_dump(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
  json_decref(o);
  return txt;
}
