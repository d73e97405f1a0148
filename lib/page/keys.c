/* DOM key names → key, code, keyCode, location, text, as a real keyboard
 * produces them. Swing apps behind noVNC/Webswing map keyCode and code, so
 * both must be right (NumpadAdd is 107 at location 3, not "+" = 187). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "page_internal.h"

static const sc__keydef k_keys[] = {
    {"NumpadAdd", "+", "NumpadAdd", 107, 3, "+"},
    {"NumpadSubtract", "-", "NumpadSubtract", 109, 3, "-"},
    {"NumpadMultiply", "*", "NumpadMultiply", 106, 3, "*"},
    {"NumpadDivide", "/", "NumpadDivide", 111, 3, "/"},
    {"NumpadEnter", "Enter", "NumpadEnter", 13, 3, "\r"},
    {"NumpadDecimal", ".", "NumpadDecimal", 110, 3, "."},
    {"Numpad0", "0", "Numpad0", 96, 3, "0"},
    {"Numpad1", "1", "Numpad1", 97, 3, "1"},
    {"Numpad2", "2", "Numpad2", 98, 3, "2"},
    {"Numpad3", "3", "Numpad3", 99, 3, "3"},
    {"Numpad4", "4", "Numpad4", 100, 3, "4"},
    {"Numpad5", "5", "Numpad5", 101, 3, "5"},
    {"Numpad6", "6", "Numpad6", 102, 3, "6"},
    {"Numpad7", "7", "Numpad7", 103, 3, "7"},
    {"Numpad8", "8", "Numpad8", 104, 3, "8"},
    {"Numpad9", "9", "Numpad9", 105, 3, "9"},
    {"Escape", "Escape", "Escape", 27, 0, ""},
    {"Enter", "Enter", "Enter", 13, 0, "\r"},
    {"Tab", "Tab", "Tab", 9, 0, ""},
    {"Backspace", "Backspace", "Backspace", 8, 0, ""},
    {"Delete", "Delete", "Delete", 46, 0, ""},
    {"Space", " ", "Space", 32, 0, " "},
    {"Home", "Home", "Home", 36, 0, ""},
    {"End", "End", "End", 35, 0, ""},
    {"PageUp", "PageUp", "PageUp", 33, 0, ""},
    {"PageDown", "PageDown", "PageDown", 34, 0, ""},
    {"ArrowLeft", "ArrowLeft", "ArrowLeft", 37, 0, ""},
    {"ArrowUp", "ArrowUp", "ArrowUp", 38, 0, ""},
    {"ArrowRight", "ArrowRight", "ArrowRight", 39, 0, ""},
    {"ArrowDown", "ArrowDown", "ArrowDown", 40, 0, ""},
    {"Equal", "=", "Equal", 187, 0, "="},
    {"Minus", "-", "Minus", 189, 0, "-"},
    {"Plus", "+", "Equal", 187, 0, "+"},
    {"F1", "F1", "F1", 112, 0, ""},
    {"F2", "F2", "F2", 113, 0, ""},
    {"F3", "F3", "F3", 114, 0, ""},
    {"F4", "F4", "F4", 115, 0, ""},
    {"F5", "F5", "F5", 116, 0, ""},
    {"F6", "F6", "F6", 117, 0, ""},
    {"F7", "F7", "F7", 118, 0, ""},
    {"F8", "F8", "F8", 119, 0, ""},
    {"F9", "F9", "F9", 120, 0, ""},
    {"F10", "F10", "F10", 121, 0, ""},
    {"F11", "F11", "F11", 122, 0, ""},
    {"F12", "F12", "F12", 123, 0, ""},
    {"Control", "Control", "ControlLeft", 17, 1, ""},
    {"Shift", "Shift", "ShiftLeft", 16, 1, ""},
    {"Alt", "Alt", "AltLeft", 18, 1, ""},
    {"Meta", "Meta", "MetaLeft", 91, 1, ""},
};

static const char *const k_digit_codes[] = {"Digit0", "Digit1", "Digit2", "Digit3", "Digit4",
                                            "Digit5", "Digit6", "Digit7", "Digit8", "Digit9"};
static const char *const k_letter_codes[] = {
    "KeyA", "KeyB", "KeyC", "KeyD", "KeyE", "KeyF", "KeyG", "KeyH", "KeyI",
    "KeyJ", "KeyK", "KeyL", "KeyM", "KeyN", "KeyO", "KeyP", "KeyQ", "KeyR",
    "KeyS", "KeyT", "KeyU", "KeyV", "KeyW", "KeyX", "KeyY", "KeyZ"};

const sc__keydef *sc__key_lookup(const char *name, sc__keydef *buf, char textbuf[2]) {
  for (size_t i = 0; i < sizeof k_keys / sizeof k_keys[0]; i++)
    if (!strcmp(k_keys[i].name, name)) return &k_keys[i];
  if (name[0] && !name[1]) {
    unsigned char c = (unsigned char)name[0];
    textbuf[0] = (char)c;
    textbuf[1] = '\0';
    buf->name = name;
    buf->key = textbuf;
    buf->location = 0;
    buf->text = textbuf;
    if (isalpha(c)) {
      buf->code = k_letter_codes[tolower(c) - 'a'];
      buf->vk = toupper(c);
      return buf;
    }
    if (isdigit(c)) {
      buf->code = k_digit_codes[c - '0'];
      buf->vk = c;
      return buf;
    }
  }
  return NULL;
}

int sc__key_modifier(const char *name) {
  if (!strcmp(name, "Alt")) return 1;
  if (!strcmp(name, "Control")) return 2;
  if (!strcmp(name, "Meta")) return 4;
  if (!strcmp(name, "Shift")) return 8;
  return 0;
}

int sc__key_check(const char *spec, char *why, size_t whylen) {
  /* the same reading as sc__page_key_async: "Control+Shift+a" is modifiers
   * then one key; "Plus" names the plus key */
  size_t n = strlen(spec);
  if (n == 0) return snprintf(why, whylen, "an empty key name"), -1;
  if (n >= SC__KEY_NAME_MAX) return snprintf(why, whylen, "longer than %d bytes", SC__KEY_NAME_MAX - 1), -1;
  if (n > 1 && spec[n - 1] == '+') return snprintf(why, whylen, "nothing after the last '+'"), -1;
  char buf[SC__KEY_NAME_MAX], textbuf[2];
  memcpy(buf, spec, n + 1);
  sc__keydef kbuf;
  int nparts = 0;
  for (char *s = buf;; nparts++) {
    char *plus = strchr(s + 1, '+');
    if (plus) *plus = '\0';
    if (nparts + 1 > SC__KEY_PARTS)
      return snprintf(why, whylen, "more than %d parts (modifiers and a key)", SC__KEY_PARTS), -1;
    if (!plus) {
      if (!sc__key_lookup(s, &kbuf, textbuf))
        return snprintf(why, whylen, "unknown key name \"%.40s\"", s), -1;
      return 0;
    }
    if (!sc__key_modifier(s))
      return snprintf(why, whylen, "\"%.40s\" is not a modifier (Alt, Control, Meta, Shift)", s), -1;
    s = plus + 1;
  }
}
