/* Report writers against golden files (fixtures/report/run.*.golden, byte-exact;
 * regenerate with SC_UPDATE_GOLDEN=1 and review the diff), the rest rule and
 * paint times in every writer and the JTL Latency rule checked on their own
 * (so a regenerated golden cannot drop them), verdict lines, errors that
 * name the path, allocation failure. */
#include "testutil.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <jansson.h>

#include "core/core.h"
#include "stepcheck.h"
#include "stepcheck/report.h"
#include "scenario/model.h"

static const char *k_fail_reason =
    "scale x0.2500 (want x0.1250), bar \"100 m\" <unreadable> & stale";

static char *g_artifacts[] = {"/tmp/r/zoom-in-2-before.png", "/tmp/r/zoom-in-2-after.png"};

/* Why a step fell back to pairs; needs XML escaping. */
static const char *k_rest_why = "a <canvas> the paint log cannot see & \"webgl\"";

/* A hand-made run: a setup step, two cycles of two steps, one failure (whose
 * reason needs CSV and XML escaping), one drift entry. All times fixed.
 * Rest rules: load "pairs"; zoom-in of cycle 1 "paint-log", first paint
 * 23.0 (before its first change 812.3), last paint 880.5, 4 paints;
 * zoom-out of cycle 1 "pairs" with a reason; the failed zoom-in "paint-log"
 * with no paint; zoom-out of cycle 2 as old code left it (rest NULL, paint
 * fields zeroed): "pairs", no paint. */
typedef struct fixture {
  sc_scenario sc;
  sc_step setup[1], steps[2];
  sc_step_result res[5];
  sc_drift drift[1];
  sc_step_result *resp[5];
  sc_drift *driftp[1];
  sc_run_result run;
} fixture;

static fixture *make_run(void) {
  fixture *fx = calloc(1, sizeof *fx);
  fx->sc.path = "examples/josm/josm.json";
  fx->sc.app = "JOSM";
  fx->sc.url = "http://127.0.0.1:6080/vnc_lite.html?autoconnect=1,scale=local";
  fx->sc.default_timeout_ms = 5000;
  fx->setup[0].id = "load";
  fx->steps[0].id = "zoom-in";
  fx->steps[0].timeout_ms = 8000;
  fx->steps[1].id = "zoom-out"; /* timeout 0: the scenario default */
  fx->sc.setup = fx->setup;
  fx->sc.nsetup = 1;
  fx->sc.steps = fx->steps;
  fx->sc.nsteps = 2;

  sc_step_result *r = fx->res;
  r[0] = (sc_step_result){.step_id = "load", .cycle = 0, .setup = 1, .passed = 1,
                          .reason = "map visible", .started_unix_ms = 1700000000000.0,
                          .gesture_ms = 0, .first_change_ms = -1, .verified_ms = 1250.25,
                          .captures = 4, .capture_ms = 33.5, .rest = "pairs",
                          .first_paint_ms = -1, .last_paint_ms = -1};
  r[1] = (sc_step_result){.step_id = "zoom-in", .cycle = 1, .passed = 1,
                          .reason = "scale x0.1250 (want x0.1250)",
                          .started_unix_ms = 1700000002000.4, .gesture_ms = 760.0,
                          .first_change_ms = 812.3, .verified_ms = 905.75, .captures = 5,
                          .capture_ms = 33.1, .scale_factor = 0.125,
                          .scale_text = "100.0 m -> 12.5 m", .rest = "paint-log",
                          .first_paint_ms = 23.0, .last_paint_ms = 880.5, .paints = 4};
  r[2] = (sc_step_result){.step_id = "zoom-out", .cycle = 1, .passed = 1,
                          .reason = "scale x8.0000 (want x8.0000)",
                          .started_unix_ms = 1700000003500.0, .gesture_ms = 755.5,
                          .first_change_ms = 799.9, .verified_ms = 870.15, .captures = 4,
                          .capture_ms = 34.0, .scale_factor = 8.0,
                          .scale_text = "12.5 m -> 100.0 m", .rest = "pairs",
                          .rest_why = k_rest_why, .first_paint_ms = -1, .last_paint_ms = -1};
  r[3] = (sc_step_result){.step_id = "zoom-in", .cycle = 2, .passed = 0,
                          .reason = (char *)k_fail_reason,
                          .started_unix_ms = 1700000005000.0, .gesture_ms = 755.2,
                          .first_change_ms = 820.0, .verified_ms = -1, .captures = 240,
                          .capture_ms = 33.3, .idle_ms = 412.5, .scale_factor = 0.25,
                          .scale_text = "100.0 m -> 25.0 m", .nartifacts = 2,
                          .artifacts = g_artifacts, .rest = "paint-log", .first_paint_ms = -1,
                          .last_paint_ms = -1};
  r[4] = (sc_step_result){.step_id = "zoom-out", .cycle = 2, .passed = 1,
                          .reason = "scale x8.0000 (want x8.0000)",
                          .started_unix_ms = 1700000013500.0, .gesture_ms = 761.0,
                          .first_change_ms = 805.0, .verified_ms = 1020.0, .captures = 6,
                          .capture_ms = 33.0, .scale_factor = 8.0,
                          .scale_text = "12.5 m -> 100.0 m"};
  fx->drift[0] = (sc_drift){.cycle = 2, .region = "map", .pixels = 12};
  fx->run.scenario = &fx->sc;
  fx->run.url = fx->sc.url; /* driven as the scenario says */
  fx->run.cycles = 2;
  fx->run.nresults = 5;
  for (int i = 0; i < 5; i++) fx->resp[i] = &fx->res[i];
  fx->driftp[0] = &fx->drift[0];
  fx->run.results = fx->resp;
  fx->run.ndrift = 1;
  fx->run.drift = fx->driftp;
  fx->run.passed = 0;
  fx->run.steps_passed = 4;
  fx->run.steps_failed = 1;
  return fx;
}

static void check_golden(const char *name, const char *got, size_t len) {
  char rel[256];
  snprintf(rel, sizeof rel, "report/%s", name);
  sc_test_golden(rel, got, len);
}

static char *table_of(const sc_run_result *r, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  assert_non_null(f);
  assert_int_equal(sc_report_table(f, r), 0);
  fclose(f);
  return buf;
}

static void golden_table(void **st) {
  (void)st;
  fixture *fx = make_run();
  size_t len;
  char *out = table_of(&fx->run, &len);
  check_golden("run.table.golden", out, len);
  free(out);
  free(fx);
}

typedef int (*writer)(const char *, const sc_run_result *);

static void golden_file(writer w, const char *name) {
  fixture *fx = make_run();
  char *dir = sc_test_mkdtemp();
  char path[512];
  snprintf(path, sizeof path, "%s/out", dir);
  assert_int_equal(w(path, &fx->run), 0);
  size_t len;
  char *got = sc_test_slurp(path, &len);
  assert_non_null(got);
  check_golden(name, got, len);
  free(got);
  sc_test_rmtree(dir);
  free(dir);
  free(fx);
}

static void golden_json(void **st) { (void)st; golden_file(sc_report_json, "run.json.golden"); }
static void golden_junit(void **st) {
  (void)st;
  golden_file(sc_report_junit, "run.junit.golden");
}
static void golden_jtl(void **st) { (void)st; golden_file(sc_report_jtl, "run.jtl.golden"); }

static int has_line(const char *text, const char *line) {
  size_t n = strlen(line);
  for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
    if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0')) return 1;
  return 0;
}

static void verdicts(void **st) {
  (void)st;
  fixture *fx = make_run();
  size_t len;
  char *out = table_of(&fx->run, &len);
  assert_true(has_line(out, "RESULT: VOID 1 of 5 steps failed"));
  assert_null(strstr(out, "RESULT: PASS"));
  free(out);

  /* all passed */
  fx->res[3].passed = 1;
  fx->res[3].verified_ms = 990.0;
  fx->run.ndrift = 0;
  fx->run.passed = 1;
  out = table_of(&fx->run, &len);
  assert_true(has_line(out, "RESULT: PASS 5/5 steps verified"));
  assert_null(strstr(out, "VOID"));
  free(out);

  /* every step passed but the run stopped on an error: still VOID */
  fx->run.error = "chromium crashed";
  fx->run.passed = 0;
  out = table_of(&fx->run, &len);
  assert_true(has_line(out, "RESULT: VOID 0 of 5 steps failed (run stopped on an error)"));
  free(out);

  /* nothing ran: nothing was verified */
  fx->run.error = NULL;
  fx->run.nresults = 0;
  out = table_of(&fx->run, &len);
  assert_true(has_line(out, "RESULT: VOID no steps ran"));
  free(out);
  free(fx);
}

/* A run driven on another URL (--url) names that one in every report
 * that has a URL, and never the scenario's. */
#define DRIVEN_URL "file:///srv/app/index.html?mode=driven"
static void the_driven_url_is_reported(void **st) {
  (void)st;
  fixture *fx = make_run();
  fx->run.url = DRIVEN_URL;
  char *dir = sc_test_mkdtemp();
  char path[512];
  snprintf(path, sizeof path, "%s/out", dir);
  writer ws[] = {sc_report_json, sc_report_junit, sc_report_jtl};
  const char *want[] = {"\"url\": \"" DRIVEN_URL "\"",
                        "<property name=\"url\" value=\"" DRIVEN_URL "\"/>",
                        ",stepcheck 1-1,text,true,,0,0,1,1," DRIVEN_URL ","};
  for (size_t i = 0; i < 3; i++) {
    assert_int_equal(ws[i](path, &fx->run), 0);
    char *got = sc_test_slurp(path, NULL);
    assert_non_null(got);
    if (!strstr(got, want[i])) fail_msg("writer %zu lacks %s:\n%s", i, want[i], got);
    if (strstr(got, "6080")) fail_msg("writer %zu names the scenario's url:\n%s", i, got);
    free(got);
  }
  /* unknown (a page the caller opened without saying its url): null, not
   * the scenario's */
  fx->run.url = NULL;
  assert_int_equal(sc_report_json(path, &fx->run), 0);
  char *got = sc_test_slurp(path, NULL);
  assert_non_null(strstr(got, "\"url\": null"));
  assert_null(strstr(got, "6080"));
  free(got);
  sc_test_rmtree(dir);
  free(dir);
  free(fx);
}

/* Each writer's text for the fixture (the caller frees). */
static char *written(writer w, const sc_run_result *r) {
  char *dir = sc_test_mkdtemp();
  char path[512];
  snprintf(path, sizeof path, "%s/out", dir);
  assert_int_equal(w(path, r), 0);
  char *got = sc_test_slurp(path, NULL);
  assert_non_null(got);
  sc_test_rmtree(dir);
  free(dir);
  return got;
}

/* Fails unless `want` is in `got`, the text `what` wrote, showing both. */
static void has(const char *what, const char *got, const char *want) {
  if (!strstr(got, want)) fail_msg("%s lacks\n  %s\n--- %s:\n%s", what, want, what, got);
}

/* report.json: rest, rest_why, first_paint_ms, last_paint_ms and paints on
 * every step; paint times only on the paint log (a zeroed old result is
 * "pairs" with none, not a paint at 0 ms). */
static void json_has_rest_and_paints(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *got = written(sc_report_json, &fx->run);
  json_error_t err;
  json_t *j = json_loads(got, 0, &err);
  assert_non_null(j);
  json_t *res = json_object_get(j, "results");
  assert_int_equal(json_array_size(res), 5);
  static const char *const keys[] = {"rest", "rest_why", "first_paint_ms", "last_paint_ms",
                                     "paints"};
  for (size_t i = 0; i < 5; i++)
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
      if (!json_object_get(json_array_get(res, i), keys[k]))
        fail_msg("result %zu has no \"%s\"", i, keys[k]);
  json_t *pl = json_array_get(res, 1);
  assert_string_equal(json_string_value(json_object_get(pl, "rest")), "paint-log");
  assert_true(json_is_null(json_object_get(pl, "rest_why")));
  assert_near(json_real_value(json_object_get(pl, "first_paint_ms")), 23.0, 0);
  assert_near(json_real_value(json_object_get(pl, "last_paint_ms")), 880.5, 0);
  assert_int_equal(json_integer_value(json_object_get(pl, "paints")), 4);
  assert_near(json_real_value(json_object_get(pl, "first_change_ms")), 812.3, 0);
  json_t *why = json_array_get(res, 2);
  assert_string_equal(json_string_value(json_object_get(why, "rest")), "pairs");
  assert_string_equal(json_string_value(json_object_get(why, "rest_why")), k_rest_why);
  json_t *old = json_array_get(res, 4); /* rest NULL, paint fields 0 */
  assert_string_equal(json_string_value(json_object_get(old, "rest")), "pairs");
  assert_true(json_is_null(json_object_get(old, "first_paint_ms")));
  assert_true(json_is_null(json_object_get(old, "last_paint_ms")));
  assert_int_equal(json_integer_value(json_object_get(old, "paints")), 0);
  json_decref(j);
  free(got);
  free(fx);
}

/* The table's "first" column: the first paint marked p, else the first
 * change marked c ("-" for neither), the legend under the step lines. */
static void table_shows_the_first_paint(void **st) {
  (void)st;
  fixture *fx = make_run();
  size_t len;
  char *t = table_of(&fx->run, &len);
  has("table", t, "\n1     zoom-in  PASS        760.0     23.0 p       905.8 ");
  has("table", t, "\n1     zoom-out PASS        755.5    799.9 c       870.1 ");
  has("table", t, "\n2     zoom-in  FAIL        755.2    820.0 c           - ");
  has("table", t, "\n2     zoom-out PASS        761.0    805.0 c      1020.0 ");
  has("table", t, "\nsetup load     PASS          0.0        -        1250.2 ");
  assert_true(has_line(t, "first: p = first paint (the page's paint log), c = first change "
                          "(captures)"));
  free(t);
  free(fx);
}

/* JUnit: a rest line (with the paint times when known) ending the text a
 * step already has, escaped; no new element. */
static void junit_has_a_rest_line(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *x = written(sc_report_junit, &fx->run);
  has("junit", x, "<system-out>scale x0.1250 (want x0.1250)\nrest: paint-log, 4 paints, "
                  "first paint 23.0 ms, last paint 880.5 ms</system-out>");
  has("junit", x, "\nrest: pairs (a &lt;canvas&gt; the paint log cannot see &amp; "
                  "&quot;webgl&quot;)</system-out>");
  has("junit", x, "artifact: /tmp/r/zoom-in-2-after.png\nrest: paint-log, 0 paints</failure>");
  has("junit", x, "<system-out>scale x8.0000 (want x8.0000)\nrest: pairs</system-out>");
  assert_null(strstr(x, "<canvas>"));
  size_t outs = 0;
  for (const char *p = x; (p = strstr(p, "<system-out>")) != NULL; p++) outs++;
  assert_int_equal(outs, 4); /* the passed steps' own, none added */
  free(x);
  free(fx);
}

/* The JTL Latency of a row ("...,URL,Latency,IdleTime,Connect"). */
static long jtl_latency(const char *jtl, int row) {
  const char *p = jtl;
  for (int i = 0; i <= row; i++) {
    p = strchr(p, '\n');
    assert_non_null(p);
    p++;
  }
  const char *end = p + strcspn(p, "\n");
  int commas = 0;
  while (end > p && commas < 3) commas += *--end == ',';
  return strtol(end + 1, NULL, 10);
}

/* JTL Latency: the first paint when the paint log saw one, else the first
 * change, else 0; paint fields of a step not on the paint log are ignored. */
static void jtl_latency_is_the_first_paint(void **st) {
  (void)st;
  fixture *fx = make_run();
  const struct {
    const char *rest;
    double first_paint, first_change;
    long want;
  } cases[] = {
      {"paint-log", 23.0, 200.0, 23},  /* the paint, not the capture */
      {"pairs", -1, 200.0, 200},       /* pairs: the first change, as before 0.3.0 */
      {NULL, 0, 200.0, 200},           /* old code: rest NULL, zeroed paint time */
      {"pairs", 23.0, 200.0, 200},     /* a stray paint time off the paint log */
      {"paint-log", -1, 200.0, 200},   /* no paint logged: the first change */
  };
  size_t n = sizeof cases / sizeof cases[0];
  assert_true(n <= 5);
  for (size_t i = 0; i < n; i++) {
    fx->res[i].rest = cases[i].rest;
    fx->res[i].first_paint_ms = cases[i].first_paint;
    fx->res[i].first_change_ms = cases[i].first_change;
  }
  char *x = written(sc_report_jtl, &fx->run);
  for (size_t i = 0; i < n; i++)
    if (jtl_latency(x, (int)i) != cases[i].want)
      fail_msg("case %zu: Latency %ld, want %ld:\n%s", i, jtl_latency(x, (int)i), cases[i].want,
               x);
  free(x);
  /* neither a paint nor a change: 0 */
  fx->res[0].first_paint_ms = -1;
  fx->res[0].first_change_ms = -1;
  x = written(sc_report_jtl, &fx->run);
  assert_int_equal(jtl_latency(x, 0), 0);
  free(x);
  free(fx);
}

/* The first problem with s as XML 1.0 characters in UTF-8 (a C0 control
 * other than tab, LF and CR, U+FFFE, U+FFFF, a surrogate, a broken or
 * overlong sequence), or NULL: a second reading of the rule, in the test. */
static const char *xml_char_problem(const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    unsigned long u;
    int n;
    if (*p < 0x80) u = *p, n = 1;
    else if ((*p & 0xe0) == 0xc0) u = *p & 0x1f, n = 2;
    else if ((*p & 0xf0) == 0xe0) u = *p & 0x0f, n = 3;
    else if ((*p & 0xf8) == 0xf0) u = *p & 0x07, n = 4;
    else return (const char *)p;
    for (int i = 1; i < n; i++) {
      if ((p[i] & 0xc0) != 0x80) return (const char *)p;
      u = u << 6 | (p[i] & 0x3f);
    }
    static const unsigned long least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (u < least[n] || u > 0x10ffff || (u >= 0xd800 && u <= 0xdfff) || u == 0xfffe ||
        u == 0xffff || (u < 0x20 && u != '\t' && u != '\n' && u != '\r'))
      return (const char *)p;
    p += n;
  }
  return NULL;
}

/* JUnit (and the load's) is well-formed XML 1.0 whatever the names and
 * messages hold: U+FFFE and U+FFFF (which validate accepts in a step id),
 * C0 controls, surrogates, bytes that are not UTF-8 become '?'; allowed
 * characters of every length are kept. */
static void junit_is_xml_for_any_text(void **st) {
  (void)st;
  fixture *fx = make_run();
  const char *bad[] = {"id\xef\xbf\xbe", "id\xef\xbf\xbf", "id\x01\x1b", "id\xed\xa0\x80",
                       "id\xff\xc0\xaf", "id\xe2\x82", "id\xf4\x90\x80\x80"};
  char *x;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    fx->res[0].step_id = bad[i];
    fx->res[3].reason = (char *)bad[i];
    fx->sc.app = (char *)bad[i];
    x = written(sc_report_junit, &fx->run);
    const char *at = xml_char_problem(x);
    if (at) fail_msg("case %zu: not XML 1.0 at byte %td:\n%s", i, at - x, x);
    has("junit", x, "name=\"id?");
    free(x);
  }
  fx->res[0].step_id = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e \xef\xbf\xbd";
  x = written(sc_report_junit, &fx->run);
  has("junit", x, "name=\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e \xef\xbf\xbd\"");
  free(x);
  free(fx);
}

/* The JTL cell of `field` (0-based) in row `row` (0 = the header), as
 * written, quotes included. */
static char *jtl_cell(const char *jtl, int row, int field) {
  const char *p = jtl;
  for (int i = 0; i < row; i++) p = strchr(p, '\n') + 1;
  for (int k = 0;; k++) {
    const char *e = p;
    if (*e == '"')
      for (e++; *e && !(*e == '"' && e[1] != '"'); e += *e == '"' ? 2 : 1) {}
    e += *e == '"';
    e += strcspn(e, ",\n");
    if (k == field) return strndup(p, (size_t)(e - p));
    p = e + 1;
  }
}

/* JTL: a label, thread, message or URL a spreadsheet would take for a
 * formula (=, +, -, @, tab, CR first) gets a single quote before it and
 * the cell is quoted (OWASP); other cells are written as before. */
static void jtl_cells_cannot_start_a_formula(void **st) {
  (void)st;
  fixture *fx = make_run();
  const struct {
    const char *id, *cell;
  } cases[] = {
      {"=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\""},
      {"+1+1", "\"'+1+1\""},
      {"-2+3", "\"'-2+3\""},
      {"@SUM(A1)", "\"'@SUM(A1)\""},
      {"\t=1", "\"'\t=1\""},
      {"\r=1", "\"'\r=1\""},
      {"zoom-in", "zoom-in"},
      {"a=b", "a=b"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fx->res[3].step_id = cases[i].id;
    fx->res[3].reason = (char *)cases[i].id;
    fx->run.url = cases[i].id;
    char *x = written(sc_report_jtl, &fx->run);
    int fields[] = {2, 8, 13}; /* label, failureMessage, URL */
    for (int k = 0; k < 3; k++) {
      char *c = jtl_cell(x, 4, fields[k]);
      if (strcmp(c, cases[i].cell)) fail_msg("case %zu field %d: %s, want %s", i, fields[k], c, cases[i].cell);
      free(c);
    }
    free(x);
  }
  free(fx);
}

/* A step cut off by a fault (the browser killed 380 ms into zoom-in of
 * cycle 2, whose timeout was 8000 ms) is an error in every format, with the
 * time it ran: report.json elapsed_ms 380 and "fault": true; a JTL row with
 * success=false, the message and elapsed 380; a JUnit <error> (not a
 * <failure>) and errors="1"; ERROR in the text table and the HTML. */
static void a_faulted_step_is_an_error_in_every_report(void **st) {
  (void)st;
  fixture *fx = make_run();
  sc_step_result *s = &fx->res[3];
  s->fault = 1;
  s->ran_ms = 380.4;
  s->reason = "Input.dispatchMouseEvent: connection closed: browser closed its pipe";
  s->nartifacts = 0;
  fx->run.error = "Input.dispatchMouseEvent: connection closed: browser closed its pipe";
  char *x = written(sc_report_json, &fx->run);
  json_error_t je;
  json_t *j = json_loads(x, 0, &je);
  assert_non_null(j);
  json_t *r3 = json_array_get(json_object_get(j, "results"), 3);
  assert_true(json_is_true(json_object_get(r3, "fault")));
  assert_true(json_real_value(json_object_get(r3, "elapsed_ms")) == 380.4);
  assert_true(json_is_false(json_object_get(json_array_get(json_object_get(j, "results"), 2), "fault")));
  json_decref(j);
  free(x);
  x = written(sc_report_jtl, &fx->run);
  has("jtl", x, "\n1700000005000,380,zoom-in,500,infrastructure error,stepcheck 1-1,text,false,"
                "Input.dispatchMouseEvent: connection closed: browser closed its pipe,");
  assert_null(strstr(x, "(run error)")); /* the step carries the run's error */
  free(x);
  x = written(sc_report_junit, &fx->run);
  has("junit", x, "failures=\"0\" errors=\"1\"");
  has("junit", x, "<testcase classname=\"cycle 2\" name=\"zoom-in\" time=\"0.380\">\n"
                  "    <error message=\"Input.dispatchMouseEvent: connection closed: browser closed "
                  "its pipe\" type=\"infrastructure\">");
  assert_null(strstr(x, "<failure"));
  free(x);
  size_t tl;
  x = table_of(&fx->run, &tl);
  has("table", x, "zoom-in  ERROR");
  free(x);
  x = written(sc_report_html, &fx->run);
  has("html", x, ">ERROR<");
  has("html", x, "cycle 2, zoom-in: ERROR: Input.dispatchMouseEvent: connection closed");
  free(x);
  free(fx);
}

/* A run error that no step result carries (the renderer crashed between
 * steps): a JTL row that says so, and the <error> that errors="1" counts. */
static void a_run_error_between_steps_has_its_row(void **st) {
  (void)st;
  fixture *fx = make_run();
  fx->res[3].passed = 1;
  fx->res[3].verified_ms = 900;
  fx->run.error = "page crashed (its renderer is gone): target crashed";
  fx->run.ended_unix_ms = 1700000020000.0;
  char *x = written(sc_report_jtl, &fx->run);
  has("jtl", x, "\n1700000020000,0,(run error),500,infrastructure error,stepcheck 1-1,text,false,"
                "page crashed (its renderer is gone): target crashed,");
  free(x);
  x = written(sc_report_junit, &fx->run);
  has("junit", x, "tests=\"6\" failures=\"0\" errors=\"1\"");
  has("junit", x, "<testcase classname=\"run\" name=\"(run error)\" time=\"0.000\">\n"
                  "    <error message=\"page crashed (its renderer is gone): target crashed\" "
                  "type=\"infrastructure\">page crashed (its renderer is gone): target crashed</error>");
  free(x);
  free(fx);
}

static void errors_name_the_path(void **st) {
  (void)st;
  fixture *fx = make_run();
  const char *bad = "/nonexistent-dir-sc/report.out";
  writer ws[] = {sc_report_json, sc_report_junit, sc_report_jtl};
  for (size_t i = 0; i < 3; i++) {
    assert_int_equal(ws[i](bad, &fx->run), SC_EIO);
    assert_non_null(strstr(sc_errmsg(), "/nonexistent-dir-sc/report.out"));
    assert_int_equal(ws[i](NULL, &fx->run), SC_EINVAL);
  }
  assert_int_equal(sc_report_table(NULL, &fx->run), SC_EINVAL);
  free(fx);
}

/* A write that fails for want of room (the file-size limit, RLIMIT_FSIZE,
 * standing in for a full disk: with SIGXFSZ ignored write() fails EFBIG as
 * it would ENOSPC; a link to /dev/full at PATH.tmp no longer does, since the
 * writers never write through a link there): an error that names the
 * report file and the reason, and nothing left behind. */
static void a_full_disk_names_the_report(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *dir = sc_test_mkdtemp();
  char path[512], tmp[600];
  snprintf(path, sizeof path, "%s/report.out", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  writer ws[] = {sc_report_json, sc_report_junit, sc_report_jtl};
  struct rlimit was, lim;
  assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
  void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
  for (size_t i = 0; i < 3; i++) {
    lim = was;
    lim.rlim_cur = 16;
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = ws[i](path, &fx->run);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
    assert_int_equal(rc, SC_EIO);
    const char *m = sc_errmsg();
    if (strncmp(m, path, strlen(path)) != 0 || !strstr(m, ": not written: ") ||
        !strstr(m, strerror(EFBIG)) || strchr(m, '\n'))
      fail_msg("writer %zu: %s", i, m);
    struct stat sb;
    assert_int_equal(lstat(path, &sb), -1);
    assert_int_equal(lstat(tmp, &sb), -1); /* the temporary file is removed */
  }
  signal(SIGXFSZ, prev);
  sc_test_rmtree(dir);
  free(dir);
  free(fx);
}

/* A link planted at PATH.tmp (issue 25): the report is written, and the
 * file the link pointed to keeps its bytes. */
static void a_link_at_the_temporary_path_is_not_written_through(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *dir = sc_test_mkdtemp();
  char path[512], tmp[600], victim[600], buf[16] = "";
  snprintf(path, sizeof path, "%s/report.out", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  snprintf(victim, sizeof victim, "%s/victim", dir);
  FILE *f = fopen(victim, "w");
  assert_non_null(f);
  fputs("keep", f);
  fclose(f);
  writer ws[] = {sc_report_json, sc_report_junit, sc_report_jtl, sc_report_html};
  for (size_t i = 0; i < 4; i++) {
    assert_int_equal(symlink(victim, tmp), 0);
    assert_int_equal(ws[i](path, &fx->run), 0);
    f = fopen(victim, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    if (strcmp(buf, "keep") != 0) fail_msg("writer %zu wrote through the link: \"%s\"", i, buf);
    struct stat sb;
    assert_int_equal(lstat(path, &sb), 0);
    assert_true(S_ISREG(sb.st_mode));
    assert_int_equal(lstat(tmp, &sb), -1);
    assert_int_equal(unlink(path), 0);
  }
  sc_test_rmtree(dir);
  free(dir);
  free(fx);
}

/* A report path naming a device, a FIFO or a directory (or a link to one)
 * is refused before anything is written: the rename would have replaced a
 * device with a regular file (issue 25). The device is a node in the test's
 * folder (mknod as root) and a link to /dev/null; /dev/null stays a device. */
static void a_device_is_never_replaced(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *dir = sc_test_mkdtemp();
  char node[512], link[512], fifo[512], sub[512], tmp[600];
  snprintf(node, sizeof node, "%s/null-node", dir);
  snprintf(link, sizeof link, "%s/null-link", dir);
  snprintf(fifo, sizeof fifo, "%s/fifo", dir);
  snprintf(sub, sizeof sub, "%s/folder", dir);
  int have_node = geteuid() == 0 && mknod(node, S_IFCHR | 0666, makedev(1, 3)) == 0;
  assert_int_equal(symlink("/dev/null", link), 0);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(mkdir(sub, 0700), 0);
  alarm(10); /* a writer blocked on the FIFO fails here */
  writer ws[] = {sc_report_json, sc_report_junit, sc_report_jtl, sc_report_html};
  const char *paths[] = {node, link, fifo, sub};
  for (size_t i = 0; i < 4; i++) {
    for (size_t k = have_node ? 0 : 1; k < 4; k++) {
      assert_int_equal(ws[i](paths[k], &fx->run), SC_EINVAL);
      const char *m = sc_errmsg();
      if (strncmp(m, paths[k], strlen(paths[k])) != 0 || !strstr(m, ": not written: ") ||
          !strstr(m, "not replaced") || strchr(m, '\n'))
        fail_msg("writer %zu on %s: %s", i, paths[k], m);
      snprintf(tmp, sizeof tmp, "%s.tmp", paths[k]);
      struct stat sb;
      assert_int_equal(lstat(tmp, &sb), -1);
    }
  }
  alarm(0);
  struct stat sb;
  if (have_node) assert_true(lstat(node, &sb) == 0 && S_ISCHR(sb.st_mode));
  assert_true(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode));
  assert_true(lstat(fifo, &sb) == 0 && S_ISFIFO(sb.st_mode));
  assert_true(lstat(sub, &sb) == 0 && S_ISDIR(sb.st_mode));
  assert_true(lstat("/dev/null", &sb) == 0 && S_ISCHR(sb.st_mode));
  sc_test_rmtree(dir);
  free(dir);
  free(fx);
}

typedef struct write_call {
  writer w;
  const char *path;
  const sc_run_result *r;
} write_call;

static int call_writer(void *ud) {
  write_call *c = ud;
  return c->w(c->path, c->r);
}

/* Every allocation failing in turn: an error or the full file, no leak. */
static void alloc_failure(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *dir = sc_test_mkdtemp();
  char path[512];
  snprintf(path, sizeof path, "%s/out", dir);
  writer ws[] = {sc_report_json, sc_report_junit, sc_report_jtl};
  for (size_t i = 0; i < 3; i++) {
    write_call c = {ws[i], path, &fx->run};
    sc_test_oom_sweep(call_writer, &c, 5000);
  }
  sc_set_allocator(NULL, NULL, NULL);
  sc_test_rmtree(dir);
  free(dir);
  free(fx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(golden_table),
      cmocka_unit_test(golden_json),
      cmocka_unit_test(golden_junit),
      cmocka_unit_test(golden_jtl),
      cmocka_unit_test(json_has_rest_and_paints),
      cmocka_unit_test(table_shows_the_first_paint),
      cmocka_unit_test(junit_has_a_rest_line),
      cmocka_unit_test(jtl_latency_is_the_first_paint),
      cmocka_unit_test(junit_is_xml_for_any_text),
      cmocka_unit_test(jtl_cells_cannot_start_a_formula),
      cmocka_unit_test(a_faulted_step_is_an_error_in_every_report),
      cmocka_unit_test(a_run_error_between_steps_has_its_row),
      cmocka_unit_test(verdicts),
      cmocka_unit_test(the_driven_url_is_reported),
      cmocka_unit_test(errors_name_the_path),
      cmocka_unit_test(a_full_disk_names_the_report),
      cmocka_unit_test(a_link_at_the_temporary_path_is_not_written_through),
      cmocka_unit_test(a_device_is_never_replaced),
      cmocka_unit_test(alloc_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
