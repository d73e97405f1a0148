/* Internal helpers of the report writers. Not installed. */
#ifndef SC_REPORT_INT_H
#define SC_REPORT_INT_H

#include <stdio.h>

#include "stepcheck/report.h"

/* Timing statistics of verified_ms over the PASSED results of one step id
 * (or of all results when step_id is NULL). Times in ms; 0 when no step
 * passed. per_min: passed steps per minute of the wall-clock span from the
 * first start to the last end among them. */
typedef struct sc__stats {
  size_t count, pass, fail;
  double avg, median, p95, max, per_min;
} sc__stats;

int sc__report_stats(sc__stats *out, const sc_run_result *r, const char *step_id);

/* Non-zero when result i is the first with its step id (summary order). */
int sc__report_first_of_id(const sc_run_result *r, size_t i);

/* Elapsed time of one result in ms (see report.h: verified_ms, or the time
 * until the failure verdict). */
double sc__report_elapsed(const sc_run_result *r, const sc_step_result *s);

/* Number of failed results; *is_void non-zero when the run is VOID. */
size_t sc__report_failed(const sc_run_result *r, int *is_void);

/* Application name for titles: the scenario's app, else "stepcheck". */
const char *sc__report_app(const sc_run_result *r);

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
