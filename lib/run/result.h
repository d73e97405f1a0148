/* What a run result says beyond its fields, shared by the run layer (the
 * quality bar) and the reports above it: one definition of a step's
 * elapsed time and of a user's name. */
#ifndef SC_RUN_RESULT_H
#define SC_RUN_RESULT_H

#include <stddef.h>

#include "stepcheck/run.h"

/* Elapsed time of one step result in ms (docs/design.md): verified_ms when
 * it passed; for a step cut off by a fault, the time it ran; else the time
 * until the failure verdict (the step's timeout, or later). */
double sc__result_elapsed(const sc_run_result *r, const sc_step_result *s);

/* The user's name, or "user-N" (its index + 1) in buf when it has none. */
const char *sc__result_user_name(char *buf, size_t n, const sc_run_result *u);

#endif
