/* One step: id, exactly one action, timing, park, expectations. */
#include <stdio.h>
#include <string.h>

#include "page/tab.h"
#include "scenario/scn.h"

static const char *const STEP_KEYS[] = {"id",         "click",     "wheel", "key",    "move", "none",
                                        "timeout_ms", "settle_ms", "park",  "expect", NULL};
static const char *const ACTIONS[] = {"click", "wheel", "key", "move", "none", NULL};

/* Append to the message prefix for the duration of a nested object. */
static size_t pre_push(sc__scn *c, const char *what) {
  size_t old = strlen(c->pre);
  snprintf(c->pre + old, sizeof c->pre - old, "%s: ", what);
  return old;
}

static void wheel(sc__scn *c, json_t *v, sc_action *a) {
  static const char *const keys[] = {"at", "notches", NULL};
  if (!json_is_object(v)) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"wheel\" must be {\"at\": POINT, \"notches\": N}");
    return;
  }
  size_t old = pre_push(c, "wheel");
  sc__scn_keys(c, v, keys);
  json_t *at = sc__scn_get(c, v, "at", 1);
  if (at) {
    sc__scn_enter(c, "at");
    if (sc__scn_point(c, at, "at", &a->at) == 0) sc__scn_bind(c, c->cur_section);
    sc__scn_leave(c);
  }
  long n = 0;
  if (sc__scn_integer(c, v, "notches", 1, SC__R_NOTCHES, &n) == 1) a->notches = (int)n;
  c->pre[old] = '\0';
}

/* The key spec at the current path, as the page layer will read it. */
static void key_name(sc__scn *c, const char *spec) {
  char why[128];
  if (sc__key_check(spec, why, sizeof why) < 0)
    sc__scn_problem(c, SC__AT_VAL(c), "\"key\" \"%.80s\" is not a key: %s", spec, why);
}

static void key(sc__scn *c, json_t *v, sc_action *a) {
  static const char *const keys[] = {"key", "repeat", "at", NULL};
  a->repeat = 1;
  if (json_is_string(v) && json_string_length(v) > 0) {
    a->key = sc__scn_dup(c, json_string_value(v));
    key_name(c, json_string_value(v));
    return;
  }
  if (!json_is_object(v)) {
    sc__scn_problem(c, SC__AT_VAL(c),
                    "\"key\" must be a key name or {\"key\": NAME, \"repeat\": N, \"at\": POINT}");
    return;
  }
  size_t old = pre_push(c, "key");
  sc__scn_keys(c, v, keys);
  if (sc__scn_strdup(c, v, "key", 1, &a->key) == 1 && a->key) {
    sc__scn_enter(c, "key");
    key_name(c, a->key);
    sc__scn_leave(c);
  }
  long r;
  if (sc__scn_integer(c, v, "repeat", 0, SC__R_REPEAT, &r) == 1) a->repeat = (int)r;
  json_t *at = json_object_get(v, "at");
  if (at) {
    sc__scn_enter(c, "at");
    if (sc__scn_point(c, at, "at", &a->at) == 0) {
      a->has_at = 1;
      sc__scn_bind(c, c->cur_section);
    }
    sc__scn_leave(c);
  }
  c->pre[old] = '\0';
}

static void action(sc__scn *c, const char *name, json_t *v, sc_action *a) {
  sc__scn_enter(c, name);
  if (strcmp(name, "click") == 0 || strcmp(name, "move") == 0) {
    a->kind = name[0] == 'c' ? SC_ACTION_CLICK : SC_ACTION_MOVE;
    if (sc__scn_point(c, v, name, &a->at) == 0) sc__scn_bind(c, c->cur_section);
  } else if (strcmp(name, "wheel") == 0) {
    a->kind = SC_ACTION_WHEEL;
    wheel(c, v, a);
  } else if (strcmp(name, "key") == 0) {
    a->kind = SC_ACTION_KEY;
    key(c, v, a);
  } else {
    a->kind = SC_ACTION_NONE;
    if (!json_is_true(v)) sc__scn_problem(c, SC__AT_VAL(c), "\"none\" must be true");
  }
  sc__scn_leave(c);
}

static int is_action(const char *k) {
  for (const char *const *a = ACTIONS; *a; a++)
    if (strcmp(*a, k) == 0) return 1;
  return 0;
}

static void expectations(sc__scn *c, json_t *step, int in_cycle, size_t index, sc_step *st) {
  /* a cycle step that checks nothing would pass whatever the app did */
  json_t *v = sc__scn_get(c, step, "expect", in_cycle);
  if (!v) return;
  sc__scn_enter(c, "expect");
  if (!json_is_array(v) || (in_cycle && json_array_size(v) == 0)) {
    sc__scn_problem(c, SC__AT_VAL(c), "\"expect\" must be %s",
                    in_cycle ? "a non-empty array of expectations" : "an array of expectations");
  } else if (json_array_size(v) > 0) {
    st->expect = sc__calloc(json_array_size(v), sizeof *st->expect);
    if (!st->expect) {
      c->oom = 1;
    } else {
      st->nexpect = json_array_size(v);
      for (size_t k = 0; k < st->nexpect; k++) {
        char what[32];
        snprintf(what, sizeof what, "expect[%zu]", k);
        size_t old = pre_push(c, what);
        sc__scn_enter_index(c, k);
        sc__scn_expect(c, json_array_get(v, k), st, in_cycle, index, &st->expect[k]);
        sc__scn_leave(c);
        c->pre[old] = '\0';
      }
    }
  }
  sc__scn_leave(c);
}

void sc__scn_step(sc__scn *c, json_t *v, int in_cycle, size_t index, sc_step *st) {
  const sc_scenario *s = c->s;
  const char *section = in_cycle ? "cycle" : "setup";
  st->line = SC__AT_VAL(c).line;
  c->cur_section = in_cycle ? 1 : 0;
  c->cur_step = index;
  st->timeout_ms = s->default_timeout_ms;
  st->settle_ms = s->default_settle_ms;
  st->park = 1;
  snprintf(c->pre, sizeof c->pre, "%s[%zu]: ", section, index);
  if (!json_is_object(v)) {
    sc__scn_problem(c, SC__AT_VAL(c), "a step must be an object");
    c->pre[0] = '\0';
    return;
  }
  /* the id names the step in every later message, the key check's too */
  json_t *id = json_object_get(v, "id");
  if (json_is_string(id) && json_string_length(id) > 0)
    snprintf(c->pre, sizeof c->pre, "%s[%zu] \"%s\": ", section, index, json_string_value(id));
  sc__scn_keys(c, v, STEP_KEYS);
  sc__scn_strdup(c, v, "id", 1, &st->id);

  const char *first = NULL, *k;
  json_t *av;
  json_object_foreach(v, k, av) {
    if (!is_action(k)) continue;
    if (!first) {
      first = k;
      action(c, k, av, &st->action);
    } else {
      sc__scn_enter(c, k);
      sc__scn_problem(c, SC__AT_KEY(c), "two actions (\"%s\" and \"%s\"); a step has exactly one",
                      first, k);
      sc__scn_leave(c);
    }
  }
  int typo = 0; /* "clik": already reported as an unknown key */
  for (const char *const *a = ACTIONS; *a; a++) typo |= sc__scn_fixed(c, *a);
  if (!first && !typo)
    sc__scn_problem(c, SC__AT_VAL(c),
                    "no action (one of \"click\", \"wheel\", \"key\", \"move\", \"none\")");

  sc__scn_number(c, v, "timeout_ms", 0, SC__R_MS_POS, &st->timeout_ms);
  sc__scn_number(c, v, "settle_ms", 0, SC__R_MS, &st->settle_ms);
  sc__scn_bool(c, v, "park", &st->park);
  /* expectations last: a scale expectation looks at the action */
  expectations(c, v, in_cycle, index, st);
  c->pre[0] = '\0';
}
