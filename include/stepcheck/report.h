/* stepcheck — reports of a run: text table, JSON, JUnit XML, JMeter JTL.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_REPORT_H
#define STEPCHECK_REPORT_H

#include <stdio.h>

#include "common.h"
#include "run.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Timing rules shared by every writer:
 *  - Timing statistics (avg, median, p95, max, steps/min) are computed over
 *    PASSED steps only: a failed step has no verified time and is never
 *    averaged in. The table says so.
 *  - A run that did not verify 100% of its steps is VOID (also when it
 *    stopped on an infrastructure error, or a drift check failed).
 *  - "Elapsed" of a step (JTL elapsed, JUnit time, steps/min span): for a
 *    passed step verified_ms; for a failed one the time until the failure
 *    verdict, taken as the step's judging timeout (scenario step timeout_ms,
 *    else the scenario default) but never less than gesture_ms or
 *    first_change_ms; without a scenario, the larger of those two.
 */

/**
 * Write the human-readable report: one line per step result (cycle, step,
 * PASS/FAIL, gesture, first change, verified in ms with one decimal or "-",
 * captures, reason), a summary per step id and overall (count, pass, fail,
 * avg, median, p95 (nearest rank), max of verified_ms over passed steps, and
 * passed steps per minute of wall time), then one final line
 * "RESULT: PASS n/n steps verified" or "RESULT: VOID m of n steps failed".
 * @param out  stream to write to (borrowed; not closed).
 * @param r    the run (borrowed).
 * @return 0, SC_EINVAL for NULL arguments, SC_EIO when writing fails.
 */
SC_EXTERN int sc_report_table(FILE *out, const sc_run_result *r);

/**
 * Write the run as JSON: scenario (app, path, url), cycles, passed/void,
 * error, every step result with all its fields (times in ms; -1 "none"
 * written as null; started_unix_ms as integer epoch ms), drift, totals and
 * the timing statistics of the table. Written to path.tmp, then renamed.
 * @param path  file to write (borrowed).
 * @param r     the run (borrowed).
 * @return 0, SC_EINVAL, SC_ENOMEM, SC_EIO; sc_errmsg() names the path.
 */
SC_EXTERN int sc_report_json(const char *path, const sc_run_result *r);

/**
 * Write JUnit XML: one <testsuite name=APP>, one <testcase classname="cycle N"
 * (or "setup") name=STEP time=SECONDS> per step result; a failed step carries
 * <failure message=REASON>. All text is XML-escaped. Written atomically.
 * @return 0, SC_EINVAL, SC_EIO; sc_errmsg() names the path.
 */
SC_EXTERN int sc_report_junit(const char *path, const sc_run_result *r);

/**
 * Write a JMeter JTL (CSV) readable by JMeter's dashboard generator
 * (jmeter -g FILE -o DIR): header
 * timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,
 * success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,
 * IdleTime,Connect; one row per step result: timeStamp = started_unix_ms
 * (epoch ms), elapsed as described above, label = step id, 200/OK or 500,
 * success true/false, failureMessage = reason of a failed step, threadName
 * "stepcheck 1-1", URL = scenario url, Latency = first_change_ms (0 if none).
 * Fields are quoted as RFC 4180 says. Written atomically.
 * @return 0, SC_EINVAL, SC_EIO; sc_errmsg() names the path.
 */
SC_EXTERN int sc_report_jtl(const char *path, const sc_run_result *r);

#ifdef __cplusplus
}
#endif
#endif
