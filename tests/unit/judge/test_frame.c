/* Frames: a rect as last seen, composed of an older frame with a newer one
 * over it (the seed of an at-rest pair, lib/run/capture.c), decoded or
 * packed. */
#include "testutil.h"

#include <string.h>

#include "judge/judge.h"
#include "stepcheck.h"

/* A frame of guest rect clip whose pixel at guest (x, y) is tag, x, y. */
static sc__frame frame(sc_rect clip, uint8_t tag, int packed) {
  sc__frame f = {.clip = clip};
  assert_int_equal(sc_image_new(&f.img, clip.w, clip.h), 0);
  for (int y = 0; y < clip.h; y++)
    for (int x = 0; x < clip.w; x++) {
      uint8_t *p = f.img->px + (size_t)y * f.img->stride + (size_t)x * 4;
      p[0] = tag, p[1] = (uint8_t)(clip.x + x), p[2] = (uint8_t)(clip.y + y), p[3] = 255;
    }
  if (packed) assert_int_equal(sc__frame_hold(&f), 0);
  return f;
}

static uint32_t want(uint8_t tag, int gx, int gy) {
  return (uint32_t)tag << 24 | (uint32_t)gx << 16 | (uint32_t)gy << 8 | 255u;
}

/* out is guest rect r: 'O' pixels inside rect o, 'U' elsewhere. */
static void expect_composed(const sc_image *out, sc_rect r, sc_rect o) {
  assert_int_equal(out->width, r.w);
  assert_int_equal(out->height, r.h);
  for (int y = 0; y < r.h; y++)
    for (int x = 0; x < r.w; x++) {
      int gx = r.x + x, gy = r.y + y;
      int in = gx >= o.x && gx < o.x + o.w && gy >= o.y && gy < o.y + o.h;
      assert_int_equal(sc_image_pixel(out, x, y), want(in ? 'O' : 'U', gx, gy));
    }
}

/* Composes over on under for guest rect r and checks 'O' exactly inside
 * rect o. */
static void check_compose(const sc__frame *under, const sc__frame *over, sc_rect r, sc_rect o) {
  sc_image *out = NULL;
  assert_int_equal(sc__frame_compose(&out, under, over, r), 0);
  expect_composed(out, r, o);
  sc_image_free(out);
}

static void compose_takes_the_newer_where_it_covers(void **st) {
  (void)st;
  for (int packed = 0; packed < 2; packed++) {
    sc__frame under = frame((sc_rect){0, 0, 20, 10}, 'U', packed);
    sc__frame over = frame((sc_rect){5, 2, 10, 10}, 'O', packed); /* reaches past r */
    check_compose(&under, &over, (sc_rect){3, 1, 10, 6}, over.clip);
    sc__frame_free(&under);
    sc__frame_free(&over);
  }
}

static void compose_without_overlap_or_newer_is_the_older(void **st) {
  (void)st;
  sc__frame under = frame((sc_rect){0, 0, 20, 10}, 'U', 1);
  sc__frame apart = frame((sc_rect){15, 0, 5, 10}, 'O', 1);
  sc__frame none = {0};
  for (int i = 0; i < 2; i++)
    check_compose(&under, i ? &none : &apart, (sc_rect){0, 0, 15, 10}, (sc_rect){0, 0, 0, 0});
  sc__frame_free(&under);
  sc__frame_free(&apart);
}

static void compose_outside_the_older_is_refused(void **st) {
  (void)st;
  sc__frame under = frame((sc_rect){0, 0, 20, 10}, 'U', 1);
  sc__frame over = frame((sc_rect){0, 0, 30, 10}, 'O', 1);
  sc_image *out = (sc_image *)&under; /* overwritten */
  /* over covers r, but the older frame does not: nothing to compose from */
  assert_int_equal(sc__frame_compose(&out, &under, &over, (sc_rect){10, 0, 15, 10}), -1);
  assert_null(out);
  sc__frame_free(&under);
  sc__frame_free(&over);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(compose_takes_the_newer_where_it_covers),
      cmocka_unit_test(compose_without_overlap_or_newer_is_the_older),
      cmocka_unit_test(compose_outside_the_older_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
