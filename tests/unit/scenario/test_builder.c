/* Scenarios built in C: the model equals what the same file gives, strings
 * with quotes and backslashes survive, the loader's rules apply (with its
 * messages), and errors are sticky. */
#include <string.h>

#include "stepcheck.h"
#include "testutil.h"
#include "scenario/model.h"

static const char k_url[] = "http://127.0.0.1:8080/app?x=\"q\"&y=\\z";

static sc_builder *base(void) {
  sc_builder *b = NULL;
  assert_int_equal(sc_builder_new(&b, "my \"app\"", k_url, 800, 600), 0);
  assert_int_equal(sc_builder_region(b, "map", (sc_rect){0, 0, 600, 500}), 0);
  assert_int_equal(sc_builder_region(b, "bar", (sc_rect){10, 520, 200, 30}), 0);
  assert_int_equal(sc_builder_point(b, "centre", (sc_point){300.5, 250}), 0);
  assert_int_equal(sc_builder_park(b, (sc_point){790, 590}), 0);
  return b;
}

static void builds_the_model(void **st) {
  (void)st;
  sc_builder *b = base();
  assert_int_equal(sc_builder_input(b, 120, 200), 0);
  assert_int_equal(sc_builder_drift(b, SC_DRIFT_OFF), 0);
  assert_int_equal(sc_builder_setup_step(b, "ready"), 0);
  assert_int_equal(sc_builder_expect_stable(b, "map"), 0);
  assert_int_equal(sc_builder_step(b, "zoom-in"), 0);
  assert_int_equal(sc_builder_wheel(b, (sc_point){300, 250}, -3), 0);
  assert_int_equal(sc_builder_timing(b, 5000, 400), 0);
  assert_int_equal(sc_builder_expect_changed(b, "map", 10), 0);
  assert_int_equal(sc_builder_expect_scale(b, "bar", 0.125, "josm"), 0);
  assert_int_equal(sc_builder_step(b, "zoom-out"), 0);
  assert_int_equal(sc_builder_key(b, "NumpadSubtract", 3), 0);
  assert_int_equal(sc_builder_expect_equals(b, "map", "zoom-in"), 0);
  assert_int_equal(sc_builder_expect_color(b, "map", 0xff8000, 40, 1), 0);
  assert_int_equal(sc_builder_step(b, "look"), 0);
  assert_int_equal(sc_builder_click(b, (sc_point){1, 2}), 0);
  assert_int_equal(sc_builder_expect_text(b, "bar", NULL, "^[0-9]+ m$", "josm"), 0);
  assert_int_equal(sc_builder_expect_unchanged(b, "bar", 0), 0);
  sc_scenario *s = NULL;
  int rc = sc_builder_finish(&s, b);
  if (rc) print_message("%s\n", sc_errmsg());
  assert_int_equal(rc, 0);
  assert_string_equal(s->app, "my \"app\"");
  assert_string_equal(s->url, k_url);
  assert_int_equal(s->guest_w, 800);
  assert_int_equal(s->viewport_h, 640);
  assert_true(s->wheel_delta == 120);
  assert_true(s->has_park && s->park.x == 790);
  assert_int_equal(s->drift, SC_DRIFT_OFF);
  assert_int_equal(s->nsetup, 1);
  assert_int_equal(s->nsteps, 3);
  const sc_step *z = &s->steps[0];
  assert_string_equal(z->id, "zoom-in");
  assert_int_equal(z->action.kind, SC_ACTION_WHEEL);
  assert_int_equal(z->action.notches, -3);
  assert_true(z->timeout_ms == 5000 && z->settle_ms == 400);
  assert_int_equal(z->nexpect, 2);
  assert_int_equal(z->expect[0].kind, SC_EXPECT_CHANGED);
  assert_int_equal(z->expect[0].min_pixels, 10);
  assert_int_equal(z->expect[1].kind, SC_EXPECT_SCALE);
  assert_true(z->expect[1].factor == 0.125);
  const sc_step *o = &s->steps[1];
  assert_int_equal(o->action.kind, SC_ACTION_KEY);
  assert_string_equal(o->action.key, "NumpadSubtract");
  assert_int_equal(o->action.repeat, 3);
  assert_string_equal(o->expect[0].snapshot, "zoom-in");
  assert_int_equal(o->expect[1].rgb, 0xff8000);
  assert_true(o->expect[1].absent);
  assert_string_equal(s->steps[2].expect[0].text_match, "^[0-9]+ m$");
  assert_int_equal(s->regions[sc_scenario_region(s, "bar")].r.y, 520);
  sc_scenario_free(s);
}

/* The loader's rules hold for built scenarios, with its message. */
static void loader_rules_apply(void **st) {
  (void)st;
  sc_builder *b = base();
  assert_int_equal(sc_builder_region(b, "outside", (sc_rect){700, 0, 200, 10}), 0);
  assert_int_equal(sc_builder_step(b, "a"), 0);
  assert_int_equal(sc_builder_click(b, (sc_point){1, 1}), 0);
  assert_int_equal(sc_builder_expect_changed(b, "map", 1), 0);
  sc_scenario *s = NULL;
  assert_int_equal(sc_builder_finish(&s, b), SC_ESCENARIO);
  assert_null(s);
  assert_non_null(strstr(sc_errmsg(), "outside"));

  b = base();
  assert_int_equal(sc_builder_step(b, "a"), 0);
  assert_int_equal(sc_builder_click(b, (sc_point){1, 1}), 0);
  assert_int_equal(sc_builder_expect_equals(b, "map", "b"), 0); /* a later step */
  assert_int_equal(sc_builder_step(b, "b"), 0);
  assert_int_equal(sc_builder_click(b, (sc_point){2, 2}), 0);
  assert_int_equal(sc_builder_expect_changed(b, "nosuch", 1), 0);
  assert_int_equal(sc_builder_finish(&s, b), SC_ESCENARIO);
  assert_non_null(strstr(sc_errmsg(), "\"a\""));
}

static void errors_stick(void **st) {
  (void)st;
  sc_builder *b = base();
  assert_int_equal(sc_builder_click(b, (sc_point){1, 1}), SC_EINVAL); /* no step yet */
  assert_non_null(strstr(sc_errmsg(), "no step begun"));
  assert_int_equal(sc_builder_step(b, "a"), SC_EINVAL);               /* sticks */
  assert_int_equal(sc_builder_expect_changed(b, "map", 1), SC_EINVAL);
  sc_scenario *s = NULL;
  assert_int_equal(sc_builder_finish(&s, b), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "no step begun"));
  assert_null(s);

  b = base();
  assert_int_equal(sc_builder_step(b, "a"), 0);
  assert_int_equal(sc_builder_click(b, (sc_point){1, 1}), 0);
  assert_int_equal(sc_builder_key(b, "a", 1), SC_EINVAL); /* a second gesture */
  assert_non_null(strstr(sc_errmsg(), "already has a gesture"));
  sc_builder_free(b);

  b = base();
  assert_int_equal(sc_builder_region(b, NULL, (sc_rect){0, 0, 1, 1}), SC_EINVAL);
  sc_builder_free(b);
  assert_int_equal(sc_builder_new(&b, "", "http://x/", 1, 1), SC_EINVAL);
  assert_int_equal(sc_builder_step(NULL, "a"), SC_EINVAL);
  assert_int_equal(sc_builder_finish(NULL, NULL), SC_EINVAL);
  sc_builder_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(builds_the_model),
      cmocka_unit_test(loader_rules_apply),
      cmocka_unit_test(errors_stick),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
