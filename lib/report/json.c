/* The run as JSON (jansson, so allocations go through the library's hook),
 * and the pieces the load report builds on. */
#include <math.h>

#include <jansson.h>

#include "core/core.h"
#include "report/report_int.h"
#include "core/json.h"

/* A string, null for NULL; bytes that are not valid UTF-8 become '?'. */
json_t *sc__report_jstr(const char *s) {
  if (!s) return json_null();
  json_t *j = json_string(s);
  if (j) return j;
  char *copy = sc__strdup(s);
  if (!copy) return NULL;
  for (char *p = copy; *p; p++)
    if ((unsigned char)*p >= 0x80) *p = '?';
  j = json_string(copy);
  sc__free(copy);
  return j;
}

/* A time in ms; "none" (negative) as null. */
json_t *sc__report_jms(double v) { return v < 0 ? json_null() : json_real(v); }

static json_t *step_fields(const sc_run_result *r, const sc_step_result *s);

/* A step's object; "frames_skipped": true only on a passed step whose
 * frames the run's budget left out (absent otherwise, as before 0.4.0). */
static json_t *step_json(const sc_run_result *r, const sc_step_result *s) {
  json_t *o = step_fields(r, s);
  if (o && s->frames_skipped && json_object_set_new(o, "frames_skipped", json_true()) != 0) {
    json_decref(o);
    return NULL;
  }
  return o;
}

static json_t *step_fields(const sc_run_result *r, const sc_step_result *s) {
  json_t *arts = json_array();
  for (size_t i = 0; arts && i < s->nartifacts; i++)
    if (json_array_append_new(arts, sc__report_jstr(s->artifacts[i])) != 0) {
      json_decref(arts);
      arts = NULL;
    }
  /* the 0.3.0 fields as rest.c reads them: paint times only on the paint log */
  return json_pack("{s:o, s:i, s:b, s:b, s:o, s:I, s:o, s:o, s:o, s:o, s:i, s:o, s:o, "
                   "s:o, s:o, s:o, s:o, s:i, s:o, s:o, s:o, s:b, s:o}",
                   "step_id", sc__report_jstr(s->step_id),
                   "cycle", s->cycle,
                   "setup", s->setup != 0,
                   "passed", s->passed != 0,
                   "reason", sc__report_jstr(s->reason),
                   "started_unix_ms", (json_int_t)llround(s->started_unix_ms),
                   "gesture_ms", sc__report_jms(s->gesture_ms),
                   "first_change_ms", sc__report_jms(s->first_change_ms),
                   "verified_ms", sc__report_jms(s->verified_ms),
                   "elapsed_ms", json_real(sc__result_elapsed(r, s)),
                   "captures", s->captures,
                   "capture_ms", sc__report_jms(s->capture_ms),
                   "idle_ms", sc__report_jms(s->idle_ms),
                   "rest", sc__report_jstr(sc__report_rest(s)),
                   "rest_why", sc__report_jstr(s->rest_why),
                   "first_paint_ms", sc__report_jms(sc__report_first_paint(s)),
                   "last_paint_ms", sc__report_jms(sc__report_last_paint(s)),
                   "paints", sc__report_paints(s),
                   "scale_factor", json_real(s->scale_factor),
                   "scale_text", sc__report_jstr(s->scale_text),
                   "artifacts", arts,
                   "fault", s->fault != 0,
                   "proven_ms", sc__report_jms(s->passed ? s->proven_ms : -1));
}

static json_t *stats_json(const sc_run_result *const *runs, size_t nruns, const char *id) {
  sc__stats st;
  if (sc__report_stats(&st, runs, nruns, id) != 0) return NULL;
  int none = st.pass == 0;
  return json_pack("{s:o, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o}",
                   "step_id", id ? sc__report_jstr(id) : json_null(),
                   "count", (json_int_t)st.count,
                   "passed", (json_int_t)st.pass,
                   "failed", (json_int_t)st.fail,
                   "avg_ms", none ? json_null() : json_real(st.avg),
                   "median_ms", none ? json_null() : json_real(st.median),
                   "p95_ms", none ? json_null() : json_real(st.p95),
                   "max_ms", none ? json_null() : json_real(st.max),
                   "steps_per_min", st.per_min > 0 ? json_real(st.per_min) : json_null());
}

json_t *sc__report_json_by_step(const sc_run_result *const *runs, size_t nruns) {
  const char **ids;
  size_t n;
  if (sc__report_ids(&ids, &n, runs, nruns) != 0) return NULL;
  json_t *by_step = json_array();
  for (size_t k = 0; by_step && k < n; k++)
    if (json_array_append_new(by_step, stats_json(runs, nruns, ids[k])) != 0) {
      json_decref(by_step);
      by_step = NULL;
    }
  sc__free(ids);
  return by_step;
}

json_t *sc__report_json_totals(const sc_run_result *const *runs, size_t nruns) {
  json_t *totals = stats_json(runs, nruns, NULL);
  if (totals) json_object_del(totals, "step_id");
  return totals;
}

/* Where the user's locators found their points and regions; NULL (and no
 * key in the report) when the scenario has none. */
static json_t *located_json(const sc_run_result *r) {
  if (!r->nlocated) return NULL;
  json_t *a = json_array();
  for (size_t i = 0; a && i < r->nlocated; i++) {
    const sc_located *l = r->located[i];
    json_t *o = l->is_region
                    ? json_pack("{s:o, s:s, s:i, s:i, s:i, s:i, s:f, s:i}", "name",
                                sc__report_jstr(l->name), "kind", "region", "x", l->r.x, "y",
                                l->r.y, "w", l->r.w, "h", l->r.h, "score", l->score, "cycle",
                                l->cycle)
                    : json_pack("{s:o, s:s, s:f, s:f, s:f, s:i}", "name", sc__report_jstr(l->name),
                                "kind", "point", "x", l->p.x, "y", l->p.y, "score", l->score,
                                "cycle", l->cycle);
    if (!o || json_array_append_new(a, o) != 0) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

json_t *sc__report_json_run(const sc_run_result *r) {
  const sc_run_result *const *one = &r;
  json_t *results = json_array(), *drift = json_array();
  json_t *by_step = sc__report_json_by_step(one, 1);
  int ok = results && drift && by_step;
  for (size_t i = 0; ok && i < r->nresults; i++)
    ok = json_array_append_new(results, step_json(r, r->results[i])) == 0;
  for (size_t i = 0; ok && i < r->ndrift; i++)
    ok = json_array_append_new(drift, json_pack("{s:i, s:o, s:I}", "cycle", r->drift[i]->cycle,
                                                "region", sc__report_jstr(r->drift[i]->region),
                                                "pixels", (json_int_t)r->drift[i]->pixels)) == 0;
  if (!ok) {
    json_decref(results);
    json_decref(drift);
    json_decref(by_step);
    return NULL;
  }
  int is_void;
  size_t failed = sc__report_failed(r, &is_void);
  const sc_scenario *sc = r->scenario;
  json_t *located = located_json(r);
  if (r->nlocated && !located) {
    json_decref(results);
    json_decref(drift);
    json_decref(by_step);
    return NULL;
  }
  json_t *run = json_pack("{s:o, s:o, s:o, s:i, s:s, s:b, s:o, s:I, s:I, s:o, s:o, s:o, s:o}",
                   "app", sc__report_jstr(sc__report_app(r->scenario)),
                   "scenario", sc__report_jstr(sc ? sc->path : NULL),
                   "url", sc__report_jstr(r->url),
                   "cycles", r->cycles,
                   "result", is_void ? "VOID" : "PASS",
                   "passed", !is_void,
                   "error", sc__report_jstr(r->error),
                   "steps_passed", (json_int_t)(r->nresults - failed),
                   "steps_failed", (json_int_t)failed,
                   "results", results,
                   "drift", drift,
                   "by_step", by_step,
                   "totals", sc__report_json_totals(one, 1));
  if (run && r->ready_ms > 0 &&
      json_object_set_new(run, "ready_ms", sc__report_jms(r->ready_ms)) != 0) {
    json_decref(run);
    json_decref(located);
    return NULL;
  }
  /* what was kept of passed steps' frames, when the run kept any */
  if (run && r->pass_frames_budget > 0 &&
      json_object_set_new(run, "pass_frames",
                          json_pack("{s:I, s:I}", "budget_bytes",
                                    (json_int_t)r->pass_frames_budget, "written_bytes",
                                    (json_int_t)r->pass_frames_written)) != 0) {
    json_decref(run);
    json_decref(located);
    return NULL;
  }
  if (run && located && json_object_set_new(run, "located", located) != 0) {
    json_decref(run);
    return NULL;
  }
  if (!run) json_decref(located);
  return run;
}

int sc__report_json_write(const char *path, json_t *root) {
  if (!root) return sc__err(SC_ENOMEM, "%s: out of memory building the report", path);
  /* dump to memory first: a failure there is memory, one later is I/O */
  char *text = sc__json_dump(root, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
  json_decref(root);
  if (!text) return sc__err(SC_ENOMEM, "%s: out of memory formatting the report", path);
  sc__report_file rf;
  int rc = sc__report_open(&rf, path);
  if (!rc) {
    fputs(text, rf.f);
    fputc('\n', rf.f);
    rc = sc__report_close(&rf, 0);
  }
  sc__free(text);
  return rc;
}

SC_EXTERN int sc_report_json(const char *path, const sc_run_result *r) {
  if (!path || !r) return sc__err(SC_EINVAL, "report json: NULL argument");
  return sc__report_json_write(path, sc__report_json_run(r));
}
