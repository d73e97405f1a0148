/* JUnit XML: one testsuite (the application), one testcase per step result. */
#include <math.h>
#include <time.h>

#include "core/core.h"
#include "report/report_int.h"

/* XML 1.0 text: markup characters as entities; inside attributes also the
 * whitespace that attribute normalisation would eat; other control
 * characters (not allowed in XML 1.0) as '?'. */
static void put_xml(FILE *f, const char *s, int attr) {
  for (; s && *s; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs(attr ? "&quot;" : "\"", f); break;
    case '\'': fputs(attr ? "&apos;" : "'", f); break;
    case '\t': fputs(attr ? "&#9;" : "\t", f); break;
    case '\n': fputs(attr ? "&#10;" : "\n", f); break;
    case '\r': fputs("&#13;", f); break;
    default: fputc(c < 0x20 ? '?' : c, f);
    }
  }
}

static void testcase(FILE *f, const sc_run_result *r, const sc_step_result *s) {
  fputs("  <testcase classname=\"", f);
  if (s->setup)
    fputs("setup", f);
  else
    fprintf(f, "cycle %d", s->cycle);
  fputs("\" name=\"", f);
  put_xml(f, s->step_id ? s->step_id : "?", 1);
  fprintf(f, "\" time=\"%.3f\">\n", sc__report_elapsed(r, s) / 1000.0);
  if (!s->passed) {
    fputs("    <failure message=\"", f);
    put_xml(f, s->reason ? s->reason : "failed", 1);
    fputs("\" type=\"verification\">", f);
    put_xml(f, s->reason ? s->reason : "failed", 0);
    for (size_t i = 0; i < s->nartifacts; i++) {
      fputs("\nartifact: ", f);
      put_xml(f, s->artifacts[i], 0);
    }
    fputs("</failure>\n", f);
  } else if (s->reason && *s->reason) {
    fputs("    <system-out>", f);
    put_xml(f, s->reason, 0);
    fputs("</system-out>\n", f);
  }
  fputs("  </testcase>\n", f);
}

static void property(FILE *f, const char *name, const char *value) {
  fprintf(f, "    <property name=\"%s\" value=\"", name);
  put_xml(f, value, 1);
  fputs("\"/>\n", f);
}

SC_EXTERN int sc_report_junit(const char *path, const sc_run_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report junit: NULL argument");
  sc__report_file rf;
  int rc = sc__report_open(&rf, path);
  if (rc) return rc;
  FILE *f = rf.f;
  size_t failed = sc__report_failed(r, NULL);
  double total = 0;
  for (size_t i = 0; i < r->nresults; i++) total += sc__report_elapsed(r, r->results[i]);

  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"", f);
  put_xml(f, sc__report_app(r), 1);
  fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\" skipped=\"0\" time=\"%.3f\"",
          r->nresults, failed, r->error ? 1 : 0, total / 1000.0);
  if (r->nresults) {
    time_t t = (time_t)floor(r->results[0]->started_unix_ms / 1000.0);
    struct tm tm;
    char ts[32];
    if (gmtime_r(&t, &tm) && strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm))
      fprintf(f, " timestamp=\"%s\"", ts);
  }
  fputs(">\n  <properties>\n", f);
  char cycles[16];
  snprintf(cycles, sizeof cycles, "%d", r->cycles);
  property(f, "cycles", cycles);
  if (r->scenario && r->scenario->path) property(f, "scenario", r->scenario->path);
  if (r->scenario && r->scenario->url) property(f, "url", r->scenario->url);
  fputs("  </properties>\n", f);
  for (size_t i = 0; i < r->nresults; i++) testcase(f, r, r->results[i]);
  if (r->error) {
    fputs("  <system-err>", f);
    put_xml(f, r->error, 0);
    fputs("</system-err>\n", f);
  }
  fputs("</testsuite>\n", f);
  return sc__report_close(&rf, 0);
}
