/* Scale-bar profiles: a JSON file that describes one application's bar
 * layout, number format, rounding series and units (docs/text.md,
 * "Scale-bar profiles"), validated with file:line:column messages like a
 * scenario (core/jsonpos gives the positions jansson does not keep). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "core/jsonpos.h"
#include "text/scaleprofile_priv.h"
#include "text/text_priv.h"

#define PROFILE_MAX_BYTES (1u << 20)

typedef struct pctx {
  const char *origin; /* file path, or "builtin profile NAME" */
  const char *dir;    /* for glyph-set paths: the profile's folder ("" for builtins) */
  sc__jsonpos *ix;
  char path[256];
  size_t plen;
  int failed;
} pctx;

static int problem(pctx *c, int at_key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int problem(pctx *c, int at_key, const char *fmt, ...) {
  if (c->failed) return -1;
  c->failed = 1;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  sc__jpos p = at_key ? sc__jsonpos_key(c->ix, c->path) : sc__jsonpos_value(c->ix, c->path);
  sc__err(SC_EFORMAT, "%s:%d:%d: %s", c->origin, p.line, p.col, msg);
  return -1;
}

static size_t enter(pctx *c, const char *key) {
  size_t old = c->plen;
  if (sc__jsonpath_push_key(c->path, sizeof c->path, &c->plen, key, strlen(key)) < 0) c->plen = old;
  return old;
}
static size_t enter_index(pctx *c, size_t i) {
  size_t old = c->plen;
  if (sc__jsonpath_push_index(c->path, sizeof c->path, &c->plen, i) < 0) c->plen = old;
  return old;
}
static void leave(pctx *c, size_t old) {
  c->plen = old;
  c->path[old] = '\0';
}

/* Every key of obj must be one of keys (NULL-terminated) or "note". */
static int known_keys(pctx *c, json_t *obj, const char *const *keys, const char *what) {
  const char *k;
  json_t *v;
  json_object_foreach(obj, k, v) {
    int ok = strcmp(k, "note") == 0;
    for (size_t i = 0; keys[i] && !ok; i++) ok = strcmp(k, keys[i]) == 0;
    if (!ok) {
      char list[256] = "";
      for (size_t i = 0; keys[i]; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", keys[i]);
      size_t o = enter(c, k);
      problem(c, 1, "unknown key \"%s\" in %s (known: %s, note)", k, what, list);
      leave(c, o);
      return -1;
    }
  }
  return 0;
}

/* Member key of obj: NULL when absent (a problem when required). */
static json_t *member(pctx *c, json_t *obj, const char *key, int required, const char *what) {
  json_t *v = json_object_get(obj, key);
  if (!v && required) problem(c, 0, "%s needs \"%s\"", what, key);
  return v;
}

static int get_int(pctx *c, json_t *obj, const char *key, int lo, int hi, int required, int *out,
                   const char *what) {
  json_t *v = member(c, obj, key, required, what);
  if (!v) return required ? -1 : 0;
  size_t o = enter(c, key);
  int rc = 0;
  if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
    rc = problem(c, 0, "\"%s\" must be an integer from %d to %d", key, lo, hi);
  else
    *out = (int)json_integer_value(v);
  leave(c, o);
  return rc;
}

static int get_bool(pctx *c, json_t *obj, const char *key, int *out) {
  json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  size_t o = enter(c, key);
  int rc = 0;
  if (!json_is_boolean(v))
    rc = problem(c, 0, "\"%s\" must be true or false", key);
  else
    *out = json_is_true(v);
  leave(c, o);
  return rc;
}

/* One of names (NULL-terminated): its index in *out. */
static int get_enum(pctx *c, json_t *obj, const char *key, const char *const *names, int required,
                    int *out, const char *what) {
  json_t *v = member(c, obj, key, required, what);
  if (!v) return required ? -1 : 0;
  size_t o = enter(c, key);
  int rc = -1;
  if (json_is_string(v))
    for (int i = 0; names[i]; i++)
      if (strcmp(json_string_value(v), names[i]) == 0) *out = i, rc = 0;
  if (rc) {
    char list[160] = "";
    for (size_t i = 0; names[i]; i++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s\"%s\"", i ? ", " : "", names[i]);
    problem(c, 0, "\"%s\" must be one of %s", key, list);
  }
  leave(c, o);
  return rc;
}

static int get_rgb(pctx *c, json_t *obj, const char *key, uint32_t *out) {
  json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  size_t o = enter(c, key);
  const char *s = json_is_string(v) ? json_string_value(v) : "";
  uint32_t rgb = 0;
  int ok = strlen(s) == 6;
  for (int i = 0; ok && i < 6; i++) {
    char ch = s[i];
    int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
          : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
    ok = d >= 0;
    rgb = rgb * 16 + (uint32_t)(d < 0 ? 0 : d);
  }
  int rc = ok ? 0 : problem(c, 0, "\"%s\" must be 6 hex digits RRGGBB", key);
  if (ok) *out = rgb;
  leave(c, o);
  return rc;
}

static const char *const TOP_KEYS[] = {"stepcheck-scalebar", "name", "glyphs", "bar", "zero",
                                       "label", "number", "series", "units", "less_than", NULL};
static const char *const BAR_KEYS[] = {"ink", "tolerance", "ticks", "tick_px", "tick_width",
                                       "thickness", "offset", "rounding", NULL};
static const char *const LABEL_KEYS[] = {"at",    "align", "baseline", "top",
                                         "dx",    "slack", "max_gap",  NULL};
static const char *const ALIGN[] = {"start", "centre", NULL};
static const char *const SERIES_KEYS[] = {"mantissas", "of", NULL};
static const char *const UNIT_KEYS[] = {"unit", "metres", "min", "max", NULL};
static const char *const TICKS[] = {"through", "up", "down", NULL};
static const char *const ROUNDING[] = {"floor", "nearest", NULL};
static const char *const AT[] = {"under-right-tick", "right", "inside", NULL};
static const char *const NUMBER[] = {"josm", "plain", NULL};
static const char *const OF[] = {"label", "metres", NULL};

static int get_number(pctx *c, json_t *obj, const char *key, int required, double *out,
                      const char *what) {
  json_t *v = member(c, obj, key, required, what);
  if (!v) return required ? -1 : 0;
  size_t o = enter(c, key);
  int rc = 0;
  if (!json_is_number(v) || !(json_number_value(v) > 0) || !isfinite(json_number_value(v)))
    rc = problem(c, 0, "\"%s\" must be a positive number", key);
  else
    *out = json_number_value(v);
  leave(c, o);
  return rc;
}

static int load_units(pctx *c, sc_scale_profile *p, json_t *arr) {
  size_t o = enter(c, "units");
  if (!json_is_array(arr) || json_array_size(arr) == 0 ||
      json_array_size(arr) > SC__PROFILE_MAX_UNITS) {
    problem(c, 0, "\"units\" must be an array of 1 to %d units", SC__PROFILE_MAX_UNITS);
    leave(c, o);
    return -1;
  }
  for (size_t i = 0; i < json_array_size(arr); i++) {
    json_t *u = json_array_get(arr, i);
    size_t oi = enter_index(c, i);
    sc__scale_unit *d = &p->units[i];
    if (!json_is_object(u)) {
      problem(c, 0, "a unit must be an object {\"unit\": \"km\", \"metres\": 1000}");
    } else if (!known_keys(c, u, UNIT_KEYS, "a unit")) {
      json_t *nm = member(c, u, "unit", 1, "a unit");
      size_t on = enter(c, "unit");
      if (nm && (!json_is_string(nm) || !json_string_length(nm) ||
                 json_string_length(nm) >= sizeof d->name || strchr(json_string_value(nm), ' ')))
        problem(c, 0, "\"unit\" must be 1 to %zu characters without spaces", sizeof d->name - 1);
      else if (nm)
        snprintf(d->name, sizeof d->name, "%s", json_string_value(nm));
      leave(c, on);
      get_number(c, u, "metres", 1, &d->metres, "a unit");
      get_number(c, u, "min", 0, &d->min, "a unit");
      get_number(c, u, "max", 0, &d->max, "a unit");
    }
    for (size_t j = 0; j < i && !c->failed; j++)
      if (strcmp(p->units[j].name, d->name) == 0) problem(c, 0, "unit \"%s\" twice", d->name);
    leave(c, oi);
    if (c->failed) break;
  }
  p->nunits = (int)json_array_size(arr);
  leave(c, o);
  return c->failed ? -1 : 0;
}

static int load_series(pctx *c, sc_scale_profile *p, json_t *s) {
  size_t o = enter(c, "series");
  if (!json_is_object(s)) {
    problem(c, 0, "\"series\" must be an object {\"mantissas\": [1, 2, 5]}");
  } else if (!known_keys(c, s, SERIES_KEYS, "\"series\"")) {
    json_t *m = member(c, s, "mantissas", 1, "\"series\"");
    size_t om = enter(c, "mantissas");
    if (m && (!json_is_array(m) || !json_array_size(m) ||
              json_array_size(m) > SC__PROFILE_MAX_MANTISSAS)) {
      problem(c, 0, "\"mantissas\" must be an array of 1 to %d numbers from 1 to 9.99 "
              "(the rounding series: [1, 2, 5] for 1-2-5 x 10^n)", SC__PROFILE_MAX_MANTISSAS);
    } else if (m) {
      for (size_t i = 0; i < json_array_size(m) && !c->failed; i++) {
        json_t *v = json_array_get(m, i);
        size_t oi = enter_index(c, i);
        if (!json_is_number(v) || json_number_value(v) < 1 || json_number_value(v) >= 10)
          problem(c, 0, "a mantissa must be a number from 1 to 9.99");
        else
          p->mant[p->nmant++] = json_number_value(v);
        leave(c, oi);
      }
    }
    leave(c, om);
    int of = 0;
    get_enum(c, s, "of", OF, 0, &of, "\"series\"");
    p->series_metres = of == 1;
  }
  leave(c, o);
  return c->failed ? -1 : 0;
}

static int load_bar(pctx *c, sc_scale_profile *p, json_t *b) {
  size_t o = enter(c, "bar");
  if (!json_is_object(b)) {
    problem(c, 0, "\"bar\" must be an object");
  } else if (!known_keys(c, b, BAR_KEYS, "\"bar\"")) {
    get_rgb(c, b, "ink", &p->bar_rgb);
    get_int(c, b, "tolerance", 0, 255, 0, &p->bar_tol, "\"bar\"");
    get_enum(c, b, "ticks", TICKS, 1, &p->ticks, "\"bar\"");
    get_int(c, b, "tick_px", 1, 40, 1, &p->tick_px, "\"bar\"");
    get_int(c, b, "tick_width", 1, 4, 0, &p->tick_w, "\"bar\"");
    get_int(c, b, "thickness", 1, 4, 0, &p->thick, "\"bar\"");
    get_int(c, b, "offset", -100, 100, 0, &p->offset, "\"bar\"");
    get_enum(c, b, "rounding", ROUNDING, 0, &p->rounding, "\"bar\"");
  }
  leave(c, o);
  return c->failed ? -1 : 0;
}

static int load_label(pctx *c, sc_scale_profile *p, json_t *l) {
  size_t o = enter(c, "label");
  if (!json_is_object(l)) {
    problem(c, 0, "\"label\" must be an object");
  } else if (!known_keys(c, l, LABEL_KEYS, "\"label\"")) {
    get_enum(c, l, "at", AT, 1, &p->at, "\"label\"");
    get_int(c, l, "baseline", -60, 60, 1, &p->baseline, "\"label\"");
    get_enum(c, l, "align", ALIGN, 0, &p->centred, "\"label\"");
    get_int(c, l, "top", 1, 60, 0, &p->top, "\"label\"");
    get_int(c, l, "dx", -20, 200, 0, &p->dx, "\"label\"");
    get_int(c, l, "slack", 0, 10, 0, &p->slack, "\"label\"");
    get_int(c, l, "max_gap", 1, 40, 0, &p->max_gap, "\"label\"");
  }
  leave(c, o);
  return c->failed ? -1 : 0;
}

static int load_glyphs(pctx *c, sc_scale_profile *p, json_t *g) {
  size_t o = enter(c, "glyphs");
  if (!json_is_string(g) || !json_string_length(g)) {
    problem(c, 0, "\"glyphs\" must be a builtin glyph set (josm, gpsprune) or a .glyphs path");
  } else {
    const char *v = json_string_value(g);
    size_t n = strlen(v);
    int is_path = strchr(v, '/') || (n > 7 && !strcmp(v + n - 7, ".glyphs"));
    char *path = is_path && v[0] != '/' ? sc__asprintf("%s%s", c->dir, v) : sc__strdup(v);
    if (!path) {
      leave(c, o);
      return sc__err(SC_ENOMEM, "scale profile: out of memory");
    }
    int rc = sc_glyphset_load(&p->gs, path);
    if (rc == SC_ENOMEM) {
      sc__free(path);
      leave(c, o);
      return rc;
    }
    if (rc) {
      char why[400];
      snprintf(why, sizeof why, "%s", sc_errmsg());
      problem(c, 0, "glyph set \"%s\" cannot be loaded: %s", v, why);
    }
    sc__free(path);
  }
  leave(c, o);
  return c->failed ? SC_EFORMAT : 0;
}

static int load_root(pctx *c, sc_scale_profile *p, json_t *root) {
  if (!json_is_object(root)) return problem(c, 0, "a scale-bar profile is a JSON object");
  if (known_keys(c, root, TOP_KEYS, "the profile")) return -1;
  json_t *v = member(c, root, "stepcheck-scalebar", 1, "the profile");
  if (!v) return -1;
  size_t o = enter(c, "stepcheck-scalebar");
  if (!json_is_integer(v) || json_integer_value(v) != 1)
    problem(c, 0, "\"stepcheck-scalebar\" must be 1 (the format version this library reads)");
  leave(c, o);
  if (c->failed) return -1;
  if (!(v = member(c, root, "name", 1, "the profile"))) return -1;
  o = enter(c, "name");
  if (!json_is_string(v) || !json_string_length(v) || json_string_length(v) >= sizeof p->name)
    problem(c, 0, "\"name\" must be a string of 1 to %zu bytes", sizeof p->name - 1);
  else
    snprintf(p->name, sizeof p->name, "%s", json_string_value(v));
  leave(c, o);
  if (c->failed) return -1;
  if (!(v = member(c, root, "glyphs", 1, "the profile"))) return -1;
  int rc = load_glyphs(c, p, v);
  if (rc) return rc;
  p->bar_rgb = p->gs->ink_rgb;
  p->bar_tol = p->gs->tol;
  if (!(v = member(c, root, "bar", 1, "the profile")) || load_bar(c, p, v)) return -1;
  if (get_bool(c, root, "zero", &p->zero) || get_bool(c, root, "less_than", &p->less_than))
    return -1;
  if (!(v = member(c, root, "label", 1, "the profile")) || load_label(c, p, v)) return -1;
  if (get_enum(c, root, "number", NUMBER, 1, &p->number, "the profile")) return -1;
  if (!(v = member(c, root, "series", 1, "the profile")) || load_series(c, p, v)) return -1;
  if (!(v = member(c, root, "units", 1, "the profile")) || load_units(c, p, v)) return -1;
  if (p->centred && p->at != SC__LABEL_INSIDE) {
    o = enter(c, "label");
    problem(c, 0, "\"align\": \"centre\" is for a label \"at\": \"inside\" the bar");
    leave(c, o);
    return -1;
  }
  if (p->zero && p->at != SC__LABEL_UNDER_RIGHT_TICK) {
    o = enter(c, "zero");
    problem(c, 1, "a \"0\" under the left tick goes with a label \"at\": \"under-right-tick\"");
    leave(c, o);
    return -1;
  }
  return 0;
}

static int parse(sc_scale_profile **out, const char *buf, size_t len, const char *origin,
                 const char *dir) {
  *out = NULL;
  sc_scale_profile *p = sc__calloc(1, sizeof *p);
  if (!p) return sc__err(SC_ENOMEM, "scale profile: out of memory");
  p->tick_w = 1;
  p->thick = 1;
  p->slack = 1;
  p->max_gap = 8;
  pctx c = {origin, dir, NULL, "", 0, 0};
  int rc = sc__jsonpos_build(&c.ix, buf, len);
  if (rc == SC_ENOMEM) {
    sc__free(p);
    return sc__err(SC_ENOMEM, "scale profile: out of memory");
  }
  json_error_t je;
  json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
  if (!root && (json_error_code(&je) == json_error_out_of_memory || je.text[0] == '\0')) {
    rc = sc__err(SC_ENOMEM, "scale profile: out of memory");
  } else if (!root) {
    rc = sc__err(SC_EFORMAT, "%s:%d:%d: %s", origin, je.line, je.column, je.text);
  } else {
    rc = load_root(&c, p, root);
    if (rc == -1) rc = SC_EFORMAT;
  }
  json_decref(root);
  sc__jsonpos_free(c.ix);
  if (rc) {
    sc_scale_profile_free(p);
    return rc;
  }
  *out = p;
  return 0;
}

SC_EXTERN int sc_scale_profile_parse(sc_scale_profile **out, const char *buf, size_t len,
                                     const char *origin) {
  if (!out) return sc__err(SC_EINVAL, "scale profile: NULL argument");
  *out = NULL;
  if (!buf) return sc__err(SC_EINVAL, "scale profile: NULL argument");
  return parse(out, buf, len, origin ? origin : "profile", "");
}

int sc__scale_profile_is_path(const char *s) {
  size_t n = strlen(s);
  return strchr(s, '/') != NULL || (n > 5 && strcmp(s + n - 5, ".json") == 0);
}

SC_EXTERN int sc_scale_profile_load(sc_scale_profile **out, const char *name_or_path) {
  if (!out) return sc__err(SC_EINVAL, "scale profile: NULL argument");
  *out = NULL;
  if (!name_or_path) return sc__err(SC_EINVAL, "scale profile: NULL argument");
  if (!sc__scale_profile_is_path(name_or_path)) {
    char known[160] = "";
    for (size_t i = 0; i < sc__builtin_profiles_n; i++) {
      const sc__builtin_profile *b = &sc__builtin_profiles[i];
      if (strcmp(b->name, name_or_path) == 0) {
        char origin[96];
        snprintf(origin, sizeof origin, "builtin profile %s", b->name);
        return parse(out, b->json, strlen(b->json), origin, "");
      }
      snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", b->name);
    }
    return sc__err(SC_ENOTFOUND,
                   "scale profile: unknown profile \"%s\" (builtin: %s; a file is named by a path "
                   "with '/' or ending in .json)", name_or_path, known);
  }
  char *buf;
  size_t len;
  int rc = sc__file_read_all(name_or_path, PROFILE_MAX_BYTES, &buf, &len);
  if (rc) return rc;
  const char *slash = strrchr(name_or_path, '/');
  char *dir = sc__strndup(name_or_path, slash ? (size_t)(slash - name_or_path) + 1 : 0);
  if (!dir) {
    sc__free(buf);
    return sc__err(SC_ENOMEM, "scale profile: out of memory");
  }
  rc = parse(out, buf, len, name_or_path, dir);
  sc__free(dir);
  sc__free(buf);
  return rc;
}

SC_EXTERN const char *sc_scale_profile_builtin(size_t i) {
  return i < sc__builtin_profiles_n ? sc__builtin_profiles[i].name : NULL;
}

SC_EXTERN void sc_scale_profile_free(sc_scale_profile *p) {
  if (!p) return;
  sc_glyphset_free(p->gs);
  sc__free(p);
}

SC_EXTERN const char *sc_scale_profile_name(const sc_scale_profile *p) {
  return p ? p->name : NULL;
}

SC_EXTERN const sc_glyphset *sc_scale_profile_glyphs(const sc_scale_profile *p) {
  return p ? p->gs : NULL;
}

/* --- save ------------------------------------------------------------------ */

static json_t *profile_json(const sc_scale_profile *p, const char *glyphs) {
  char ink[8];
  snprintf(ink, sizeof ink, "%06x", (unsigned)p->bar_rgb);
  json_t *bar = json_pack("{s:s, s:i, s:s, s:i, s:i, s:i, s:i, s:s}", "ink", ink, "tolerance",
                          p->bar_tol, "ticks", TICKS[p->ticks], "tick_px", p->tick_px,
                          "tick_width", p->tick_w, "thickness", p->thick, "offset", p->offset,
                          "rounding", ROUNDING[p->rounding]);
  json_t *label = json_pack("{s:s, s:i, s:i, s:i, s:i}", "at", AT[p->at], "baseline", p->baseline,
                            "dx", p->dx, "slack", p->slack, "max_gap", p->max_gap);
  if (label && p->at == SC__LABEL_INSIDE) json_object_set_new(label, "align", json_string(ALIGN[p->centred]));
  if (label && p->top) json_object_set_new(label, "top", json_integer(p->top));
  json_t *mant = json_array(), *units = json_array();
  for (int i = 0; mant && i < p->nmant; i++) json_array_append_new(mant, json_real(p->mant[i]));
  for (int i = 0; units && i < p->nunits; i++) {
    const sc__scale_unit *u = &p->units[i];
    json_t *o = json_pack("{s:s, s:f}", "unit", u->name, "metres", u->metres);
    if (o && u->min > 0) json_object_set_new(o, "min", json_real(u->min));
    if (o && u->max > 0) json_object_set_new(o, "max", json_real(u->max));
    if (!o || json_array_append_new(units, o)) {
      json_decref(units);
      units = NULL;
    }
  }
  json_t *root = NULL;
  if (bar && label && mant && units)
    root = json_pack("{s:i, s:s, s:s, s:O, s:b, s:O, s:s, s:{s:O, s:s}, s:O, s:b}",
                     "stepcheck-scalebar", 1, "name", p->name, "glyphs", glyphs, "bar", bar,
                     "zero", p->zero, "label", label, "number", NUMBER[p->number], "series",
                     "mantissas", mant, "of", OF[p->series_metres], "units", units, "less_than",
                     p->less_than);
  json_decref(bar);
  json_decref(label);
  json_decref(mant);
  json_decref(units);
  return root;
}

SC_EXTERN int sc_scale_profile_save(const sc_scale_profile *p, const char *name, const char *glyphs,
                                    const char *path) {
  if (!p || !glyphs || !path) return sc__err(SC_EINVAL, "scale profile: NULL argument");
  if (name && (!*name || strlen(name) >= sizeof p->name))
    return sc__err(SC_EINVAL, "scale profile: a name of 1 to %zu bytes", sizeof p->name - 1);
  int rc = sc__out_check(path);
  if (rc) return rc;
  sc_scale_profile named = *p;
  if (name) snprintf(named.name, sizeof named.name, "%s", name);
  json_t *root = profile_json(&named, glyphs);
  if (!root) return sc__err(SC_ENOMEM, "scale profile: out of memory");
  char *tmp = sc__asprintf("%s.tmp", path);
  FILE *f = tmp ? sc__out_open_tmp(tmp) : NULL;
  if (!tmp) {
    rc = sc__err(SC_ENOMEM, "scale profile: out of memory");
  } else if (!f) {
    rc = sc__err(SC_EIO, "%s: %s", tmp, strerror(errno));
  } else {
    int bad = json_dumpf(root, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12)) != 0;
    bad |= fputc('\n', f) == EOF;
    if (ferror(f) | (fclose(f) != 0) | bad) {
      rc = sc__err(SC_EIO, "%s: write error", tmp);
      remove(tmp);
    } else if (rename(tmp, path) != 0) {
      rc = sc__err(SC_EIO, "rename %s: %s", path, strerror(errno));
      remove(tmp);
    }
  }
  sc__free(tmp);
  json_decref(root);
  return rc;
}
