/* The human-readable report of a load run: levels, the summary over every
 * user, one line per user, the warm-up and the bar it sets, the generator's
 * cost, and the verdict line. */
#include <errno.h>
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"
#include "run/quality.h"

static const char *plural(size_t n) { return n == 1 ? "" : "s"; }

static void level_lines(FILE *out, const sc_load_result *r) {
  fprintf(out, "%-5s %5s %11s %11s %7s %7s  %s\n", "level", "users", "from", "to", "passed",
          "failed", "verdict");
  for (size_t i = 0; i < r->nlevels; i++) {
    const sc_level *lv = r->levels[i];
    fprintf(out, "%-5d %5d %9.1f s %9.1f s %7d %7d  ", lv->index, lv->users,
            lv->start_ms / 1000.0, lv->end_ms / 1000.0, lv->steps_passed, lv->steps_failed);
    if (lv->healthy) {
      fputs("healthy\n", out);
      continue;
    }
    fputs("DEGRADED", out);
    if (lv->reason) {
      fputs(": ", out);
      sc__report_put_line(out, lv->reason);
    }
    fputc('\n', out);
  }
  if (!r->warmup)
    fputs("no warm-up: no quality bar, only failures and errors degrade a level\n", out);
}

/* "zoom-in 905.8 ms": the slowest verified step of a run, or "-". */
static const char *slowest(char *buf, size_t n, const sc_run_result *u) {
  const sc_step_result *slow = NULL;
  for (size_t i = 0; i < u->nresults; i++) {
    const sc_step_result *s = u->results[i];
    if (s->passed && s->verified_ms >= 0 && (!slow || s->verified_ms > slow->verified_ms))
      slow = s;
  }
  if (!slow) return "-";
  snprintf(buf, n, "%s %.1f ms", slow->step_id ? slow->step_id : "?", slow->verified_ms);
  return buf;
}

static void user_lines(FILE *out, const sc_load_result *r) {
  char nb[32], sb[160];
  int wn = 4, ws = 7; /* "user", "slowest" */
  for (size_t u = 0; u < r->nusers; u++) {
    int a = (int)strlen(sc__result_user_name(nb, sizeof nb, r->users[u]));
    int b = (int)strlen(slowest(sb, sizeof sb, r->users[u]));
    if (a > wn) wn = a;
    if (b > ws) ws = b;
  }
  fprintf(out, "%-*s %7s %7s  %-*s  %s\n", wn, "user", "passed", "failed", ws, "slowest",
          "error");
  for (size_t u = 0; u < r->nusers; u++) {
    const sc_run_result *x = r->users[u];
    size_t failed = sc__report_failed(x, NULL);
    fprintf(out, "%-*s %7zu %7zu  %-*s  ", wn, sc__result_user_name(nb, sizeof nb, x),
            x->nresults - failed, failed, ws, slowest(sb, sizeof sb, x));
    if (x->error)
      sc__report_put_line(out, x->error);
    else
      fputc('-', out);
    fputc('\n', out);
  }
}

static int warmup_lines(FILE *out, const sc_load_result *r) {
  const sc_run_result *w = r->warmup;
  if (!w) return 0;
  const sc_run_result *const *one = &w;
  size_t failed = sc__report_failed(w, NULL);
  fprintf(out, "warm-up (one user alone): ");
  if (failed)
    fprintf(out, "%zu of %zu steps failed\n", failed, w->nresults);
  else
    fprintf(out, "%zu/%zu steps verified\n", w->nresults, w->nresults);
  if (w->error) {
    fputs("warm-up error: ", out);
    sc__report_put_line(out, w->error);
    fputc('\n', out);
  }
  const char **ids;
  size_t n;
  int rc = sc__report_ids(&ids, &n, one, 1);
  if (rc) return rc;
  int wid = sc__report_id_width(one, 1);
  fprintf(out, "%-*s %9s %9s  (bar: max(%.0f x slowest, %.0f ms))\n", wid, "step", "slowest",
          "bar", SC__BAR_FACTOR, SC__BAR_FLOOR_MS);
  for (size_t k = 0; k < n; k++) {
    char a[32], b[32];
    fprintf(out, "%-*s %9s %9s\n", wid, ids[k] ? ids[k] : "?",
            sc__report_ms(a, sizeof a, sc__quality_warm_ms(w, ids[k])),
            sc__report_ms(b, sizeof b, sc__quality_step_bar(w, ids[k])));
  }
  sc__free(ids);
  double cycle = sc__quality_cycle_ms(w);
  if (cycle > 0)
    fprintf(out, "warm-up cycle %.1f ms: no user may go over %.1f ms without completing a cycle\n",
            cycle, SC__BAR_STALL_FACTOR * cycle);
  else
    fputs("warm-up completed no cycle: no stall limit\n", out);
  return 0;
}

static void generator_lines(FILE *out, const sc_load_result *r) {
  sc__load_peaks pk;
  if (!sc__report_load_peaks(&pk, r)) {
    fprintf(out, "generator (%d core%s): no samples\n", r->cores, plural((size_t)r->cores));
    return;
  }
  const sc_gen_sample *cpu = pk.cpu, *pss = pk.pss, *lib = pk.lib;
  fprintf(out, "generator (%d core%s, %zu sample%s):\n", r->cores, plural((size_t)r->cores),
          r->nsamples, plural(r->nsamples));
  fprintf(out, "  peak CPU %.1f%% of one core at %.1f s (warning above %.1f%%)\n", cpu->cpu_pct,
          cpu->t_ms / 1000.0, r->cpu_warn_pct);
  fprintf(out, "  peak PSS %.1f MiB at %.1f s\n", pss->pss_mib, pss->t_ms / 1000.0);
  if (lib->users > 0)
    fprintf(out, "  library PSS %.1f MiB at %d user%s: %.1f MiB per user\n", lib->lib_pss_mib,
            lib->users, plural((size_t)lib->users), lib->lib_pss_mib / lib->users);
}

SC_EXTERN int sc_report_load_table(FILE *out, const sc_load_result *r) {
  if (!out || !r) return sc__err(SC_EINVAL, "report load table: NULL argument");
  const sc_run_result *const *users = sc__report_users(r);
  fprintf(out, "%s: load of %zu user%s in %zu level%s\n\n", sc__report_app(r->scenario),
          r->nusers, plural(r->nusers), r->nlevels, plural(r->nlevels));
  level_lines(out, r);
  fprintf(out, "\nsummary over all users (ms; timings over passed steps only, failures are not "
               "averaged)\n");
  int rc = sc__report_summary(out, users, r->nusers, sc__report_id_width(users, r->nusers));
  if (rc) return rc;
  fputc('\n', out);
  user_lines(out, r);
  fputc('\n', out);
  if ((rc = warmup_lines(out, r)) != 0) return rc;
  if (r->warmup) fputc('\n', out);
  generator_lines(out, r);
  for (size_t i = 0; i < r->nwarnings; i++) {
    fputs("warning: ", out);
    sc__report_put_line(out, r->warnings[i]);
    fputc('\n', out);
  }
  if (r->error) {
    fputs("error: ", out);
    sc__report_put_line(out, r->error);
    fputc('\n', out);
  }
  fputs("\nRESULT: ", out);
  sc__report_load_verdict_line(out, r);
  fputc('\n', out);
  /* fflush retries what is buffered, so errno is the writes' own reason */
  int bad = ferror(out);
  if (fflush(out) != 0 || bad)
    return sc__err(SC_EIO, "report load table: write failed: %s", strerror(errno));
  return 0;
}
