/* sc_text_find on a capture of the fixture map app (guest-pan64-32.png):
 * house numbers in light grey (fixtures/mapapp/labels.glyphs) and the menu
 * and panel titles in dark grey (ui.glyphs), both learned from this image. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "stepcheck.h"

typedef struct fx {
  sc_image *img;
  sc_glyphset *labels, *ui;
} fx;

static int setup(void **st) {
  fx *f = test_calloc(1, sizeof *f);
  if (sc_image_load_png(&f->img, sc_test_fixture("mapapp/guest-pan64-32.png"), NULL) ||
      sc_glyphset_load(&f->labels, sc_test_fixture("mapapp/labels.glyphs")) ||
      sc_glyphset_load(&f->ui, sc_test_fixture("mapapp/ui.glyphs")))
    fail_msg("%s", sc_errmsg());
  *st = f;
  return 0;
}

static int teardown(void **st) {
  fx *f = *st;
  sc_image_free(f->img);
  sc_glyphset_free(f->labels);
  sc_glyphset_free(f->ui);
  test_free(f);
  return 0;
}

static const sc_rect ALL = {0, 0, 0, 0};

static void finds_one_label(void **st) {
  fx *f = *st;
  sc_text_match m[4];
  int bad = -1;
  assert_int_equal(sc_text_find(m, 4, f->img, ALL, f->labels, "94", NULL, &bad), 1);
  assert_int_equal(m[0].box.x, 613);
  assert_int_equal(m[0].box.y, 531);
  assert_int_equal(m[0].box.w, 11);
  assert_int_equal(m[0].box.h, 7);
  assert_true(m[0].confidence > 0.99);
  assert_int_equal(bad, 0);
}

/* Whole words only: "9" is one label, not every label with a 9 in it. */
static void whole_words_only(void **st) {
  fx *f = *st;
  sc_text_match m[4];
  assert_int_equal(sc_text_find(m, 4, f->img, ALL, f->labels, "9", NULL, NULL), 1);
  assert_int_equal(m[0].box.w, 5);
  /* and "1" is not found inside 91, 21, 10, ... */
  int n1 = sc_text_find(m, 4, f->img, ALL, f->labels, "1", NULL, NULL);
  assert_int_equal(n1, 1);
  assert_true(m[0].box.w <= 5);
}

static void not_found(void **st) {
  fx *f = *st;
  sc_text_match m[1];
  assert_int_equal(sc_text_find(m, 1, f->img, ALL, f->labels, "98", NULL, NULL), 0);
  /* a label outside `within` is not found either */
  sc_rect left = {0, 0, 600, 900};
  assert_int_equal(sc_text_find(m, 1, f->img, left, f->labels, "94", NULL, NULL), 0);
}

/* "SELECTION" is the menu and the panel title: two places, top first;
 * within the panel column only the title. */
static void ambiguous_and_within(void **st) {
  fx *f = *st;
  sc_text_match m[4];
  assert_int_equal(sc_text_find(m, 4, f->img, ALL, f->ui, "SELECTION", NULL, NULL), 2);
  assert_int_equal(m[0].box.x, 197);
  assert_int_equal(m[0].box.y, 8);
  assert_true(m[1].box.x > 1270 && m[1].box.y > 400);
  sc_rect panels = {1270, 60, 330, 600};
  assert_int_equal(sc_text_find(m, 4, f->img, panels, f->ui, "SELECTION", NULL, NULL), 1);
  assert_true(m[0].box.x > 1270);
  /* only counting */
  assert_int_equal(sc_text_find(NULL, 0, f->img, ALL, f->ui, "SELECTION", NULL, NULL), 2);
}

static void several_words(void **st) {
  fx *f = *st;
  sc_text_match m[2];
  assert_int_equal(sc_text_find(m, 2, f->img, ALL, f->ui, "EDIT VIEW", NULL, NULL), 1);
  assert_int_equal(m[0].box.x, 43);
  assert_int_equal(m[0].box.x + m[0].box.w, 103);
  /* the words must follow each other */
  assert_int_equal(sc_text_find(m, 2, f->img, ALL, f->ui, "FILE VIEW", NULL, NULL), 0);
}

/* Dirt beside a label makes its line unreadable: never a match. */
static void unreadable_line_is_no_match(void **st) {
  fx *f = *st;
  sc_image *img = NULL;
  assert_int_equal(sc_image_crop(&img, f->img, (sc_rect){0, 0, 1600, 900}), 0);
  for (int y = 531; y < 535; y++) {
    uint8_t *p = img->px + (size_t)y * img->stride + 626 * 4;
    p[0] = p[1] = p[2] = 192;
    p[3] = 255;
  }
  sc_text_match m[1];
  int bad = 0;
  assert_int_equal(sc_text_find(m, 1, img, ALL, f->labels, "94", NULL, &bad), 0);
  assert_true(bad >= 1);
  sc_image_free(img);
}

static void bad_arguments(void **st) {
  fx *f = *st;
  sc_text_match m[1];
  assert_int_equal(sc_text_find(m, 1, f->img, ALL, f->labels, "", NULL, NULL), SC_EINVAL);
  assert_int_equal(sc_text_find(m, 1, f->img, ALL, f->labels, " 94", NULL, NULL), SC_EINVAL);
  assert_int_equal(sc_text_find(m, 1, f->img, ALL, f->labels, "9  4", NULL, NULL), SC_EINVAL);
  assert_int_equal(sc_text_find(m, 1, f->img, ALL, NULL, "94", NULL, NULL), SC_EINVAL);
  assert_int_equal(sc_text_find(NULL, 1, f->img, ALL, f->labels, "94", NULL, NULL), SC_EINVAL);
  sc_rect outside = {2000, 0, 10, 10};
  assert_int_equal(sc_text_find(m, 1, f->img, outside, f->labels, "94", NULL, NULL), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "outside"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(finds_one_label),
      cmocka_unit_test(whole_words_only),
      cmocka_unit_test(not_found),
      cmocka_unit_test(ambiguous_and_within),
      cmocka_unit_test(several_words),
      cmocka_unit_test(unreadable_line_is_no_match),
      cmocka_unit_test(bad_arguments),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
