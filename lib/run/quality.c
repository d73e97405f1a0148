/* The quality bar of a load run (quality.h): every user's steps against the
 * warm-up's, every user's pace against the warm-up's cycle, per level. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "run/result.h" /* when a step ended; a user's name */
#include "run/quality.h"
#include "scenario/model.h"

static int same_id(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

static double step_end(const sc_run_result *r, const sc_step_result *s) {
  return s->started_unix_ms + sc__result_elapsed(r, s);
}

double sc__quality_warm_ms(const sc_run_result *warmup, const char *step_id) {
  double slow = -1;
  for (size_t i = 0; warmup && i < warmup->nresults; i++) {
    const sc_step_result *s = warmup->results[i];
    if (s->passed && s->verified_ms > slow && same_id(s->step_id, step_id)) slow = s->verified_ms;
  }
  return slow;
}

double sc__quality_step_bar(const sc_run_result *warmup, const char *step_id) {
  double bar = SC__BAR_FACTOR * sc__quality_warm_ms(warmup, step_id);
  return bar > SC__BAR_FLOOR_MS ? bar : SC__BAR_FLOOR_MS;
}

/* One cycle of one user: first start, last end, results seen. */
typedef struct span {
  double start, end;
  size_t results;
} span;

/* The complete cycles of r in cycle order (see sc__quality_cycle_ms);
 * *out is the caller's (sc__free), NULL when there is none. */
static int cycle_spans(span **out, size_t *n, const sc_run_result *r) {
  *out = NULL;
  *n = 0;
  int maxc = 0;
  for (size_t i = 0; i < r->nresults; i++)
    if (!r->results[i]->setup && r->results[i]->cycle > maxc) maxc = r->results[i]->cycle;
  if (maxc == 0) return 0;
  span *sp = sc__calloc((size_t)maxc, sizeof *sp);
  if (!sp) return sc__err(SC_ENOMEM, "quality: out of memory");
  for (size_t i = 0; i < r->nresults; i++) {
    const sc_step_result *s = r->results[i];
    if (s->setup || s->cycle < 1) continue;
    span *c = &sp[s->cycle - 1];
    double end = step_end(r, s);
    if (!c->results || s->started_unix_ms < c->start) c->start = s->started_unix_ms;
    if (!c->results || end > c->end) c->end = end;
    c->results++;
  }
  size_t need = r->scenario && r->scenario->nsteps ? r->scenario->nsteps : 1;
  for (int c = 0; c < maxc; c++)
    if (sp[c].results >= need) sp[(*n)++] = sp[c];
  *out = sp;
  return 0;
}

static int longest_cycle(double *out, const sc_run_result *r) {
  span *sp;
  size_t n;
  *out = 0;
  int rc = cycle_spans(&sp, &n, r);
  for (size_t i = 0; i < n; i++)
    if (sp[i].end - sp[i].start > *out) *out = sp[i].end - sp[i].start;
  sc__free(sp);
  return rc;
}

double sc__quality_cycle_ms(const sc_run_result *warmup) {
  double ms = 0;
  if (warmup) longest_cycle(&ms, warmup); /* out of memory: 0, no limit */
  return ms;
}

/* "750" for whole numbers, "750.4" otherwise, so a number over the bar
 * never prints as the bar itself. */
static const char *num(char *buf, size_t n, double v) {
  if (v == (double)(long long)v)
    snprintf(buf, n, "%lld", (long long)v);
  else
    snprintf(buf, n, "%.1f", v);
  return buf;
}

typedef struct judge {
  sc_level *const *lv;
  size_t n;
  double t0;      /* load start, unix ms */
  double *why_at; /* per level: when the event its reason names happened */
  double bar_cycle_ms; /* the warm-up's cycle time; 0 = no stall limit */
  const sc_run_result *warmup;
} judge;

/* A level's span in unix ms; the first is open to the left and the last to
 * the right, so nothing falls outside every level. */
static double lo(const judge *j, size_t i) { return i ? j->t0 + j->lv[i]->start_ms : -1e300; }
static double hi(const judge *j, size_t i) {
  return i + 1 < j->n ? j->t0 + j->lv[i]->end_ms : 1e300;
}

static size_t level_at(const judge *j, double t) {
  size_t i = 0;
  while (i + 1 < j->n && t >= hi(j, i)) i++;
  return i;
}

/* Mark level i degraded by an event at unix ms `at`; it keeps the earliest
 * reason (the first one given on a tie). */
__attribute__((format(printf, 4, 5))) static int degrade(judge *j, size_t i, double at,
                                                         const char *fmt, ...) {
  sc_level *lv = j->lv[i];
  lv->healthy = 0;
  if (lv->reason && at >= j->why_at[i]) return 0;
  va_list ap;
  va_start(ap, fmt);
  char *msg = sc__vasprintf(fmt, ap);
  va_end(ap);
  if (!msg) return sc__err(SC_ENOMEM, "quality: out of memory");
  sc__free(lv->reason);
  lv->reason = msg;
  j->why_at[i] = at;
  return 0;
}

static int judge_step(judge *j, const char *who, const sc_run_result *u,
                      const sc_step_result *s) {
  double end = step_end(u, s);
  size_t i = level_at(j, end);
  const char *id = s->step_id ? s->step_id : "?";
  if (!s->passed) {
    j->lv[i]->steps_failed++;
    if (s->reason) return degrade(j, i, end, "%s: %s failed: %s", who, id, s->reason);
    return degrade(j, i, end, "%s: %s failed", who, id);
  }
  j->lv[i]->steps_passed++;
  if (!j->warmup || s->verified_ms < 0) return 0;
  double bar = sc__quality_step_bar(j->warmup, s->step_id);
  if (s->verified_ms <= bar) return 0;
  double warm = sc__quality_warm_ms(j->warmup, s->step_id);
  char a[32], b[32], f[32], w[32], fl[32];
  if (warm < 0)
    return degrade(j, i, end, "%s: %s %s ms > bar %s ms (warm-up never verified it, floor %s)",
                   who, id, num(a, sizeof a, s->verified_ms), num(b, sizeof b, bar),
                   num(fl, sizeof fl, SC__BAR_FLOOR_MS));
  return degrade(j, i, end, "%s: %s %s ms > bar %s ms (%s x warm-up %s ms, floor %s)", who, id,
                 num(a, sizeof a, s->verified_ms), num(b, sizeof b, bar),
                 num(f, sizeof f, SC__BAR_FACTOR), num(w, sizeof w, warm),
                 num(fl, sizeof fl, SC__BAR_FLOOR_MS));
}

/* A gap without a completed cycle from `from` to `to` (unix ms): every
 * level overlapping its part past the limit is degraded. */
static int judge_gap(judge *j, const char *who, double from, double to) {
  double limit = SC__BAR_STALL_FACTOR * j->bar_cycle_ms;
  if (to - from <= limit) return 0;
  char g[32], f[32], c[32];
  for (size_t i = 0; i < j->n; i++) {
    double past = from + limit;
    if (!(lo(j, i) < to && past < hi(j, i))) continue;
    int rc = degrade(j, i, past > lo(j, i) ? past : lo(j, i),
                     "%s: no cycle completed for %s ms > %s x warm-up cycle %s ms", who,
                     num(g, sizeof g, to - from), num(f, sizeof f, SC__BAR_STALL_FACTOR),
                     num(c, sizeof c, j->bar_cycle_ms));
    if (rc) return rc;
  }
  return 0;
}

static int cmp_end(const void *a, const void *b) {
  double x = ((const span *)a)->end, y = ((const span *)b)->end;
  return x < y ? -1 : x > y;
}

static double user_start(const judge *j, const sc_run_result *u) {
  if (u->started_unix_ms > 0) return u->started_unix_ms;
  double t = j->t0;
  for (size_t i = 0; i < u->nresults; i++)
    if (i == 0 || u->results[i]->started_unix_ms < t) t = u->results[i]->started_unix_ms;
  return t;
}

static int judge_pace(judge *j, const char *who, const sc_run_result *u) {
  span *sp;
  size_t n;
  int rc = cycle_spans(&sp, &n, u);
  if (rc) return rc;
  if (n) qsort(sp, n, sizeof *sp, cmp_end);
  double load_end = j->t0 + j->lv[j->n - 1]->end_ms;
  double stop = u->ended_unix_ms > 0 && u->ended_unix_ms < load_end ? u->ended_unix_ms : load_end;
  double from = user_start(j, u);
  for (size_t k = 0; k <= n && !rc; k++) {
    double to = k < n ? sp[k].end : stop;
    rc = judge_gap(j, who, from, to);
    if (to > from) from = to;
  }
  sc__free(sp);
  return rc;
}

static int judge_user(judge *j, const sc_run_result *u) {
  char name[32];
  const char *who = sc__result_user_name(name, sizeof name, u);
  int rc = 0;
  for (size_t i = 0; i < u->nresults && !rc; i++) rc = judge_step(j, who, u, u->results[i]);
  if (!rc && j->bar_cycle_ms > 0) rc = judge_pace(j, who, u);
  if (!rc && u->error) {
    double at = u->ended_unix_ms > 0 ? u->ended_unix_ms : 1e300;
    rc = degrade(j, level_at(j, at), at, "%s: error: %s", who, u->error);
  }
  return rc;
}

int sc__quality_judge(int *last_healthy_users, sc_level *const *levels, size_t nlevels,
                      double load_start_unix_ms, const sc_run_result *warmup,
                      sc_run_result *const *users, size_t nusers) {
  if (!last_healthy_users || (nlevels && !levels) || (nusers && !users))
    return sc__err(SC_EINVAL, "quality: NULL argument");
  *last_healthy_users = 0;
  if (!nlevels) return 0;
  for (size_t i = 0; i < nlevels; i++) {
    sc_level *lv = levels[i];
    lv->steps_passed = lv->steps_failed = 0;
    lv->healthy = 1;
    sc__free(lv->reason);
    lv->reason = NULL;
  }
  judge j = {levels, nlevels, load_start_unix_ms, NULL, 0, warmup};
  int rc = warmup ? longest_cycle(&j.bar_cycle_ms, warmup) : 0;
  if (rc) return rc;
  j.why_at = sc__calloc(nlevels, sizeof *j.why_at);
  if (!j.why_at) return sc__err(SC_ENOMEM, "quality: out of memory");
  for (size_t u = 0; u < nusers && !rc; u++) rc = judge_user(&j, users[u]);
  sc__free(j.why_at);
  for (size_t i = 0; i < nlevels && !rc && levels[i]->healthy; i++)
    *last_healthy_users = levels[i]->users;
  return rc;
}
