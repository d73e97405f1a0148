/* sc_scenario_load / _parse / _validate: JSON (jansson) -> checks -> model. */
#include <stdlib.h>
#include <string.h>

#include "scenario/scn.h"

/* Scenario files are a few KiB; this only stops a wrong path from eating RAM. */
#define SC__SCENARIO_MAX (16u << 20)

/* The last component of a JSON pointer, unescaped, into buf. */
static const char *last_key(const char *path, char *buf, size_t cap) {
  const char *p = strrchr(path, '/');
  p = p ? p + 1 : path;
  size_t n = 0;
  for (; *p && n + 1 < cap; p++) {
    if (p[0] == '~' && (p[1] == '0' || p[1] == '1')) {
      buf[n++] = p[1] == '0' ? '~' : '/';
      p++;
    } else {
      buf[n++] = *p;
    }
  }
  buf[n] = '\0';
  return buf;
}

static void syntax_problem(sc__scn *c, const json_error_t *je, const char *text, size_t len) {
  if (json_error_code(je) == json_error_duplicate_key &&
      sc__jsonpos_build(&c->ix, text, len) != SC_ENOMEM) {
    const char *path;
    sc__jpos at, first;
    if (sc__jsonpos_duplicate(c->ix, &path, &at, &first)) {
      char key[256];
      sc__scn_problem(c, at, "duplicate key \"%s\" (first at %d:%d)", last_key(path, key, sizeof key),
                      first.line, first.col);
      return;
    }
  }
  if (!c->ix && json_error_code(je) == json_error_duplicate_key) {
    c->oom = 1;
    return;
  }
  /* jansson counts columns like we do, but says 0 at the start of a line */
  sc__jpos at = {je->line > 0 ? je->line : 1, je->column > 0 ? je->column : 1};
  sc__scn_problem(c, at, "invalid JSON: %s", je->text);
}

/* Check text; problems go to c->pv, the model to c->s. */
static void check(sc__scn *c, const char *text, size_t len) {
  json_error_t je;
  memset(&je, 0, sizeof je);
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  if (!root) {
    /* jansson leaves je untouched when its first allocation fails */
    if (json_error_code(&je) == json_error_out_of_memory || je.text[0] == '\0') c->oom = 1;
    else syntax_problem(c, &je, text, len);
    return;
  }
  if (sc__jsonpos_build(&c->ix, text, len) == SC_ENOMEM) {
    c->oom = 1;
  } else if (!json_is_object(root)) {
    sc__scn_problem(c, SC__AT_VAL(c), "a scenario must be a JSON object");
  } else if (!(c->s = sc__calloc(1, sizeof *c->s))) {
    c->oom = 1;
  } else {
    sc_scenario *s = c->s;
    s->path = sc__scn_dup(c, c->name);
    s->wheel_delta = 100;
    s->notch_spacing_ms = 250;
    s->double_click_ms = 500;
    s->default_timeout_ms = 8000;
    s->default_settle_ms = 300;
    s->drift = SC_DRIFT_WARN;
    s->ready_quiet_ms = 1000;
    s->rest_quiet_ms = 150;
    s->response_ms = 1000;
    s->rest_capture_ms = 50;
    s->self_check_first = 1;
    s->self_check_every = 16;
    c->threshold = 0.1;
    c->max_pixels = 0;
    sc__scn_top(c, root);
    sc__scn_steps(c, root);
    sc__scn_locators(c, root);
  }
  json_decref(root);
}

static int by_position(const void *a, const void *b) {
  const sc__problem *x = a, *y = b;
  if (x->at.line != y->at.line) return x->at.line < y->at.line ? -1 : 1;
  if (x->at.col != y->at.col) return x->at.col < y->at.col ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Run the check; 0 (problems, if any, sorted by position in c->pv) or SC_ENOMEM. */
static int run(sc__scn *c, const char *text, size_t len, const char *name) {
  memset(c, 0, sizeof *c);
  c->name = name;
  const char *slash = strrchr(name, '/');
  c->dir = sc__strndup(name, slash ? (size_t)(slash - name) + 1 : 0);
  if (!c->dir) return sc__err(SC_ENOMEM, "%s: out of memory", name);
  c->suggest_budget = SC__SUGGEST_BUDGET;
  check(c, text, len);
  if (c->oom) return sc__err(SC_ENOMEM, "%s: out of memory", name);
  if (c->pn > 1) qsort(c->pv, c->pn, sizeof *c->pv, by_position);
  return 0;
}

static void done(sc__scn *c) {
  for (size_t i = 0; i < c->pn; i++) sc__free(c->pv[i].text);
  sc__free(c->pv);
  sc__free(c->ids);
  sc__free(c->locs);
  sc__free(c->binds);
  sc__strmap_free(&c->idmap);
  sc__strmap_free(&c->regmap);
  sc__strmap_free(&c->pointmap);
  sc__strmap_free(&c->setmap);
  for (size_t i = 0; i < c->nset; i++) sc__free(c->setwhy[i]);
  sc__free(c->setwhy);
  sc__free(c->dir);
  sc__jsonpos_free(c->ix);
  sc_scenario_free(c->s);
}

static int parse(sc_scenario **out, const char *text, size_t len, const char *name) {
  sc__scn *c = sc__malloc(sizeof *c); /* holds the path buffer: not on the stack */
  if (!c) return sc__err(SC_ENOMEM, "%s: out of memory", name);
  int rc = run(c, text, len, name);
  if (rc == 0 && c->pn > 0) rc = sc__err(SC_ESCENARIO, "%s", c->pv[0].text);
  if (rc == 0) {
    *out = c->s;
    c->s = NULL;
  }
  done(c);
  sc__free(c);
  return rc;
}

SC_EXTERN int sc_scenario_parse(sc_scenario **out, const char *json, const char *name) {
  if (!out) return sc__err(SC_EINVAL, "sc_scenario_parse: out is NULL");
  *out = NULL;
  if (!json) return sc__err(SC_EINVAL, "sc_scenario_parse: json is NULL");
  return parse(out, json, strlen(json), name ? name : "<string>");
}

SC_EXTERN int sc_scenario_load(sc_scenario **out, const char *path) {
  if (!out) return sc__err(SC_EINVAL, "sc_scenario_load: out is NULL");
  *out = NULL;
  if (!path) return sc__err(SC_EINVAL, "sc_scenario_load: path is NULL");
  char *text;
  size_t len;
  int rc = sc__file_read_all(path, SC__SCENARIO_MAX, &text, &len);
  if (rc) return rc;
  rc = parse(out, text, len, path);
  sc__free(text);
  return rc;
}

SC_EXTERN int sc_scenario_validate(const char *path, void (*cb)(const char *line, void *userdata),
                                   void *userdata) {
  if (!path) return sc__err(SC_EINVAL, "sc_scenario_validate: path is NULL");
  char *text;
  size_t len;
  int rc = sc__file_read_all(path, SC__SCENARIO_MAX, &text, &len);
  if (rc) return rc;
  sc__scn *c = sc__malloc(sizeof *c);
  rc = c ? run(c, text, len, path) : sc__err(SC_ENOMEM, "%s: out of memory", path);
  sc__free(text);
  if (!c) return rc;
  if (rc == 0) {
    /* every allocation is done before the first callback: it fires for all or none */
    for (size_t i = 0; cb && i < c->pn; i++) cb(c->pv[i].text, userdata);
    rc = c->pn > 0x7fffffff ? 0x7fffffff : (int)c->pn;
  }
  done(c);
  sc__free(c);
  return rc;
}
