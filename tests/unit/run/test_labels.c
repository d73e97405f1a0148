/* inspect's label placement (lib/run/inspect_labels.c): many labels at one
 * anchor and around marked points never overlap one another nor cover a
 * marked point or a blocked rectangle, stay inside the picture, and one
 * with no free place is left out and counted. */
#include <string.h>

#include "run/inspect_labels.h"
#include "testutil.h"

static int hits(sc_rect a, sc_rect b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* The drawn labels, read back from the picture: a label is drawn on a
 * black box; L->taken holds marks first, then blocks, then labels. */
static void no_overlap(const sc__labels *L, size_t first_label) {
  for (size_t i = first_label; i < L->n; i++) {
    sc_rect a = L->taken[i]; /* with the gap after it: 4 px right, 1 below */
    assert_true(a.x >= 0 && a.y >= 0 && a.x + a.w - 4 <= L->w && a.y + a.h - 1 <= L->h);
    for (size_t j = 0; j < L->n; j++)
      if (j != i && hits(a, L->taken[j])) fail_msg("label %zu overlaps %zu", i, j);
  }
}

static void labels_never_overlap(void **st) {
  (void)st;
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, 400, 300), 0);
  sc__labels L;
  sc__labels_init(&L, 400, 300);
  /* two points close together (the "TAGSGS_TITLE") and a candidate */
  assert_int_equal(sc__labels_mark(&L, (sc_point){100, 100}), 0);
  assert_int_equal(sc__labels_mark(&L, (sc_point){110, 104}), 0);
  assert_int_equal(sc__labels_block(&L, (sc_rect){120, 90, 30, 20}), 0);
  size_t first = L.n;
  int drawn = 0;
  for (int i = 0; i < 40; i++) {
    int rc = sc__labels_place(&L, img, 100, 100, i % 2 ? "TAGS" : "TAGS_TITLE", 0xff00ff, 0);
    assert_true(rc >= 0);
    drawn += rc;
  }
  assert_true(drawn >= 30);
  assert_int_equal(drawn + L.dropped, 40);
  no_overlap(&L, first);
  /* the marked points' pixels are not painted over */
  assert_int_equal(sc_image_pixel(img, 100, 100), 0);
  assert_int_equal(sc_image_pixel(img, 110, 104), 0);
  /* a corner: labels stay inside */
  for (int i = 0; i < 5; i++) assert_true(sc__labels_place(&L, img, 398, 298, "EDGE", 0xffffff, 0) >= 0);
  no_overlap(&L, first);
  sc__labels_free(&L);
  sc_image_free(img);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(labels_never_overlap)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
