/* Drawing for pictures people look at: outlines, crosses and 5x7 text land
 * on the pixels they say, are clipped at the edges, and refuse bad input. */
#include "testutil.h"

#include <math.h>

#include "stepcheck.h"
#include <limits.h>

#include "core/core.h"

static sc_image *blank(int w, int h) {
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, w, h), 0);
  return img;
}

static void outlines_and_crosses(void **st) {
  (void)st;
  sc_image *img = blank(40, 30);
  assert_int_equal(sc_image_draw_rect(img, (sc_rect){5, 6, 10, 8}, 0xff00ff), 0);
  assert_int_equal(sc_image_pixel(img, 5, 6), 0xff00ffffu);    /* corner */
  assert_int_equal(sc_image_pixel(img, 14, 13), 0xff00ffffu);  /* far corner */
  assert_int_equal(sc_image_pixel(img, 9, 6), 0xff00ffffu);    /* top edge */
  assert_int_equal(sc_image_pixel(img, 9, 9), 0);              /* inside: untouched */
  assert_int_equal(sc_image_pixel(img, 15, 13), 0);            /* just outside */
  assert_int_equal(sc_image_draw_cross(img, (sc_point){20.7, 20.2}, 3, 0x00ffff), 0);
  assert_int_equal(sc_image_pixel(img, 20, 20), 0x00ffffffu);
  assert_int_equal(sc_image_pixel(img, 23, 20), 0x00ffffffu);
  assert_int_equal(sc_image_pixel(img, 20, 17), 0x00ffffffu);
  assert_int_equal(sc_image_pixel(img, 24, 20), 0);
  assert_int_equal(sc_image_pixel(img, 21, 21), 0);
  /* clipped, not refused, at the edges */
  assert_int_equal(sc_image_draw_rect(img, (sc_rect){30, 20, 30, 30}, 0xffffff), 0);
  assert_int_equal(sc_image_draw_cross(img, (sc_point){0, 0}, 5, 0xffffff), 0);
  assert_int_equal(sc_image_draw_rect(img, (sc_rect){0, 0, 0, 5}, 0), SC_EINVAL);
  assert_int_equal(sc_image_draw_cross(img, (sc_point){NAN, 1}, 3, 0), SC_EINVAL);
  assert_int_equal(sc_image_draw_cross(NULL, (sc_point){1, 1}, 3, 0), SC_EINVAL);
  sc_image_free(img);
}

static void text_in_the_label_font(void **st) {
  (void)st;
  sc_image *img = blank(40, 12);
  assert_int_equal(sc_image_draw_text(img, 2, 2, "1t", 0xffffff, 0x000080), 0);
  /* "1": row 0 is ..#.. and row 6 is .###. ; the box around is bg */
  assert_int_equal(sc_image_pixel(img, 2 + 2, 2), 0xffffffffu);
  assert_int_equal(sc_image_pixel(img, 2 + 0, 2), 0x000080ffu);
  assert_int_equal(sc_image_pixel(img, 2 + 1, 2 + 6), 0xffffffffu);
  assert_int_equal(sc_image_pixel(img, 1, 1), 0x000080ffu);   /* box margin */
  /* "t" is drawn as "T": its top row is full */
  for (int x = 0; x < 5; x++) assert_int_equal(sc_image_pixel(img, 8 + x, 2), 0xffffffffu);
  assert_int_equal(sc_image_pixel(img, 20, 2), 0);            /* past the text */
  assert_int_equal(sc_image_draw_text(img, 0, 0, NULL, 0, 0), SC_EINVAL);
  sc_image_free(img);
}

/* Rects whose right or bottom edge lies past INT_MAX (issue 25): the
 * bounds check says outside, drawing and searching clip, and nothing
 * overflows (the sanitizer build fails on a signed overflow). */
static void huge_rects_do_not_overflow(void **st) {
  (void)st;
  assert_true(sc__rect_within((sc_rect){0, 0, 300, 200}, 300, 200));
  assert_false(sc__rect_within((sc_rect){1, 1, INT_MAX, 5}, 300, 200));
  assert_false(sc__rect_within((sc_rect){1, 1, 5, INT_MAX}, 300, 200));
  assert_false(sc__rect_within((sc_rect){INT_MAX, INT_MAX, INT_MAX, INT_MAX}, 300, 200));
  assert_false(sc__rect_within((sc_rect){INT_MAX, 0, 1, 1}, INT_MAX, 1));
  assert_true(sc__rect_within((sc_rect){INT_MAX - 1, 0, 1, 1}, INT_MAX, 1));
  assert_false(sc__rect_within((sc_rect){-1, 0, 1, 1}, 300, 200));
  assert_false(sc__rect_within((sc_rect){0, 0, 0, 1}, 300, 200));
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, 8, 6), 0);
  assert_int_equal(sc_image_draw_rect(img, (sc_rect){1, 1, INT_MAX, 3}, 0xff0000), 0);
  assert_int_equal(sc_image_pixel(img, 1, 1) >> 8, 0xff0000); /* the left and top edges */
  assert_int_equal(sc_image_pixel(img, 7, 1) >> 8, 0xff0000);
  assert_int_equal(sc_image_pixel(img, 1, 3) >> 8, 0xff0000);
  assert_int_equal(sc_image_draw_rect(img, (sc_rect){INT_MAX, INT_MAX, INT_MAX, INT_MAX}, 1), 0);
  sc_image *tpl = NULL;
  assert_int_equal(sc_image_crop(&tpl, img, (sc_rect){0, 0, 2, 2}), 0);
  sc_match m[2];
  assert_true(sc_image_find(m, 2, img, tpl, (sc_rect){1, 1, INT_MAX, INT_MAX}, 0, 0.5) >= 0);
  sc_image_free(tpl);
  sc_image_free(img);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(outlines_and_crosses),
      cmocka_unit_test(text_in_the_label_font),
      cmocka_unit_test(huge_rects_do_not_overflow),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
