/* Scenario loader: a full scenario resolves every field; defaults; lookups. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "stepcheck.h"
#include "scenario/model.h"

#define assert_double(a, b) assert_true((a) - (b) < 1e-9 && (b) - (a) < 1e-9)

static void full_scenario(void **st) {
  (void)st;
  const char *path = sc_test_fixture("scenario/valid-full.json");
  sc_scenario *s;
  int rc = sc_scenario_load(&s, path);
  if (rc) fail_msg("%s", sc_errmsg());
  assert_string_equal(s->path, path);
  assert_string_equal(s->app, "JOSM 19253");
  assert_string_equal(s->url, "http://127.0.0.1:6080/vnc_lite.html?autoconnect=1");
  assert_int_equal(s->viewport_w, 1600);
  assert_int_equal(s->viewport_h, 940);
  assert_int_equal(s->guest_w, 1600);
  assert_int_equal(s->guest_h, 900);
  assert_double(s->wheel_delta, 120);
  assert_double(s->notch_spacing_ms, 200);
  assert_double(s->double_click_ms, 600);
  assert_double(s->default_timeout_ms, 6000);
  assert_double(s->default_settle_ms, 250);

  assert_int_equal(s->npoints, 3);
  assert_string_equal(s->points[1].name, "map_centre");
  assert_double(s->points[1].p.x, 650.5);
  assert_double(s->points[1].p.y, 470.25);
  assert_int_equal(s->has_park, 1);
  assert_double(s->park.x, 1590);
  assert_double(s->park.y, 890);

  assert_int_equal(s->nregions, 5);
  int map = sc_scenario_region(s, "map"), tags = sc_scenario_region(s, "tags");
  int status = sc_scenario_region(s, "status"), scalebar = sc_scenario_region(s, "scalebar");
  int layers = sc_scenario_region(s, "layers");
  assert_int_equal(map, 0);
  assert_int_equal(tags, 1);
  assert_int_equal(sc_scenario_region(s, "nope"), -1);
  assert_int_equal(sc_scenario_region(s, NULL), -1);
  sc_rect r = s->regions[map].r; /* inset 4 applied */
  assert_int_equal(r.x, 4);
  assert_int_equal(r.y, 64);
  assert_int_equal(r.w, 1192);
  assert_int_equal(r.h, 792);
  r = s->regions[tags].r;
  assert_int_equal(r.x, 1210);
  assert_int_equal(r.y, 96);
  assert_int_equal(r.w, 380);
  assert_int_equal(r.h, 300);

  /* setup */
  assert_int_equal(s->nsetup, 2);
  sc_step *t = &s->setup[0];
  assert_string_equal(t->id, "ready");
  assert_int_equal(t->line, 22);
  assert_int_equal(t->action.kind, SC_ACTION_NONE);
  assert_double(t->timeout_ms, 30000);
  assert_double(t->settle_ms, 250);
  assert_int_equal(t->park, 1);
  assert_int_equal(t->nexpect, 2);
  assert_int_equal(t->expect[0].kind, SC_EXPECT_STABLE);
  assert_int_equal(t->expect[0].region, map);
  assert_double(t->expect[0].threshold, 0.05); /* from defaults */
  assert_int_equal(t->expect[0].max_pixels, 2);
  assert_int_equal(t->expect[1].kind, SC_EXPECT_EQUALS);
  assert_int_equal(t->expect[1].region, layers);
  assert_null(t->expect[1].snapshot);
  char want[4096];
  snprintf(want, sizeof want, "%s", sc_test_fixture("scenario/baseline/layers-empty.png"));
  assert_string_equal(t->expect[1].baseline, want);
  assert_double(t->expect[1].max_ratio, 0.01);
  t = &s->setup[1];
  assert_string_equal(t->id, "focus");
  assert_int_equal(t->action.kind, SC_ACTION_CLICK);
  assert_double(t->action.at.x, 600);
  assert_int_equal(t->nexpect, 0);
  assert_null(t->expect);

  /* cycle */
  assert_int_equal(s->nsteps, 5);
  t = &s->steps[0];
  assert_string_equal(t->id, "select-a");
  assert_int_equal(t->line, 28);
  assert_int_equal(t->action.kind, SC_ACTION_CLICK);
  assert_double(t->action.at.x, 534);
  assert_double(t->action.at.y, 272);
  assert_int_equal(t->park, 0);
  assert_double(t->timeout_ms, 6000);
  assert_int_equal(t->nexpect, 2);
  sc_expect *e = &t->expect[0];
  assert_int_equal(e->kind, SC_EXPECT_CHANGED);
  assert_int_equal(e->region, tags);
  assert_int_equal(e->min_pixels, 20);
  assert_double(e->threshold, 0.2);
  e = &t->expect[1];
  assert_int_equal(e->kind, SC_EXPECT_TEXT);
  assert_int_equal(e->region, status);
  assert_string_equal(e->text_match, "^Way [0-9]+$");
  assert_null(e->text_equals);
  assert_string_equal(e->glyphs, "josm");

  t = &s->steps[1];
  assert_string_equal(t->id, "zoom-in");
  assert_int_equal(t->action.kind, SC_ACTION_WHEEL);
  assert_double(t->action.at.x, 650.5);
  assert_double(t->action.at.y, 470.25);
  assert_int_equal(t->action.notches, -3);
  assert_double(t->settle_ms, 500);
  assert_int_equal(t->expect[0].kind, SC_EXPECT_CHANGED);
  assert_int_equal(t->expect[0].min_pixels, 1); /* default */
  e = &t->expect[1];
  assert_int_equal(e->kind, SC_EXPECT_SCALE);
  assert_int_equal(e->region, scalebar);
  assert_double(e->factor, 0.125);
  assert_double(e->factor_tol, 0.03);
  assert_string_equal(e->profile, "josm");

  t = &s->steps[2];
  assert_int_equal(t->action.kind, SC_ACTION_KEY);
  assert_string_equal(t->action.key, "NumpadSubtract");
  assert_int_equal(t->action.repeat, 3);
  assert_int_equal(t->action.has_at, 1);
  assert_double(t->action.at.x, 650);
  e = &t->expect[0];
  assert_int_equal(e->kind, SC_EXPECT_EQUALS);
  assert_string_equal(e->snapshot, "zoom-in");
  assert_null(e->baseline);
  assert_int_equal(e->max_pixels, 10);
  e = &t->expect[1];
  assert_int_equal(e->kind, SC_EXPECT_COLOR);
  assert_int_equal(e->rgb, 0xff8000);
  assert_int_equal(e->color_tol, 40);
  assert_int_equal(e->min_pixels, 30);
  assert_int_equal(e->absent, 0);

  t = &s->steps[3];
  assert_string_equal(t->action.key, "Escape");
  assert_int_equal(t->action.repeat, 1);
  assert_int_equal(t->action.has_at, 0);
  assert_double(t->timeout_ms, 4000);
  assert_string_equal(t->expect[0].snapshot, "start");
  assert_int_equal(t->expect[1].rgb, 0xff0000);
  assert_int_equal(t->expect[1].absent, 1);
  assert_int_equal(t->expect[1].min_pixels, 1);
  assert_int_equal(t->expect[1].color_tol, 0);
  assert_string_equal(t->expect[2].text_equals, "100.0 m");
  assert_null(t->expect[2].text_match);

  t = &s->steps[4];
  assert_int_equal(t->action.kind, SC_ACTION_MOVE);
  assert_double(t->action.at.y, 100);
  assert_int_equal(t->expect[0].kind, SC_EXPECT_UNCHANGED);
  assert_double(t->expect[0].max_ratio, 0.5);
  assert_int_equal(t->expect[0].max_pixels, 2);
  assert_int_equal(t->expect[1].kind, SC_EXPECT_STABLE);
  assert_int_equal(t->expect[1].max_pixels, 0);

  assert_int_equal(s->drift, SC_DRIFT_FAIL);
  assert_int_equal(s->ndrift, 2);
  assert_int_equal(s->drift_regions[0], map);
  assert_int_equal(s->drift_regions[1], tags);
  /* Drift tolerance follows "defaults" unless given. */
  assert_double(s->drift_threshold, 0.05);
  assert_int_equal(s->drift_max_pixels, 2);
  sc_scenario_free(s);
}

static const char *MINIMAL =
    "{\"app\": \"a\", \"url\": \"http://x/\", \"viewport\": {\"width\": 800, \"height\": 600},\n"
    " \"guest\": {\"width\": 800, \"height\": 600}, \"regions\": {\"r\": [0, 0, 10, 10]},\n"
    " \"cycle\": [{\"id\": \"s\", \"click\": [1, 2], \"expect\": [{\"changed\": \"r\"},\n"
    "   {\"equals\": \"r\", \"snapshot\": \"start\"}, {\"color\": \"r\", \"rgb\": \"000000\"}]}]}";

static void defaults_applied(void **st) {
  (void)st;
  sc_scenario *s;
  int rc = sc_scenario_parse(&s, MINIMAL, "mini.json");
  if (rc) fail_msg("%s", sc_errmsg());
  assert_string_equal(s->path, "mini.json");
  assert_double(s->wheel_delta, 100);
  assert_double(s->notch_spacing_ms, 250);
  assert_double(s->double_click_ms, 500);
  assert_double(s->default_timeout_ms, 8000);
  assert_double(s->default_settle_ms, 300);
  assert_int_equal(s->has_park, 0);
  assert_int_equal(s->npoints, 0);
  assert_int_equal(s->nsetup, 0);
  assert_null(s->setup);
  assert_int_equal(s->drift, SC_DRIFT_WARN);
  assert_int_equal(s->ndrift, 0);
  assert_null(s->drift_regions);
  assert_double(s->drift_threshold, 0.1);
  assert_int_equal(s->drift_max_pixels, 0);
  const sc_step *t = &s->steps[0];
  assert_double(t->timeout_ms, 8000);
  assert_double(t->settle_ms, 300);
  assert_int_equal(t->park, 1);
  assert_int_equal(t->line, 3);
  assert_double(t->expect[0].threshold, 0.1);
  assert_int_equal(t->expect[0].min_pixels, 1);
  assert_int_equal(t->expect[1].max_pixels, 0);
  assert_double(t->expect[1].max_ratio, 0);
  assert_int_equal(t->expect[2].color_tol, 0);
  assert_int_equal(t->expect[2].min_pixels, 1);
  assert_int_equal(t->expect[2].rgb, 0);
  sc_scenario_free(s);
  sc_scenario_free(NULL);
}

static void bad_arguments_and_io(void **st) {
  (void)st;
  sc_scenario *s = (sc_scenario *)1;
  assert_int_equal(sc_scenario_load(&s, "/nonexistent/x.json"), SC_EIO);
  assert_null(s);
  assert_non_null(strstr(sc_errmsg(), "/nonexistent/x.json"));
  assert_int_equal(sc_scenario_validate("/nonexistent/x.json", NULL, NULL), SC_EIO);
  assert_int_equal(sc_scenario_load(NULL, "x"), SC_EINVAL);
  assert_int_equal(sc_scenario_parse(&s, NULL, "x"), SC_EINVAL);
  /* parse names "<string>" when no name is given */
  assert_int_equal(sc_scenario_parse(&s, "[]", NULL), SC_ESCENARIO);
  assert_string_equal(sc_errmsg(), "<string>:1:1: a scenario must be a JSON object");
}

static void validate_valid_is_zero(void **st) {
  (void)st;
  assert_int_equal(sc_scenario_validate(sc_test_fixture("scenario/valid-full.json"), NULL, NULL), 0);
}

/* "note" is a comment on any object (even first in an expectation, even in
 * the points and regions maps, where it names nothing), and "url" may be
 * left to the run. */
static void notes_and_no_url(void **st) {
  (void)st;
  sc_scenario *s = NULL;
  assert_int_equal(sc_scenario_load(&s, sc_test_fixture("scenario/valid-notes.json")), 0);
  assert_null(sc_scenario_url(s));
  assert_int_equal(s->npoints, 2);
  assert_int_equal(s->nregions, 2);
  assert_string_equal(s->regions[1].name, "status");
  const sc_expect *e = &s->steps[0].expect[0];
  assert_int_equal(e->kind, SC_EXPECT_CHANGED);
  assert_int_equal(e->min_pixels, 5);
  assert_int_equal(s->steps[0].expect[1].kind, SC_EXPECT_SCALE);
  sc_scenario_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(notes_and_no_url),
      cmocka_unit_test(full_scenario),
      cmocka_unit_test(defaults_applied),
      cmocka_unit_test(bad_arguments_and_io),
      cmocka_unit_test(validate_valid_is_zero),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
