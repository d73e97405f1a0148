/* The key table: what a real keyboard sends for each DOM key name. */
#include "testutil.h"

#include <string.h>

#include "page/page_internal.h"

static void numpad_keys_are_keypad(void **st) {
  (void)st;
  sc__keydef buf;
  char text[2];
  const sc__keydef *k = sc__key_lookup("NumpadAdd", &buf, text);
  assert_non_null(k);
  assert_string_equal(k->key, "+");
  assert_string_equal(k->code, "NumpadAdd");
  assert_int_equal(k->vk, 107);
  assert_int_equal(k->location, 3);
  k = sc__key_lookup("NumpadSubtract", &buf, text);
  assert_int_equal(k->vk, 109);
  assert_int_equal(k->location, 3);
  /* Not the main-keyboard minus (189, location 0). */
  k = sc__key_lookup("Minus", &buf, text);
  assert_int_equal(k->vk, 189);
  assert_int_equal(k->location, 0);
}

static void named_keys(void **st) {
  (void)st;
  sc__keydef buf;
  char text[2];
  static const struct {
    const char *name, *code;
    int vk;
  } k[] = {{"Escape", "Escape", 27}, {"Enter", "Enter", 13},       {"Tab", "Tab", 9},
           {"ArrowLeft", "ArrowLeft", 37}, {"F5", "F5", 116},     {"Delete", "Delete", 46},
           {"Control", "ControlLeft", 17}, {"Shift", "ShiftLeft", 16}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    const sc__keydef *d = sc__key_lookup(k[i].name, &buf, text);
    assert_non_null(d);
    assert_string_equal(d->code, k[i].code);
    assert_int_equal(d->vk, k[i].vk);
  }
}

static void letters_and_digits(void **st) {
  (void)st;
  sc__keydef buf;
  char text[2];
  const sc__keydef *d = sc__key_lookup("a", &buf, text);
  assert_string_equal(d->key, "a");
  assert_string_equal(d->code, "KeyA");
  assert_int_equal(d->vk, 65);
  assert_string_equal(d->text, "a");
  d = sc__key_lookup("Z", &buf, text);
  assert_string_equal(d->code, "KeyZ");
  assert_int_equal(d->vk, 90);
  d = sc__key_lookup("7", &buf, text);
  assert_string_equal(d->code, "Digit7");
  assert_int_equal(d->vk, 55);
}

static void unknown_and_modifiers(void **st) {
  (void)st;
  sc__keydef buf;
  char text[2];
  assert_null(sc__key_lookup("NoSuchKey", &buf, text));
  assert_null(sc__key_lookup("", &buf, text));
  assert_null(sc__key_lookup("%", &buf, text));
  assert_int_equal(sc__key_modifier("Alt"), 1);
  assert_int_equal(sc__key_modifier("Control"), 2);
  assert_int_equal(sc__key_modifier("Meta"), 4);
  assert_int_equal(sc__key_modifier("Shift"), 8);
  assert_int_equal(sc__key_modifier("a"), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(numpad_keys_are_keypad),
      cmocka_unit_test(named_keys),
      cmocka_unit_test(letters_and_digits),
      cmocka_unit_test(unknown_and_modifiers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
