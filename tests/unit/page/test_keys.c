/* The key table: DOM key values, DOM codes and aliases all name the same
 * US-keyboard key (key, code, keyCode, location, text); a character that
 * needs Shift says so; Shift as a modifier gives the shifted character;
 * other Unicode characters have no code; unknown names are refused. */
#include "testutil.h"

#include <string.h>

#include "page/tab.h"

static void check(const char *name, const char *key, const char *code, int vk, int loc,
                  const char *text, int shift) {
  sc__key k;
  if (sc__key_find(&k, name) < 0) fail_msg("%s: unknown", name);
  assert_string_equal(k.key, key);
  assert_string_equal(k.code, code);
  assert_int_equal(k.vk, vk);
  assert_int_equal(k.location, loc);
  assert_string_equal(k.text, text);
  assert_int_equal(k.shift, shift);
}

static void values_codes_and_aliases(void **st) {
  (void)st;
  check("NumpadAdd", "+", "NumpadAdd", 107, 3, "+", 0);
  check("NumpadSubtract", "-", "NumpadSubtract", 109, 3, "-", 0);
  check("Escape", "Escape", "Escape", 27, 0, "", 0);
  check("Esc", "Escape", "Escape", 27, 0, "", 0);
  check("Enter", "Enter", "Enter", 13, 0, "\r", 0);
  check("Return", "Enter", "Enter", 13, 0, "\r", 0);
  check("F5", "F5", "F5", 116, 0, "", 0);
  check("Control", "Control", "ControlLeft", 17, 1, "", 0);
  /* the same key three ways: value, code, alias */
  check("a", "a", "KeyA", 65, 0, "a", 0);
  check("KeyA", "a", "KeyA", 65, 0, "a", 0);
  check("A", "A", "KeyA", 65, 0, "A", 1);
  check("=", "=", "Equal", 187, 0, "=", 0);
  check("Equal", "=", "Equal", 187, 0, "=", 0);
  check("+", "+", "Equal", 187, 0, "+", 1);
  check("Plus", "+", "Equal", 187, 0, "+", 1);
  check(" ", " ", "Space", 32, 0, " ", 0);
  check("Space", " ", "Space", 32, 0, " ", 0);
  check("7", "7", "Digit7", 55, 0, "7", 0);
  check("Digit7", "7", "Digit7", 55, 0, "7", 0);
  check("&", "&", "Digit7", 55, 0, "&", 1);
  check("-", "-", "Minus", 189, 0, "-", 0);
  check("_", "_", "Minus", 189, 0, "_", 1);
  check("~", "~", "Backquote", 192, 0, "~", 1);
  check("\\", "\\", "Backslash", 220, 0, "\\", 0);
  /* another layout's character */
  check("\xc3\xa9", "\xc3\xa9", "", 0, 0, "\xc3\xa9", 0); /* é */
}

static void every_printable_ascii_is_a_key(void **st) {
  (void)st;
  for (int c = 0x20; c < 0x7f; c++) {
    char name[2] = {(char)c, 0};
    sc__key k;
    assert_int_equal(sc__key_find(&k, name), 0);
    assert_string_equal(k.text, name);
    assert_true(k.code[0] != '\0');
    assert_true(k.vk > 0);
  }
}

static void shift_gives_the_shifted_character(void **st) {
  (void)st;
  char why[160];
  sc__keyspec ks;
  assert_int_equal(sc__key_parse(&ks, "Shift+Equal", why, sizeof why), 0);
  assert_string_equal(ks.key.key, "+");
  assert_string_equal(ks.key.code, "Equal");
  assert_int_equal(ks.modifiers, 8);
  assert_int_equal(ks.key.shift, 0); /* already held */
  assert_int_equal(sc__key_parse(&ks, "Shift+a", why, sizeof why), 0);
  assert_string_equal(ks.key.key, "A");
  assert_int_equal(sc__key_parse(&ks, "Control+Shift+1", why, sizeof why), 0);
  assert_string_equal(ks.key.key, "!");
  assert_int_equal(ks.modifiers, 10);
  assert_int_equal(ks.nmods, 2);
  /* Shift on a key with no shifted form stays itself */
  assert_int_equal(sc__key_parse(&ks, "Shift+Tab", why, sizeof why), 0);
  assert_string_equal(ks.key.key, "Tab");
  /* a lone "+" is the plus key; "Control++" is Control and plus */
  assert_int_equal(sc__key_parse(&ks, "+", why, sizeof why), 0);
  assert_string_equal(ks.key.key, "+");
  assert_int_equal(sc__key_parse(&ks, "Control++", why, sizeof why), 0);
  assert_string_equal(ks.key.key, "+");
  assert_int_equal(ks.modifiers, 2);
}

static void unknown_and_malformed_are_refused(void **st) {
  (void)st;
  char why[160];
  sc__keyspec ks;
  sc__key k;
  assert_int_equal(sc__key_find(&k, "NoSuchKey"), -1);
  assert_int_equal(sc__key_find(&k, ""), -1);
  assert_int_equal(sc__key_find(&k, "\x01"), -1);
  assert_int_equal(sc__key_find(&k, "\xc3"), -1);     /* broken UTF-8 */
  assert_int_equal(sc__key_find(&k, "ab"), -1);       /* two characters */
  assert_int_equal(sc__key_parse(&ks, "Banana+a", why, sizeof why), -1);
  assert_non_null(strstr(why, "not a modifier"));
  assert_int_equal(sc__key_parse(&ks, "Control+", why, sizeof why), -1);
  assert_int_equal(sc__key_parse(&ks, "Control+Shift+Alt+Meta+Control+Shift+Alt+Meta+a", why,
                                 sizeof why), -1);
  assert_non_null(strstr(why, "more than 8 parts"));
  assert_int_equal(sc__key_parse(&ks, "Control+Nope", why, sizeof why), -1);
  assert_non_null(strstr(why, "Nope"));
  assert_int_equal(sc__key_modifier("Alt"), 1);
  assert_int_equal(sc__key_modifier("Control"), 2);
  assert_int_equal(sc__key_modifier("Meta"), 4);
  assert_int_equal(sc__key_modifier("Shift"), 8);
  assert_int_equal(sc__key_modifier("a"), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(values_codes_and_aliases),
      cmocka_unit_test(every_printable_ascii_is_a_key),
      cmocka_unit_test(shift_gives_the_shifted_character),
      cmocka_unit_test(unknown_and_malformed_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
