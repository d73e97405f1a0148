/* JMeter JTL (CSV results), as JMeter's own CSV writer lays it out, so the
 * dashboard generator (jmeter -g) reads it. */
#include <math.h>
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"

static const char sc__jtl_header[] =
    "timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,"
    "failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect\n";

/* RFC 4180: quote a field holding a comma, quote or line break; double the
 * quotes inside. */
static void put_csv(FILE *f, const char *s) {
  if (!s) return;
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

SC_EXTERN int sc_report_jtl(const char *path, const sc_run_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report jtl: NULL argument");
  sc__report_file rf;
  int rc = sc__report_open(&rf, path);
  if (rc) return rc;
  FILE *f = rf.f;
  fputs(sc__jtl_header, f);
  const char *url = r->scenario ? r->scenario->url : NULL;
  for (size_t i = 0; i < r->nresults; i++) {
    const sc_step_result *s = r->results[i];
    double latency = s->first_change_ms >= 0 ? s->first_change_ms : 0;
    fprintf(f, "%lld,%lld,", (long long)llround(s->started_unix_ms),
            (long long)llround(sc__report_elapsed(r, s)));
    put_csv(f, s->step_id ? s->step_id : "?");
    fputs(s->passed ? ",200,OK," : ",500,verification failed,", f);
    fprintf(f, "stepcheck 1-1,text,%s,", s->passed ? "true" : "false");
    if (!s->passed) put_csv(f, s->reason ? s->reason : "failed");
    fputs(",0,0,1,1,", f);
    put_csv(f, url);
    fprintf(f, ",%lld,0,0\n", (long long)llround(latency));
  }
  return sc__report_close(&rf, 0);
}
