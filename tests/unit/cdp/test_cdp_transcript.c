/* CDP core against transcripts recorded from Chromium 156 (fixtures/cdp). */
#include "replay.h"

#define BASIC_TARGET "25595BAFFD3CB1B5A78E4D721DD978E8"
#define BASIC_SESSION "B51BA13F5174B9537F0C1C2DB54BC930"
#define CRASH_A_TARGET "D3D0149690ABA6B9286A31186994DDF2"
#define CRASH_A "3650E7A6643AEDDD59DACCB939AC025F"
#define DETACH_A_TARGET "C240BD94447300B387335F141CE197C9"

/* Outgoing text equals the recording (checked in rp_step), ids count from 1,
 * every command's callback fires exactly once, results arrive intact. */
static void basic_ids_text_results(void **st) {
  (void)st;
  replay rp;
  rp_open(&rp, "cdp/basic.jsonl", NULL);
  rp_run_all(&rp);
  for (int id = 1; id <= 11; id++) {
    assert_int_equal(rp.replies[id].fired, 1);
  }
  assert_int_equal(rp.replies[1].status, 0);
  assert_string_equal(json_string_value(json_object_get(rp.replies[1].result, "product")),
                      "Chrome/156.0.8078.108");
  json_t *v = json_object_get(json_object_get(rp.replies[7].result, "result"), "value");
  assert_int_equal(json_integer_value(v), 3);
  assert_int_equal(sc__cdp_pending(rp.c), 0);
  assert_int_equal(sc__cdp_next_deadline(rp.c), 0);
  rp_close(&rp);
}

/* Replies 6..9 arrive as 8, 7, 9, 6 and each reaches its own caller. */
static void basic_out_of_order(void **st) {
  (void)st;
  replay rp;
  rp_open(&rp, "cdp/basic.jsonl", NULL);
  rp_run_all(&rp);
  assert_true(rp.replies[8].order < rp.replies[7].order);
  assert_true(rp.replies[7].order < rp.replies[9].order);
  assert_true(rp.replies[9].order < rp.replies[6].order);
  json_t *six = json_object_get(json_object_get(rp.replies[6].result, "result"), "value");
  assert_int_equal(json_integer_value(six), 7);
  rp_close(&rp);
}

/* CDP error replies become SC_EPROTO with "CODE message (data)". */
static void basic_error_replies(void **st) {
  (void)st;
  replay rp;
  rp_open(&rp, "cdp/basic.jsonl", NULL);
  rp_run_all(&rp);
  assert_int_equal(rp.replies[8].status, SC_EPROTO);
  assert_null(rp.replies[8].result);
  assert_string_equal(rp.replies[8].err, "-32601 'Foo.bar' wasn't found");
  assert_int_equal(rp.replies[9].status, SC_EPROTO);
  assert_string_equal(rp.replies[9].err,
                      "-32602 Invalid parameters (Failed to deserialize params.expression - "
                      "BINDINGS: string value expected at position 19)");
  rp_close(&rp);
}

/* Events carry their sessionId (NULL for browser-level ones). */
static void basic_event_routing(void **st) {
  (void)st;
  replay rp;
  rp_open(&rp, "cdp/basic.jsonl", NULL);
  rp_run_all(&rp);
  int i = rp_find_event(&rp, "Runtime.executionContextCreated");
  assert_true(i >= 0);
  assert_string_equal(rp.events[i].session, BASIC_SESSION);
  i = rp_find_event(&rp, "Target.targetCreated");
  assert_true(i >= 0);
  assert_string_equal(rp.events[i].session, "");
  i = rp_find_event(&rp, "Target.attachedToTarget");
  assert_true(i >= 0);
  assert_string_equal(rp.events[i].session, "");
  /* Every "in" line without an id is an event, delivered once each. */
  size_t want = 0;
  for (size_t k = 0; k < json_array_size(rp.lines); k++) {
    json_t *l = json_array_get(rp.lines, k);
    if (strcmp(json_string_value(json_object_get(l, "dir")), "in") == 0 &&
        !json_object_get(json_object_get(l, "msg"), "id"))
      want++;
  }
  assert_int_equal(rp.nevents, want);
  rp_close(&rp);
}

/* targetId -> sessionId from the attachedToTarget event, and from the
 * attachToTarget reply alone; forgotten on detach. */
static void basic_session_map(void **st) {
  (void)st;
  replay rp;
  rp_open(&rp, "cdp/basic.jsonl", NULL);
  rp_run_through(&rp, "Target.attachedToTarget");
  assert_int_equal(rp.replies[4].fired, 0);
  assert_string_equal(sc__cdp_session_for_target(rp.c, BASIC_TARGET), BASIC_SESSION);
  rp_run_through(&rp, "Target.detachedFromTarget");
  assert_null(sc__cdp_session_for_target(rp.c, BASIC_TARGET));
  rp_close(&rp);

  rp_open(&rp, "cdp/basic.jsonl", NULL);
  rp.skip = "Target.attachedToTarget";
  rp_run_through(&rp, "Runtime.enable"); /* past the reply to id 4 */
  assert_int_equal(rp.replies[4].fired, 1);
  assert_string_equal(sc__cdp_session_for_target(rp.c, BASIC_TARGET), BASIC_SESSION);
  rp_close(&rp);
}

/* Inspector.targetCrashed fails only session A's commands, at once. */
static void crash_fails_only_that_session(void **st) {
  (void)st;
  replay rp;
  rp_open(&rp, "cdp/crash_two_sessions.jsonl", NULL);
  rp_run_through(&rp, "Inspector.targetCrashed");
  assert_int_equal(rp.replies[7].fired, 1); /* A: never-resolving evaluate */
  assert_int_equal(rp.replies[7].status, SC_ECRASHED);
  assert_string_equal(rp.replies[7].err, "target crashed");
  assert_int_equal(rp.replies[10].fired, 1); /* A: Page.crash itself */
  assert_int_equal(rp.replies[10].status, SC_ECRASHED);
  assert_int_equal(rp.replies[8].fired, 0);  /* B still waits */
  assert_int_equal(sc__cdp_pending(rp.c), 1);
  int i = rp_find_event(&rp, "Inspector.targetCrashed");
  assert_true(i >= 0);
  assert_string_equal(rp.events[i].session, CRASH_A);
  rp_run_all(&rp);
  assert_int_equal(rp.replies[7].fired, 1); /* Target.targetCrashed: no second call */
  assert_int_equal(rp.replies[8].fired, 1);
  assert_int_equal(rp.replies[8].status, 0);
  assert_int_equal(rp.replies[11].status, 0);
  rp_close(&rp);
}

/* Target.targetCrashed alone (browser-level, by targetId) does the same
 * through the targetId -> sessionId map. */
static void target_crashed_by_target_id(void **st) {
  (void)st;
  replay rp;
  rp_open(&rp, "cdp/crash_two_sessions.jsonl", NULL);
  rp.skip = "Inspector.targetCrashed";
  rp_run_through(&rp, "Inspector.targetCrashed");
  assert_int_equal(rp.replies[7].fired, 0);
  assert_string_equal(sc__cdp_session_for_target(rp.c, CRASH_A_TARGET), CRASH_A);
  rp_run_through(&rp, "Target.targetCrashed");
  assert_int_equal(rp.replies[7].status, SC_ECRASHED);
  assert_int_equal(rp.replies[10].status, SC_ECRASHED);
  assert_int_equal(rp.replies[8].fired, 0);
  rp_run_all(&rp);
  assert_int_equal(rp.replies[8].status, 0);
  rp_close(&rp);
}

/* Target.detachedFromTarget fails session A's pending with SC_EDETACHED. */
static void detach_fails_only_that_session(void **st) {
  (void)st;
  replay rp;
  rp_open(&rp, "cdp/detach_two_sessions.jsonl", NULL);
  rp_run_through(&rp, "Target.detachedFromTarget");
  assert_int_equal(rp.replies[7].fired, 1);
  assert_int_equal(rp.replies[7].status, SC_EDETACHED);
  assert_string_equal(rp.replies[7].err, "target detached");
  assert_int_equal(rp.replies[8].fired, 0);
  assert_int_equal(rp.replies[10].fired, 0); /* the browser-level detach command */
  assert_null(sc__cdp_session_for_target(rp.c, DETACH_A_TARGET));
  rp_run_all(&rp);
  assert_int_equal(rp.replies[10].status, 0);
  assert_int_equal(rp.replies[8].status, 0);
  assert_int_equal(rp.replies[7].fired, 1);
  rp_close(&rp);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(basic_ids_text_results),
      cmocka_unit_test(basic_out_of_order),
      cmocka_unit_test(basic_error_replies),
      cmocka_unit_test(basic_event_routing),
      cmocka_unit_test(basic_session_map),
      cmocka_unit_test(crash_fails_only_that_session),
      cmocka_unit_test(target_crashed_by_target_id),
      cmocka_unit_test(detach_fails_only_that_session),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
