/* The scale and text expectations on real JOSM scale-bar crops: the factor is
 * the ratio of two readings, a reading equal to the start is no zoom at all,
 * a wrong factor fails naming itself, and an unreadable bar never passes. */
#include "testutil.h"

#include <string.h>

#include "judge/judge.h"
#include "stepcheck.h"

static sc_region g_regions[] = {{"scalebar", {0, 0, 200, 34}}, {"label", {30, 19, 170, 15}}};
static sc_scenario g_s = {.regions = g_regions, .nregions = 2, .guest_w = 200, .guest_h = 34};

static sc_image *crop(const char *name) {
  char rel[256];
  snprintf(rel, sizeof rel, "text/josm/%s", name);
  sc_image *img = NULL;
  assert_int_equal(sc_image_load_png(&img, sc_test_fixture(rel), NULL), 0);
  return img;
}

static sc__verdict judge_scale(const char *before, const char *after, double factor) {
  sc_expect e = {.kind = SC_EXPECT_SCALE, .region = 0, .factor = factor, .factor_tol = 0.02,
                 .profile = "josm"};
  sc_step st = {.id = "zoom", .expect = &e, .nexpect = 1};
  sc_image *b = crop(before), *a = crop(after);
  sc__frame fb = {.img = b, .clip = {0, 0, 200, 34}}, fa = {.img = a, .clip = {0, 0, 200, 34}};
  sc__scale sb;
  sc__scale_read(&sb, &fb, g_regions[0].r, "josm");
  sc__judge_ctx ctx = {&g_s, &fb, &fa, NULL, NULL, NULL, NULL, &sb, 1000, NULL, NULL};
  sc__verdict v;
  assert_int_equal(sc__judge_expect(&v, &st, 0, &ctx), 0);
  sc_image_free(b);
  sc_image_free(a);
  return v;
}

static void three_notches_in_read_x0_125(void **st) {
  (void)st;
  /* "100.0 m" over 71 px -> "20.0 m" over 114 px */
  sc__verdict v = judge_scale("m-hatch-100m.png", "m-hatch-20m.png", 0.125);
  assert_true(v.holds);
  assert_true(v.shows_change);
  assert_string_equal(v.reason, "scale x0.1249 (want x0.1250)");
  assert_non_null(strstr(v.scale_text, "100.0 m/71px -> 20.0 m/114px"));
  /* And back out: x8. */
  v = judge_scale("m-hatch-20m.png", "m-hatch-100m.png", 8.0);
  assert_true(v.holds);
}

static void wrong_factor_fails_naming_it(void **st) {
  (void)st;
  /* One notch landed instead of three ("50.0 m" over 71 px): x0.5. */
  sc__verdict v = judge_scale("m-hatch-100m.png", "m-hatch-50m.png", 0.125);
  assert_false(v.holds);
  assert_true(v.shows_change);
  assert_string_equal(v.reason, "scale x0.5000 (want x0.1250)");
  /* Zoomed the wrong way. */
  v = judge_scale("m-hatch-100m.png", "m-hatch-20m.png", 8.0);
  assert_false(v.holds);
}

static void unchanged_reading_is_not_a_zoom(void **st) {
  (void)st;
  /* A factor of 1 asked for would still need the reading to move. */
  sc__verdict v = judge_scale("m-hatch-100m.png", "m-hatch-100m.png", 1.0);
  assert_false(v.holds);
  assert_false(v.shows_change);
}

static void unreadable_bar_never_passes(void **st) {
  (void)st;
  sc_expect e = {.kind = SC_EXPECT_SCALE, .region = 0, .factor = 0.125, .factor_tol = 0.02,
                 .profile = "josm"};
  sc_step stp = {.id = "zoom", .expect = &e, .nexpect = 1};
  sc_image *b = crop("m-hatch-100m.png"), *black = NULL;
  assert_int_equal(sc_image_new(&black, 200, 34), 0);
  sc__frame fb = {.img = b, .clip = {0, 0, 200, 34}}, fk = {.img = black, .clip = {0, 0, 200, 34}};
  sc__scale sb;
  sc__scale_read(&sb, &fb, g_regions[0].r, "josm");
  assert_true(sb.ok);
  sc__judge_ctx ctx = {&g_s, &fb, &fk, NULL, NULL, NULL, NULL, &sb, 1000, NULL, NULL};
  sc__verdict v;
  sc__judge_expect(&v, &stp, 0, &ctx);
  assert_false(v.holds);
  assert_non_null(strstr(v.reason, "scale bar scalebar unreadable"));
  /* Unreadable before the gesture: also a failure, never a pass. */
  sc__scale bad;
  sc__scale_read(&bad, &fk, g_regions[0].r, "josm");
  assert_false(bad.ok);
  ctx.before = &fk;
  ctx.cur = &fb;
  ctx.scale_before = &bad;
  sc__judge_expect(&v, &stp, 0, &ctx);
  assert_false(v.holds);
  assert_non_null(strstr(v.reason, "unreadable before the gesture"));
  sc_image_free(b);
  sc_image_free(black);
}

static void text_equals_and_matches(void **st) {
  (void)st;
  sc_image *img = crop("m-hatch-100m.png");
  sc__frame f = {.img = img, .clip = {0, 0, 200, 34}};
  sc_expect e = {.kind = SC_EXPECT_TEXT, .region = 1, .text_equals = "100.0 m", .glyphs = "josm"};
  sc_step stp = {.id = "t", .expect = &e, .nexpect = 1};
  sc__judge_ctx ctx = {&g_s, &f, &f, NULL, NULL, NULL, NULL, NULL, 10, NULL, NULL};
  sc__verdict v;
  /* Judging text needs the scenario's prepared patterns and glyph sets. */
  sc__judge_expect(&v, &stp, 0, &ctx);
  assert_false(v.holds);
  assert_string_equal(v.reason, "text in label: not prepared");
  sc_scenario s = g_s;
  s.steps = &stp;
  s.nsteps = 1;
  sc__judge_prep *prep = NULL;
  assert_int_equal(sc__judge_prep_new(&prep, &s), 0);
  ctx.prep = prep;
  sc__judge_expect(&v, &stp, 0, &ctx);
  assert_true(v.holds);
  assert_false(v.shows_change); /* the same text was there before: no change */
  sc_image *other = crop("m-hatch-20m.png");
  sc__frame fo = {.img = other, .clip = {0, 0, 200, 34}};
  ctx.before = &fo;
  sc__judge_expect(&v, &stp, 0, &ctx);
  assert_true(v.holds && v.shows_change);
  ctx.before = &f;
  sc_image_free(other);
  e.text_equals = "20.0 m";
  sc__judge_expect(&v, &stp, 0, &ctx);
  assert_false(v.holds);
  assert_string_equal(v.reason, "text in label \"100.0 m\" (want \"20.0 m\")");
  /* Patterns are compiled when the scenario is prepared: one per
   * expectation, here three prepared in turn. */
  const char *pats[] = {"^[0-9]+\\.[0-9] m$", "km$", "([a-z]+"};
  for (int i = 0; i < 3; i++) {
    sc__judge_prep_free(prep);
    e.text_equals = NULL;
    e.text_match = (char *)pats[i];
    assert_int_equal(sc__judge_prep_new(&prep, &s), 0);
    ctx.prep = prep;
    sc__judge_expect(&v, &stp, 0, &ctx);
    assert_int_equal(v.holds, i == 0);
  }
  assert_string_equal(v.reason, "text in label: bad pattern ([a-z]+");
  /* An unknown glyph set fails the expectation with the loader's reason. */
  sc__judge_prep_free(prep);
  e.glyphs = "no-such-set";
  assert_int_equal(sc__judge_prep_new(&prep, &s), 0);
  ctx.prep = prep;
  sc__judge_expect(&v, &stp, 0, &ctx);
  assert_false(v.holds);
  assert_non_null(strstr(v.reason, "no-such-set"));
  sc__judge_prep_free(prep);
  sc_image_free(img);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(three_notches_in_read_x0_125),
      cmocka_unit_test(wrong_factor_fails_naming_it),
      cmocka_unit_test(unchanged_reading_is_not_a_zoom),
      cmocka_unit_test(unreadable_bar_never_passes),
      cmocka_unit_test(text_equals_and_matches),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
