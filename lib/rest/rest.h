/* The proof of rest (docs/design.md, "The rule of rest"): one object per
 * user (or per page wait) that owns the strategy — the page's paint log
 * with the compositor witness beside it, or screenshot pairs where the log
 * cannot see — and answers one question for whoever asks: "at rest and
 * final: this frame, at this time, proven by ...". Two jobs ask it:
 *  - settle (settle.c): a frame of a clip at rest, by a deadline, from a
 *    seed when one is proven (a cycle's start, drift, locating, the
 *    readiness gate, a step's capture before its gesture, the page waits);
 *  - verdict (verdict.c): after a gesture, frames at rest judged by the
 *    caller until one it accepts is proven final, or the deadline.
 * No other file decides rest. It reaches the page only through the I/O
 * table (io.h) and its owner's three hooks (replies, requests, one timer),
 * so unit tests drive it on a fake clock. */
#ifndef SC_REST_H
#define SC_REST_H

#include <stdint.h>

#include "judge/judge.h"
#include "rest/io.h"

/* A settle's outcome when the deadline came first (not an error). */
#define SC__NOT_AT_REST 1
/* The paint log's quiet time when the owner gives none (tests' zeroed
 * scenarios). */
#define SC__LOG_QUIET_MS 150.0
/* A capture's own deadline: what is left of the wait it serves, plus this
 * (a hung page fails its user soon after the wait, not after the browser's
 * 30 s command default). */
#define SC__CAPTURE_GRACE_MS 2000.0
/* Pacing of a verdict by pairs: while the screen is at rest but not yet
 * as the caller wants it, the next capture waits 1/SC__BACKOFF_DIV of the
 * time it has been at rest, at most SC__BACKOFF_MAX_MS (a step that sees
 * nothing happen captures ~50 times in 8 s instead of ~200; a late change
 * is seen at most 1/8 of its delay later). A screen that moves is captured
 * back to back. */
#define SC__BACKOFF_DIV 8.0
#define SC__BACKOFF_MAX_MS 250.0
/* A settle that must stay unchanged for a quiet time looks again at most
 * this often while it waits (the readiness gate). */
#define SC__QUIET_POLL_MS 200.0
/* A step's rest_why when the compositor witness saw a change the paint
 * log cannot explain. */
#define SC__WITNESS_WHY "the compositor drew a change the paint log cannot explain"

/* How the owner is told and asked (the runner's conventions: one request
 * outstanding, one timer, a cancel flag). */
typedef struct sc__rest_owner {
  /* a reply arrived: 0 to go on, else the error that ends the job
   * (canceled, or the reply's failure, with sc_errmsg() set) */
  int (*reply)(void *ud, int status, const char *errmsg);
  /* a request went out; timed = 1 when the stall rule times it (a
   * capture), 0 for a wait in the page (the log's answer comes when the
   * page says) */
  void (*asked)(void *ud, int timed);
  /* arm the owner's one timer: fn(arg) at at_ms; 0 or SC_ENOMEM */
  int (*after)(void *ud, double at_ms, void (*fn)(void *arg), void *arg);
  void *ud;
} sc__rest_owner;

/* What the owner configures (the scenario's, or defaults when 0). */
typedef struct sc__rest_config {
  int pairs;              /* the scenario chose pairs */
  double quiet_ms;        /* rest_quiet_ms: no paint this long proves rest */
  double capture_ms;      /* rest_capture_ms: capture this long after the last paint */
  int fast;               /* captures optimised for speed (PNG still lossless) */
  long self_first, self_every; /* the self-check's sampling (0, 0: never) */
  int trust;              /* the log trusted: no self-check (tests of the guards) */
} sc__rest_config;

/* A frame proven at a log position: a seed, or what a job leaves. */
typedef struct sc__rest_mark {
  uint64_t seq;
  int ok;                 /* proven settled at seq (as captured, not composed) */
} sc__rest_mark;

/* The answer. */
typedef struct sc__rest_proof {
  int rc;                 /* 0 at rest and final; SC__NOT_AT_REST when the deadline came
                             first (a verdict: the caller's last judgement stands); < 0 an
                             error (sc_errmsg() set) */
  sc__frame *f;           /* the last frame (the rest object's until its next proof:
                             sc__frame_move it to keep it) */
  sc__frame *prev;        /* a verdict with keep_prev: the frame before f (the same) */
  double at;              /* a verdict: when the final frame's capture replied (run clock) */
  double proven;          /* when its finality was proven (run clock) */
  const char *by;         /* "paint-log" or "pairs": the strategy in force at the end */
  sc__rest_mark mark;     /* the log position f is proven settled at */
  int log_settled;        /* a verdict: f was proven settled by the log */
  int seed_used;          /* a settle on the log with a proven seed: 1 the seed was the
                             answer, 0 it had to capture; -1 no such seed */
  /* a verdict: the paints the log dated over the clip since the gesture
   * (run clock, -1 none), and the time spent backing off */
  long paints;
  double first_paint, last_paint;
  double idle_ms;
} sc__rest_proof;

typedef void (*sc__rest_done)(void *ud, const sc__rest_proof *p);

/* A verdict's caller judges each frame (prev: the one before it, when
 * asked to keep it; same: it shows the last frame's pixels again): 1 when
 * everything it wants holds ("stable" aside: that is the frame's finality,
 * which the proof gives), 0 not yet. t_req, t_reply: when its capture was
 * asked for and when it replied (run clock). */
typedef int (*sc__rest_judge)(void *ud, sc__frame *f, sc__frame *prev, int same, double t_req,
                              double t_reply);

/* What a verdict waits for. */
typedef struct sc__rest_want {
  sc_rect clip;           /* the regions judged */
  sc_rect wide;           /* a wider capture for the log (the next need too), or clip */
  int cover;              /* capture wide (the owner learnt that it pays) */
  double deadline;        /* run clock */
  double gesture_end;     /* when the last input's reply came (pairs: rest counted from) */
  double input_at;        /* when the last input was sent; 0 = no gesture: the screen at rest */
  double not_before;      /* nothing is final on a capture asked for before this (a step
                             that expects no change: input_at + its response window) */
  double window_ms;       /* the response window (a wait for the answer to the last
                             input lasts at most this long after it) */
  int need_paint;         /* wait for a paint over clip first (a change is expected) */
  sc__log_must must;      /* regions that must be painted before an early capture */
  double *delay;          /* the capture delay learnt for this step (in/out), or NULL */
  sc__rest_mark from;     /* the log position of the frame before the gesture */
  int log;                /* that frame was proven by the log: the verdict may be too */
  const sc__frame *also;  /* frames whose bytes may repeat (copied, not decoded) */
  int keep_prev;          /* give the judge the frame before each one */
} sc__rest_want;

typedef struct sc__rest sc__rest;

/* One job in progress (settle.c, verdict.c). */
typedef struct sc__rest_job {
  int kind;               /* 0 none, SC__REST_SETTLE, SC__REST_VERDICT */
  sc_rect clip, now_clip; /* the clip proven; the clip of the capture in flight */
  double deadline, begun;
  sc__rest_done done;
  void *ud;
  sc__frame f, prev;      /* the last capture; the one before it (keep_prev) */
  int same;               /* f showed the pixels of the one before it */
  /* pairs */
  double quiet_ms;        /* settle: at rest = unchanged this long (0: two in a row) */
  double since;           /* the reply that first showed f's pixels, 0 = a seed */
  double cap_req_at, cap_last;
  /* the log */
  uint64_t after;         /* entries after this position are news */
  uint64_t pre;           /* the position just before the capture in flight */
  sc__rest_mark mark;     /* f proven settled at */
  int log_mode, early, cap_early, self_check, log_settled;
  double verdict_t, cap_at, proven_at, last_paint_at, early_last;
  /* a verdict */
  sc__rest_want w;
  sc__rest_judge judge;
  int holds;              /* the judge accepted f */
  long paints;
  double first_paint, last_paint, idle_ms;
} sc__rest_job;
#define SC__REST_SETTLE 1
#define SC__REST_VERDICT 2

struct sc__rest {
  const sc__io *io;
  sc__rest_owner own;
  sc__rest_config cfg;
  /* the strategy and what it learnt of the page */
  int log_off;            /* pairs from now on */
  const char *log_why;    /* why (static), or NULL */
  int witness_hit;        /* the compositor drew what the log cannot explain during this
                             step (or wait): pairs until the next (page/witness.h) */
  double log_doc;         /* the document the log positions count in */
  double log_late;        /* the job's longest paint-log stall (sc__log_reply.stall_ms) */
  long log_verdicts;      /* verdicts the log gave (for the self-check) */
  sc__rest_job j;
  sc__frame answer, answer_prev; /* the last proof's frames, until the caller moves
                                    them or the next proof */
};

/* Set up (zeroed first); io and own are borrowed. */
void sc__rest_init(sc__rest *rs, const sc__io *io, sc__rest_owner own, sc__rest_config cfg);
/* Free what a job holds (no callback fires). */
void sc__rest_clear(sc__rest *rs);
/* A new step: the log is tried again, its stall measure restarts. */
void sc__rest_step(sc__rest *rs);

/* Non-zero while rest is proven by the paint log. */
int sc__rest_logging(const sc__rest *rs);
/* The log is blind on this page (or failed its self-check): pairs from now
 * on, with why (static) in every later result. */
void sc__rest_off(sc__rest *rs, const char *why);
/* Why rest is proven by pairs now (static), or NULL while the log proves it. */
const char *sc__rest_why(const sc__rest *rs);
/* The quiet time that proves rest; the capture delay (at most the quiet time). */
double sc__rest_quiet_ms(const sc__rest *rs);
double sc__rest_capture_ms(const sc__rest *rs);
/* Pairs where the log turned out blind: unchanged for the quiet time, not
 * only twice in a row; 0 on pairs the scenario chose. */
double sc__rest_blind_quiet(const sc__rest *rs);

/* Settle (settle.c): a frame of clip at rest by the deadline; quiet_ms > 0:
 * unchanged that long (the readiness gate), 0: the rule's own. seed (or
 * NULL): an earlier capture that covers clip, proven at `mark`; when the
 * first capture shows its pixels (or, on the log, nothing painted over
 * clip since mark), it is the answer after one capture or none. A seed of
 * exactly clip is moved in; the caller frees *seed either way. done fires
 * once, later. */
void sc__rest_settle(sc__rest *rs, sc_rect clip, double deadline, double quiet_ms,
                     sc__frame *seed, sc__rest_mark mark, sc__rest_done done, void *ud);
/* Verdict (verdict.c): frames of want->clip at rest after a gesture, each
 * given to judge, until one it accepts is proven final (rc 0), or the
 * deadline (SC__NOT_AT_REST), or an error. done fires once, later. */
void sc__rest_verdict(sc__rest *rs, const sc__rest_want *want, sc__rest_judge judge,
                      sc__rest_done done, void *ud);

/* Take a capture into f, which holds the last capture of the same series
 * (or nothing) (take.c). *same = 1 when the new one shows exactly f's
 * pixels (the bytes as received hash the same, or decoded they are
 * equal): f keeps its pixels. Otherwise f's frame goes to *old (freed
 * when old is NULL) and f gets the new pixels: copied from `also` when the
 * bytes are also's, else decoded. 0 or negative. */
int sc__rest_take(const sc__io *io, sc__frame *f, sc__frame *old, sc_rect clip, const char *raw,
                  size_t len, int *same, const sc__frame *also);

/* ---- inside the rest object (rest.c), for settle.c and verdict.c ---- */

/* Ask the log about clip: entries after `after`; see sc__log_ask. The
 * page's own timeout is what is left until `until`. 0 (cb fires later) or
 * negative. */
int sc__rest_ask(sc__rest *rs, sc_rect clip, uint64_t after, double quiet_ms, double window_ms,
                 int need, double until, const sc__log_must *must, sc__io_logged cb);
/* Did the answer come from a log that saw everything? 0 after switching to
 * pairs (blind, or the witness saw what it did not). */
int sc__rest_have(sc__rest *rs, const sc__log_reply *rep);
/* Ask for a capture of clip whose own deadline is what is left until
 * `until` plus SC__CAPTURE_GRACE_MS; 0 (cb fires later) or negative. */
int sc__rest_capture(sc__rest *rs, sc_rect clip, double until, sc__io_captured cb);
/* The one pairs rule: a capture that shows the pixels of the one before
 * it proves rest when those pixels were seen unchanged for quiet ms, from
 * the reply of the capture that first showed them (`since`, > 0) to this
 * capture's request; quiet 0: two in a row are enough (pairs the scenario
 * chose). A seed never starts the quiet time: its age is not watched. */
int sc__rest_pairs_hold(double since, double req, double quiet_ms);
/* End the job with p (its frame: the job's f): the job is free for the
 * next one before done runs. */
void sc__rest_end(sc__rest *rs, sc__rest_proof *p);

#endif
