/* Internal runner state: one user's page, its snapshots and clocks. */
#ifndef SC_RUNNER_H
#define SC_RUNNER_H

#include "judge/judge.h"
#include "page/page_internal.h"
#include "stepcheck/page.h"
#include "stepcheck/run.h"

/* How the runner reaches the page (see io.c). */
typedef struct sc__runner_io {
  int (*move)(void *ctx, sc_point at);
  int (*click)(void *ctx, sc_point at);
  int (*wheel)(void *ctx, sc_point at, int notches, sc__idle_fn idle, void *ud);
  int (*key)(void *ctx, const char *key, int repeat);
  /* the capture as received (a new string, sc__free) */
  int (*capture)(void *ctx, char **raw, size_t *len, sc_rect clip, int fast);
  int (*decode)(void *ctx, sc_image **out, const char *raw, size_t len, sc_rect clip);
  void *ctx;
} sc__runner_io;

/* The table that drives a real page. */
sc__runner_io sc__runner_page_io(sc_page *p);

typedef struct sc__snap {
  char *name;       /* "start" or a step id */
  sc__frame f;
} sc__snap;

typedef struct sc__baseline {
  char *path;
  sc_image *img;
} sc__baseline;

typedef struct sc__runner {
  const sc_scenario *s;
  sc__runner_io io;           /* the page (or a test's script) */
  const sc_run_options *o;
  sc_rect *need;              /* per step (setup then cycle): guest rect to capture */
  sc__snap *snaps;
  size_t nsnaps;
  sc__baseline *baselines;
  size_t nbaselines;
  double last_gesture_end;    /* ms, monotonic; 0 = none yet */
  double last_click_at;
  sc_point last_click;
  int have_click;
  int artifact_seq;
} sc__runner;

/* Union of two rects (an empty rect is the identity). */
sc_rect sc__rect_union(sc_rect a, sc_rect b);

/* Capture guest rect clip into f (replaced). *ms gets the whole cost
 * (round trip and decode), *reply the time the reply arrived. When this
 * capture's bytes equal those of prev (then *same is set: nothing changed
 * since) or of also (e.g. the pre-gesture capture), that frame's image is
 * copied instead of decoded. prev, also and same may be NULL. */
int sc__runner_capture(sc__runner *r, sc__frame *f, sc_rect clip, double *ms, double *reply,
                       const sc__frame *prev, int *same, const sc__frame *also);
/* Capture until two consecutive captures are identical, at most until
 * deadline (monotonic ms). 0 when at rest; SC__NOT_AT_REST (positive: not
 * an error) when the deadline came first, f then holds the last capture;
 * negative sc_error when a capture failed (a CDP timeout among them). */
#define SC__NOT_AT_REST 1
int sc__runner_capture_settled(sc__runner *r, sc__frame *f, sc_rect clip, double deadline);

/* Remember a frame under a name (replacing an older one); f is moved in. */
int sc__runner_snap_put(sc__runner *r, const char *name, sc__frame *f);
const sc__frame *sc__runner_snap_get(void *r, const char *name);
/* Forget every snapshot (a new cycle starts: none may leak into it). */
void sc__runner_snaps_clear(sc__runner *r);
const sc_image *sc__runner_baseline(void *r, const char *path);
void sc__runner_clear(sc__runner *r);

/* Work out what each step must capture (r->need). */
int sc__runner_plan(sc__runner *r);

/* Start a cycle: forget every snapshot, park, take "start" at rest. */
int sc__runner_cycle_start(sc__runner *r, const sc_step *first);

/* Run one step (index into setup when setup is set, else into the cycle). */
int sc__runner_step(sc__runner *r, sc_step_result *res, const sc_step *st, size_t need_index,
                    int cycle);

/* Write before/after/diff PNGs of guest rect rr for a failed step; appends
 * paths to res->artifacts and returns a short " (see DIR/...)" suffix. */
void sc__runner_artifacts(sc__runner *r, sc_step_result *res, const char *region,
                          sc_rect rr, const sc__frame *before, const sc__frame *after,
                          int cycle);

#endif
