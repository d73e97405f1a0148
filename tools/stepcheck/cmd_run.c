/* stepcheck run: run a scenario, print progress and the table, write reports. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* mkdir -p; 0 or -1 with errno. */
static int make_dirs(const char *path) {
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

typedef struct progress {
  int tty, quiet, passes, fails;
} progress;

static void on_step(const sc_step_result *r, int cycles, void *ud) {
  progress *p = ud;
  if (r->passed)
    p->passes++;
  else
    p->fails++;
  if (p->quiet) return;
  if (p->tty) {
    fprintf(stderr, "\r\033[Kcycle %d/%d  step %-14s  pass %d  fail %d", r->cycle, cycles,
            r->step_id, p->passes, p->fails);
  } else {
    fprintf(stderr, "cycle %d/%d %s %s %.1f ms%s%s\n", r->cycle, cycles, r->step_id,
            r->passed ? "PASS" : "FAIL", r->passed ? r->verified_ms : r->gesture_ms,
            r->passed ? "" : ": ", r->passed ? "" : (r->reason ? r->reason : ""));
  }
  fflush(stderr);
}

int cmd_run(int argc, char **argv) {
  const char *path = NULL, *url = NULL, *report = NULL, *json = NULL, *junit = NULL,
             *jtl = NULL, *endpoint = NULL, *v;
  int cycles = 1, quiet = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--url")) {
      if (!(url = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--cycles")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_int(&cycles, a, v, 1, 1000000) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--report")) {
      if (!(report = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--report-json")) {
      if (!(json = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--junit")) {
      if (!(junit = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--jtl")) {
      if (!(jtl = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--browser")) {
      if (!(endpoint = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
      quiet = 1;
    } else if (a[0] == '-') {
      return cli_err(EXIT_USAGE, "run: unknown option '%s'", a);
    } else if (!path) {
      path = a;
    } else {
      return cli_err(EXIT_USAGE, "run: more than one scenario ('%s')", a);
    }
  }
  if (!path) return cli_err(EXIT_USAGE, "usage: stepcheck run SCENARIO [options]");

  if (report && make_dirs(report) < 0)
    return cli_err(EXIT_USAGE, "run: --report %s: %s", report, strerror(errno));
  sc_scenario *s = NULL;
  int rc = sc_scenario_load(&s, path);
  if (rc < 0) return cli_input_err(rc, "scenario");

  sc_browser *b = NULL;
  if (endpoint && (rc = sc_browser_connect(&b, endpoint, NULL)) < 0) {
    sc_scenario_free(s);
    return cli_lib_err(rc, "attach");
  }
  progress pr = {isatty(2), quiet, 0, 0};
  sc_run_options o = SC_RUN_OPTIONS_INIT;
  o.url = url;
  o.cycles = cycles;
  o.report_dir = report;
  o.browser = b;
  o.progress = on_step;
  o.userdata = &pr;
  sc_run_result *r = NULL;
  rc = sc_run_scenario(&r, s, &o);
  if (pr.tty && !quiet) fputc('\n', stderr);
  int code = EXIT_OK;
  /* The run's own message: writing the table may overwrite sc_errmsg(). */
  if (rc < 0) code = cli_err(EXIT_INFRA, "run: %s", r && r->error ? r->error : sc_errmsg());
  if (r && r->nresults && sc_report_table(stdout, r) < 0) code = cli_lib_err(SC_EIO, "table");
  char dflt[4096];
  if (r && report && !json) {
    snprintf(dflt, sizeof dflt, "%s/report.json", report);
    json = dflt;
  }
  if (r && json && (rc = sc_report_json(json, r)) < 0) code = cli_lib_err(rc, "report");
  if (r && junit && (rc = sc_report_junit(junit, r)) < 0) code = cli_lib_err(rc, "junit");
  if (r && jtl && (rc = sc_report_jtl(jtl, r)) < 0) code = cli_lib_err(rc, "jtl");
  if (code == EXIT_OK && r && !r->passed) code = EXIT_FAIL;
  sc_run_result_free(r);
  sc_browser_free(b);
  sc_scenario_free(s);
  return code;
}
