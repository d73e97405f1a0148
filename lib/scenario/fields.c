/* Checking context: JSON path, problems with positions, typed field readers. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scenario/scn.h"

void sc__scn_enter(sc__scn *c, const char *key) {
  if (c->over || c->depth == SC__PATH_DEPTH) {
    c->over++;
    return;
  }
  size_t old = c->plen;
  if (sc__jsonpath_push_key(c->path, sizeof c->path, &c->plen, key, strlen(key)) < 0) {
    c->over++; /* positions then come from the nearest ancestor */
    return;
  }
  c->pstack[c->depth++] = old;
}

void sc__scn_enter_index(sc__scn *c, size_t i) {
  if (c->over || c->depth == SC__PATH_DEPTH) {
    c->over++;
    return;
  }
  size_t old = c->plen;
  if (sc__jsonpath_push_index(c->path, sizeof c->path, &c->plen, i) < 0) {
    c->over++;
    return;
  }
  c->pstack[c->depth++] = old;
}

void sc__scn_leave(sc__scn *c) {
  if (c->over) {
    c->over--;
    return;
  }
  if (c->depth == 0) return;
  c->plen = c->pstack[--c->depth];
  c->path[c->plen] = '\0';
}

sc__jpos sc__scn_vpos(const sc__scn *c) { return sc__jsonpos_value(c->ix, c->path); }
sc__jpos sc__scn_kpos(const sc__scn *c) { return sc__jsonpos_key(c->ix, c->path); }

void sc__scn_problem(sc__scn *c, sc__jpos at, const char *fmt, ...) {
  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (c->pn == c->pcap) {
    size_t cap = c->pcap ? c->pcap * 2 : 8;
    sc__problem *v = sc__realloc(c->pv, cap * sizeof *v);
    if (!v) {
      c->oom = 1;
      return;
    }
    c->pv = v;
    c->pcap = cap;
  }
  char *raw = sc__asprintf("%s:%d:%d: %s%s", c->name, at.line, at.col, c->pre, msg);
  /* keys, ids, values and the file name come from the user: one line, no
   * terminal control, whatever they hold */
  char *text = raw ? sc__escape_ctl(raw) : NULL;
  sc__free(raw);
  if (!text) {
    c->oom = 1;
    return;
  }
  c->pv[c->pn] = (sc__problem){at, c->pn, text};
  c->pn++;
}

char *sc__scn_dup(sc__scn *c, const char *s) {
  char *d = sc__strdup(s);
  if (s && !d) c->oom = 1;
  return d;
}

static int allowed_has(const char *const *allowed, const char *key) {
  for (; *allowed; allowed++)
    if (strcmp(*allowed, key) == 0) return 1;
  return 0;
}

int sc__scn_fixed(const sc__scn *c, const char *key) {
  for (int i = 0; i < c->nfix; i++)
    if (strcmp(c->fixes[i].key, key) == 0 && strcmp(c->fixes[i].path, c->path) == 0) return 1;
  return 0;
}

void sc__scn_fix_add(sc__scn *c, const char *key) {
  if (c->nfix == (int)(sizeof c->fixes / sizeof c->fixes[0])) return;
  memcpy(c->fixes[c->nfix].path, c->path, c->plen + 1);
  c->fixes[c->nfix++].key = key;
}

int sc__scn_unknown(sc__scn *c, sc__unknown *u) {
  if (u->n++ < SC__UNKNOWN_MAX) return 1;
  if (u->n == SC__UNKNOWN_MAX + 1) u->more_at = SC__AT_KEY(c);
  return 0;
}

void sc__scn_unknown_done(sc__scn *c, const sc__unknown *u) {
  if (u->n > SC__UNKNOWN_MAX)
    sc__scn_problem(c, u->more_at, "%zu more unknown keys in this object (the first %d are listed)",
                    u->n - SC__UNKNOWN_MAX, SC__UNKNOWN_MAX);
}

int sc__scn_note(sc__scn *c, const char *key, json_t *v) {
  if (strcmp(key, "note") != 0) return 0;
  int ok = json_is_string(v);
  if (json_is_array(v)) {
    size_t i;
    json_t *e;
    ok = 1;
    json_array_foreach(v, i, e) ok &= json_is_string(e);
  }
  if (!ok) {
    sc__scn_enter(c, key);
    sc__scn_problem(c, SC__AT_VAL(c), "\"note\" is a comment: a string or an array of strings");
    sc__scn_leave(c);
  }
  return 1;
}

void sc__scn_keys(sc__scn *c, json_t *obj, const char *const *allowed) {
  const char *key;
  json_t *v;
  sc__unknown u = {0};
  json_object_foreach(obj, key, v) {
    if (allowed_has(allowed, key) || sc__scn_note(c, key, v)) continue;
    sc__scn_enter(c, key);
    int listed = sc__scn_unknown(c, &u);
    sc__scn_leave(c);
    if (!listed) continue;
    sc__suggest sg;
    sc__suggest_init(&sg, c, key);
    for (const char *const *a = allowed; *a; a++) sc__suggest_add(&sg, *a);
    if (sg.best && !json_object_get(obj, sg.best)) sc__scn_fix_add(c, sg.best);
    char hint[128];
    sc__scn_enter(c, key);
    sc__scn_problem(c, SC__AT_KEY(c), "unknown key \"%s\"%s", key,
                    sc__suggest_text(&sg, hint, sizeof hint));
    sc__scn_leave(c);
  }
  sc__scn_unknown_done(c, &u);
}

json_t *sc__scn_get(sc__scn *c, json_t *obj, const char *key, int required) {
  json_t *v = json_object_get(obj, key);
  if (!v && required && !sc__scn_fixed(c, key)) sc__scn_problem(c, SC__AT_VAL(c), "missing required key \"%s\"", key);
  return v;
}

static const char *range_text(sc__range r) {
  switch (r) {
  case SC__R_POS: return " > 0";
  case SC__R_NONNEG: return " >= 0";
  case SC__R_GE1: return " >= 1";
  case SC__R_UNIT: return " from 0 to 1";
  case SC__R_BYTE: return " from 0 to 255";
  case SC__R_MS: return " from 0 to 600000 (ms)";
  case SC__R_MS_POS: return " > 0 and at most 600000 (ms)";
  case SC__R_DELTA: return " > 0 and at most 10000";
  case SC__R_NOTCHES: return " from -100 to 100, not 0";
  case SC__R_REPEAT: return " from 1 to 64";
  }
  return "";
}

static int in_range(sc__range r, double v) {
  if (!isfinite(v)) return 0;
  switch (r) {
  case SC__R_POS: return v > 0;
  case SC__R_NONNEG: return v >= 0;
  case SC__R_GE1: return v >= 1;
  case SC__R_UNIT: return v >= 0 && v <= 1;
  case SC__R_BYTE: return v >= 0 && v <= 255;
  case SC__R_MS: return v >= 0 && v <= SC__MS_MAX;
  case SC__R_MS_POS: return v > 0 && v <= SC__MS_MAX;
  case SC__R_DELTA: return v > 0 && v <= SC__DELTA_MAX;
  case SC__R_NOTCHES: return v != 0 && v >= -SC__COUNT_MAX && v <= SC__COUNT_MAX;
  case SC__R_REPEAT: return v >= 1 && v <= SC__REPEAT_MAX;
  }
  return 0;
}

/* Integers beyond this are typos, and would not fit the model's ints. */
#define SC__INT_LIMIT 1000000000LL

static int bad_number(sc__scn *c, const char *key, int integer, sc__range r) {
  sc__scn_enter(c, key);
  sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" must be %s%s", key, integer ? "an integer" : "a number",
                  range_text(r));
  sc__scn_leave(c);
  return -1;
}

int sc__scn_number(sc__scn *c, json_t *obj, const char *key, int required, sc__range r, double *out) {
  json_t *v = sc__scn_get(c, obj, key, required);
  if (!v) return required ? -1 : 0;
  if (!json_is_number(v) || !in_range(r, json_number_value(v))) return bad_number(c, key, 0, r);
  *out = json_number_value(v);
  return 1;
}

int sc__scn_integer(sc__scn *c, json_t *obj, const char *key, int required, sc__range r, long *out) {
  json_t *v = sc__scn_get(c, obj, key, required);
  if (!v) return required ? -1 : 0;
  if (!json_is_integer(v) || !in_range(r, (double)json_integer_value(v))) return bad_number(c, key, 1, r);
  json_int_t i = json_integer_value(v);
  if (i > SC__INT_LIMIT || i < -SC__INT_LIMIT) {
    sc__scn_enter(c, key);
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" is too large", key);
    sc__scn_leave(c);
    return -1;
  }
  *out = (long)i;
  return 1;
}

int sc__scn_bool(sc__scn *c, json_t *obj, const char *key, int *out) {
  json_t *v = json_object_get(obj, key);
  if (!v) return 0;
  if (!json_is_boolean(v)) {
    sc__scn_enter(c, key);
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" must be true or false", key);
    sc__scn_leave(c);
    return -1;
  }
  *out = json_is_true(v);
  return 1;
}

int sc__scn_string(sc__scn *c, json_t *obj, const char *key, int required, const char **out) {
  json_t *v = sc__scn_get(c, obj, key, required);
  if (!v) return required ? -1 : 0;
  if (!json_is_string(v) || json_string_length(v) == 0) {
    sc__scn_enter(c, key);
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" must be a non-empty string", key);
    sc__scn_leave(c);
    return -1;
  }
  /* names, ids and paths end up in messages, reports and file names */
  if (sc__escape_ctl_len(json_string_value(v)) != json_string_length(v)) {
    sc__scn_enter(c, key);
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" \"%s\" contains a control character", key,
                    json_string_value(v));
    sc__scn_leave(c);
    return -1;
  }
  *out = json_string_value(v);
  return 1;
}

int sc__scn_strdup(sc__scn *c, json_t *obj, const char *key, int required, char **out) {
  const char *s;
  int rc = sc__scn_string(c, obj, key, required, &s);
  if (rc == 1) *out = sc__scn_dup(c, s);
  return rc;
}

int sc__scn_point(sc__scn *c, json_t *v, const char *label, sc_point *out) {
  const sc_scenario *s = c->s;
  if (json_is_string(v) && label) {
    const char *name = json_string_value(v);
    size_t i;
    if (sc__strmap_get(&c->pointmap, name, strlen(name), &i)) {
      *out = s->points[i].p;
      c->last_point = (int)i;
      return 0;
    }
    if (c->no_points) return -1;
    sc__suggest sg;
    sc__suggest_init(&sg, c, name);
    for (i = 0; i < s->npoints; i++) sc__suggest_add(&sg, s->points[i].name);
    char hint[128];
    sc__scn_problem(c, SC__AT_VAL(c), "unknown point \"%s\"%s", name,
                    sc__suggest_text(&sg, hint, sizeof hint));
    return -1;
  }
  if (!json_is_array(v) || json_array_size(v) != 2 || !json_is_number(json_array_get(v, 0)) ||
      !json_is_number(json_array_get(v, 1))) {
    if (label)
      sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" must be a point name or [x, y]", label);
    else
      sc__scn_problem(c, SC__AT_VAL(c), "must be [x, y]");
    return -1;
  }
  c->last_point = -1;
  sc_point p = {json_number_value(json_array_get(v, 0)), json_number_value(json_array_get(v, 1))};
  /* the guest size is 0 when it was itself wrong: nothing to check against */
  if (s->guest_w > 0 && s->guest_h > 0 &&
      (p.x < 0 || p.y < 0 || p.x >= s->guest_w || p.y >= s->guest_h)) {
    sc__scn_problem(c, SC__AT_VAL(c), "%s%s%s[%g, %g] is outside the guest (%dx%d)",
                    label ? "\"" : "", label ? label : "", label ? "\" " : "", p.x, p.y, s->guest_w,
                    s->guest_h);
    return -1;
  }
  *out = p;
  return 0;
}

int sc__scn_region_ref(sc__scn *c, json_t *v, const char *label) {
  if (!json_is_string(v)) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" must name a region", label);
    return -1;
  }
  const char *name = json_string_value(v);
  size_t i;
  if (sc__strmap_get(&c->regmap, name, strlen(name), &i)) return (int)i;
  if (c->no_regions) return -1;
  sc__suggest sg;
  sc__suggest_init(&sg, c, name);
  for (size_t k = 0; k < c->s->nregions; k++) sc__suggest_add(&sg, c->s->regions[k].name);
  char hint[128];
  sc__scn_problem(c, SC__AT_VAL(c), "unknown region \"%s\"%s", name,
                  sc__suggest_text(&sg, hint, sizeof hint));
  return -1;
}
