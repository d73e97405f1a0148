/* One expectation: {"KIND": "region", options...}; the kind is the first key
 * (after any "note"). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/regex.h"
#include "stepcheck/text.h"
#include "scenario/scn.h"

#define TOL "threshold", "max_pixels", "max_ratio"
static const char *const K_CHANGED[] = {"threshold", "min_pixels", NULL};
static const char *const K_UNCHANGED[] = {TOL, NULL};
static const char *const K_EQUALS[] = {TOL, "snapshot", "baseline", NULL};
static const char *const K_STABLE[] = {TOL, NULL};
static const char *const K_COLOR[] = {"rgb", "tol", "min_pixels", "absent", NULL};
static const char *const K_SCALE[] = {"factor", "tol", "profile", NULL};
static const char *const K_TEXT[] = {"equals", "match", "glyphs", NULL};
#undef TOL

static const struct kind {
  const char *name;
  sc_expect_kind kind;
  const char *const *keys;
} KINDS[] = {
    {"changed", SC_EXPECT_CHANGED, K_CHANGED}, {"unchanged", SC_EXPECT_UNCHANGED, K_UNCHANGED},
    {"equals", SC_EXPECT_EQUALS, K_EQUALS},    {"stable", SC_EXPECT_STABLE, K_STABLE},
    {"color", SC_EXPECT_COLOR, K_COLOR},       {"scale", SC_EXPECT_SCALE, K_SCALE},
    {"text", SC_EXPECT_TEXT, K_TEXT},
};
#define NKINDS (sizeof KINDS / sizeof KINDS[0])

static const struct kind *find_kind(const char *name) {
  for (size_t i = 0; i < NKINDS; i++)
    if (strcmp(KINDS[i].name, name) == 0) return &KINDS[i];
  return NULL;
}

static int has(const char *const *keys, const char *k) {
  for (; *keys; keys++)
    if (strcmp(*keys, k) == 0) return 1;
  return 0;
}

/* The first key is not a kind: say what is most likely wrong. */
static void no_kind(sc__scn *c, json_t *v, const char *first) {
  if (!first) {
    sc__scn_problem(c, SC__AT_VAL(c), "an expectation needs a kind as its first key (\"changed\", "
                                      "\"unchanged\", \"equals\", \"stable\", \"color\", \"scale\", \"text\")");
    return;
  }
  sc__suggest sg;
  sc__suggest_init(&sg, c, first);
  for (size_t i = 0; i < NKINDS; i++) sc__suggest_add(&sg, KINDS[i].name);
  const char *k;
  json_t *x;
  json_object_foreach(v, k, x) {
    if (!sg.best && find_kind(k)) {
      sc__scn_enter(c, k);
      sc__scn_problem(c, SC__AT_KEY(c), "the kind \"%s\" must be the expectation's first key", k);
      sc__scn_leave(c);
      return;
    }
  }
  char hint[128];
  sc__scn_enter(c, first);
  sc__scn_problem(c, SC__AT_KEY(c), "unknown expectation kind \"%s\"%s", first,
                  sc__suggest_text(&sg, hint, sizeof hint));
  sc__scn_leave(c);
}

/* Keys after the kind: each must belong to it. */
static void other_keys(sc__scn *c, json_t *v, const struct kind *kd) {
  const char *k;
  json_t *x;
  int first = 1;
  sc__unknown u = {0};
  json_object_foreach(v, k, x) {
    if (first && strcmp(k, "note") != 0) {
      first = 0;
      continue;
    }
    if (has(kd->keys, k) || sc__scn_note(c, k, x)) continue;
    sc__scn_enter(c, k);
    int listed = sc__scn_unknown(c, &u);
    sc__scn_leave(c);
    if (!listed) continue;
    int elsewhere = 0;
    for (size_t i = 0; i < NKINDS; i++) elsewhere |= has(KINDS[i].keys, k);
    sc__suggest sg;
    sc__suggest_init(&sg, c, k);
    for (const char *const *a = kd->keys; *a; a++) sc__suggest_add(&sg, *a);
    if (!find_kind(k) && !elsewhere && sg.best && !json_object_get(v, sg.best))
      sc__scn_fix_add(c, sg.best);
    char hint[128];
    sc__scn_enter(c, k);
    if (find_kind(k))
      sc__scn_problem(c, SC__AT_KEY(c), "two kinds (\"%s\" and \"%s\") in one expectation; write two",
                      kd->name, k);
    else if (elsewhere)
      sc__scn_problem(c, SC__AT_KEY(c), "\"%s\" does not apply to \"%s\"", k, kd->name);
    else
      sc__scn_problem(c, SC__AT_KEY(c), "unknown key \"%s\"%s", k, sc__suggest_text(&sg, hint, sizeof hint));
    sc__scn_leave(c);
  }
  sc__scn_unknown_done(c, &u);
}

static void snapshot(sc__scn *c, const char *snap, int in_cycle, size_t index) {
  sc__scn_enter(c, "snapshot");
  if (!in_cycle) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"snapshot\" is only for cycle steps; use \"baseline\" in setup");
  } else if (strcmp(snap, "start") != 0) {
    size_t k;
    const sc__stepid *id =
        sc__strmap_get(&c->idmap, snap, strlen(snap), &k) ? &c->ids[k] : NULL;
    if (!id) {
      sc__suggest sg;
      sc__suggest_init(&sg, c, snap);
      sc__suggest_add(&sg, "start");
      for (k = 0; k < c->nids; k++)
        if (c->ids[k].in_cycle && c->ids[k].index < index) sc__suggest_add(&sg, c->ids[k].id);
      char hint[128];
      sc__scn_problem(c, SC__AT_VAL(c), "snapshot \"%s\" is not a step id%s", snap,
                      sc__suggest_text(&sg, hint, sizeof hint));
    } else if (!id->in_cycle) {
      sc__scn_problem(c, SC__AT_VAL(c), "snapshot \"%s\" is a setup step; it must be an earlier cycle step or \"start\"", snap);
    } else if (id->index >= index) {
      sc__scn_problem(c, SC__AT_VAL(c), "snapshot \"%s\" is not an earlier step of the cycle (snapshots are taken before each step's gesture)", snap);
    }
  }
  sc__scn_leave(c);
}

static void baseline(sc__scn *c, const char *file, sc_expect *e) {
  e->baseline = file[0] == '/' ? sc__strdup(file) : sc__asprintf("%s%s", c->dir, file);
  if (!e->baseline) {
    c->oom = 1;
    return;
  }
  struct stat st;
  sc__scn_enter(c, "baseline");
  if (access(e->baseline, R_OK) != 0 || stat(e->baseline, &st) != 0)
    sc__scn_problem(c, SC__AT_VAL(c), "baseline \"%s\" cannot be read (%s: %s)", file, e->baseline,
                    strerror(errno));
  else if (!S_ISREG(st.st_mode))
    sc__scn_problem(c, SC__AT_VAL(c), "baseline \"%s\" is not a regular file (%s)", file, e->baseline);
  sc__scn_leave(c);
}

/* Why the glyph-set or scale-bar profile file at path does not load (NULL:
 * it does), loading it once per check whatever the number of references. */
static const char *set_why(sc__scn *c, const char *path) {
  size_t i;
  if (sc__strmap_get(&c->setmap, path, strlen(path), &i)) return c->setwhy[i];
  char **v = sc__realloc(c->setwhy, (c->nset + 1) * sizeof *v);
  if (!v) return c->oom = 1, NULL;
  c->setwhy = v;
  size_t n = strlen(path);
  int rc;
  if (n > 5 && strcmp(path + n - 5, ".json") == 0) { /* a scale-bar profile */
    sc_scale_profile *p = NULL;
    rc = sc_scale_profile_load(&p, path);
    sc_scale_profile_free(p);
  } else {
    sc_glyphset *gs = NULL;
    rc = sc_glyphset_load(&gs, path);
    sc_glyphset_free(gs);
  }
  if (rc == SC_ENOMEM) return c->oom = 1, NULL;
  char *why = NULL;
  if (rc < 0 && !(why = sc__strdup(sc_errmsg()))) return c->oom = 1, NULL;
  if (sc__strmap_put(&c->setmap, path, strlen(path), c->nset, NULL) < 0) {
    sc__free(why);
    return c->oom = 1, NULL;
  }
  c->setwhy[c->nset++] = why;
  return why;
}

/* "glyphs" and "profile": a builtin name (glyph sets: lib/text/glyphset.c;
 * scale-bar profiles: data/scalebars/, asked of the library), or a file
 * named by a path ("x/y.glyphs", and for "profile" also "x/y.json": a
 * scale-bar profile; resolved like a baseline, relative to the scenario
 * file) that must load. */
static void text_set(sc__scn *c, const char *key, char **field) {
  const char *v = *field;
  if (!v) return;
  int profile = strcmp(key, "profile") == 0;
  const char *what = profile ? "scale-bar profile" : "glyph set";
  size_t n = strlen(v);
  sc__scn_enter(c, key);
  if (!(strchr(v, '/') || (n > 7 && !strcmp(v + n - 7, ".glyphs")) ||
        (profile && n > 5 && !strcmp(v + n - 5, ".json")))) {
    int rc;
    if (profile) {
      sc_scale_profile *p = NULL;
      rc = sc_scale_profile_load(&p, v);
      sc_scale_profile_free(p);
    } else {
      sc_glyphset *gs = NULL;
      rc = sc_glyphset_load(&gs, v);
      sc_glyphset_free(gs);
    }
    if (rc == SC_ENOMEM) {
      c->oom = 1;
    } else if (rc) {
      char list[128] = "";
      const char *b;
      for (size_t i = 0; (b = profile ? sc_scale_profile_builtin(i) : sc_glyphset_builtin(i)); i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", b);
      sc__scn_problem(c, SC__AT_VAL(c),
                      "unknown %s \"%s\" (builtin: %s; a file is named by a path with '/' or "
                      "ending in %s)", what, v, list, profile ? ".json or .glyphs" : ".glyphs");
    }
    sc__scn_leave(c);
    return;
  }
  char *path = v[0] == '/' ? sc__strdup(v) : sc__asprintf("%s%s", c->dir, v);
  if (!path) {
    c->oom = 1;
  } else {
    const char *why = set_why(c, path);
    if (why) sc__scn_problem(c, SC__AT_VAL(c), "%s \"%s\" cannot be loaded: %s", what, v, why);
    sc__free(*field); /* v with it */
    *field = path;
  }
  sc__scn_leave(c);
}

static int parse_rgb(const char *s, uint32_t *out) {
  uint32_t v = 0;
  for (int i = 0; i < 6; i++) {
    char ch = s[i];
    int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
          : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + (uint32_t)d;
  }
  if (s[6]) return -1;
  *out = v;
  return 0;
}

static void color(sc__scn *c, json_t *v, sc_expect *e) {
  const char *rgb;
  if (sc__scn_string(c, v, "rgb", 1, &rgb) == 1 && parse_rgb(rgb, &e->rgb) < 0) {
    sc__scn_enter(c, "rgb");
    sc__scn_problem(c, SC__AT_VAL(c), "\"rgb\" must be 6 hex digits like \"ff8000\", not \"%s\"", rgb);
    sc__scn_leave(c);
  }
  long tol;
  if (sc__scn_integer(c, v, "tol", 0, SC__R_BYTE, &tol) == 1) e->color_tol = (int)tol;
  sc__scn_integer(c, v, "min_pixels", 0, SC__R_GE1, &e->min_pixels);
  sc__scn_bool(c, v, "absent", &e->absent);
}

/* An "equals" text the glyph set cannot write could never be read: said at
 * load time, as for text locators. A set that does not load was reported
 * by text_set. ("match" is a pattern: not checked.) */
static void spellable(sc__scn *c, json_t *v, const sc_expect *e) {
  if (!e->text_equals || !*e->text_equals || !e->glyphs) return;
  sc_glyphset *gs = NULL;
  int rc = sc_glyphset_load(&gs, e->glyphs);
  if (rc == SC_ENOMEM) c->oom = 1;
  char missing[SC_GLYPH_NAME_MAX + 2];
  if (rc == 0 && sc_glyphset_spell(gs, e->text_equals, missing) == SC_ENOTFOUND) {
    sc__scn_enter(c, "equals");
    sc__scn_problem(c, SC__AT_VAL(c), "glyph set \"%s\" cannot spell \"%s\": it has no glyph for \"%s\"",
                    json_string_value(json_object_get(v, "glyphs")), e->text_equals, missing);
    sc__scn_leave(c);
  }
  sc_glyphset_free(gs);
}

static void text(sc__scn *c, json_t *v, sc_expect *e) {
  json_t *eq = json_object_get(v, "equals"), *re = json_object_get(v, "match");
  if (!eq == !re) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"text\" needs one of \"equals\" or \"match\"%s",
                    eq ? ", not both" : "");
  } else if (eq) {
    sc__scn_enter(c, "equals");
    if (json_is_string(eq)) /* "" is allowed: the region shows no text */
      e->text_equals = sc__scn_dup(c, json_string_value(eq));
    else
      sc__scn_problem(c, SC__AT_VAL(c), "\"equals\" must be a string");
    sc__scn_leave(c);
  } else if (sc__scn_strdup(c, v, "match", 1, &e->text_match) == 1 && e->text_match) {
    sc__regex *rx;
    char why[200];
    int rc = sc__regex_compile(&rx, e->text_match, why, sizeof why);
    if (rc == SC_ENOMEM) {
      c->oom = 1;
    } else if (rc != 0) {
      sc__scn_enter(c, "match");
      sc__scn_problem(c, SC__AT_VAL(c), "\"match\" is not a valid pattern: %s", why);
      sc__scn_leave(c);
    } else {
      sc__regex_free(rx);
    }
  }
  sc__scn_strdup(c, v, "glyphs", 1, &e->glyphs);
  text_set(c, "glyphs", &e->glyphs);
  spellable(c, v, e);
}

void sc__scn_expect(sc__scn *c, json_t *v, const sc_step *st, int in_cycle, size_t index,
                    sc_expect *e) {
  e->region = -1;
  e->threshold = c->threshold;
  e->max_pixels = c->max_pixels;
  e->min_pixels = 1;
  e->factor_tol = 0.02;
  if (!json_is_object(v)) {
    sc__scn_problem(c, SC__AT_VAL(c), "an expectation must be an object like {\"changed\": \"region\"}");
    return;
  }
  void *it = json_object_iter(v);
  while (it && strcmp(json_object_iter_key(it), "note") == 0) it = json_object_iter_next(v, it);
  const char *first = it ? json_object_iter_key(it) : NULL;
  const struct kind *kd = first ? find_kind(first) : NULL;
  if (!kd) {
    no_kind(c, v, first);
    return;
  }
  e->kind = kd->kind;
  sc__scn_enter(c, first);
  e->region = sc__scn_region_ref(c, json_object_iter_value(it), first);
  if (kd->kind == SC_EXPECT_SCALE &&
      (st->action.kind == SC_ACTION_NONE || st->action.kind == SC_ACTION_MOVE))
    sc__scn_problem(c, SC__AT_KEY(c), "\"scale\" needs a gesture that can zoom (wheel, key or click)");
  sc__scn_leave(c);
  other_keys(c, v, kd);

  if (has(kd->keys, "threshold")) sc__scn_number(c, v, "threshold", 0, SC__R_UNIT, &e->threshold);
  if (has(kd->keys, "max_pixels")) sc__scn_integer(c, v, "max_pixels", 0, SC__R_NONNEG, &e->max_pixels);
  if (has(kd->keys, "max_ratio")) sc__scn_number(c, v, "max_ratio", 0, SC__R_UNIT, &e->max_ratio);
  switch (kd->kind) {
  case SC_EXPECT_CHANGED:
    sc__scn_integer(c, v, "min_pixels", 0, SC__R_GE1, &e->min_pixels);
    break;
  case SC_EXPECT_EQUALS: {
    json_t *sn = json_object_get(v, "snapshot"), *bl = json_object_get(v, "baseline");
    if (!sn == !bl) {
      sc__scn_problem(c, SC__AT_VAL(c), "\"equals\" needs one of \"snapshot\" or \"baseline\"%s",
                      sn ? ", not both" : "");
      break;
    }
    const char *name;
    if (sn && sc__scn_string(c, v, "snapshot", 1, &name) == 1) {
      e->snapshot = sc__scn_dup(c, name);
      snapshot(c, name, in_cycle, index);
    } else if (bl && sc__scn_string(c, v, "baseline", 1, &name) == 1) {
      baseline(c, name, e);
    }
    break;
  }
  case SC_EXPECT_COLOR:
    color(c, v, e);
    break;
  case SC_EXPECT_SCALE:
    sc__scn_number(c, v, "factor", 1, SC__R_POS, &e->factor);
    sc__scn_number(c, v, "tol", 0, SC__R_UNIT, &e->factor_tol);
    sc__scn_strdup(c, v, "profile", 1, &e->profile);
    text_set(c, "profile", &e->profile);
    break;
  case SC_EXPECT_TEXT:
    text(c, v, e);
    break;
  default:
    break;
  }
}
