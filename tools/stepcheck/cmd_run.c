/* stepcheck run: parse the options, then run one user (table and reports
 * of one run) or many (the load path, cmd_load.c). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_make_dirs(const char *path) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return errno = ENAMETOOLONG, -1;
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(buf, 0755) < 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(buf, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

const char *cli_report_file(char *buf, size_t n, const char *dir, const char *name, int *code) {
  int len = snprintf(buf, n, "%s/%s", dir, name);
  if (len >= 0 && (size_t)len < n) return buf;
  *code = cli_err(EXIT_INFRA, "report: %s/%s: %s", dir, name, strerror(ENAMETOOLONG));
  return NULL;
}

static volatile int g_stop;
static void on_stop(int sig) {
  (void)sig;
  g_stop = 1;
}

typedef struct progress {
  int tty, quiet, passes, fails;
  const sc_scenario *s; /* borrowed: the steps' timeouts */
} progress;

/* The time column of a progress line: a pass's verified time; a failure's
 * time until its verdict, as the reports count it (include/stepcheck/
 * report.h, "Elapsed"): its judging timeout, never less than its gesture
 * or first change; what it ran when a fault cut it off. */
static double shown_ms(const progress *p, const sc_step_result *r) {
  if (r->passed) return r->verified_ms;
  if (r->fault) return r->ran_ms > 0 ? r->ran_ms : 0;
  double t = 0;
  size_t n = r->setup ? sc_scenario_nsetup(p->s) : sc_scenario_nsteps(p->s);
  for (size_t i = 0; i < n; i++) {
    const sc_step *st = r->setup ? sc_scenario_setup_step(p->s, i) : sc_scenario_step(p->s, i);
    const char *id = sc_step_id(st);
    if (id && r->step_id && !strcmp(id, r->step_id)) {
      t = sc_step_timeout_ms(st);
      break;
    }
  }
  if (r->gesture_ms > t) t = r->gesture_ms;
  if (r->first_change_ms > t) t = r->first_change_ms;
  return t;
}

static void on_step(const sc_step_result *r, int cycles, void *ud) {
  progress *p = ud;
  if (r->passed)
    p->passes++;
  else
    p->fails++;
  if (p->quiet) return;
  char id[CLI_SHOWN_MAX], why[CLI_SHOWN_MAX];
  cli_shown(id, sizeof id, r->step_id);
  cli_shown(why, sizeof why, r->passed ? "" : r->reason);
  if (p->tty) {
    fprintf(stderr, "\r\033[Kcycle %d/%d  step %-14s  pass %d  fail %d", r->cycle, cycles,
            id, p->passes, p->fails);
  } else {
    fprintf(stderr, "cycle %d/%d %s %s %.1f ms%s%s\n", r->cycle, cycles, id,
            r->passed ? "PASS" : "FAIL", shown_ms(p, r),
            r->passed ? "" : ": ", why);
  }
  fflush(stderr);
}

static int run_one_body(const cli_run_args *a, const sc_scenario *s) {
  sc_browser *b = NULL;
  int rc;
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  bo.allow_remote = a->allow_remote;
  bo.cancel = &g_stop; /* an endpoint that never answers lets go of us at a signal */
  if (a->nbrowsers && (rc = sc_browser_connect(&b, a->browsers[0], &bo)) < 0)
    return cli_browser_err(rc, "attach");
  progress pr = {isatty(2), a->quiet, 0, 0, s};
  sc_run_options o = SC_RUN_OPTIONS_INIT;
  o.url = a->url;
  o.cycles = a->cycles;
  o.report_dir = a->report;
  o.pass_frames_bytes = a->frames;
  o.pass_frames_guest = a->frames_guest;
  o.browser = b;
  o.progress = on_step;
  o.userdata = &pr;
  o.cancel = &g_stop;
  sc_run_result *r = NULL;
  rc = sc_run_scenario(&r, s, &o);
  if (pr.tty && !a->quiet) fputc('\n', stderr);
  int code = EXIT_OK;
  /* The run's own message: writing the table may overwrite sc_errmsg(). */
  if (rc < 0) code = cli_err(cli_run_exit(rc), "run: %s", r && r->error ? r->error : sc_errmsg());
  if (r && r->nresults && sc_report_table(stdout, r) < 0) code = cli_lib_err(SC_EIO, "stdout");
  char dflt[CLI_REPORT_PATH_MAX], html[CLI_REPORT_PATH_MAX];
  const char *json = a->json;
  if (r && a->report && !json)
    json = cli_report_file(dflt, sizeof dflt, a->report, "report.json", &code);
  if (r && json && (rc = sc_report_json(json, r)) < 0) code = cli_lib_err(rc, "report");
  if (r && a->report && cli_report_file(html, sizeof html, a->report, "report.html", &code) &&
      (rc = sc_report_html(html, r)) < 0)
    code = cli_lib_err(rc, "report");
  if (r && a->junit && (rc = sc_report_junit(a->junit, r)) < 0) code = cli_lib_err(rc, "junit");
  if (r && a->jtl && (rc = sc_report_jtl(a->jtl, r)) < 0) code = cli_lib_err(rc, "jtl");
  if (code == EXIT_OK && r && !r->passed) code = EXIT_FAIL;
  sc_run_result_free(r);
  sc_browser_free(b);
  return code;
}

/* One user: SIGINT (Ctrl-C), SIGTERM or SIGHUP stops the run: the step in
 * progress ends unjudged, the table and reports are still written (VOID),
 * and the browser it launched is stopped (profile removed); exit 3. A
 * second signal of the same kind ends the process at once (the browser
 * dies with it; its profile goes at the next launch). */
static const int k_stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (sizeof k_stop_signals / sizeof k_stop_signals[0])

static int run_one(const cli_run_args *a, const sc_scenario *s) {
  struct sigaction sa, old[NSTOP];
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop;
  sa.sa_flags = SA_RESETHAND;
  for (size_t i = 0; i < NSTOP; i++) sigaction(k_stop_signals[i], &sa, &old[i]);
  int code = run_one_body(a, s);
  if (g_stop && (code == EXIT_OK || code == EXIT_FAIL)) code = cli_err(EXIT_INFRA, "run: interrupted");
  for (size_t i = 0; i < NSTOP; i++) sigaction(k_stop_signals[i], &old[i], NULL);
  return code;
}

/* One option with a value; 1 matched, 0 not this option, -1 error. */
static int parse_opt(cli_run_args *a, int argc, char **argv, int *i) {
  const char *o = argv[*i], *v;
#define VALUE() if (!(v = cli_value(argc, argv, i))) return -1
  if (!strcmp(o, "--url")) {
    VALUE();
    if (a->nurls == CLI_MAX_URLS)
      return cli_err(EXIT_USAGE, "run: more than %d --url", CLI_MAX_URLS), -1;
    if (!a->url) a->url = v;
    a->urls[a->nurls++] = v;
    if (a->nurls > 1) a->load = 1; /* one server per user */
    return 1;
  }
  if (!strcmp(o, "--allow-url-scheme")) { VALUE(); return cli_allow_scheme(&a->allow_schemes, o, v) < 0 ? -1 : 1; }
  if (!strcmp(o, "--report")) { VALUE(); a->report = v; return 1; }
  if (!strcmp(o, "--frames")) {
    VALUE();
    a->frames_guest = !strcmp(v, "guest"); /* all, and the whole guest of every step */
    return cli_parse_bytes(&a->frames, o, a->frames_guest ? "all" : v) < 0 ? -1 : 1;
  }
  if (!strcmp(o, "--rest")) {
    VALUE();
    if (strcmp(v, "paint-log") && strcmp(v, "pairs"))
      return cli_err(EXIT_USAGE, "run: --rest must be paint-log or pairs (got '%s')", v), -1;
    a->rest = strcmp(v, "pairs") ? 1 : 2;
    return 1;
  }
  if (!strcmp(o, "--canvas")) { VALUE(); a->canvas = v; return 1; }
  if (!strcmp(o, "--report-json")) { VALUE(); a->json = v; return 1; }
  if (!strcmp(o, "--junit")) { VALUE(); a->junit = v; return 1; }
  if (!strcmp(o, "--jtl")) { VALUE(); a->jtl = v; return 1; }
  if (!strcmp(o, "--grid")) { VALUE(); a->grid = v; a->load = 1; return 1; }
  if (!strcmp(o, "--cycles")) { VALUE(); return cli_parse_int(&a->cycles, o, v, 1, 1000000) < 0 ? -1 : 1; }
  if (!strcmp(o, "--users")) { VALUE(); a->load = 1; a->users_given = 1; return cli_parse_int(&a->users, o, v, 1, 100000) < 0 ? -1 : 1; }
  if (!strcmp(o, "--ramp")) { VALUE(); a->load = 1; return cli_parse_int(&a->ramp, o, v, 1, 100000) < 0 ? -1 : 1; }
  if (!strcmp(o, "--users-per-browser")) { VALUE(); a->load = 1; return cli_parse_int(&a->users_per_browser, o, v, 1, 100000) < 0 ? -1 : 1; }
  if (!strcmp(o, "--warmup")) { VALUE(); a->load = 1; return cli_parse_int(&a->warmup, o, v, 0, 1000) < 0 ? -1 : 1; }
  if (!strcmp(o, "--every")) { VALUE(); a->load = 1; return cli_parse_seconds(&a->every_ms, o, v, 0.001) < 0 ? -1 : 1; }
  if (!strcmp(o, "--duration")) { VALUE(); a->load = 1; return cli_parse_seconds(&a->duration_ms, o, v, 0.001) < 0 ? -1 : 1; }
  if (!strcmp(o, "--browser")) {
    VALUE();
    if (a->nbrowsers == CLI_MAX_BROWSERS)
      return cli_err(EXIT_USAGE, "run: more than %d --browser", CLI_MAX_BROWSERS), -1;
    a->browsers[a->nbrowsers++] = v;
    if (a->nbrowsers > 1) a->load = 1;
    return 1;
  }
#undef VALUE
  return 0;
}

/* Every output before the scenario is read and any browser starts: the
 * --report folder (made when missing) and every report file in it or named
 * on its own (docs/security.md, "Output paths"). */
static int check_outputs(const cli_run_args *a) {
  if (a->report && cli_make_dirs(a->report) < 0)
    return cli_err(EXIT_USAGE, "run: --report %s: %s", a->report, strerror(errno)), -1;
  if (a->report && cli_check_output_dir("run", "--report", a->report) < 0) return -1;
  char buf[CLI_REPORT_PATH_MAX];
  int code = 0;
  const char *const named[][2] = {
      {"--report-json", a->json}, {"--junit", a->junit}, {"--jtl", a->jtl}};
  for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
    if (named[i][1] && cli_check_output("run", named[i][0], named[i][1]) < 0) return -1;
  const char *in_dir[] = {a->json ? NULL : "report.json", "report.html"};
  for (size_t i = 0; a->report && i < sizeof in_dir / sizeof in_dir[0]; i++) {
    if (!in_dir[i]) continue;
    const char *p = cli_report_file(buf, sizeof buf, a->report, in_dir[i], &code);
    if (!p) return -1;
    if (cli_check_output("run", "--report", p) < 0) return -1;
  }
  return 0;
}

int cmd_run(int argc, char **argv) {
  cli_run_args a;
  memset(&a, 0, sizeof a);
  a.cycles = 1;
  a.users = 1;
  a.warmup = -1;
  a.allow_schemes = SC_URL_DEFAULT;
  int cycles_given = 0;
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i];
    int m = parse_opt(&a, argc, argv, &i);
    if (m < 0) return EXIT_USAGE;
    if (m > 0) {
      cycles_given |= !strcmp(o, "--cycles");
      continue;
    }
    if (!strcmp(o, "--quiet") || !strcmp(o, "-q")) {
      a.quiet = 1;
    } else if (!strcmp(o, "--allow-remote")) {
      a.allow_remote = 1;
    } else if (o[0] == '-') {
      return cli_err(EXIT_USAGE, "run: unknown option '%s'", o);
    } else if (!a.path) {
      a.path = o;
    } else {
      return cli_err(EXIT_USAGE, "run: more than one scenario ('%s')", o);
    }
  }
  if (!a.path) return cli_err(EXIT_USAGE, "usage: stepcheck run SCENARIO [options]");
  for (int i = 0; i < a.nurls; i++)
    if (cli_check_url(a.urls[i], a.allow_schemes) < 0) return EXIT_USAGE;
  if (a.nurls > 1) { /* one server per user: as many users as URLs, at most */
    if (!a.users_given) a.users = a.nurls;
    if (a.users > a.nurls)
      return cli_err(EXIT_USAGE, "run: --users %d but %d --url: one server per user", a.users,
                     a.nurls);
  }
  if (cycles_given && a.duration_ms > 0)
    return cli_err(EXIT_USAGE, "run: --cycles and --duration exclude each other");
  if (a.ramp && a.ramp < a.users && a.every_ms <= 0)
    return cli_err(EXIT_USAGE, "run: --ramp %d needs --every SECONDS", a.ramp);
  if (a.frames > 0 && !a.report)
    return cli_err(EXIT_USAGE, "run: --frames needs --report DIR (the frames go there)");
  if (a.frames_guest && a.load)
    return cli_err(EXIT_USAGE, "run: --frames guest is for one user (not with --users, several "
                   "--url or --browser, or --grid)");
  if (a.grid && a.nbrowsers)
    return cli_err(EXIT_USAGE, "run: --grid and --browser exclude each other");
  if (check_outputs(&a) < 0) return EXIT_USAGE;
  sc_scenario *s = NULL;
  int rc = sc_scenario_load(&s, a.path);
  if (rc < 0) return cli_input_err(rc, "scenario");
  if (!a.url && !sc_scenario_url(s)) {
    sc_scenario_free(s);
    return cli_err(EXIT_USAGE, "run: no URL to open: the scenario has no \"url\" and no --url was given");
  }
  if ((a.rest && sc_scenario_set_rest(s, a.rest == 2 ? "pairs" : "paint-log") < 0) ||
      (a.canvas && sc_scenario_set_canvas(s, a.canvas) < 0)) {
    sc_scenario_free(s);
    return cli_err(EXIT_USAGE, "run: %s", sc_errmsg());
  }
  int code = a.load ? cli_run_load(&a, s) : run_one(&a, s);
  sc_scenario_free(s);
  return code;
}
