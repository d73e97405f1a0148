/* Internal state of a page, shared by the files of lib/page. */
#ifndef SC_PAGE_INTERNAL_H
#define SC_PAGE_INTERNAL_H

#include <jansson.h>

#include "stepcheck/page.h"
#include "browser/browser.h"

struct sc_page {
  sc_browser *browser;   /* borrowed */
  sc__client *cl;        /* borrowed from the browser */
  sc_page_options opts;
  char *context_id;
  char *target_id;
  char *session_id;
  double timeout_ms;     /* per command */
  /* canvas geometry, CSS px */
  double cx, cy;
  int cw, ch;
  /* mouse state for the next event */
  int buttons;
};

/* One CDP command on this page's session; *result (optional) new reference.
 * Errors: sc_errmsg() = "METHOD: reason". */
int sc__page_call(sc_page *p, const char *method, json_t *params, json_t **result);

/* Work to do while waiting between wheel notches; must return before
 * `until` (monotonic ms). Non-zero return aborts the gesture. */
typedef int (*sc__idle_fn)(void *ud, double until);
/* sc_page_wheel with an idle hook between notches (the runner captures
 * there, so a change after the first notch is seen when it happens). */
int sc__page_wheel(sc_page *p, sc_point at, int notches, sc__idle_fn idle, void *ud);

/* The two halves of sc_page_capture: the screenshot as base64 PNG text (a
 * new string, sc__free), and its decoding (size checked against the clip).
 * The runner compares the text of consecutive captures: equal bytes are
 * equal pixels, so an unchanged screen costs no decode. */
int sc__page_capture_b64(char **b64, size_t *len, sc_page *p, sc_rect clip, double scale,
                         int fast);
int sc__page_decode(sc_image **out, const char *b64, size_t len, sc_rect clip, double scale);

/* Guest point to page CSS coordinates (pixel centre). */
void sc__page_to_css(const sc_page *p, sc_point g, double *x, double *y);

/* A key by DOM name: key, code, Windows virtual key code, location, text. */
typedef struct sc__keydef {
  const char *name;  /* what the caller writes: "NumpadAdd", "a", "Enter" */
  const char *key;   /* KeyboardEvent.key */
  const char *code;  /* KeyboardEvent.code */
  int vk;            /* windowsVirtualKeyCode */
  int location;      /* 0 standard, 1 left, 2 right, 3 numpad */
  const char *text;  /* text produced, "" for none */
} sc__keydef;

/* Look a key up by name (case-sensitive, single letters either case).
 * Returns NULL when unknown. For a single letter the result is built in buf. */
const sc__keydef *sc__key_lookup(const char *name, sc__keydef *buf, char textbuf[2]);
/* Modifier bit (CDP: Alt 1, Control 2, Meta 4, Shift 8) or 0. */
int sc__key_modifier(const char *name);

#endif
