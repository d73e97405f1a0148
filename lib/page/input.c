/* Input through CDP: mouse moves, clicks, wheel notches, keys. Every event
 * is acknowledged by the browser (Input.* replies come after the renderer
 * handled the event), so a gesture's end is the last acknowledgement. */
#include <string.h>

#include "core/core.h"
#include "page_internal.h"

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
  sc__waiter w = {0, 0, ""};
  return sc__page_wait_for(p, &w, sc__page_move_async(p, at, sc__waited, &w));
}

SC_EXTERN int sc_page_click(sc_page *p, sc_point at) {
  sc__waiter w = {0, 0, ""};
  return sc__page_wait_for(p, &w, sc__page_click_async(p, at, sc__waited, &w));
}

SC_EXTERN int sc_page_wheel(sc_page *p, sc_point at, int notches) {
  int rc = sc__page_check_point(p, at, "sc_page_wheel");
  if (rc) return rc;
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

static json_t *key_event(const char *type, const sc__keydef *k, int modifiers) {
  json_t *params = json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:b}", "type", type, "key",
                             k->key, "code", k->code, "windowsVirtualKeyCode", k->vk,
                             "nativeVirtualKeyCode", k->vk, "location", k->location,
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

int sc__page_key_async(sc_page *p, const char *name, int repeat, sc__done_cb cb, void *ud) {
  int rc = sc__page_check(p, "sc_page_key");
  if (rc) return rc;
  if (!name || !*name) return sc__err(SC_EINVAL, "key: empty key name");
  if (repeat < 1) return sc__err(SC_EINVAL, "key %s: repeat %d < 1", name, repeat);
  /* Split "Control+Shift+a": modifiers first, the key last ("Plus" names
   * the plus key; a trailing "+" is an error, not a bare modifier). */
  size_t nlen = strlen(name);
  if (nlen > 1 && name[nlen - 1] == '+')
    return sc__err(SC_EINVAL, "key %s: nothing after the last '+'", name);
  char buf[128];
  if (strlen(name) >= sizeof buf) return sc__err(SC_EINVAL, "key: name too long");
  strcpy(buf, name);
  const char *parts[8];
  int nparts = 0;
  char *s = buf;
  while (*s && nparts < 8) {
    char *plus = strchr(s + 1, '+');
    if (plus) *plus = '\0';
    parts[nparts++] = s;
    if (!plus) break;
    s = plus + 1;
  }
  if (nparts == 0) return sc__err(SC_EINVAL, "key: empty key name");
  sc__keydef mods[7], kbuf;
  char textbuf[2];
  int modifiers = 0;
  for (int i = 0; i < nparts - 1; i++) {
    int bit = sc__key_modifier(parts[i]);
    if (!bit) return sc__err(SC_EINVAL, "key %s: '%s' is not a modifier", name, parts[i]);
    mods[i] = *sc__key_lookup(parts[i], &kbuf, textbuf);
    modifiers |= bit;
  }
  const sc__keydef *k = sc__key_lookup(parts[nparts - 1], &kbuf, textbuf);
  if (!k) return sc__err(SC_EINVAL, "key: unknown key name '%s'", parts[nparts - 1]);
  if (repeat > 64) return sc__err(SC_EINVAL, "key %s: repeat %d > 64", name, repeat);
  /* Every event of every repeat, sent back to back: modifiers down, the
   * key down and up, modifiers up in reverse. */
  int per = 2 * nparts, n = 0;
  json_t **ev = sc__calloc((size_t)(per * repeat), sizeof *ev);
  if (!ev) return sc__err(SC_ENOMEM, "key: out of memory");
  for (int r = 0; r < repeat; r++) {
    int held = 0;
    for (int i = 0; i < nparts - 1; i++) {
      held |= sc__key_modifier(parts[i]);
      ev[n++] = key_event("keyDown", &mods[i], held);
    }
    ev[n++] = key_event("keyDown", k, modifiers);
    ev[n++] = key_event("keyUp", k, modifiers);
    for (int i = nparts - 2; i >= 0; i--) {
      held &= ~sc__key_modifier(parts[i]);
      ev[n++] = key_event("keyUp", &mods[i], held);
    }
  }
  rc = sc__page_batch(p, "Input.dispatchKeyEvent", ev, n, cb, ud);
  sc__free(ev);
  return rc;
}

SC_EXTERN int sc_page_key(sc_page *p, const char *name, int repeat) {
  sc__waiter w = {0, 0, ""};
  return sc__page_wait_for(p, &w, sc__page_key_async(p, name, repeat, sc__waited, &w));
}
