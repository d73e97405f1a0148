/* Internal helpers of the report writers. Not installed. */
#ifndef SC_REPORT_INT_H
#define SC_REPORT_INT_H

#include <stdio.h>

#include <jansson.h>

#include "stepcheck/report.h"
#include "scenario/model.h"
#include "run/result.h"

/* Timing statistics of verified_ms over the PASSED results of one step id
 * (or of all results when step_id is NULL) in every one of nruns runs (one
 * run, or every user of a load). Times in ms; 0 when no step passed.
 * per_min: passed steps per minute of the wall-clock span from the first
 * start to the last end among them. */
typedef struct sc__stats {
  size_t count, pass, fail;
  double avg, median, p95, max, per_min;
} sc__stats;

int sc__report_stats(sc__stats *out, const sc_run_result *const *runs, size_t nruns,
                     const char *step_id);

/* Step ids compare by text; NULL equals only NULL. */
int sc__report_same_id(const char *a, const char *b);

/* The distinct step ids of runs in order of first appearance (summary
 * order); *out is the caller's (sc__free), the ids are borrowed. */
int sc__report_ids(const char ***out, size_t *n, const sc_run_result *const *runs,
                   size_t nruns);

/* Number of results cut off by an infrastructure fault (sc_step_result.fault). */
size_t sc__report_faults(const sc_run_result *r);

/* The label of the row that carries a run's error when no step result
 * does (the fault came between steps, or before the first). */
extern const char sc__report_error_id[];

/* A run whose error no step result carries (an error between steps, a page
 * that did not open): 1 and *out filled as a faulted pseudo-result labelled
 * sc__report_error_id (writers tell it by that pointer), its reason the
 * run's error (borrowed), stamped when the run ended, elapsed 0; else 0.
 * The JTL and JUnit writers write it as a row and an <error>, so a file
 * never reads as all success, nor counts an error it does not show. */
int sc__report_error_row(sc_step_result *out, const sc_run_result *r);

/* Number of failed results; *is_void non-zero when the run is VOID. */
size_t sc__report_failed(const sc_run_result *r, int *is_void);

/* Application name for titles: the scenario's app, else "stepcheck". */
const char *sc__report_app(const sc_scenario *sc);

/* ---- how a step's rest was proven (rest.c); every writer reads the
 * 0.3.0 fields through these, so the reports agree */

/* The rest rule: s->rest, or "pairs" when NULL (a result made before 0.3.0). */
const char *sc__report_rest(const sc_step_result *s);
/* Non-zero when the step's rest was proven by the page's paint log. */
int sc__report_paint_log(const sc_step_result *s);
/* The paint times and count of a paint-log step; -1 (0 paints) for any
 * other, whatever its fields hold (calloc leaves 0, which is not a paint at
 * 0 ms). */
double sc__report_first_paint(const sc_step_result *s);
double sc__report_last_paint(const sc_step_result *s);
int sc__report_paints(const sc_step_result *s);
/* The step's first response: its first paint when known, else its first
 * change (-1 when neither); *is_paint (may be NULL) says which. The text
 * table's "first" column and the JTL Latency. */
double sc__report_first(const sc_step_result *s, int *is_paint);
/* "paint-log, 3 paints", "pairs" or "pairs (WHY)", XML-escaped (safe in
 * HTML, in text and in attribute values). */
void sc__report_put_rest(FILE *f, const sc_step_result *s);

/* ---- text tables (table_parts.c) */

/* "12.3" into buf, or "-" for "none" (negative). */
const char *sc__report_ms(char *buf, size_t n, double v);
/* A byte count for people: "812 B", "12.5 KiB", "3.2 MiB"; "no limit"
 * for LLONG_MAX (a budget of --frames all). buf: 64 bytes are enough. */
const char *sc__report_bytes(char *buf, size_t n, long long v);
/* Text on one line, control characters escaped (sc__escape_ctl). */
void sc__report_put_line(FILE *out, const char *s);
/* The verdict of a run without "RESULT: " or a newline: "PASS n/n steps
 * verified", "VOID no steps ran", "VOID m of n steps failed[ (why)]". */
void sc__report_verdict(FILE *out, const sc_run_result *r);
/* Width of the step column: the longest step id, at least "TOTAL". */
int sc__report_id_width(const sc_run_result *const *runs, size_t nruns);
/* The timing cells of a summary line, each "12.3" or "-" (no passed step,
 * no span). 320 bytes hold "%.1f" of any double (DBL_MAX has 309 digits). */
typedef struct sc__stat_cells {
  char avg[320], median[320], p95[320], max[320], per_min[320];
} sc__stat_cells;
void sc__report_stat_cells(sc__stat_cells *out, const sc__stats *st);
/* The per-step summary over runs: column header, one line per step id (in
 * order of first appearance), the TOTAL line. */
int sc__report_summary(FILE *out, const sc_run_result *const *runs, size_t nruns, int w);

/* ---- JSON (json.c); each returns a new reference, NULL when out of memory */

/* A string, null for NULL; bytes that are not valid UTF-8 become '?'. */
json_t *sc__report_jstr(const char *s);
/* A time in ms; "none" (negative) as null. */
json_t *sc__report_jms(double v);
/* The object sc_report_json writes for one run. */
json_t *sc__report_json_run(const sc_run_result *r);
/* Statistics per step id over runs (array), and over every step (object). */
json_t *sc__report_json_by_step(const sc_run_result *const *runs, size_t nruns);
json_t *sc__report_json_totals(const sc_run_result *const *runs, size_t nruns);
/* Write root (stolen; NULL = out of memory) to path atomically. */
int sc__report_json_write(const char *path, json_t *root);

/* ---- JUnit (junit.c) */

/* XML 1.0 text (xml.c); attr non-zero inside an attribute value. Never
 * malformed: characters XML 1.0 does not allow, and bytes that are not
 * UTF-8, are written as '?'. */
void sc__report_put_xml(FILE *f, const char *s, int attr);
/* One <testsuite name=NAME> of r's step results, every line prefixed by
 * indent. */
void sc__report_junit_suite(FILE *f, const char *indent, const sc_run_result *r,
                            const char *name);

/* ---- JTL (jtl.c) */

void sc__report_jtl_header(FILE *f);
/* One row: s of run r, threadName `thread`, grpThreads = allThreads = threads. */
void sc__report_jtl_row(FILE *f, const sc_run_result *r, const sc_step_result *s,
                        const char *thread, int threads);

/* ---- HTML (html_page.c, html.c, html_chart.c, html_src.c); text goes
 * through sc__report_put_xml(f, s, 1), which is HTML-safe too */

/* <!DOCTYPE html> to <body>: the title, the style sheet (no external CSS,
 * JavaScript, fonts or images). */
void sc__html_head(FILE *f, const char *title);
void sc__html_foot(FILE *f);
/* "<p class=verdict ...>RESULT: " ... "</p>" around a verdict line. */
void sc__html_verdict_open(FILE *f, int is_void);
void sc__html_verdict_close(FILE *f);
/* <p class=meta> lines: scenario, url. */
void sc__html_meta(FILE *f, const sc_scenario *sc, const char *url);
/* The summary table per step id and TOTAL over runs (sc__report_stats). */
int sc__html_summary(FILE *f, const sc_run_result *const *runs, size_t nruns);
/* One run's verdict table: what was kept of passed steps' frames, then a
 * row per step result (cycle, step, verdict, timeline, timings with the
 * paint times, captures, rest rule, scale reading, reason); under each
 * failure its before/after/diff images beside the reason, under each passed
 * step its kept frames as thumbnails (or why none were kept). Every image
 * links to its file; a listed file that is not there is named as missing.
 * Image URLs are relative to the page at `page`; `user` (its index, -1 for
 * the warm-up) tells rows and image blocks apart (ids "r-USER-I",
 * "fail-USER-I", "frames-USER-I"). */
int sc__html_steps(FILE *f, const char *page, const sc_run_result *r, int user);
/* Rows under step i of user `user`'s table, spanning `columns`
 * (html_images.c): a failure's images beside its reason (id "fail-U-I"); a
 * passed step's kept frames as thumbnails, or why it kept none (id
 * "frames-U-I"; nothing when it has neither). Image URLs relative to
 * `page`. */
int sc__html_shots_row(FILE *f, const char *page, const sc_step_result *s, int user, size_t i,
                       int columns);
int sc__html_frames_row(FILE *f, const char *page, const sc_run_result *r,
                        const sc_step_result *s, int user, size_t i, int columns);
/* What the run's frame budget kept, and from which step on it kept nothing
 * (nothing when the run kept no passed step's frames). */
void sc__html_frames_note(FILE *f, const sc_run_result *r, int user);
/* A step's timeline (html_timeline.c): inline SVG on the step's own time
 * scale, gesture, first paint to last paint, first change, and its end
 * (verified, failed, cut by a fault), each mark's time in a <title>; and
 * the key to its marks. */
void sc__html_timeline(FILE *f, const sc_run_result *r, const sc_step_result *s);
void sc__html_timeline_key(FILE *f);
/* Drift lines, where the locators found things, and the run's error. */
void sc__html_drift_error(FILE *f, const sc_run_result *r);
/* The chart: inline SVG of verified_ms per step id across cycles, a series
 * per step id, points per user; failed steps as red crosses in a lane
 * above the plot. */
int sc__html_chart(FILE *f, const sc_run_result *const *runs, size_t nruns);
/* The URL of `file` relative to the directory of the page at `page`,
 * percent-encoded (safe inside an attribute). */
int sc__html_src(FILE *f, const char *page, const char *file);

/* ---- load runs (load_common.c) */

/* The users of a load as the read-only set the helpers above take. */
static inline const sc_run_result *const *sc__report_users(const sc_load_result *r) {
  return (const sc_run_result *const *)r->users;
}

/* Verdict of a load run (see report.h), over every user. */
typedef struct sc__load_verdict {
  size_t results, failed; /* step results of every user, failed ones */
  int is_void;
  const char *why;        /* static; why a run with no failed step is VOID, else NULL */
} sc__load_verdict;

void sc__report_load_verdict(sc__load_verdict *out, const sc_load_result *r);

/* The verdict of a load run without "RESULT: " or a newline: "PASS n/n
 * steps verified by U users; last healthy level: ...", or "VOID ...". */
void sc__report_load_verdict_line(FILE *out, const sc_load_result *r);

/* The generator's peak samples: highest CPU, highest PSS, and the one with
 * the most users (among those the largest library PSS). */
typedef struct sc__load_peaks {
  const sc_gen_sample *cpu, *pss, *lib; /* borrowed from the result */
} sc__load_peaks;
/* 1 and *out filled when the run has samples, else 0. */
int sc__report_load_peaks(sc__load_peaks *out, const sc_load_result *r);

/* A file written to path.tmp and renamed to path on success. */
typedef struct sc__report_file {
  FILE *f;
  char *tmp;
  const char *path;
} sc__report_file;

/* Open path.tmp for writing. */
int sc__report_open(sc__report_file *rf, const char *path);
/* Close; when rc is 0 and every write succeeded, rename into place and
 * return 0, else remove the temporary file and return rc (or SC_EIO). */
int sc__report_close(sc__report_file *rf, int rc);

#endif
