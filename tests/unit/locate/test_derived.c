/* Derived points (lib/locate): "centre" of a region, and a "quiet" spot
 * of a region nearest an anchor with no ink within a radius, on the map
 * app moved by (64, 32) (fixtures/mapapp/guest-pan64-32.png); a radius no
 * place allows is "not found" naming the locator; validate refuses them
 * where they do not belong, with positions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "locate/locate.h"
#include "testutil.h"

/* locators.json with "empty" and "map_centre" replaced. */
static sc_scenario *with(const char *empty, const char *centre, int want_ok) {
  char path[1024];
  snprintf(path, sizeof path, "%s", sc_test_fixture("mapapp/locators.json"));
  char *text = sc_test_slurp(path, NULL);
  assert_non_null(text);
  const char *e = "{\"from\": \"building_a\", \"offset\": [-31.5, 0]}", *c = "[651, 470]";
  char *ae = strstr(text, e), *ac = strstr(text, c);
  assert_true(ae && ac && ac > ae);
  size_t len = strlen(text) + strlen(empty) + strlen(centre) + 1;
  char *t = malloc(len);
  snprintf(t, len, "%.*s%s%.*s%s%s", (int)(ae - text), text, empty, (int)(ac - ae - strlen(e)),
           ae + strlen(e), centre, ac + strlen(c));
  sc_scenario *s = NULL;
  int rc = sc_scenario_parse(&s, t, path);
  free(text);
  free(t);
  if (want_ok && rc < 0) fail_msg("%s", sc_errmsg());
  if (!want_ok) assert_int_equal(rc, SC_ESCENARIO);
  return s;
}

static sc_point point(const sc_scenario *s, const char *name) {
  for (size_t i = 0; i < s->npoints; i++)
    if (!strcmp(s->points[i].name, name)) return s->points[i].p;
  fail_msg("no point %s", name);
  return (sc_point){0, 0};
}

static int locate(sc_scenario **r, const sc_scenario *s, const sc_image *img) {
  sc_located **f = NULL;
  size_t n = 0;
  int rc = sc__locate(r, &f, &n, s, img, 0, NULL, NULL);
  for (size_t i = 0; i < n; i++) sc__free(f[i]);
  sc__free(f);
  return rc;
}

static void centre_and_quiet_spot(void **st) {
  (void)st;
  sc_scenario *s = with("{\"quiet\": \"map\", \"near\": \"building_a\", \"radius\": 6}",
                        "{\"centre\": \"map\"}", 1);
  sc_image *img = NULL;
  assert_int_equal(sc_image_load_png(&img, sc_test_fixture("mapapp/guest-pan64-32.png"), NULL), 0);
  sc_scenario *r = NULL;
  if (locate(&r, s, img) != 0) fail_msg("%s", sc_errmsg());
  /* the map region after its inset: 41,66 1221x809 */
  sc_point c = point(r, "map_centre");
  assert_true(c.x == 41 + 1221 / 2.0 && c.y == 66 + 809 / 2.0);
  /* the quiet spot: near building 94 (its centre 618.5,535), and the
   * 13x13 square around it is one colour (no ink) */
  sc_point q = point(r, "empty"), a = point(r, "building_a");
  double d2 = (q.x - a.x) * (q.x - a.x) + (q.y - a.y) * (q.y - a.y);
  assert_true(d2 > 10 * 10 && d2 < 40 * 40);
  uint32_t at = sc_image_pixel(img, (int)q.x, (int)q.y);
  for (int y = (int)q.y - 6; y <= (int)q.y + 6; y++)
    for (int x = (int)q.x - 6; x <= (int)q.x + 6; x++) {
      uint32_t p = sc_image_pixel(img, x, y);
      for (int sh = 8; sh < 32; sh += 8)
        assert_true(abs((int)(p >> sh & 0xff) - (int)(at >> sh & 0xff)) <= 24);
    }
  /* and the deselect click goes there */
  for (size_t i = 0; i < r->nsteps; i++)
    if (!strcmp(r->steps[i].id, "deselect"))
      assert_true(r->steps[i].action.at.x == q.x && r->steps[i].action.at.y == q.y);
  sc__located_free(r);
  sc_scenario_free(s);
  /* a radius no place allows: not found, naming the locator */
  s = with("{\"quiet\": \"map\", \"near\": \"building_a\", \"radius\": 200}", "{\"centre\": \"map\"}", 1);
  assert_int_equal(locate(&r, s, img), SC_ELOCATE);
  assert_non_null(strstr(sc_errmsg(), "locator \"empty\": no quiet spot in region \"map\" (41,66 1221x809)"));
  sc_scenario_free(s);
  sc_image_free(img);
}

static void refused_where_they_do_not_belong(void **st) {
  (void)st;
  with("{\"quiet\": \"map\", \"radius\": 0}", "{\"centre\": \"map\"}", 0);
  assert_non_null(strstr(sc_errmsg(), "points \"empty\": \"radius\" must be from 1 to 200"));
  with("{\"quiet\": \"map\"}", "{\"centre\": \"map\", \"near\": \"park\"}", 0);
  assert_non_null(strstr(sc_errmsg(), "points \"map_centre\": \"near\" is for \"quiet\" locators"));
  with("{\"quiet\": \"nowhere\"}", "{\"centre\": \"map\"}", 0);
  const char *m = sc_errmsg();
  assert_non_null(strstr(m, "nowhere"));
  assert_non_null(strstr(m, "locators.json:")); /* FILE:LINE:COL */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(centre_and_quiet_spot),
      cmocka_unit_test(refused_where_they_do_not_belong),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
