/* The human-readable report: one line per step result, a JMeter-style
 * summary per step id, and the verdict line. */
#include <errno.h>
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"

static void cycle_label(char *buf, size_t n, const sc_step_result *s) {
  if (s->setup)
    snprintf(buf, n, "setup");
  else
    snprintf(buf, n, "%d", s->cycle);
}

/* Per cycle: passes, wall time from the first input of its first step to
 * the verdict of its last, and the slowest verified step. */
static void cycle_lines(FILE *out, const sc_run_result *r) {
  for (int c = 1; c <= r->cycles; c++) {
    int n = 0, pass = 0;
    double t0 = 0, t1 = 0, slow = -1;
    const char *slow_id = NULL;
    for (size_t i = 0; i < r->nresults; i++) {
      const sc_step_result *s = r->results[i];
      if (s->setup || s->cycle != c) continue;
      double end = s->started_unix_ms + sc__result_elapsed(r, s);
      if (!n || s->started_unix_ms < t0) t0 = s->started_unix_ms;
      if (!n || end > t1) t1 = end;
      n++;
      if (!s->passed) continue;
      pass++;
      if (s->verified_ms > slow) {
        slow = s->verified_ms;
        slow_id = s->step_id;
      }
    }
    if (!n) continue;
    fprintf(out, "cycle %d: %d/%d passed, %.1f ms from first input to last verdict", c, pass, n,
            t1 - t0);
    if (slow_id) fprintf(out, ", slowest %s %.1f ms", slow_id, slow);
    fputc('\n', out);
  }
}

/* The "first" cell: the first paint marked "p", else the first change
 * marked "c", else "-" under the numbers' last digit. */
static const char *first_cell(char *buf, size_t n, const sc_step_result *s) {
  int paint;
  double v = sc__report_first(s, &paint);
  if (v < 0)
    snprintf(buf, n, "-  ");
  else
    snprintf(buf, n, "%.1f %c", v, paint ? 'p' : 'c');
  return buf;
}

SC_EXTERN int sc_report_table(FILE *out, const sc_run_result *r) {
  if (!out || !r) return sc__err(SC_EINVAL, "report table: NULL argument");
  const sc_run_result *const *one = &r;
  int w = sc__report_id_width(one, 1);
  fprintf(out, "%s: %d cycle%s, %zu step result%s\n\n", sc__report_app(r->scenario), r->cycles,
          r->cycles == 1 ? "" : "s", r->nresults, r->nresults == 1 ? "" : "s");
  fprintf(out, "%-5s %-*s %-6s %10s %10s %11s %8s  %s\n", "cycle", w, "step", "result",
          "gesture", "first", "verified", "captures", "reason");
  for (size_t i = 0; i < r->nresults; i++) {
    const sc_step_result *s = r->results[i];
    char c[16], g[32], f[40], v[32];
    cycle_label(c, sizeof c, s);
    const char *verdict = s->passed ? "PASS" : s->fault ? "ERROR" : "FAIL";
    fprintf(out, "%-5s %-*s %-6s %10s %10s %11s %8d  ", c, w, s->step_id ? s->step_id : "?",
            verdict, sc__report_ms(g, sizeof g, s->gesture_ms),
            first_cell(f, sizeof f, s), sc__report_ms(v, sizeof v, s->verified_ms),
            s->captures);
    sc__report_put_line(out, s->reason);
    fputc('\n', out);
  }
  if (r->nresults)
    fputs("first: p = first paint (the page's paint log), c = first change (captures)\n", out);

  fprintf(out, "\nsummary (ms; timings over passed steps only, failures are not averaged)\n");
  int rc = sc__report_summary(out, one, 1, w);
  if (rc) return rc;
  cycle_lines(out, r);

  if (r->ready_ms > 0)
    fprintf(out, "ready: the whole guest was still for %.0f ms, %.1f ms after the gate began "
            "(the readiness gate)\n", r->scenario ? r->scenario->ready_quiet_ms : 0.0, r->ready_ms);
  for (size_t i = 0; i < r->nlocated; i++) {
    const sc_located *l = r->located[i];
    fputs("located: ", out);
    sc__report_put_line(out, l->name);
    if (l->is_region)
      fprintf(out, " region %d,%d %dx%d", l->r.x, l->r.y, l->r.w, l->r.h);
    else
      fprintf(out, " point (%g, %g)", l->p.x, l->p.y);
    fprintf(out, " score %.3f, %s", l->score, l->cycle ? "cycle " : "at open");
    if (l->cycle) fprintf(out, "%d", l->cycle);
    fputc('\n', out);
  }
  for (size_t i = 0; i < r->ndrift; i++) {
    const sc_drift *d = r->drift[i];
    if (d->pixels < 0)
      fprintf(out, "drift: cycle %d, region %s: not compared (screen not at rest at the "
                   "cycle's start or end)\n", d->cycle, d->region ? d->region : "?");
    else
      fprintf(out, "drift: cycle %d, region %s: %ld px differ from the cycle start\n", d->cycle,
              d->region ? d->region : "?", d->pixels);
  }
  if (r->error) {
    fputs("error: ", out);
    sc__report_put_line(out, r->error);
    fputc('\n', out);
  }
  fputs("\nRESULT: ", out);
  sc__report_verdict(out, r);
  fputc('\n', out);
  /* fflush retries what is buffered, so errno is the writes' own reason */
  int bad = ferror(out);
  if (fflush(out) != 0 || bad)
    return sc__err(SC_EIO, "report table: write failed: %s", strerror(errno));
  return 0;
}
