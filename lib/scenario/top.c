/* Top level of a scenario: app, sizes, input profile, defaults, points,
 * regions, park, drift. Steps are in steps.c. */
#include <stdio.h>
#include <string.h>

#include "scenario/scn.h"

static const char *const TOP_KEYS[] = {"app",    "url",     "viewport", "guest", "input",
                                       "defaults", "points", "regions", "park",  "setup",
                                       "cycle",  "drift",   "drift_regions", "drift_threshold", "relocate",
                                       "drift_max_pixels", "ready_quiet_ms", "rest",
                                       "rest_quiet_ms", "rest_capture_ms", "response_ms", "self_check_first",
                                       "self_check_every", "canvas", NULL};

/* obj[key] when it is an object; absent or wrong type (reported) gives NULL. */
static json_t *object_member(sc__scn *c, json_t *obj, const char *key, int required,
                             const char *shape) {
  json_t *v = sc__scn_get(c, obj, key, required);
  if (v && !json_is_object(v)) {
    sc__scn_enter(c, key);
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" must be %s", key, shape);
    sc__scn_leave(c);
    return NULL;
  }
  return v;
}

static void size_member(sc__scn *c, json_t *root, const char *key, int required, int *w, int *h) {
  static const char *const keys[] = {"width", "height", NULL};
  json_t *o = object_member(c, root, key, required, "{\"width\": W, \"height\": H}");
  if (!o) return;
  sc__scn_enter(c, key);
  snprintf(c->pre, sizeof c->pre, "%s: ", key);
  sc__scn_keys(c, o, keys);
  long lw = 0, lh = 0;
  int ok = sc__scn_integer(c, o, "width", 1, SC__R_POS, &lw) == 1;
  ok &= sc__scn_integer(c, o, "height", 1, SC__R_POS, &lh) == 1;
  if (ok) { /* 0 x 0 otherwise: nothing is checked against a wrong size */
    *w = (int)lw;
    *h = (int)lh;
  }
  c->pre[0] = '\0';
  sc__scn_leave(c);
}

static void input(sc__scn *c, json_t *root) {
  static const char *const keys[] = {"wheel_delta", "notch_spacing_ms", "double_click_ms", NULL};
  sc_scenario *s = c->s;
  json_t *o = object_member(c, root, "input", 0, "an object");
  if (!o) return;
  sc__scn_enter(c, "input");
  strcpy(c->pre, "input: ");
  sc__scn_keys(c, o, keys);
  sc__scn_number(c, o, "wheel_delta", 0, SC__R_DELTA, &s->wheel_delta);
  sc__scn_number(c, o, "notch_spacing_ms", 0, SC__R_MS, &s->notch_spacing_ms);
  sc__scn_number(c, o, "double_click_ms", 0, SC__R_MS, &s->double_click_ms);
  c->pre[0] = '\0';
  sc__scn_leave(c);
}

static void defaults(sc__scn *c, json_t *root) {
  static const char *const keys[] = {"timeout_ms", "settle_ms", "threshold", "max_pixels", NULL};
  sc_scenario *s = c->s;
  json_t *o = object_member(c, root, "defaults", 0, "an object");
  if (!o) return;
  sc__scn_enter(c, "defaults");
  strcpy(c->pre, "defaults: ");
  sc__scn_keys(c, o, keys);
  sc__scn_number(c, o, "timeout_ms", 0, SC__R_MS_POS, &s->default_timeout_ms);
  sc__scn_number(c, o, "settle_ms", 0, SC__R_MS, &s->default_settle_ms);
  sc__scn_number(c, o, "threshold", 0, SC__R_UNIT, &c->threshold);
  sc__scn_integer(c, o, "max_pixels", 0, SC__R_NONNEG, &c->max_pixels);
  c->pre[0] = '\0';
  sc__scn_leave(c);
}

static void points(sc__scn *c, json_t *root) {
  sc_scenario *s = c->s;
  json_t *o = object_member(c, root, "points", 0, "an object of name: [x, y]");
  c->no_points = json_object_get(root, "points") ? !o : sc__scn_fixed(c, "points");
  if (!o || json_object_size(o) == 0) return;
  s->points = sc__calloc(json_object_size(o), sizeof *s->points);
  if (!s->points || sc__strmap_init(&c->pointmap, json_object_size(o)) != 0) {
    c->oom = 1;
    return;
  }
  sc__scn_enter(c, "points");
  const char *name;
  json_t *v;
  json_object_foreach(o, name, v) {
    if (strcmp(name, "note") == 0) { /* a comment, not a point */
      c->pre[0] = '\0';
      sc__scn_note(c, name, v);
      continue;
    }
    sc_named_point *np = &s->points[s->npoints++];
    /* kept even when wrong, so that references to it do not cascade */
    np->name = sc__scn_dup(c, name);
    if (np->name) sc__strmap_put(&c->pointmap, np->name, strlen(np->name), s->npoints - 1, NULL);
    sc__scn_enter(c, name);
    snprintf(c->pre, sizeof c->pre, "points \"%s\": ", name);
    if (!*name) sc__scn_problem(c, SC__AT_KEY(c), "a point needs a non-empty name");
    else if (sc__escape_ctl_len(name) != strlen(name))
      sc__scn_problem(c, SC__AT_KEY(c), "a point name must not contain control characters");
    if (!sc__scn_locator_note(c, name, 0, (int)(s->npoints - 1), v))
      sc__scn_point(c, v, NULL, &np->p);
    sc__scn_leave(c);
  }
  c->pre[0] = '\0';
  sc__scn_leave(c);
}

static int region_rect(sc__scn *c, json_t *v, sc_rect *r, long *inset) {
  static const char *const keys[] = {"x", "y", "w", "h", "inset", NULL};
  long x = 0, y = 0, w = 0, h = 0;
  if (json_is_object(v)) {
    sc__scn_keys(c, v, keys);
    int ok = sc__scn_integer(c, v, "x", 1, SC__R_NONNEG, &x) == 1;
    ok &= sc__scn_integer(c, v, "y", 1, SC__R_NONNEG, &y) == 1;
    ok &= sc__scn_integer(c, v, "w", 1, SC__R_POS, &w) == 1;
    ok &= sc__scn_integer(c, v, "h", 1, SC__R_POS, &h) == 1;
    ok &= sc__scn_integer(c, v, "inset", 0, SC__R_NONNEG, inset) >= 0;
    if (!ok) return -1;
  } else if (json_is_array(v)) {
    long a[4] = {0, 0, 0, 0};
    int ok = json_array_size(v) == 4;
    for (size_t i = 0; ok && i < 4; i++) {
      json_t *e = json_array_get(v, i);
      ok = json_is_integer(e) && json_integer_value(e) >= (i < 2 ? 0 : 1) &&
           json_integer_value(e) <= 1000000000;
      if (ok) a[i] = (long)json_integer_value(e);
    }
    if (!ok) {
      sc__scn_problem(c, SC__AT_VAL(c), "[x, y, w, h] must be 4 integers, x, y >= 0 and w, h > 0");
      return -1;
    }
    x = a[0], y = a[1], w = a[2], h = a[3];
  } else {
    sc__scn_problem(c, SC__AT_VAL(c), "must be {\"x\", \"y\", \"w\", \"h\"} or [x, y, w, h]");
    return -1;
  }
  const sc_scenario *s = c->s;
  if (s->guest_w > 0 && s->guest_h > 0 && (x + w > s->guest_w || y + h > s->guest_h)) {
    sc__scn_problem(c, SC__AT_VAL(c), "[%ld, %ld, %ld, %ld] is outside the guest (%dx%d)", x, y, w,
                    h, s->guest_w, s->guest_h);
    return -1;
  }
  *r = (sc_rect){(int)x, (int)y, (int)w, (int)h};
  return 0;
}

static void regions(sc__scn *c, json_t *root) {
  sc_scenario *s = c->s;
  json_t *o = object_member(c, root, "regions", 1, "an object of name: region");
  c->no_regions = !o;
  if (!o || json_object_size(o) == 0) return;
  s->regions = sc__calloc(json_object_size(o), sizeof *s->regions);
  if (!s->regions || sc__strmap_init(&c->regmap, json_object_size(o)) != 0) {
    c->oom = 1;
    return;
  }
  sc__scn_enter(c, "regions");
  const char *name;
  json_t *v;
  json_object_foreach(o, name, v) {
    if (strcmp(name, "note") == 0) { /* a comment, not a region */
      c->pre[0] = '\0';
      sc__scn_note(c, name, v);
      continue;
    }
    sc_region *rg = &s->regions[s->nregions++];
    rg->name = sc__scn_dup(c, name);
    if (rg->name) sc__strmap_put(&c->regmap, rg->name, strlen(rg->name), s->nregions - 1, NULL);
    sc__scn_enter(c, name);
    snprintf(c->pre, sizeof c->pre, "regions \"%s\": ", name);
    if (!*name) sc__scn_problem(c, SC__AT_KEY(c), "a region needs a non-empty name");
    else if (sc__escape_ctl_len(name) != strlen(name))
      sc__scn_problem(c, SC__AT_KEY(c), "a region name must not contain control characters");
    long inset = 0;
    sc_rect r;
    if (sc__scn_locator_note(c, name, 1, (int)(s->nregions - 1), v)) {
      /* found at run time (locators.c) */
    } else if (region_rect(c, v, &r, &inset) == 0) {
      if (r.w - 2 * inset <= 0 || r.h - 2 * inset <= 0) {
        sc__scn_enter(c, "inset");
        sc__scn_problem(c, SC__AT_VAL(c), "\"inset\" %ld leaves nothing of %dx%d", inset, r.w, r.h);
        sc__scn_leave(c);
      } else {
        rg->r = (sc_rect){r.x + (int)inset, r.y + (int)inset, r.w - 2 * (int)inset,
                          r.h - 2 * (int)inset};
      }
    }
    sc__scn_leave(c);
  }
  c->pre[0] = '\0';
  sc__scn_leave(c);
}

/* How rest is proven: the paint log (default) or screenshot pairs. */
static void rest(sc__scn *c, json_t *root) {
  sc_scenario *s = c->s;
  json_t *v = json_object_get(root, "rest");
  if (v) {
    const char *m = json_is_string(v) ? json_string_value(v) : "";
    if (strcmp(m, "pairs") == 0) s->rest_pairs = 1;
    else if (strcmp(m, "paint-log") != 0) {
      sc__scn_enter(c, "rest");
      sc__scn_problem(c, SC__AT_VAL(c), "\"rest\" must be \"paint-log\" or \"pairs\"");
      sc__scn_leave(c);
    }
  }
  sc__scn_number(c, root, "rest_quiet_ms", 0, SC__R_MS_POS, &s->rest_quiet_ms);
  sc__scn_number(c, root, "response_ms", 0, SC__R_MS, &s->response_ms);
  if (sc__scn_number(c, root, "rest_capture_ms", 0, SC__R_MS_POS, &s->rest_capture_ms) > 0 &&
      s->rest_capture_ms > s->rest_quiet_ms) {
    sc__scn_enter(c, "rest_capture_ms");
    sc__scn_problem(c, SC__AT_VAL(c), "\"rest_capture_ms\" (%g) must not exceed \"rest_quiet_ms\" (%g)",
                    s->rest_capture_ms, s->rest_quiet_ms);
    sc__scn_leave(c);
  }
  sc__scn_integer(c, root, "self_check_first", 0, SC__R_NONNEG, &s->self_check_first);
  sc__scn_integer(c, root, "self_check_every", 0, SC__R_NONNEG, &s->self_check_every);
}

/* Which canvas is the guest: a CSS selector (a non-empty string), else the
 * largest visible one. */
static void canvas(sc__scn *c, json_t *root) {
  sc__scn_strdup(c, root, "canvas", 0, &c->s->canvas);
}

static void drift(sc__scn *c, json_t *root) {
  sc_scenario *s = c->s;
  json_t *v = json_object_get(root, "drift");
  if (v) {
    const char *m = json_is_string(v) ? json_string_value(v) : "";
    if (strcmp(m, "off") == 0) s->drift = SC_DRIFT_OFF;
    else if (strcmp(m, "warn") == 0) s->drift = SC_DRIFT_WARN;
    else if (strcmp(m, "fail") == 0) s->drift = SC_DRIFT_FAIL;
    else {
      sc__scn_enter(c, "drift");
      sc__scn_problem(c, SC__AT_VAL(c), "\"drift\" must be \"off\", \"warn\" or \"fail\"");
      sc__scn_leave(c);
    }
  }
  /* Drift compares like an "equals": the scenario's default tolerance
   * unless drift has its own (lossy VNC encodings need one). */
  s->drift_threshold = c->threshold;
  s->drift_max_pixels = c->max_pixels;
  sc__scn_number(c, root, "drift_threshold", 0, SC__R_UNIT, &s->drift_threshold);
  sc__scn_integer(c, root, "drift_max_pixels", 0, SC__R_NONNEG, &s->drift_max_pixels);
  v = json_object_get(root, "drift_regions");
  if (!v) return;
  sc__scn_enter(c, "drift_regions");
  if (!json_is_array(v) || json_array_size(v) == 0) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"drift_regions\" must be a non-empty array of region names");
  } else if (!(s->drift_regions = sc__calloc(json_array_size(v), sizeof *s->drift_regions))) {
    c->oom = 1;
  } else {
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) {
      sc__scn_enter_index(c, i);
      s->drift_regions[s->ndrift++] = sc__scn_region_ref(c, e, "drift_regions");
      sc__scn_leave(c);
    }
  }
  sc__scn_leave(c);
}

void sc__scn_top(sc__scn *c, json_t *root) {
  sc_scenario *s = c->s;
  sc__scn_keys(c, root, TOP_KEYS);
  sc__scn_strdup(c, root, "app", 1, &s->app);
  /* optional: a run may give the URL instead (the CLI's --url), and one
   * that opens a page without either fails before a browser starts */
  if (sc__scn_strdup(c, root, "url", 0, &s->url) == 1 && s->url &&
      sc_url_check(s->url, SC_URL_DEFAULT) < 0) {
    sc__scn_enter(c, "url");
    sc__scn_problem(c, SC__AT_VAL(c), "\"url\" is not an http or https URL: %s", sc_errmsg());
    sc__scn_leave(c);
  }
  size_member(c, root, "viewport", 1, &s->viewport_w, &s->viewport_h);
  /* without "guest", the canvas is taken at the size it has (locators.c,
   * lib/run/locate.c check what lands outside it) */
  size_member(c, root, "guest", 0, &s->guest_w, &s->guest_h);
  input(c, root);
  defaults(c, root);
  points(c, root);
  regions(c, root);
  json_t *park = json_object_get(root, "park");
  if (park) {
    sc__scn_enter(c, "park");
    if (sc__scn_point(c, park, "park", &s->park) == 0) {
      s->has_park = 1;
      sc__scn_bind(c, 2);
    }
    sc__scn_leave(c);
  }
  drift(c, root);
  sc__scn_number(c, root, "ready_quiet_ms", 0, SC__R_MS, &s->ready_quiet_ms);
  rest(c, root);
  canvas(c, root);
}
