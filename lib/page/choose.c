/* Which canvas is the guest. A page may hold several: Xpra's HTML5 client
 * draws every X window as a canvas of its own (the application's main
 * window, pop-ups, menus), noVNC one. The guest is the canvas of the
 * application window:
 *   - with a selector, the element it names;
 *   - with a guest size, the one canvas of that size, unscaled (CSS size =
 *     backing size, +-1): two of that size is ambiguous, never a guess;
 *   - without, the largest canvas by area, unscaled, and larger than every
 *     other (a tie is ambiguous).
 * It must then lie wholly in the viewport; when it fits but lies outside
 * (a page larger than the window), the page is scrolled to it. The finder
 * (open.c) reports every canvas; this file decides, so the rules are unit
 * tested on recorded geometries (tests/unit/page/test_choose.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tab.h"

#define SC__SHOW 4

static double num(json_t *o, const char *k) { return json_number_value(json_object_get(o, k)); }

/* "1600x900 at (11,96), 506x67 at (1620,96)" into buf. */
static void list(char *buf, size_t len, json_t *cs) {
  size_t k = 0, n = json_array_size(cs);
  buf[0] = '\0';
  for (size_t i = 0; i < n && i < SC__SHOW && k < len; i++) {
    json_t *c = json_array_get(cs, i);
    k += (size_t)snprintf(buf + k, len - k, "%s%gx%g at (%g,%g)", i ? ", " : "", num(c, "w"),
                          num(c, "h"), num(c, "x"), num(c, "y"));
  }
  if (n > SC__SHOW && k < len) snprintf(buf + k, len - k, ", ...");
}

static int unscaled(json_t *c) {
  double w = num(c, "w"), h = num(c, "h");
  int cw = (int)json_integer_value(json_object_get(c, "cw"));
  int ch = (int)json_integer_value(json_object_get(c, "ch"));
  return cw > 0 && ch > 0 && fabs(w - cw) <= 1 && fabs(h - ch) <= 1;
}

int sc__guest_choose(json_t *g, int want_w, int want_h, int by_selector, sc__guest_pick *out,
                     char *why, size_t whylen) {
  memset(out, 0, sizeof *out);
  if (!json_is_object(g)) {
    snprintf(why, whylen, "no canvas in the page");
    return 0;
  }
  const char *ready = json_string_value(json_object_get(g, "ready"));
  int status = (int)json_integer_value(json_object_get(g, "status"));
  if (status >= 400 && ready && !strcmp(ready, "complete")) {
    snprintf(why, whylen, "the server answered HTTP %d", status);
    return -1;
  }
  json_t *cs = json_object_get(g, "cs");
  size_t n = json_array_size(cs);
  double vw = num(g, "vw"), vh = num(g, "vh");
  char seen[200];
  list(seen, sizeof seen, cs);
  if (n == 0) {
    snprintf(why, whylen, by_selector ? "no canvas matches the selector" : "no canvas in the page");
    return 0;
  }
  /* the candidate, by the rules above */
  json_t *pick = NULL;
  int count = 0;
  if (by_selector) {
    pick = json_array_get(cs, 0);
    count = 1;
  } else if (want_w > 0 && want_h > 0) {
    for (size_t i = 0; i < n; i++) {
      json_t *c = json_array_get(cs, i);
      int cw = (int)json_integer_value(json_object_get(c, "cw"));
      int ch = (int)json_integer_value(json_object_get(c, "ch"));
      if (abs(cw - want_w) <= 1 && abs(ch - want_h) <= 1 && unscaled(c)) {
        if (!pick) pick = c;
        count++;
      }
    }
  } else {
    double best = -1;
    for (size_t i = 0; i < n; i++) {
      json_t *c = json_array_get(cs, i);
      double a = num(c, "w") * num(c, "h");
      if (a > best + 0.5) {
        best = a;
        pick = c;
        count = 1;
      } else if (fabs(a - best) <= 0.5) {
        count++;
      }
    }
  }
  if ((!pick || count == 0) && n == 1) { /* one canvas, the wrong size: as it is */
    json_t *c = json_array_get(cs, 0);
    snprintf(why, whylen, "canvas %gx%g (backing %dx%d) at (%g,%g) in viewport %gx%g, want %dx%d",
             num(c, "w"), num(c, "h"), (int)json_integer_value(json_object_get(c, "cw")),
             (int)json_integer_value(json_object_get(c, "ch")), num(c, "x"), num(c, "y"), vw, vh,
             want_w, want_h);
    return 0;
  }
  if (!pick || count == 0) {
    snprintf(why, whylen, "no canvas of %dx%d, unscaled, among %zu (%s), want %dx%d", want_w,
             want_h, n, seen, want_w, want_h);
    return 0;
  }
  if (count > 1) {
    if (want_w > 0)
      snprintf(why, whylen, "%d canvases of %dx%d (%s): name the guest with a canvas selector",
               count, want_w, want_h, seen);
    else
      snprintf(why, whylen, "%d canvases share the largest size (%s): give the guest size or a "
               "canvas selector", count, seen);
    return 0;
  }
  double x = num(pick, "x"), y = num(pick, "y"), w = num(pick, "w"), h = num(pick, "h");
  int cw = (int)json_integer_value(json_object_get(pick, "cw"));
  int ch = (int)json_integer_value(json_object_get(pick, "ch"));
  int gw = want_w > 0 ? want_w : cw, gh = want_h > 0 ? want_h : ch;
  snprintf(why, whylen, "canvas %gx%g (backing %dx%d) at (%g,%g) in viewport %gx%g, want %dx%d",
           w, h, cw, ch, x, y, vw, vh, gw, gh);
  if (!ready || strcmp(ready, "complete") != 0) return 0;
  if (fabs(w - gw) > 1 || fabs(h - gh) > 1 || abs(cw - gw) > 1 || abs(ch - gh) > 1 || cw <= 0)
    return 0;
  out->x = x;
  out->y = y;
  out->cw = cw;
  out->ch = ch;
  if (x >= 0 && y >= 0 && x + w <= vw + 0.01 && y + h <= vh + 0.01) return 1;
  if (w > vw + 0.01 || h > vh + 0.01) {
    snprintf(why, whylen, "canvas %gx%g at (%g,%g) does not fit the viewport %gx%g: open the "
             "page with a larger viewport", w, h, x, y, vw, vh);
    return 0;
  }
  /* Scroll the page by the least that brings the canvas wholly in view. */
  double dx = x < 0 ? x : x + w > vw ? x + w - vw : 0;
  double dy = y < 0 ? y : y + h > vh ? y + h - vh : 0;
  out->scroll_x = num(g, "sx") + (dx < 0 ? floor(dx) : ceil(dx));
  out->scroll_y = num(g, "sy") + (dy < 0 ? floor(dy) : ceil(dy));
  snprintf(why, whylen, "canvas %gx%g at (%g,%g) lies outside the viewport %gx%g: scrolling the "
           "page to (%g,%g)", w, h, x, y, vw, vh, out->scroll_x, out->scroll_y);
  return 2;
}
