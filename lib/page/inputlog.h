/* What the page saw of the inputs it was given and whether it sent
 * anything after them (docs/reliability.md, "Where the clicks were lost"):
 * recorded by the paint log's script (paintlog_js.c), asked for with one
 * Runtime.evaluate (inputlog.c). The runner's decision is in
 * run/input_seen.c. */
#ifndef SC_PAGE_INPUTLOG_H
#define SC_PAGE_INPUTLOG_H

#include "paintlog.h"
#include "stepcheck/page.h"

/* One trusted DOM event the page was given. */
typedef struct sc__input_event {
  char kind;        /* 'd' mousedown, 'u' mouseup, 'w' wheel, 'k' keydown */
  double at_ms;     /* when, run clock (sc__now_ms) */
  double x, y;      /* guest px (client position less the canvas's); keys: -1 */
  int dir;          /* wheel: the sign of deltaY (-1 up/in, 1 down/out) */
  double sent_ms;   /* the first message the page sent after it, run clock; -1 none */
  int sent_before;  /* the page had sent a message before it */
  char over[SC__INPUT_OVER + 1]; /* mouse events: the element it was given to
                                  * (tag#id.class) when not a canvas; else "" */
} sc__input_event;

/* The page's HTTP sends (sendlog_js.c): the last SC__HTTP_SENDS_RING. */
#define SC__HTTP_SENDS_RING 16
typedef struct sc__http_send {
  double at_ms;     /* when, run clock */
  char kind[12];    /* "fetch", "XHR", "sendBeacon", "EventSource" */
} sc__http_send;
extern const char sc__sendlog_js[];

/* The page's answer. */
typedef struct sc__input_evidence {
  int have;         /* 0: no record (no paint log, blind, or it did not answer) */
  const char *blind; /* why not, when have = 0 (static) */
  double now_ms;    /* when it answered, run clock */
  double clock_err; /* how far its times may be off the run clock, ms */
  int open_sockets; /* WebSockets the page sent on that are still open */
  long sends;       /* messages sent to open WebSockets or to workers, in all */
  size_t n;         /* the last n inputs (at most SC__INPUT_RING), oldest first */
  sc__input_event ev[SC__INPUT_RING];
  /* HTTP sends: http_have 0 when the page has no whole record of them (the
   * script is missing or a wrapper failed): then nobody can say that
   * nothing left the page by HTTP */
  int http_have;
  size_t nhttp;     /* oldest first */
  sc__http_send http[SC__HTTP_SENDS_RING];
} sc__input_evidence;

/* ev borrowed for the call. */
typedef void (*sc__inputs_cb)(int status, const char *errmsg, const sc__input_evidence *ev,
                              void *ud);

/* Ask the page for its record of inputs (one Runtime.evaluate answered at
 * once, with its own deadline timeout_ms); cb fires once, status 0 with
 * ev->have = 0 when the page has no record or its log is blind. 0 or
 * negative (cb never fires). */
int sc__page_inputs_async(sc_page *p, double timeout_ms, sc__inputs_cb cb, void *ud);

#endif
