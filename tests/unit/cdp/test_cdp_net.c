/* Transport failures on loopback sockets (no browser): refused connections
 * and peers that never answer must fail by their deadline. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cdp/client.h"
#include "core/core.h"
#include "testutil.h"

/* A listening socket that never accepts: the kernel completes the TCP
 * handshake, then nothing is ever said. */
static int silent_listener(int *port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  assert_true(fd >= 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
  assert_int_equal(listen(fd, 4), 0);
  socklen_t len = sizeof a;
  assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
  *port = ntohs(a.sin_port);
  return fd;
}

/* A port nobody listens on (bound, then closed). */
static int dead_port(void) {
  int port, fd = silent_listener(&port);
  close(fd);
  return port;
}

static void http_timeout_and_refused(void **st) {
  (void)st;
  int port, fd = silent_listener(&port);
  char *body = (char *)1, url[128];
  snprintf(url, sizeof url, "http://127.0.0.1:%d/json/version", port);
  double t0 = sc__now_ms();
  assert_int_equal(sc__http_request(NULL, &body, "GET", url, NULL, 0, 300), SC_ETIMEDOUT);
  double took = sc__now_ms() - t0;
  if (took < 299 || took > 3000) fail_msg("took %.0f ms (want ~300; the defaults are 10-20 s)", took);
  assert_null(body);
  assert_non_null(strstr(sc_errmsg(), "/json/version"));
  close(fd);
  snprintf(url, sizeof url, "http://127.0.0.1:%d/", dead_port());
  assert_int_equal(sc__http_request(NULL, &body, "GET", url, NULL, 0, 2000), SC_EIO);
  assert_non_null(strstr(sc_errmsg(), url));
  assert_int_equal(sc__http_request(NULL, &body, "GET", "http://127.0.0.1:0/", NULL, 0, 2000),
                   SC_EINVAL);
}

static void ws_timeout_and_refused(void **st) {
  (void)st;
  int port, fd = silent_listener(&port);
  char url[128];
  snprintf(url, sizeof url, "ws://127.0.0.1:%d/devtools/browser/x", port);
  sc__client *cl = (sc__client *)1;
  sc__client_options o = {0, 300, NULL};
  double t0 = sc__now_ms();
  assert_int_equal(sc__client_connect(&cl, NULL, url, &o), SC_ETIMEDOUT);
  double took = sc__now_ms() - t0;
  if (took < 299 || took > 3000) fail_msg("took %.0f ms (want ~300; the defaults are 10-20 s)", took);
  assert_null(cl);
  close(fd);
  snprintf(url, sizeof url, "ws://127.0.0.1:%d/devtools/browser/x", dead_port());
  assert_int_equal(sc__client_connect(&cl, NULL, url, &o), SC_EIO);
  assert_non_null(strstr(sc_errmsg(), url));
  assert_int_equal(sc__client_connect(&cl, NULL, "http://127.0.0.1:1/", &o), SC_EINVAL);
  sc__client_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(http_timeout_and_refused),
      cmocka_unit_test(ws_timeout_and_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
