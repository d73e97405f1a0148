/* Glyph-set files are input: a set holds at most 1024 glyphs, so loading
 * (each name checked against the others) and reading (each ink segment
 * compared with every glyph) stay bounded. 60000 one-pixel glyphs used to
 * take 10 s of CPU to load. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stepcheck.h"

/* A set text of n distinct one-pixel glyphs, named from [A-Za-z0-9]. */
static char *set_text(int n, size_t *len) {
  static const char az[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  size_t cap = 32 + (size_t)n * 24, w = 0;
  char *t = malloc(cap);
  assert_non_null(t);
  w += (size_t)snprintf(t + w, cap - w, "stepcheck-glyphs 1\n");
  for (int i = 0; i < n; i++) {
    char name[4] = {az[i % 62], az[i / 62 % 62], i >= 62 * 62 ? az[i / 3844 % 62] : 0, 0};
    w += (size_t)snprintf(t + w, cap - w, "glyph %s 1 1 1\n#\n", name);
  }
  *len = w;
  return t;
}

static void at_most_1024_glyphs(void **st) {
  (void)st;
  size_t len;
  char *t = set_text(1024, &len);
  sc_glyphset *gs = NULL;
  if (sc_glyphset_parse(&gs, t, len) != 0) fail_msg("%s", sc_errmsg());
  assert_int_equal(sc_glyphset_count(gs), 1024);
  sc_glyphset_free(gs);
  free(t);
  t = set_text(1025, &len);
  gs = (sc_glyphset *)1;
  assert_int_equal(sc_glyphset_parse(&gs, t, len), SC_EFORMAT);
  assert_null(gs);
  /* line 1 is the magic, each glyph two lines: the 1025th starts at 2050 */
  assert_string_equal(sc_errmsg(), "glyphs: line 2050: more than 1024 glyphs");
  free(t);
  /* 60000 glyphs: refused at the 1025th, not parsed to the end */
  t = set_text(60000, &len);
  assert_int_equal(sc_glyphset_parse(&gs, t, len), SC_EFORMAT);
  assert_non_null(strstr(sc_errmsg(), "more than 1024 glyphs"));
  free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(at_most_1024_glyphs)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
