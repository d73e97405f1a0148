/* The HTML report of a load run: the verdict, the chart over every user,
 * the summary over every user, the ramp levels, a verdict table per user
 * (with each failure's images), the warm-up, the generator's cost and the
 * warnings, on one self-contained page. */
#include "core/core.h"
#include "report/report_int.h"

static void levels(FILE *f, const sc_load_result *r) {
  fputs("<table id=\"levels\">\n<tr><th>level</th><th>users</th><th>from s</th><th>to s</th>"
        "<th>passed</th><th>failed</th><th>verdict</th></tr>\n",
        f);
  for (size_t i = 0; i < r->nlevels; i++) {
    const sc_level *lv = r->levels[i];
    fprintf(f, "<tr><td class=\"n\">%d</td><td class=\"n\">%d</td><td class=\"n\">%.1f</td>"
               "<td class=\"n\">%.1f</td><td class=\"n\">%d</td><td class=\"n\">%d</td>",
            lv->index, lv->users, lv->start_ms / 1000.0, lv->end_ms / 1000.0, lv->steps_passed,
            lv->steps_failed);
    if (lv->healthy) {
      fputs("<td class=\"PASS\">healthy</td></tr>\n", f);
      continue;
    }
    fputs("<td class=\"FAIL\">DEGRADED", f);
    if (lv->reason) {
      fputs(": ", f);
      sc__report_put_xml(f, lv->reason, 1);
    }
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
  if (!r->warmup)
    fputs("<p>No warm-up: no quality bar, only failures and errors degrade a level.</p>\n", f);
}

/* A heading and the verdict table of one user (or the warm-up). */
static int user_section(FILE *f, const char *page, const sc_run_result *u, const char *name,
                        int index) {
  size_t failed = sc__report_failed(u, NULL);
  fputs("<h3>", f);
  sc__report_put_xml(f, name, 1);
  fprintf(f, ": %zu passed, %zu failed</h3>\n", u->nresults - failed, failed);
  sc__html_drift_error(f, u);
  return sc__html_steps(f, page, u, index);
}

static void generator(FILE *f, const sc_load_result *r) {
  sc__load_peaks pk;
  fprintf(f, "<h2>Generator</h2>\n<p>%d core%s, %zu sample%s", r->cores,
          r->cores == 1 ? "" : "s", r->nsamples, r->nsamples == 1 ? "" : "s");
  if (!sc__report_load_peaks(&pk, r)) {
    fputs("</p>\n", f);
    return;
  }
  fprintf(f, ": peak CPU %.1f%% of one core at %.1f s (warning above %.1f%%); peak PSS %.1f MiB "
             "at %.1f s",
          pk.cpu->cpu_pct, pk.cpu->t_ms / 1000.0, r->cpu_warn_pct, pk.pss->pss_mib,
          pk.pss->t_ms / 1000.0);
  if (pk.lib->users > 0)
    fprintf(f, "; library PSS %.1f MiB at %d users: %.1f MiB per user", pk.lib->lib_pss_mib,
            pk.lib->users, pk.lib->lib_pss_mib / pk.lib->users);
  fputs("</p>\n", f);
}

static int body(FILE *f, const char *page, const sc_load_result *r) {
  const sc_run_result *const *users = sc__report_users(r);
  fputs("<h2>Verified time per step</h2>\n", f);
  int rc = sc__html_chart(f, users, r->nusers);
  if (rc) return rc;
  fputs("<h2>Summary over all users</h2>\n", f);
  if ((rc = sc__html_summary(f, users, r->nusers)) != 0) return rc;
  fputs("<h2>Levels</h2>\n", f);
  levels(f, r);
  fputs("<h2>Users</h2>\n", f);
  for (size_t u = 0; u < r->nusers && !rc; u++) {
    char nb[32];
    rc = user_section(f, page, r->users[u], sc__result_user_name(nb, sizeof nb, r->users[u]),
                      (int)u);
  }
  if (!rc && r->warmup) {
    fputs("<h2>Warm-up (one user alone)</h2>\n", f);
    rc = user_section(f, page, r->warmup, "warm-up", -1);
  }
  if (rc) return rc;
  generator(f, r);
  for (size_t i = 0; i < r->nwarnings; i++) {
    fputs("<p class=\"warn\">warning: ", f);
    sc__report_put_xml(f, r->warnings[i], 1);
    fputs("</p>\n", f);
  }
  return 0;
}

SC_EXTERN int sc_report_load_html(const char *path, const sc_load_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report load html: NULL argument");
  sc__report_file rf;
  int rc = sc__report_open(&rf, path);
  if (rc) return rc;
  FILE *f = rf.f;
  sc__load_verdict v;
  sc__report_load_verdict(&v, r);
  sc__html_head(f, sc__report_app(r->scenario));
  sc__html_meta(f, r->scenario, r->url);
  fprintf(f, "<p class=\"meta\">load of %zu user%s in %zu level%s</p>\n", r->nusers,
          r->nusers == 1 ? "" : "s", r->nlevels, r->nlevels == 1 ? "" : "s");
  sc__html_verdict_open(f, v.is_void);
  sc__report_load_verdict_line(f, r);
  sc__html_verdict_close(f);
  if (r->error) {
    fputs("<p class=\"error\">error: ", f);
    sc__report_put_xml(f, r->error, 1);
    fputs("</p>\n", f);
  }
  rc = body(f, path, r);
  sc__html_foot(f);
  return sc__report_close(&rf, rc);
}
