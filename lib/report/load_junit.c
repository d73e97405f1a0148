/* JUnit XML of a load run: <testsuites> of one <testsuite> per user. */
#include "core/core.h"
#include "report/report_int.h"

SC_EXTERN int sc_report_load_junit(const char *path, const sc_load_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report load junit: NULL argument");
  sc__report_file rf;
  int rc = sc__report_open(&rf, path);
  if (rc) return rc;
  FILE *f = rf.f;
  size_t tests = 0, failures = 0, errors = r->error ? 1 : 0;
  double total = 0;
  for (size_t u = 0; u < r->nusers; u++) {
    const sc_run_result *x = r->users[u];
    tests += x->nresults;
    failures += sc__report_failed(x, NULL);
    errors += x->error != NULL;
    for (size_t i = 0; i < x->nresults; i++) total += sc__report_elapsed(x, x->results[i]);
  }
  fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
  sc__report_put_xml(f, sc__report_app(r->scenario), 1);
  fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n", tests, failures,
          errors, total / 1000.0);
  for (size_t u = 0; u < r->nusers; u++) {
    const sc_run_result *x = r->users[u];
    char name[32];
    sc__report_junit_suite(f, "  ", x, sc__report_user_name(name, sizeof name, x));
  }
  fputs("</testsuites>\n", f);
  return sc__report_close(&rf, 0);
}
