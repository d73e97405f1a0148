/* Timing statistics and verdicts shared by the report writers. Statistics
 * are over passed steps only: a failed step has no verified time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"

int sc__report_same_id(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

int sc__report_ids(const char ***out, size_t *n, const sc_run_result *const *runs,
                   size_t nruns) {
  *out = NULL;
  *n = 0;
  size_t cap = 0;
  for (size_t u = 0; u < nruns; u++)
    for (size_t i = 0; i < runs[u]->nresults; i++) {
      const char *id = runs[u]->results[i]->step_id;
      size_t k = 0;
      while (k < *n && !sc__report_same_id((*out)[k], id)) k++;
      if (k < *n) continue;
      if (*n == cap) {
        cap = cap ? cap * 2 : 8;
        const char **grown = sc__realloc(*out, cap * sizeof *grown);
        if (!grown) {
          sc__free(*out);
          *out = NULL;
          *n = 0;
          return sc__err(SC_ENOMEM, "report: out of memory");
        }
        *out = grown;
      }
      (*out)[(*n)++] = id;
    }
  return 0;
}

const char sc__report_error_id[] = "(run error)";

size_t sc__report_faults(const sc_run_result *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->nresults; i++) n += r->results[i]->fault != 0;
  return n;
}

int sc__report_error_row(sc_step_result *out, const sc_run_result *r) {
  memset(out, 0, sizeof *out);
  if (!r->error || sc__report_faults(r)) return 0;
  out->step_id = sc__report_error_id;
  out->reason = r->error;
  out->started_unix_ms = r->ended_unix_ms > 0 ? r->ended_unix_ms : r->started_unix_ms;
  out->first_change_ms = out->verified_ms = out->first_paint_ms = out->last_paint_ms = -1;
  out->fault = 1;
  return 1;
}

size_t sc__report_failed(const sc_run_result *r, int *is_void) {
  size_t failed = 0;
  for (size_t i = 0; i < r->nresults; i++) failed += !r->results[i]->passed;
  if (is_void) *is_void = failed > 0 || r->nresults == 0 || r->error || !r->passed;
  return failed;
}

const char *sc__report_app(const sc_scenario *sc) {
  return sc && sc->app ? sc->app : "stepcheck";
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int sc__report_stats(sc__stats *out, const sc_run_result *const *runs, size_t nruns,
                     const char *step_id) {
  memset(out, 0, sizeof *out);
  size_t total = 0;
  for (size_t u = 0; u < nruns; u++) total += runs[u]->nresults;
  double *v = sc__malloc((total ? total : 1) * sizeof *v);
  if (!v) return sc__err(SC_ENOMEM, "report: out of memory");
  double sum = 0, first = 0, last = 0;
  size_t n = 0;
  for (size_t u = 0; u < nruns; u++) {
    for (size_t i = 0; i < runs[u]->nresults; i++) {
      const sc_step_result *s = runs[u]->results[i];
      if (step_id && !sc__report_same_id(s->step_id, step_id)) continue;
      out->count++;
      if (!s->passed) {
        out->fail++;
        continue;
      }
      out->pass++;
      if (s->verified_ms < 0) continue; /* passed without a time: nothing to average */
      double end = s->started_unix_ms + s->verified_ms;
      if (n == 0 || s->started_unix_ms < first) first = s->started_unix_ms;
      if (n == 0 || end > last) last = end;
      v[n++] = s->verified_ms;
      sum += s->verified_ms;
    }
  }
  if (n) {
    qsort(v, n, sizeof *v, cmp_double);
    out->avg = sum / (double)n;
    out->median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    /* nearest rank: the smallest value with at least 95% at or below it */
    size_t rank = (size_t)ceil(0.95 * (double)n);
    out->p95 = v[(rank ? rank : 1) - 1];
    out->max = v[n - 1];
    if (last > first) out->per_min = (double)n * 60000.0 / (last - first);
  }
  sc__free(v);
  return 0;
}
