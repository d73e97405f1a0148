/* The paint log (docs/design.md, "Paint log"): the page's own record of
 * every paint, injected before any page script (paintlog_js.c), and the
 * asynchronous wait on it (paintlog.c). */
#ifndef SC_PAGE_PAINTLOG_H
#define SC_PAGE_PAINTLOG_H

#include <stdint.h>

#include "stepcheck/common.h"

/* Entries the page keeps (a ring): a wait whose `after` is older than
 * this many entries counts the lost ones as touching. */
#define SC__LOG_RING 256
#define SC__LOG_RING_STR "256"
/* Inputs the page keeps (a ring; inputlog.c). */
#define SC__INPUT_RING 64
#define SC__INPUT_RING_STR "64"
/* The longest element name (tag#id.class) an input record keeps. */
#define SC__INPUT_OVER 47
#define SC__INPUT_OVER_STR "47"

/* A paint over the guest after this long with none is a paint start (the
 * shared-session detection's evidence, lib/run/shared.h). */
#define SC__LOG_START_GAP_MS 30
#define SC__LOG_START_GAP_STR "30"

/* The script (a function expression run at once; top frame only). */
extern const char sc__paintlog_js[];

/* Regions an answer must have reached before the short quiet time counts
 * (the page side's `must`): quiet_ms applies once every rectangle of `r`
 * was touched by an entry after `after`; until then `quiet_ms` here. A
 * step that expects these regions to change is not captured before the
 * application painted each of them (it draws one answer in pieces). */
#define SC__LOG_MUST_MAX 8
typedef struct sc__log_must {
  sc_rect r[SC__LOG_MUST_MAX];
  int n;            /* 0: none */
  uint64_t after;   /* touched by entries after this sequence number */
  double quiet_ms;  /* the quiet time until every one was touched */
} sc__log_must;

/* sc__log_ask.after for a wait with nothing to count from (no seed): the
 * log's position when the wait starts, never 0 (on a page that made more
 * than SC__LOG_RING entries, 0 is "lost" at every check). */
#define SC__LOG_FROM_NOW UINT64_MAX

/* What to wait for (the page side's `wait`, paintlog_js.c). */
typedef struct sc__log_ask {
  sc_rect r;          /* the watched guest rectangle */
  uint64_t after;     /* count entries after this sequence number */
  double doc;         /* the document `after` counts in (0: unknown) */
  double quiet_ms;    /* entries touching r, then none for this long */
  double window_ms;   /* or none at all this long (need = 0) */
  int need;           /* at least one entry must touch r */
  double timeout_ms;  /* give up this long after the ask */
  const sc__log_must *must; /* NULL: none */
} sc__log_ask;

/* Its answer. Times are on the run's monotonic clock (sc__now_ms), mapped
 * from the page's clock; -1 when none or unknown. */
typedef struct sc__log_reply {
  int have;           /* 0: no answer from a log (blind, or none in the page) */
  const char *blind;  /* why not (static text), when have = 0 */
  uint64_t seq;       /* the log's sequence number when it answered */
  double doc;         /* the document it counts in */
  int n;              /* entries after `after` that touched r */
  double first_ms, last_ms;
  int timed_out;
  int lost;           /* the log could not say (overwritten, a reload): n counts 1 */
  const double *starts; /* the paint starts over the guest since the last answer,
                           on the run's clock (borrowed: valid in the callback) */
  int nstarts;
  int starts_lost;    /* some starts before these were overwritten unread */
  double now_ms;      /* when the page answered (run's clock; -1 unknown) */
  double stall_ms;    /* the longest the page or the browser stood still during the
                         wait (a frozen renderer: the page's heartbeat; a frozen
                         browser: the answer's late arrival), about 0 normally */
  int unexplained;    /* frames the compositor drew since the last answer that no
                         entry of the log (nor a capture of ours) explains: a change
                         the log did not see (page/witness.h); the step's rest is
                         then proven by pairs */
} sc__log_reply;

#endif
