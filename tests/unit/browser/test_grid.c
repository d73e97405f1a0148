/* Grid sessions against a scripted loopback server (sc_test_http): what is
 * asked for, what is read from the reply, the errors a caller sees, and that
 * every session the grid made is deleted. The real grid is
 * tests/integration/test_grid.c. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "stepcheck.h"
#include "testutil.h"

#define NEW_OK(id, cdp) \
  "{\"value\":{\"sessionId\":\"" id "\",\"capabilities\":{\"browserName\":\"chrome\"," \
  "\"se:cdp\":\"" cdp "\"}}}"
#define DELETED "{\"value\":null}"

static char *grid_url(const sc_test_http *s, const char *path) {
  static char buf[128];
  snprintf(buf, sizeof buf, "http://127.0.0.1:%d%s", s->port, path);
  return buf;
}

static size_t count(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
  return n;
}

/* The JSON body of the first request in a log. */
static json_t *first_body(const char *log) {
  const char *b = strstr(log, "\r\n\r\n");
  assert_non_null(b);
  const char *end = strstr(b, "\n--\n");
  assert_non_null(end);
  json_t *v = json_loadb(b + 4, (size_t)(end - b - 4), 0, NULL);
  assert_non_null(v);
  return v;
}

static void creates_reads_and_deletes(void **st) {
  (void)st;
  sc_test_reply r[] = {
      {.status = 200, .body = NEW_OK("abc123", "ws://10.9.8.7:4444/wd/session/abc123/se/cdp")},
      {.status = 200, .body = DELETED}};
  sc_test_http s = sc_test_http_start(r, 2);
  const char *extra[] = {"--no-sandbox", NULL};
  sc_grid_options o = SC_GRID_OPTIONS_INIT;
  o.extra_args = extra;
  sc_grid_session *g = NULL;
  int rc = sc_grid_session_new(&g, grid_url(&s, "/wd/"), &o);
  if (rc) fail_msg("%s", sc_errmsg());
  assert_string_equal(sc_grid_session_id(g), "abc123");
  /* se:cdp's path, on the host and port the grid was reached at. */
  char want[128];
  snprintf(want, sizeof want, "ws://127.0.0.1:%d/wd/session/abc123/se/cdp", s.port);
  assert_string_equal(sc_grid_session_cdp_url(g), want);
  assert_int_equal(sc_grid_session_delete(g), 0);
  assert_int_equal(sc_grid_session_delete(g), 0); /* idempotent: nothing sent */
  sc_grid_session_free(g);
  char *log = sc_test_http_stop(&s);
  assert_int_equal(count(log, "\n--\n"), 2);
  assert_non_null(strstr(log, "POST /wd/session HTTP/1.1\r\n"));
  assert_non_null(strcasestr(log, "\r\ncontent-type: application/json; charset=utf-8\r\n"));
  assert_non_null(strstr(log, "DELETE /wd/session/abc123 HTTP/1.1\r\n"));
  json_t *req = first_body(log),
         *ao = json_object_get(json_object_get(req, "capabilities"), "alwaysMatch");
  assert_string_equal(json_string_value(json_object_get(ao, "browserName")), "chrome");
  json_t *co = json_object_get(ao, "goog:chromeOptions");
  assert_string_equal(json_string_value(json_object_get(co, "binary")), "/usr/bin/chromium");
  json_t *args = json_object_get(co, "args");
  size_t n = json_array_size(args);
  assert_true(n > 5);
  assert_string_equal(json_string_value(json_array_get(args, 0)), "--headless");
  assert_string_equal(json_string_value(json_array_get(args, n - 1)), "--no-sandbox");
  for (size_t i = 0; i < n; i++) /* the node's driver owns the DevTools port */
    assert_null(strstr(json_string_value(json_array_get(args, i)), "remote-debugging"));
  json_decref(req);
  free(log);
}

static void binary_option(void **st) {
  (void)st;
  sc_test_reply r[] = {{.status = 200, .body = NEW_OK("s1", "ws://127.0.0.1:1/session/s1/se/cdp")},
                       {.status = 200, .body = DELETED}};
  sc_test_http s = sc_test_http_start(r, 2);
  sc_grid_options o = SC_GRID_OPTIONS_INIT;
  o.binary = "/opt/chromium/chrome";
  sc_grid_session *g = NULL;
  assert_int_equal(sc_grid_session_new(&g, grid_url(&s, ""), &o), 0);
  sc_grid_session_free(g); /* deletes */
  char *log = sc_test_http_stop(&s);
  json_t *req = first_body(log);
  assert_non_null(strstr(log, "DELETE /session/s1 HTTP/1.1\r\n"));
  assert_string_equal(
      json_string_value(json_object_get(
          json_object_get(json_object_get(json_object_get(req, "capabilities"), "alwaysMatch"),
                          "goog:chromeOptions"),
          "binary")),
      "/opt/chromium/chrome");
  json_decref(req);
  free(log);
}

/* A refusal quotes the grid's error and its message on one line: a
 * newline in it is escaped, never the end of the line (issue 25). */
static void refused_with_status(void **st) {
  (void)st;
  sc_test_reply r[] = {{.status = 500,
                        .body = "{\"value\":{\"error\":\"session not created\",\"message\":"
                                "\"Could not start a new session. Chrome failed to start\\n"
                                "Build info: version: '4.48.0'\",\"stacktrace\":\"\"}}"}};
  sc_test_http s = sc_test_http_start(r, 1);
  sc_grid_session *g = (sc_grid_session *)1;
  const char *url = grid_url(&s, "");
  assert_int_equal(sc_grid_session_new(&g, url, NULL), SC_EPROTO);
  assert_null(g);
  const char *m = sc_errmsg();
  assert_non_null(strstr(m, url));
  assert_non_null(strstr(m, "status 500: session not created: Could not start a new session. "
                            "Chrome failed to start"));
  assert_null(strchr(m, '\n'));
  assert_non_null(strstr(m, "Chrome failed to start\\nBuild info: version: '4.48.0'"));
  free(sc_test_http_stop(&s));
  /* A reply that is not JSON still says the status. */
  sc_test_reply r2[] = {{.status = 503, .body = "<html>busy</html>"}};
  s = sc_test_http_start(r2, 1);
  assert_int_equal(sc_grid_session_new(&g, grid_url(&s, ""), NULL), SC_EPROTO);
  assert_non_null(strstr(sc_errmsg(), "status 503"));
  free(sc_test_http_stop(&s));
}

/* A session without se:cdp is of no use: it is deleted again at once. */
static void no_cdp_deletes_the_session(void **st) {
  (void)st;
  sc_test_reply r[] = {
      {.status = 200,
       .body = "{\"value\":{\"sessionId\":\"x9\",\"capabilities\":{\"browserName\":\"chrome\"}}}"},
      {.status = 200, .body = DELETED}};
  sc_test_http s = sc_test_http_start(r, 2);
  sc_grid_session *g = NULL;
  assert_int_equal(sc_grid_session_new(&g, grid_url(&s, ""), NULL), SC_EPROTO);
  assert_non_null(strstr(sc_errmsg(), "no se:cdp"));
  assert_non_null(strstr(sc_errmsg(), grid_url(&s, "")));
  char *log = sc_test_http_stop(&s);
  assert_non_null(strstr(log, "DELETE /session/x9 HTTP/1.1\r\n"));
  free(log);
  /* A session id that cannot go into a URL is refused, and nothing deleted. */
  sc_test_reply r2[] = {{.status = 200, .body = NEW_OK("../../status", "ws://127.0.0.1:1/x")}};
  s = sc_test_http_start(r2, 1);
  assert_int_equal(sc_grid_session_new(&g, grid_url(&s, ""), NULL), SC_EPROTO);
  assert_non_null(strstr(sc_errmsg(), "sessionId"));
  log = sc_test_http_stop(&s);
  assert_int_equal(count(log, "\n--\n"), 1);
  free(log);
}

/* Delete: a 404 means the grid no longer has it (done); another status is
 * an error, and free tries once more. */
static void delete_statuses(void **st) {
  (void)st;
  sc_test_reply r[] = {
      {.status = 200, .body = NEW_OK("d1", "ws://127.0.0.1:1/session/d1/se/cdp")},
      {.status = 404, .body = "{\"value\":{\"error\":\"invalid session id\",\"message\":\"x\"}}"},
      {.status = 200, .body = NEW_OK("d2", "ws://127.0.0.1:1/session/d2/se/cdp")},
      {.status = 500, .body = "{\"value\":{\"error\":\"unknown error\",\"message\":\"busy\"}}"},
      {.status = 200, .body = DELETED}};
  sc_test_http s = sc_test_http_start(r, 5);
  sc_grid_session *g = NULL;
  assert_int_equal(sc_grid_session_new(&g, grid_url(&s, ""), NULL), 0);
  assert_int_equal(sc_grid_session_delete(g), 0);
  sc_grid_session_free(g); /* already deleted: nothing sent */
  assert_int_equal(sc_grid_session_new(&g, grid_url(&s, ""), NULL), 0);
  assert_int_equal(sc_grid_session_delete(g), SC_EPROTO);
  assert_non_null(strstr(sc_errmsg(), "status 500: unknown error: busy"));
  sc__err(SC_EIO, "the caller's message");
  sc_grid_session_free(g); /* tries again, keeps the caller's message */
  assert_string_equal(sc_errmsg(), "the caller's message");
  char *log = sc_test_http_stop(&s);
  assert_int_equal(count(log, "\n--\n"), 5);
  assert_int_equal(count(log, "DELETE /session/d2 "), 2);
  free(log);
}

static void refusals_before_traffic(void **st) {
  (void)st;
  sc_grid_session *g = (sc_grid_session *)1;
  double t0 = sc__now_ms();
  assert_int_equal(sc_grid_session_new(&g, "http://10.1.2.3:4444", NULL), SC_EINVAL);
  assert_true(sc__now_ms() - t0 < 500); /* no connection attempt (that would wait 60 s) */
  assert_null(g);
  assert_non_null(strstr(sc_errmsg(), "http://10.1.2.3:4444"));
  assert_non_null(strstr(sc_errmsg(), "not a loopback"));
  assert_non_null(strstr(sc_errmsg(), "allow_remote"));
  assert_int_equal(sc_grid_session_new(&g, "http://grid.example:4444", NULL), SC_EINVAL);
  /* allowed: the request goes out (192.0.2.1 is a documentation address). */
  sc_grid_options o = SC_GRID_OPTIONS_INIT;
  o.allow_remote = 1;
  o.timeout_ms = 300;
  int rc = sc_grid_session_new(&g, "http://192.0.2.1:4444", &o);
  assert_true(rc == SC_EIO || rc == SC_ETIMEDOUT);
  assert_null(strstr(sc_errmsg(), "loopback"));
  assert_int_equal(sc_grid_session_new(NULL, "http://127.0.0.1:4444", NULL), SC_EINVAL);
  assert_int_equal(sc_grid_session_new(&g, NULL, NULL), SC_EINVAL);
  assert_int_equal(sc_grid_session_new(&g, "ws://127.0.0.1:4444", NULL), SC_EINVAL);
  assert_int_equal(sc_grid_session_new(&g, "127.0.0.1:4444", NULL), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "grid 127.0.0.1:4444"));
  assert_int_equal(sc_grid_session_new(&g, "http://127.0.0.1:4444/?a=b", NULL), SC_EINVAL);
  o = (sc_grid_options)SC_GRID_OPTIONS_INIT;
  o.version = 99;
  assert_int_equal(sc_grid_session_new(&g, "http://127.0.0.1:4444", &o), SC_EINVAL);
  assert_int_equal(sc_grid_session_delete(NULL), SC_EINVAL);
  sc_grid_session_free(NULL);
  assert_string_equal(sc_grid_session_id(NULL), "");
  assert_string_equal(sc_grid_session_cdp_url(NULL), "");
}

/* Nobody listening: a clear error at once, not after the timeout. */
static void unreachable_is_fast(void **st) {
  (void)st;
  sc_test_reply r[] = {{.status = 200, .body = DELETED}};
  sc_test_http s = sc_test_http_start(r, 1);
  free(sc_test_http_stop(&s)); /* the port is free again */
  sc_grid_session *g = NULL;
  double t0 = sc__now_ms();
  assert_int_equal(sc_grid_session_new(&g, grid_url(&s, ""), NULL), SC_EIO);
  assert_true(sc__now_ms() - t0 < 1000);
  assert_non_null(strstr(sc_errmsg(), grid_url(&s, "")));
  assert_non_null(strstr(sc_errmsg(), "cannot reach"));
}

/* Every allocation failing in turn: an error or a session, never a leak. */
static void allocation_failures(void **st) {
  (void)st;
  sc_test_alloc_install();
  long base = sc_test_alloc_live();
  for (long n = 0;; n++) {
    sc_test_reply r[] = {
        {.status = 200, .body = NEW_OK("m1", "ws://127.0.0.1:1/session/m1/se/cdp")},
        {.status = 200, .body = DELETED}};
    sc_test_http s = sc_test_http_start(r, 2);
    sc_grid_session *g = NULL;
    sc_test_alloc_fail_after(n);
    int rc = sc_grid_session_new(&g, grid_url(&s, ""), NULL);
    sc_test_alloc_fail_after(-1);
    sc_grid_session_free(g);
    free(sc_test_http_stop(&s));
    if (sc_test_alloc_live() != base) fail_msg("leak after failing allocation %ld", n);
    if (rc == 0) break;
    assert_true(n < 1000);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(creates_reads_and_deletes),
      cmocka_unit_test(binary_option),
      cmocka_unit_test(refused_with_status),
      cmocka_unit_test(no_cdp_deletes_the_session),
      cmocka_unit_test(delete_statuses),
      cmocka_unit_test(refusals_before_traffic),
      cmocka_unit_test(unreachable_is_fast),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
