/* Locators on real JOSM captures at two sizes (fixtures/josm/: parts of
 * whole-guest captures of the bundled rig, JOSM 18646 through x11vnc and
 * noVNC's lossy encoding, at 1600x900 and 1280x800; the panel parts start
 * at the panel column, x 1265 and 945, the map parts at x 240, y 440 and
 * x 150, y 425). Templates were cut from the 1600x900 capture:
 * the Layers eye, a panel header's three buttons (every panel has them),
 * and house-number labels 93 and 94 with everything but the digits
 * transparent. At the default tolerance and score the eye and label 93
 * are found at both sizes, the eye only within a lossy tolerance, the
 * buttons are ambiguous, and label 94, which JOSM does not draw at
 * 1280x800 (it does not fit), is not found there. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "locate/locate.h"
#include "testutil.h"

/* One point locator on a part of a capture of w x h. */
static int locate_one(sc_located *out, const char *part, int w, int h, const char *locator) {
  char json[1024], name[512];
  snprintf(json, sizeof json,
           "{\"app\": \"josm\", \"url\": \"http://127.0.0.1/\", \"viewport\": {\"width\": %d, "
           "\"height\": %d}, \"guest\": {\"width\": %d, \"height\": %d}, \"points\": {\"it\": %s},"
           " \"regions\": {\"all\": [0, 0, %d, %d]}, \"cycle\": [{\"id\": \"x\", \"click\": "
           "\"it\", \"expect\": [{\"changed\": \"all\"}]}]}",
           w, h, w, h, locator, w, h);
  snprintf(name, sizeof name, "%s", sc_test_fixture("josm/x.json"));
  sc_scenario *s = NULL;
  if (sc_scenario_parse(&s, json, name) < 0) fail_msg("%s", sc_errmsg());
  sc_image *img = NULL;
  assert_int_equal(sc_image_load_png(&img, sc_test_fixture(part), NULL), 0);
  assert_int_equal(img->width, w);
  assert_int_equal(img->height, h);
  sc_scenario *r = NULL;
  sc_located **f = NULL;
  size_t n = 0;
  int rc = sc__locate(&r, &f, &n, s, img, 0);
  if (rc == 0) {
    assert_int_equal(n, 1);
    *out = *f[0];
    out->name = NULL; /* borrowed from s, freed below */
    sc__free(f[0]);
    sc__free(f);
    sc__located_free(r);
  }
  sc_image_free(img);
  sc_scenario_free(s);
  return rc;
}

static void eye_found_at_both_sizes(void **st) {
  (void)st;
  sc_located a, b;
  assert_int_equal(locate_one(&a, "josm/panels-1600x900.png", 335, 640, "{\"template\": \"eye.png\"}"), 0);
  assert_int_equal(locate_one(&b, "josm/panels-1280x800.png", 335, 560, "{\"template\": \"eye.png\"}"), 0);
  /* the eye's centre: guest (1265 + 65, 60 + 34.5) and (945 + 65, 60 + 34.5) */
  assert_true(a.p.x == 65 && a.p.y == 34.5);
  assert_true(b.p.x == 65 && b.p.y == 34.5);
  assert_true(a.score == 1.0);
  assert_true(b.score > 0.99 && b.score < 1.0); /* another capture: lossy */
}

static void lossy_capture_needs_the_tolerance(void **st) {
  (void)st;
  sc_located a;
  assert_int_equal(locate_one(&a, "josm/panels-1280x800.png", 335, 560,
                              "{\"template\": \"eye.png\", \"tol\": 16}"),
                   SC_ELOCATE);
  assert_non_null(strstr(sc_errmsg(), "locator \"it\": template "));
  assert_non_null(strstr(sc_errmsg(), "eye.png not found (no place with 99% of its pixels within 16)"));
  /* the capture it was cut from needs none */
  assert_int_equal(locate_one(&a, "josm/panels-1600x900.png", 335, 640,
                              "{\"template\": \"eye.png\", \"tol\": 0, \"score\": 1}"),
                   0);
}

static void header_buttons_are_ambiguous(void **st) {
  (void)st;
  sc_located a;
  assert_int_equal(locate_one(&a, "josm/panels-1280x800.png", 335, 560,
                              "{\"template\": \"panel-buttons.png\"}"),
                   SC_ELOCATE);
  assert_non_null(strstr(sc_errmsg(), "found in 4 places: (285,152) 0.996, (285,344) 0.996, (285,536) 0.996, ..."));
  assert_int_equal(locate_one(&a, "josm/panels-1600x900.png", 335, 640,
                              "{\"template\": \"panel-buttons.png\"}"),
                   SC_ELOCATE);
  assert_non_null(strstr(sc_errmsg(), "found in 4 places"));
}

static void house_labels_at_both_sizes(void **st) {
  (void)st;
  sc_located a, b;
  assert_int_equal(locate_one(&a, "josm/map-1600x900.png", 800, 100, "{\"template\": \"label93.png\"}"), 0);
  assert_int_equal(locate_one(&b, "josm/map-1280x800.png", 680, 80, "{\"template\": \"label93.png\"}"), 0);
  /* another zoom, another place: guest (480, 497) and (340, 443) */
  assert_int_equal(a.r.x, 240);
  assert_int_equal(a.r.y, 57);
  assert_int_equal(b.r.x, 190);
  assert_int_equal(b.r.y, 18);
  assert_int_equal(locate_one(&a, "josm/map-1600x900.png", 800, 100, "{\"template\": \"label94.png\"}"), 0);
  assert_int_equal(locate_one(&b, "josm/map-1280x800.png", 680, 80, "{\"template\": \"label94.png\"}"),
                   SC_ELOCATE);
  assert_non_null(strstr(sc_errmsg(), "label94.png not found"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(eye_found_at_both_sizes),
      cmocka_unit_test(lossy_capture_needs_the_tolerance),
      cmocka_unit_test(header_buttons_are_ambiguous),
      cmocka_unit_test(house_labels_at_both_sizes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
