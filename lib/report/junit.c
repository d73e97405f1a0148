/* JUnit XML: one testsuite (the application), one testcase per step result;
 * the suite writer is shared with the load report (a suite per user). */
#include <math.h>
#include <time.h>

#include "core/core.h"
#include "report/report_int.h"

/* "\nrest: paint-log, 3 paints, first paint 23.0 ms, last paint 180.5 ms"
 * or "\nrest: pairs": a line of the text JUnit already carries per step
 * (system-out, failure), so no parser meets a new element. */
static void rest_line(FILE *f, const sc_step_result *s) {
  fputs("\nrest: ", f);
  sc__report_put_rest(f, s);
  double first = sc__report_first_paint(s), last = sc__report_last_paint(s);
  if (first >= 0) fprintf(f, ", first paint %.1f ms", first);
  if (last >= 0) fprintf(f, ", last paint %.1f ms", last);
}

/* Lines of a suite start with `in` (its nesting) and two spaces per level. */
static void testcase(FILE *f, const char *in, const sc_run_result *r, const sc_step_result *s) {
  fprintf(f, "%s  <testcase classname=\"", in);
  if (s->step_id == sc__report_error_id)
    fputs("run", f);
  else if (s->setup)
    fputs("setup", f);
  else
    fprintf(f, "cycle %d", s->cycle);
  fputs("\" name=\"", f);
  sc__report_put_xml(f, s->step_id ? s->step_id : "?", 1);
  fprintf(f, "\" time=\"%.3f\">\n", sc__result_elapsed(r, s) / 1000.0);
  if (!s->passed) {
    /* JUnit's distinction: a failure is the application's, an error is
     * what kept the step from being judged */
    const char *el = s->fault ? "error" : "failure";
    fprintf(f, "%s    <%s message=\"", in, el);
    sc__report_put_xml(f, s->reason ? s->reason : "failed", 1);
    fprintf(f, "\" type=\"%s\">", s->fault ? "infrastructure" : "verification");
    sc__report_put_xml(f, s->reason ? s->reason : "failed", 0);
    for (size_t i = 0; i < s->nartifacts; i++) {
      fputs("\nartifact: ", f);
      sc__report_put_xml(f, s->artifacts[i], 0);
    }
    if (s->step_id != sc__report_error_id) rest_line(f, s);
    fprintf(f, "</%s>\n", el);
  } else if (s->reason && *s->reason) {
    fprintf(f, "%s    <system-out>", in);
    sc__report_put_xml(f, s->reason, 0);
    rest_line(f, s);
    fputs("</system-out>\n", f);
  }
  fprintf(f, "%s  </testcase>\n", in);
}

static void property(FILE *f, const char *in, const char *name, const char *value) {
  fprintf(f, "%s    <property name=\"%s\" value=\"", in, name);
  sc__report_put_xml(f, value, 1);
  fputs("\"/>\n", f);
}

void sc__report_junit_suite(FILE *f, const char *in, const sc_run_result *r, const char *name) {
  /* an <error> per step a fault cut off, or one for the run's error that
   * no step carries: the count says what the elements show */
  size_t faults = sc__report_faults(r), failed = sc__report_failed(r, NULL) - faults;
  sc_step_result err;
  int err_row = sc__report_error_row(&err, r);
  double total = 0;
  for (size_t i = 0; i < r->nresults; i++) total += sc__result_elapsed(r, r->results[i]);

  fprintf(f, "%s<testsuite name=\"", in);
  sc__report_put_xml(f, name, 1);
  fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\" time=\"%.3f\"",
          r->nresults + (size_t)err_row, failed, faults + (size_t)err_row, total / 1000.0);
  if (r->nresults) {
    time_t t = (time_t)floor(r->results[0]->started_unix_ms / 1000.0);
    struct tm tm;
    char ts[32];
    if (gmtime_r(&t, &tm) && strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm))
      fprintf(f, " timestamp=\"%s\"", ts);
  }
  fprintf(f, ">\n%s  <properties>\n", in);
  char cycles[16];
  snprintf(cycles, sizeof cycles, "%d", r->cycles);
  property(f, in, "cycles", cycles);
  if (r->scenario && r->scenario->path) property(f, in, "scenario", r->scenario->path);
  if (r->url) property(f, in, "url", r->url);
  fprintf(f, "%s  </properties>\n", in);
  for (size_t i = 0; i < r->nresults; i++) testcase(f, in, r, r->results[i]);
  if (err_row) testcase(f, in, r, &err);
  if (r->error) {
    fprintf(f, "%s  <system-err>", in);
    sc__report_put_xml(f, r->error, 0);
    fputs("</system-err>\n", f);
  }
  fprintf(f, "%s</testsuite>\n", in);
}

SC_EXTERN int sc_report_junit(const char *path, const sc_run_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report junit: NULL argument");
  sc__report_file rf;
  int rc = sc__report_open(&rf, path);
  if (rc) return rc;
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", rf.f);
  sc__report_junit_suite(rf.f, "", r, sc__report_app(r->scenario));
  return sc__report_close(&rf, 0);
}
