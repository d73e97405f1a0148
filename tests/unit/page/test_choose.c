/* Which canvas is the guest (lib/page/choose.c), on page geometries as the
 * canvas finder reports them: noVNC's one canvas, Xpra's window canvases
 * (JOSM 1600x900 at (11,96) as measured on Xpra 3.1.3, beside a 506x67 pop-up
 * in a 1920x1120 viewport), a page larger than the viewport, a window that
 * moved, and the ambiguous cases that must never be guessed. */
#include "testutil.h"

#include <string.h>

#include "core/core.h"
#include "page/tab.h"

static int choose(const char *json, int ww, int wh, int sel, sc__guest_pick *p, char *why) {
  json_error_t e;
  json_t *g = json_loads(json, 0, &e);
  if (!g) fail_msg("bad json: %s", e.text);
  int rc = sc__guest_choose(g, ww, wh, sel, p, why, 256);
  json_decref(g);
  return rc;
}

#define PAGE(cs, vw, vh) \
  "{\"cs\": [" cs "], \"vw\": " #vw ", \"vh\": " #vh ", \"sx\": 0, \"sy\": 0, " \
  "\"ready\": \"complete\", \"status\": 200}"
#define NOVNC "{\"x\": 0, \"y\": 32.5, \"w\": 1600, \"h\": 900, \"cw\": 1600, \"ch\": 900}"
#define JOSM_XPRA "{\"x\": 11, \"y\": 96, \"w\": 1600, \"h\": 900, \"cw\": 1600, \"ch\": 900}"
#define POPUP "{\"x\": 1300, \"y\": 600, \"w\": 506, \"h\": 67, \"cw\": 506, \"ch\": 67}"

static void one_canvas(void **st) {
  (void)st;
  sc__guest_pick p;
  char why[256];
  assert_int_equal(choose(PAGE(NOVNC, 1600, 940), 1600, 900, 0, &p, why), 1);
  assert_true(p.x == 0 && p.y == 32.5 && p.cw == 1600 && p.ch == 900);
  /* without a guest size: the canvas at its size */
  assert_int_equal(choose(PAGE(NOVNC, 1600, 940), 0, 0, 0, &p, why), 1);
  assert_int_equal(p.cw, 1600);
}

/* Xpra: the pop-up first in the document, the window second. */
static void several_canvases_by_size_and_by_area(void **st) {
  (void)st;
  sc__guest_pick p;
  char why[256];
  assert_int_equal(choose(PAGE(POPUP "," JOSM_XPRA, 1920, 1120), 1600, 900, 0, &p, why), 1);
  assert_true(p.x == 11 && p.y == 96);
  assert_int_equal(choose(PAGE(POPUP "," JOSM_XPRA, 1920, 1120), 0, 0, 0, &p, why), 1);
  assert_true(p.x == 11 && p.y == 96 && p.cw == 1600);
  /* the pop-up by its size, when that is what the caller wants */
  assert_int_equal(choose(PAGE(POPUP "," JOSM_XPRA, 1920, 1120), 506, 67, 0, &p, why), 1);
  assert_true(p.x == 1300);
}

/* A 1600 px viewport: the window (11 px in, under the client's title bar)
 * fits but overflows to the right and below: scroll by the least. */
static void overflowing_the_viewport_scrolls(void **st) {
  (void)st;
  sc__guest_pick p;
  char why[256];
  assert_int_equal(choose(PAGE(JOSM_XPRA, 1600, 940), 1600, 900, 0, &p, why), 2);
  assert_true(p.scroll_x == 11 && p.scroll_y == 56);
  assert_non_null(strstr(why, "scrolling the page to (11,56)"));
  /* after the scroll the finder sees it at (0, 40): chosen */
  const char *after = "{\"cs\": [{\"x\": 0, \"y\": 40, \"w\": 1600, \"h\": 900, \"cw\": 1600, "
                      "\"ch\": 900}], \"vw\": 1600, \"vh\": 940, \"sx\": 11, \"sy\": 56, "
                      "\"ready\": \"complete\", \"status\": 200}";
  assert_int_equal(choose(after, 1600, 900, 0, &p, why), 1);
  assert_true(p.x == 0 && p.y == 40);
  /* scrolled too far (left/up): back by the least */
  const char *past = "{\"cs\": [{\"x\": -30.5, \"y\": 10, \"w\": 1600, \"h\": 900, \"cw\": 1600, "
                     "\"ch\": 900}], \"vw\": 1700, \"vh\": 940, \"sx\": 100, \"sy\": 0, "
                     "\"ready\": \"complete\", \"status\": 200}";
  assert_int_equal(choose(past, 1600, 900, 0, &p, why), 2);
  assert_true(p.scroll_x == 100 - 31 && p.scroll_y == 0);
  /* larger than the viewport: no scroll helps */
  assert_int_equal(choose(PAGE(JOSM_XPRA, 1280, 940), 1600, 900, 0, &p, why), 0);
  assert_non_null(strstr(why, "does not fit the viewport 1280x940"));
}

/* The guest check asks again with the size it opened with: a window the
 * client moved is found where it is now, so the caller sees the move. */
static void moved_window_is_found_where_it_is(void **st) {
  (void)st;
  sc__guest_pick p;
  char why[256];
  const char *moved = PAGE(POPUP ",{\"x\": 211, \"y\": 146, \"w\": 1600, \"h\": 900, \"cw\": 1600, "
                                 "\"ch\": 900}", 1920, 1120);
  assert_int_equal(choose(moved, 1600, 900, 0, &p, why), 1);
  assert_true(p.x == 211 && p.y == 146);
}

static void never_a_guess(void **st) {
  (void)st;
  sc__guest_pick p;
  char why[256];
  /* two windows of the guest's size */
  assert_int_equal(choose(PAGE(JOSM_XPRA "," NOVNC, 1920, 1120), 1600, 900, 0, &p, why), 0);
  assert_non_null(strstr(why, "2 canvases of 1600x900"));
  /* two of the largest size, no guest size given */
  assert_int_equal(choose(PAGE(JOSM_XPRA "," NOVNC, 1920, 1120), 0, 0, 0, &p, why), 0);
  assert_non_null(strstr(why, "2 canvases share the largest size"));
  /* none of the wanted size: say what there is */
  assert_int_equal(choose(PAGE(POPUP "," JOSM_XPRA, 1920, 1120), 1280, 800, 0, &p, why), 0);
  assert_non_null(strstr(why, "no canvas of 1280x800"));
  assert_non_null(strstr(why, "506x67 at (1300,600), 1600x900 at (11,96)"));
  /* scaled by CSS: the backing size matches, the screen size does not */
  const char *scaled = PAGE("{\"x\": 0, \"y\": 0, \"w\": 800, \"h\": 450, \"cw\": 1600, "
                            "\"ch\": 900}", 1600, 940);
  assert_int_equal(choose(scaled, 1600, 900, 0, &p, why), 0);
  /* no canvas; the page still loading; an HTTP error page */
  assert_int_equal(choose(PAGE("", 1600, 940), 1600, 900, 0, &p, why), 0);
  assert_string_equal(why, "no canvas in the page");
  const char *loading = "{\"cs\": [" NOVNC "], \"vw\": 1600, \"vh\": 940, \"ready\": \"loading\"}";
  assert_int_equal(choose(loading, 1600, 900, 0, &p, why), 0);
  const char *e404 = "{\"cs\": [], \"vw\": 1600, \"vh\": 940, \"ready\": \"complete\", "
                     "\"status\": 404}";
  assert_int_equal(choose(e404, 1600, 900, 0, &p, why), -1);
  assert_string_equal(why, "the server answered HTTP 404");
}

/* A selector names the element: taken as it is (its size still checked). */
static void by_selector(void **st) {
  (void)st;
  sc__guest_pick p;
  char why[256];
  assert_int_equal(choose(PAGE(POPUP, 1920, 1120), 0, 0, 1, &p, why), 1);
  assert_int_equal(p.cw, 506);
  assert_int_equal(choose(PAGE(POPUP, 1920, 1120), 1600, 900, 1, &p, why), 0);
  assert_int_equal(choose(PAGE("", 1920, 1120), 0, 0, 1, &p, why), 0);
  assert_string_equal(why, "no canvas matches the selector");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(one_canvas),
      cmocka_unit_test(several_canvases_by_size_and_by_area),
      cmocka_unit_test(overflowing_the_viewport_scrolls),
      cmocka_unit_test(moved_window_is_found_where_it_is),
      cmocka_unit_test(never_a_guess),
      cmocka_unit_test(by_selector),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
