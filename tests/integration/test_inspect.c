/* stepcheck inspect on the fixture map app in real Chromium: a locator
 * that is not found still gets its picture (SC_ELOCATE, *out set) with
 * what the file gives drawn and the failed locator's best candidates
 * outlined in red at the places and scores its message names; a found one
 * is drawn where it was found. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stepcheck.h"

#define MISS 0xff3030ffu
#define REGION 0xff00ffffu
#define POINT 0x00ffffffu

typedef struct lines {
  char text[8192];
} lines;

static void keep(const char *text, void *ud) {
  lines *l = ud;
  size_t n = strlen(l->text);
  snprintf(l->text + n, sizeof l->text - n, "%s\n", text);
}

/* locators.json with building_a's template replaced by tpl (absolute). */
static sc_scenario *with_template(const char *tpl) {
  char *text = sc_test_slurp(sc_test_fixture("mapapp/locators.json"), NULL);
  assert_non_null(text);
  const char *old = "\"templates/house94.png\"";
  char *at = strstr(text, old);
  assert_non_null(at);
  size_t len = strlen(text) + strlen(tpl) + 8;
  char *t = malloc(len);
  snprintf(t, len, "%.*s\"%s\"%s", (int)(at - text), text, tpl, at + strlen(old));
  sc_scenario *s = NULL;
  if (sc_scenario_parse(&s, t, sc_test_fixture("mapapp/locators.json")) < 0)
    fail_msg("%s", sc_errmsg());
  free(text);
  free(t);
  return s;
}

static int inspect(sc_image **img, const sc_scenario *s, lines *l) {
  char url[4096];
  snprintf(url, sizeof url, "file://%s", sc_test_fixture("mapapp/index.html"));
  sc_page_options po;
  sc_run_page_options(&po, s);
  sc_page *p = NULL;
  assert_int_equal(sc_page_open(&p, sc_test_b, url, &po), 0);
  int rc = sc_inspect(img, p, s, keep, l);
  sc_page_free(p);
  return rc;
}

static void a_failed_locator_gets_its_picture(void **st) {
  (void)st;
  /* building 94 with its top four rows painted blue: nowhere on the screen */
  char *dir = sc_test_mkdtemp(), tpl[512];
  snprintf(tpl, sizeof tpl, "%s/house94-blue.png", dir);
  sc_image *t = NULL;
  assert_int_equal(sc_image_load_png(&t, sc_test_fixture("mapapp/templates/house94.png"), NULL), 0);
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < t->width; x++) {
      uint8_t *px = t->px + (size_t)y * t->stride + (size_t)x * 4;
      px[0] = 0, px[1] = 0, px[2] = 255, px[3] = 255;
    }
  assert_int_equal(sc_image_save_png(t, tpl), 0);
  sc_scenario *s = with_template(tpl);
  sc_image *img = NULL;
  lines l = {""};
  assert_int_equal(inspect(&img, s, &l), SC_ELOCATE);
  assert_non_null(img);
  const char *msg = sc_errmsg();
  assert_non_null(strstr(msg, "locator \"building_a\": template "));
  /* the best candidate: building 94 itself, with the score the blue leaves */
  const char *best = strstr(msg, "best: (");
  assert_non_null(best);
  int x = 0, y = 0;
  double score = 0;
  assert_int_equal(sscanf(best, "best: (%d,%d) %lf", &x, &y, &score), 3);
  assert_int_equal(x, 545); /* house94.png's top-left where the page draws 94 */
  assert_int_equal(y, 496);
  assert_true(score > 0.6 && score < 0.99);
  char want[128];
  snprintf(want, sizeof want, "candidate 1 for building_a at %d,%d %dx%d score %.3f", x, y,
           t->width, t->height, score);
  if (!strstr(l.text, want)) fail_msg("no '%s' in:\n%s", want, l.text);
  /* outlined in red, twice (at the place and one pixel out) */
  assert_int_equal(sc_image_pixel(img, x, y), MISS);
  assert_int_equal(sc_image_pixel(img, x + t->width - 1, y + t->height - 1), MISS);
  assert_int_equal(sc_image_pixel(img, x - 1, y + 3), MISS);
  /* every candidate named in the lines is outlined */
  int n = 0;
  for (const char *c = strstr(l.text, "candidate "); c; c = strstr(c + 1, "candidate ")) {
    int cx, cy, cw, ch, k;
    char nm[64];
    if (sscanf(c, "candidate %d for %63s at %d,%d %dx%d", &k, nm, &cx, &cy, &cw, &ch) != 6) continue;
    assert_int_equal(sc_image_pixel(img, cx, cy), MISS);
    assert_int_equal(sc_image_pixel(img, cx + cw - 1, cy), MISS);
    n++;
  }
  assert_true(n >= 2);
  /* what the file gives is drawn: the map region (41,66 after its inset)
   * and map_centre's cross; what depends on building_a is left out */
  assert_int_equal(sc_image_pixel(img, 41, 300), REGION);
  assert_int_equal(sc_image_pixel(img, 651 + 6, 470), POINT);
  assert_null(strstr(l.text, "point empty "));
  sc_image_free(img);
  sc_image_free(t);
  sc_scenario_free(s);
  sc_test_rmtree(dir);
  free(dir);
}

static void found_locators_are_drawn_where_found(void **st) {
  (void)st;
  char tpl[512]; /* sc_test_fixture's buffer is reused */
  snprintf(tpl, sizeof tpl, "%s", sc_test_fixture("mapapp/templates/house94.png"));
  sc_scenario *s = with_template(tpl);
  sc_image *img = NULL;
  lines l = {""};
  if (inspect(&img, s, &l) != 0) fail_msg("%s", sc_errmsg());
  assert_non_null(strstr(l.text, "located point building_a at 554.5,503 score 1.000"));
  assert_null(strstr(l.text, "candidate "));
  assert_int_equal(sc_image_pixel(img, 545, 496), POINT); /* its match, outlined */
  sc_image_free(img);
  sc_scenario_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_failed_locator_gets_its_picture),
      cmocka_unit_test(found_locators_are_drawn_where_found),
  };
  return cmocka_run_group_tests(tests, sc_test_browser_up, sc_test_browser_down);
}
