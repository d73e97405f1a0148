/* Shared-session detection: the matching rule (shared.h says what it
 * matches and why). Rings hold times in the order they came, which is
 * time order but for the small corrections of a page's clock mapping:
 * scans go back from the newest and stop SLACK_MS past what they look for. */
#include <string.h>

#include "core/core.h"
#include "shared.h"

#define SLACK_MS 100.0

typedef struct ring_user {
  double in[SC__SHARED_INPUTS];
  size_t nin;                  /* inputs ever sent (the ring holds the latest) */
  double st[SC__SHARED_STARTS];
  size_t nst;                  /* paint starts ever read */
  double from, upto;           /* what its log covers without a gap */
  int covered;                 /* its log answered at least once */
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

void sc__shared_paints(sc__shared *sh, int u, const double *starts, int n, int lost,
                       double upto) {
  if (!sh || u < 0 || u >= sh->n || upto < 0) return;
  ring_user *x = &sh->u[u];
  if (!x->covered || lost) { /* covered from the oldest start it was told of */
    x->from = n > 0 && starts[0] >= 0 && starts[0] < upto ? starts[0] : upto;
    x->covered = 1;
  }
  for (int i = 0; i < n; i++)
    if (starts[i] >= 0) x->st[x->nst++ % SC__SHARED_STARTS] = starts[i];
  if (upto > x->upto) x->upto = upto;
}

/* Is there a time in [lo, hi] in the ring (newest last)? */
static int any_in(const double *ring, size_t count, size_t cap, double lo, double hi) {
  size_t k = count < cap ? count : cap;
  for (size_t i = 0; i < k; i++) {
    double t = ring[(count - 1 - i) % cap];
    if (t >= lo && t <= hi) return 1;
    if (t < lo - SLACK_MS) break;
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
  for (size_t i = 0; i < k; i++) {
    double s = A->st[(A->nst - 1 - i) % SC__SHARED_STARTS];
    if (s < lo - SLACK_MS) break;
    if (s <= lo || s > hi) continue;
    /* A's own answer to A's own input, while B sent nothing that could
     * have made B's page paint then */
    if (!any_in(A->in, A->nin, SC__SHARED_INPUTS, s - SC__SHARED_CAUSE_MS, s)) continue;
    if (any_in(B->in, B->nin, SC__SHARED_INPUTS, s - SC__SHARED_CAUSE_MS, s + SC__SHARED_TOL_MS))
      continue;
    p->chances++;
    if (any_in(B->st, B->nst, SC__SHARED_STARTS, s - SC__SHARED_TOL_MS, s + SC__SHARED_TOL_MS))
      p->hits++;
  }
  p->judged = hi;
}

void sc__shared_judge(sc__shared *sh) {
  if (!sh) return;
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
