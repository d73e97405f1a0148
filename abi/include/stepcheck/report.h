/* stepcheck — reports of a run or of a load run: text table, JSON, JUnit
 * XML, JMeter JTL, HTML.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_REPORT_H
#define STEPCHECK_REPORT_H

#include <stdio.h>

#include "common.h"
#include "load.h"
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

/**
 * Write one self-contained HTML page of the run (no script, nothing
 * fetched from the network): the verdict line of sc_report_table, a chart
 * (inline SVG) of verified_ms per step id across cycles with failed steps
 * marked, the summary per step id and TOTAL (the table's numbers), and the
 * verdict table: one row per step result with its timings (gesture, first
 * change, verified, idle, captures, capture), its scale reading and its
 * reason; under each failure its images (the step's `artifacts`) beside
 * the reason. Images are not copied or inlined: each <img> refers to its
 * file by a URL relative to the page's directory, so keep them beside the
 * page (the runner writes them into the report directory). All text is
 * HTML-escaped. Written to path.tmp, then renamed.
 * @param path  file to write (borrowed).
 * @param r     the run (borrowed).
 * @return 0, SC_EINVAL, SC_ENOMEM, SC_EIO; sc_errmsg() names the path.
 */
SC_EXTERN int sc_report_html(const char *path, const sc_run_result *r);

/*
 * Load runs (sc_load_result): the same timing rules, with statistics over
 * every user's results together. The run is VOID unless every step of every
 * user was verified, no user and not the run stopped on an error, and the
 * warm-up verified all of its steps. The warm-up is reported in the table
 * and the JSON only; JUnit and JTL hold the users.
 */

/**
 * Write the human-readable report of a load run: one line per ramp level
 * (users, time span, steps passed/failed, healthy or DEGRADED with the
 * reason); the summary per step id over all users (as sc_report_table's);
 * one line per user (name, steps passed/failed, slowest verified step,
 * error); the warm-up's slowest verified time per step with the bar it sets
 * (and the stall limit); the generator's samples (peak CPU %, peak PSS MiB,
 * the library's PSS per user); warnings; then one final line
 * "RESULT: PASS n/n steps verified by U users; last healthy level: K users"
 * or "RESULT: VOID m of n steps failed over U users; last healthy level: ...".
 * @param out  stream to write to (borrowed; not closed).
 * @param r    the load run (borrowed).
 * @return 0, SC_EINVAL for NULL arguments, SC_ENOMEM, SC_EIO when writing fails.
 */
SC_EXTERN int sc_report_load_table(FILE *out, const sc_load_result *r);

/**
 * Write a load run as JSON: app, scenario, url, result/passed, error, steps
 * passed/failed over the users, last_healthy_users, start/end (epoch ms),
 * cores, cpu_warn_pct, the quality bar's constants and the warm-up's cycle
 * time, levels (all sc_level fields), by_step and totals over all users (as
 * in sc_report_json), the warm-up and every user (each the object
 * sc_report_json writes for one run, preceded by user, user_name,
 * started_unix_ms and ended_unix_ms), samples (all sc_gen_sample fields)
 * and warnings. Written to path.tmp, then renamed.
 * @param path  file to write (borrowed).
 * @param r     the load run (borrowed).
 * @return 0, SC_EINVAL, SC_ENOMEM, SC_EIO; sc_errmsg() names the path.
 */
SC_EXTERN int sc_report_load_json(const char *path, const sc_load_result *r);

/**
 * Write JUnit XML of a load run: <testsuites name=APP> holding one
 * <testsuite name=USER_NAME> per user, each with the testcases of
 * sc_report_junit; a user's infrastructure error is in its suite's
 * <system-err> and counted in errors. Written atomically.
 * @return 0, SC_EINVAL, SC_EIO; sc_errmsg() names the path.
 */
SC_EXTERN int sc_report_load_junit(const char *path, const sc_load_result *r);

/**
 * Write a JMeter JTL of a load run: the columns of sc_report_jtl, the rows
 * of every user sorted by timeStamp (ties: user order, then result order);
 * threadName "stepcheck 1-N" for the user with index N-1 (JMeter groups
 * threads by the name before " 1-N", so all users are one thread group);
 * grpThreads = allThreads = users running at the row's timeStamp (a user
 * runs from its started_unix_ms to its ended_unix_ms; without an end, to
 * the end of the run), so the dashboard's "Active Threads Over Time" shows
 * the ramp. Written atomically.
 * @return 0, SC_EINVAL, SC_ENOMEM, SC_EIO; sc_errmsg() names the path.
 */
SC_EXTERN int sc_report_load_jtl(const char *path, const sc_load_result *r);

/**
 * Write the HTML page of a load run (as sc_report_html's): the verdict line
 * of sc_report_load_table, the chart over every user (each user's points
 * side by side within a cycle), the summary over every user, the levels,
 * one verdict table per user with its failures' images, the warm-up's
 * table, the generator's peaks and the warnings. Written atomically.
 * @return 0, SC_EINVAL, SC_ENOMEM, SC_EIO; sc_errmsg() names the path.
 */
SC_EXTERN int sc_report_load_html(const char *path, const sc_load_result *r);

#ifdef __cplusplus
}
#endif
#endif
