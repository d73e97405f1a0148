/* Scenarios built in C (stepcheck/builder.h): the calls fill a JSON
 * document of the scenario format, and sc_builder_finish hands its text to
 * the loader, so a built scenario passes exactly the checks a file does
 * and every string is escaped by jansson. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "core/json.h"
#include "stepcheck/builder.h"

struct sc_builder {
  json_t *doc;   /* the scenario */
  json_t *step;  /* the step begun last (borrowed from doc), NULL none */
  int err;       /* sticky: the first error */
  char msg[512]; /* and its message */
};

/* The first failure sticks; later calls repeat it. */
static int fail(sc_builder *b, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(sc_builder *b, int err, const char *fmt, ...) {
  if (!b->err) {
    va_list ap;
    va_start(ap, fmt);
    b->err = err;
    vsnprintf(b->msg, sizeof b->msg, fmt, ap);
    va_end(ap);
  }
  return sc__err(b->err, "%s", b->msg);
}

static int oom(sc_builder *b) { return fail(b, SC_ENOMEM, "builder: out of memory"); }

/* Common entry check: NULL builder, sticky error. */
#define ENTER(b, fn)                                                        \
  do {                                                                      \
    if (!(b)) return sc__err(SC_EINVAL, "%s: builder is NULL", fn);         \
    if ((b)->err) return sc__err((b)->err, "%s", (b)->msg);                 \
  } while (0)

static int need_str(sc_builder *b, const char *s, const char *what) {
  if (!s || !*s) return fail(b, SC_EINVAL, "builder: %s is NULL or empty", what);
  return 0;
}

static int need_step(sc_builder *b, const char *fn) {
  if (!b->step) return fail(b, SC_EINVAL, "%s: no step begun (sc_builder_step first)", fn);
  return 0;
}

/* Set key of obj to v (stolen); out of memory sticks. */
static int put(sc_builder *b, json_t *obj, const char *key, json_t *v) {
  if (!v || json_object_set_new(obj, key, v)) return oom(b);
  return 0;
}

static json_t *point(sc_point p) { return json_pack("[f, f]", p.x, p.y); }

SC_EXTERN int sc_builder_new(sc_builder **out, const char *app, const char *url, int guest_w,
                             int guest_h) {
  if (!out) return sc__err(SC_EINVAL, "sc_builder_new: out is NULL");
  *out = NULL;
  if (!app || !*app || !url || !*url)
    return sc__err(SC_EINVAL, "sc_builder_new: app and url are required");
  if (guest_w <= 0 || guest_h <= 0)
    return sc__err(SC_EINVAL, "sc_builder_new: guest %dx%d", guest_w, guest_h);
  sc_builder *b = sc__calloc(1, sizeof *b);
  if (!b) return sc__err(SC_ENOMEM, "sc_builder_new: out of memory");
  b->doc = json_pack("{s:s, s:s, s:{s:i, s:i}, s:{s:i, s:i}, s:{}, s:{}, s:[], s:[]}", "app",
                     app, "url", url, "viewport", "width", guest_w, "height", guest_h + 40,
                     "guest", "width", guest_w, "height", guest_h, "points", "regions",
                     "setup", "cycle");
  if (!b->doc) {
    sc__free(b);
    return sc__err(SC_ENOMEM, "sc_builder_new: out of memory");
  }
  *out = b;
  return 0;
}

SC_EXTERN int sc_builder_viewport(sc_builder *b, int width, int height) {
  ENTER(b, "sc_builder_viewport");
  return put(b, b->doc, "viewport", json_pack("{s:i, s:i}", "width", width, "height", height));
}

SC_EXTERN int sc_builder_region(sc_builder *b, const char *name, sc_rect r) {
  ENTER(b, "sc_builder_region");
  if (need_str(b, name, "region name")) return b->err;
  return put(b, json_object_get(b->doc, "regions"), name,
             json_pack("[i, i, i, i]", r.x, r.y, r.w, r.h));
}

SC_EXTERN int sc_builder_point(sc_builder *b, const char *name, sc_point p) {
  ENTER(b, "sc_builder_point");
  if (need_str(b, name, "point name")) return b->err;
  return put(b, json_object_get(b->doc, "points"), name, point(p));
}

SC_EXTERN int sc_builder_park(sc_builder *b, sc_point p) {
  ENTER(b, "sc_builder_park");
  return put(b, b->doc, "park", point(p));
}

SC_EXTERN int sc_builder_input(sc_builder *b, double wheel_delta, double notch_spacing_ms) {
  ENTER(b, "sc_builder_input");
  return put(b, b->doc, "input",
             json_pack("{s:f, s:f}", "wheel_delta", wheel_delta, "notch_spacing_ms",
                       notch_spacing_ms));
}

SC_EXTERN int sc_builder_drift(sc_builder *b, sc_drift_mode mode) {
  ENTER(b, "sc_builder_drift");
  static const char *const names[] = {"off", "warn", "fail"};
  if ((int)mode < 0 || (int)mode > 2)
    return fail(b, SC_EINVAL, "sc_builder_drift: unknown mode %d", (int)mode);
  return put(b, b->doc, "drift", json_string(names[mode]));
}

static int begin(sc_builder *b, const char *id, const char *list) {
  if (need_str(b, id, "step id")) return b->err;
  json_t *st = json_pack("{s:s, s:[]}", "id", id, "expect");
  if (!st || json_array_append_new(json_object_get(b->doc, list), st)) return oom(b);
  b->step = st;
  return 0;
}

SC_EXTERN int sc_builder_step(sc_builder *b, const char *id) {
  ENTER(b, "sc_builder_step");
  return begin(b, id, "cycle");
}

SC_EXTERN int sc_builder_setup_step(sc_builder *b, const char *id) {
  ENTER(b, "sc_builder_setup_step");
  return begin(b, id, "setup");
}

SC_EXTERN int sc_builder_timing(sc_builder *b, double timeout_ms, double settle_ms) {
  ENTER(b, "sc_builder_timing");
  if (need_step(b, "sc_builder_timing")) return b->err;
  if (put(b, b->step, "timeout_ms", json_real(timeout_ms))) return b->err;
  return put(b, b->step, "settle_ms", json_real(settle_ms));
}

static int has_gesture(json_t *st) {
  static const char *const kinds[] = {"click", "move", "wheel", "key", "none"};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (json_object_get(st, kinds[i])) return 1;
  return 0;
}

/* One gesture per step: a second is an error here, not a silent replace. */
static int gesture(sc_builder *b, const char *fn, const char *kind, json_t *v) {
  if (need_step(b, fn)) {
    json_decref(v);
    return b->err;
  }
  if (has_gesture(b->step)) {
    json_decref(v);
    return fail(b, SC_EINVAL, "%s: the step already has a gesture", fn);
  }
  return put(b, b->step, kind, v);
}

SC_EXTERN int sc_builder_click(sc_builder *b, sc_point at) {
  ENTER(b, "sc_builder_click");
  return gesture(b, "sc_builder_click", "click", point(at));
}

SC_EXTERN int sc_builder_move(sc_builder *b, sc_point at) {
  ENTER(b, "sc_builder_move");
  return gesture(b, "sc_builder_move", "move", point(at));
}

SC_EXTERN int sc_builder_wheel(sc_builder *b, sc_point at, int notches) {
  ENTER(b, "sc_builder_wheel");
  return gesture(b, "sc_builder_wheel", "wheel",
                 json_pack("{s:o, s:i}", "at", point(at), "notches", notches));
}

SC_EXTERN int sc_builder_key(sc_builder *b, const char *key, int repeat) {
  ENTER(b, "sc_builder_key");
  if (need_str(b, key, "key")) return b->err;
  return gesture(b, "sc_builder_key", "key",
                 json_pack("{s:s, s:i}", "key", key, "repeat", repeat));
}

/* Append expectation e (stolen) to the current step. */
static int expect(sc_builder *b, const char *fn, const char *region, json_t *e) {
  if (need_step(b, fn) || need_str(b, region, "region")) {
    json_decref(e);
    return b->err;
  }
  if (!e || json_array_append_new(json_object_get(b->step, "expect"), e)) return oom(b);
  return 0;
}

SC_EXTERN int sc_builder_expect_changed(sc_builder *b, const char *region, long min_pixels) {
  ENTER(b, "sc_builder_expect_changed");
  return expect(b, "sc_builder_expect_changed", region,
                json_pack("{s:s, s:I}", "changed", region, "min_pixels", (json_int_t)min_pixels));
}

SC_EXTERN int sc_builder_expect_unchanged(sc_builder *b, const char *region, long max_pixels) {
  ENTER(b, "sc_builder_expect_unchanged");
  return expect(b, "sc_builder_expect_unchanged", region,
                json_pack("{s:s, s:I}", "unchanged", region, "max_pixels",
                          (json_int_t)max_pixels));
}

SC_EXTERN int sc_builder_expect_equals(sc_builder *b, const char *region,
                                       const char *snapshot_step) {
  ENTER(b, "sc_builder_expect_equals");
  if (need_str(b, snapshot_step, "snapshot step")) return b->err;
  return expect(b, "sc_builder_expect_equals", region,
                json_pack("{s:s, s:s}", "equals", region, "snapshot", snapshot_step));
}

SC_EXTERN int sc_builder_expect_stable(sc_builder *b, const char *region) {
  ENTER(b, "sc_builder_expect_stable");
  return expect(b, "sc_builder_expect_stable", region, json_pack("{s:s}", "stable", region));
}

SC_EXTERN int sc_builder_expect_color(sc_builder *b, const char *region, uint32_t rgb, int tol,
                                      int absent) {
  ENTER(b, "sc_builder_expect_color");
  char hex[8];
  snprintf(hex, sizeof hex, "%06x", (unsigned)(rgb & 0xffffffu));
  if (rgb > 0xffffffu) return fail(b, SC_EINVAL, "sc_builder_expect_color: rgb 0x%x over 0xffffff", (unsigned)rgb);
  return expect(b, "sc_builder_expect_color", region,
                json_pack("{s:s, s:s, s:i, s:b}", "color", region, "rgb", hex, "tol", tol,
                          "absent", absent != 0));
}

SC_EXTERN int sc_builder_expect_scale(sc_builder *b, const char *region, double factor,
                                      const char *profile) {
  ENTER(b, "sc_builder_expect_scale");
  if (need_str(b, profile, "profile")) return b->err;
  return expect(b, "sc_builder_expect_scale", region,
                json_pack("{s:s, s:f, s:s}", "scale", region, "factor", factor, "profile",
                          profile));
}

SC_EXTERN int sc_builder_expect_text(sc_builder *b, const char *region, const char *equals,
                                     const char *match, const char *glyphs) {
  ENTER(b, "sc_builder_expect_text");
  if (need_str(b, glyphs, "glyphs")) return b->err;
  return expect(b, "sc_builder_expect_text", region,
                json_pack("{s:s, s:s*, s:s*, s:s}", "text", region, "equals", equals, "match",
                          match, "glyphs", glyphs));
}

/* A step given no gesture only judges: "none": true, as the format has it. */
static int no_gesture_is_none(sc_builder *b) {
  static const char *const lists[] = {"setup", "cycle"};
  for (size_t l = 0; l < 2; l++) {
    size_t i;
    json_t *st;
    json_array_foreach(json_object_get(b->doc, lists[l]), i, st) {
      if (!has_gesture(st) && put(b, st, "none", json_true())) return b->err;
    }
  }
  return 0;
}

SC_EXTERN int sc_builder_finish(sc_scenario **out, sc_builder *b) {
  if (!out) {
    sc_builder_free(b);
    return sc__err(SC_EINVAL, "sc_builder_finish: out is NULL");
  }
  *out = NULL;
  if (!b) return sc__err(SC_EINVAL, "sc_builder_finish: builder is NULL");
  int rc = b->err ? b->err : no_gesture_is_none(b);
  if (rc) {
    rc = sc__err(rc, "%s", b->msg);
  } else {
    /* Indented: the loader's line:col then points into readable text. */
    char *text = sc__json_dump(b->doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    rc = text ? sc_scenario_parse(out, text, "(built scenario)")
              : sc__err(SC_ENOMEM, "sc_builder_finish: out of memory");
    sc__free(text);
  }
  sc_builder_free(b);
  return rc;
}

SC_EXTERN void sc_builder_free(sc_builder *b) {
  if (!b) return;
  json_decref(b->doc);
  sc__free(b);
}
