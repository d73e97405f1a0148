/* JUnit XML of a load run: <testsuites> of one <testsuite> per user. */
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"

SC_EXTERN int sc_report_load_junit(const char *path, const sc_load_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report load junit: NULL argument");
  sc__report_file rf;
  int rc = sc__report_open(&rf, path);
  if (rc) return rc;
  FILE *f = rf.f;
  /* the load's own error (a failed warm-up, a browser that did not start)
   * as a suite of its own, so that every error counted is shown */
  sc_run_result load_err;
  memset(&load_err, 0, sizeof load_err);
  load_err.scenario = r->scenario;
  load_err.error = r->error;
  load_err.url = r->url;
  load_err.user_name = "load";
  load_err.started_unix_ms = r->started_unix_ms;
  load_err.ended_unix_ms = r->ended_unix_ms;
  size_t tests = r->error ? 1 : 0, failures = 0, errors = r->error ? 1 : 0;
  double total = 0;
  for (size_t u = 0; u < r->nusers; u++) {
    const sc_run_result *x = r->users[u];
    sc_step_result e;
    int err_row = sc__report_error_row(&e, x);
    size_t faults = sc__report_faults(x);
    tests += x->nresults + (size_t)err_row;
    failures += sc__report_failed(x, NULL) - faults;
    errors += faults + (size_t)err_row;
    for (size_t i = 0; i < x->nresults; i++) total += sc__result_elapsed(x, x->results[i]);
  }
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
  sc__report_put_xml(f, sc__report_app(r->scenario), 1);
  fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n", tests, failures,
          errors, total / 1000.0);
  for (size_t u = 0; u < r->nusers; u++) {
    const sc_run_result *x = r->users[u];
    char name[32];
    sc__report_junit_suite(f, "  ", x, sc__result_user_name(name, sizeof name, x));
  }
  if (r->error) sc__report_junit_suite(f, "  ", &load_err, "load");
  fputs("</testsuites>\n", f);
  return sc__report_close(&rf, 0);
}
