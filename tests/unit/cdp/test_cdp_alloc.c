/* CDP core under allocation failure: every allocation in a send / feed /
 * crash / close sequence is made to fail in turn. Each must give SC_ENOMEM
 * (never a crash), every accepted command's callback fires exactly once, and
 * nothing leaks. */
#include <stdio.h>
#include <string.h>

#include "cdp/cdp.h"
#include "core/core.h"
#include "testutil.h"

typedef struct got {
  int fired, status;
} got;

static void on_reply(int status, json_t *result, const char *errmsg, void *ud) {
  got *g = ud;
  g->fired++;
  g->status = status;
}

static int g_nomem;

static void check(int rc) {
  if (rc == SC_ENOMEM)
    g_nomem++;
  else
    assert_int_equal(rc, 0);
}

/* jansson 2.14's parser reports most allocation failures as syntax errors
 * (json_error_invalid_syntax): the core then takes the message for a
 * malformed one and fails the connection (SC_EPROTO, later feeds
 * SC_ECLOSED). The run without failures below must see none of that. */
static void feed(sc__cdp *c, const char *s) {
  int rc = sc__cdp_feed(c, s, strlen(s));
  check(rc == SC_EPROTO || rc == SC_ECLOSED ? SC_ENOMEM : rc);
}

/* Returns the number of SC_ENOMEM seen. */
static int scenario(void) {
  g_nomem = 0;
  sc__cdp *c = NULL;
  int rc = sc__cdp_new(&c, NULL);
  if (rc) {
    assert_int_equal(rc, SC_ENOMEM);
    assert_null(c);
    return 1;
  }
  got g[4];
  int sent[4];
  memset(g, 0, sizeof g);
  sent[0] = sc__cdp_send(c, NULL, "Target.attachToTarget",
                         json_pack("{sssb}", "targetId", "T1", "flatten", 1), 0, on_reply,
                         &g[0], NULL);
  sent[1] = sc__cdp_send(c, "S1", "Runtime.evaluate",
                         json_pack("{ss}", "expression", "1+2"), 100, on_reply, &g[1], NULL);
  sent[2] = sc__cdp_send(c, "S2", "Page.enable", NULL, 0, on_reply, &g[2], NULL);
  sent[3] = sc__cdp_send(c, NULL, "Browser.getVersion", NULL, 0, on_reply, &g[3], NULL);
  for (int i = 0; i < 4; i++) check(sent[i]);
  char *m;
  while ((m = sc__cdp_pop_outgoing(c, NULL))) sc__free(m);
  feed(c, "{\"method\":\"Target.attachedToTarget\",\"params\":{\"sessionId\":\"S1\","
          "\"targetInfo\":{\"targetId\":\"T1\",\"type\":\"page\"}}}");
  feed(c, "{\"id\":1,\"result\":{\"sessionId\":\"S1\"}}");
  feed(c, "{\"method\":\"Target.targetCrashed\",\"params\":{\"targetId\":\"T1\"}}");
  feed(c, "{\"id\":4,\"error\":{\"code\":-32000,\"message\":\"nope\"}}");
  sc__cdp_free(c); /* fails what is left (S2's Page.enable) */
  for (int i = 0; i < 4; i++) {
    assert_int_equal(g[i].fired, sent[i] == 0 ? 1 : 0);
    if (sent[i] == 0 && g[i].status != 0 && g[i].status != SC_ECRASHED &&
        g[i].status != SC_ECLOSED && g[i].status != SC_EPROTO)
      fail_msg("command %d: status %d", i, g[i].status);
  }
  return g_nomem;
}

static void every_allocation_fails_once(void **st) {
  (void)st;
  long base = sc_test_alloc_live();
  int failures = 0;
  for (long n = 0; n < 400; n++) {
    sc_test_alloc_fail_after(n);
    failures += scenario() > 0;
    sc_test_alloc_fail_after(-1);
    if (sc_test_alloc_live() != base) fail_msg("leak after failing allocation %ld", n);
  }
  assert_true(failures > 10); /* the injection did reach the code */
  /* Without failures everything succeeds with the expected outcomes. */
  assert_int_equal(scenario(), 0);
  assert_int_equal(sc_test_alloc_live(), base);
}

int main(void) {
  sc_test_alloc_install(); /* before anything allocates */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_allocation_fails_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
