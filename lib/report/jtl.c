/* JMeter JTL (CSV results), as JMeter's own CSV writer lays it out, so the
 * dashboard generator (jmeter -g) reads it; the row writer is shared with
 * the load report. */
#include <math.h>
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"

/* A cell a spreadsheet would run as a formula: one that starts with =, +,
 * -, @, a tab or a carriage return (OWASP, "CSV Injection"). */
static int formula_like(const char *s) { return *s && strchr("=+-@\t\r", *s) != NULL; }

/* RFC 4180: quote a field holding a comma, quote or line break; double the
 * quotes inside. A field that could start a formula is neutralised the way
 * OWASP documents: a single quote before it, and the cell quoted
 * (docs/security.md, "Reports"). */
static void put_csv(FILE *f, const char *s) {
  if (!s) return;
  int formula = formula_like(s);
  if (!formula && !strpbrk(s, ",\"\r\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  if (formula) fputc('\'', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

void sc__report_jtl_header(FILE *f) {
  fputs("timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
        "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n",
        f);
}

void sc__report_jtl_row(FILE *f, const sc_run_result *r, const sc_step_result *s,
                        const char *thread, int threads) {
  /* JMeter's Latency is the time to the first response: the application's
   * first paint when the paint log saw it, else the first changed capture */
  double latency = sc__report_first(s, NULL);
  if (latency < 0) latency = 0;
  fprintf(f, "%lld,%lld,", (long long)llround(s->started_unix_ms),
          (long long)llround(sc__result_elapsed(r, s)));
  put_csv(f, s->step_id ? s->step_id : "?");
  fputs(s->passed  ? ",200,OK,"
        : s->fault ? ",500,infrastructure error,"
                   : ",500,verification failed,", f);
  put_csv(f, thread);
  fprintf(f, ",text,%s,", s->passed ? "true" : "false");
  if (!s->passed) put_csv(f, s->reason ? s->reason : "failed");
  fprintf(f, ",0,0,%d,%d,", threads, threads);
  put_csv(f, r->url);
  fprintf(f, ",%lld,0,0\n", (long long)llround(latency));
}

SC_EXTERN int sc_report_jtl(const char *path, const sc_run_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report jtl: NULL argument");
  sc__report_file rf;
  int rc = sc__report_open(&rf, path);
  if (rc) return rc;
  sc__report_jtl_header(rf.f);
  for (size_t i = 0; i < r->nresults; i++)
    sc__report_jtl_row(rf.f, r, r->results[i], "stepcheck 1-1", 1);
  sc_step_result e;
  if (sc__report_error_row(&e, r)) sc__report_jtl_row(rf.f, r, &e, "stepcheck 1-1", 1);
  return sc__report_close(&rf, 0);
}
