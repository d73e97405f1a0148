/* bench_steps: driver overhead and library CPU per verified step, on the
 * fixture map app (or any scenario and URL, e.g. real JOSM through noVNC:
 * bench/josm.sh), through the public runner (sc_run_scenario).
 *
 * For each step result:
 *   verified_ms   first input sent -> capture on which all expectations held
 *                 (the runner's own timing);
 *   app_ms        the app's own time-to-pixel for the step, from its timing
 *                 records (window.__inputs, window.__paints; page clock,
 *                 made wall clock by performance.timeOrigin), read once
 *                 after the run: timeStamp of the first input event from
 *                 the step's start (started_unix_ms) to the next step's ->
 *                 the animation frame after the last paint the app made in
 *                 that span; nan on pages without those records (JOSM), and
 *                 so is overhead_ms;
 *   overhead_ms   verified_ms - app_ms: input transport, capture latency,
 *                 the second (confirming) capture, decode and judging;
 *   cpu_ms        user+sys CPU of this process between the end of the
 *                 previous step's bookkeeping and the end of this step
 *                 (park, at-rest captures, gesture, polling, judging; the
 *                 cycle-start and drift captures fall to the steps after
 *                 them); the benchmark's own bookkeeping is excluded.
 *                 cpu_median_ms is over passed steps.
 * The runner is given a page we opened (sc_run_options.page) so the records
 * can be read with sc_page_eval after the run (a blocking call cannot be
 * made from the progress callback, which runs on the runner's loop), outside
 * every measured interval.
 *
 * Whole-process and browser-tree CPU (/proc of sc_browser_pid and its
 * descendants) are reported per verified step as well.
 *
 * Screenshots: every Page.captureScreenshot the library sends is counted
 * (the link wraps sc__cdp_send, bench/CMakeLists.txt), whatever asked for
 * it: at-rest and pre-gesture captures, polls, cycle starts, drift checks,
 * self-checks. A step's count (shots) is what was sent since the previous
 * step's result, so cycle-start and drift captures fall to the step after
 * them; screenshots_per_step is every capture of the run (setup included)
 * over the verified cycle steps.
 *
 *   bench_steps [--cycles K] [--scenario FILE] [--url URL] [--fast 0|1]
 *               [--rest paint-log|pairs] [--label TOOL] [--browser-arg ARG]... [-v]
 *
 * --rest pairs proves rest the 0.2.0 way (two identical captures; the
 * scenario's rest_pairs); the default is the scenario's own rule. --label
 * names the tool in the output (default "stepcheck"); --browser-arg adds a
 * Chromium flag to the launch (to measure a launch variant).
 *
 * Defaults: 10 cycles of fixtures/mapapp/seven-steps.json on
 * fixtures/mapapp/index.html?delay=0. Output, one line per step id and one
 * for all steps:
 *   tool=stepcheck case=step:select-a n=10 pass=10 verified_median_ms=.. verified_p95_ms=..
 *     app_median_ms=.. overhead_median_ms=.. overhead_p95_ms=.. cpu_median_ms=..
 *     shots_mean=.. first_paint_median_ms=.. last_paint_median_ms=.. paint_log=..
 *   tool=stepcheck case=all n=70 pass=70 ... cpu_ms_per_step=.. browser_cpu_ms_per_step=..
 *     screenshots=.. screenshots_per_step=..
 * first_paint_median_ms is the runner's first_paint_ms (first input -> the
 * app's first paint over the step's regions, from the page's paint log) over
 * passed steps that have one, last_paint_median_ms its last_paint_ms (first
 * input -> the app's last paint over them: when it finished drawing, the
 * earliest a verdict on the final screen can exist); paint_log counts the steps whose rest was
 * proven by the paint log (the others fell back to pairs or ran on pairs).
 */

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_util.h"
#include "cdp/cdp.h"
#include "stepcheck.h"
#include "host/host.h"

/* Every Page.captureScreenshot sent: the link wraps sc__cdp_send
 * (-Wl,--wrap=sc__cdp_send), so each call the library makes lands here. */
static long g_shots;
int __real_sc__cdp_send(sc__cdp *c, const char *session_id, const char *method, json_t *params,
                        double timeout_ms, sc__cdp_reply_cb cb, void *userdata, int64_t *id_out);
int __wrap_sc__cdp_send(sc__cdp *c, const char *session_id, const char *method, json_t *params,
                        double timeout_ms, sc__cdp_reply_cb cb, void *userdata, int64_t *id_out);
int __wrap_sc__cdp_send(sc__cdp *c, const char *session_id, const char *method, json_t *params,
                        double timeout_ms, sc__cdp_reply_cb cb, void *userdata, int64_t *id_out) {
  int rc = __real_sc__cdp_send(c, session_id, method, params, timeout_ms, cb, userdata, id_out);
  if (rc == 0 && method && !strcmp(method, "Page.captureScreenshot")) g_shots++;
  return rc;
}

#ifndef BENCH_SOURCE_DIR
#define BENCH_SOURCE_DIR "."
#endif

typedef struct row {
  char id[64];
  int cycle, passed;
  double started_unix_ms, verified_ms, first_change_ms, gesture_ms, app_ms, overhead_ms, cpu_ms;
  int captures;
  double capture_ms;
  long shots;          /* captures sent since the previous step's result */
  double first_paint_ms, last_paint_ms;
  int paint_log;       /* rest proven by the paint log */
} row;

typedef struct bench {
  sc_page *page;
  int verbose;
  size_t ninputs_seen, npaints_seen; /* records of the page load, not the run's */
  long shots_mark;                   /* g_shots at the last step's result */
  double cpu_mark;                   /* process CPU at the end of the last bookkeeping */
  double bench_cpu;                  /* CPU spent in our own bookkeeping */
  row *rows;
  size_t nrows, cap;
  int eval_failed;
} bench;

static double cpu_self_ms(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
         (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* user+sys CPU ms of pid and its live descendants, plus what they reaped
 * from exited children (so a renderer that exits keeps counting); -1 when
 * /proc cannot be read. */
static double tree_cpu_ms(int pid) {
  sc__usage u;
  if (pid <= 0 || sc__usage_trees(&u, NULL, &pid, 1, 1) < 0) return -1;
  return u.cpu_ms + u.cpu_reaped_ms;
}

/* The app's records since the last read, as {"inputs":[...],"paints":[...]}. */
static json_t *read_records(bench *B) {
  char expr[512], *js = NULL;
  snprintf(expr, sizeof expr,
           "({origin: performance.timeOrigin, inputs: (window.__inputs || []).slice(%zu),"
           " paints: (window.__paints || []).slice(%zu)})",
           B->ninputs_seen, B->npaints_seen);
  if (sc_page_eval(&js, B->page, expr) < 0) {
    if (!B->eval_failed) fprintf(stderr, "bench_steps: eval: %s\n", sc_errmsg());
    B->eval_failed = 1;
    return NULL;
  }
  json_t *j = json_loads(js, 0, NULL);
  sc_free(js);
  if (j) {
    B->ninputs_seen += json_array_size(json_object_get(j, "inputs"));
    B->npaints_seen += json_array_size(json_object_get(j, "paints"));
  }
  return j;
}

static double num(json_t *o, const char *k) {
  json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Inputs this early before a step's started_unix_ms still count as its
 * own: Chromium's wall clock (timeOrigin + timeStamp) and ours may differ
 * by a millisecond or two; steps are settle_ms (300 ms) apart. */
#define APP_SLACK_MS 20.0

/* The app's time-to-pixel for each row, from the records j of the whole
 * run (the map app's window.__inputs: {type, t = event.timeStamp, ...};
 * window.__paints: {t = performance.now() after drawing, frame = the next
 * animation frame's time, input}; page clock, origin = timeOrigin): the
 * first input of the row's span (its start to the next row's) -> the frame
 * of the last paint in that span at or after it. NAN when either is
 * missing. Rows are in run order. */
static void app_times(bench *B, json_t *j) {
  json_t *inputs = json_object_get(j, "inputs"), *paints = json_object_get(j, "paints");
  double origin = num(j, "origin");
  size_t i;
  json_t *e;
  for (size_t k = 0; k < B->nrows; k++) {
    row *r = &B->rows[k];
    double lo = r->started_unix_ms - APP_SLACK_MS,
           hi = k + 1 < B->nrows ? B->rows[k + 1].started_unix_ms - APP_SLACK_MS : INFINITY;
    double first_in = NAN, last_paint = NAN;
    json_array_foreach(inputs, i, e) {
      double t = origin + num(e, "t");
      if (t >= lo && t < hi && (isnan(first_in) || t < first_in)) first_in = t;
    }
    if (!isnan(first_in))
      json_array_foreach(paints, i, e) {
        double t = origin + num(e, "t"), frame = origin + num(e, "frame");
        if (isnan(t) || t < first_in || t >= hi) continue;
        if (!isnan(frame) && frame > t) t = frame;
        if (isnan(last_paint) || t > last_paint) last_paint = t;
      }
    r->app_ms = isnan(first_in) || isnan(last_paint) ? NAN : last_paint - first_in;
    r->overhead_ms = r->passed && !isnan(r->app_ms) ? r->verified_ms - r->app_ms : NAN;
  }
}

static void on_step(const sc_step_result *res, int cycles, void *userdata) {
  bench *B = userdata;
  double cpu_step = cpu_self_ms() - B->cpu_mark;
  double c0 = cpu_self_ms();
  if (!res->setup) {
    if (B->nrows == B->cap) {
      B->cap = B->cap ? B->cap * 2 : 64;
      row *n = realloc(B->rows, B->cap * sizeof *n);
      if (!n) abort();
      B->rows = n;
    }
    row *r = &B->rows[B->nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->id, sizeof r->id, "%s", res->step_id);
    r->cycle = res->cycle;
    r->started_unix_ms = res->started_unix_ms;
    r->passed = res->passed;
    r->verified_ms = res->verified_ms;
    r->first_change_ms = res->first_change_ms;
    r->gesture_ms = res->gesture_ms;
    r->captures = res->captures;
    r->capture_ms = res->capture_ms;
    r->app_ms = r->overhead_ms = NAN; /* app_times(), after the run */
    r->cpu_ms = cpu_step;
    r->shots = g_shots - B->shots_mark;
    r->first_paint_ms = res->first_paint_ms;
    r->last_paint_ms = res->last_paint_ms;
    r->paint_log = res->rest && !strcmp(res->rest, "paint-log");
    if (B->verbose)
      fprintf(stderr,
              "# c%d/%d %-12s %s verified=%.1f first_change=%.1f gesture=%.1f "
              "captures=%d capture=%.1f shots=%ld rest=%s%s%s first_paint=%.1f "
              "last_paint=%.1f proven=%.1f paints=%d cpu=%.2f %s\n",
              res->cycle, cycles, res->step_id, res->passed ? "PASS" : "FAIL", res->verified_ms,
              res->first_change_ms, res->gesture_ms, res->captures,
              res->capture_ms, r->shots, res->rest ? res->rest : "?", res->rest_why ? "/" : "",
              res->rest_why ? res->rest_why : "", res->first_paint_ms, res->last_paint_ms,
              res->proven_ms, res->paints, cpu_step,
              res->reason ? res->reason : "");
  }
  B->shots_mark = g_shots;
  double c1 = cpu_self_ms();
  B->bench_cpu += c1 - c0;
  B->cpu_mark = c1;
}

static void print_case(const char *tool, const char *name, bench *B, const char *id,
                       const char *extra) {
  size_t n = 0, pass = 0, napp = 0;
  double *ver = calloc(B->nrows + 1, sizeof *ver), *app = calloc(B->nrows + 1, sizeof *app),
         *ovh = calloc(B->nrows + 1, sizeof *ovh), *cpu = calloc(B->nrows + 1, sizeof *cpu),
         *cap = calloc(B->nrows + 1, sizeof *cap), *fp = calloc(B->nrows + 1, sizeof *fp),
         *lp = calloc(B->nrows + 1, sizeof *lp);
  if (!ver || !app || !ovh || !cpu || !cap || !fp || !lp) abort();
  size_t ncap = 0, nfp = 0, nlp = 0, nlog = 0;
  long shots = 0;
  for (size_t i = 0; i < B->nrows; i++) {
    const row *r = &B->rows[i];
    if (id && strcmp(r->id, id)) continue;
    n++;
    shots += r->shots;
    nlog += r->paint_log != 0;
    if (r->captures) cap[ncap++] = r->captures;
    if (!r->passed) continue;
    if (r->first_paint_ms >= 0) fp[nfp++] = r->first_paint_ms;
    if (r->last_paint_ms >= 0) lp[nlp++] = r->last_paint_ms;
    cpu[pass] = r->cpu_ms;
    ver[pass++] = r->verified_ms;
    if (!isnan(r->overhead_ms)) {
      app[napp] = r->app_ms;
      ovh[napp++] = r->overhead_ms;
    }
  }
  double vm, vp, am, ap, om, op, cm, cp, km, kp, fm, fq, lm, lq;
  bench_stats(ver, pass, &vm, &vp);
  bench_stats(app, napp, &am, &ap);
  bench_stats(ovh, napp, &om, &op);
  bench_stats(cpu, pass, &cm, &cp);
  bench_stats(cap, ncap, &km, &kp);
  bench_stats(fp, nfp, &fm, &fq);
  bench_stats(lp, nlp, &lm, &lq);
  printf("tool=%s case=%s n=%zu pass=%zu verified_median_ms=%.1f verified_p95_ms=%.1f "
         "app_median_ms=%.1f overhead_median_ms=%.1f overhead_p95_ms=%.1f overhead_n=%zu "
         "captures_median=%.0f cpu_median_ms=%.2f cpu_p95_ms=%.2f shots_mean=%.2f "
         "first_paint_median_ms=%.1f first_paint_n=%zu last_paint_median_ms=%.1f paint_log=%zu%s\n",
         tool, name, n, pass, vm, vp, am, om, op, napp, km, cm, cp,
         n ? (double)shots / (double)n : NAN, fm, nfp, lm, nlog, extra ? extra : "");
  free(ver);
  free(app);
  free(ovh);
  free(cpu);
  free(cap);
  free(fp);
  free(lp);
}

/* bench/run.sh stops what it started even when a benchmark dies: it reads
 * the browser's pid (its own process group) from $BENCH_PIDFILE. */
static void note_pid(int pid) {
  const char *f = getenv("BENCH_PIDFILE");
  FILE *fp = f && *f && pid > 0 ? fopen(f, "a") : NULL;
  if (fp) {
    fprintf(fp, "%d\n", pid);
    fclose(fp);
  }
}

static void usage(void) {
  fprintf(stderr,
          "usage: bench_steps [--cycles K] [--scenario FILE] [--url URL] [--fast 0|1] "
          "[--rest paint-log|pairs] [--label TOOL] [--browser-arg ARG]... [-v]\n");
}

int main(int argc, char **argv) {
  /* BENCH_NO_WITNESS=1: the compositor witness off (docs/design.md, "The
   * rule of rest"), to measure what it costs (docs/benchmarks.md) */
  const char *nw = getenv("BENCH_NO_WITNESS");
  if (nw && *nw == '1') sc_set_debug(SC_DEBUG_NO_WITNESS);
  int cycles = 10, fast = 1, verbose = 0, pairs = -1;
  const char *scen = NULL, *url = NULL, *label = "stepcheck";
  const char *xargs[16] = {NULL};
  int nxargs = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--cycles") && i + 1 < argc)
      cycles = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--scenario") && i + 1 < argc)
      scen = argv[++i];
    else if (!strcmp(argv[i], "--url") && i + 1 < argc)
      url = argv[++i];
    else if (!strcmp(argv[i], "--fast") && i + 1 < argc)
      fast = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--rest") && i + 1 < argc) {
      const char *v = argv[++i];
      if (strcmp(v, "pairs") && strcmp(v, "paint-log")) {
        usage();
        return 2;
      }
      pairs = !strcmp(v, "pairs");
    } else if (!strcmp(argv[i], "-v"))
      verbose = 1;
    else if (!strcmp(argv[i], "--label") && i + 1 < argc)
      label = argv[++i];
    else if (!strcmp(argv[i], "--browser-arg") && i + 1 < argc && nxargs < 15)
      xargs[nxargs++] = argv[++i];
    else {
      usage();
      return 2;
    }
  }
  if (cycles < 1) {
    usage();
    return 2;
  }
  char defscen[4096], defurl[4096];
  if (!scen) {
    snprintf(defscen, sizeof defscen, "%s/fixtures/mapapp/seven-steps.json", BENCH_SOURCE_DIR);
    scen = defscen;
  }
  if (!url) {
    snprintf(defurl, sizeof defurl, "file://%s/fixtures/mapapp/index.html?delay=0",
             BENCH_SOURCE_DIR);
    url = defurl;
  }

  double cpu_start = cpu_self_ms();
  sc_scenario *s = NULL;
  sc_browser *b = NULL;
  sc_page *p = NULL;
  sc_run_result *rr = NULL;
  bench B = {0};
  int status = 1;
  if (sc_scenario_load(&s, scen) < 0) {
    fprintf(stderr, "bench_steps: %s\n", sc_errmsg());
    return 2;
  }
  if (pairs >= 0) sc_scenario_set_rest(s, pairs ? "pairs" : "paint-log");
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  bo.extra_args = xargs;
  if (sc_browser_launch(&b, &bo) < 0) {
    fprintf(stderr, "bench_steps: launch: %s\n", sc_errmsg());
    goto out;
  }
  note_pid(sc_browser_pid(b));
  sc_page_options po;
  sc_run_page_options(&po, s);
  if (sc_page_open(&p, b, url, &po) < 0) {
    fprintf(stderr, "bench_steps: open %s: %s\n", url, sc_errmsg());
    goto out;
  }
  printf("# tool=%s browser=%s url=%s scenario=%s cycles=%d fast_capture=%d rest=%s extra_args=",
         label, sc_browser_product(b), url, scen, cycles, fast, sc_scenario_rest(s));
  for (int i = 0; i < nxargs; i++) printf("%s%s", i ? "," : "", xargs[i]);
  printf("\n");
  fflush(stdout);

  B.page = p;
  B.verbose = verbose;
  json_decref(read_records(&B)); /* skip what the page load recorded */
  sc_run_options o = SC_RUN_OPTIONS_INIT;
  o.cycles = cycles;
  o.page = p;
  o.fast_capture = fast;
  o.progress = on_step;
  o.userdata = &B;
  double browser_cpu0 = tree_cpu_ms(sc_browser_pid(b));
  double run_cpu0 = cpu_self_ms();
  B.cpu_mark = run_cpu0;
  long shots0 = g_shots;
  B.shots_mark = shots0;
  int rc = sc_run_scenario(&rr, s, &o);
  long run_shots = g_shots - shots0;
  double run_cpu = cpu_self_ms() - run_cpu0 - B.bench_cpu;
  double browser_cpu = tree_cpu_ms(sc_browser_pid(b)) - browser_cpu0;
  if (rc < 0) fprintf(stderr, "bench_steps: run: %s\n", sc_errmsg());
  json_t *rec = read_records(&B);
  if (rec) app_times(&B, rec);
  json_decref(rec);

  for (size_t i = 0; i < sc_scenario_nsteps(s); i++) {
    char name[96];
    const char *id = sc_step_id(sc_scenario_step(s, i));
    snprintf(name, sizeof name, "step:%s", id);
    print_case(label, name, &B, id, NULL);
  }
  size_t verified = 0;
  for (size_t i = 0; i < B.nrows; i++) verified += B.rows[i].passed != 0;
  char extra[384];
  double total_cpu = cpu_self_ms() - cpu_start - B.bench_cpu;
  snprintf(extra, sizeof extra,
           " run_cpu_ms_per_step=%.2f process_cpu_ms_per_step=%.2f "
           "browser_cpu_ms_per_step=%.1f verified=%zu screenshots=%ld "
           "screenshots_per_step=%.3f",
           verified ? run_cpu / (double)verified : NAN,
           verified ? total_cpu / (double)verified : NAN,
           verified && browser_cpu >= 0 ? browser_cpu / (double)verified : NAN, verified, run_shots,
           verified ? (double)run_shots / (double)verified : NAN);
  print_case(label, "all", &B, NULL, extra);
  if (B.eval_failed) printf("# app records could not be read: app_ms/overhead are nan\n");
  status = rc < 0 ? 1 : (rr && rr->passed ? 0 : 3);
  if (rr && !rr->passed) printf("# run VOID: %d of %d steps failed\n", rr->steps_failed,
                                rr->steps_failed + rr->steps_passed);
out:
  sc_run_result_free(rr);
  sc_page_free(p);
  sc_browser_free(b);
  sc_scenario_free(s);
  free(B.rows);
  return status;
}
