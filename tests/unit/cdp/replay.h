/* Replays a recorded CDP transcript (fixtures/cdp/NAME.jsonl) through the core:
 * "out" lines are sent with sc__cdp_send and the popped text must equal the
 * recorded message; "in" lines are fed. Replies and events are recorded for
 * the tests to assert on. Header-only: each test file is its own program. */
#ifndef SC_TEST_REPLAY_H
#define SC_TEST_REPLAY_H

#include <stdio.h>
#include <string.h>

#include "cdp/cdp.h"
#include "core/core.h"
#include "testutil.h"

#define RP_MAX_ID 64
#define RP_MAX_EVENTS 128

typedef struct rp_reply {
  int fired;         /* how many times the callback ran (must end at 1) */
  int status;
  char err[512];
  json_t *result;    /* deep copy of the result */
  int order;         /* firing order, 1-based */
} rp_reply;

typedef struct rp_event {
  char session[64];  /* "" for browser-level */
  char method[64];
} rp_event;

typedef struct replay {
  sc__cdp *c;
  json_t *lines;     /* array of {"dir":..,"msg":..} */
  size_t pos;
  double timeout_ms; /* for the commands sent */
  rp_reply replies[RP_MAX_ID];
  rp_event events[RP_MAX_EVENTS];
  size_t nevents;
  int nfired;
  const char *skip;  /* drop "in" lines with this method (NULL: none) */
} replay;

static inline void rp_on_reply(int status, json_t *result, const char *errmsg, void *ud) {
  rp_reply *r = ud;
  r->fired++;
  r->status = status;
  snprintf(r->err, sizeof r->err, "%s", errmsg ? errmsg : "");
  json_decref(r->result);
  r->result = result ? json_deep_copy(result) : NULL;
}

/* The firing order needs the replay; keep a global pointer to it. */
static replay *rp_current;

static inline void rp_on_reply_ordered(int status, json_t *result, const char *errmsg,
                                       void *ud) {
  rp_on_reply(status, result, errmsg, ud);
  ((rp_reply *)ud)->order = ++rp_current->nfired;
}

static inline void rp_on_event(const char *session_id, const char *method, json_t *params,
                               void *ud) {
  replay *rp = ud;
  assert_true(rp->nevents < RP_MAX_EVENTS);
  rp_event *e = &rp->events[rp->nevents++];
  snprintf(e->session, sizeof e->session, "%s", session_id ? session_id : "");
  snprintf(e->method, sizeof e->method, "%s", method);
}

static inline void rp_open(replay *rp, const char *fixture, const sc__cdp_options *opts) {
  memset(rp, 0, sizeof *rp);
  rp_current = rp;
  rp->timeout_ms = 5000;
  json_error_t je;
  rp->lines = json_array();
  assert_non_null(rp->lines);
  FILE *f = fopen(sc_test_fixture(fixture), "r");
  assert_non_null(f);
  char line[16384];
  while (fgets(line, sizeof line, f)) {
    json_t *l = json_loads(line, 0, &je);
    if (!l) fail_msg("%s: %s", fixture, je.text);
    json_array_append_new(rp->lines, l);
  }
  fclose(f);
  assert_int_equal(sc__cdp_new(&rp->c, opts), 0);
  sc__cdp_on_event(rp->c, rp_on_event, rp);
}

static inline void rp_close(replay *rp) {
  sc__cdp_free(rp->c);
  for (int i = 0; i < RP_MAX_ID; i++) json_decref(rp->replies[i].result);
  json_decref(rp->lines);
}

static inline const char *rp_line_method(const replay *rp, size_t i) {
  return json_string_value(
      json_object_get(json_object_get(json_array_get(rp->lines, i), "msg"), "method"));
}

/* Process one line; returns 0 at the end of the transcript. */
static inline int rp_step(replay *rp) {
  if (rp->pos >= json_array_size(rp->lines)) return 0;
  json_t *l = json_array_get(rp->lines, rp->pos++);
  json_t *msg = json_object_get(l, "msg");
  const char *dir = json_string_value(json_object_get(l, "dir"));
  char *want = json_dumps(msg, JSON_COMPACT);
  assert_non_null(want);
  if (strcmp(dir, "out") == 0) {
    json_int_t id = json_integer_value(json_object_get(msg, "id"));
    assert_true(id > 0 && id < RP_MAX_ID);
    json_t *params = json_object_get(msg, "params");
    int64_t got_id = 0;
    assert_int_equal(
        sc__cdp_send(rp->c, json_string_value(json_object_get(msg, "sessionId")),
                     json_string_value(json_object_get(msg, "method")),
                     params ? json_deep_copy(params) : NULL, rp->timeout_ms,
                     rp_on_reply_ordered, &rp->replies[id], &got_id),
        0);
    assert_int_equal(got_id, id);
    size_t len;
    char *text = sc__cdp_pop_outgoing(rp->c, &len);
    assert_non_null(text);
    assert_string_equal(text, want);
    assert_int_equal(len, strlen(want));
    sc__free(text);
    assert_null(sc__cdp_pop_outgoing(rp->c, NULL));
  } else {
    const char *m = json_string_value(json_object_get(msg, "method"));
    if (!(rp->skip && m && strcmp(m, rp->skip) == 0))
      assert_int_equal(sc__cdp_feed(rp->c, want, strlen(want)), 0);
  }
  sc__free(want);
  return 1;
}

/* Run through (and including) the next line with this method. */
static inline void rp_run_through(replay *rp, const char *method) {
  while (rp->pos < json_array_size(rp->lines)) {
    const char *m = rp_line_method(rp, rp->pos);
    rp_step(rp);
    if (m && strcmp(m, method) == 0) return;
  }
  fail_msg("transcript has no %s", method);
}

static inline void rp_run_all(replay *rp) {
  while (rp_step(rp)) {
  }
}

/* Index of the first recorded event with this method, or -1. */
static inline int rp_find_event(const replay *rp, const char *method) {
  for (size_t i = 0; i < rp->nevents; i++)
    if (strcmp(rp->events[i].method, method) == 0) return (int)i;
  return -1;
}

#endif
