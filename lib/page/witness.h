/* The compositor witness (docs/design.md, "The rule of rest"): a tiny
 * Page.startScreencast whose frames come only when Chromium's compositor
 * draws a new frame, whatever drew it (a canvas call, CSS, SVG, a form
 * control, a caret, a shadow tree). It says that the screen changed, not
 * where. The paint log says where; a frame is explained when a log entry
 * (anywhere on the page) came just before it, or when one of our own
 * captures made it. A frame nothing explains is a change the log did not
 * see: the log's answer that follows says so (sc__log_reply.unexplained)
 * and the runner proves that step's rest by screenshot pairs. */
#ifndef SC_PAGE_WITNESS_H
#define SC_PAGE_WITNESS_H

#include <jansson.h>
#include <stddef.h>

/* Frames not yet judged (a ring; frames beyond it are "lost", which counts
 * as one unexplained frame). */
#define SC__WITNESS_FRAMES 1024
/* The log's entry times kept to explain frames with (a ring). */
#define SC__WITNESS_ENTS 256
/* Things of ours (captures, inputs) whose frames are told apart at once. */
#define SC__WITNESS_OURS 16
/* The screencast's size: the frame only has to exist. */
#define SC__WITNESS_SIZE 32
/* What we do makes frames too: a capture one to three (measured on Debian's
 * chromium and chromium-headless-shell: 11 and 12 frames for 10 captures,
 * up to about 230 ms after the reply), an input at most one per event, the
 * screencast's start one. Each is credited with that many frames arriving
 * from when it was asked for until this long after its reply: a change that
 * keeps coming (an animation: a frame about every 16 ms) overdraws any
 * credit at once. */
#define SC__WITNESS_OURS_MS 300.0
#define SC__WITNESS_CAPTURE_FRAMES 3
#define SC__WITNESS_START_MS 1000.0
/* A log entry explains the frames that come within this long after it, and
 * (with no frame in between) any frame up to SC__WITNESS_LAG_MS after it:
 * one paint may make two frames (a raster task finishing), and a busy
 * compositor may draw it late. A change that keeps coming without entries
 * (an animation) makes frames about every 16 ms, each needing an entry of
 * its own since the frame before. */
#define SC__WITNESS_NEAR_MS 40.0
#define SC__WITNESS_LAG_MS 250.0
/* A frame's timestamp is when its frame began, which the paint that made
 * it can follow by up to a frame's time (measured: 3-10 ms); the page clock
 * mapped onto the run's is exact to a millisecond or two. */
#define SC__WITNESS_AFTER_MS 25.0
#define SC__WITNESS_CLOCK_MS 2.0

typedef struct sc__witness {
  int state;              /* 0 not started, 1 on, -1 could not start (why in err) */
  char err[160];
  double frames[SC__WITNESS_FRAMES]; /* frames not yet judged (when each was drawn,
                                        run clock), oldest first */
  size_t nframes;
  int frames_lost;        /* more arrived than the ring holds */
  double prev;            /* the last judged frame's time, 0 none */
  double lag;             /* our clock minus the frames' timestamps, at least */
  int lag_ok;
  double ents[SC__WITNESS_ENTS]; /* the log's entry times (run clock), a ring */
  size_t nents;           /* entries ever put in the ring */
  double ents_lost_until; /* the log lost entries up to this time: frames until then
                             are explained (it painted more than its ring holds) */
  /* what we did that makes frames (witness.c, credit): when it was asked
   * for, until when its frames may come, how many more are ours */
  struct sc__witness_ours {
    double from, until;
    int credit;
  } ours[SC__WITNESS_OURS];
  long frames_total, unexplained_total;
} sc__witness;

struct sc_page;
/* A Page.screencastFrame event of the page's session: noted and acked. */
void sc__witness_frame(struct sc_page *p, json_t *params);
/* The screencast started (ok) or could not (why). */
void sc__witness_started(struct sc_page *p, int ok, const char *why);
/* Frames of ours to come (a capture, an input batch of n events), from now
 * until timeout_ms + SC__WITNESS_OURS_MS: returns the slot for
 * sc__witness_ours_end, called only when the reply came while the page
 * lives (then its frames may still come for SC__WITNESS_OURS_MS). */
int sc__witness_ours(struct sc_page *p, int frames, double timeout_ms);
void sc__witness_ours_end(struct sc_page *p, int slot);
/* Judge the frames that arrived until `until` (run clock) against the
 * log's entry times `ents` (run clock, n of them, oldest first; `lost`:
 * the log lost entries before the first of them). Returns how many of
 * those frames nothing explains (a ring overflow counts as one). */
int sc__witness_judge(struct sc_page *p, const double *ents, size_t n, int lost, double until);

#endif
