/* The HTML report of a run: one self-contained page with the verdict, the
 * chart of verified times, the summary, and the verdict table with every
 * step's timeline, every failure's before/after/diff images next to its
 * reason and the frames kept of passed steps (files beside the page, by
 * relative URL, each opening full size). Every text from a scenario or a
 * result is escaped. */
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "report/report_int.h"

/* "before", "after" or "diff" from the runner's file names
 * (...-before.png), else "image". */
static const char *artifact_kind(const char *path) {
  static const char *const kinds[] = {"before", "after", "diff"};
  size_t len = strlen(path);
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    size_t k = strlen(kinds[i]) + sizeof "-.png" - 1;
    if (len >= k && path[len - k] == '-' && !strncmp(path + len - k + 1, kinds[i], k - 5) &&
        !strcmp(path + len - 4, ".png"))
      return kinds[i];
  }
  return "image";
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* An image is shown only when its file is there as the page is written: a
 * listed file that is gone (a report written again after a clean-up) is
 * named as missing instead of drawn as a broken image. */
static int file_there(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

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

/* The region part of a runner's file name, USER@cC-STEP@REGION-KIND.png:
 * what a thumbnail's caption needs (the whole name is its tooltip). */
static void put_region(FILE *f, const char *path, const char *kind) {
  const char *b = base_name(path), *at = strrchr(b, '@');
  size_t tail = strlen(kind) + sizeof "-.png" - 1, len = at ? strlen(at + 1) : 0;
  if (!at || len <= tail || !strcmp(kind, "image")) {
    sc__report_put_xml(f, b, 1);
    return;
  }
  char *region = sc__strndup(at + 1, len - tail);
  sc__report_put_xml(f, region ? region : b, 1);
  sc__free(region);
}

/* One image as a link to itself (full size), captioned with its whole name
 * (failures) or its region (thumbnails), or its name marked missing. */
static int figure(FILE *f, const char *page, const char *a, const char *cls) {
  const char *kind = artifact_kind(a);
  int thumb = !strcmp(cls, "thumb");
  if (!file_there(a)) {
    fputs("<figure class=\"missing\"><figcaption><b>missing</b> ", f);
    sc__report_put_xml(f, base_name(a), 1);
    fputs("</figcaption></figure>\n", f);
    return 0;
  }
  fputs("<figure><a href=\"", f);
  int rc = sc__html_src(f, page, a);
  if (!rc) fprintf(f, "\"><img class=\"%s\" src=\"", cls);
  if (!rc) rc = sc__html_src(f, page, a);
  if (rc) return rc;
  fprintf(f, "\" alt=\"%s\" title=\"", kind);
  sc__report_put_xml(f, base_name(a), 1);
  fprintf(f, "\"></a><figcaption><b>%s</b> ", kind);
  if (thumb)
    put_region(f, a, kind);
  else
    sc__report_put_xml(f, base_name(a), 1);
  fputs("</figcaption></figure>\n", f);
  return 0;
}

/* The failure's images beside its reason, in a row under it. */
static int shots_row(FILE *f, const char *page, const sc_step_result *s, int user, size_t i) {
  fprintf(f, "<tr class=\"shots\"><td colspan=\"%d\"><div class=\"shots\" id=\"fail-%d-%zu\">"
             "<p class=\"why\">", SC__HTML_STEP_COLUMNS, user, i);
  sc__report_put_xml(f, s->reason ? s->reason : "failed", 1);
  fputs("</p>\n", f);
  for (size_t k = 0; k < s->nartifacts; k++) {
    int rc = figure(f, page, s->artifacts[k], "shot");
    if (rc) return rc;
  }
  fputs("</div></td></tr>\n", f);
  return 0;
}

/* A passed step's frames as thumbnails (before, after per region), or why
 * it has none when the run keeps passed steps' frames. */
static int frames_row(FILE *f, const char *page, const sc_run_result *r, const sc_step_result *s,
                      int user, size_t i) {
  if (!s->nartifacts && !s->frames_skipped) return 0;
  fprintf(f, "<tr class=\"frames\"><td colspan=\"%d\"><div class=\"frames\" "
             "id=\"frames-%d-%zu\">", SC__HTML_STEP_COLUMNS, user, i);
  if (s->frames_skipped) {
    char buf[64];
    fprintf(f, "<p class=\"skipped\">frames not kept: the run's budget for passed steps' "
               "frames (%s) was spent</p>", sc__report_bytes(buf, sizeof buf,
                                                         r->pass_frames_budget));
  }
  for (size_t k = 0; k < s->nartifacts; k++) {
    int rc = figure(f, page, s->artifacts[k], "thumb");
    if (rc) return rc;
  }
  fputs("</div></td></tr>\n", f);
  return 0;
}

/* What was kept of passed steps' frames, and from where on the budget left
 * them out. */
static void frames_note(FILE *f, const sc_run_result *r, int user) {
  if (r->pass_frames_budget <= 0) return;
  size_t skipped = 0, first = 0;
  for (size_t i = 0; i < r->nresults; i++)
    if (r->results[i]->frames_skipped && !skipped++) first = i;
  char used[64], budget[64];
  /* with many users the budget is the run's and the bytes this user's */
  fprintf(f, "<p class=\"meta frames\">frames of passed steps: %s written by this user (run "
             "budget %s",
          sc__report_bytes(used, sizeof used, r->pass_frames_written),
          sc__report_bytes(budget, sizeof budget, r->pass_frames_budget));
  if (!skipped) {
    fputs(")</p>\n", f);
    return;
  }
  const sc_step_result *s = r->results[first];
  fprintf(f, "); <b>budget spent</b>: %zu passed step%s kept no frames, from <a href=\"#r-%d-%zu\">",
          skipped, skipped == 1 ? "" : "s", user, first);
  if (s->setup)
    fputs("setup", f);
  else
    fprintf(f, "cycle %d", s->cycle);
  fputs(" step ", f);
  sc__report_put_xml(f, s->step_id ? s->step_id : "?", 1);
  fputs("</a> on</p>\n", f);
}

int sc__html_steps(FILE *f, const char *page, const sc_run_result *r, int user) {
  frames_note(f, r, user);
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
    int rc = s->passed ? frames_row(f, page, r, s, user, i)
             : s->nartifacts ? shots_row(f, page, s, user, i) : 0;
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
