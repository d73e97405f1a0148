/* The scenario model read through the public accessors only (this file
 * includes nothing of lib/): every part of a loaded scenario is reachable,
 * each expectation kind comes back as scenario JSON that loads into the
 * same expectation, out-of-range and NULL read as nothing, and the two
 * setters take only what the file would. */
#include <string.h>

#include "stepcheck.h"
#include "testutil.h"

static const char *FILE_TEXT =
    "{\"app\": \"a\", \"url\": \"http://x/\", \"viewport\": {\"width\": 800, \"height\": 600},\n"
    " \"guest\": {\"width\": 640, \"height\": 480}, \"canvas\": \"#screen canvas\",\n"
    " \"points\": {\"p\": [5, 6]},\n"
    " \"regions\": {\"r\": [0, 0, 10, 10], \"bar\": [20, 20, 100, 12]},\n"
    " \"setup\": [{\"id\": \"ready\", \"none\": true, \"expect\": [{\"stable\": \"r\"}]}],\n"
    " \"cycle\": [\n"
    "  {\"id\": \"click\", \"click\": \"p\", \"timeout_ms\": 4000, \"expect\": [\n"
    "    {\"changed\": \"r\", \"min_pixels\": 7},\n"
    "    {\"unchanged\": \"bar\", \"max_pixels\": 3, \"max_ratio\": 0.25},\n"
    "    {\"equals\": \"r\", \"snapshot\": \"start\"},\n"
    "    {\"color\": \"r\", \"rgb\": \"ff8000\", \"tol\": 9, \"absent\": true}]},\n"
    "  {\"id\": \"wheel\", \"wheel\": {\"at\": [7, 8], \"notches\": -3}, \"expect\": [\n"
    "    {\"scale\": \"bar\", \"factor\": 0.125, \"profile\": \"josm\"}]},\n"
    "  {\"id\": \"key\", \"key\": {\"key\": \"Control+a\", \"repeat\": 2}, \"expect\": [\n"
    "    {\"text\": \"bar\", \"match\": \"^[0-9]+ m$\", \"glyphs\": \"josm\"}]},\n"
    "  {\"id\": \"move\", \"move\": [1, 2], \"expect\": [{\"stable\": \"r\"}]}]}";

static sc_scenario *load(const char *text) {
  sc_scenario *s = NULL;
  if (sc_scenario_parse(&s, text, "t.json")) fail_msg("%s", sc_errmsg());
  return s;
}

static void every_part_is_reachable(void **st) {
  (void)st;
  sc_scenario *s = load(FILE_TEXT);
  assert_string_equal(sc_scenario_path(s), "t.json");
  assert_string_equal(sc_scenario_app(s), "a");
  assert_string_equal(sc_scenario_url(s), "http://x/");
  int w, h;
  sc_scenario_guest_size(s, &w, &h);
  assert_int_equal(w, 640);
  assert_int_equal(h, 480);
  sc_scenario_viewport(s, &w, &h);
  assert_int_equal(w, 800);
  assert_int_equal(h, 600);
  assert_string_equal(sc_scenario_canvas(s), "#screen canvas");
  assert_string_equal(sc_scenario_rest(s), "paint-log");

  assert_int_equal(sc_scenario_nregions(s), 2);
  int bar = sc_scenario_region(s, "bar");
  assert_true(bar >= 0);
  assert_string_equal(sc_scenario_region_name(s, (size_t)bar), "bar");
  sc_rect r = sc_scenario_region_rect(s, (size_t)bar);
  assert_int_equal(r.x, 20);
  assert_int_equal(r.w, 100);
  assert_int_equal(r.h, 12);
  assert_int_equal(sc_scenario_npoints(s), 1);
  assert_string_equal(sc_scenario_point_name(s, 0), "p");
  assert_true(sc_scenario_point(s, 0).x == 5 && sc_scenario_point(s, 0).y == 6);

  assert_int_equal(sc_scenario_nsetup(s), 1);
  assert_string_equal(sc_step_id(sc_scenario_setup_step(s, 0)), "ready");
  assert_int_equal(sc_step_action(sc_scenario_setup_step(s, 0)), SC_ACTION_NONE);
  assert_int_equal(sc_scenario_nsteps(s), 4);

  const sc_step *c = sc_scenario_step(s, 0);
  sc_point at = {0, 0};
  assert_int_equal(sc_step_action(c), SC_ACTION_CLICK);
  assert_int_equal(sc_step_point(c, &at), 1);
  assert_true(at.x == 5 && at.y == 6);
  assert_true(sc_step_timeout_ms(c) == 4000);
  assert_int_equal(sc_step_line(c), 7);
  assert_int_equal(sc_step_nexpect(c), 4);
  assert_int_equal(sc_expect_kind_of(sc_step_expect(c, 0)), SC_EXPECT_CHANGED);
  assert_string_equal(sc_scenario_region_name(s, (size_t)sc_expect_region(sc_step_expect(c, 1))),
                      "bar");

  const sc_step *wh = sc_scenario_step(s, 1);
  assert_int_equal(sc_step_action(wh), SC_ACTION_WHEEL);
  assert_int_equal(sc_step_notches(wh), -3);
  assert_int_equal(sc_step_point(wh, &at), 1);
  assert_true(at.x == 7 && at.y == 8);

  const sc_step *k = sc_scenario_step(s, 2);
  int rep = 0;
  assert_string_equal(sc_step_key(k, &rep), "Control+a");
  assert_int_equal(rep, 2);
  assert_int_equal(sc_step_point(k, NULL), 0); /* a key without "at" */
  assert_null(sc_step_key(wh, &rep));
  assert_int_equal(rep, 0);
  assert_int_equal(sc_step_notches(k), 0);
  assert_int_equal(sc_step_action(sc_scenario_step(s, 3)), SC_ACTION_MOVE);
  sc_scenario_free(s);
}

/* What each kind turns into: every key the loader reads, defaults applied. */
static void expectations_as_json(void **st) {
  (void)st;
  sc_scenario *s = load(FILE_TEXT);
  static const char *const want[][4] = {
      {"{\"changed\":\"r\",\"threshold\":0.10000000000000001,\"min_pixels\":7}",
       "{\"unchanged\":\"bar\",\"threshold\":0.10000000000000001,\"max_pixels\":3,\"max_ratio\":0.25}",
       "{\"equals\":\"r\",\"threshold\":0.10000000000000001,\"max_pixels\":0,\"snapshot\":\"start\"}",
       "{\"color\":\"r\",\"rgb\":\"ff8000\",\"tol\":9,\"min_pixels\":1,\"absent\":true}"},
      {"{\"scale\":\"bar\",\"factor\":0.125,\"tol\":0.02,\"profile\":\"josm\"}"},
      {"{\"text\":\"bar\",\"match\":\"^[0-9]+ m$\",\"glyphs\":\"josm\"}"},
      {"{\"stable\":\"r\",\"threshold\":0.10000000000000001,\"max_pixels\":0}"},
  };
  for (size_t i = 0; i < 4; i++) {
    const sc_step *stp = sc_scenario_step(s, i);
    for (size_t j = 0; j < sc_step_nexpect(stp); j++) {
      char *txt = sc_expect_json(s, sc_step_expect(stp, j));
      assert_non_null(txt);
      assert_string_equal(txt, want[i][j]);
      sc_free(txt);
    }
  }
  assert_null(sc_expect_json(s, NULL));
  assert_null(sc_expect_json(NULL, sc_step_expect(sc_scenario_step(s, 0), 0)));
  sc_scenario_free(s);
}

/* The JSON of every expectation of the shipped JOSM example, put back into
 * a scenario, loads into an expectation with the same JSON. */
static void json_loads_back_the_same(void **st) {
  (void)st;
  sc_scenario *s = load(FILE_TEXT);
  for (size_t i = 0; i < sc_scenario_nsteps(s); i++) {
    const sc_step *stp = sc_scenario_step(s, i);
    for (size_t j = 0; j < sc_step_nexpect(stp); j++) {
      char *txt = sc_expect_json(s, sc_step_expect(stp, j));
      char doc[2048];
      snprintf(doc, sizeof doc,
               "{\"app\": \"a\", \"url\": \"http://x/\", \"viewport\": {\"width\": 800, "
               "\"height\": 600}, \"guest\": {\"width\": 640, \"height\": 480},"
               " \"regions\": {\"r\": [0, 0, 10, 10], \"bar\": [20, 20, 100, 12]},"
               " \"cycle\": [{\"id\": \"s0\", \"wheel\": {\"at\": [1, 1], \"notches\": 1},"
               " \"expect\": [%s]}]}",
               txt);
      sc_scenario *back = load(doc);
      char *again = sc_expect_json(back, sc_step_expect(sc_scenario_step(back, 0), 0));
      assert_string_equal(again, txt);
      sc_free(again);
      sc_free(txt);
      sc_scenario_free(back);
    }
  }
  sc_scenario_free(s);
}

static void nothing_reads_as_nothing(void **st) {
  (void)st;
  sc_scenario *s = load(FILE_TEXT);
  assert_null(sc_scenario_step(s, 4));
  assert_null(sc_scenario_setup_step(s, 1));
  assert_null(sc_scenario_region_name(s, 2));
  assert_int_equal(sc_scenario_region_rect(s, 99).w, 0);
  assert_null(sc_scenario_point_name(s, 1));
  assert_null(sc_step_expect(sc_scenario_step(s, 1), 1));
  assert_null(sc_scenario_app(NULL));
  assert_int_equal(sc_scenario_nsteps(NULL), 0);
  assert_null(sc_step_id(NULL));
  assert_int_equal(sc_step_nexpect(NULL), 0);
  assert_int_equal(sc_expect_region(NULL), -1);
  assert_int_equal((int)sc_expect_kind_of(NULL), 0);
  int w = 9;
  sc_scenario_guest_size(NULL, &w, NULL);
  assert_int_equal(w, 0);
  sc_scenario_free(s);
}

static void setters_take_what_the_file_would(void **st) {
  (void)st;
  sc_scenario *s = load(FILE_TEXT);
  assert_int_equal(sc_scenario_set_rest(s, "pairs"), 0);
  assert_string_equal(sc_scenario_rest(s), "pairs");
  assert_int_equal(sc_scenario_set_rest(s, "pair"), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "want paint-log or pairs"));
  assert_string_equal(sc_scenario_rest(s), "pairs");
  assert_int_equal(sc_scenario_set_canvas(s, "canvas.main"), 0);
  assert_string_equal(sc_scenario_canvas(s), "canvas.main");
  assert_int_equal(sc_scenario_set_canvas(s, ""), SC_EINVAL);
  assert_string_equal(sc_scenario_canvas(s), "canvas.main");
  assert_int_equal(sc_scenario_set_canvas(s, NULL), 0);
  assert_null(sc_scenario_canvas(s));
  /* The page options a run uses carry the selector (borrowed). */
  assert_int_equal(sc_scenario_set_canvas(s, "#c"), 0);
  sc_page_options po;
  sc_run_page_options(&po, s);
  assert_string_equal(po.canvas_selector, "#c");
  sc_scenario_free(s);

  /* In the file: a string, not empty. */
  sc_scenario *bad = NULL;
  const char *empty = "{\"app\": \"a\", \"url\": \"http://x/\", \"canvas\": \"\","
                      " \"viewport\": {\"width\": 8, \"height\": 8},"
                      " \"guest\": {\"width\": 8, \"height\": 8}, \"regions\": {\"r\": [0, 0, 2, 2]},"
                      " \"cycle\": [{\"id\": \"s\", \"click\": [1, 1], \"expect\": [{\"changed\": \"r\"}]}]}";
  assert_int_equal(sc_scenario_parse(&bad, empty, "e.json"), SC_ESCENARIO);
  assert_non_null(strstr(sc_errmsg(), "e.json:1:"));
  assert_non_null(strstr(sc_errmsg(), "\"canvas\" must be a non-empty string"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_part_is_reachable),
      cmocka_unit_test(expectations_as_json),
      cmocka_unit_test(json_loads_back_the_same),
      cmocka_unit_test(nothing_reads_as_nothing),
      cmocka_unit_test(setters_take_what_the_file_would),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
