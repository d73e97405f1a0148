/* stepcheck run --users N: many users from this process (sc_load_run),
 * a progress line per ramp level, the load reports; SIGINT (Ctrl-C),
 * SIGTERM or SIGHUP stops every user, stops what was launched and still
 * writes the reports (exit 3); a second one of the same kind ends the
 * process at once. */
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static volatile int g_cancel;

static void on_signal(int sig) {
  (void)sig;
  g_cancel = 1;
}

typedef struct live {
  int tty, quiet;
  int passed, failed;
} live;

static void on_step(const sc_run_result *u, const sc_step_result *r, void *ud) {
  (void)u;
  live *l = ud;
  if (r->passed)
    l->passed++;
  else
    l->failed++;
}

/* Once a second: give the pages of freed blocks back to the system.
 * Frames (a few MB decoded) are freed between captures while small
 * results live on, so glibc's heap keeps growing holes it never returns:
 * a 10-minute run of 8 users grew RSS by 50 MB with a flat live heap
 * (docs/reliability.md, "Soak"). malloc_trim(0) releases the free pages
 * inside the heap too (madvise), so RSS follows what is in use. */
static void on_sample(const sc_gen_sample *s, void *ud) {
  live *l = ud;
  malloc_trim(0);
  if (l->quiet || !l->tty) return;
  fprintf(stderr, "\r\033[K%6.0f s  users %d  verified %d  failed %d  CPU %.0f%%  PSS %.0f MiB",
          s->t_ms / 1000.0, s->users, l->passed, l->failed, s->cpu_pct, s->pss_mib);
  fflush(stderr);
}

static void on_level(const sc_level *lv, const sc_gen_sample *s, void *ud) {
  live *l = ud;
  if (l->quiet) return;
  if (l->tty) fputs("\r\033[K", stderr);
  fprintf(stderr, "level %d: %d users, verified %d, failed %d", lv->index + 1, lv->users,
          l->passed, l->failed);
  if (s) fprintf(stderr, ", generator CPU %.0f%%, PSS %.0f MiB", s->cpu_pct, s->pss_mib);
  fputc('\n', stderr);
  fflush(stderr);
}

static int write_reports(const cli_run_args *a, const sc_load_result *r) {
  int code = EXIT_OK, rc;
  char dflt[CLI_REPORT_PATH_MAX], html[CLI_REPORT_PATH_MAX];
  const char *json = a->json;
  if (sc_report_load_table(stdout, r) < 0) code = cli_lib_err(SC_EIO, "stdout");
  if (a->report && !json)
    json = cli_report_file(dflt, sizeof dflt, a->report, "report.json", &code);
  if (json && (rc = sc_report_load_json(json, r)) < 0) code = cli_lib_err(rc, "report");
  if (a->report && cli_report_file(html, sizeof html, a->report, "report.html", &code) &&
      (rc = sc_report_load_html(html, r)) < 0)
    code = cli_lib_err(rc, "report");
  if (a->junit && (rc = sc_report_load_junit(a->junit, r)) < 0) code = cli_lib_err(rc, "junit");
  if (a->jtl && (rc = sc_report_load_jtl(a->jtl, r)) < 0) code = cli_lib_err(rc, "jtl");
  return code;
}

/* Grid sessions: one per browser the users need (users_per_browser each,
 * default 8); their se:cdp URLs become the endpoints. Every session made is
 * deleted by grid_end, also after a failure or an interrupt. */
#define GRID_USERS_PER_BROWSER 8

typedef struct grid {
  sc_grid_session *g[CLI_MAX_BROWSERS];
  const char *ep[CLI_MAX_BROWSERS + 1];
  int n;
} grid;

static int grid_begin(grid *gr, const cli_run_args *a) {
  int per = a->users_per_browser > 0 ? a->users_per_browser : GRID_USERS_PER_BROWSER;
  int want = (a->users + per - 1) / per;
  if (want > CLI_MAX_BROWSERS)
    return cli_err(EXIT_USAGE, "run: --grid: %d browsers needed, at most %d (raise "
                               "--users-per-browser)", want, CLI_MAX_BROWSERS);
  sc_grid_options go = SC_GRID_OPTIONS_INIT;
  go.allow_remote = a->allow_remote;
  go.cancel = &g_cancel; /* a grid that never answers lets go of us at a signal */
  /* A node on this machine runs as we do: as root Chromium needs it. */
  static const char *const root_args[] = {"--no-sandbox", NULL};
  if (geteuid() == 0 && !a->allow_remote) go.extra_args = root_args;
  for (int i = 0; i < want && !g_cancel; i++) {
    int rc = sc_grid_session_new(&gr->g[gr->n], a->grid, &go);
    if (rc < 0) return cli_lib_err(rc, "grid");
    gr->ep[gr->n] = sc_grid_session_cdp_url(gr->g[gr->n]);
    gr->n++;
  }
  gr->ep[gr->n] = NULL;
  return g_cancel ? cli_err(EXIT_INFRA, "run: interrupted") : EXIT_OK;
}

static void grid_end(grid *gr) {
  for (int i = 0; i < gr->n; i++) sc_grid_session_free(gr->g[i]);
  gr->n = 0;
}

/* One exit-code rule for one user and many: a user that an error stopped
 * counts as one user alone would (cli_run_exit: 3 for the browser, the
 * renderer, the connection or a page without a canvas; 1 for a locator
 * that found nothing), and is named on stderr, the first few one line
 * each. Returns the worst such code (EXIT_OK when no user has an error). */
#define USER_ERRORS_SHOWN 5

static int user_errors(const sc_load_result *r) {
  int worst = EXIT_OK, n = 0;
  for (size_t i = 0; i < r->nusers; i++) {
    const sc_run_result *u = r->users[i];
    if (!u->error) continue;
    int c = cli_run_exit(u->error_code ? u->error_code : SC_EIO);
    if (c > worst) worst = c;
    if (n++ < USER_ERRORS_SHOWN)
      cli_err(c, "run: %s: %s", u->user_name ? u->user_name : "user", u->error);
  }
  if (n > USER_ERRORS_SHOWN)
    cli_err(worst, "run: and %d more users stopped by an error (each in the reports)",
            n - USER_ERRORS_SHOWN);
  return worst;
}

static const int k_stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define NSTOP (sizeof k_stop_signals / sizeof k_stop_signals[0])

/* Users that open the same URL share whatever it shows: on a remote
 * display (noVNC, Xpra) that is one application for all of them, their
 * gestures interleave and each one's checks see the others' changes. Said
 * up front, before any browser starts. */
static void note_shared_urls(const cli_run_args *a, const sc_scenario *s) {
  if (a->users < 2) return;
  const char *first = a->url ? a->url : sc_scenario_url(s);
  int same = a->nurls <= 1 ? a->users : 0;
  for (int i = 1; a->nurls > 1 && i < a->users && i < a->nurls; i++)
    if (!strcmp(a->urls[i], a->urls[0])) same = same ? same + 1 : 2;
  if (same < 2) return;
  fprintf(stderr, "note: %d users open the same URL (%s); if it shows one shared display (a "
          "VNC or Xpra session) their gestures land on one application and each sees the "
          "others' changes: give each user its own session (--url once per user)\n", same,
          a->nurls > 1 ? a->urls[0] : first);
}

int cli_run_load(const cli_run_args *a, const sc_scenario *s) {
  note_shared_urls(a, s);
  struct sigaction sa, old[NSTOP];
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESETHAND;
  for (size_t i = 0; i < NSTOP; i++) sigaction(k_stop_signals[i], &sa, &old[i]);
  live l = {isatty(2), a->quiet, 0, 0};
  grid gr;
  memset(&gr, 0, sizeof gr);
  int code = a->grid ? grid_begin(&gr, a) : EXIT_OK;
  if (code != EXIT_OK) {
    grid_end(&gr);
    for (size_t i = 0; i < NSTOP; i++) sigaction(k_stop_signals[i], &old[i], NULL);
    return code;
  }
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  bo.allow_remote = a->allow_remote;
  sc_load_options o = SC_LOAD_OPTIONS_INIT;
  o.browser_options = &bo;
  o.users = a->users;
  o.ramp = a->ramp;
  o.every_ms = a->every_ms;
  o.cycles = a->cycles;
  o.duration_ms = a->duration_ms;
  if (a->warmup >= 0) o.warmup_cycles = a->warmup;
  o.endpoints = a->grid ? gr.ep : a->nbrowsers ? a->browsers : NULL;
  o.users_per_browser = a->grid && !a->users_per_browser ? GRID_USERS_PER_BROWSER
                                                         : a->users_per_browser;
  o.url = a->url;
  o.urls = a->nurls > 1 ? a->urls : NULL;
  o.report_dir = a->report;
  o.pass_frames_bytes = a->frames;
  o.on_step = on_step;
  o.on_level = on_level;
  o.on_sample = on_sample;
  o.userdata = &l;
  o.cancel = &g_cancel;
  sc_load_result *r = NULL;
  int rc = sc_load_run(&r, s, &o);
  grid_end(&gr); /* sessions deleted before anything else can fail */
  if (l.tty && !l.quiet) fputs("\r\033[K", stderr);
  if (rc < 0) code = cli_err(rc == SC_ENOSPACE ? EXIT_USAGE : cli_run_exit(rc), "run: %s",
                             r && r->error ? r->error : sc_errmsg());
  if (r) {
    int wc = write_reports(a, r);
    if (code == EXIT_OK) code = wc; /* the table lists the warnings */
  }
  if (g_cancel && code == EXIT_OK) code = cli_err(EXIT_INFRA, "run: interrupted");
  if (!g_cancel && r && rc == 0 && code == EXIT_OK) code = user_errors(r);
  if (code == EXIT_OK && r && !r->passed) code = EXIT_FAIL;
  sc_load_result_free(r);
  for (size_t i = 0; i < NSTOP; i++) sigaction(k_stop_signals[i], &old[i], NULL);
  return code;
}
