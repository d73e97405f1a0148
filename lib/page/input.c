/* Input through CDP: mouse moves, clicks, wheel notches, keys. Every event
 * is acknowledged by the browser (Input.* replies come after the renderer
 * handled the event), so a gesture's end is the last acknowledgement. */
#include <string.h>

#include "core/core.h"
#include "page_internal.h"

static int mouse(sc_page *p, const char *type, double x, double y, const char *button,
                 int buttons, int click_count, double dy) {
  json_t *params = json_pack("{s:s, s:f, s:f, s:s, s:i, s:i, s:i}", "type", type, "x", x, "y",
                             y, "button", button, "buttons", buttons, "clickCount",
                             click_count, "modifiers", 0);
  if (!params) return sc__err(SC_ENOMEM, "input: out of memory");
  if (!strcmp(type, "mouseWheel")) {
    json_object_set_new(params, "deltaX", json_real(0));
    json_object_set_new(params, "deltaY", json_real(dy));
  }
  return sc__page_call(p, "Input.dispatchMouseEvent", params, NULL);
}

SC_EXTERN int sc_page_move(sc_page *p, sc_point at) {
  double x, y;
  sc__page_to_css(p, at, &x, &y);
  return mouse(p, "mouseMoved", x, y, "none", 0, 0, 0);
}

SC_EXTERN int sc_page_click(sc_page *p, sc_point at) {
  double x, y;
  sc__page_to_css(p, at, &x, &y);
  int rc = mouse(p, "mouseMoved", x, y, "none", 0, 0, 0);
  if (rc == 0) rc = mouse(p, "mousePressed", x, y, "left", 1, 1, 0);
  if (rc == 0) rc = mouse(p, "mouseReleased", x, y, "left", 0, 1, 0);
  return rc;
}

/* Wait while still serving the connection (events keep flowing). */
static int pause_ms(sc_page *p, double ms) {
  double end = sc__now_ms() + ms;
  for (;;) {
    double left = end - sc__now_ms();
    if (left <= 0) return 0;
    int rc = sc__client_service(p->cl, left);
    if (rc < 0) return rc;
  }
}

int sc__page_wheel(sc_page *p, sc_point at, int notches, sc__idle_fn idle, void *ud) {
  if (notches == 0) return sc__err(SC_EINVAL, "wheel: 0 notches");
  double x, y;
  sc__page_to_css(p, at, &x, &y);
  int rc = mouse(p, "mouseMoved", x, y, "none", 0, 0, 0);
  int n = notches < 0 ? -notches : notches;
  double dy = notches < 0 ? -p->opts.wheel_delta : p->opts.wheel_delta;
  for (int i = 0; i < n && rc == 0; i++) {
    if (i > 0) {
      double end = sc__now_ms() + p->opts.notch_spacing_ms;
      if (idle) rc = idle(ud, end);
      if (rc == 0) rc = pause_ms(p, end - sc__now_ms());
    }
    if (rc == 0) rc = mouse(p, "mouseWheel", x, y, "none", 0, 0, dy);
  }
  return rc;
}

SC_EXTERN int sc_page_wheel(sc_page *p, sc_point at, int notches) {
  return sc__page_wheel(p, at, notches, NULL, NULL);
}

static int key_event(sc_page *p, const char *type, const sc__keydef *k, int modifiers) {
  json_t *params = json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:b}", "type", type, "key",
                             k->key, "code", k->code, "windowsVirtualKeyCode", k->vk,
                             "nativeVirtualKeyCode", k->vk, "location", k->location,
                             "modifiers", modifiers, "isKeypad", k->location == 3);
  if (!params) return sc__err(SC_ENOMEM, "input: out of memory");
  /* Text only without Control/Alt/Meta: a chord produces no character. */
  if (!strcmp(type, "keyDown") && k->text[0] && !(modifiers & 7)) {
    json_object_set_new(params, "text", json_string(k->text));
    json_object_set_new(params, "unmodifiedText", json_string(k->text));
  } else if (!strcmp(type, "keyDown")) {
    json_object_set_new(params, "type", json_string("rawKeyDown"));
  }
  return sc__page_call(p, "Input.dispatchKeyEvent", params, NULL);
}

SC_EXTERN int sc_page_key(sc_page *p, const char *name, int repeat) {
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
  int rc = 0;
  for (int r = 0; r < repeat && rc == 0; r++) {
    int held = 0;
    for (int i = 0; i < nparts - 1 && rc == 0; i++) {
      held |= sc__key_modifier(parts[i]);
      rc = key_event(p, "keyDown", &mods[i], held);
    }
    if (rc == 0) rc = key_event(p, "keyDown", k, modifiers);
    if (rc == 0) rc = key_event(p, "keyUp", k, modifiers);
    for (int i = nparts - 2; i >= 0 && rc == 0; i--) {
      held &= ~sc__key_modifier(parts[i]);
      rc = key_event(p, "keyUp", &mods[i], held);
    }
  }
  return rc;
}
