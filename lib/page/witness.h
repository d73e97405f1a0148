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
#include <stdint.h>

/* Frames not yet judged (a ring; frames beyond it are "lost", which counts
 * as one unexplained frame). */
#define SC__WITNESS_FRAMES 1024
/* The log's entry times kept to explain frames with (a ring). */
#define SC__WITNESS_ENTS 256
/* Things of ours (captures, inputs) whose frames are told apart at once. */
#define SC__WITNESS_OURS 16
/* At most one probe (witness.c) this often. */
#define SC__WITNESS_PROBE_MS 100.0
/* The screencast's size: the frame only has to exist. */
#define SC__WITNESS_SIZE 32
/* What we do makes frames too: a capture one to four (measured on Debian's
 * chromium and chromium-headless-shell: 11 and 12 frames for 10 captures,
 * up to about 230 ms after the reply, 520 ms under load), an input one at
 * once (headless shell: one for two moves and a click; the map app: none),
 * the screencast's start one. Each is credited with that many frames arriving
 * from when it was asked for until this long after its reply: a change that
 * keeps coming (an animation: a frame about every 16 ms) overdraws any
 * credit at once. */
#define SC__WITNESS_OURS_MS 1000.0
#define SC__WITNESS_CAPTURE_FRAMES 4
#define SC__WITNESS_START_MS 1000.0
#define SC__WITNESS_INPUT_MS 50.0
/* A log entry explains up to SC__WITNESS_ENTRY_FRAMES frames from
 * SC__WITNESS_AFTER_MS before it to SC__WITNESS_LAG_MS after it: one paint
 * may make two or three frames (a raster task finishing, a frame drawn
 * late by a busy compositor: measured up to 80 ms apart on the map app
 * under load). A change that keeps coming without entries (an animation:
 * a frame about every 16 ms) overdraws any entry's credit at once. */
#define SC__WITNESS_ENTRY_FRAMES 3
#define SC__WITNESS_LAG_MS 250.0
/* A frame's timestamp is when its frame began, which the paint that made
 * it can follow by up to a frame's time (measured: 3-10 ms), and what we
 * do by a few ms (measured: 5); the page clock mapped onto the run's is
 * exact to a millisecond or two. */
#define SC__WITNESS_AFTER_MS 25.0
#define SC__WITNESS_CLOCK_MS 25.0

typedef struct sc__witness {
  int state;              /* 0 not started, 1 on, -1 could not start (why in err) */
  char err[160];
  double frames[SC__WITNESS_FRAMES]; /* frames not yet judged (when each was drawn,
                                        run clock), oldest first */
  size_t nframes;
  int frames_lost;        /* more arrived than the ring holds */
  double lag;             /* our clock minus the frames' timestamps, at least */
  int lag_ok;
  struct sc__witness_ent {
    double t;             /* the log's entry time (run clock) */
    int credit;           /* frames it may still explain */
  } ents[SC__WITNESS_ENTS]; /* a ring, in time order */
  size_t nents;           /* entries ever put in the ring */
  double ents_lost_until; /* the log lost entries up to this time: frames until then
                             are explained (it painted more than its ring holds) */
  /* what we did that makes frames (witness.c, credit): when it was asked
   * for, until when its frames may come, how many more are ours */
  struct sc__witness_ours {
    double from, until;
    int credit;
  } ours[SC__WITNESS_OURS];
  uint64_t seq_have;      /* the log's entries before this position are in ents */
  /* the probe: a frame came while a wait runs in the page, which waits for
   * paints the log may never see; its entries are fetched at once and an
   * unexplained frame cuts the wait short (paintlog.c) */
  int probing;
  double probe_at;
  int pending_bad;        /* unexplained frames a probe found, for the next answer */
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
/* An input batch was sent: one frame within SC__WITNESS_INPUT_MS is ours
 * (a hover state; the application's answer comes later and is its own). */
void sc__witness_input(struct sc_page *p);
/* Judge the frames drawn until `until` (run clock) against the log's
 * entry times `ents` (run clock, n of them, oldest first, the first at log
 * position `first`; `lost`: the log lost entries before it). Returns how
 * many of those frames nothing explains (a ring overflow counts as one). */
int sc__witness_judge(struct sc_page *p, const double *ents, size_t n, uint64_t first, int lost,
                      double until);
/* Unexplained frames a probe found since the last answer (then 0). */
int sc__witness_take(struct sc_page *p);

#endif
