/* A capture's PNG is checked against the clip it was asked for: one that
 * declares a far larger size is refused from its header, before a row is
 * decoded or its pixels allocated; the usual one-pixel rounding passes. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "page/tab.h"

/* A real PNG of w x h (flat, so small), as base64. */
static char *png_b64(int w, int h, size_t *len) {
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, w, h), 0);
  void *png = NULL;
  size_t n = 0;
  assert_int_equal(sc_image_encode_png(&png, &n, img), 0);
  sc_image_free(img);
  char *b64 = sc__base64_encode(png, n);
  sc_free(png);
  assert_non_null(b64);
  *len = strlen(b64);
  return b64;
}

static void far_larger_png_refused_before_decoding(void **st) {
  (void)st;
  size_t len;
  /* 3000x3000: 36 MB of RGBA, within the decoder's default limits */
  char *b64 = png_b64(3000, 3000, &len);
  sc_test_sizes_install(SIZE_MAX);
  sc_image *img = NULL;
  int rc = sc__page_decode(&img, b64, len, (sc_rect){10, 20, 200, 100}, 1.0);
  size_t peak = sc_test_sizes_largest();
  sc_set_allocator(NULL, NULL, NULL);
  assert_int_equal(rc, SC_EGEOMETRY);
  assert_null(img);
  assert_string_equal(sc_errmsg(), "capture: the PNG declares 3000x3000 for a 200x100 clip at "
                                   "scale 1; refused before decoding");
  /* the PNG bytes themselves (in the thread's scratch, which grows with
   * headroom: at most twice the base64), nothing of the size of its 36 MB
   * of pixels */
  if (peak >= 2 * len) fail_msg("largest allocation %zu bytes (base64 is %zu)", peak, len);
  sc__free(b64);
}

static void clip_sizes_within_a_pixel_pass(void **st) {
  (void)st;
  static const struct {
    int w, h;
    double scale;
    int png_w, png_h, ok;
  } cases[] = {
      {200, 100, 1.0, 200, 100, 1}, {200, 100, 1.0, 201, 101, 1}, {200, 100, 1.0, 199, 99, 1},
      {200, 100, 0.5, 100, 50, 1},  {201, 101, 0.5, 101, 51, 1},  {200, 100, 1.0, 202, 100, 0},
      {200, 100, 0.5, 200, 100, 0}, {200, 100, 1.0, 198, 100, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    size_t len;
    char *b64 = png_b64(cases[i].png_w, cases[i].png_h, &len);
    sc_image *img = NULL;
    int rc = sc__page_decode(&img, b64, len, (sc_rect){0, 0, cases[i].w, cases[i].h},
                             cases[i].scale);
    if (cases[i].ok) {
      assert_int_equal(rc, 0);
      assert_int_equal(img->width, cases[i].png_w);
    } else {
      assert_int_equal(rc, SC_EGEOMETRY);
      assert_null(img);
    }
    sc_image_free(img);
    sc__free(b64);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(far_larger_png_refused_before_decoding),
      cmocka_unit_test(clip_sizes_within_a_pixel_pass),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
