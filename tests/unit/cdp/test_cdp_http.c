/* sc__http_request against a one-shot loopback server (sc_test_http) that
 * answers with a chosen status and the raw request it received, so the
 * request line, headers and body can be checked as sent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cdp/client.h"
#include "core/core.h"
#include "testutil.h"

static sc_test_http echo_start(int status) {
  static sc_test_reply r[1];
  r[0] = (sc_test_reply){.status = status};
  return sc_test_http_start(r, 1);
}

static void echo_stop(sc_test_http *s) { free(sc_test_http_stop(s)); }

static void post_sends_json_with_charset(void **st) {
  (void)st;
  sc_test_http s = echo_start(201);
  char url[128], *body = NULL;
  snprintf(url, sizeof url, "http://127.0.0.1:%d/session", s.port);
  int status = 0;
  const char *json = "{\"capabilities\":{}}";
  assert_int_equal(sc__http_request(&status, &body, "POST", url, json, 0, 5000), 0);
  assert_int_equal(status, 201);
  assert_non_null(strstr(body, "POST /session HTTP/1.1\r\n"));
  assert_non_null(strcasestr(body, "\r\ncontent-type: application/json; charset=utf-8\r\n"));
  assert_non_null(strcasestr(body, "\r\ncontent-length: 19\r\n"));
  assert_non_null(strstr(body, "\r\n\r\n{\"capabilities\":{}}"));
  sc__free(body);
  echo_stop(&s);
}

/* A body larger than one write goes out in pieces, whole and in order. */
static void post_large_body(void **st) {
  (void)st;
  sc_test_http s = echo_start(200);
  char url[128], *body = NULL;
  snprintf(url, sizeof url, "http://127.0.0.1:%d/x", s.port);
  size_t n = 20000;
  char *json = malloc(n + 1);
  assert_non_null(json);
  for (size_t i = 0; i < n; i++) json[i] = (char)('a' + i % 26);
  json[0] = '"';
  json[n - 1] = '"';
  json[n] = '\0';
  int status = 0;
  assert_int_equal(sc__http_request(&status, &body, "POST", url, json, 0, 5000), 0);
  assert_int_equal(status, 200);
  const char *got = strstr(body, "\r\n\r\n");
  assert_non_null(got);
  assert_string_equal(got + 4, json);
  free(json);
  sc__free(body);
  echo_stop(&s);
}

/* DELETE without a body: no body headers; a 404 is a reply, not a failure. */
static void delete_and_error_status(void **st) {
  (void)st;
  sc_test_http s = echo_start(404);
  char url[128], *body = NULL;
  snprintf(url, sizeof url, "http://localhost:%d/session/abc", s.port);
  int status = 0;
  assert_int_equal(sc__http_request(&status, &body, "DELETE", url, NULL, 0, 5000), 0);
  assert_int_equal(status, 404);
  assert_non_null(strstr(body, "DELETE /session/abc HTTP/1.1\r\n"));
  assert_null(strcasestr(body, "content-type:"));
  sc__free(body);
  echo_stop(&s);
}

/* Refused before any traffic: a remote host without the flag, other methods,
 * other schemes. */
static void refusals(void **st) {
  (void)st;
  int status = 7;
  char *body = (char *)1;
  double t0 = sc__now_ms();
  assert_int_equal(
      sc__http_request(&status, &body, "GET", "http://192.0.2.1:4444/status", NULL, 0, 5000),
      SC_EINVAL);
  assert_true(sc__now_ms() - t0 < 500); /* no connection attempt (that would wait 5 s) */
  assert_non_null(strstr(sc_errmsg(), "not a loopback address"));
  assert_null(body);
  assert_int_equal(status, 0);
  assert_int_equal(
      sc__http_request(NULL, NULL, "PUT", "http://127.0.0.1:4444/", NULL, 0, 5000), SC_EINVAL);
  assert_int_equal(
      sc__http_request(NULL, NULL, "GET", "ws://127.0.0.1:4444/", NULL, 0, 5000), SC_EINVAL);
  assert_int_equal(sc__http_request(NULL, NULL, "GET", NULL, NULL, 0, 5000), SC_EINVAL);
  assert_int_equal(
      sc__http_request(NULL, NULL, "GET", "http://127.0.0.1:4444/", NULL, 0, 0), SC_EINVAL);
}


/* Requests in the server's log ("\n--\n" after each). */
static int count_requests(const char *log) {
  int n = 0;
  for (const char *p = log; (p = strstr(p, "\n--\n")); p += 4) n++;
  return n;
}

/* A redirect off loopback is refused, not followed: the request never
 * leaves the machine, and the message names both URLs and the rule. */
static void redirect_off_loopback_is_not_followed(void **st) {
  (void)st;
  static sc_test_reply r[2];
  r[0] = (sc_test_reply){.status = 302, .body = "", .location = "http://192.0.2.1:9/json/version"};
  r[1] = (sc_test_reply){.status = 200, .body = "{}"};
  sc_test_http s = sc_test_http_start(r, 2);
  char url[128], *body = NULL;
  snprintf(url, sizeof url, "http://127.0.0.1:%d/json/version", s.port);
  int status = 0;
  double t0 = sc__now_ms();
  assert_int_equal(sc__http_request(&status, &body, "GET", url, NULL, 0, 5000), SC_EINVAL);
  assert_true(sc__now_ms() - t0 < 2000); /* refused, not tried until a timeout */
  assert_null(body);
  assert_non_null(strstr(sc_errmsg(), url));
  assert_non_null(strstr(sc_errmsg(), "redirected, not followed"));
  assert_non_null(strstr(sc_errmsg(), "192.0.2.1 is not a loopback address"));
  char *log = sc_test_http_stop(&s);
  assert_int_equal(count_requests(log), 1);
  free(log);
}

/* On loopback a GET follows a redirect (absolute or a path) to its end. */
static void redirect_on_loopback_is_followed(void **st) {
  (void)st;
  static sc_test_reply r[3];
  r[0] = (sc_test_reply){.status = 301, .body = "", .location = "/next"};
  r[1] = (sc_test_reply){.status = 200, .body = "{\"ok\":1}"};
  sc_test_http s = sc_test_http_start(r, 2);
  char url[128], *body = NULL;
  snprintf(url, sizeof url, "http://127.0.0.1:%d/json/version", s.port);
  int status = 0;
  assert_int_equal(sc__http_request(&status, &body, "GET", url, NULL, 0, 5000), 0);
  assert_int_equal(status, 200);
  assert_string_equal(body, "{\"ok\":1}");
  sc__free(body);
  char *log = sc_test_http_stop(&s);
  assert_non_null(strstr(log, "GET /next HTTP/1.1"));
  free(log);
}

/* A POST (a grid's session body) is never sent on to a redirect's target,
 * not even on loopback; endless redirects end. */
static void post_redirect_and_loops_are_refused(void **st) {
  (void)st;
  static sc_test_reply r[1];
  r[0] = (sc_test_reply){.status = 307, .body = "", .location = "/session"};
  sc_test_http s = sc_test_http_start(r, 1);
  char url[128], *body = NULL;
  snprintf(url, sizeof url, "http://127.0.0.1:%d/session", s.port);
  int status = 0;
  assert_int_equal(sc__http_request(&status, &body, "POST", url, "{}", 0, 5000), SC_EPROTO);
  assert_non_null(strstr(sc_errmsg(), "redirects are not followed for POST"));
  char *log = sc_test_http_stop(&s);
  assert_int_equal(count_requests(log), 1);
  free(log);

  static sc_test_reply loop[6];
  for (int i = 0; i < 6; i++) loop[i] = (sc_test_reply){.status = 302, .body = "", .location = "/again"};
  s = sc_test_http_start(loop, 6);
  snprintf(url, sizeof url, "http://127.0.0.1:%d/", s.port);
  assert_int_equal(sc__http_request(&status, &body, "GET", url, NULL, 0, 5000), SC_EPROTO);
  assert_non_null(strstr(sc_errmsg(), "more than 4 redirects"));
  free(sc_test_http_stop(&s));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(post_sends_json_with_charset),
      cmocka_unit_test(post_large_body),
      cmocka_unit_test(delete_and_error_status),
      cmocka_unit_test(refusals),
      cmocka_unit_test(redirect_off_loopback_is_not_followed),
      cmocka_unit_test(redirect_on_loopback_is_followed),
      cmocka_unit_test(post_redirect_and_loops_are_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
