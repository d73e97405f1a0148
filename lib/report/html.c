/* The HTML report of a run: one self-contained page with the verdict, the
 * chart of verified times, the summary, and the verdict table with every
 * step's timeline, every failure's before/after/diff images next to its
 * reason and the frames kept of passed steps (files beside the page, by
 * relative URL, each opening full size). Every text from a scenario or a
 * result is escaped. The images under the rows: html_images.c. */
#include "core/core.h"
#include "report/report_int.h"

static void ms_cell(FILE *f, double v) {
  char buf[320];
  fprintf(f, "<td class=\"n\">%s</td>", sc__report_ms(buf, sizeof buf, v));
}

static void scale_cell(FILE *f, const sc_step_result *s) {
  fputs("<td>", f);
  if (s->scale_text) sc__report_put_xml(f, s->scale_text, 1);
  if (s->scale_factor != 0) fprintf(f, "%sx%.4f", s->scale_text ? " = " : "", s->scale_factor);
  if (!s->scale_text && s->scale_factor == 0) fputc('-', f);
  fputs("</td>", f);
}

/* Columns of the verdict table: the image rows under a step span them. The
 * times read as the step's timeline: gesture, first paint, first change,
 * last paint, verified, drawn in the timeline column. */
static const char k_step_head[] =
    "<tr><th>cycle</th><th>step</th><th>result</th><th>timeline</th><th>gesture</th>"
    "<th>first paint</th><th>first change</th><th>last paint</th><th>verified</th><th>idle</th>"
    "<th>captures</th><th>capture</th><th>rest</th><th>scale</th><th>reason</th></tr>\n";
#define SC__HTML_STEP_COLUMNS 15

int sc__html_steps(FILE *f, const char *page, const sc_run_result *r, int user) {
  sc__html_frames_note(f, r, user);
  sc__html_timeline_key(f);
  fputs("<table class=\"steps\">\n", f);
  fputs(k_step_head, f);
  for (size_t i = 0; i < r->nresults; i++) {
    const sc_step_result *s = r->results[i];
    const char *v = s->passed ? "PASS" : s->fault ? "ERROR" : "FAIL";
    fprintf(f, "<tr class=\"%s\" id=\"r-%d-%zu\"><td>", s->passed ? "pass" : "fail", user, i);
    if (s->setup)
      fputs("setup", f);
    else
      fprintf(f, "%d", s->cycle);
    fputs("</td><td>", f);
    sc__report_put_xml(f, s->step_id ? s->step_id : "?", 1);
    fprintf(f, "</td><td class=\"%s\">%s</td><td class=\"tl\">", v, v);
    sc__html_timeline(f, r, s);
    fputs("</td>", f);
    ms_cell(f, s->gesture_ms);
    ms_cell(f, sc__report_first_paint(s));
    ms_cell(f, s->first_change_ms);
    ms_cell(f, sc__report_last_paint(s));
    ms_cell(f, s->verified_ms);
    ms_cell(f, s->idle_ms);
    fprintf(f, "<td class=\"n\">%d</td>", s->captures);
    ms_cell(f, s->capture_ms);
    fputs("<td class=\"rest\">", f);
    sc__report_put_rest(f, s);
    fputs("</td>", f);
    scale_cell(f, s);
    fputs("<td class=\"reason\">", f);
    sc__report_put_xml(f, s->reason, 1);
    fputs("</td></tr>\n", f);
    int rc = s->passed ? sc__html_frames_row(f, page, r, s, user, i, SC__HTML_STEP_COLUMNS)
             : s->nartifacts ? sc__html_shots_row(f, page, s, user, i, SC__HTML_STEP_COLUMNS)
                             : 0;
    if (rc) return rc;
  }
  fputs("</table>\n", f);
  return 0;
}

void sc__html_drift_error(FILE *f, const sc_run_result *r) {
  for (size_t i = 0; i < r->ndrift; i++) {
    const sc_drift *d = r->drift[i];
    fprintf(f, "<p class=\"warn\">drift: cycle %d, region ", d->cycle);
    sc__report_put_xml(f, d->region ? d->region : "?", 1);
    if (d->pixels < 0)
      fputs(": not compared (screen not at rest at the cycle's start or end)</p>\n", f);
    else
      fprintf(f, ": %ld px differ from the cycle start</p>\n", d->pixels);
  }
  if (r->ready_ms > 0)
    fprintf(f, "<p class=\"meta\">ready: the whole guest still for %.0f ms after %.1f ms (the "
            "readiness gate)</p>\n", r->scenario ? r->scenario->ready_quiet_ms : 0.0, r->ready_ms);
  for (size_t i = 0; i < r->nlocated; i++) { /* where the locators found things */
    const sc_located *l = r->located[i];
    fputs("<p class=\"meta\">located ", f);
    sc__report_put_xml(f, l->name ? l->name : "?", 1);
    if (l->is_region)
      fprintf(f, ": region %d,%d %dx%d", l->r.x, l->r.y, l->r.w, l->r.h);
    else
      fprintf(f, ": point (%g, %g)", l->p.x, l->p.y);
    fprintf(f, ", score %.3f, ", l->score);
    if (l->cycle) fprintf(f, "cycle %d</p>\n", l->cycle);
    else fputs("at open</p>\n", f);
  }
  if (!r->error) return;
  fputs("<p class=\"error\">error: ", f);
  sc__report_put_xml(f, r->error, 1);
  fputs("</p>\n", f);
}

SC_EXTERN int sc_report_html(const char *path, const sc_run_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report html: NULL argument");
  const sc_run_result *const *one = &r;
  sc__report_file rf;
  int rc = sc__report_open(&rf, path);
  if (rc) return rc;
  FILE *f = rf.f;
  int is_void;
  sc__report_failed(r, &is_void);
  sc__html_head(f, sc__report_app(r->scenario));
  sc__html_meta(f, r->scenario, r->url);
  fprintf(f, "<p class=\"meta\">%d cycle%s, %zu step result%s</p>\n", r->cycles,
          r->cycles == 1 ? "" : "s", r->nresults, r->nresults == 1 ? "" : "s");
  sc__html_verdict_open(f, is_void);
  sc__report_verdict(f, r);
  sc__html_verdict_close(f);
  sc__html_drift_error(f, r);
  fputs("<h2>Verified time per step</h2>\n", f);
  rc = sc__html_chart(f, one, 1);
  if (!rc) {
    fputs("<h2>Summary</h2>\n", f);
    rc = sc__html_summary(f, one, 1);
  }
  if (!rc) {
    fputs("<h2>Steps</h2>\n", f);
    rc = sc__html_steps(f, path, r, 0);
  }
  sc__html_foot(f);
  return sc__report_close(&rf, rc);
}
