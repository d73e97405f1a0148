/* Key names → the events a real US keyboard produces: KeyboardEvent.key,
 * .code, keyCode (windowsVirtualKeyCode), location and the text typed.
 * Swing apps behind noVNC/Webswing map keyCode and code, so both must be
 * right (NumpadAdd is 107 at location 3, not "+" = 187).
 *
 * A key is named by its DOM key value ("Escape", "a", "A", "+", " "), its
 * DOM code ("KeyA", "Digit1", "Equal", "NumpadAdd", "Space"), or one of a
 * few aliases (Esc, Return, Del, Ins, Plus). A character that needs Shift
 * on a US keyboard ("A", "+", "_") is sent with Shift held, as typing it
 * would; Shift given as a modifier turns an unshifted key into its shifted
 * character ("Shift+Equal" is "+", "Shift+a" is "A"). Any other single
 * Unicode character is sent as a key with that value and no code, as a
 * keyboard of another layout would. docs/keys.md lists the table. */
#include <stdio.h>
#include <string.h>

#include "tab.h"

/* Keys that type nothing (and the numpad, whose code is its name). */
typedef struct named {
  const char *key, *code;
  int vk, location;
  const char *text;
} named;

static const named k_named[] = {
    {"Escape", "Escape", 27, 0, ""},       {"Enter", "Enter", 13, 0, "\r"},
    {"Tab", "Tab", 9, 0, ""},              {"Backspace", "Backspace", 8, 0, ""},
    {"Delete", "Delete", 46, 0, ""},       {"Insert", "Insert", 45, 0, ""},
    {"Home", "Home", 36, 0, ""},           {"End", "End", 35, 0, ""},
    {"PageUp", "PageUp", 33, 0, ""},       {"PageDown", "PageDown", 34, 0, ""},
    {"ArrowLeft", "ArrowLeft", 37, 0, ""}, {"ArrowUp", "ArrowUp", 38, 0, ""},
    {"ArrowRight", "ArrowRight", 39, 0, ""}, {"ArrowDown", "ArrowDown", 40, 0, ""},
    {"F1", "F1", 112, 0, ""},   {"F2", "F2", 113, 0, ""},   {"F3", "F3", 114, 0, ""},
    {"F4", "F4", 115, 0, ""},   {"F5", "F5", 116, 0, ""},   {"F6", "F6", 117, 0, ""},
    {"F7", "F7", 118, 0, ""},   {"F8", "F8", 119, 0, ""},   {"F9", "F9", 120, 0, ""},
    {"F10", "F10", 121, 0, ""}, {"F11", "F11", 122, 0, ""}, {"F12", "F12", 123, 0, ""},
    {"Control", "ControlLeft", 17, 1, ""}, {"Shift", "ShiftLeft", 16, 1, ""},
    {"Alt", "AltLeft", 18, 1, ""},         {"Meta", "MetaLeft", 91, 1, ""},
};

/* The numpad: named by code; key and text are the character. */
static const named k_numpad[] = {
    {"+", "NumpadAdd", 107, 3, "+"},      {"-", "NumpadSubtract", 109, 3, "-"},
    {"*", "NumpadMultiply", 106, 3, "*"}, {"/", "NumpadDivide", 111, 3, "/"},
    {"Enter", "NumpadEnter", 13, 3, "\r"}, {".", "NumpadDecimal", 110, 3, "."},
    {"0", "Numpad0", 96, 3, "0"}, {"1", "Numpad1", 97, 3, "1"}, {"2", "Numpad2", 98, 3, "2"},
    {"3", "Numpad3", 99, 3, "3"}, {"4", "Numpad4", 100, 3, "4"}, {"5", "Numpad5", 101, 3, "5"},
    {"6", "Numpad6", 102, 3, "6"}, {"7", "Numpad7", 103, 3, "7"}, {"8", "Numpad8", 104, 3, "8"},
    {"9", "Numpad9", 105, 3, "9"},
};

/* Printable ASCII on a US keyboard, from ' ' (0x20) to '~' (0x7e): the key
 * it is on (code, keyCode) and whether Shift is held to type it. Letters
 * and digits are filled in by code (KeyA.., Digit0..). */
typedef struct printable {
  const char *code;
  int vk, shift;
} printable;

static const printable k_symbols[] = {
    /* ' ' */ {"Space", 32, 0},        /* ! */ {"Digit1", 49, 1},
    /* " */ {"Quote", 222, 1},         /* # */ {"Digit3", 51, 1},
    /* $ */ {"Digit4", 52, 1},         /* % */ {"Digit5", 53, 1},
    /* & */ {"Digit7", 55, 1},         /* ' */ {"Quote", 222, 0},
    /* ( */ {"Digit9", 57, 1},         /* ) */ {"Digit0", 48, 1},
    /* * */ {"Digit8", 56, 1},         /* + */ {"Equal", 187, 1},
    /* , */ {"Comma", 188, 0},         /* - */ {"Minus", 189, 0},
    /* . */ {"Period", 190, 0},        /* / */ {"Slash", 191, 0},
};
static const char *const k_digit_codes[] = {"Digit0", "Digit1", "Digit2", "Digit3", "Digit4",
                                            "Digit5", "Digit6", "Digit7", "Digit8", "Digit9"};
static const char *const k_letter_codes[] = {
    "KeyA", "KeyB", "KeyC", "KeyD", "KeyE", "KeyF", "KeyG", "KeyH", "KeyI",
    "KeyJ", "KeyK", "KeyL", "KeyM", "KeyN", "KeyO", "KeyP", "KeyQ", "KeyR",
    "KeyS", "KeyT", "KeyU", "KeyV", "KeyW", "KeyX", "KeyY", "KeyZ"};
/* ':' to '@' and '[' to '`' and '{' to '~'. */
static const struct {
  char c;
  printable p;
} k_more[] = {
    {':', {"Semicolon", 186, 1}},  {';', {"Semicolon", 186, 0}},
    {'<', {"Comma", 188, 1}},      {'=', {"Equal", 187, 0}},
    {'>', {"Period", 190, 1}},     {'?', {"Slash", 191, 1}},
    {'@', {"Digit2", 50, 1}},      {'[', {"BracketLeft", 219, 0}},
    {'\\', {"Backslash", 220, 0}}, {']', {"BracketRight", 221, 0}},
    {'^', {"Digit6", 54, 1}},      {'_', {"Minus", 189, 1}},
    {'`', {"Backquote", 192, 0}},  {'{', {"BracketLeft", 219, 1}},
    {'|', {"Backslash", 220, 1}},  {'}', {"BracketRight", 221, 1}},
    {'~', {"Backquote", 192, 1}},
};

/* The US key for printable ASCII c; 0 when c is not one. */
static int ascii_key(unsigned char c, printable *out) {
  if (c >= 'a' && c <= 'z') return *out = (printable){k_letter_codes[c - 'a'], c - 'a' + 65, 0}, 1;
  if (c >= 'A' && c <= 'Z') return *out = (printable){k_letter_codes[c - 'A'], c, 1}, 1;
  if (c >= '0' && c <= '9') return *out = (printable){k_digit_codes[c - '0'], c, 0}, 1;
  if (c >= 0x20 && c <= 0x2f) return *out = k_symbols[c - 0x20], 1;
  for (size_t i = 0; i < sizeof k_more / sizeof *k_more; i++)
    if (k_more[i].c == (char)c) return *out = k_more[i].p, 1;
  return 0;
}

/* The character on key `code` with (shift) or without Shift; 0 none. */
static unsigned char char_on(const char *code, int shift) {
  for (int c = 0x20; c < 0x7f; c++) {
    printable p;
    if (ascii_key((unsigned char)c, &p) && p.shift == shift && !strcmp(p.code, code))
      return (unsigned char)c;
  }
  return 0;
}

static void set_char(sc__key *k, unsigned char c) {
  printable p;
  ascii_key(c, &p);
  k->key[0] = k->text[0] = (char)c;
  k->key[1] = k->text[1] = '\0';
  k->code = p.code;
  k->vk = p.vk;
  k->location = 0;
  k->shift = p.shift;
}

/* One UTF-8 code point making up all of s (1..4 bytes); its length, 0 if not. */
static size_t one_code_point(const char *s) {
  const unsigned char *u = (const unsigned char *)s;
  if (!u[0]) return 0;
  size_t n = u[0] < 0x80 ? 1 : (u[0] & 0xe0) == 0xc0 ? 2 : (u[0] & 0xf0) == 0xe0 ? 3
             : (u[0] & 0xf8) == 0xf0 ? 4 : 0;
  if (!n || (n > 1 && u[0] < 0xc2) || (u[0] >= 0xf5)) return 0;
  for (size_t i = 1; i < n; i++)
    if ((u[i] & 0xc0) != 0x80) return 0;
  return u[n] == '\0' ? n : 0;
}

int sc__key_find(sc__key *k, const char *name) {
  memset(k, 0, sizeof *k);
  static const struct {
    const char *alias, *name;
  } aliases[] = {{"Esc", "Escape"}, {"Return", "Enter"}, {"Del", "Delete"},
                 {"Ins", "Insert"}, {"Plus", "+"},       {"Space", " "}};
  for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
    if (!strcmp(name, aliases[i].alias)) name = aliases[i].name;
  for (size_t i = 0; i < sizeof k_named / sizeof *k_named; i++)
    if (!strcmp(name, k_named[i].key)) {
      snprintf(k->key, sizeof k->key, "%s", k_named[i].key);
      snprintf(k->text, sizeof k->text, "%s", k_named[i].text);
      k->code = k_named[i].code;
      k->vk = k_named[i].vk;
      k->location = k_named[i].location;
      return 0;
    }
  for (size_t i = 0; i < sizeof k_numpad / sizeof *k_numpad; i++)
    if (!strcmp(name, k_numpad[i].code)) {
      snprintf(k->key, sizeof k->key, "%s", k_numpad[i].key);
      snprintf(k->text, sizeof k->text, "%s", k_numpad[i].text);
      k->code = k_numpad[i].code;
      k->vk = k_numpad[i].vk;
      k->location = 3;
      return 0;
    }
  unsigned char c = char_on(name, 0); /* a code: "KeyA", "Equal", "Space" */
  if (c) {
    set_char(k, c);
    return 0;
  }
  size_t n = one_code_point(name);
  if (n == 1 && (unsigned char)name[0] >= 0x20 && name[0] != 0x7f) {
    set_char(k, (unsigned char)name[0]);
    return 0;
  }
  if (n > 1) { /* another layout's character: its value, no code */
    memcpy(k->key, name, n + 1);
    memcpy(k->text, name, n + 1);
    k->code = "";
    return 0;
  }
  return -1;
}

int sc__key_modifier(const char *name) {
  if (!strcmp(name, "Alt")) return 1;
  if (!strcmp(name, "Control")) return 2;
  if (!strcmp(name, "Meta")) return 4;
  if (!strcmp(name, "Shift")) return 8;
  return 0;
}

int sc__key_parse(sc__keyspec *out, const char *spec, char *why, size_t whylen) {
  memset(out, 0, sizeof *out);
  size_t n = strlen(spec);
  if (n == 0) return snprintf(why, whylen, "an empty key name"), -1;
  if (n >= SC__KEY_NAME_MAX)
    return snprintf(why, whylen, "longer than %d bytes", SC__KEY_NAME_MAX - 1), -1;
  /* "Control+Shift+a": modifiers, then one key; a lone "+" is the plus key,
   * a trailing "+" after a name is an error, not a bare modifier. */
  if (n > 1 && spec[n - 1] == '+' && spec[n - 2] != '+')
    return snprintf(why, whylen, "nothing after the last '+'"), -1;
  char buf[SC__KEY_NAME_MAX];
  memcpy(buf, spec, n + 1);
  for (char *s = buf;;) {
    char *plus = strchr(s + 1, '+');
    if (plus) *plus = '\0';
    if (out->nmods + 1 > SC__KEY_PARTS)
      return snprintf(why, whylen, "more than %d parts (modifiers and a key)", SC__KEY_PARTS),
             -1;
    if (!plus) {
      if (sc__key_find(&out->key, s) < 0)
        return snprintf(why, whylen, "unknown key name \"%.40s\" (see docs/keys.md)", s), -1;
      break;
    }
    int bit = sc__key_modifier(s);
    if (!bit)
      return snprintf(why, whylen, "\"%.40s\" is not a modifier (Alt, Control, Meta, Shift)", s),
             -1;
    sc__key_find(&out->mods[out->nmods++], s);
    out->modifiers |= bit;
    s = plus + 1;
  }
  /* Shift given: the shifted character of the same key. */
  if ((out->modifiers & 8) && out->key.location == 0 && out->key.code && out->key.text[0] &&
      !out->key.shift) {
    unsigned char c = char_on(out->key.code, 1);
    if (c) {
      set_char(&out->key, c);
      out->key.shift = 0; /* Shift is already held */
    }
  }
  return 0;
}

int sc__key_check(const char *spec, char *why, size_t whylen) {
  sc__keyspec ks;
  return sc__key_parse(&ks, spec, why, whylen);
}
