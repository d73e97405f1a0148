/* Pieces of the text tables shared by the run table and the load table
 * (and the HTML page): numbers, one-line text, the verdict, and the
 * per-step summary. */
#include <limits.h>
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"

const char *sc__report_ms(char *buf, size_t n, double v) {
  if (v < 0) return "-";
  snprintf(buf, n, "%.1f", v);
  return buf;
}

const char *sc__report_bytes(char *buf, size_t n, long long v) {
  if (v >= LLONG_MAX) return "no limit";
  if (v < 1024)
    snprintf(buf, n, "%lld B", v < 0 ? 0 : v);
  else if (v < 1024 * 1024)
    snprintf(buf, n, "%.1f KiB", (double)v / 1024);
  else
    snprintf(buf, n, "%.1f MiB", (double)v / (1024 * 1024));
  return buf;
}

void sc__report_put_line(FILE *out, const char *s) {
  char *e = s ? sc__escape_ctl(s) : NULL;
  if (e) fputs(e, out);
  else if (s) /* out of memory: each control a space, as one line still */
    for (; *s; s++) fputc((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f ? ' ' : *s, out);
  sc__free(e);
}

void sc__report_verdict(FILE *out, const sc_run_result *r) {
  int is_void;
  size_t failed = sc__report_failed(r, &is_void);
  if (!is_void)
    fprintf(out, "PASS %zu/%zu steps verified", r->nresults, r->nresults);
  else if (r->nresults == 0)
    fputs("VOID no steps ran", out);
  else
    fprintf(out, "VOID %zu of %zu steps failed%s", failed, r->nresults,
            failed ? "" : r->error ? " (run stopped on an error)" : " (drift check failed)");
}

int sc__report_id_width(const sc_run_result *const *runs, size_t nruns) {
  int w = 5; /* "TOTAL" */
  for (size_t u = 0; u < nruns; u++)
    for (size_t i = 0; i < runs[u]->nresults; i++) {
      const char *id = runs[u]->results[i]->step_id ? runs[u]->results[i]->step_id : "?";
      if ((int)strlen(id) > w) w = (int)strlen(id);
    }
  return w;
}

void sc__report_stat_cells(sc__stat_cells *out, const sc__stats *st) {
  if (st->pass == 0) {
    snprintf(out->avg, sizeof out->avg, "-");
    snprintf(out->median, sizeof out->median, "-");
    snprintf(out->p95, sizeof out->p95, "-");
    snprintf(out->max, sizeof out->max, "-");
  } else {
    snprintf(out->avg, sizeof out->avg, "%.1f", st->avg);
    snprintf(out->median, sizeof out->median, "%.1f", st->median);
    snprintf(out->p95, sizeof out->p95, "%.1f", st->p95);
    snprintf(out->max, sizeof out->max, "%.1f", st->max);
  }
  if (st->per_min > 0)
    snprintf(out->per_min, sizeof out->per_min, "%.1f", st->per_min);
  else
    snprintf(out->per_min, sizeof out->per_min, "-");
}

static int summary_line(FILE *out, const sc_run_result *const *runs, size_t nruns,
                        const char *id, const char *label, int w) {
  sc__stats st;
  int rc = sc__report_stats(&st, runs, nruns, id);
  if (rc) return rc;
  sc__stat_cells c;
  sc__report_stat_cells(&c, &st);
  fprintf(out, "%-*s %6zu %5zu %5zu %9s %9s %9s %9s %10s\n", w, label, st.count, st.pass,
          st.fail, c.avg, c.median, c.p95, c.max, c.per_min);
  return 0;
}

int sc__report_summary(FILE *out, const sc_run_result *const *runs, size_t nruns, int w) {
  fprintf(out, "%-*s %6s %5s %5s %9s %9s %9s %9s %10s\n", w, "step", "count", "pass", "fail",
          "avg", "median", "p95", "max", "steps/min");
  const char **ids;
  size_t n;
  int rc = sc__report_ids(&ids, &n, runs, nruns);
  for (size_t k = 0; k < n && !rc; k++)
    rc = summary_line(out, runs, nruns, ids[k], ids[k] ? ids[k] : "?", w);
  sc__free(ids);
  return rc ? rc : summary_line(out, runs, nruns, NULL, "TOTAL", w);
}
