/* Versioned options: every sc_<x>_options_init fills the INIT macro's
 * defaults for versions 1 .. current, refuses 0, current + 1 and NULL, and
 * for an older version never writes past that version's last field. */
#include "testutil.h"

#include <stddef.h>
#include <string.h>

#include "stepcheck.h"

#define CHECK_INIT(fn, type, ver)                                  \
  do {                                                             \
    type o;                                                        \
    memset(&o, 0x5a, sizeof o);                                    \
    assert_int_equal(fn(&o, ver), 0);                              \
    assert_int_equal(o.version, ver);                              \
    assert_int_equal(fn(NULL, ver), SC_EINVAL);                    \
    assert_int_equal(fn(&o, 0), SC_EINVAL);                        \
    assert_int_equal(fn(&o, (ver) + 1), SC_EINVAL);                \
    assert_non_null(strstr(sc_errmsg(), #fn));                     \
  } while (0)

static void every_init_matches_its_macro(void **state) {
  (void)state;
  CHECK_INIT(sc_browser_options_init, sc_browser_options, SC_BROWSER_OPTIONS_VERSION);
  CHECK_INIT(sc_grid_options_init, sc_grid_options, SC_GRID_OPTIONS_VERSION);
  CHECK_INIT(sc_png_limits_init, sc_png_limits, SC_PNG_LIMITS_VERSION);
  CHECK_INIT(sc_diff_options_init, sc_diff_options, SC_DIFF_OPTIONS_VERSION);
  CHECK_INIT(sc_load_options_init, sc_load_options, SC_LOAD_OPTIONS_VERSION);
  CHECK_INIT(sc_multi_options_init, sc_multi_options, SC_MULTI_OPTIONS_VERSION);
  CHECK_INIT(sc_page_options_init, sc_page_options, SC_PAGE_OPTIONS_VERSION);
  CHECK_INIT(sc_run_options_init, sc_run_options, SC_RUN_OPTIONS_VERSION);
  CHECK_INIT(sc_text_options_init, sc_text_options, SC_TEXT_OPTIONS_VERSION);
  CHECK_INIT(sc_search_options_init, sc_search_options, SC_SEARCH_OPTIONS_VERSION);

  /* Field by field against the macros (padding aside). */
  sc_page_options p, pm = SC_PAGE_OPTIONS_INIT;
  assert_int_equal(sc_page_options_init(&p, SC_PAGE_OPTIONS_VERSION), 0);
  assert_int_equal(p.viewport_w, pm.viewport_w);
  assert_int_equal(p.viewport_h, pm.viewport_h);
  assert_true(p.wheel_delta == pm.wheel_delta);
  assert_true(p.load_timeout_ms == pm.load_timeout_ms);
  sc_run_options r, rm = SC_RUN_OPTIONS_INIT;
  assert_int_equal(sc_run_options_init(&r, SC_RUN_OPTIONS_VERSION), 0);
  assert_int_equal(r.cycles, rm.cycles);
  assert_null(r.cancel);
  assert_true(r.pass_frames_bytes == rm.pass_frames_bytes && r.pass_frames_bytes == 0);
  sc_browser_options b, bm = SC_BROWSER_OPTIONS_INIT;
  assert_int_equal(sc_browser_options_init(&b, SC_BROWSER_OPTIONS_VERSION), 0);
  assert_true(b.launch_timeout_ms == bm.launch_timeout_ms);
  assert_int_equal(b.max_message_bytes, bm.max_message_bytes);
}

/* A caller built against an older version has a shorter struct: init must
 * stop at that version's end (bytes after it are the caller's neighbours). */
static void older_versions_are_cut_to_their_size(void **state) {
  (void)state;
  /* room for the largest struct checked here */
  unsigned char buf[(sizeof(sc_browser_options) > sizeof(sc_run_options)
                         ? sizeof(sc_browser_options)
                         : sizeof(sc_run_options)) +
                    16];
  memset(buf, 0xaa, sizeof buf);
  assert_int_equal(sc_browser_options_init((sc_browser_options *)(void *)buf, 1), 0);
  for (size_t i = offsetof(sc_browser_options, loop); i < sizeof buf; i++)
    assert_int_equal(buf[i], 0xaa);
  assert_int_equal(((sc_browser_options *)(void *)buf)->version, 1);

  memset(buf, 0xaa, sizeof buf);
  assert_int_equal(sc_run_options_init((sc_run_options *)(void *)buf, 1), 0);
  for (size_t i = offsetof(sc_run_options, cancel); i < sizeof(sc_run_options); i++)
    assert_int_equal(buf[i], 0xaa);
  assert_int_equal(((sc_run_options *)(void *)buf)->cycles, 1);

  /* version 2 ends after cancel: pass_frames_bytes (3) is the caller's neighbour */
  memset(buf, 0xaa, sizeof buf);
  assert_int_equal(sc_run_options_init((sc_run_options *)(void *)buf, 2), 0);
  for (size_t i = offsetof(sc_run_options, cancel) + sizeof(volatile int *); i < sizeof buf; i++)
    assert_int_equal(buf[i], 0xaa);
  assert_null(((sc_run_options *)(void *)buf)->cancel);

  /* sc_load_options version 2 ends after urls (pass_frames_bytes is 3's) */
  unsigned char lb[sizeof(sc_load_options) + 16];
  memset(lb, 0xaa, sizeof lb);
  assert_int_equal(sc_load_options_init((sc_load_options *)(void *)lb, 2), 0);
  for (size_t i = offsetof(sc_load_options, urls) + sizeof(const char *const *); i < sizeof lb;
       i++)
    assert_int_equal(lb[i], 0xaa);
  assert_null(((sc_load_options *)(void *)lb)->urls);

  memset(buf, 0xaa, sizeof buf);
  assert_int_equal(sc_png_limits_init((sc_png_limits *)(void *)buf, 1), 0);
  for (size_t i = offsetof(sc_png_limits, skip_checksums); i < sizeof(sc_png_limits); i++)
    assert_int_equal(buf[i], 0xaa);
}

/* One rule for every public function that takes options: version 0 and
 * current + 1 are SC_EINVAL, and the message names the function and the
 * struct (checked before anything else, so NULL other arguments are fine). */
#define REFUSES(call_with_bad, fn, type)                       \
  do {                                                         \
    assert_int_equal((call_with_bad), SC_EINVAL);              \
    assert_non_null(strstr(sc_errmsg(), fn ":"));              \
    assert_non_null(strstr(sc_errmsg(), type " version"));     \
  } while (0)

static void every_function_refuses_unknown_versions(void **state) {
  (void)state;
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, 8, 8), 0);
  sc_glyphset *gs = NULL;
  assert_int_equal(sc_glyphset_new(&gs, 0x000000, 10), 0);
  sc_rect r = {0, 0, 8, 8};
  size_t nd;
  for (int bad = 0; bad < 2; bad++) {
#define V(max) (bad ? (unsigned)(max) + 1 : 0u)
    sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
    bo.version = V(SC_BROWSER_OPTIONS_VERSION);
    sc_browser *b = NULL;
    REFUSES(sc_browser_launch(&b, &bo), "sc_browser_launch", "sc_browser_options");
    REFUSES(sc_browser_connect(&b, "127.0.0.1:9", &bo), "sc_browser_connect",
            "sc_browser_options");
    assert_null(b);

    sc_grid_options go = SC_GRID_OPTIONS_INIT;
    go.version = V(SC_GRID_OPTIONS_VERSION);
    sc_grid_session *g = NULL;
    REFUSES(sc_grid_session_new(&g, "http://127.0.0.1:9", &go), "sc_grid_session_new",
            "sc_grid_options");

    sc_png_limits pl = SC_PNG_LIMITS_INIT;
    pl.version = V(SC_PNG_LIMITS_VERSION);
    sc_image *out = NULL;
    REFUSES(sc_image_decode_png(&out, "x", 1, &pl), "sc_image_decode_png", "sc_png_limits");
    REFUSES(sc_image_load_png(&out, "/nonexistent.png", &pl), "sc_image_load_png",
            "sc_png_limits");

    sc_diff_options dopt = SC_DIFF_OPTIONS_INIT;
    dopt.version = V(SC_DIFF_OPTIONS_VERSION);
    REFUSES(sc_image_diff(&nd, NULL, NULL, img, r, img, r, &dopt), "sc_image_diff",
            "sc_diff_options");

    sc_search_options so = SC_SEARCH_OPTIONS_INIT;
    so.version = V(SC_SEARCH_OPTIONS_VERSION);
    sc_match mt[2];
    REFUSES(sc_image_search(mt, 2, NULL, img, img, &so), "sc_image_search", "sc_search_options");

    sc_page_options po = SC_PAGE_OPTIONS_INIT;
    po.version = V(SC_PAGE_OPTIONS_VERSION);
    sc_page *p = NULL;
    REFUSES(sc_page_open(&p, NULL, "about:blank", &po), "sc_page_open", "sc_page_options");

    sc_text_options to = SC_TEXT_OPTIONS_INIT;
    to.version = V(SC_TEXT_OPTIONS_VERSION);
    sc_text_result tr;
    REFUSES(sc_text_read(&tr, img, r, gs, &to), "sc_text_read", "sc_text_options");
    sc_text_match tm[2];
    REFUSES(sc_text_find(tm, 2, img, r, gs, "a", &to, NULL), "sc_text_find", "sc_text_options");
    sc_scale_reading sr;
    REFUSES(sc_scalebar_read(&sr, img, r, "josm", &to), "sc_scalebar_read", "sc_text_options");

    sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
    mo.version = V(SC_MULTI_OPTIONS_VERSION);
    sc_multi *m = NULL;
    REFUSES(sc_multi_new(&m, NULL, &mo), "sc_multi_new", "sc_multi_options");

    sc_run_options ro = SC_RUN_OPTIONS_INIT;
    ro.version = V(SC_RUN_OPTIONS_VERSION);
    sc_run_result *rr = NULL;
    REFUSES(sc_run_scenario(&rr, NULL, &ro), "sc_run_scenario", "sc_run_options");

    sc_load_options lo = SC_LOAD_OPTIONS_INIT;
    lo.version = V(SC_LOAD_OPTIONS_VERSION);
    sc_load_result *lr = NULL;
    REFUSES(sc_load_run(&lr, NULL, &lo), "sc_load_run", "sc_load_options");
#undef V
  }
  sc_glyphset_free(gs);
  sc_image_free(img);
}

/* Options nested in options follow the same rule: a load run's browser
 * options with an unknown version are refused before any browser starts. */
static void nested_options_are_checked_too(void **state) {
  (void)state;
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  bo.version = 0;
  sc_load_options lo = SC_LOAD_OPTIONS_INIT;
  lo.browser_options = &bo;
  lo.endpoints = (const char *const[]){"127.0.0.1:9", NULL};
  sc_builder *bl = NULL;
  sc_scenario *s = NULL;
  assert_int_equal(sc_builder_new(&bl, "app", "about:blank", 8, 8), 0);
  assert_int_equal(sc_builder_region(bl, "all", (sc_rect){0, 0, 8, 8}), 0);
  assert_int_equal(sc_builder_step(bl, "s"), 0);
  assert_int_equal(sc_builder_click(bl, (sc_point){1, 1}), 0);
  assert_int_equal(sc_builder_expect_changed(bl, "all", 1), 0);
  assert_int_equal(sc_builder_finish(&s, bl), 0);
  sc_load_result *lr = NULL;
  assert_int_equal(sc_load_run(&lr, s, &lo), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "sc_browser_options version 0"));
  assert_null(lr);
  sc_scenario_free(s);
}

/* A frame budget that is negative, or has no directory to go to, is the
 * caller's mistake, said before any browser starts. */
static void a_frame_budget_needs_a_report_dir(void **state) {
  (void)state;
  sc_builder *bl = NULL;
  sc_scenario *s = NULL;
  assert_int_equal(sc_builder_new(&bl, "app", "about:blank", 8, 8), 0);
  assert_int_equal(sc_builder_region(bl, "all", (sc_rect){0, 0, 8, 8}), 0);
  assert_int_equal(sc_builder_step(bl, "s"), 0);
  assert_int_equal(sc_builder_click(bl, (sc_point){1, 1}), 0);
  assert_int_equal(sc_builder_expect_changed(bl, "all", 1), 0);
  assert_int_equal(sc_builder_finish(&s, bl), 0);
  sc_run_options ro = SC_RUN_OPTIONS_INIT;
  sc_run_result *rr = NULL;
  ro.pass_frames_bytes = -1;
  assert_int_equal(sc_run_scenario(&rr, s, &ro), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "pass_frames_bytes -1 < 0"));
  ro.pass_frames_bytes = 1000;
  assert_int_equal(sc_run_scenario(&rr, s, &ro), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "pass_frames_bytes needs a report_dir"));
  assert_null(rr);
  sc_load_options lo = SC_LOAD_OPTIONS_INIT;
  sc_load_result *lr = NULL;
  lo.pass_frames_bytes = 1000;
  assert_int_equal(sc_load_run(&lr, s, &lo), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "needs a report_dir"));
  assert_null(lr);
  sc_scenario_free(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_function_refuses_unknown_versions),
      cmocka_unit_test(nested_options_are_checked_too),
      cmocka_unit_test(every_init_matches_its_macro),
      cmocka_unit_test(older_versions_are_cut_to_their_size),
      cmocka_unit_test(a_frame_budget_needs_a_report_dir),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
