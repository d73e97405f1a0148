/* How a step's rest was proven and when the application painted, read one
 * way for every writer (docs/design.md, "Reports": "Rest and paint times").
 * Paint times count only on the paint-log rule: a "pairs" result has none,
 * and one made before 0.3.0 (rest NULL, the paint fields zeroed by calloc) would
 * otherwise say the application painted at 0 ms. */
#include <string.h>

#include "core/core.h"
#include "report/report_int.h"

#define SC__REST_PAINT_LOG "paint-log"
#define SC__REST_PAIRS "pairs"

const char *sc__report_rest(const sc_step_result *s) {
  return s->rest ? s->rest : SC__REST_PAIRS;
}

int sc__report_paint_log(const sc_step_result *s) {
  return s->rest && strcmp(s->rest, SC__REST_PAINT_LOG) == 0;
}

double sc__report_first_paint(const sc_step_result *s) {
  return sc__report_paint_log(s) && s->first_paint_ms >= 0 ? s->first_paint_ms : -1;
}

double sc__report_last_paint(const sc_step_result *s) {
  return sc__report_paint_log(s) && s->last_paint_ms >= 0 ? s->last_paint_ms : -1;
}

int sc__report_paints(const sc_step_result *s) {
  return sc__report_paint_log(s) && s->paints > 0 ? s->paints : 0;
}

double sc__report_first(const sc_step_result *s, int *is_paint) {
  double p = sc__report_first_paint(s);
  if (is_paint) *is_paint = p >= 0;
  return p >= 0 ? p : s->first_change_ms >= 0 ? s->first_change_ms : -1;
}

void sc__report_put_rest(FILE *f, const sc_step_result *s) {
  sc__report_put_xml(f, sc__report_rest(s), 1);
  if (sc__report_paint_log(s)) {
    int n = sc__report_paints(s);
    fprintf(f, ", %d paint%s", n, n == 1 ? "" : "s");
  }
  if (s->rest_why) {
    fputs(" (", f);
    sc__report_put_xml(f, s->rest_why, 1);
    fputc(')', f);
  }
}
