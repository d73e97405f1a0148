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
  sc_browser_options b, bm = SC_BROWSER_OPTIONS_INIT;
  assert_int_equal(sc_browser_options_init(&b, SC_BROWSER_OPTIONS_VERSION), 0);
  assert_true(b.launch_timeout_ms == bm.launch_timeout_ms);
  assert_int_equal(b.max_message_bytes, bm.max_message_bytes);
}

/* A caller built against an older version has a shorter struct: init must
 * stop at that version's end (bytes after it are the caller's neighbours). */
static void older_versions_are_cut_to_their_size(void **state) {
  (void)state;
  unsigned char buf[sizeof(sc_browser_options) + 16];
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

  memset(buf, 0xaa, sizeof buf);
  assert_int_equal(sc_png_limits_init((sc_png_limits *)(void *)buf, 1), 0);
  for (size_t i = offsetof(sc_png_limits, skip_checksums); i < sizeof(sc_png_limits); i++)
    assert_int_equal(buf[i], 0xaa);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_init_matches_its_macro),
      cmocka_unit_test(older_versions_are_cut_to_their_size),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
