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

/* C1 controls (U+009B is a CSI on its own, U+0085 a line break) and bytes
 * that are not valid UTF-8 are escaped too; valid UTF-8 stays. */
static void escapes_c1_and_invalid_bytes(void **st) {
  (void)st;
  static const char *const v[][2] = {
      {"a\xc2\x9b" "31mb", "a\\u009b31mb"},
      {"nel\xc2\x85x", "nel\\u0085x"},
      {"\xc2\x80\xc2\x9f\xc2\xa0", "\\u0080\\u009f\xc2\xa0"},
      {"lone \x9b csi", "lone \\x9b csi"},
      {"cut \xe2\x82", "cut \\xe2\\x82"},
      {"overlong \xc0\xaf", "overlong \\xc0\\xaf"},
      {"surrogate \xed\xa0\x80", "surrogate \\xed\\xa0\\x80"},
      {"\xe2\x82\xac \xf0\x9f\x98\x80", "\xe2\x82\xac \xf0\x9f\x98\x80"},
  };
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    char *e = sc__escape_ctl(v[i][0]);
    assert_non_null(e);
    assert_string_equal(e, v[i][1]);
    assert_int_equal(sc__escape_ctl_len(v[i][0]), strlen(v[i][1]));
    char *again = sc__escape_ctl(e); /* escaping twice changes nothing */
    assert_string_equal(again, e);
    sc__free(again);
    sc__free(e);
  }
  char small[8];
  assert_int_equal(sc_escape_ctl(small, sizeof small, "abcd\x1b"), 4); /* never half an escape */
  assert_string_equal(small, "abcd");
}

/* Every library message is escaped where it is made (sc__err), whatever
 * it quotes: a server's message with ESC, C1 and a newline stays one line. */
static void every_message_is_escaped(void **st) {
  (void)st;
  assert_int_equal(sc__err(SC_EPROTO, "grid: %s", "no\x1b[31m red\xc2\x9b" "1m\nstepcheck: forged"),
                   SC_EPROTO);
  assert_string_equal(sc_errmsg(), "grid: no\\x1b[31m red\\u009b1m\\nstepcheck: forged");
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(escapes_controls_only),
                                     cmocka_unit_test(escapes_c1_and_invalid_bytes),
                                     cmocka_unit_test(every_message_is_escaped)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
