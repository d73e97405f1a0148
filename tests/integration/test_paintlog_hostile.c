/* The paint log against page script that attacks it (issue 35), on real
 * headless Chromium: fixtures/paintlog-hostile/hostile.js makes one attack
 * per case, each on a fresh page, and asks the log (its own wait, through
 * window.__stepcheck_log) whether an entry touched R since the attack
 * began. A sound log answers n > 0 with the page not blind ("logged"), or
 * says it is blind, with the reason the case names; and the attack must
 * have done its change (R's pixel read back, where it is on the canvas).
 *
 * Sabotages, each run by hand (2026-12-04, Chromium 156):
 * - the script as before issue 35 (lib/page/paintlog_js.c at 8d2a47c):
 *   22 of 25 cases fail (n 0, or not blind; call-apply: the log's own wait
 *   throws the page's error); plain, entry-point and closed-attach pass;
 * - wait's answer keeping Object.prototype (the Promise wrapper dropped):
 *   thenable fails (the page's then answers n 0);
 * - the log's object not frozen: entry-point fails (the page's fake wait
 *   answers n 0);
 * - attachShadow not wrapped: closed-attach fails (not blind);
 * - a frame's script not calling adopt: the four frame cases fail, blind
 *   "frame-realm" (the realm check is the backstop: never a pass);
 * - window.open not wrapped: popup fails (not blind);
 * - selfPaint left out of paintsNothing: inert-img, inert-input and
 *   inert-canvas fail (n 0);
 * - open shadow roots of added elements not looked for: dsd-parsed fails;
 *   markup's possible hosts not kept (maybeHosts): dsd-set, dsd-parse fail. */
#include "testutil.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "stepcheck.h"

/* What a case must answer: an entry touching R and not blind (blind ==
 * NULL), or blind for that reason. click: the case waits for a click on
 * the guest (a user gesture). */
typedef struct hostile_case {
  const char *name, *page, *blind;
  int click;
} hostile_case;

/* Starts the case and clicks the guest once it waits for the click; 0 or
 * a negative sc_error. */
static int click_case(sc_page *p) {
  int rc = sc_page_eval(NULL, p, "__hx.start()");
  for (int i = 0; !rc && i < 100; i++) {
    char *js = NULL;
    rc = sc_page_eval(&js, p, "__hx.armed()");
    int armed = js && !strcmp(js, "true");
    sc_free(js);
    if (armed) return rc ? rc : sc_page_click(p, (sc_point){100, 100});
    usleep(20 * 1000);
  }
  return rc ? rc : SC_ETIMEDOUT;
}

/* Runs one case on a fresh page; 1 when the log answered as it must. */
static int run_case(const hostile_case *c) {
  char url[4096];
  snprintf(url, sizeof url, "file://%s?case=%s",
           sc_test_fixture(c->page ? c->page : "paintlog-hostile/guest.html"), c->name);
  sc_page_options o = SC_PAGE_OPTIONS_INIT;
  o.guest_w = 640;
  o.guest_h = 400;
  sc_page *p = NULL;
  if (sc_page_open(&p, sc_test_b, url, &o) < 0) {
    fprintf(stderr, "%-18s open: %s\n", c->name, sc_errmsg());
    return 0;
  }
  char *js = NULL;
  int rc = c->click ? click_case(p) : 0;
  if (!rc) rc = sc_page_eval(&js, p, c->click ? "__hx.result()" : "__hx.run()");
  sc_page_free(p);
  if (rc < 0) {
    fprintf(stderr, "%-18s eval: %s\n", c->name, sc_errmsg());
    return 0;
  }
  json_t *s = json_loads(js, JSON_DECODE_ANY, NULL);
  sc_free(js);
  json_t *v = json_loads(json_string_value(s), 0, NULL);
  json_decref(s);
  if (!v) {
    fprintf(stderr, "%-18s no answer\n", c->name);
    return 0;
  }
  const char *err = json_string_value(json_object_get(v, "error"));
  const char *blind = json_string_value(json_object_get(v, "blind"));
  json_int_t n = json_integer_value(json_object_get(v, "n"));
  int did = json_is_true(json_object_get(v, "did"));
  int ok = !err && did &&
           (c->blind ? blind && !strcmp(blind, c->blind) : !blind && n > 0);
  fprintf(stderr, "%-18s %s: n %lld, blind %s, did %s%s%s (want %s)\n", c->name,
          ok ? "ok" : "FAIL", (long long)n, blind ? blind : "null", did ? "yes" : "no",
          err ? ", error " : "", err ? err : "", c->blind ? c->blind : "logged");
  json_decref(v);
  return ok;
}

static void run_all(const hostile_case *cs, size_t n) {
  size_t good = 0;
  for (size_t i = 0; i < n; i++) good += (size_t)run_case(&cs[i]);
  fprintf(stderr, "%zu of %zu cases answered as they must\n", good, n);
  assert_int_equal(good, n);
}

/* 1. The log's state and builtins: expandos it once kept on the page's
 * objects, accessors redefined on instances and prototypes, builtins
 * replaced after load (call and apply drawing, then throwing), the entry
 * point redefined, a valueOf that changes its answer, an ImageData that
 * lies about its size, style keys joined to nothing, mutation records
 * that say nothing was added. */
static void page_script_cannot_blind_the_log(void **st) {
  (void)st;
  static const hostile_case cs[] = {
      {"plain", NULL, NULL, 0},
      {"expando-canvas", NULL, NULL, 0},
      {"expando-blind", NULL, "offscreen", 0},
      {"instance-getters", NULL, NULL, 0},
      {"prototype-getters", NULL, NULL, 0},
      {"builtins", NULL, NULL, 0},
      {"call-apply", NULL, NULL, 0},
      {"entry-point", NULL, NULL, 0},
      {"thenable", NULL, NULL, 0},
      {"valueof", NULL, NULL, 0},
      {"imagedata-size", NULL, NULL, 0},
      {"style-join", NULL, NULL, 0},
      {"mutation-record", NULL, NULL, 0},
  };
  run_all(cs, sizeof cs / sizeof *cs);
}

/* 2. Other realms: a same-origin frame's prototypes used on the guest
 * (hidden, removed, a frame's own script), and a window opened. */
static void another_realm_draws_where_the_log_sees_it(void **st) {
  (void)st;
  static const hostile_case cs[] = {
      {"frame-proto", NULL, NULL, 0},
      {"frame-removed", NULL, NULL, 0},
      {"frame-drawimage", NULL, NULL, 0},
      {"frame-script", NULL, NULL, 0},
      {"popup", NULL, "popup", 1},
  };
  run_all(cs, sizeof cs / sizeof *cs);
}

/* 3. Blind spots the log did not know: declarative shadow roots (by
 * setHTMLUnsafe, parseHTMLUnsafe, in the page's HTML), a closed one
 * attached, and elements that paint their own content changed a second
 * time (once taken as inert). */
static void unseen_changes_are_blind_or_logged(void **st) {
  (void)st;
  static const hostile_case cs[] = {
      {"dsd-set", NULL, "shadow", 0},
      {"dsd-parse", NULL, "shadow", 0},
      {"dsd-parsed", "paintlog-hostile/dsd-open.html", "shadow", 0},
      {"closed-attach", NULL, "shadow", 0},
      {"inert-img", NULL, NULL, 0},
      {"inert-input", NULL, NULL, 0},
      {"inert-canvas", NULL, NULL, 0},
  };
  run_all(cs, sizeof cs / sizeof *cs);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(page_script_cannot_blind_the_log),
      cmocka_unit_test(another_realm_draws_where_the_log_sees_it),
      cmocka_unit_test(unseen_changes_are_blind_or_logged),
  };
  return cmocka_run_group_tests(tests, sc_test_browser_up, sc_test_browser_down);
}
