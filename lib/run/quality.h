/* The quality bar of a load run: every user measured against a one-user
 * warm-up on the same generator. Not installed. */
#ifndef SC_RUN_QUALITY_H
#define SC_RUN_QUALITY_H

#include <stddef.h>

#include "stepcheck/load.h"

/* A passed step may take this many times the warm-up's slowest verified
 * time of the same step id ... */
#define SC__BAR_FACTOR 3.0
/* ... but never less than this (a 20 ms step may take 750 ms). */
#define SC__BAR_FLOOR_MS 750.0
/* A user may go this many warm-up cycle times without completing a cycle. */
#define SC__BAR_STALL_FACTOR 6.0

/* Slowest verified_ms of a passed result with this step id in the warm-up,
 * or -1 when the warm-up verified none (or warmup is NULL). */
double sc__quality_warm_ms(const sc_run_result *warmup, const char *step_id);

/* The bar of one step: max(SC__BAR_FACTOR x sc__quality_warm_ms,
 * SC__BAR_FLOOR_MS); the floor alone for a step the warm-up never verified. */
double sc__quality_step_bar(const sc_run_result *warmup, const char *step_id);

/* The warm-up's cycle time: its longest complete cycle, from the start of
 * the cycle's first step to the end of its last (end = start + elapsed as
 * the reports define it). 0 when there is no warm-up or no complete cycle
 * (a cycle is complete when it has a result for every step of the scenario;
 * without a scenario, any cycle with results), or when memory runs out. */
double sc__quality_cycle_ms(const sc_run_result *warmup);

/*
 * Judge every level of a load run against the bar.
 *
 * Levels are [start_ms, end_ms) since load_start_unix_ms. A step result
 * belongs to the level in which it ended (results ending before the first
 * level count in the first, at or after the last level's end in the last).
 * A level is degraded by:
 *  - a failed step (setup steps included) that ended in it;
 *  - a passed step slower than sc__quality_step_bar (equal is fine);
 *  - a user's infrastructure error (r->error), in the level where the user
 *    ended (ended_unix_ms; the last level when that is unknown);
 *  - a user going more than SC__BAR_STALL_FACTOR x sc__quality_cycle_ms
 *    without completing a cycle: the gaps are user start -> first
 *    completion, completion -> completion, last completion -> the user's
 *    end (or the last level's end if it ends later or is unknown); every
 *    level overlapping the part of a gap past the limit is degraded.
 * With no warm-up (warmup NULL) there is no bar: only failures and errors
 * degrade a level. Likewise there is no stall limit when the warm-up has no
 * complete cycle.
 *
 * Fills each level's steps_passed, steps_failed, healthy and reason (the
 * earliest of its reasons, one line naming the user, the step and the
 * numbers, sc__ allocated; an old reason is freed first; NULL when healthy),
 * and *last_healthy_users: the users of the last healthy level before the
 * first degraded one (0 when level 0 is degraded or there are no levels).
 * Everything is borrowed. Returns 0, SC_EINVAL for NULL arguments,
 * SC_ENOMEM (the levels then hold what was judged so far).
 */
int sc__quality_judge(int *last_healthy_users, sc_level *const *levels, size_t nlevels,
                      double load_start_unix_ms, const sc_run_result *warmup,
                      sc_run_result *const *users, size_t nusers);

#endif
