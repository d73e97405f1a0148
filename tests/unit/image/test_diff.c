/* sc_image_diff: pixelmatch-style tolerance, counts, bbox, diff image. */
#include "testutil.h"

#include <string.h>

#include "stepcheck.h"

static uint8_t *px(sc_image *img, int x, int y) {
  return img->px + (size_t)y * img->stride + (size_t)x * 4;
}

/* A busy but deterministic opaque picture. */
static sc_image *picture(int w, int h) {
  sc_image *img;
  assert_int_equal(sc_image_new(&img, w, h), 0);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint8_t *p = px(img, x, y);
      p[0] = (uint8_t)(x * 9 + y);
      p[1] = (uint8_t)(y * 5 + 40);
      p[2] = (uint8_t)((x * y) >> 2);
      p[3] = 255;
    }
  return img;
}

static sc_image *copy(const sc_image *src) {
  sc_image *img;
  assert_int_equal(sc_image_crop(&img, src, (sc_rect){0, 0, src->width, src->height}), 0);
  return img;
}

static void identical(void **st) {
  (void)st;
  sc_image *a = picture(40, 30), *b = copy(a);
  size_t n = 99;
  sc_rect box = {1, 1, 1, 1};
  sc_rect all = {0, 0, 40, 30};
  assert_int_equal(sc_image_diff(&n, &box, NULL, a, all, b, all, NULL), 0);
  assert_int_equal(n, 0);
  assert_int_equal(box.w, 0);
  assert_int_equal(box.h, 0);
  sc_diff_options exact = SC_DIFF_OPTIONS_INIT;
  exact.threshold = 0;
  assert_int_equal(sc_image_diff(&n, NULL, NULL, a, all, b, all, &exact), 0);
  assert_int_equal(n, 0);
  sc_image_free(a);
  sc_image_free(b);
}

static void one_level_is_noise(void **st) {
  (void)st;
  sc_image *a = picture(40, 30), *b = copy(a);
  px(b, 17, 11)[1] += 1;
  sc_rect all = {0, 0, 40, 30};
  size_t n = 99;
  sc_diff_options o = SC_DIFF_OPTIONS_INIT;
  assert_int_equal(sc_image_diff(&n, NULL, NULL, a, all, b, all, &o), 0);
  assert_int_equal(n, 0); /* within 0.1 */
  o.threshold = 0;
  sc_rect box;
  assert_int_equal(sc_image_diff(&n, &box, NULL, a, all, b, all, &o), 0);
  assert_int_equal(n, 1);
  assert_int_equal(box.x, 17);
  assert_int_equal(box.y, 11);
  assert_int_equal(box.w, 1);
  assert_int_equal(box.h, 1);
  /* alpha alone is ignored */
  px(b, 17, 11)[1] -= 1;
  px(b, 3, 3)[3] = 0;
  assert_int_equal(sc_image_diff(&n, NULL, NULL, a, all, b, all, &o), 0);
  assert_int_equal(n, 0);
  sc_image_free(a);
  sc_image_free(b);
}

static void block_bbox_and_image(void **st) {
  (void)st;
  sc_image *a = picture(40, 30), *b = copy(a);
  for (int y = 12; y < 22; y++)
    for (int x = 5; x < 15; x++) {
      uint8_t *p = px(b, x, y);
      p[0] = (uint8_t)(255 - p[0]);
      p[1] = (uint8_t)(255 - p[1]);
      p[2] = (uint8_t)(p[2] + 128);
    }
  sc_rect all = {0, 0, 40, 30};
  size_t n;
  sc_rect box;
  sc_image *d = NULL;
  assert_int_equal(sc_image_diff(&n, &box, &d, a, all, b, all, NULL), 0);
  assert_int_equal(n, 100);
  assert_int_equal(box.x, 5);
  assert_int_equal(box.y, 12);
  assert_int_equal(box.w, 10);
  assert_int_equal(box.h, 10);
  assert_non_null(d);
  assert_int_equal(d->width, 40);
  assert_int_equal(d->height, 30);
  size_t red = 0;
  for (int y = 0; y < 30; y++)
    for (int x = 0; x < 40; x++) {
      uint32_t v = sc_image_pixel(d, x, y);
      int inside = x >= 5 && x < 15 && y >= 12 && y < 22;
      if (inside) {
        assert_int_equal(v, 0xff0000ffu);
      } else {
        uint8_t g = (uint8_t)(v >> 24);
        assert_int_equal((v >> 16) & 255, g); /* grey */
        assert_int_equal((v >> 8) & 255, g);
        assert_int_equal(v & 255, 255);
        assert_true(g >= 191); /* faded toward white */
      }
      red += v == 0xff0000ffu;
    }
  assert_int_equal(red, 100);
  sc_image_free(d);

  /* regions: the same block seen through offset windows */
  sc_rect ra = {4, 10, 20, 15}, rb = {4, 10, 20, 15};
  assert_int_equal(sc_image_diff(&n, &box, NULL, a, ra, b, rb, NULL), 0);
  assert_int_equal(n, 100);
  assert_int_equal(box.x, 1);
  assert_int_equal(box.y, 2);
  /* a shifted window of a against b: a different comparison, same API */
  sc_rect outside = {30, 20, 20, 15};
  assert_int_equal(sc_image_diff(&n, NULL, NULL, a, outside, b, rb, NULL), SC_EINVAL);
  sc_rect small = {0, 0, 5, 5};
  assert_int_equal(sc_image_diff(&n, NULL, NULL, a, small, b, rb, NULL), SC_EINVAL);
  sc_diff_options bad = SC_DIFF_OPTIONS_INIT;
  bad.threshold = 1.5;
  assert_int_equal(sc_image_diff(&n, NULL, NULL, a, all, b, all, &bad), SC_EINVAL);
  sc_image_free(a);
  sc_image_free(b);
}

/* Black vs white: squared YIQ distance 32857 of the 35215 scale, so it
 * differs up to a threshold of about 0.966. */
/* Scattered single-pixel changes, at and around the 16-pixel spans the
 * counter skips when identical, in rects at odd offsets: every one is
 * counted, with and without the diff image, and the bbox is exact. */
static void scattered_changes_all_counted(void **st) {
  (void)st;
  sc_image *a = picture(100, 12), *b = copy(a);
  int xs[] = {0, 15, 16, 17, 31, 32, 47, 63, 64, 80, 95, 96, 99};
  int n = (int)(sizeof xs / sizeof xs[0]);
  for (int i = 0; i < n; i++) px(b, xs[i], 3 + i % 5)[1] ^= 0xff;
  for (int off = 0; off < 5; off++) {
    sc_rect r = {off, 0, 100 - off, 12};
    int want = 0, minx = 1000, maxx = -1;
    for (int i = 0; i < n; i++)
      if (xs[i] >= off) {
        want++;
        if (xs[i] - off < minx) minx = xs[i] - off;
        if (xs[i] - off > maxx) maxx = xs[i] - off;
      }
    for (int with_img = 0; with_img < 2; with_img++) {
      size_t got = 0;
      sc_rect box;
      sc_image *d = NULL;
      assert_int_equal(sc_image_diff(&got, &box, with_img ? &d : NULL, a, r, b, r, NULL), 0);
      assert_int_equal(got, (size_t)want);
      assert_int_equal(box.x, minx);
      assert_int_equal(box.w, maxx - minx + 1);
      sc_image_free(d);
    }
  }
  sc_image_free(a);
  sc_image_free(b);
}

static void extremes(void **st) {
  (void)st;
  sc_image *a, *b;
  assert_int_equal(sc_image_new(&a, 2, 1), 0);
  assert_int_equal(sc_image_new(&b, 2, 1), 0);
  memset(b->px, 255, 8);
  sc_rect r = {0, 0, 2, 1};
  size_t n;
  sc_diff_options o = SC_DIFF_OPTIONS_INIT;
  o.threshold = 0.96;
  assert_int_equal(sc_image_diff(&n, NULL, NULL, a, r, b, r, &o), 0);
  assert_int_equal(n, 2);
  o.threshold = 1.0;
  assert_int_equal(sc_image_diff(&n, NULL, NULL, a, r, b, r, &o), 0);
  assert_int_equal(n, 0);
  sc_image_free(a);
  sc_image_free(b);
}

/* Every pixel is judged on its own two colours, however often the same
 * pair of colours came before: the whole-region count and diff image
 * equal the sum of 1x1 diffs. Few colours, so pairs repeat in runs and
 * alternate: one colour before, after it a near one (under the threshold),
 * a far one, or the same with another alpha (alpha is ignored). */
static void every_pixel_judged_on_its_own_colours(void **st) {
  (void)st;
  static const uint8_t pal[][4] = {{0, 0, 0, 255},     {3, 2, 4, 255},   {200, 30, 30, 255},
                                   {0, 0, 0, 7},       {30, 30, 30, 255}, {0, 0, 2, 255}};
  const int w = 67, h = 9, npal = (int)(sizeof pal / sizeof pal[0]);
  sc_image *a, *b;
  assert_int_equal(sc_image_new(&a, w, h), 0);
  assert_int_equal(sc_image_new(&b, w, h), 0);
  uint32_t seed = 12345;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      seed = seed * 1103515245u + 12345u;
      int run = (int)(seed >> 28) % 3; /* mostly pairs seen just before */
      memcpy(px(a, x, y), pal[x < 30 ? 0 : (int)(seed >> 20) % 2 ? 0 : 4], 4);
      memcpy(px(b, x, y), x > 0 && run ? px(b, x - 1, y) : pal[(seed >> 16) % (uint32_t)npal], 4);
    }
  sc_rect r = {0, 0, w, h};
  for (int t = 0; t < 2; t++) {
    sc_diff_options o = SC_DIFF_OPTIONS_INIT;
    o.threshold = t ? 0.0 : 0.1;
    size_t got = 0, want = 0;
    sc_image *d = NULL;
    assert_int_equal(sc_image_diff(&got, NULL, &d, a, r, b, r, &o), 0);
    size_t got_no_img = 0;
    assert_int_equal(sc_image_diff(&got_no_img, NULL, NULL, a, r, b, r, &o), 0);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        size_t one = 0;
        sc_rect p1 = {x, y, 1, 1};
        assert_int_equal(sc_image_diff(&one, NULL, NULL, a, p1, b, p1, &o), 0);
        want += one;
        const uint8_t *q = px(d, x, y);
        assert_int_equal(q[0] == 255 && q[1] == 0 && q[2] == 0, (int)one);
      }
    assert_true(want > 20 && want + 20 < (size_t)(w * h)); /* the picture mixes both */
    assert_int_equal(got, want);
    assert_int_equal(got_no_img, want);
    sc_image_free(d);
  }
  sc_image_free(a);
  sc_image_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(identical),
      cmocka_unit_test(one_level_is_noise),
      cmocka_unit_test(block_bbox_and_image),
      cmocka_unit_test(scattered_changes_all_counted),
      cmocka_unit_test(extremes),
      cmocka_unit_test(every_pixel_judged_on_its_own_colours),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
