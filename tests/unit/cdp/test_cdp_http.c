/* sc__http_request against a one-shot loopback server (a forked child) that
 * answers with a chosen status and the raw request it received, so the
 * request line, headers and body can be checked as sent. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cdp/client.h"
#include "core/core.h"
#include "testutil.h"

typedef struct echo_server {
  pid_t pid;
  int port;
} echo_server;

static void write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= (size_t)w;
  }
}

/* In the child: one connection, read head + Content-Length body, reply. */
static void serve_one(int lfd, int status) {
  int fd = accept(lfd, NULL, NULL);
  if (fd < 0) _exit(1);
  static char req[64 * 1024];
  size_t len = 0, need = 0;
  char *head_end = NULL;
  for (;;) {
    ssize_t r = read(fd, req + len, sizeof req - 1 - len);
    if (r <= 0) break;
    len += (size_t)r;
    req[len] = '\0';
    if (!head_end && (head_end = strstr(req, "\r\n\r\n"))) {
      const char *cl = strcasestr(req, "\r\ncontent-length:");
      need = (size_t)(head_end + 4 - req) + (cl && cl < head_end ? strtoul(cl + 17, NULL, 10) : 0);
    }
    if (head_end && len >= need) break;
  }
  char hdr[256];
  int n = snprintf(hdr, sizeof hdr,
                   "HTTP/1.1 %d X\r\nContent-Type: text/plain\r\nContent-Length: %zu\r\n"
                   "Connection: close\r\n\r\n",
                   status, len);
  write_all(fd, hdr, (size_t)n);
  write_all(fd, req, len);
  close(fd);
  _exit(0);
}

static echo_server echo_start(int status) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  assert_true(fd >= 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
  assert_int_equal(listen(fd, 4), 0);
  socklen_t alen = sizeof a;
  assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &alen), 0);
  echo_server s = {fork(), ntohs(a.sin_port)};
  assert_true(s.pid >= 0);
  if (s.pid == 0) serve_one(fd, status);
  close(fd);
  return s;
}

static void echo_stop(echo_server s) {
  kill(s.pid, SIGKILL);
  waitpid(s.pid, NULL, 0);
}

static void post_sends_json_with_charset(void **st) {
  (void)st;
  echo_server s = echo_start(201);
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
  echo_stop(s);
}

/* A body larger than one write goes out in pieces, whole and in order. */
static void post_large_body(void **st) {
  (void)st;
  echo_server s = echo_start(200);
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
  echo_stop(s);
}

/* DELETE without a body: no body headers; a 404 is a reply, not a failure. */
static void delete_and_error_status(void **st) {
  (void)st;
  echo_server s = echo_start(404);
  char url[128], *body = NULL;
  snprintf(url, sizeof url, "http://localhost:%d/session/abc", s.port);
  int status = 0;
  assert_int_equal(sc__http_request(&status, &body, "DELETE", url, NULL, 0, 5000), 0);
  assert_int_equal(status, 404);
  assert_non_null(strstr(body, "DELETE /session/abc HTTP/1.1\r\n"));
  assert_null(strcasestr(body, "content-type:"));
  sc__free(body);
  echo_stop(s);
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
  assert_true(sc__now_ms() - t0 < 100);
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

int main(void) {
  signal(SIGPIPE, SIG_IGN);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(post_sends_json_with_charset),
      cmocka_unit_test(post_large_body),
      cmocka_unit_test(delete_and_error_status),
      cmocka_unit_test(refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
