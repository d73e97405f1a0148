/* stepcheck CLI: shared helpers. Exit codes: 0 ok, 1 a step failed,
 * 2 usage or configuration error, 3 browser or infrastructure error. */
#ifndef SC_CLI_H
#define SC_CLI_H

#include "stepcheck.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2, EXIT_INFRA = 3 };

/* Print "stepcheck: <fmt>" as one line on stderr and return code. */
int cli_err(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as one line safe for the terminal (sc_escape_ctl) in buf; returns buf.
 * For everything printed that came from outside: paths, names, reasons. */
#define CLI_SHOWN_MAX 4200
const char *cli_shown(char *buf, size_t n, const char *s);
/* Map a library error to an exit code (2 for input errors, 3 otherwise) and print it. */
int cli_lib_err(int rc, const char *what);
/* An error from launching, attaching to or talking to a browser: 3, also
 * for data the browser sent (SC_ETOOBIG, SC_EFORMAT, SC_EPROTO, a PNG of the
 * wrong size); 2 only for SC_EINVAL (an argument refused before the browser
 * was asked). Prints it. */
int cli_browser_err(int rc, const char *what);
/* The exit code of a run or inspect that stopped on rc (not a usage error). */
int cli_run_exit(int rc);

/* An input the user named (scenario, image, glyph set) could not be used:
 * always a usage/configuration error (2). */
int cli_input_err(int rc, const char *what);

/* Parsers: 0 on success, else print a one-line error naming opt and return -1. */
int cli_parse_rect(sc_rect *r, const char *opt, const char *s);
int cli_parse_keep(long *rgb, int *tol, const char *opt, const char *s);
int cli_parse_size(int *w, int *h, const char *opt, const char *s);
int cli_parse_int(int *v, const char *opt, const char *s, int min, int max);
int cli_parse_rgb(uint32_t *rgb, const char *opt, const char *s);
/* A byte count: digits with an optional K, M or G (KiB, MiB, GiB), "all"
 * (LLONG_MAX: no limit) or "failures" (0). */
int cli_parse_bytes(long long *v, const char *opt, const char *s);
/* Seconds (fractions allowed, >= min_s) into milliseconds. */
int cli_parse_seconds(double *ms, const char *opt, const char *s, double min_s);

/* What `stepcheck run` was asked for (cmd_run.c parses; cmd_load.c runs
 * many users). */
#define CLI_MAX_BROWSERS 64
#define CLI_MAX_URLS 1024
typedef struct cli_run_args {
  const char *path, *url, *report, *json, *junit, *jtl;
  const char *browsers[CLI_MAX_BROWSERS + 1]; /* NULL-terminated */
  int nbrowsers;
  const char *urls[CLI_MAX_URLS + 1]; /* every --url, NULL-terminated; url is the first */
  int nurls, users_given;
  const char *grid;
  int cycles, users, ramp, users_per_browser, warmup, quiet, load, allow_remote;
  int rest; /* --rest: 0 the scenario's, 1 paint-log, 2 pairs */
  const char *canvas; /* --canvas: the guest canvas's CSS selector */
  unsigned allow_schemes; /* URL schemes --url may use (SC_URL_*) */
  double every_ms, duration_ms;
  long long frames; /* --frames: passed steps' frames budget in bytes (0 failures only) */
  int frames_guest; /* --frames guest: also the whole guest around every step */
} cli_run_args;
/* Run many users (--users, several --browser, --grid): the load path. */
int cli_run_load(const cli_run_args *a, const sc_scenario *s);
/* DIR/NAME, a report file in --report DIR, into buf; NULL (and *code set
 * to the exit code of the error printed) when it does not fit. */
#define CLI_REPORT_PATH_MAX 4200
const char *cli_report_file(char *buf, size_t n, const char *dir, const char *name, int *code);
/* mkdir -p; 0 or -1 with errno. */
int cli_make_dirs(const char *path);

/* URL schemes (docs/security.md): --allow-url-scheme VALUE adds its bit to
 * *allow (0, or -1 with an error printed); cli_check_url refuses a URL the
 * policy does not allow (0, or -1 with "--url: ..." printed, exit 2). */
int cli_allow_scheme(unsigned *allow, const char *opt, const char *v);
int cli_check_url(const char *url, unsigned allow);

/* Outputs, checked up front (before any browser starts; docs/security.md):
 * path must be a regular file or a new file in an existing folder, dir an
 * existing folder. 0, or -1 with "CMD: OPT PATH: why" printed (exit 2). */
int cli_check_output(const char *cmd, const char *opt, const char *path);
int cli_check_output_dir(const char *cmd, const char *opt, const char *dir);

/* Option value at argv[*i + 1], advancing *i; NULL (with an error printed) if missing. */
const char *cli_value(int argc, char **argv, int *i);

/* help.c: a subcommand's help page on stdout (EXIT_OK), or a usage error. */
int cli_help(const char *cmd);
/* Non-zero when argv[1..] holds --help or -h. */
int cli_wants_help(int argc, char **argv);

int cmd_capture(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_cut(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_glyphs(int argc, char **argv);
int cmd_ocr(int argc, char **argv);
int cmd_read_scale(int argc, char **argv);
int cmd_scale(int argc, char **argv);

#endif
