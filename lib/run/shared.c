/* Shared-session detection: the matching rule (shared.h says what it
 * matches and why). Rings hold times in the order they came, which is
 * time order but for the small corrections of a page's clock mapping:
 * scans go back from the newest and stop SLACK_MS past what they look for. */
#include <string.h>

#include "core/core.h"
#include "shared.h"

#define SLACK_MS 100.0
#define EPS_MS 1e-6

typedef struct ring_user {
  double in[SC__SHARED_INPUTS];
  size_t nin;                  /* inputs ever sent (the ring holds the latest) */
  double st[SC__SHARED_STARTS];
  size_t nst;                  /* paint starts ever read */
  double from, upto;           /* what its log covers without a gap */
  int covered;                 /* its log answered at least once */
  double lat[SC__SHARED_LATS]; /* its latest answers' delays (input to first paint start) */
  size_t nlat;
  double learnt_in;            /* the input whose answer was learnt last */
  double win;                  /* window(), as of the match under way */
} ring_user;

typedef struct pair {
  double judged; /* A's paint starts up to here were matched against B */
  int hits, chances;
} pair;

struct sc__shared {
  ring_user *u;
  int n, cap;
  pair *p; /* [a * cap + b]: A's gestures, B's screen */
};

sc__shared *sc__shared_new(void) { return sc__calloc(1, sizeof(sc__shared)); }

void sc__shared_free(sc__shared *sh) {
  if (!sh) return;
  sc__free(sh->u);
  sc__free(sh->p);
  sc__free(sh);
}

int sc__shared_grow(sc__shared *sh, int users) {
  if (users <= sh->n) return 0;
  if (users > sh->cap) {
    int cap = sh->cap ? sh->cap * 2 : 4;
    while (cap < users) cap *= 2;
    ring_user *u = sc__realloc(sh->u, (size_t)cap * sizeof *u);
    if (!u) return sc__err(SC_ENOMEM, "shared-session detection: out of memory");
    sh->u = u;
    pair *p = sc__calloc((size_t)cap * (size_t)cap, sizeof *p);
    if (!p) return sc__err(SC_ENOMEM, "shared-session detection: out of memory");
    for (int a = 0; a < sh->n; a++)
      memcpy(&p[(size_t)a * (size_t)cap], &sh->p[(size_t)a * (size_t)sh->cap],
             (size_t)sh->n * sizeof *p);
    sc__free(sh->p);
    sh->p = p;
    sh->cap = cap;
  }
  memset(&sh->u[sh->n], 0, (size_t)(users - sh->n) * sizeof *sh->u);
  sh->n = users;
  return 0;
}

void sc__shared_input(sc__shared *sh, int u, double t) {
  if (!sh || u < 0 || u >= sh->n) return;
  ring_user *x = &sh->u[u];
  x->in[x->nin++ % SC__SHARED_INPUTS] = t;
}

/* The latest time in [lo, hi] in the ring (newest last), or -1. */
static double latest_in(const double *ring, size_t count, size_t cap, double lo, double hi) {
  size_t k = count < cap ? count : cap;
  double best = -1;
  for (size_t i = 0; i < k; i++) {
    double t = ring[(count - 1 - i) % cap];
    if (t >= lo && t <= hi && t > best) best = t;
    if (t < lo - SLACK_MS) break;
  }
  return best;
}

static int any_in(const double *ring, size_t count, size_t cap, double lo, double hi) {
  return latest_in(ring, count, cap, lo, hi) >= 0;
}

/* The time a user's own input explains its page's paints for: the
 * longest of its latest answers' delays and a margin, within bounds;
 * SC__SHARED_CAUSE_MS until one is learnt. */
static double window(const ring_user *x) {
  if (!x->nlat) return SC__SHARED_CAUSE_MS;
  double w = 0;
  for (size_t k = 0; k < x->nlat && k < SC__SHARED_LATS; k++)
    if (x->lat[k] > w) w = x->lat[k];
  w += SC__SHARED_LAT_MARGIN_MS;
  return w < SC__SHARED_CAUSE_MS ? SC__SHARED_CAUSE_MS
         : w > SC__SHARED_LAT_MAX_MS ? SC__SHARED_LAT_MAX_MS : w;
}

void sc__shared_paints(sc__shared *sh, int u, const double *starts, int n, int lost,
                       double upto) {
  if (!sh || u < 0 || u >= sh->n || upto < 0) return;
  ring_user *x = &sh->u[u];
  if (!x->covered || lost) { /* covered from the oldest start it was told of */
    x->from = n > 0 && starts[0] >= 0 && starts[0] < upto ? starts[0] : upto;
    x->covered = 1;
  }
  for (int i = 0; i < n; i++) {
    double t = starts[i];
    if (t < 0) continue;
    /* the first paint start after an input: how long this page takes */
    double in = latest_in(x->in, x->nin, SC__SHARED_INPUTS, t - SC__SHARED_LAT_MAX_MS, t);
    if (in >= 0 && in > x->learnt_in) {
      x->lat[x->nlat++ % SC__SHARED_LATS] = t - in;
      x->learnt_in = in;
    }
    x->st[x->nst++ % SC__SHARED_STARTS] = t;
  }
  if (upto > x->upto) x->upto = upto;
}

/* No input of A's or B's in the w before t: a paint starting at t is no
 * answer to a gesture of theirs. */
static int no_gesture(const ring_user *A, const ring_user *B, double t, double w) {
  return !any_in(A->in, A->nin, SC__SHARED_INPUTS, t - w, t) &&
         !any_in(B->in, B->nin, SC__SHARED_INPUTS, t - w, t);
}

/* X's page started paints near t - P, t - 2P, ... t - SC__SHARED_TICKS P:
 * how many of them followed no gesture (see no_gesture), or -1 when one
 * is missing. */
static int ticks(const ring_user *X, double t, double P, const ring_user *A, const ring_user *B,
                 double w) {
  int free = 0;
  for (int k = 1; k <= SC__SHARED_TICKS; k++) {
    double near = latest_in(X->st, X->nst, SC__SHARED_STARTS, t - k * P - SC__SHARED_TOL_MS,
                            t - k * P + SC__SHARED_TOL_MS);
    if (near < 0) return -1;
    free += no_gesture(A, B, near, w);
  }
  return free;
}

/* A's paint start s and B's bs are ticks of one clock both pages follow
 * (shared.h): some period P fits both, and one of their earlier ticks
 * at least followed no gesture (a shared screen's answers to gestures
 * taken at a steady pace all follow one). */
static int one_clock(const ring_user *A, const ring_user *B, double s, double bs, double w) {
  size_t k = A->nst < SC__SHARED_STARTS ? A->nst : SC__SHARED_STARTS;
  for (size_t i = 0; i < k; i++) {
    double t1 = A->st[(A->nst - 1 - i) % SC__SHARED_STARTS];
    if (t1 < s - SC__SHARED_PERIOD_MAX_MS - SLACK_MS) break;
    double P = s - t1;
    if (P < SC__SHARED_PERIOD_MIN_MS || P > SC__SHARED_PERIOD_MAX_MS) continue;
    int fa = ticks(A, s, P, A, B, w), fb = fa < 0 ? -1 : ticks(B, bs, P, A, B, w);
    if (fa >= 0 && fb >= 0 && fa + fb > 0) return 1;
  }
  return 0;
}

static void judge_pair(sc__shared *sh, int a, int b) {
  ring_user *A = &sh->u[a], *B = &sh->u[b];
  pair *p = &sh->p[(size_t)a * (size_t)sh->cap + (size_t)b];
  if (!A->covered || !B->covered) return;
  double lo = A->from, hi = A->upto;
  if (B->from + SC__SHARED_TOL_MS > lo) lo = B->from + SC__SHARED_TOL_MS;
  if (p->judged > lo) lo = p->judged;
  if (B->upto - SC__SHARED_TOL_MS < hi) hi = B->upto - SC__SHARED_TOL_MS;
  if (hi <= lo) return;
  size_t k = A->nst < SC__SHARED_STARTS ? A->nst : SC__SHARED_STARTS;
  double wa = A->win, wb = B->win;
  for (size_t i = 0; i < k; i++) {
    double s = A->st[(A->nst - 1 - i) % SC__SHARED_STARTS];
    if (s < lo - SLACK_MS) break;
    if (s <= lo || s > hi) continue;
    /* the start of A's answer to A's own input (its first paint since) */
    double in = latest_in(A->in, A->nin, SC__SHARED_INPUTS, s - wa, s);
    if (in < 0 || any_in(A->st, A->nst, SC__SHARED_STARTS, in, s - EPS_MS)) continue;
    /* while B was idle: it sent nothing that could make its page paint
     * then, and its page was not still answering (JOSM answers in bursts
     * over hundreds of ms: a later burst is no paint start of its own) */
    if (any_in(B->in, B->nin, SC__SHARED_INPUTS, s - wb, s + SC__SHARED_TOL_MS)) continue;
    if (any_in(B->st, B->nst, SC__SHARED_STARTS, s - SC__SHARED_QUIET_MS,
               s - SC__SHARED_TOL_MS - EPS_MS))
      continue;
    double bs = latest_in(B->st, B->nst, SC__SHARED_STARTS, s - SC__SHARED_TOL_MS,
                          s + SC__SHARED_TOL_MS);
    if (bs >= 0 && one_clock(A, B, s, bs, wa > wb ? wa : wb)) continue; /* a clock's tick */
    p->chances++;
    if (bs >= 0) p->hits++;
  }
  p->judged = hi;
}

void sc__shared_judge(sc__shared *sh) {
  if (!sh) return;
  for (int u = 0; u < sh->n; u++) sh->u[u].win = window(&sh->u[u]);
  for (int a = 0; a < sh->n; a++)
    for (int b = 0; b < sh->n; b++)
      if (a != b) judge_pair(sh, a, b);
}

static int holds(const pair *p) {
  return p->hits >= SC__SHARED_MIN_HITS && p->hits >= SC__SHARED_MIN_SHARE * p->chances;
}

int sc__shared_suspect(const sc__shared *sh, int b, int *a, int *hits, int *chances) {
  int best = -1, found = 0;
  if (sh && b >= 0 && b < sh->n)
    for (int x = 0; x < sh->n; x++) {
      if (x == b) continue;
      const pair *p = &sh->p[(size_t)x * (size_t)sh->cap + (size_t)b];
      int h = holds(p);
      const pair *q = best < 0 ? NULL : &sh->p[(size_t)best * (size_t)sh->cap + (size_t)b];
      if (!q || (h && !found) || (h == found && p->hits > q->hits)) {
        best = x;
        found = h;
      }
    }
  const pair *q = best < 0 ? NULL : &sh->p[(size_t)best * (size_t)sh->cap + (size_t)b];
  if (a) *a = best;
  if (hits) *hits = q ? q->hits : 0;
  if (chances) *chances = q ? q->chances : 0;
  return found;
}
