/* Pieces of the text tables shared by the run table and the load table
 * (and the HTML page): numbers, one-line text, the verdict, and the
 * per-step summary. */
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"

const char *sc__report_ms(char *buf, size_t n, double v) {
  if (v < 0) return "-";
  snprintf(buf, n, "%.1f", v);
  return buf;
}

void sc__report_put_line(FILE *out, const char *s) {
  for (; s && *s; s++) fputc((unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s, out);
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

static int summary_line(FILE *out, const sc_run_result *const *runs, size_t nruns,
                        const char *id, const char *label, int w) {
  sc__stats st;
  int rc = sc__report_stats(&st, runs, nruns, id);
  if (rc) return rc;
  char a[32], m[32], p[32], x[32], t[32];
  int none = st.pass == 0;
  fprintf(out, "%-*s %6zu %5zu %5zu %9s %9s %9s %9s %10s\n", w, label, st.count, st.pass,
          st.fail, none ? "-" : sc__report_ms(a, sizeof a, st.avg),
          none ? "-" : sc__report_ms(m, sizeof m, st.median),
          none ? "-" : sc__report_ms(p, sizeof p, st.p95),
          none ? "-" : sc__report_ms(x, sizeof x, st.max),
          st.per_min > 0 ? sc__report_ms(t, sizeof t, st.per_min) : "-");
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
