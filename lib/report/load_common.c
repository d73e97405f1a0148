/* What the load writers share: the verdict of a load run (PASS only when
 * every step of every user and of the warm-up was verified and nothing
 * stopped on an error) and a user's name. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"

void sc__report_load_verdict(sc__load_verdict *out, const sc_load_result *r) {
  memset(out, 0, sizeof *out);
  int user_error = 0, user_void = 0, warm_void = 0;
  for (size_t u = 0; u < r->nusers; u++) {
    int v;
    out->results += r->users[u]->nresults;
    out->failed += sc__report_failed(r->users[u], &v);
    user_error |= r->users[u]->error != NULL;
    user_void |= v;
  }
  if (r->warmup) sc__report_failed(r->warmup, &warm_void);
  out->is_void = out->failed > 0 || out->results == 0 || r->error || user_void || warm_void ||
                 !r->passed;
  if (!out->is_void || out->failed) return;
  if (out->results == 0)
    out->why = "no steps ran";
  else if (r->error)
    out->why = "run stopped on an error";
  else if (user_error)
    out->why = "a user stopped on an error";
  else if (user_void)
    out->why = "a user's drift check failed";
  else if (warm_void)
    out->why = "the warm-up did not pass";
  else
    out->why = "the run did not pass";
}

const char *sc__report_user_name(char *buf, size_t n, const sc_run_result *u) {
  if (u->user_name) return u->user_name;
  snprintf(buf, n, "user-%d", u->user + 1);
  return buf;
}
