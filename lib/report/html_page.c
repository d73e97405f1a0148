/* The frame of the HTML report shared by the run page and the load page:
 * head and style sheet (nothing fetched: no external CSS, JavaScript,
 * fonts or images), the verdict, the scenario lines and the summary table. */
#include "core/core.h"
#include "report/report_int.h"

static const char k_style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;background:#fff}\n"
    "h1{font-size:22px;margin:0 0 6px}\n"
    "h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ccc;padding-bottom:2px}\n"
    "h3{font-size:15px;margin:18px 0 6px}\n"
    ".meta{color:#555;margin:2px 0;overflow-wrap:anywhere}\n"
    ".verdict{font-size:18px;font-weight:bold;padding:8px 12px;margin:10px 0;"
    "display:inline-block;border-radius:4px}\n"
    ".verdict.pass{background:#dff3df;color:#17611a}\n"
    ".verdict.void{background:#fbe0e0;color:#a01010}\n"
    "table{border-collapse:collapse;margin:6px 0}\n"
    "th,td{border:1px solid #d4d4d4;padding:3px 8px;text-align:left;vertical-align:top}\n"
    "th{background:#f2f2f2}\n"
    "td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "td.PASS{color:#17611a;font-weight:bold}\n"
    "tr.fail td{background:#fff0f0}\n"
    "td.FAIL,tr.fail td.FAIL{color:#fff;background:#c62828;font-weight:bold}\n"
    "td.reason{max-width:520px;overflow-wrap:anywhere}\n"
    "tr.shots>td{background:#fafafa}\n"
    "div.shots{display:flex;gap:14px;align-items:flex-start}\n"
    "div.shots p.why{flex:0 0 240px;margin:0;color:#a01010;overflow-wrap:anywhere}\n"
    "figure{margin:0;flex:1 1 0;max-width:420px;min-width:120px}\n"
    "figure img{width:100%;image-rendering:pixelated;border:1px solid #888;background:#000}\n"
    "figcaption{font-size:12px;color:#555}\n"
    "svg text{font:12px system-ui,sans-serif;fill:#333}\n"
    "tr.frames>td{background:#fbfdfb}\n"
    "div.frames{display:flex;gap:8px;flex-wrap:wrap;align-items:flex-end}\n"
    "div.frames figure{flex:0 0 auto;min-width:0;max-width:none}\n"
    "img.thumb{display:block;height:56px;max-width:220px;width:auto;object-fit:contain}\n"
    "figure.missing figcaption{color:#a01010}\n"
    "p.skipped{margin:0;color:#8a5a00}\n"
    "td.tl{padding:1px 4px}\n"
    "svg.tl{display:block}\n"
    "svg.tl text{font-size:11px;font-variant-numeric:tabular-nums}\n"
    "svg.tl.fail,svg.tl.fault{background:#ffe3e3}\n"
    ".tl .axis{stroke:#bbb;stroke-width:1}\n"
    ".tl .gesture,.k.gesture{fill:#78909c;background:#78909c}\n"
    ".tl .paint,.k.paint{fill:#ffb74d;background:#ffb74d}\n"
    ".tl .fp,.tl .lp{stroke:#e65100;stroke-width:2}\n"
    ".tl .lp{stroke-dasharray:3 2}\n"
    ".k.fp{background:#e65100;width:2px}\n"
    ".tl .fc,.k.fc{fill:#7b1fa2;background:#7b1fa2;border-radius:50%}\n"
    ".k.fc{width:8px}\n"
    ".tl .ok,.k.ok{stroke:#2e7d32;fill:#2e7d32;stroke-width:2;background:#2e7d32}\n"
    ".tl .bad,.k.bad{stroke:#c62828;stroke-width:2.5;fill:none;background:#c62828}\n"
    ".tl .cut,.k.cut{stroke:#6d0000;stroke-width:2;fill:none;background:#6d0000}\n"
    ".tl .ran{stroke:#6d0000;stroke-width:3;stroke-dasharray:4 2}\n"
    ".key{font-size:12px;color:#555;margin:4px 0}\n"
    ".k{display:inline-block;width:12px;height:8px;vertical-align:middle}\n"
    ".warn{color:#8a5a00}\n"
    ".error{color:#a01010;font-weight:bold}\n";

void sc__html_head(FILE *f, const char *title) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
  sc__report_put_xml(f, title, 1);
  fprintf(f, " - stepcheck report</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", k_style);
  sc__report_put_xml(f, title, 1);
  fputs("</h1>\n", f);
}

void sc__html_foot(FILE *f) { fputs("</body>\n</html>\n", f); }

void sc__html_verdict_open(FILE *f, int is_void) {
  fprintf(f, "<p id=\"verdict\" class=\"verdict %s\">RESULT: ", is_void ? "void" : "pass");
}

void sc__html_verdict_close(FILE *f) { fputs("</p>\n", f); }

static void meta_line(FILE *f, const char *label, const char *value) {
  if (!value) return;
  fprintf(f, "<p class=\"meta\">%s: ", label);
  sc__report_put_xml(f, value, 1);
  fputs("</p>\n", f);
}

void sc__html_meta(FILE *f, const sc_scenario *sc, const char *url) {
  meta_line(f, "scenario", sc ? sc->path : NULL);
  meta_line(f, "url", url);
}

static int summary_row(FILE *f, const sc_run_result *const *runs, size_t nruns, const char *id,
                       const char *label) {
  sc__stats st;
  int rc = sc__report_stats(&st, runs, nruns, id);
  if (rc) return rc;
  sc__stat_cells c;
  sc__report_stat_cells(&c, &st);
  fputs(id ? "<tr><td>" : "<tr class=\"total\"><th>", f);
  sc__report_put_xml(f, label, 1);
  fprintf(f,
          "%s<td class=\"n\">%zu</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td>"
          "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
          "<td class=\"n\">%s</td><td class=\"n\">%s</td></tr>\n",
          id ? "</td>" : "</th>", st.count, st.pass, st.fail, c.avg, c.median, c.p95, c.max,
          c.per_min);
  return 0;
}

int sc__html_summary(FILE *f, const sc_run_result *const *runs, size_t nruns) {
  fputs("<p>Times in ms, over passed steps only: a failed step has no verified time and is "
        "not averaged in.</p>\n<table id=\"summary\">\n<tr><th>step</th><th>count</th>"
        "<th>pass</th><th>fail</th><th>avg</th><th>median</th><th>p95</th><th>max</th>"
        "<th>steps/min</th></tr>\n",
        f);
  const char **ids;
  size_t n;
  int rc = sc__report_ids(&ids, &n, runs, nruns);
  for (size_t k = 0; k < n && !rc; k++)
    rc = summary_row(f, runs, nruns, ids[k], ids[k] ? ids[k] : "?");
  sc__free(ids);
  if (!rc) rc = summary_row(f, runs, nruns, NULL, "TOTAL");
  fputs("</table>\n", f);
  return rc;
}
