/* The table through which the runner and the proof of rest reach the page
 * and the clock (lib/run/io.c gives the real page's; unit tests give a
 * scripted world with a fake clock). Each function returns 0 and calls
 * back exactly once later, or returns an error and never calls back. */
#ifndef SC_REST_IO_H
#define SC_REST_IO_H

#include <stddef.h>
#include <stdint.h>

#include "stepcheck/image.h"
#include "page/inputlog.h"
#include "page/paintlog.h"

/* Completion of an input or of a capture (raw bytes borrowed for the call). */
typedef void (*sc__io_done)(int status, const char *errmsg, void *ud);
typedef void (*sc__io_captured)(int status, const char *errmsg, const char *raw, size_t len,
                                void *ud);
typedef void (*sc__io_tick)(void *ud);
/* The paint log's answer (page/paintlog.h; rep borrowed for the call). */
typedef void (*sc__io_logged)(int status, const char *errmsg, const sc__log_reply *rep,
                              void *ud);
/* The page's record of its inputs (page/inputlog.h; ev borrowed for the call). */
typedef void (*sc__io_inputs)(int status, const char *errmsg, const sc__input_evidence *ev,
                              void *ud);

typedef struct sc__io {
  int (*move)(void *ctx, sc_point at, sc__io_done cb, void *ud);
  int (*click)(void *ctx, sc_point at, sc__io_done cb, void *ud);
  /* one wheel notch; dir < 0 in/up; first: move the pointer there first */
  int (*notch)(void *ctx, sc_point at, int dir, int first, sc__io_done cb, void *ud);
  int (*key)(void *ctx, const char *key, int repeat, sc__io_done cb, void *ud);
  int (*capture)(void *ctx, sc_rect clip, int fast, double timeout_ms, sc__io_captured cb,
                 void *ud);
  int (*decode)(void *ctx, sc_image **out, const char *raw, size_t len, sc_rect clip);
  /* a timer at absolute monotonic ms; returns an id > 0, 0 when out of memory */
  uint64_t (*timer)(void *ctx, double at_ms, sc__io_tick cb, void *ud);
  void (*cancel)(void *ctx, uint64_t id);
  /* is the guest (the canvas) still where the page opened it? 0, or
   * SC_EGEOMETRY saying what became of it; NULL = not asked */
  int (*guest)(void *ctx, sc__io_done cb, void *ud);
  void *ctx;
  /* wait in the page on its paint log (docs/design.md, "Paint log"); NULL
   * = no log: rest is proven by screenshot pairs */
  int (*log_wait)(void *ctx, const sc__log_ask *ask, sc__io_logged cb, void *ud);
  /* what the page saw of its inputs and sent after them, answered at once
   * (input_seen.c); NULL = not asked: a failure stays the application's */
  int (*inputs)(void *ctx, double timeout_ms, sc__io_inputs cb, void *ud);
} sc__io;

#endif
