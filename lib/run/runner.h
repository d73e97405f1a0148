/* Internal runner state: one user as a state machine driven by replies and
 * timers (never by sleeping): setup steps, then cycles of steps, each step
 * settle -> park -> at-rest capture -> gesture (captures between notches)
 * -> polls -> verdict; a cycle starts with a "start" snapshot and ends with
 * a drift check. */
#ifndef SC_RUNNER_H
#define SC_RUNNER_H

#include <stdint.h>

#include "image/pack.h"
#include "judge/judge.h"
#include "page/inputlog.h"
#include "page/paintlog.h"
#include "rest/rest.h"
#include "stepcheck/page.h"
#include "stepcheck/run.h"
#include "scenario/model.h"

/* The I/O table (rest/io.h): the runner's and its proof of rest's. */
typedef sc__io sc__runner_io;

/* The table that drives a real page on its loop. */
sc__runner_io sc__runner_page_io(sc_page *p);

/* A snapshot is held packed (image/pack.h: a few KB for a flat 4 MB
 * screen); a check unpacks only the region it compares. */
typedef struct sc__snap {
  char *name;       /* "start" or a step id */
  sc__frame f;      /* packed */
} sc__snap;

typedef struct sc__baseline {
  char *path;
  sc_image *img;
} sc__baseline;

typedef struct sc__runner sc__runner;

/* Passed steps' frames (frames.c): bytes written against the budget, held
 * by the multi handle so that every user of a run counts against one. */
typedef struct sc__frames_budget {
  long long budget;           /* bytes; 0 = keep no passed step's frames */
  long long written;
  int spent;                  /* a step's frames did not fit: no more from now on */
  int guest;                  /* also the whole guest before and after every step */
} sc__frames_budget;

/* A settle (sc__runner_settle): done(r, rc) with rc 0 at rest,
 * SC__NOT_AT_REST (rest/rest.h; not an error) when the deadline came
 * first, negative when a capture failed; the last capture is in
 * r->settle.f, proven settled at log position seq when seq_ok. */
/* Infrastructure stalls: a step whose time runs out after the browser took
 * longer than this to answer one request (a capture or an input) was not
 * watched for its whole timeout, so it ends as an error of the run (VOID),
 * never as the application's failure ("unchanged", "not settled", "not at
 * rest"). Captures take tens of ms, a few hundred under load; a frozen or
 * starved browser takes seconds. */
#define SC__STALL_MS 2000.0
/* A paint log's answer this late (or a page heartbeat this long) means the
 * browser or the page stood still: the stall rule, as SC__STALL_MS for a
 * request (an answer is due at once; a request takes a capture's time). */
#define SC__LOG_LATE_MS 1000.0
/* How long the cycle's end (drift) waits for the screen to come to rest. */
#define SC__REST_WAIT_MS 8000.0
typedef void (*sc__settle_done)(sc__runner *r, int rc);
typedef struct sc__settle {
  sc__frame f;              /* the answer's frame */
  uint64_t seq;             /* f proven settled at this log position (seq_ok) */
  int seq_ok;
  sc__settle_done done;
  double begun;             /* when this settle began */
} sc__settle;

/* One step in progress. */
typedef struct sc__stepm {
  const sc_step *st;
  size_t ni;                /* index into r->need */
  sc_step_result *res;
  sc_rect U;                /* every region the step's expectations name */
  sc_rect B;                /* what its at-rest capture before the gesture covers: the
                               regions whose verdict compares with it (changed,
                               unchanged, scale) and the snapshots later steps name
                               (run.c, before_need) */
  sc_rect C;                /* the verdict capture's clip on the paint log: U and, when
                               cheap, the next capture's need (run.c) */
  sc__frame before, cur;    /* at rest before the gesture; the last capture
                               (both held packed between captures) */
  sc__frame prev;           /* the capture before cur: only for a step with a
                               "stable" expectation (else no pixels) */
  int keep_prev;
  sc__verdict *v;
  sc__scale *sb;
  long *cb;                 /* per expectation: colour count on before */
  sc__judge_ctx ctx;
  double t0;
  double capsum, cap_last, last_t;
  double cap_req_at;        /* when a capture between notches was asked for */
  int notch;                /* notches sent */
  double next_notch_at;
  int key_moved;            /* a key step's pointer move is done */
  int in_poll;              /* the gesture is whole: the verdict job runs */
  int no_change;            /* a gesture and no expectation that needs a change:
                               verified only after the response window */
  int log_mode;             /* the at-rest capture before the gesture was proven by the
                               log (so may the verdict be) */
  sc__rest_mark mark;       /* cur proven settled at (the verdict's proof) */
  double input_at;          /* when the gesture's last input was sent, run clock */
  double begun;             /* when the step began (its time until a fault
                               that came before the gesture) */
} sc__stepm;

/* SC__PH_ONE: a single step run on its own (sc__runner_step_once); the
 * machine stops after it. */
enum sc__phase { SC__PH_SETUP, SC__PH_CYCLE_START, SC__PH_STEPS, SC__PH_DRIFT, SC__PH_DONE,
                 SC__PH_ONE, SC__PH_LOCATE };

typedef void (*sc__runner_step_cb)(sc__runner *r, const sc_step_result *res, void *ud);
typedef void (*sc__runner_done_cb)(sc__runner *r, void *ud);

struct sc__runner {
  const sc_scenario *s;
  sc__runner_io io;           /* the page (or a test's script) */
  const char *report_dir;     /* failure images, or NULL */
  sc__frames_budget *frames;  /* passed steps' frames (the multi's); NULL = none */
  sc_image *guest_before;     /* with frames->guest: the whole guest before this step */
  int guest_rc;               /* the step's end code, kept while its guest-after capture runs */
  int fast_capture;
  sc_rect *need;              /* per step (setup then cycle): guest rect to capture;
                                 then, per step, the paint log's verdict capture clip
                                 (run.c, plan_captures); then, per step, the at-rest
                                 capture's before the gesture (stepm.B) */
  unsigned char *keep;        /* per step: a later check names its snapshot */
  signed char *cover;         /* per step: how the covering capture (need's second half)
                                 fared, learnt (run.c, sc__runner_covering) */
  size_t last_cover;          /* 1 + the step whose covering capture r->last is, 0 none */
  double *capture_at;         /* per step: the capture delay learnt from the application's
                                 paint rhythm (rest/verdict.c), 0 = the scenario's */
  size_t seed_cover;          /* the same of the seed sc__runner_seed gave out */
  sc__judge_prep *prep;       /* text patterns and glyph sets, made once */
  sc__snap *snaps;
  size_t nsnaps;
  sc__baseline *baselines;
  size_t nbaselines;
  double last_gesture_end;    /* ms, monotonic; 0 = none yet */
  double last_click_at;
  sc_point last_click;
  int have_click;
  /* locators (locate.c): r->s is then this user's resolved copy of the
   * scenario, and scenario the one it was made from */
  const sc_scenario *scenario;
  sc_scenario *resolved;
  int guest_w, guest_h;       /* the canvas the page found (0: the scenario's guest) */
  double gate_t0;             /* when the readiness gate began (0: not running) */
  double locate_until;        /* a locate that finds nothing tries again until then */
  double locate_quiet;
  void (*after_locate)(sc__runner *r);

  /* the machine */
  sc_run_result *rr;          /* results go here (owned by the caller) */
  int cycles;                 /* to run, unless duration_ms */
  double duration_ms;         /* > 0: new cycles until this long after the first began */
  double first_cycle_at;
  int phase;
  size_t idx;                 /* step index within the phase */
  int cycle;                  /* 1-based, 0 in setup */
  sc__stepm sm;
  sc__settle settle;
  sc__frame last;             /* the last step's last capture, until the next
                                 step's at-rest capture has used it */
  int last_is_drift;          /* last is the drift check's capture, at rest,
                                 pointer parked, nothing sent since */
  uint64_t timer;             /* a pending timer of ours, 0 none */
  void (*timer_fn)(sc__runner *r);  /* what it runs */
  void (*after_park)(sc__runner *r);
  int rc;                     /* 0, or the error that ended the user */
  int pending;                /* an I/O callback of ours is outstanding */
  double io_asked_at;         /* when the outstanding I/O was asked for */
  double io_slowest;          /* the step's slowest I/O round trip, ms */
  int canceled;
  char cancel_why[200];
  volatile int *interrupt; /* borrowed: ends a template search at once (sc__multi_interrupt) */
  sc__runner_step_cb on_step;
  sc__runner_done_cb on_done;
  void *ud;
  /* proof of rest (rest/rest.h): the strategy, its jobs */
  sc__rest rest;
  uint64_t last_seq;          /* r->last was proven settled at this log position */
  int last_seq_ok;
  uint64_t seed_seq;          /* the same of the seed sc__runner_seed gave out */
  int seed_ok;
  void (*timer_gfn)(void *arg);
  void *timer_arg;
};

/* The self-check (rest/verdict.c): a verdict the log gave is checked with
 * a second capture for the first self_check_first of a user's log
 * verdicts, then one in self_check_every (the scenario's; these are its
 * defaults). */
#define SC__SELF_CHECK_FIRST 1
#define SC__SELF_CHECK_EVERY 16
/* The proof of rest of this user, set up on first use (its strategy
 * survives the plan's changes); its configuration follows r->s. */
sc__rest *sc__runner_rest(sc__runner *r);
/* Non-zero while rest is proven by the paint log for this user. */
int sc__runner_logging(sc__runner *r);

/* Union of two rects (an empty rect is the identity). */
sc_rect sc__rect_union(sc_rect a, sc_rect b);
/* Non-zero when rect b lies inside rect a. */
int sc__rect_covers(sc_rect a, sc_rect b);

/* Work out what each step must capture (r->need); sc__runner_plan_free
 * forgets it (the regions moved). */
int sc__runner_plan(sc__runner *r);
void sc__runner_plan_free(sc__runner *r);
/* Does step ni's verdict capture cover the next need (r->need's second
 * third)? Learnt per step: a covering capture that the next at-rest capture
 * could not use (the park or the application painted there in between)
 * twice more often than one it could stops the covering for that step. */
int sc__runner_covering(const sc__runner *r, size_t ni);
/* The settle given the seed of a covering capture (r->seed_cover) used it
 * (1) or had to capture anyway (0). */
void sc__runner_cover_used(sc__runner *r, int used);

/* Start the machine: setup steps, then cycles; results appended to r->rr,
 * on_step after each, on_done once at the end (also after an error, which
 * is then in r->rr->error). Returns 0, or an error when nothing started
 * (on_done never fires then). */
int sc__runner_start(sc__runner *r);
/* Run one step alone as cycle `cycle` (need index ni); its result is
 * appended to r->rr when it is over. For tests and harnesses. */
void sc__runner_step_once(sc__runner *r, const sc_step *st, size_t ni, int cycle);
/* Stop at the next callback: the step in progress is not judged; the user
 * ends with error "canceled: why". Safe from inside any callback. */
void sc__runner_cancel(sc__runner *r, const char *why);
/* Find the scenario's locators on a whole-guest capture at rest (quiet_ms
 * as the readiness gate), make r->s this user's resolved copy, record
 * where each was found, then fn; a locator not found ends the user with
 * its error (locate.c). */
void sc__runner_locate(sc__runner *r, double quiet_ms, void (*fn)(sc__runner *r));
/* How long the locate phase keeps looking when a locator finds nothing or
 * two places: the application may still be painting (noVNC shows a blank
 * canvas until it has connected, which is as still as a finished screen). */
#define SC__LOCATE_WAIT_MS 15000.0
#define SC__LOCATE_RETRY_MS 500.0

/* A scenario without "guest" takes the canvas at its size: its literal
 * points and regions must lie inside it (SC_EGEOMETRY naming the first
 * that does not); located ones are checked where they are found. */
int sc__runner_check_guest(sc__runner *r);
/* End the user now with error rc (already set with its message). */
void sc__runner_fail(sc__runner *r, int rc);

/* Free everything the runner holds (not the result, not the page). */
void sc__runner_clear(sc__runner *r);

/* The seed of an at-rest pair over clip, taken out of r->last (left
 * empty): the last capture when it covers clip; else, when the cycle's
 * "start" covers clip, clip as last seen: start with the last capture over
 * it (a change since that neither shows costs the second capture, as with
 * no seed). May be left empty. */
void sc__runner_seed(sc__runner *r, sc__frame *out, sc_rect clip);

/* Internal parts of the machine, one file each. The settled capture of
 * clip (settle.c, over the rest object's settle job): seed: an earlier
 * capture that covers clip (or NULL), proven at r->seed_seq when
 * r->seed_ok; when the first capture shows its pixels, the screen is at
 * rest after one capture instead of two. A seed of exactly clip is moved
 * in (left empty); the caller frees *seed either way. */
void sc__runner_settle(sc__runner *r, sc_rect clip, double deadline, sc__settle_done done,
                       sc__frame *seed);
/* The same, at rest only once the capture has not changed for quiet_ms:
 * the readiness gate. */
void sc__runner_settle_quiet(sc__runner *r, sc_rect clip, double deadline, double quiet_ms,
                             sc__settle_done done);
/* Run step st (need index ni): appends a result, then calls next(r, rc). */
void sc__runner_step_begin(sc__runner *r, const sc_step *st, size_t ni);
/* The step is over (step.c; rc < 0: an error stopped it). */
void sc__step_finish(sc__runner *r, int rc);
/* A step failed (its reason set, as the application's failure): before it
 * is final, ask the page whether its gesture's inputs left the browser;
 * on positive evidence that they did not, it ends as a fault (SC_EIO,
 * "input lost before it left the browser: ..."), else as it was, its
 * reason followed by what the page did with the input when it saw all of
 * it ("...; the page saw its mousedown and mouseup at (x,y) and handed a
 * message on 2.3 ms after its mouseup") (input_seen.c). */
void sc__step_failed(sc__runner *r);
/* The decision: 1 when ev shows that an input of action a, whose gesture
 * began at t0 (run clock) and was judged for timeout_ms, never left the
 * browser, with why ("the page saw no mousedown at (x,y)"); 0 when it
 * left, or the evidence cannot say: then why is what the page did with
 * the gesture when it saw all of it ("the page saw its mousedown and
 * mouseup at (x,y) and handed a message on 2.3 ms after its mouseup"),
 * else empty. */
int sc__input_lost(const sc_action *a, double t0, double timeout_ms,
                   const sc__input_evidence *ev, char *why, size_t len);
/* The machine moves on after a step (step.c calls it). */
void sc__runner_step_end(sc__runner *r, int rc);
/* An I/O reply arrived: 0 when the machine may go on, else the error that
 * ends what it was doing (canceled, or the reply's failure, with
 * sc_errmsg() set to its text). */
int sc__runner_reply(sc__runner *r, int status, const char *errmsg);
/* Ask for a capture of clip whose own deadline is what is left until
 * `until` plus SC__CAPTURE_GRACE_MS; 0 (cb fires later, r->pending set) or
 * negative (cb never fires). */
int sc__runner_capture(sc__runner *r, sc_rect clip, double until, sc__io_captured cb);
/* Timer helper: arm r->timer at at_ms calling fn(r). 0 or SC_ENOMEM. */
int sc__runner_after(sc__runner *r, double at_ms, void (*fn)(sc__runner *r));
/* Remember f's pixels under a name (replacing an older one), packed. */
int sc__runner_snap_put(sc__runner *r, const char *name, const sc__frame *f);
/* A snapshot (packed); NULL when unknown. */
const sc__frame *sc__runner_snap_get(void *r, const char *name);
/* Forget every snapshot (a new cycle starts: none may leak into it). */
void sc__runner_snaps_clear(sc__runner *r);
const sc_image *sc__runner_baseline(void *r, const char *path);

/* Write before/after/diff PNGs of guest rect rr for a failed step; appends
 * paths to res->artifacts. */
void sc__runner_artifacts(sc__runner *r, sc_step_result *res, const char *region,
                          sc_rect rr, const sc__frame *before, const sc__frame *after,
                          int cycle);

/* Where a step's images go: "DIR/USER@cCYCLE-STEP@REGION" (add
 * "-before.png", ...), report_dir made when missing; the caller's
 * (sc__free). NULL with *why (the caller's, sc__free; NULL when out of
 * memory) when the directory cannot be made. */
char *sc__runner_artifact_base(sc__runner *r, const char *step_id, const char *region, int cycle,
                               char **why);
/* The step just passed (r->sm): when the run keeps passed steps' frames and
 * its budget has room, write the before/after PNGs of each region its
 * expectations name and list them in its artifacts (frames.c). */
void sc__runner_pass_frames(sc__runner *r);
/* With frames->guest: write r->guest_before and after (the whole guest
 * around step res) as its guest frames, within the budget (frames.c). */
void sc__runner_guest_frames(sc__runner *r, sc_step_result *res, const sc_image *after);

/* Results: append a copy of res (moved in) to rr; drift entries. */
int sc__result_push(sc_run_result *rr, sc_step_result *res);
/* The one way a step result is freed (its artifacts' paths included). */
void sc__step_result_free(sc_step_result *res);
int sc__result_drift(sc_run_result *rr, int cycle, const char *region, long pixels);

#endif
