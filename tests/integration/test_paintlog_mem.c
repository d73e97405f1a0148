/* The paint log's memory in the page (issue 39 items 2 and 3), on real
 * headless Chromium: what the log knows of the page's canvases and shadow
 * hosts must not keep them alive, nor cost each answer more, once the page
 * has dropped them. Page memory is bounded by the page, not its history.
 *
 * 1. Back buffers swapped as Xpra 3.1.3's client swaps them
 *    (fixtures/paintlog-mem/buffers.html): 100 updates, each a fresh
 *    buffer that copies the one before it whole; after a full GC
 *    (HeapProfiler.collectGarbage) at most 3 of the 101 buffers live
 *    (the page itself keeps 2), counted by the page's own WeakRefs and by
 *    Runtime.queryObjects on HTMLCanvasElement.prototype. And the log
 *    still knows what a buffer drawn whole on the guest means when the one
 *    the guest showed before was collected in between: the entry is the
 *    update's patch, not the whole guest.
 * 2. Shadow hosts made and dropped (fixtures/paintlog-mem/hosts.html):
 *    100,000 hosts, 1000 a task, attached and removed; after a full GC and
 *    one answer of the log, the WeakRef objects in the heap (the log's
 *    lists are their only user on that page) are back within 100 of
 *    before, the divs are gone, and the log's immediate answer takes at
 *    most 0.5 ms more than before them (the least of 3 means of 31); a
 *    host the page kept and puts back over the guest, and a closed shadow
 *    root attached over it later, still make the log blind ("shadow").
 *
 * Sabotages, run by hand (2026-12-04, Chromium of the machine), the
 * script before the fix (lib/page/paintlog_js.c at c1c541d):
 * - part 1: 101 of 101 buffers alive after the GC, 102 canvases in the
 *   heap;
 * - part 2: the 100,000 hosts not made within the 30 s of an evaluation
 *   (the list of hosts swept whole at every host added once it passed
 *   8000 entries whose hosts had not yet been collected); with 12,000
 *   hosts (edited by hand): made in 8967 ms, 12000 WeakRefs left in the
 *   heap after the GC and an answer, an answer 0.129 -> 0.452 ms;
 * - the lists swept only when they doubled, not at every answer (live()
 *   not sweeping): part 2 fails, 42000 WeakRefs left, an answer 0.155 ->
 *   0.387 ms. */
#include "testutil.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "page/tab.h"
#include "stepcheck.h"

/* the hosts made in part 2 */
#define HOSTS_STR "100000"

static sc_page *open_fixture(const char *rel) {
  char url[4096];
  snprintf(url, sizeof url, "file://%s", sc_test_fixture(rel));
  sc_page_options o = SC_PAGE_OPTIONS_INIT;
  o.guest_w = 640;
  o.guest_h = 400;
  sc_page *p = NULL;
  if (sc_page_open(&p, sc_test_b, url, &o) < 0) fail_msg("open %s: %s", rel, sc_errmsg());
  return p;
}

/* expr's value (JSON) parsed; the caller decrefs */
static json_t *eval_json(sc_page *p, const char *expr) {
  char *js = NULL;
  if (sc_page_eval(&js, p, expr) < 0) fail_msg("eval %s: %s", expr, sc_errmsg());
  json_t *v = json_loads(js, JSON_DECODE_ANY, NULL);
  sc_free(js);
  assert_non_null(v);
  return v;
}

static double eval_num(sc_page *p, const char *expr) {
  json_t *v = eval_json(p, expr);
  double d = json_number_value(v);
  json_decref(v);
  return d;
}

/* A full garbage collection in the page's renderer (twice: what the first
 * one's finalizers let go goes in the second). */
static void gc(sc_page *p) {
  for (int i = 0; i < 2; i++)
    assert_int_equal(sc__page_call(p, "HeapProfiler.collectGarbage", json_object(), NULL), 0);
}

/* How many objects in the page's heap have the prototype proto (an
 * expression) — Runtime.queryObjects, as the console's queryObjects(). */
static long live_objects(sc_page *p, const char *proto) {
  json_t *res = NULL;
  assert_int_equal(sc__page_call(p, "Runtime.evaluate",
                                 json_pack("{s:s, s:s}", "expression", proto, "objectGroup", "mem"),
                                 &res),
                   0);
  const char *id = json_string_value(json_object_get(json_object_get(res, "result"), "objectId"));
  assert_non_null(id);
  json_t *q = NULL;
  assert_int_equal(sc__page_call(p, "Runtime.queryObjects",
                                 json_pack("{s:s, s:s}", "prototypeObjectId", id, "objectGroup", "mem"),
                                 &q),
                   0);
  json_decref(res);
  const char *arr = json_string_value(json_object_get(json_object_get(q, "objects"), "objectId"));
  assert_non_null(arr);
  json_t *n = NULL;
  assert_int_equal(sc__page_call(p, "Runtime.callFunctionOn",
                                 json_pack("{s:s, s:s, s:b}", "objectId", arr, "functionDeclaration",
                                           "function(){return this.length;}", "returnByValue", 1),
                                 &n),
                   0);
  json_decref(q);
  long c = (long)json_number_value(json_object_get(json_object_get(n, "result"), "value"));
  json_decref(n);
  assert_int_equal(sc__page_call(p, "Runtime.releaseObjectGroup",
                                 json_pack("{s:s}", "objectGroup", "mem"), NULL),
                   0);
  return c;
}

/* the box r ([x, y, w, h], guest px) is the rectangle (x, y, w, h), within 2 px */
static int near(json_t *r, double x, double y, double w, double h) {
  double a = json_number_value(json_array_get(r, 0)), b = json_number_value(json_array_get(r, 1));
  double c = a + json_number_value(json_array_get(r, 2)), d = b + json_number_value(json_array_get(r, 3));
  return a >= x - 2 && a <= x && b >= y - 2 && b <= y && c >= x + w && c <= x + w + 2 &&
         d >= y + h && d <= y + h + 2;
}

static void swapped_back_buffers_do_not_outlive_the_page(void **st) {
  (void)st;
  sc_page *p = open_fixture("paintlog-mem/buffers.html");
  double made = eval_num(p, "__mx.updates(100, true)");
  gc(p);
  double alive = eval_num(p, "__mx.alive()");
  long canvases = live_objects(p, "HTMLCanvasElement.prototype");
  fprintf(stderr, "buffers: %.0f made, %.0f alive after GC; canvases in the heap: %ld\n", made,
          alive, canvases);
  assert_true(made >= 101);
  assert_true(alive <= 3);     /* the page keeps 2 (Xpra's offscreen and draw) */
  assert_true(canvases <= 4); /* and the guest */

  /* The guest showed buffer N; N+1 copies it and gets a patch; N is
   * collected (the page dropped it); the guest draws N+1: the log still
   * knows N+1 differs from N only in the patch. */
  double s = eval_num(p, "__stepcheck_log.seq()");
  eval_num(p, "__mx.swap(100, 120, 30, 20) ? 1 : 0");
  eval_num(p, "__mx.swap(300, 200, 10, 10) ? 1 : 0");
  gc(p);
  eval_num(p, "__mx.show() ? 1 : 0");
  char expr[128];
  snprintf(expr, sizeof expr, "new Promise(function(r){setTimeout(function(){r(__mx.entries(%.0f));},20);})", s);
  json_t *e = eval_json(p, expr);
  char *txt = json_dumps(e, JSON_COMPACT);
  fprintf(stderr, "after a GC between the swaps and the draw, the guest's entries: %s\n", txt);
  free(txt);
  assert_int_equal(json_array_size(e), 1);
  assert_true(near(json_array_get(e, 0), 100, 120, 210, 90)); /* both patches, one box */
  json_decref(e);
  sc_page_free(p);
}

/* The log's immediate answer on the hosts page (not blind): the least of
 * three means of 31 answers in a row, ms (a pause of the page's own, a
 * GC, in one of them is not the log's cost). */
static double answer_ms(sc_page *p) {
  double best = -1;
  for (int i = 0; i < 3; i++) {
    json_t *a = eval_json(p, "__mh.answer(31)");
    json_t *v = json_loads(json_string_value(a), 0, NULL);
    assert_non_null(v);
    assert_true(json_is_null(json_object_get(v, "blind")));
    double ms = json_number_value(json_object_get(v, "ms"));
    if (best < 0 || ms < best) best = ms;
    json_decref(v);
    json_decref(a);
  }
  return best;
}

static void dropped_shadow_hosts_cost_nothing_later(void **st) {
  (void)st;
  sc_page *p = open_fixture("paintlog-mem/hosts.html");
  double ms0 = answer_ms(p);
  gc(p);
  long refs0 = live_objects(p, "WeakRef.prototype"), divs0 = live_objects(p, "HTMLDivElement.prototype");
  double t0 = eval_num(p, "performance.now()");
  eval_num(p, "__mh.churn(" HOSTS_STR ", 1000)");
  double churn = eval_num(p, "performance.now()") - t0;
  gc(p);
  json_decref(eval_json(p, "__mh.answer(1)")); /* the first answer after them */
  gc(p);
  long refs1 = live_objects(p, "WeakRef.prototype"), divs1 = live_objects(p, "HTMLDivElement.prototype");
  double ms1 = answer_ms(p);
  fprintf(stderr,
          HOSTS_STR " hosts made and dropped in %.0f ms: WeakRefs in the heap %ld -> %ld, divs %ld -> %ld; "
          "an immediate answer %.3f -> %.3f ms (least of 3 means of 31)\n",
          churn, refs0, refs1, divs0, divs1, ms0, ms1);
  assert_true(refs1 - refs0 <= 100);
  assert_true(divs1 - divs0 <= 100);
  assert_true(ms1 <= ms0 + 0.5);

  /* the blind spots are still seen: the kept host put back over the
   * guest, and a closed shadow root attached over it later */
  const char *cases[] = {"__mh.reattach()", "__mh.later()"};
  for (int i = 0; i < 2; i++) {
    eval_num(p, "__mh.clear() ? 1 : 0");
    json_t *c = eval_json(p, "__mh.answer(1)");
    json_t *cv = json_loads(json_string_value(c), 0, NULL);
    assert_true(json_is_null(json_object_get(cv, "blind")));
    json_decref(cv);
    json_decref(c);
    char expr[64];
    snprintf(expr, sizeof expr, "%s ? 1 : 0", cases[i]);
    eval_num(p, expr);
    c = eval_json(p, "__mh.answer(1)");
    cv = json_loads(json_string_value(c), 0, NULL);
    const char *b = json_string_value(json_object_get(cv, "blind"));
    fprintf(stderr, "%s: blind %s\n", cases[i], b ? b : "null");
    assert_non_null(b);
    assert_string_equal(b, "shadow");
    json_decref(cv);
    json_decref(c);
  }
  sc_page_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(swapped_back_buffers_do_not_outlive_the_page),
      cmocka_unit_test(dropped_shadow_hosts_cost_nothing_later),
  };
  return cmocka_run_group_tests(tests, sc_test_browser_up, sc_test_browser_down);
}
