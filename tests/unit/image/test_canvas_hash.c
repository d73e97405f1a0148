/* The probe hash: the C side must give what the page's JavaScript gives
 * (lib/page/probe.c). The expected value was computed with that loop in
 * node over the same bytes; a change on one side only fails here. */
#include "testutil.h"

#include <string.h>

#include "image/canvas_hash.h"
#include "stepcheck.h"

/* 3x2 pixels, byte i = (i * 37 + 11) & 255, row by row. */
static sc_image *vector(void) {
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, 3, 2), 0);
  for (int y = 0, i = 0; y < 2; y++)
    for (int x = 0; x < 12; x++, i++)
      img->px[(size_t)y * img->stride + (size_t)x] = (uint8_t)((i * 37 + 11) & 255);
  return img;
}

static void same_as_the_page(void **st) {
  (void)st;
  sc_image *img = vector();
  assert_true(sc__canvas_hash(img) == (0x1876ef7bull << 32 | 0xf17c74f9ull));
  sc_image_free(img);
}

/* Rows are read by stride: a crop (stride wider than its rows) hashes as
 * the same pixels in a tight image. */
static void rows_by_stride(void **st) {
  (void)st;
  sc_image *big = NULL, *crop = NULL, *img = vector();
  assert_int_equal(sc_image_new(&big, 5, 4), 0);
  for (int y = 0; y < 2; y++)
    memcpy(big->px + (size_t)(y + 1) * big->stride + 4, img->px + (size_t)y * img->stride, 12);
  assert_int_equal(sc_image_crop(&crop, big, (sc_rect){1, 1, 3, 2}), 0);
  assert_true(sc__canvas_hash(crop) == sc__canvas_hash(img));
  /* one byte of one pixel differs: another hash */
  crop->px[crop->stride + 5] ^= 1;
  assert_true(sc__canvas_hash(crop) != sc__canvas_hash(img));
  sc_image_free(big);
  sc_image_free(crop);
  sc_image_free(img);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_as_the_page),
      cmocka_unit_test(rows_by_stride),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
