/* A scale bar in another font: JOSM's layout read with a glyph set learned
 * from the fixture map app (fixtures/mapapp/scalebar.glyphs). */
#include "testutil.h"

#include <string.h>

#include "stepcheck.h"

static void reads_with_a_learned_glyph_set(void **st) {
  (void)st;
  static const struct {
    const char *file, *text;
    int bar;
  } k[] = {{"text/mapapp/z0.png", "100.0 m", 100}, {"text/mapapp/z2.png", "20.0 m", 80},
           {"text/mapapp/z4.png", "5.00 m", 80},   {"text/mapapp/z6.png", "2.00 m", 128},
           {"text/mapapp/z-3.png", "1000.0 m", 125}};
  char set[4096];
  snprintf(set, sizeof set, "%s", sc_test_fixture("mapapp/scalebar.glyphs"));
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    sc_image *img = NULL;
    assert_int_equal(sc_image_load_png(&img, sc_test_fixture(k[i].file), NULL), 0);
    sc_scale_reading rd;
    sc_rect all = {0, 0, img->width, img->height};
    assert_int_equal(sc_scalebar_read(&rd, img, all, set, NULL), 0);
    assert_string_equal(rd.text, k[i].text);
    assert_int_equal(rd.bar_px, k[i].bar);
    /* The builtin JOSM font does not read this font: refused, never a value. */
    int rc = sc_scalebar_read(&rd, img, all, "josm", NULL);
    assert_true(rc == SC_EUNREADABLE || rc == SC_ENOTEXT);
    sc_image_free(img);
  }
}

static void unknown_profile_is_named(void **st) {
  (void)st;
  sc_image *img = NULL;
  assert_int_equal(sc_image_load_png(&img, sc_test_fixture("text/mapapp/z0.png"), NULL), 0);
  sc_scale_reading rd;
  assert_int_equal(sc_scalebar_read(&rd, img, (sc_rect){0, 0, 200, 32}, "webswing", NULL),
                   SC_ENOTFOUND);
  assert_non_null(strstr(sc_errmsg(), "\"webswing\""));
  assert_true(sc_scalebar_read(&rd, img, (sc_rect){0, 0, 200, 32}, "/nonexistent/x.glyphs",
                               NULL) < 0);
  sc_image_free(img);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(reads_with_a_learned_glyph_set),
      cmocka_unit_test(unknown_profile_is_named),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
