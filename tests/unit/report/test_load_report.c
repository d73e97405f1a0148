/* Load report writers against golden files (fixtures/report/load.*.golden,
 * byte-exact; regenerate with SC_UPDATE_GOLDEN=1 and review the diff), the
 * per-user grouping and thread counts checked on their own, verdict lines,
 * errors, allocation failure.
 *
 * The hand-made load (times since the load start T0, in ms):
 *  warm-up: load 1100, zoom-in 240 at -9000, zoom-out 300 at -6000 (a 3300
 *    ms cycle): bars load 3300, zoom-in 750 (floor), zoom-out 900.
 *  user-1: 0..38000, load, 4 cycles (zoom-in at 2000/12000/22000/33000,
 *    zoom-out at 5000/15000/25000/36500), slowest zoom-in 610; its zoom-ins
 *    rest on the paint log (first paint 95.5, 2 paints), every other step
 *    is as old code left it (rest NULL: "pairs").
 *  user-2: 1000..39000, load, 3 cycles; zoom-out of cycle 3 (26000) fails
 *    after its 5000 ms timeout, at 31000.
 *  user-3: 20000..36000, load, 1 cycle with zoom-in 2210 ms (over the bar,
 *    ends 24710), then an error.
 *  levels: [0,20000) 2 users, 10 passed, healthy; [20000,40000) 3 users,
 *    8 passed, 1 failed, degraded by user-3's zoom-in. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/core.h"
#include "run/quality.h"
#include "stepcheck.h"
#include "stepcheck/report.h"
#include "scenario/model.h"

#define T0 1700000000000.0
#define MAXR 16

static const char *k_fail_reason = "bar \"100 m\" <unreadable>, stale";
static char *g_artifacts[] = {"/tmp/r/user-2-zoom-out-3-after.png"};

typedef struct user_fx {
  sc_step_result res[MAXR];
  sc_step_result *resp[MAXR];
  sc_run_result run;
} user_fx;

typedef struct fixture {
  sc_scenario sc;
  sc_step setup[1], steps[2];
  user_fx warm, u[3];
  sc_run_result *users[3];
  sc_level lv[2];
  sc_level *lvp[2];
  sc_gen_sample smp[4];
  sc_gen_sample *smpp[4];
  char *warnings[1];
  sc_load_result load;
} fixture;

/* A result at start (ms since T0); verified < 0: failed. */
static sc_step_result *add(user_fx *u, const char *id, int cycle, double start,
                           double verified) {
  assert_true(u->run.nresults < MAXR);
  sc_step_result *s = &u->res[u->run.nresults];
  int passed = verified >= 0;
  *s = (sc_step_result){.step_id = id, .cycle = cycle, .setup = cycle == 0, .passed = passed,
                        .reason = passed ? "ok" : (char *)k_fail_reason,
                        .started_unix_ms = T0 + start, .gesture_ms = cycle ? 120.5 : 0,
                        .first_change_ms = cycle ? 180.25 : -1, .verified_ms = verified,
                        .captures = 3, .capture_ms = 30.5};
  u->resp[u->run.nresults++] = s;
  u->run.steps_passed += passed;
  u->run.steps_failed += !passed;
  return s;
}

static void user_init(fixture *fx, user_fx *u, int index, const char *name, double start,
                      double end) {
  u->run.scenario = &fx->sc;
  u->run.url = fx->sc.url;
  u->run.results = u->resp;
  u->run.user = index;
  u->run.user_name = name;
  u->run.started_unix_ms = T0 + start;
  u->run.ended_unix_ms = T0 + end;
  u->run.passed = 1;
}

static fixture *make_load(void) {
  fixture *fx = calloc(1, sizeof *fx);
  fx->sc.path = "examples/josm/josm.json";
  fx->sc.app = "JOSM";
  fx->sc.url = "http://127.0.0.1:6080/vnc_lite.html?autoconnect=1,scale=local";
  fx->sc.default_timeout_ms = 5000;
  fx->setup[0].id = "load";
  fx->steps[0].id = "zoom-in";
  fx->steps[0].timeout_ms = 8000;
  fx->steps[1].id = "zoom-out";
  fx->sc.setup = fx->setup;
  fx->sc.nsetup = 1;
  fx->sc.steps = fx->steps;
  fx->sc.nsteps = 2;

  user_fx *w = &fx->warm;
  user_init(fx, w, 0, "warm-up", -11000, -2000);
  w->run.cycles = 1;
  add(w, "load", 0, -10500, 1100);
  add(w, "zoom-in", 1, -9000, 240);
  add(w, "zoom-out", 1, -6000, 300);

  user_fx *u = &fx->u[0];
  user_init(fx, u, 0, "user-1", 0, 38000);
  u->run.cycles = 4;
  add(u, "load", 0, 100, 1000);
  const double zi1[] = {250, 260, 610, 300}, zo1[] = {320, 330, 340, 330};
  const double at_zi1[] = {2000, 12000, 22000, 33000}, at_zo1[] = {5000, 15000, 25000, 36500};
  for (int c = 0; c < 4; c++) {
    /* user-1's zoom-ins rest on the paint log: JTL Latency is the first paint */
    sc_step_result *s = add(u, "zoom-in", c + 1, at_zi1[c], zi1[c]);
    s->rest = "paint-log";
    s->first_paint_ms = 95.5;
    s->last_paint_ms = zi1[c] - 30;
    s->paints = 2;
    add(u, "zoom-out", c + 1, at_zo1[c], zo1[c]);
  }

  u = &fx->u[1];
  user_init(fx, u, 1, "user-2", 1000, 39000);
  u->run.cycles = 3;
  u->run.passed = 0;
  add(u, "load", 0, 1100, 1100);
  const double zi2[] = {270, 280, 290}, zo2[] = {310, 350, -1};
  for (int c = 0; c < 3; c++) {
    add(u, "zoom-in", c + 1, 3000 + 10000.0 * c, zi2[c]);
    sc_step_result *s = add(u, "zoom-out", c + 1, 6000 + 10000.0 * c, zo2[c]);
    if (!s->passed) {
      s->nartifacts = 1;
      s->artifacts = g_artifacts;
    }
  }

  u = &fx->u[2];
  user_init(fx, u, 2, "user-3", 20000, 36000);
  u->run.cycles = 1;
  u->run.passed = 0;
  u->run.error = "tab crashed";
  add(u, "load", 0, 20100, 1500);
  add(u, "zoom-in", 1, 22500, 2210);
  add(u, "zoom-out", 1, 26000, 380);

  fx->lv[0] = (sc_level){.index = 0, .users = 2, .start_ms = 0, .end_ms = 20000,
                         .steps_passed = 10, .healthy = 1};
  fx->lv[1] = (sc_level){.index = 1, .users = 3, .start_ms = 20000, .end_ms = 40000,
                         .steps_passed = 8, .steps_failed = 1, .healthy = 0,
                         .reason = "user-3: zoom-in 2210 ms > bar 750 ms (3 x warm-up 240 ms, "
                                   "floor 750)"};
  const sc_gen_sample smp[] = {{5000, 60.0, 8.5, 702.4, 52.0, 2},
                               {15000, 75.5, 9.0, 715.0, 53.5, 2},
                               {25000, 171.0, 12.5, 905.8, 61.2, 3},
                               {35000, 120.0, 10.0, 910.3, 60.0, 3}};
  for (int i = 0; i < 4; i++) {
    fx->smp[i] = smp[i];
    fx->smpp[i] = &fx->smp[i];
  }
  for (int i = 0; i < 3; i++) fx->users[i] = &fx->u[i].run;
  for (int i = 0; i < 2; i++) fx->lvp[i] = &fx->lv[i];
  fx->warnings[0] = "generator CPU 171% > 160% (80% of 2 cores) at 25 s: counts past here "
                    "measure the generator";

  sc_load_result *r = &fx->load;
  r->scenario = &fx->sc;
  r->url = fx->sc.url;
  r->warmup = &w->run;
  r->nusers = 3;
  r->users = fx->users;
  r->nlevels = 2;
  r->levels = fx->lvp;
  r->last_healthy_users = 2;
  r->nsamples = 4;
  r->samples = fx->smpp;
  r->cores = 2;
  r->cpu_warn_pct = 160;
  r->passed = 0;
  r->steps_passed = 18;
  r->steps_failed = 1;
  r->nwarnings = 1;
  r->warnings = fx->warnings;
  r->started_unix_ms = T0 - 11000;
  r->ended_unix_ms = T0 + 40000;
  return fx;
}

static char *table_of(const sc_load_result *r, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  assert_non_null(f);
  assert_int_equal(sc_report_load_table(f, r), 0);
  fclose(f);
  return buf;
}

typedef int (*writer)(const char *, const sc_load_result *);

/* The file a writer makes of the fixture (free()). */
static char *file_of(writer w, const sc_load_result *r, size_t *len) {
  char *dir = sc_test_mkdtemp();
  char path[512];
  snprintf(path, sizeof path, "%s/out", dir);
  assert_int_equal(w(path, r), 0);
  char *got = sc_test_slurp(path, len);
  assert_non_null(got);
  sc_test_rmtree(dir);
  free(dir);
  return got;
}

static void golden(writer w, const char *name) {
  fixture *fx = make_load();
  size_t len;
  char *got = file_of(w, &fx->load, &len);
  sc_test_golden(name, got, len);
  free(got);
  free(fx);
}

static void golden_table(void **st) {
  (void)st;
  fixture *fx = make_load();
  size_t len;
  char *out = table_of(&fx->load, &len);
  sc_test_golden("report/load.table.golden", out, len);
  free(out);
  free(fx);
}

static void golden_json(void **st) {
  (void)st;
  golden(sc_report_load_json, "report/load.json.golden");
}
static void golden_junit(void **st) {
  (void)st;
  golden(sc_report_load_junit, "report/load.junit.golden");
}
static void golden_jtl(void **st) {
  (void)st;
  golden(sc_report_load_jtl, "report/load.jtl.golden");
}

/* The fixture's levels are what the quality bar makes of its users. */
static void fixture_matches_quality_bar(void **st) {
  (void)st;
  fixture *fx = make_load();
  sc_level lv[2] = {{.index = 0, .users = 2, .start_ms = 0, .end_ms = 20000},
                    {.index = 1, .users = 3, .start_ms = 20000, .end_ms = 40000}};
  sc_level *lvp[] = {&lv[0], &lv[1]};
  int last = -1;
  assert_int_equal(
      sc__quality_judge(&last, lvp, 2, T0, fx->load.warmup, fx->load.users, fx->load.nusers), 0);
  assert_int_equal(last, fx->load.last_healthy_users);
  for (int i = 0; i < 2; i++) {
    assert_int_equal(lv[i].steps_passed, fx->lv[i].steps_passed);
    assert_int_equal(lv[i].steps_failed, fx->lv[i].steps_failed);
    assert_int_equal(lv[i].healthy, fx->lv[i].healthy);
    if (fx->lv[i].reason) assert_string_equal(lv[i].reason, fx->lv[i].reason);
    sc__free(lv[i].reason);
  }
  free(fx);
}

static size_t count(const char *text, const char *what) {
  size_t n = 0;
  for (const char *p = text; (p = strstr(p, what)) != NULL; p++) n++;
  return n;
}

/* One suite per user, named for it, holding that user's results only;
 * user-3's error (its tab crashed between steps: no step result carries
 * it) is an <error> of its own, so every error counted is shown. */
static void junit_suite_per_user(void **st) {
  (void)st;
  fixture *fx = make_load();
  size_t len;
  char *x = file_of(sc_report_load_junit, &fx->load, &len);
  assert_int_equal(count(x, "<testsuites "), 1);
  assert_int_equal(count(x, "<testsuite "), 3);
  assert_int_equal(count(x, "<testcase "), 20);
  assert_int_equal(count(x, "<error "), 1);
  assert_non_null(strstr(x, "<testsuites name=\"JOSM\" tests=\"20\" failures=\"1\" errors=\"1\""));
  assert_non_null(strstr(x, "<testsuite name=\"user-1\" tests=\"9\" failures=\"0\" errors=\"0\""));
  assert_non_null(strstr(x, "<testsuite name=\"user-2\" tests=\"7\" failures=\"1\" errors=\"0\""));
  assert_non_null(strstr(x, "<testsuite name=\"user-3\" tests=\"4\" failures=\"0\" errors=\"1\""));
  assert_non_null(strstr(x, "<testcase classname=\"run\" name=\"(run error)\" time=\"0.000\">\n"
                            "      <error message=\"tab crashed\" type=\"infrastructure\">tab crashed</error>"));
  /* user-3's suite holds its slow zoom-in and its error, not another's */
  const char *u3 = strstr(x, "name=\"user-3\"");
  assert_non_null(strstr(u3, "time=\"2.210\""));
  assert_non_null(strstr(u3, "<system-err>tab crashed</system-err>"));
  assert_null(strstr(u3, "<failure"));
  free(x);
  free(fx);
}

/* The JTL row starting at T0 + at: its fields (static; NULL when none). */
static char *jtl_row(const char *jtl, double at) {
  static char line[1024];
  char key[32];
  snprintf(key, sizeof key, "\n%.0f,", T0 + at);
  const char *p = strstr(jtl, key);
  if (!p) return NULL;
  p++;
  size_t n = strcspn(p, "\n");
  snprintf(line, sizeof line, "%.*s", (int)n, p);
  return line;
}

/* thread name, allThreads and Latency of a row: the 6th, 13th and 15th
 * fields (the url is quoted). */
static void check_row(const char *jtl, double at, const char *thread, int threads,
                      int latency) {
  char *row = jtl_row(jtl, at);
  if (!row) fail_msg("no JTL row at %.0f", at);
  char *fields[17];
  int n = 0;
  for (char *p = row; n < 17;) {
    fields[n++] = p;
    if (*p == '"') { /* quoted: skip to the closing quote */
      p = strchr(p + 1, '"');
      while (p && p[1] == '"') p = strchr(p + 2, '"');
      assert_non_null(p);
      p++;
    } else {
      p += strcspn(p, ",");
    }
    if (!*p) break;
    *p++ = '\0';
  }
  assert_int_equal(n, 17);
  assert_string_equal(fields[5], thread);
  assert_int_equal(atoi(fields[11]), threads); /* grpThreads */
  assert_int_equal(atoi(fields[12]), threads); /* allThreads */
  assert_int_equal(atoi(fields[14]), latency);  /* Latency */
}

/* Rows of every user in time order; threads = users running then; Latency
 * the first paint of a paint-log step (user-1's zoom-ins: 95.5), else the
 * first change (180.25), else 0 (setup steps). */
static void jtl_threads(void **st) {
  (void)st;
  fixture *fx = make_load();
  size_t len;
  char *x = file_of(sc_report_load_jtl, &fx->load, &len);
  assert_int_equal(count(x, "\n"), 21); /* header + 19 rows + user-3's error */
  assert_non_null(strstr(x, ",(run error),500,infrastructure error,stepcheck 1-3,text,false,tab crashed,"));
  double prev = 0;
  for (const char *p = strchr(x, '\n') + 1; *p; p = strchr(p, '\n') + 1) {
    double t = strtod(p, NULL);
    assert_true(t >= prev);
    prev = t;
  }
  check_row(x, 100, "stepcheck 1-1", 1, 0);     /* user-2 starts at 1000 */
  check_row(x, 1100, "stepcheck 1-2", 2, 0);
  check_row(x, 16000, "stepcheck 1-2", 2, 180);
  check_row(x, 20100, "stepcheck 1-3", 3, 0);   /* user-3 starts at 20000 */
  check_row(x, 33000, "stepcheck 1-1", 3, 96);  /* a zoom-in: the first paint */
  check_row(x, 36500, "stepcheck 1-1", 2, 180); /* user-3 ended at 36000 */
  /* a tie at 26000: user-2's row first */
  const char *a = strstr(x, "\n1700000026000,5000,zoom-out,500");
  const char *b = strstr(x, "\n1700000026000,380,zoom-out,200");
  assert_non_null(a);
  assert_non_null(b);
  assert_true(a < b);
  /* without an end a user runs to the end of the run */
  fx->u[2].run.ended_unix_ms = 0;
  free(x);
  x = file_of(sc_report_load_jtl, &fx->load, &len);
  check_row(x, 36500, "stepcheck 1-1", 3, 180);
  free(x);
  free(fx);
}

/* Each user is the single-run object plus who and when; the aggregate is
 * over every user. */
static void json_users(void **st) {
  (void)st;
  fixture *fx = make_load();
  size_t len;
  char *x = file_of(sc_report_load_json, &fx->load, &len);
  json_error_t err;
  json_t *j = json_loads(x, 0, &err);
  assert_non_null(j);
  assert_string_equal(json_string_value(json_object_get(j, "result")), "VOID");
  assert_int_equal(json_integer_value(json_object_get(j, "last_healthy_users")), 2);
  json_t *users = json_object_get(j, "users");
  assert_int_equal(json_array_size(users), 3);
  json_t *u2 = json_array_get(users, 1);
  assert_int_equal(json_integer_value(json_object_get(u2, "user")), 1);
  assert_string_equal(json_string_value(json_object_get(u2, "user_name")), "user-2");
  assert_int_equal(json_integer_value(json_object_get(u2, "steps_failed")), 1);
  assert_int_equal(json_array_size(json_object_get(u2, "results")), 7);
  /* each user's steps carry how their rest was proven and the paint times */
  json_t *u1r = json_object_get(json_array_get(users, 0), "results");
  json_t *zin = json_array_get(u1r, 1), *zout = json_array_get(u1r, 2);
  assert_string_equal(json_string_value(json_object_get(zin, "rest")), "paint-log");
  assert_near(json_real_value(json_object_get(zin, "first_paint_ms")), 95.5, 0);
  assert_near(json_real_value(json_object_get(zin, "last_paint_ms")), 220, 0);
  assert_int_equal(json_integer_value(json_object_get(zin, "paints")), 2);
  assert_string_equal(json_string_value(json_object_get(zout, "rest")), "pairs");
  assert_true(json_is_null(json_object_get(zout, "first_paint_ms")));
  json_t *zi = json_array_get(json_object_get(j, "by_step"), 1);
  assert_string_equal(json_string_value(json_object_get(zi, "step_id")), "zoom-in");
  assert_int_equal(json_integer_value(json_object_get(zi, "count")), 8);
  assert_near(json_real_value(json_object_get(zi, "max_ms")), 2210, 0);
  json_t *tot = json_object_get(j, "totals");
  assert_int_equal(json_integer_value(json_object_get(tot, "count")), 19);
  assert_int_equal(json_integer_value(json_object_get(tot, "failed")), 1);
  assert_false(json_is_true(json_object_get(json_array_get(json_object_get(j, "levels"), 1),
                                            "healthy")));
  assert_string_equal(
      json_string_value(json_object_get(json_object_get(j, "warmup"), "user_name")), "warm-up");
  json_decref(j);
  free(x);
  free(fx);
}

static int has_line(const char *text, const char *line) {
  size_t n = strlen(line);
  for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
    if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0')) return 1;
  return 0;
}

static void table_verdicts(void **st) {
  (void)st;
  fixture *fx = make_load();
  size_t len;
  char *out = table_of(&fx->load, &len);
  assert_true(has_line(out, "RESULT: VOID 1 of 19 steps failed over 3 users; "
                            "last healthy level: 2 users"));
  free(out);

  /* the failure passes: still VOID, user-3 stopped on an error */
  sc_step_result *s = fx->u[1].resp[6];
  s->passed = 1;
  s->verified_ms = 400;
  fx->u[1].run.passed = 1;
  out = table_of(&fx->load, &len);
  assert_true(has_line(out, "RESULT: VOID 0 of 19 steps failed over 3 users (a user stopped on "
                            "an error); last healthy level: 2 users"));
  free(out);

  /* no error either: PASS */
  fx->u[2].run.error = NULL;
  fx->u[2].run.passed = 1;
  fx->load.passed = 1;
  out = table_of(&fx->load, &len);
  assert_true(has_line(out, "RESULT: PASS 19/19 steps verified by 3 users; "
                            "last healthy level: 2 users"));
  assert_null(strstr(out, "VOID"));
  free(out);

  /* a warm-up that did not pass voids the run */
  fx->warm.resp[1]->passed = 0;
  out = table_of(&fx->load, &len);
  assert_true(has_line(out, "RESULT: VOID 0 of 19 steps failed over 3 users (the warm-up did "
                            "not pass); last healthy level: 2 users"));
  free(out);

  /* level 0 degraded; no users at all */
  fx->load.last_healthy_users = 0;
  fx->load.nusers = 0;
  out = table_of(&fx->load, &len);
  assert_true(has_line(out, "RESULT: VOID no steps ran; last healthy level: none"));
  free(out);
  free(fx);
}

/* A load driven on another URL (--url) names that one for the load and
 * for every user, in every report that has a URL, never the scenario's. */
#define DRIVEN_URL "file:///srv/app/index.html?mode=driven"
static void the_driven_url_is_reported(void **st) {
  (void)st;
  fixture *fx = make_load();
  fx->load.url = DRIVEN_URL;
  fx->warm.run.url = DRIVEN_URL;
  for (int i = 0; i < 3; i++) fx->u[i].run.url = DRIVEN_URL;
  writer ws[] = {sc_report_load_json, sc_report_load_junit, sc_report_load_jtl};
  const char *want[] = {"\"url\": \"" DRIVEN_URL "\"",
                        "<property name=\"url\" value=\"" DRIVEN_URL "\"/>",
                        ",0,0,2,2," DRIVEN_URL ","};
  const int times[] = {5, 3, 20}; /* load + warm-up + 3 users; 3 suites; every row */
  for (size_t i = 0; i < 3; i++) {
    size_t len;
    char *got = file_of(ws[i], &fx->load, &len);
    int n = 0;
    for (const char *p = got; (p = strstr(p, DRIVEN_URL)) != NULL; p++) n++;
    if (!strstr(got, want[i]) || n != times[i])
      fail_msg("writer %zu: %d times %s, want %d:\n%s", i, n, want[i], times[i], got);
    if (strstr(got, "6080")) fail_msg("writer %zu names the scenario's url:\n%s", i, got);
    free(got);
  }
  free(fx);
}

static void errors_name_the_path(void **st) {
  (void)st;
  fixture *fx = make_load();
  const char *bad = "/nonexistent-dir-sc/load.out";
  writer ws[] = {sc_report_load_json, sc_report_load_junit, sc_report_load_jtl};
  for (size_t i = 0; i < 3; i++) {
    assert_int_equal(ws[i](bad, &fx->load), SC_EIO);
    assert_non_null(strstr(sc_errmsg(), bad));
    assert_int_equal(ws[i](NULL, &fx->load), SC_EINVAL);
    assert_int_equal(ws[i]("/tmp/x", NULL), SC_EINVAL);
  }
  assert_int_equal(sc_report_load_table(NULL, &fx->load), SC_EINVAL);
  assert_int_equal(sc_report_load_table(stdout, NULL), SC_EINVAL);
  free(fx);
}

static int table_to_null(const char *path, const sc_load_result *r) {
  (void)path;
  FILE *f = fopen("/dev/null", "w");
  int rc = sc_report_load_table(f, r);
  fclose(f);
  return rc;
}

typedef struct write_call {
  writer w;
  const char *path;
  const sc_load_result *r;
} write_call;

static int call_writer(void *ud) {
  write_call *c = ud;
  return c->w(c->path, c->r);
}

/* Every allocation failing in turn: an error or the full report, no leak. */
static void alloc_failure(void **st) {
  (void)st;
  fixture *fx = make_load();
  char *dir = sc_test_mkdtemp();
  char path[512];
  snprintf(path, sizeof path, "%s/out", dir);
  writer ws[] = {sc_report_load_json, sc_report_load_junit, sc_report_load_jtl, table_to_null};
  for (size_t i = 0; i < 4; i++) {
    write_call c = {ws[i], path, &fx->load};
    sc_test_oom_sweep(call_writer, &c, 20000);
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
      cmocka_unit_test(fixture_matches_quality_bar),
      cmocka_unit_test(junit_suite_per_user),
      cmocka_unit_test(jtl_threads),
      cmocka_unit_test(json_users),
      cmocka_unit_test(table_verdicts),
      cmocka_unit_test(the_driven_url_is_reported),
      cmocka_unit_test(errors_name_the_path),
      cmocka_unit_test(alloc_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
