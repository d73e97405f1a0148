/* sc_image basics: new, pixel, crop, hash, count_color. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "stepcheck.h"

static void set(sc_image *img, int x, int y, uint32_t rgb) {
  uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
  p[0] = (uint8_t)(rgb >> 16);
  p[1] = (uint8_t)(rgb >> 8);
  p[2] = (uint8_t)rgb;
  p[3] = 255;
}

static void new_and_pixel(void **st) {
  (void)st;
  sc_image *img;
  assert_int_equal(sc_image_new(&img, 3, 2), 0);
  assert_int_equal(img->width, 3);
  assert_int_equal(img->height, 2);
  assert_int_equal(sc_image_pixel(img, 2, 1), 0);
  set(img, 2, 1, 0x123456);
  assert_int_equal(sc_image_pixel(img, 2, 1), 0x123456ffu);
  assert_int_equal(sc_image_pixel(img, 3, 1), 0); /* outside */
  assert_int_equal(sc_image_pixel(img, -1, 0), 0);
  sc_image_free(img);
  sc_image_free(NULL);
  assert_int_equal(sc_image_new(&img, -1, 2), SC_EINVAL);
}

static void hash_known(void **st) {
  (void)st;
  sc_image *img;
  assert_int_equal(sc_image_new(&img, 4, 4), 0);
  /* FNV-1a 64 of no bytes is the offset basis; of "abc" a known vector */
  assert_true(sc_image_hash(img, (sc_rect){0, 0, 0, 0}) == 0xcbf29ce484222325ULL);
  set(img, 1, 1, 0x616263); /* 'a' 'b' 'c' */
  assert_true(sc_image_hash(img, (sc_rect){1, 1, 1, 1}) == 0xe71fa2190541574bULL);
  /* alpha does not count */
  img->px[img->stride + 4 + 3] = 7;
  assert_true(sc_image_hash(img, (sc_rect){1, 1, 1, 1}) == 0xe71fa2190541574bULL);
  uint64_t h = sc_image_hash(img, (sc_rect){0, 0, 4, 4});
  set(img, 3, 3, 0x000001);
  assert_true(sc_image_hash(img, (sc_rect){0, 0, 4, 4}) != h);
  /* clipped to the image */
  assert_true(sc_image_hash(img, (sc_rect){-5, -5, 100, 100}) ==
              sc_image_hash(img, (sc_rect){0, 0, 4, 4}));
  sc_image_free(img);
}

static void count_color(void **st) {
  (void)st;
  sc_image *img;
  assert_int_equal(sc_image_new(&img, 10, 10), 0);
  for (int y = 0; y < 10; y++)
    for (int x = 0; x < 10; x++) set(img, x, y, 0xffffff);
  set(img, 2, 2, 0xff0000);
  set(img, 3, 2, 0xfa0505);
  set(img, 8, 8, 0xf00000);
  sc_rect all = {0, 0, 10, 10};
  assert_int_equal(sc_image_count_color(img, all, 0xff0000, 0), 1);
  assert_int_equal(sc_image_count_color(img, all, 0xff0000, 5), 2);
  assert_int_equal(sc_image_count_color(img, all, 0xff0000, 15), 3);
  assert_int_equal(sc_image_count_color(img, (sc_rect){0, 0, 5, 5}, 0xff0000, 15), 2);
  assert_int_equal(sc_image_count_color(img, all, 0xffffff, 0), 97);
  assert_int_equal(sc_image_count_color(img, (sc_rect){8, 8, 50, 50}, 0xffffff, 0), 3);
  sc_image_free(img);
}

/* Frame-sized pixels come from the thread's pool: an image of the same
 * size made again after the first was freed asks malloc for no big block
 * (the soak's fragmentation), and its pixels are still zeroed. */
static void frames_reuse_their_pixels(void **st) {
  (void)st;
  sc_test_sizes_install(256 * 1024);
  sc_image *a = NULL, *b = NULL;
  assert_int_equal(sc_image_new(&a, 1225, 813), 0);
  memset(a->px, 0xab, a->stride * 813);
  sc_image_free(a);
  sc_test_sizes_reset();
  for (int i = 0; i < 5; i++) {
    assert_int_equal(sc_image_new(&b, 1200, 800), 0); /* smaller fits too */
    assert_int_equal(sc_image_pixel(b, 1199, 799), 0); /* zeroed, not the old bytes */
    sc_image_free(b);
  }
  long big = sc_test_sizes_big();
  sc_set_allocator(NULL, NULL, NULL);
  assert_int_equal(big, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(frames_reuse_their_pixels),
      cmocka_unit_test(new_and_pixel),
      cmocka_unit_test(hash_known),
      cmocka_unit_test(count_color),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
