/* Template matching (sc_image_find), the core of locators: found where it
 * is and only there, tolerance and score as documented, two places are two
 * matches (ambiguous), "within" narrows, transparent template pixels do not
 * count, a template that fits anywhere is refused, bad arguments too. */
#include <string.h>

#include "stepcheck.h"
#include "testutil.h"

static unsigned g_seed;
static unsigned rnd(void) { /* xorshift32: no short period in the low bits */
  g_seed ^= g_seed << 13;
  g_seed ^= g_seed >> 17;
  g_seed ^= g_seed << 5;
  return g_seed;
}

/* Noise, so that every place looks different. */
static sc_image *noise(int w, int h, unsigned seed) {
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, w, h), 0);
  g_seed = seed;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      p[0] = (uint8_t)rnd(), p[1] = (uint8_t)rnd(), p[2] = (uint8_t)rnd(), p[3] = 255;
    }
  return img;
}

static sc_image *cut(const sc_image *img, sc_rect r) {
  sc_image *t = NULL;
  assert_int_equal(sc_image_crop(&t, img, r), 0);
  return t;
}

static void paste(sc_image *dst, const sc_image *src, int x, int y) {
  for (int j = 0; j < src->height; j++)
    memcpy(dst->px + (size_t)(y + j) * dst->stride + (size_t)x * 4, src->px + (size_t)j * src->stride,
           (size_t)src->width * 4);
}

static void found_where_it_is(void **st) {
  (void)st;
  sc_image *img = noise(400, 300, 1);
  sc_image *t = cut(img, (sc_rect){123, 77, 20, 14});
  sc_match m[4];
  assert_int_equal(sc_image_find(m, 4, img, t, (sc_rect){0, 0, 0, 0}, 0, 1.0), 1);
  assert_int_equal(m[0].x, 123);
  assert_int_equal(m[0].y, 77);
  assert_true(m[0].score == 1.0);
  /* at the image's last position too */
  sc_image *corner = cut(img, (sc_rect){380, 286, 20, 14});
  assert_int_equal(sc_image_find(m, 4, img, corner, (sc_rect){0, 0, 0, 0}, 0, 1.0), 1);
  assert_int_equal(m[0].x, 380);
  assert_int_equal(m[0].y, 286);
  sc_image_free(corner);
  sc_image_free(t);
  sc_image_free(img);
}

static void tolerance_and_score(void **st) {
  (void)st;
  sc_image *img = noise(300, 200, 2);
  sc_image *t = cut(img, (sc_rect){50, 60, 20, 10});
  /* the screen a little different (lossy VNC): every channel +10 */
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width * 4; x++)
      if (x % 4 != 3) {
        uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x;
        *p = *p > 245 ? 255 : (uint8_t)(*p + 10);
      }
  sc_match m[2];
  assert_int_equal(sc_image_find(m, 2, img, t, (sc_rect){0, 0, 0, 0}, 16, 1.0), 1);
  assert_int_equal(m[0].x, 50);
  assert_int_equal(sc_image_find(m, 2, img, t, (sc_rect){0, 0, 0, 0}, 4, 1.0), 0);
  /* 10 of 200 pixels changed: score 0.95 */
  for (int i = 0; i < 10; i++) {
    uint8_t *p = img->px + (size_t)(60 + i % 10) * img->stride + (size_t)(50 + i * 2) * 4;
    p[0] ^= 0x80;
  }
  assert_int_equal(sc_image_find(m, 2, img, t, (sc_rect){0, 0, 0, 0}, 16, 0.96), 0);
  assert_int_equal(sc_image_find(m, 2, img, t, (sc_rect){0, 0, 0, 0}, 16, 0.95), 1);
  assert_true(m[0].score > 0.949 && m[0].score < 0.951);
  sc_image_free(t);
  sc_image_free(img);
}

static void two_places_are_two_matches(void **st) {
  (void)st;
  sc_image *img = noise(400, 300, 3);
  sc_image *t = cut(img, (sc_rect){10, 10, 16, 16});
  paste(img, t, 300, 200);
  sc_match m[4];
  int n = sc_image_find(m, 4, img, t, (sc_rect){0, 0, 0, 0}, 0, 1.0);
  assert_int_equal(n, 2); /* ambiguous: the caller says so */
  assert_int_equal(m[0].y, 10); /* equal scores: top to bottom */
  assert_int_equal(m[1].x, 300);
  assert_int_equal(m[1].y, 200);
  /* max 1: the count still says 2 */
  assert_int_equal(sc_image_find(m, 1, img, t, (sc_rect){0, 0, 0, 0}, 0, 1.0), 2);
  /* within: only the second place */
  assert_int_equal(sc_image_find(m, 4, img, t, (sc_rect){200, 150, 200, 150}, 0, 1.0), 1);
  assert_int_equal(m[0].x, 300);
  /* a "within" the template does not fit into: nothing */
  assert_int_equal(sc_image_find(m, 4, img, t, (sc_rect){300, 200, 15, 16}, 0, 1.0), 0);
  sc_image_free(t);
  sc_image_free(img);
}

static void transparent_pixels_do_not_count(void **st) {
  (void)st;
  sc_image *img = noise(200, 100, 4);
  sc_image *t = cut(img, (sc_rect){40, 30, 20, 20});
  /* the screen's centre of that place changes; the template says "don't care" there */
  for (int y = 35; y < 45; y++)
    for (int x = 45; x < 55; x++) img->px[(size_t)y * img->stride + (size_t)x * 4] ^= 0xff;
  sc_match m[2];
  assert_int_equal(sc_image_find(m, 2, img, t, (sc_rect){0, 0, 0, 0}, 0, 1.0), 0);
  for (int y = 5; y < 15; y++)
    for (int x = 5; x < 15; x++) t->px[(size_t)y * t->stride + (size_t)x * 4 + 3] = 0;
  assert_int_equal(sc_image_find(m, 2, img, t, (sc_rect){0, 0, 0, 0}, 0, 1.0), 1);
  assert_int_equal(m[0].x, 40);
  sc_image_free(t);
  sc_image_free(img);
}

static void fits_anywhere_and_bad_arguments(void **st) {
  (void)st;
  sc_image *flat = NULL, *t = NULL;
  assert_int_equal(sc_image_new(&flat, 300, 300), 0);
  assert_int_equal(sc_image_new(&t, 10, 10), 0);
  sc_match m[2];
  /* all transparent: nothing to match with */
  assert_int_equal(sc_image_find(m, 2, flat, t, (sc_rect){0, 0, 0, 0}, 0, 1.0), SC_EINVAL);
  for (int i = 0; i < 100; i++) t->px[i * 4 + 3] = 255;
  for (int i = 0; i < 300 * 300; i++) flat->px[i * 4 + 3] = 255;
  assert_int_equal(sc_image_find(m, 2, flat, t, (sc_rect){0, 0, 0, 0}, 0, 1.0), SC_ETOOBIG);
  assert_non_null(strstr(sc_errmsg(), "more than"));
  assert_int_equal(sc_image_find(m, 2, NULL, t, (sc_rect){0, 0, 0, 0}, 0, 1.0), SC_EINVAL);
  assert_int_equal(sc_image_find(NULL, 2, flat, t, (sc_rect){0, 0, 0, 0}, 0, 1.0), SC_EINVAL);
  assert_int_equal(sc_image_find(m, 2, flat, t, (sc_rect){0, 0, 0, 0}, 256, 1.0), SC_EINVAL);
  assert_int_equal(sc_image_find(m, 2, flat, t, (sc_rect){0, 0, 0, 0}, 0, 0.0), SC_EINVAL);
  assert_int_equal(sc_image_find(m, 2, flat, t, (sc_rect){0, 0, 0, 0}, 0, 1.5), SC_EINVAL);
  sc_image_free(t);
  sc_image_free(flat);
}

/* Templates of one colour: what is near it stays (opaque), the rest is
 * "don't care"; such a template finds its ink on another background, and
 * on a background of its own colour it fits anywhere (refused, not a guess). */
static void keep_color_makes_ink_templates(void **st) {
  (void)st;
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, 40, 20), 0);
  g_seed = 7;
  for (int y = 0; y < 20; y++)
    for (int x = 0; x < 40; x++) {
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      int ink = (rnd() & 3) == 0 || (x == 5 && y == 5); /* scattered ink */
      p[0] = ink ? 200 : 40, p[1] = ink ? 190 : 30, p[2] = ink ? 180 : 30, p[3] = 255;
    }
  sc_image *t = cut(img, (sc_rect){5, 5, 12, 8});
  long kept = sc_image_keep_color(t, 0xc0c0c0, 16); /* 200,190,180 is within 16 of 192 */
  long ink = 0;
  for (int y = 5; y < 13; y++)
    for (int x = 5; x < 17; x++) ink += (sc_image_pixel(img, x, y) >> 24) == 200;
  assert_true(kept > 10);
  assert_int_equal(kept, ink);
  assert_int_equal(sc_image_pixel(t, 0, 0) & 0xff, 255); /* (5,5): ink */
  assert_int_equal(sc_image_pixel(t, 1, 0) & 0xff, (sc_image_pixel(img, 6, 5) >> 24) == 200 ? 255 : 0);
  /* the same ink on another background: found where it is */
  for (int y = 0; y < 20; y++)
    for (int x = 0; x < 40; x++) {
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      if (p[0] == 40) p[0] = 0, p[1] = 0, p[2] = 90;
    }
  sc_match m[2];
  assert_int_equal(sc_image_find(m, 2, img, t, (sc_rect){0, 0, 0, 0}, 16, 1.0), 1);
  assert_int_equal(m[0].x, 5);
  assert_int_equal(m[0].y, 5);
  /* ... and a background of the ink's own colour fits it anywhere */
  sc_image *flat = NULL;
  assert_int_equal(sc_image_new(&flat, 200, 100), 0);
  for (int i = 0; i < 200 * 100; i++)
    flat->px[i * 4] = 192, flat->px[i * 4 + 1] = 192, flat->px[i * 4 + 2] = 192, flat->px[i * 4 + 3] = 255;
  assert_int_equal(sc_image_find(m, 2, flat, t, (sc_rect){0, 0, 0, 0}, 16, 1.0), SC_ETOOBIG);
  sc_image_free(flat);
  assert_int_equal(sc_image_keep_color(t, 0xc0c0c0, 300), SC_EINVAL);
  assert_int_equal(sc_image_keep_color(NULL, 0, 0), SC_EINVAL);
  sc_image_free(t);
  sc_image_free(img);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(found_where_it_is),
      cmocka_unit_test(tolerance_and_score),
      cmocka_unit_test(two_places_are_two_matches),
      cmocka_unit_test(transparent_pixels_do_not_count),
      cmocka_unit_test(fits_anywhere_and_bad_arguments),
      cmocka_unit_test(keep_color_makes_ink_templates),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
