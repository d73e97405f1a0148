/* sc__escape_ctl: control characters in user text become visible escapes. */
#include "testutil.h"

#include <string.h>

#include "core/core.h"

static void escapes_controls_only(void **st) {
  (void)st;
  static const char *const v[][2] = {
      {"plain text, \"quoted\" \\ and UTF-8 \xc3\xa9", "plain text, \"quoted\" \\ and UTF-8 \xc3\xa9"},
      {"a\nb", "a\\nb"},
      {"\t\r", "\\t\\r"},
      {"\x1b[2J", "\\x1b[2J"},
      {"\x01\x7f\x1f", "\\x01\\x7f\\x1f"},
      {"", ""},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    char *e = sc__escape_ctl(v[i][0]);
    assert_non_null(e);
    assert_string_equal(e, v[i][1]);
    assert_int_equal(sc__escape_ctl_len(v[i][0]), strlen(v[i][1]));
    sc__free(e);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(escapes_controls_only)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
