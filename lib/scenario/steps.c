/* "setup" and "cycle": the step lists, step ids (unique, "start" reserved). */
#include <stdio.h>
#include <string.h>

#include "scenario/scn.h"

static json_t *step_list(sc__scn *c, json_t *root, const char *key, int required) {
  json_t *v = sc__scn_get(c, root, key, required);
  if (v && (!json_is_array(v) || (required && json_array_size(v) == 0))) {
    sc__scn_enter(c, key);
    sc__scn_problem(c, SC__AT_VAL(c), "\"%s\" must be %s", key,
                    required ? "a non-empty array of steps" : "an array of steps");
    sc__scn_leave(c);
    return NULL;
  }
  return v;
}

static void gather_ids(sc__scn *c, json_t *list, int in_cycle) {
  const char *section = in_cycle ? "cycle" : "setup";
  size_t i;
  json_t *st;
  sc__scn_enter(c, section);
  json_array_foreach(list, i, st) {
    json_t *id = json_object_get(st, "id");
    const char *s = json_string_value(id);
    /* sc__scn_step says what is wrong with these */
    if (!s || !*s || sc__escape_ctl_len(s) != json_string_length(id)) continue;
    sc__scn_enter_index(c, i);
    sc__scn_enter(c, "id");
    snprintf(c->pre, sizeof c->pre, "%s[%zu]: ", section, i);
    size_t len = strlen(s), k = 0;
    if (strcmp(s, "start") == 0) {
      sc__scn_problem(c, SC__AT_VAL(c), "step id \"start\" is reserved (snapshot \"start\" is the cycle's first capture)");
    } else if (sc__strmap_put(&c->idmap, s, len, c->nids, &k) == 0) {
      sc__scn_problem(c, SC__AT_VAL(c), "duplicate step id \"%s\" (first at %d:%d)", s,
                      c->ids[k].at.line, c->ids[k].at.col);
    } else {
      c->ids[c->nids++] = (sc__stepid){s, in_cycle, i, SC__AT_VAL(c)};
    }
    c->pre[0] = '\0';
    sc__scn_leave(c);
    sc__scn_leave(c);
  }
  sc__scn_leave(c);
}

static void check_list(sc__scn *c, json_t *list, int in_cycle, sc_step **out, size_t *n) {
  size_t len = json_array_size(list);
  if (len == 0) return;
  *out = sc__calloc(len, sizeof **out);
  if (!*out) {
    c->oom = 1;
    return;
  }
  *n = len;
  sc__scn_enter(c, in_cycle ? "cycle" : "setup");
  for (size_t i = 0; i < len; i++) {
    sc__scn_enter_index(c, i);
    sc__scn_step(c, json_array_get(list, i), in_cycle, i, &(*out)[i]);
    sc__scn_leave(c);
  }
  sc__scn_leave(c);
}

void sc__scn_steps(sc__scn *c, json_t *root) {
  sc_scenario *s = c->s;
  json_t *setup = step_list(c, root, "setup", 0);
  json_t *cycle = step_list(c, root, "cycle", 1);
  size_t n = json_array_size(setup) + json_array_size(cycle);
  if (n && (!(c->ids = sc__calloc(n, sizeof *c->ids)) || sc__strmap_init(&c->idmap, n) != 0)) {
    c->oom = 1;
    return;
  }
  if (setup) gather_ids(c, setup, 0);
  if (cycle) gather_ids(c, cycle, 1);
  if (setup) check_list(c, setup, 0, &s->setup, &s->nsetup);
  if (cycle) check_list(c, cycle, 1, &s->steps, &s->nsteps);
}
