/* A load run as JSON: the warm-up and every user as the single-run object,
 * the levels, the statistics over all users, the generator's samples and
 * the verdict. */
#include <math.h>

#include "core/core.h"
#include "report/report_int.h"
#include "run/quality.h"

/* Epoch ms as an integer; unknown (0) as null. */
static json_t *epoch(double unix_ms) {
  return unix_ms > 0 ? json_integer((json_int_t)llround(unix_ms)) : json_null();
}

/* Append v (stolen) to *arr; on failure *arr is dropped (NULL). */
static void push(json_t **arr, json_t *v) {
  if (!*arr) {
    json_decref(v);
    return;
  }
  if (json_array_append_new(*arr, v) != 0) {
    json_decref(*arr);
    *arr = NULL;
  }
}

/* Who ran and when, then the object sc_report_json writes for the run. */
static json_t *user_json(const sc_run_result *u) {
  json_t *run = sc__report_json_run(u);
  if (!run) return NULL;
  json_t *j = json_pack("{s:i, s:o, s:o, s:o}", "user", u->user, "user_name",
                        sc__report_jstr(u->user_name), "started_unix_ms",
                        epoch(u->started_unix_ms), "ended_unix_ms", epoch(u->ended_unix_ms));
  if (j && json_object_update(j, run) != 0) {
    json_decref(j);
    j = NULL;
  }
  json_decref(run);
  return j;
}

static json_t *level_json(const sc_level *lv) {
  return json_pack("{s:i, s:i, s:f, s:f, s:i, s:i, s:b, s:o}",
                   "index", lv->index,
                   "users", lv->users,
                   "start_ms", lv->start_ms,
                   "end_ms", lv->end_ms,
                   "steps_passed", lv->steps_passed,
                   "steps_failed", lv->steps_failed,
                   "healthy", lv->healthy != 0,
                   "reason", sc__report_jstr(lv->reason));
}

static json_t *sample_json(const sc_gen_sample *s) {
  return json_pack("{s:f, s:f, s:f, s:f, s:f, s:i}",
                   "t_ms", s->t_ms,
                   "cpu_pct", s->cpu_pct,
                   "lib_cpu_pct", s->lib_cpu_pct,
                   "pss_mib", s->pss_mib,
                   "lib_pss_mib", s->lib_pss_mib,
                   "users", s->users);
}

/* The bar's constants and what the warm-up made of them; null without one. */
static json_t *bar_json(const sc_run_result *warmup) {
  if (!warmup) return json_null();
  double cycle = sc__quality_cycle_ms(warmup);
  return json_pack("{s:f, s:f, s:f, s:o}",
                   "factor", SC__BAR_FACTOR,
                   "floor_ms", SC__BAR_FLOOR_MS,
                   "stall_factor", SC__BAR_STALL_FACTOR,
                   "warmup_cycle_ms", cycle > 0 ? json_real(cycle) : json_null());
}

static json_t *load_json(const sc_load_result *r) {
  json_t *levels = json_array(), *users = json_array(), *samples = json_array();
  json_t *warnings = json_array();
  for (size_t i = 0; i < r->nlevels; i++) push(&levels, level_json(r->levels[i]));
  for (size_t i = 0; i < r->nusers; i++) push(&users, user_json(r->users[i]));
  for (size_t i = 0; i < r->nsamples; i++) push(&samples, sample_json(r->samples[i]));
  for (size_t i = 0; i < r->nwarnings; i++) push(&warnings, sc__report_jstr(r->warnings[i]));
  sc__load_verdict v;
  sc__report_load_verdict(&v, r);
  const sc_scenario *sc = r->scenario;
  const sc_run_result *const *all = sc__report_users(r);
  /* json_pack takes every "o" it was given, also when it fails */
  return json_pack("{s:o, s:o, s:o, s:s, s:b, s:o, s:o, s:I, s:I, s:i, s:o, s:o, s:i, s:f, "
                   "s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                   "app", sc__report_jstr(sc__report_app(sc)),
                   "scenario", sc__report_jstr(sc ? sc->path : NULL),
                   "url", sc__report_jstr(r->url),
                   "result", v.is_void ? "VOID" : "PASS",
                   "passed", !v.is_void,
                   "void_reason", sc__report_jstr(v.why),
                   "error", sc__report_jstr(r->error),
                   "steps_passed", (json_int_t)(v.results - v.failed),
                   "steps_failed", (json_int_t)v.failed,
                   "last_healthy_users", r->last_healthy_users,
                   "started_unix_ms", epoch(r->started_unix_ms),
                   "ended_unix_ms", epoch(r->ended_unix_ms),
                   "cores", r->cores,
                   "cpu_warn_pct", r->cpu_warn_pct,
                   "quality_bar", bar_json(r->warmup),
                   "levels", levels,
                   "by_step", sc__report_json_by_step(all, r->nusers),
                   "totals", sc__report_json_totals(all, r->nusers),
                   "warmup", r->warmup ? user_json(r->warmup) : json_null(),
                   "users", users,
                   "samples", samples,
                   "warnings", warnings);
}

SC_EXTERN int sc_report_load_json(const char *path, const sc_load_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report load json: NULL argument");
  return sc__report_json_write(path, load_json(r));
}
