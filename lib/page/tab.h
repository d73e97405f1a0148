/* Internal state of a page, shared by the files of lib/page. */
#ifndef SC_PAGE_INTERNAL_H
#define SC_PAGE_INTERNAL_H

#include <jansson.h>
#include <stdint.h>

#include "stepcheck/page.h"
#include "browser/handle.h"
#include "core/opts.h"
#include "witness.h"

struct sc_page {
  sc_browser *browser;   /* borrowed */
  sc__client *cl;        /* borrowed from the browser */
  sc_page_options opts;
  char *context_id;
  char *target_id;
  char *session_id;
  double timeout_ms;     /* per command */
  /* canvas geometry, CSS px: (cx, cy) in the viewport (input), the page
   * scrolled by (sx, sy) when it was found (captures clip the document) */
  double cx, cy;
  double sx, sy;
  int cw, ch;
  int by_selector;       /* the guest was named by a canvas selector */
  /* mouse state for the next event */
  int buttons;
  struct sc__opener *opener; /* an open in flight (open.c), else NULL */
  sc__listener_id lid;   /* our event listener on the client, 0 none */
  int crashed;           /* the renderer crashed (Inspector.targetCrashed) */
  sc__browser_dep dep;   /* tracked by the browser: freed first, it orphans us */
  char *finder;          /* the canvas finder the page opened with (guest.c) */
  /* the paint log (paintlog.c): page clock = run clock + log_off, as
   * measured by the answer with the shortest round trip (log_rtt) in the
   * document log_doc */
  double log_off, log_rtt, log_doc;
  sc__witness wit;       /* the compositor witness (witness.c) */
};

/* Which canvas is the guest (choose.c): g is the finder's report of every
 * canvas. 1 chosen (*out filled); 2 chosen but outside the viewport: scroll
 * the page to out->scroll_x/y and look again; 0 not yet (why says what the
 * page shows); -1 never (an HTTP error page). */
typedef struct sc__guest_pick {
  double x, y;
  int cw, ch;
  double scroll_x, scroll_y;
} sc__guest_pick;
int sc__guest_choose(json_t *g, int want_w, int want_h, int by_selector, sc__guest_pick *out,
                     char *why, size_t whylen);

/* One CDP command on this page's session; *result (optional) new reference.
 * Errors: sc_errmsg() = "METHOD: reason". Blocking: services the loop. */
int sc__page_call(sc_page *p, const char *method, json_t *params, json_t **result);

/* The asynchronous page: every function below queues its commands and
 * returns at once; the callback fires exactly once from the loop, or never
 * when the function itself returned an error. errmsg is borrowed. */
typedef void (*sc__done_cb)(int status, const char *errmsg, void *ud);
/* A capture's reply: b64 is the PNG as base64 text, borrowed for the call. */
typedef void (*sc__capture_cb)(int status, const char *errmsg, const char *b64, size_t len,
                               void *ud);

/* Commands sent back to back, done when the last reply is in: status is
 * the first failure. params are stolen (all of them, also on failure). */
int sc__page_batch(sc_page *p, const char *method, json_t **params, int n, sc__done_cb cb,
                   void *ud);
int sc__page_move_async(sc_page *p, sc_point at, sc__done_cb cb, void *ud);
int sc__page_click_async(sc_page *p, sc_point at, sc__done_cb cb, void *ud);
/* One wheel notch (dir < 0 up/in, > 0 down/out), with a pointer move first
 * when move is set. */
int sc__page_notch_async(sc_page *p, sc_point at, int dir, int move, sc__done_cb cb, void *ud);
int sc__page_key_async(sc_page *p, const char *key, int repeat, sc__done_cb cb, void *ud);
/* Clip screenshot (guest rect) with its own deadline (<= 0: the page's). */
int sc__page_capture_async(sc_page *p, sc_rect clip, double scale, int fast,
                           double timeout_ms, sc__capture_cb cb, void *ud);
/* SC_EINVAL ("WHAT: region ... outside the WxH canvas") unless guest rect r
 * lies inside the canvas (capture.c). */
int sc__page_check_rect(const sc_page *p, sc_rect r, const char *what);
/* The paint log (paintlog.c): wait in the page as ask says; cb fires
 * once with the answer (rep borrowed for the call). A page whose log is
 * blind, or that has none, answers have = 0 with the reason (status 0). */
struct sc__log_ask;
struct sc__log_reply;
typedef void (*sc__log_cb)(int status, const char *errmsg, const struct sc__log_reply *rep,
                           void *ud);
int sc__page_log_wait_async(sc_page *p, const struct sc__log_ask *ask, sc__log_cb cb, void *ud);
/* Open a page without blocking: *out is set at once (the caller's; free it
 * only after cb fired, or after the open failed synchronously); cb fires
 * when the canvas is there (0) or the open failed. */
int sc__page_open_async(sc_page **out, sc_browser *b, const char *url,
                        const sc_page_options *opts, sc__done_cb cb, void *ud);
/* Non-zero once the page's renderer crashed. */
int sc__page_crashed(const sc_page *p);
/* The deadline of the page's commands from now on (ms > 0). */
void sc__page_set_timeout(sc_page *p, double ms);
/* Abandon an open in flight (its callback never fires). */
void sc__page_open_abandon(sc_page *p);
/* Close without waiting: the target and its context are closed by
 * fire-and-forget commands; p is freed at once. NULL is fine. */
void sc__page_close_async(sc_page *p);
/* Run the page's loop until *done is non-zero (blocking wrappers). */
void sc__page_wait(sc_page *p, const int *done);
/* A blocking wrapper's state: pass sc__waited and a waiter to an
 * asynchronous call, then sc__page_wait_for(p, &w, rc_of_that_call): 0, or
 * the call's error with its message. */
typedef struct sc__waiter {
  int done, status;
  char err[512];
} sc__waiter;
void sc__waited(int status, const char *errmsg, void *ud);
int sc__page_wait_for(sc_page *p, sc__waiter *w, int rc);
/* Is the canvas still where the page opened it (guest.c)? cb gets 0, or
 * SC_EGEOMETRY naming what became of it. */
int sc__page_guest_check_async(sc_page *p, sc__done_cb cb, void *ud);
/* Register p (p->browser set) with its browser (page.c). */
void sc__page_track(sc_page *p);
/* Argument checks (check.c): SC_EINVAL naming fn for a NULL page, or a
 * point that is not finite or not a pixel of the guest; SC_ECLOSED for a
 * page whose browser was freed. */
int sc__page_check(const sc_page *p, const char *fn);
/* sc__page_check, and SC_EBUSY when the page's loop is running: the first
 * check of every blocking page call (nothing is started when it fails). */
int sc__page_blocking(const sc_page *p, const char *fn);
int sc__page_check_point(const sc_page *p, sc_point at, const char *fn);
/* The loop the page lives on (borrowed). */
struct sc_loop *sc__page_loop(sc_page *p);

/* Decode a capture (size checked against the clip). The runner compares
 * the text of consecutive captures: equal bytes are equal pixels, so an
 * unchanged screen costs no decode. */
int sc__page_decode(sc_image **out, const char *b64, size_t len, sc_rect clip, double scale);

/* Guest point to page CSS coordinates (pixel centre). */
void sc__page_to_css(const sc_page *p, sc_point g, double *x, double *y);

/* One key as the browser is told of it (keys.c; the table: docs/keys.md). */
typedef struct sc__key {
  char key[16];      /* KeyboardEvent.key ("a", "+", "Escape", a UTF-8 character) */
  const char *code;  /* KeyboardEvent.code ("KeyA", "NumpadAdd"); "" for none */
  int vk;            /* windowsVirtualKeyCode, 0 for none */
  int location;      /* 0 standard, 1 left, 2 right, 3 numpad */
  char text[16];     /* text typed, "" for none */
  int shift;         /* a US keyboard needs Shift held to type it ("A", "+") */
} sc__key;
/* A key by DOM key value, DOM code or alias; 0, or -1 when unknown. */
int sc__key_find(sc__key *k, const char *name);
/* Modifier bit (CDP: Alt 1, Control 2, Meta 4, Shift 8) or 0. */
int sc__key_modifier(const char *name);
/* A key spec: at most SC__KEY_PARTS parts ("Control+Shift+a": modifiers,
 * then one key), shorter than SC__KEY_NAME_MAX. */
#define SC__KEY_PARTS 8
#define SC__KEY_NAME_MAX 128
typedef struct sc__keyspec {
  int nmods;
  sc__key mods[SC__KEY_PARTS - 1];
  int modifiers;     /* bits of mods */
  sc__key key;       /* Shift applied when it is a modifier */
} sc__keyspec;
/* Parse spec; 0, or -1 with the reason in why. */
int sc__key_parse(sc__keyspec *out, const char *spec, char *why, size_t whylen);
/* The same check without keeping the result (the scenario loader checks
 * keys without a browser). */
int sc__key_check(const char *spec, char *why, size_t whylen);

/* Versioned options (core/opts.h). */
SC__OPTS_DECLARE(page_options);

#endif
