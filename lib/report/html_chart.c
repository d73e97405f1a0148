/* The chart of the HTML report: verified_ms per step id across cycles as
 * inline SVG (no script). One colour per step id; each user's points are
 * spread a little within their cycle and joined by a line per user and
 * step; a failed step has no verified time, so it is a red cross in a lane
 * above the plot. Setup steps run once, before the cycles: they are in the
 * tables, not here. */
#include <math.h>

#include "core/core.h"
#include "report/report_int.h"

/* Geometry in SVG user units. */
#define CHART_W 960.0
#define CHART_H 380.0
#define PLOT_LEFT 64.0
#define PLOT_RIGHT (CHART_W - 190.0) /* the legend is right of it */
#define PLOT_TOP 48.0
#define PLOT_BOTTOM (CHART_H - 44.0)
#define FAIL_LANE_Y 24.0
#define Y_TICKS 5        /* about this many grid lines */
#define X_LABELS_MAX 20  /* cycle labels at most; every k-th beyond */
#define USER_SPREAD 0.6  /* of a cycle's width, over which users' points spread */
#define LEGEND_ROW 18.0

static const char *const k_palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
                                        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79"};
#define NPALETTE (sizeof k_palette / sizeof k_palette[0])
#define FAIL_COLOUR "#c62828"

typedef struct chart {
  FILE *f;
  const sc_run_result *const *runs;
  size_t nruns;
  const char **ids; /* step ids with a cycle result, series order */
  size_t nids;
  int maxc;
  double ymax, ystep;
} chart;

/* 1, 2 or 5 times a power of ten, at least v. */
static double nice_step(double v) {
  double p = pow(10, floor(log10(v)));
  return v <= p ? p : v <= 2 * p ? 2 * p : v <= 5 * p ? 5 * p : 10 * p;
}

/* Keep the ids that have a cycle (non-setup) result; the cycle and time
 * ranges. */
static void scan(chart *c) {
  size_t kept = 0;
  double maxv = 0;
  for (size_t k = 0; k < c->nids; k++) {
    int has = 0;
    for (size_t u = 0; u < c->nruns; u++)
      for (size_t i = 0; i < c->runs[u]->nresults; i++) {
        const sc_step_result *s = c->runs[u]->results[i];
        if (s->setup || !sc__report_same_id(s->step_id, c->ids[k])) continue;
        has = 1;
        if (s->cycle > c->maxc) c->maxc = s->cycle;
        if (s->passed && s->verified_ms > maxv) maxv = s->verified_ms;
      }
    if (has) c->ids[kept++] = c->ids[k];
  }
  c->nids = kept;
  c->ystep = maxv > 0 ? nice_step(maxv / Y_TICKS) : 100;
  c->ymax = maxv > 0 ? c->ystep * ceil(maxv / c->ystep) : c->ystep * Y_TICKS;
}

/* x of a user's point in a cycle: users spread about the cycle's centre. */
static double x_of(const chart *c, int cycle, size_t user) {
  double band = (PLOT_RIGHT - PLOT_LEFT) / c->maxc;
  double spread = c->nruns > 1 ? USER_SPREAD * ((user + 0.5) / (double)c->nruns - 0.5) : 0;
  return PLOT_LEFT + band * (cycle - 0.5 + spread);
}

static double centre_x(const chart *c, int cycle) {
  return PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) / c->maxc * (cycle - 0.5);
}

static double y_of(const chart *c, double ms) {
  return PLOT_BOTTOM - (PLOT_BOTTOM - PLOT_TOP) * ms / c->ymax;
}

static void axes(const chart *c) {
  FILE *f = c->f;
  for (int t = 0; t * c->ystep <= c->ymax * (1 + 1e-9); t++) {
    double v = t * c->ystep, y = y_of(c, v);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
               "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
            PLOT_LEFT, y, PLOT_RIGHT, y, t ? "#e6e6e6" : "#888", PLOT_LEFT - 6, y + 4, v);
  }
  fprintf(f, "<text x=\"14\" y=\"%.1f\" transform=\"rotate(-90 14 %.1f)\" "
             "text-anchor=\"middle\">verified ms</text>\n",
          (PLOT_TOP + PLOT_BOTTOM) / 2, (PLOT_TOP + PLOT_BOTTOM) / 2);
  int every = (c->maxc + X_LABELS_MAX - 1) / X_LABELS_MAX;
  for (int cy = 1; cy <= c->maxc; cy++)
    if (cy == 1 || cy % every == 0)
      fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>\n",
              centre_x(c, cy), PLOT_BOTTOM + 16, cy);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">cycle</text>\n",
          (PLOT_LEFT + PLOT_RIGHT) / 2, PLOT_BOTTOM + 34);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" style=\"fill:%s\">failed</text>"
             "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#f0c0c0\" "
             "stroke-dasharray=\"4 3\"/>\n",
          PLOT_LEFT - 6, FAIL_LANE_Y + 4, FAIL_COLOUR, PLOT_LEFT, FAIL_LANE_Y + 12, PLOT_RIGHT,
          FAIL_LANE_Y + 12);
}

/* "user-1, cycle 2, zoom-in: 905.8 ms", "...: FAILED: reason", or for a
 * step a fault cut off "...: ERROR: reason". */
static void point_title(const chart *c, size_t u, const sc_step_result *s) {
  char nb[32];
  fputs("<title>", c->f);
  if (c->nruns > 1) {
    sc__report_put_xml(c->f, sc__result_user_name(nb, sizeof nb, c->runs[u]), 1);
    fputs(", ", c->f);
  }
  fprintf(c->f, "cycle %d, ", s->cycle);
  sc__report_put_xml(c->f, s->step_id ? s->step_id : "?", 1);
  if (s->passed) {
    fprintf(c->f, ": %.1f ms</title>", s->verified_ms);
    return;
  }
  fputs(s->fault ? ": ERROR: " : ": FAILED: ", c->f);
  sc__report_put_xml(c->f, s->reason, 1);
  fputs("</title>", c->f);
}

/* One user's points of one step id: the line, the points, the failures. */
static void series_user(const chart *c, size_t k, size_t u) {
  FILE *f = c->f;
  const sc_run_result *r = c->runs[u];
  const char *colour = k_palette[k % NPALETTE];
  int n = 0;
  for (size_t i = 0; i < r->nresults; i++) {
    const sc_step_result *s = r->results[i];
    if (s->setup || !s->passed || s->verified_ms < 0 || !sc__report_same_id(s->step_id, c->ids[k]))
      continue;
    if (!n++)
      fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
                 "stroke-opacity=\"%s\" points=\"", colour, c->nruns > 1 ? "0.45" : "0.9");
    fprintf(f, "%s%.1f,%.1f", n > 1 ? " " : "", x_of(c, s->cycle, u), y_of(c, s->verified_ms));
  }
  if (n) fputs("\"/>\n", f);
  for (size_t i = 0; i < r->nresults; i++) {
    const sc_step_result *s = r->results[i];
    if (s->setup || !sc__report_same_id(s->step_id, c->ids[k])) continue;
    double x = x_of(c, s->cycle, u);
    if (s->passed && s->verified_ms >= 0) {
      fprintf(f, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\">", x,
              y_of(c, s->verified_ms), colour);
      point_title(c, u, s);
      fputs("</circle>\n", f);
    } else if (!s->passed) {
      double y = FAIL_LANE_Y;
      fprintf(f, "<g class=\"fail-mark\"><circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"#fff\" "
                 "stroke=\"%s\" stroke-width=\"1.5\"/><path d=\"M%.1f %.1fL%.1f %.1fM%.1f "
                 "%.1fL%.1f %.1f\" stroke=\"%s\" stroke-width=\"2.5\"/>",
              x, y, colour, x - 4, y - 4, x + 4, y + 4, x - 4, y + 4, x + 4, y - 4, FAIL_COLOUR);
      point_title(c, u, s);
      fputs("</g>\n", f);
    }
  }
}

static void legend(const chart *c) {
  double x = PLOT_RIGHT + 20, y = PLOT_TOP;
  for (size_t k = 0; k < c->nids; k++, y += LEGEND_ROW) {
    fprintf(c->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                  "<text x=\"%.1f\" y=\"%.1f\">", x, y - 10, k_palette[k % NPALETTE], x + 18, y);
    sc__report_put_xml(c->f, c->ids[k] ? c->ids[k] : "?", 1);
    fputs("</text>\n", c->f);
  }
  fprintf(c->f, "<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" "
                "stroke-width=\"2.5\"/><text x=\"%.1f\" y=\"%.1f\">failed</text>\n",
          x + 2, y - 8, x + 10, y, x + 2, y, x + 10, y - 8, FAIL_COLOUR, x + 18, y);
}

int sc__html_chart(FILE *f, const sc_run_result *const *runs, size_t nruns) {
  chart c = {.f = f, .runs = runs, .nruns = nruns};
  int rc = sc__report_ids(&c.ids, &c.nids, runs, nruns);
  if (rc) return rc;
  scan(&c);
  if (!c.nids || c.maxc < 1) {
    fputs("<p>No cycle steps to chart.</p>\n", f);
    sc__free(c.ids);
    return 0;
  }
  fprintf(f, "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
             "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" "
             "aria-label=\"verified ms per step across cycles\">\n",
          CHART_W, CHART_H, CHART_W, CHART_H);
  axes(&c);
  for (size_t k = 0; k < c.nids; k++)
    for (size_t u = 0; u < nruns; u++) series_user(&c, k, u);
  legend(&c);
  fputs("</svg>\n", f);
  fprintf(f, "<p class=\"meta\">Each point is one step's verified time in one cycle%s; a "
             "failed step has none and is a red cross in the top lane. Setup steps are in the "
             "tables only.</p>\n",
          nruns > 1 ? " of one user (users side by side within the cycle)" : "");
  sc__free(c.ids);
  return 0;
}
