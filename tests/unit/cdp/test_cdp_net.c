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

#include <signal.h>
#include <sys/time.h>

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

/* A signal during a wait on a peer that never answers (issue 39 item 5):
 * the flag it sets ends the wait within 200 ms, not at the deadline. */
static volatile int g_cancel;
static void on_alarm(int sig) {
  (void)sig;
  g_cancel = 1;
}

static double canceled_after(int (*wait)(const char *url), const char *url) {
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, &old);
  g_cancel = 0;
  struct itimerval it = {{0, 0}, {0, 300000}}; /* 300 ms */
  setitimer(ITIMER_REAL, &it, NULL);
  double t0 = sc__now_ms();
  assert_int_equal(wait(url), SC_ECANCELED);
  double took = sc__now_ms() - t0;
  sigaction(SIGALRM, &old, NULL);
  assert_non_null(strstr(sc_errmsg(), "interrupted"));
  return took;
}

static int http_wait(const char *url) {
  char *body = NULL;
  return sc__http_request_cancel(NULL, &body, "POST", url, "{}", 0, 20000, &g_cancel);
}

static int ws_wait(const char *url) {
  sc__client *cl = NULL;
  sc__client_options o = {0, 20000, &g_cancel};
  int rc = sc__client_connect(&cl, NULL, url, &o);
  assert_null(cl);
  return rc;
}

static void a_signal_ends_a_silent_wait(void **st) {
  (void)st;
  int port, fd = silent_listener(&port);
  char url[128];
  snprintf(url, sizeof url, "http://127.0.0.1:%d/session", port);
  double took = canceled_after(http_wait, url);
  if (took < 290 || took > 600) fail_msg("http: canceled after %.0f ms (signal at 300)", took);
  snprintf(url, sizeof url, "ws://127.0.0.1:%d/devtools/browser/x", port);
  took = canceled_after(ws_wait, url);
  if (took < 290 || took > 600) fail_msg("ws: canceled after %.0f ms (signal at 300)", took);
  close(fd);
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
      cmocka_unit_test(a_signal_ends_a_silent_wait),
      cmocka_unit_test(ws_timeout_and_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
