/* What the load writers share: the verdict of a load run (PASS only when
 * every step of every user and of the warm-up was verified and nothing
 * stopped on an error) and its line, a user's name, and the generator's
 * peak samples. */
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

static const char *plural(size_t n) { return n == 1 ? "" : "s"; }

void sc__report_load_verdict_line(FILE *out, const sc_load_result *r) {
  sc__load_verdict v;
  sc__report_load_verdict(&v, r);
  if (!v.is_void)
    fprintf(out, "PASS %zu/%zu steps verified by %zu user%s", v.results, v.results, r->nusers,
            plural(r->nusers));
  else if (v.results == 0)
    fputs("VOID no steps ran", out);
  else
    fprintf(out, "VOID %zu of %zu steps failed over %zu user%s%s%s%s", v.failed, v.results,
            r->nusers, plural(r->nusers), v.why ? " (" : "", v.why ? v.why : "",
            v.why ? ")" : "");
  if (r->last_healthy_users > 0)
    fprintf(out, "; last healthy level: %d user%s", r->last_healthy_users,
            plural((size_t)r->last_healthy_users));
  else
    fputs("; last healthy level: none", out);
}

int sc__report_load_peaks(sc__load_peaks *out, const sc_load_result *r) {
  memset(out, 0, sizeof *out);
  if (!r->nsamples) return 0;
  const sc_gen_sample *cpu = r->samples[0], *pss = r->samples[0], *lib = r->samples[0];
  for (size_t i = 1; i < r->nsamples; i++) {
    const sc_gen_sample *s = r->samples[i];
    if (s->cpu_pct > cpu->cpu_pct) cpu = s;
    if (s->pss_mib > pss->pss_mib) pss = s;
    /* most users; among those the largest library PSS */
    if (s->users > lib->users || (s->users == lib->users && s->lib_pss_mib > lib->lib_pss_mib))
      lib = s;
  }
  out->cpu = cpu;
  out->pss = pss;
  out->lib = lib;
  return 1;
}
