/* Judge rules on synthetic frames: each rule holds for the right reason and
 * fails on its sabotage (noise within tolerance, a real change, a wrong
 * restore, a colour that never appears). */
#include "testutil.h"

#include <string.h>

#include "judge/judge.h"
#include "stepcheck.h"

static sc_region g_regions[] = {{"map", {10, 10, 40, 30}}, {"panel", {60, 10, 20, 20}}};
static sc_scenario g_s;

static sc_image *blank(int w, int h, uint8_t v) {
  sc_image *img;
  assert_int_equal(sc_image_new(&img, w, h), 0);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      p[0] = p[1] = p[2] = v;
      p[3] = 255;
    }
  return img;
}

static void paint(sc_image *img, int x0, int y0, int w, int h, uint8_t r, uint8_t g, uint8_t b) {
  for (int y = y0; y < y0 + h; y++)
    for (int x = x0; x < x0 + w; x++) {
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      p[0] = r, p[1] = g, p[2] = b;
    }
}

typedef struct snaps {
  const sc__frame *start;
} snaps;

static const sc__frame *get_snap(void *ud, const char *name) {
  snaps *s = ud;
  return !strcmp(name, "start") ? s->start : NULL;
}

static int setup(void **st) {
  (void)st;
  memset(&g_s, 0, sizeof g_s);
  g_s.regions = g_regions;
  g_s.nregions = 2;
  g_s.guest_w = 100;
  g_s.guest_h = 50;
  return 0;
}

/* Judge expectation e with before/cur images covering the whole guest. */
static sc__verdict judge(sc_expect e, sc_image *before, sc_image *cur, sc_image *prev,
                         sc__frame *start) {
  sc_step st = {0};
  st.id = "step";
  st.expect = &e;
  st.nexpect = 1;
  sc__frame fb = {.img = before, .clip = {0, 0, 100, 50}}, fc = {.img = cur, .clip = {0, 0, 100, 50}},
            fp = {.img = prev, .clip = {0, 0, 100, 50}};
  snaps sn = {start};
  sc__judge_ctx ctx = {&g_s, &fb, &fc, prev ? &fp : NULL, get_snap, NULL, &sn, NULL, 8000, NULL, NULL};
  sc__verdict v;
  assert_int_equal(sc__judge_expect(&v, &st, 0, &ctx), 0);
  return v;
}

static void changed_needs_a_real_change(void **st) {
  (void)st;
  sc_image *a = blank(100, 50, 0), *b = blank(100, 50, 0);
  sc_expect e = {.kind = SC_EXPECT_CHANGED, .region = 0, .threshold = 0.1, .min_pixels = 1};
  sc__verdict v = judge(e, a, b, NULL, NULL);
  assert_false(v.holds);
  assert_string_equal(v.reason, "map unchanged after 8000 ms");
  /* Sabotage: one-level noise over the whole region is within tolerance. */
  paint(b, 10, 10, 40, 30, 1, 1, 1);
  v = judge(e, a, b, NULL, NULL);
  assert_false(v.holds);
  /* A change outside the region does not count. */
  paint(b, 60, 10, 10, 10, 255, 255, 255);
  v = judge(e, a, b, NULL, NULL);
  assert_false(v.holds);
  /* A real change inside does. */
  paint(b, 20, 20, 10, 10, 200, 0, 0);
  v = judge(e, a, b, NULL, NULL);
  assert_true(v.holds);
  assert_true(v.shows_change);
  assert_int_equal(v.pixels, 100);
  /* min_pixels above the change fails and says so. */
  e.min_pixels = 101;
  v = judge(e, a, b, NULL, NULL);
  assert_false(v.holds);
  assert_non_null(strstr(v.reason, "changed by 100 px (min 101)"));
  sc_image_free(a);
  sc_image_free(b);
}

static void unchanged_counts_pixels(void **st) {
  (void)st;
  sc_image *a = blank(100, 50, 0), *b = blank(100, 50, 0);
  sc_expect e = {.kind = SC_EXPECT_UNCHANGED, .region = 1, .threshold = 0.1};
  assert_true(judge(e, a, b, NULL, NULL).holds);
  paint(b, 65, 15, 2, 2, 255, 255, 255);
  sc__verdict v = judge(e, a, b, NULL, NULL);
  assert_false(v.holds);
  assert_string_equal(v.reason, "panel differs from before by 4 px (max 0)");
  e.max_pixels = 4;
  assert_true(judge(e, a, b, NULL, NULL).holds);
  e.max_pixels = 0;
  e.max_ratio = 0.01; /* 1% of 400 px = 4 */
  assert_true(judge(e, a, b, NULL, NULL).holds);
  sc_image_free(a);
  sc_image_free(b);
}

static void equals_snapshot_exactly(void **st) {
  (void)st;
  sc_image *start = blank(100, 50, 30), *before = blank(100, 50, 30), *cur = blank(100, 50, 30);
  paint(before, 10, 10, 40, 30, 200, 0, 0); /* the changed state */
  sc__frame fs = {.img = start, .clip = {0, 0, 100, 50}};
  sc_expect e = {.kind = SC_EXPECT_EQUALS, .region = 0, .threshold = 0.1, .snapshot = "start"};
  sc__verdict v = judge(e, before, cur, NULL, &fs);
  assert_true(v.holds);
  assert_true(v.shows_change); /* came back from the changed state */
  /* Sabotage: the restore leaves 412 px behind. */
  paint(cur, 10, 10, 40, 10, 255, 255, 0); /* 400 px */
  paint(cur, 10, 20, 12, 1, 255, 255, 0);  /* + 12 px */
  v = judge(e, before, cur, NULL, &fs);
  assert_false(v.holds);
  assert_string_equal(v.reason, "map differs from snapshot start by 412 px (max 0)");
  /* An unknown snapshot never passes. */
  e.snapshot = "nope";
  v = judge(e, before, start, NULL, &fs);
  assert_false(v.holds);
  assert_string_equal(v.reason, "map: no snapshot nope");
  sc_image_free(start);
  sc_image_free(before);
  sc_image_free(cur);
}

static void color_present_and_absent(void **st) {
  (void)st;
  sc_image *a = blank(100, 50, 0), *b = blank(100, 50, 0);
  sc_expect e = {.kind = SC_EXPECT_COLOR, .region = 0, .rgb = 0xff0000, .color_tol = 30,
                 .min_pixels = 20};
  assert_false(judge(e, a, b, NULL, NULL).holds);
  paint(b, 12, 12, 4, 4, 240, 10, 10); /* 16 px: below min */
  sc__verdict v = judge(e, a, b, NULL, NULL);
  assert_false(v.holds);
  assert_string_equal(v.reason, "color ff0000 absent in map (16 px, min 20)");
  paint(b, 12, 12, 5, 5, 240, 10, 10); /* 25 px */
  v = judge(e, a, b, NULL, NULL);
  assert_true(v.holds);
  assert_true(v.shows_change);
  /* Out of tolerance: a darker red does not count. */
  sc_image *c = blank(100, 50, 0);
  paint(c, 12, 12, 10, 10, 180, 0, 0);
  assert_false(judge(e, a, c, NULL, NULL).holds);
  /* Absent: passes only while fewer than min_pixels match. */
  e.absent = 1;
  assert_true(judge(e, a, a, NULL, NULL).holds);
  assert_false(judge(e, a, b, NULL, NULL).holds);
  sc_image_free(a);
  sc_image_free(b);
  sc_image_free(c);
}

/* The runner counts a colour on the at-rest capture once per step and
 * hands the count in (color_before); the count is the same on a packed
 * frame; and the judge uses the count it is given. */
static void color_before_counted_once(void **st) {
  (void)st;
  sc_image *a = blank(100, 50, 0), *b = blank(100, 50, 0);
  paint(b, 12, 12, 5, 5, 240, 10, 10);
  sc_expect e = {.kind = SC_EXPECT_COLOR, .region = 0, .rgb = 0xff0000, .color_tol = 30,
                 .min_pixels = 20};
  sc_step stp = {.id = "s", .expect = &e, .nexpect = 1};
  sc__frame fa = {.img = a, .clip = {0, 0, 100, 50}}, fb = {.img = b, .clip = {0, 0, 100, 50}};
  sc__frame pb = {.clip = {0, 0, 100, 50}};
  assert_int_equal(sc__pack(&pb.pk, b), 0);
  assert_int_equal(sc__color_count(&fb, g_regions[0].r, &e), 25);
  assert_int_equal(sc__color_count(&pb, g_regions[0].r, &e), 25);
  assert_int_equal(sc__color_count(&fa, g_regions[0].r, &e), 0);
  sc__judge_ctx ctx = {&g_s, &fa, &fb, NULL, NULL, NULL, NULL, NULL, 100, NULL, NULL};
  sc__verdict v;
  sc__judge_expect(&v, &stp, 0, &ctx);
  assert_true(v.holds && v.shows_change); /* none before, 25 now */
  long told = 25; /* as if the red had been there before the gesture */
  ctx.color_before = &told;
  sc__judge_expect(&v, &stp, 0, &ctx);
  assert_true(v.holds);
  assert_false(v.shows_change);
  sc__packed_free(&pb.pk);
  sc_image_free(a);
  sc_image_free(b);
}

static void stable_needs_two_equal_captures(void **st) {
  (void)st;
  sc_image *a = blank(100, 50, 0), *b = blank(100, 50, 0);
  sc_expect e = {.kind = SC_EXPECT_STABLE, .region = 0, .threshold = 0};
  assert_false(judge(e, a, b, NULL, NULL).holds); /* no previous capture yet */
  assert_true(judge(e, a, b, a, NULL).holds);
  paint(b, 11, 11, 1, 1, 1, 0, 0); /* one level on one pixel, threshold 0 */
  assert_false(judge(e, a, b, a, NULL).holds);
  sc_image_free(a);
  sc_image_free(b);
}

static void frame_equal_is_exact_and_clipped(void **st) {
  (void)st;
  sc_image *a = blank(100, 50, 7), *b = blank(100, 50, 7);
  sc__frame fa = {.img = a, .clip = {0, 0, 100, 50}}, fb = {.img = b, .clip = {0, 0, 100, 50}};
  assert_true(sc__frame_equal(&fa, &fb, (sc_rect){10, 10, 40, 30}));
  paint(b, 49, 39, 1, 1, 8, 7, 7);
  assert_false(sc__frame_equal(&fa, &fb, (sc_rect){10, 10, 40, 30}));
  assert_true(sc__frame_equal(&fa, &fb, (sc_rect){10, 10, 39, 29}));
  /* A rect outside the frame is never "equal". */
  assert_false(sc__frame_equal(&fa, &fb, (sc_rect){90, 40, 20, 20}));
  sc_image_free(a);
  sc_image_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(changed_needs_a_real_change, setup),
      cmocka_unit_test_setup(unchanged_counts_pixels, setup),
      cmocka_unit_test_setup(equals_snapshot_exactly, setup),
      cmocka_unit_test_setup(color_present_and_absent, setup),
      cmocka_unit_test_setup(color_before_counted_once, setup),
      cmocka_unit_test_setup(stable_needs_two_equal_captures, setup),
      cmocka_unit_test_setup(frame_equal_is_exact_and_clipped, setup),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
