/* A step's elapsed time and a user's name, as every report and the quality
 * bar count them (result.h). */
#include <stdio.h>
#include <string.h>

#include "result.h"
#include "scenario/model.h"

static int same_id(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

/* Judging deadline of the step a result belongs to, or -1 when unknown. */
static double step_timeout(const sc_run_result *r, const sc_step_result *s) {
  const sc_scenario *sc = r->scenario;
  if (!sc) return -1;
  const sc_step *steps = s->setup ? sc->setup : sc->steps;
  size_t n = s->setup ? sc->nsetup : sc->nsteps;
  for (size_t i = 0; i < n; i++)
    if (same_id(steps[i].id, s->step_id))
      return steps[i].timeout_ms > 0 ? steps[i].timeout_ms : sc->default_timeout_ms;
  return sc->default_timeout_ms > 0 ? sc->default_timeout_ms : -1;
}

double sc__result_elapsed(const sc_run_result *r, const sc_step_result *s) {
  if (s->passed && s->verified_ms >= 0) return s->verified_ms;
  /* cut off by a fault: what it ran, not the timeout it did not wait */
  if (s->fault) return s->ran_ms > 0 ? s->ran_ms : 0;
  double t = step_timeout(r, s);
  if (s->gesture_ms > t) t = s->gesture_ms;
  if (s->first_change_ms > t) t = s->first_change_ms;
  if (s->passed && s->verified_ms > t) t = s->verified_ms;
  return t > 0 ? t : 0;
}

const char *sc__result_user_name(char *buf, size_t n, const sc_run_result *u) {
  if (u->user_name) return u->user_name;
  snprintf(buf, n, "user-%d", u->user + 1);
  return buf;
}
