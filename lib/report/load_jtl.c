/* JMeter JTL of a load run: every user's rows in time order, each with the
 * number of users running then, so the dashboard draws the ramp. */
#include <stdlib.h>

#include "core/core.h"
#include "report/report_int.h"

typedef struct row {
  const sc_run_result *u;
  const sc_step_result *s;
  size_t user, i; /* position among users, among the user's results */
} row;

static int cmp_row(const void *a, const void *b) {
  const row *x = a, *y = b;
  if (x->s->started_unix_ms != y->s->started_unix_ms)
    return x->s->started_unix_ms < y->s->started_unix_ms ? -1 : 1;
  if (x->user != y->user) return x->user < y->user ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* Users running at t: started at or before it and not yet ended (a user
 * without an end runs to the end of the run). The row's own user always
 * counts. */
static int running(const sc_load_result *r, const row *w, double t) {
  int n = 1;
  for (size_t u = 0; u < r->nusers; u++) {
    const sc_run_result *x = r->users[u];
    if (u != w->user && x->started_unix_ms <= t && (x->ended_unix_ms <= 0 || t < x->ended_unix_ms))
      n++;
  }
  return n;
}

SC_EXTERN int sc_report_load_jtl(const char *path, const sc_load_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report load jtl: NULL argument");
  size_t n = 0;
  for (size_t u = 0; u < r->nusers; u++) n += r->users[u]->nresults;
  /* a row too for each user's error that no step result carries */
  row *rows = sc__malloc((n + r->nusers + 1) * sizeof *rows);
  sc_step_result *errs = sc__malloc((r->nusers + 1) * sizeof *errs);
  if (!rows || !errs) {
    sc__free(rows);
    sc__free(errs);
    return sc__err(SC_ENOMEM, "%s: out of memory", path);
  }
  n = 0;
  for (size_t u = 0; u < r->nusers; u++) {
    const sc_run_result *x = r->users[u];
    for (size_t i = 0; i < x->nresults; i++) rows[n++] = (row){x, x->results[i], u, i};
    if (sc__report_error_row(&errs[u], x)) rows[n++] = (row){x, &errs[u], u, x->nresults};
  }
  qsort(rows, n, sizeof *rows, cmp_row);

  sc__report_file rf;
  int rc = sc__report_open(&rf, path);
  if (!rc) {
    sc__report_jtl_header(rf.f);
    for (size_t k = 0; k < n; k++) {
      /* JMeter's thread naming, "<group> <group#>-<thread#>": one group */
      char thread[48];
      snprintf(thread, sizeof thread, "stepcheck 1-%d", rows[k].u->user + 1);
      sc__report_jtl_row(rf.f, rows[k].u, rows[k].s, thread,
                         running(r, &rows[k], rows[k].s->started_unix_ms));
    }
    rc = sc__report_close(&rf, 0);
  }
  sc__free(rows);
  sc__free(errs);
  return rc;
}
