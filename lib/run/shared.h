/* Shared-session detection (docs/design.md, "Users that share one
 * display"): users of one generator whose pages show one screen. When
 * users share a display (two noVNC clients of one VNC server), one user's
 * gesture makes every page paint the same update at about the same moment.
 * The evidence is matched across users from what each page's paint log
 * dates (the start of every paint after a still moment, paintlog_js.c) and
 * from when each user sent its own input:
 *
 *   a chance, for the pair (A, B): the first paint start s on A's page
 *   after an input of A's own (sent at most A's window before s) while B
 *   was idle: it sent nothing from B's window before s until
 *   SC__SHARED_TOL_MS after it, and its page started no paint in the
 *   SC__SHARED_QUIET_MS before (it was not still answering), within the
 *   time both logs cover. A user's window is how long its own page takes
 *   to answer: the longest delay from an input to the first paint start
 *   after it among its latest SC__SHARED_LATS, plus
 *   SC__SHARED_LAT_MARGIN_MS, within [SC__SHARED_CAUSE_MS,
 *   SC__SHARED_LAT_MAX_MS] (the map app: the floor; JOSM through noVNC
 *   answers in 70-340 ms);
 *   a hit: B's page started a paint within SC__SHARED_TOL_MS of s too.
 *
 * B is suspect when, for some A, hits >= SC__SHARED_MIN_HITS and hits are
 * at least SC__SHARED_MIN_SHARE of the chances. On separate displays B's
 * page paints only after B's own input (excluded by "idle") or on its own
 * (a clock, a late tile), which lines up with A's response only by
 * chance; on a shared one nearly every chance is a hit.
 *
 * Except a clock both pages follow: two separate pages that each repaint
 * on the wall clock (a blink every 200 ms aligned to Date.now()) start a
 * paint at the same moments whatever the users do, so A's first paint
 * after its input meets one of B's every time. A chance whose paint start
 * s is a tick on both pages is not counted (neither a chance nor a hit): A
 * started paints near s - P, s - 2P and s - 3P (SC__SHARED_TICKS), B near
 * its own start's less the same, for one period P in
 * [SC__SHARED_PERIOD_MIN_MS, SC__SHARED_PERIOD_MAX_MS] (within
 * SC__SHARED_TOL_MS), and at least one of those six came with no input of
 * A's or B's in the window before it (paints independent of any gesture:
 * a shared screen's answers to gestures at a steady pace all follow one).
 *
 * Memory is bounded per user (rings of the latest inputs and paint
 * starts) plus one counter pair per ordered pair of users. No I/O, no
 * clock: every time is given (the run's monotonic ms). Not thread-safe
 * (the loop's thread). Not installed. */
#ifndef SC_RUN_SHARED_H
#define SC_RUN_SHARED_H

#include <stddef.h>

/* An input explains a paint starting at least this long after it was
 * sent, at most SC__SHARED_LAT_MAX_MS; learnt per user between. */
#define SC__SHARED_CAUSE_MS 150.0
#define SC__SHARED_LAT_MAX_MS 1000.0
#define SC__SHARED_LAT_MARGIN_MS 30.0
#define SC__SHARED_LATS 16
/* A page that started a paint this long before is still answering. */
#define SC__SHARED_QUIET_MS 150.0
/* Two pages' paint starts this close are one update seen twice. */
#define SC__SHARED_TOL_MS 20.0
/* The periods of a clock both pages may follow, and the earlier ticks it
 * is known by. */
#define SC__SHARED_PERIOD_MIN_MS 50.0
#define SC__SHARED_PERIOD_MAX_MS 2000.0
#define SC__SHARED_TICKS 3
/* Hits needed, and their least share of the chances. */
#define SC__SHARED_MIN_HITS 5
#define SC__SHARED_MIN_SHARE 0.5
/* Ring sizes per user (the latest inputs, the latest paint starts). */
#define SC__SHARED_INPUTS 128
#define SC__SHARED_STARTS 256

typedef struct sc__shared sc__shared;

/* A new detector with no users; NULL when out of memory. */
sc__shared *sc__shared_new(void);
void sc__shared_free(sc__shared *sh);

/* Users are 0-based indexes, added in order (user < count: nothing new).
 * Returns 0 or SC_ENOMEM. */
int sc__shared_grow(sc__shared *sh, int users);

/* User u sent an input at t. */
void sc__shared_input(sc__shared *sh, int u, double t);

/* User u's page log answered at `upto`: its paint starts since its last
 * answer (times, in the order the page logged them; borrowed). lost: some
 * were overwritten before they were read (what came before this answer is
 * then not covered). */
void sc__shared_paints(sc__shared *sh, int u, const double *starts, int n, int lost,
                       double upto);

/* Match what every pair of users' logs cover and was not matched yet. */
void sc__shared_judge(sc__shared *sh);

/* The evidence against user b: 1 when b is suspect (then *a is the user
 * whose gestures b's screen followed, with *hits of *chances), else 0
 * (the outputs then say the pair with the most hits, a -1 when none). */
int sc__shared_suspect(const sc__shared *sh, int b, int *a, int *hits, int *chances);

#endif
