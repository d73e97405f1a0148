/* A step's timeline in the HTML report: one small inline SVG per step
 * result on its own time scale (0 = first input sent, the right end = the
 * step's elapsed time): the gesture as a bar above the time axis, the
 * application's painting from first to last paint (paint log) as a bar
 * below it, ticks for first and last paint, a dot on the axis for the
 * first change, and the end: verified (green), failed at its
 * timeout (red cross), or cut off by a fault (a dark red dashed bar ending
 * in a cut). Every mark carries its number in a <title> (a tooltip, and
 * text a checker or a screen reader can read) and the end's number is
 * written beside it. No script, no external asset. */
#include <math.h>

#include "core/core.h"
#include "report/report_int.h"

#define TL_W 220.0  /* the drawing's width in px */
#define TL_H 30.0
#define TL_X0 4.0   /* where 0 ms is */
#define TL_X1 150.0 /* where the step's end is: the label of the end goes right of it */
#define TL_Y 19.0   /* the time axis */

/* A time to draw: finite and not "none" (negative). */
static int known(double v) { return isfinite(v) && v >= 0; }

static double x_of(double t, double end) {
  double x = TL_X0 + (TL_X1 - TL_X0) * (end > 0 ? t / end : 0);
  return x < TL_X0 ? TL_X0 : x > TL_X1 ? TL_X1 : x;
}

/* " 12.3 ms" for titles (sc__report_ms: "-" for none) */
static void put_ms(FILE *f, double v) {
  char buf[320];
  fprintf(f, "%s ms", sc__report_ms(buf, sizeof buf, v));
}

static void tick(FILE *f, const char *cls, double x, double y0, double y1, const char *what,
                 double v) {
  fprintf(f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"><title>%s ",
          cls, x, y0, x, y1, what);
  put_ms(f, v);
  fputs("</title></line>", f);
}

/* The end of the step: verified, failed, or cut by a fault; its number is
 * written right of the plot. */
static void end_mark(FILE *f, const sc_step_result *s, double end, double t_end) {
  char buf[320];
  double x = x_of(t_end, end);
  if (s->fault) {
    fprintf(f, "<path class=\"cut\" d=\"M%.1f %.1f l-3 4 l6 4 l-6 4 l3 4\"><title>cut off by a "
               "fault after ", x, TL_Y - 8);
    put_ms(f, t_end);
    fprintf(f, " (not judged)</title></path><text x=\"%.1f\" y=\"%.1f\">cut %s</text>",
            TL_X1 + 6, TL_Y + 4, sc__report_ms(buf, sizeof buf, t_end));
  } else if (s->passed) {
    fprintf(f, "<path class=\"ok\" d=\"M%.1f %.1f v16 M%.1f %.1f l-4 -5 h8 z\"><title>verified ",
            x, TL_Y - 8, x, TL_Y - 8);
    put_ms(f, t_end);
    fprintf(f, "</title></path><text x=\"%.1f\" y=\"%.1f\">%s ms</text>", TL_X1 + 6, TL_Y + 4,
            sc__report_ms(buf, sizeof buf, t_end));
  } else {
    fprintf(f, "<path class=\"bad\" d=\"M%.1f %.1f l8 8 m0 -8 l-8 8\"><title>failed after ",
            x - 4, TL_Y - 4);
    put_ms(f, t_end);
    fprintf(f, " (no verified time)</title></path><text x=\"%.1f\" y=\"%.1f\">FAIL %s</text>",
            TL_X1 + 6, TL_Y + 4, sc__report_ms(buf, sizeof buf, t_end));
  }
}

void sc__html_timeline(FILE *f, const sc_run_result *r, const sc_step_result *s) {
  double g = s->gesture_ms, fc = s->first_change_ms, v = s->verified_ms;
  double fp = sc__report_first_paint(s), lp = sc__report_last_paint(s);
  double t_end = sc__result_elapsed(r, s);
  if (!known(t_end)) t_end = 0;
  /* the scale: the end, or a later mark (a paint seen after a fault) */
  double end = t_end;
  const double marks[] = {g, fc, fp, lp, s->passed ? v : -1};
  for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
    if (known(marks[i]) && marks[i] > end) end = marks[i];
  const char *cls = s->fault ? "tl fault" : s->passed ? "tl pass" : "tl fail";
  fprintf(f, "<svg class=\"%s\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
             "role=\"img\"><title>", cls, TL_W, TL_H, TL_W, TL_H);
  /* the whole timeline in words, for the cell's tooltip and a reader */
  fputs("gesture ", f);
  put_ms(f, known(g) ? g : -1);
  fputs(", first paint ", f);
  put_ms(f, fp);
  fputs(", first change ", f);
  put_ms(f, known(fc) ? fc : -1);
  fputs(", last paint ", f);
  put_ms(f, lp);
  fputs(s->fault ? ", cut off by a fault after " : s->passed ? ", verified " : ", failed after ",
        f);
  put_ms(f, t_end);
  fprintf(f, "</title><line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
          TL_X0, TL_Y, TL_X1, TL_Y);
  if (s->fault) /* the time it ran, drawn as cut short */
    fprintf(f, "<line class=\"ran\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", TL_X0,
            TL_Y, x_of(t_end, end), TL_Y);
  if (known(g)) {
    fprintf(f, "<rect class=\"gesture\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"6\">"
               "<title>gesture ", TL_X0, TL_Y - 7, x_of(g, end) - TL_X0 + 1);
    put_ms(f, g);
    fputs("</title></rect>", f);
  }
  if (known(fp) && known(lp) && lp >= fp) {
    fprintf(f, "<rect class=\"paint\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"5\">"
               "<title>painting from ", x_of(fp, end), TL_Y + 1, x_of(lp, end) - x_of(fp, end) + 1);
    put_ms(f, fp);
    fputs(" to ", f);
    put_ms(f, lp);
    int n = sc__report_paints(s);
    fprintf(f, " (%d paint%s)</title></rect>", n, n == 1 ? "" : "s");
  }
  if (known(fp)) tick(f, "fp", x_of(fp, end), TL_Y - 9, TL_Y + 9, "first paint", fp);
  if (known(lp)) tick(f, "lp", x_of(lp, end), TL_Y - 9, TL_Y + 9, "last paint", lp);
  if (known(fc)) {
    fprintf(f, "<circle class=\"fc\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>first change ",
            x_of(fc, end), TL_Y);
    put_ms(f, fc);
    fputs(" (captures)</title></circle>", f);
  }
  end_mark(f, s, end, t_end);
  fputs("</svg>", f);
}

/* The key to the marks, above the verdict tables. */
void sc__html_timeline_key(FILE *f) {
  fputs("<p class=\"key\">timeline (0 = first input sent; each step on its own scale): "
        "<span class=\"k gesture\"></span> gesture, <span class=\"k fp\"></span> first paint "
        "and <span class=\"k paint\"></span> painting to the last paint (paint log), "
        "<span class=\"k fc\"></span> first change (captures), <span class=\"k ok\"></span> "
        "verified, <span class=\"k bad\"></span> failed at its timeout, "
        "<span class=\"k cut\"></span> cut off by a fault. Hover a mark for its time.</p>\n",
        f);
}
