/* Input through CDP: mouse moves, clicks, wheel notches, keys. Every event
 * is acknowledged by the browser (Input.* replies come after the renderer
 * handled the event), so a gesture's end is the last acknowledgement. */
#include <string.h>

#include "core/core.h"
#include "tab.h"

static json_t *mouse(const char *type, double x, double y, const char *button, int buttons,
                     int click_count, double dy) {
  json_t *params = json_pack("{s:s, s:f, s:f, s:s, s:i, s:i, s:i}", "type", type, "x", x, "y",
                             y, "button", button, "buttons", buttons, "clickCount",
                             click_count, "modifiers", 0);
  if (params && !strcmp(type, "mouseWheel") &&
      (json_object_set_new(params, "deltaX", json_real(0)) ||
       json_object_set_new(params, "deltaY", json_real(dy)))) {
    json_decref(params);
    return NULL;
  }
  return params;
}

#define DISPATCH_MOUSE "Input.dispatchMouseEvent"

int sc__page_move_async(sc_page *p, sc_point at, sc__done_cb cb, void *ud) {
  int rc = sc__page_check_point(p, at, "sc_page_move");
  if (rc) return rc;
  double x, y;
  sc__page_to_css(p, at, &x, &y);
  json_t *ev[1] = {mouse("mouseMoved", x, y, "none", 0, 0, 0)};
  return sc__page_batch(p, DISPATCH_MOUSE, ev, 1, cb, ud);
}

int sc__page_click_async(sc_page *p, sc_point at, sc__done_cb cb, void *ud) {
  int rc = sc__page_check_point(p, at, "sc_page_click");
  if (rc) return rc;
  double x, y;
  sc__page_to_css(p, at, &x, &y);
  json_t *ev[3] = {mouse("mouseMoved", x, y, "none", 0, 0, 0),
                   mouse("mousePressed", x, y, "left", 1, 1, 0),
                   mouse("mouseReleased", x, y, "left", 0, 1, 0)};
  return sc__page_batch(p, DISPATCH_MOUSE, ev, 3, cb, ud);
}

int sc__page_notch_async(sc_page *p, sc_point at, int dir, int move, sc__done_cb cb, void *ud) {
  int rc = sc__page_check_point(p, at, "sc_page_wheel");
  if (rc) return rc;
  double x, y;
  sc__page_to_css(p, at, &x, &y);
  double dy = dir < 0 ? -p->opts.wheel_delta : p->opts.wheel_delta;
  json_t *ev[2] = {mouse("mouseWheel", x, y, "none", 0, 0, dy), NULL};
  if (move) {
    ev[1] = ev[0];
    ev[0] = mouse("mouseMoved", x, y, "none", 0, 0, 0);
  }
  return sc__page_batch(p, DISPATCH_MOUSE, ev, move ? 2 : 1, cb, ud);
}

/* Blocking wrappers: the asynchronous call, then the loop until it is done. */
SC_EXTERN int sc_page_move(sc_page *p, sc_point at) {
  int brc = sc__page_blocking(p, "sc_page_move");
  if (brc) return brc;
  sc__waiter w = {0, 0, ""};
  return sc__page_wait_for(p, &w, sc__page_move_async(p, at, sc__waited, &w));
}

SC_EXTERN int sc_page_click(sc_page *p, sc_point at) {
  int brc = sc__page_blocking(p, "sc_page_click");
  if (brc) return brc;
  sc__waiter w = {0, 0, ""};
  return sc__page_wait_for(p, &w, sc__page_click_async(p, at, sc__waited, &w));
}

SC_EXTERN int sc_page_wheel(sc_page *p, sc_point at, int notches) {
  int rc = sc__page_check_point(p, at, "sc_page_wheel");
  if (rc || (rc = sc__page_blocking(p, "sc_page_wheel"))) return rc;
  if (notches == 0) return sc__err(SC_EINVAL, "sc_page_wheel: 0 notches");
  int n = notches < 0 ? -notches : notches;
  for (int i = 0; i < n && rc == 0; i++) {
    if (i > 0) { /* the notch spacing, serving the connection meanwhile */
      double end = sc__now_ms() + p->opts.notch_spacing_ms;
      while (rc == 0 && sc__now_ms() < end) rc = sc__client_service(p->cl, end - sc__now_ms());
      if (rc) break;
    }
    sc__waiter w = {0, 0, ""};
    rc = sc__page_wait_for(p, &w, sc__page_notch_async(p, at, notches, i == 0, sc__waited, &w));
  }
  return rc;
}

static json_t *key_event(const char *type, const sc__key *k, int modifiers) {
  json_t *params = json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:b}", "type", type, "key",
                             k->key, "code", k->code ? k->code : "", "windowsVirtualKeyCode",
                             k->vk, "nativeVirtualKeyCode", k->vk, "location", k->location,
                             "modifiers", modifiers, "isKeypad", k->location == 3);
  if (!params) return NULL;
  /* Text only without Control/Alt/Meta: a chord produces no character. */
  if (!strcmp(type, "keyDown") && k->text[0] && !(modifiers & 7)) {
    json_object_set_new(params, "text", json_string(k->text));
    json_object_set_new(params, "unmodifiedText", json_string(k->text));
  } else if (!strcmp(type, "keyDown")) {
    json_object_set_new(params, "type", json_string("rawKeyDown"));
  }
  return params;
}

/* The events of one press of ks into ev (room for 2 * SC__KEY_PARTS + 2):
 * modifiers down, Shift down when the character needs it and it is not
 * held, the key down and up, all of those up in reverse. Returns the count. */
static int press(json_t **ev, const sc__keyspec *ks) {
  int n = 0, held = 0, extra_shift = ks->key.shift && !(ks->modifiers & 8);
  sc__key shift;
  sc__key_find(&shift, "Shift");
  for (int i = 0; i < ks->nmods; i++) {
    held |= sc__key_modifier(ks->mods[i].key);
    ev[n++] = key_event("keyDown", &ks->mods[i], held);
  }
  if (extra_shift) ev[n++] = key_event("keyDown", &shift, held |= 8);
  ev[n++] = key_event("keyDown", &ks->key, held);
  ev[n++] = key_event("keyUp", &ks->key, held);
  if (extra_shift) ev[n++] = key_event("keyUp", &shift, held &= ~8);
  for (int i = ks->nmods - 1; i >= 0; i--) {
    held &= ~sc__key_modifier(ks->mods[i].key);
    ev[n++] = key_event("keyUp", &ks->mods[i], held);
  }
  return n;
}

int sc__page_key_async(sc_page *p, const char *name, int repeat, sc__done_cb cb, void *ud) {
  int rc = sc__page_check(p, "sc_page_key");
  if (rc) return rc;
  if (!name) return sc__err(SC_EINVAL, "sc_page_key: key is NULL");
  if (repeat < 1 || repeat > 64)
    return sc__err(SC_EINVAL, "sc_page_key %s: repeat %d outside 1..64", name, repeat);
  sc__keyspec ks;
  char why[160];
  if (sc__key_parse(&ks, name, why, sizeof why) < 0)
    return sc__err(SC_EINVAL, "sc_page_key: %s: %s", name, why);
  /* Every event of every repeat, sent back to back. */
  json_t **ev = sc__calloc((size_t)repeat * (2 * SC__KEY_PARTS + 2), sizeof *ev);
  if (!ev) return sc__err(SC_ENOMEM, "sc_page_key: out of memory");
  int n = 0;
  for (int r = 0; r < repeat; r++) n += press(ev + n, &ks);
  rc = sc__page_batch(p, "Input.dispatchKeyEvent", ev, n, cb, ud);
  sc__free(ev);
  return rc;
}

/* Text as keys: one press per character ("\n" is Enter, "\t" Tab). */
static int type_async(sc_page *p, const char *text, sc__done_cb cb, void *ud) {
  int rc = sc__page_check(p, "sc_page_type");
  if (rc) return rc;
  if (!text) return sc__err(SC_EINVAL, "sc_page_type: text is NULL");
  size_t len = strlen(text);
  if (len == 0 || len > 4096)
    return sc__err(SC_EINVAL, "sc_page_type: %zu bytes of text (1..4096)", len);
  json_t **ev = sc__calloc(len * 4, sizeof *ev);
  if (!ev) return sc__err(SC_ENOMEM, "sc_page_type: out of memory");
  int n = 0;
  for (size_t i = 0; i < len;) {
    const unsigned char c = (unsigned char)text[i];
    size_t cl = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : 4;
    char one[8] = "";
    if (c == '\n') snprintf(one, sizeof one, "Enter");
    else if (c == '\t') snprintf(one, sizeof one, "Tab");
    else if (i + cl <= len) memcpy(one, text + i, cl);
    sc__keyspec ks;
    memset(&ks, 0, sizeof ks);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f || i + cl > len ||
        sc__key_find(&ks.key, one) < 0) {
      for (int k = 0; k < n; k++) json_decref(ev[k]);
      sc__free(ev);
      return sc__err(SC_EINVAL, "sc_page_type: no key types the character at byte %zu", i);
    }
    n += press(ev + n, &ks);
    i += cl;
  }
  rc = sc__page_batch(p, "Input.dispatchKeyEvent", ev, n, cb, ud);
  sc__free(ev);
  return rc;
}

SC_EXTERN int sc_page_type(sc_page *p, const char *text) {
  int brc = sc__page_blocking(p, "sc_page_type");
  if (brc) return brc;
  sc__waiter w = {0, 0, ""};
  return sc__page_wait_for(p, &w, type_async(p, text, sc__waited, &w));
}

SC_EXTERN int sc_page_key(sc_page *p, const char *name, int repeat) {
  int brc = sc__page_blocking(p, "sc_page_key");
  if (brc) return brc;
  sc__waiter w = {0, 0, ""};
  return sc__page_wait_for(p, &w, sc__page_key_async(p, name, repeat, sc__waited, &w));
}
