/* Browser layer on a real Chromium: launch, CDP round trip, attach twice,
 * loopback-only endpoints, a browser killed mid-call, cleanup, bad launches. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "browser/handle.h"
#include "core/core.h"
#include "stepcheck.h"
#include "testutil.h"

/* Tests that need a browser get it as state: the teardown frees it even when
 * an assertion failed, so no Chromium outlives a failing test. */
static int setup_browser(void **state) {
  sc_browser *b = NULL;
  int rc = sc_browser_launch(&b, NULL);
  if (rc) {
    fprintf(stderr, "launch: %s (%s)\n", sc_strerror(rc), sc_errmsg());
    return -1;
  }
  *state = b;
  return 0;
}

static int teardown_browser(void **state) {
  sc_browser_free(*state);
  *state = NULL;
  return 0;
}

/* Target.createTarget + attach (flat) → sessionId (static buffer). */
static const char *open_session(sc__client *cl) {
  static char sid[64];
  json_t *r = NULL;
  assert_int_equal(sc__client_call(cl, NULL, "Target.createTarget",
                                   json_pack("{ss}", "url", "about:blank"), 10000, &r),
                   0);
  json_t *params = json_pack("{sOsb}", "targetId", json_object_get(r, "targetId"),
                             "flatten", 1);
  json_decref(r);
  assert_int_equal(sc__client_call(cl, NULL, "Target.attachToTarget", params, 10000, &r), 0);
  snprintf(sid, sizeof sid, "%s", json_string_value(json_object_get(r, "sessionId")));
  json_decref(r);
  assert_true(strlen(sid) > 0);
  return sid;
}

static int pid_gone(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

static void launch_and_evaluate(void **st) {
  sc_browser *b = *st;
  const char *product = sc_browser_product(b);
  assert_true(strncmp(product, "Chrome/", 7) == 0 || strncmp(product, "HeadlessChrome/", 15) == 0);
  assert_true(sc_browser_pid(b) > 0);
  assert_true(strncmp(sc_browser_ws_url(b), "ws://127.0.0.1:", 15) == 0);
  const char *dir = sc__browser_profile_dir(b);
  struct stat s;
  assert_int_equal(stat(dir, &s), 0);
  assert_int_equal(s.st_mode & 0777, 0700);
  assert_true(strncmp(dir, "/dev/shm/", 9) == 0);

  sc__client *cl = sc__browser_client(b);
  const char *sid = open_session(cl);
  json_t *r = NULL;
  assert_int_equal(sc__client_call(cl, sid, "Runtime.evaluate",
                                   json_pack("{ss}", "expression", "1+2"), 10000, &r),
                   0);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "result"), "value")), 3);
  json_decref(r);
  /* A CDP error comes back as SC_EPROTO with "METHOD: CODE message". */
  assert_int_equal(sc__client_call(cl, NULL, "Nope.nothing", NULL, 10000, NULL), SC_EPROTO);
  assert_non_null(strstr(sc_errmsg(), "Nope.nothing: -32601"));
}

static void attach_twice(void **st) {
  sc_browser *b = *st;
  int port = 0;
  assert_int_equal(sscanf(sc_browser_ws_url(b), "ws://127.0.0.1:%d/", &port), 1);
  char http[64], http_slash[64];
  snprintf(http, sizeof http, "http://127.0.0.1:%d", port);
  snprintf(http_slash, sizeof http_slash, "http://localhost:%d/", port);
  const char *eps[] = {http, http_slash, sc_browser_ws_url(b)};
  for (size_t i = 0; i < 3; i++) {
    sc_browser *a = NULL;
    int rc = sc_browser_connect(&a, eps[i], NULL);
    if (rc) fail_msg("connect %s: %s", eps[i], sc_errmsg());
    assert_string_equal(sc_browser_product(a), sc_browser_product(b));
    assert_int_equal(sc_browser_pid(a), 0);
    assert_null(sc__browser_profile_dir(a));
    /* Chromium names the host it was asked by; the browser id is the same. */
    assert_string_equal(strstr(sc_browser_ws_url(a), "/devtools/browser/"),
                        strstr(sc_browser_ws_url(b), "/devtools/browser/"));
    json_t *r = NULL;
    assert_int_equal(sc__client_call(sc__browser_client(a), NULL, "Target.getTargets", NULL,
                                     10000, &r),
                     0);
    assert_true(json_array_size(json_object_get(r, "targetInfos")) >= 1);
    json_decref(r);
    sc_browser_free(a); /* disconnects only */
    assert_false(pid_gone(sc_browser_pid(b)));
  }
  /* The launched browser is still there and still ours. */
  assert_int_equal(sc__client_call(sc__browser_client(b), NULL, "Browser.getVersion", NULL,
                                   10000, NULL),
                   0);
  assert_false(pid_gone(sc_browser_pid(b)));
}

static void loopback_only(void **st) {
  (void)st;
  const char *bad[] = {"http://10.1.2.3:9222", "ws://192.168.1.5:9222/devtools/browser/x",
                       "http://example.com:9222", "ws://[fe80::1]:9222/devtools/browser/x"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    sc_browser *a = (sc_browser *)1;
    double t0 = sc__now_ms();
    assert_int_equal(sc_browser_connect(&a, bad[i], NULL), SC_EINVAL);
    assert_true(sc__now_ms() - t0 < 50); /* refused before any network traffic */
    assert_null(a);
    assert_non_null(strstr(sc_errmsg(), "not a loopback"));
  }
  assert_int_equal(sc_browser_connect(&(sc_browser *){NULL}, "http://10.1.2.3:9222", NULL),
                   SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "10.1.2.3"));
  assert_int_equal(sc_browser_connect(&(sc_browser *){NULL}, "ftp://127.0.0.1:1/", NULL),
                   SC_EINVAL);
  assert_int_equal(sc_browser_connect(&(sc_browser *){NULL}, "127.0.0.1:9222", NULL), SC_EINVAL);
  /* Loopback but nobody listening: an I/O error, quickly. */
  assert_int_equal(sc_browser_connect(&(sc_browser *){NULL}, "http://127.0.0.1:1", NULL), SC_EIO);
  /* allow_remote lifts the check: the attempt goes out (and fails here,
   * 192.0.2.1 is a documentation address nobody answers on). */
  sc_browser_options o = SC_BROWSER_OPTIONS_INIT;
  o.allow_remote = 1;
  o.launch_timeout_ms = 300;
  int rc = sc_browser_connect(&(sc_browser *){NULL}, "ws://192.0.2.1:9/devtools/browser/x", &o);
  assert_true(rc == SC_EIO || rc == SC_ETIMEDOUT);
  assert_null(strstr(sc_errmsg(), "not a loopback"));
  rc = sc_browser_connect(&(sc_browser *){NULL}, "http://192.0.2.1:9", &o);
  assert_true(rc == SC_EIO || rc == SC_ETIMEDOUT);
  assert_null(strstr(sc_errmsg(), "not a loopback"));
  /* Version 2 options (before allow_remote) are still accepted, and stay
   * loopback only whatever follows them in memory. */
  o.version = 2;
  assert_int_equal(sc_browser_connect(&(sc_browser *){NULL}, "http://10.1.2.3:9222", &o),
                   SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "not a loopback"));
  o.version = SC_BROWSER_OPTIONS_VERSION + 1;
  assert_int_equal(sc_browser_connect(&(sc_browser *){NULL}, "http://127.0.0.1:1", &o),
                   SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "version"));
}

static void killed_while_pending(void **st) {
  sc_browser *b = *st;
  sc__client *cl = sc__browser_client(b);
  const char *sid = open_session(cl);
  pid_t pid = sc_browser_pid(b);
  char dir[512];
  snprintf(dir, sizeof dir, "%s", sc__browser_profile_dir(b));
  const double delay = 300;
  pid_t killer = fork();
  assert_true(killer >= 0);
  if (killer == 0) {
    usleep((useconds_t)(delay * 1000));
    kill(pid, SIGKILL);
    _exit(0);
  }
  double t0 = sc__now_ms();
  int rc = sc__client_call(cl, sid, "Runtime.evaluate",
                           json_pack("{sssb}", "expression", "new Promise(() => {})",
                                     "awaitPromise", 1),
                           10000, NULL);
  double elapsed = sc__now_ms() - t0 - delay;
  waitpid(killer, NULL, 0);
  assert_int_equal(rc, SC_ECLOSED);
  assert_non_null(strstr(sc_errmsg(), "Runtime.evaluate"));
  print_message("call failed %.0f ms after the kill\n", elapsed);
  if (elapsed >= 1000) fail_msg("failed %.0f ms after the kill (want < 1000)", elapsed);
  /* Later calls fail at once. */
  t0 = sc__now_ms();
  assert_int_equal(sc__client_call(cl, NULL, "Browser.getVersion", NULL, 5000, NULL), SC_ECLOSED);
  assert_true(sc__now_ms() - t0 < 50);
  assert_int_equal(sc__client_service(cl, 10), SC_ECLOSED);
  *st = NULL;
  sc_browser_free(b);
  assert_true(pid_gone(pid));
  struct stat s;
  assert_int_equal(stat(dir, &s), -1);
}

static void free_cleans_up(void **st) {
  sc_browser *b = *st;
  pid_t pid = sc_browser_pid(b);
  char dir[512];
  snprintf(dir, sizeof dir, "%s", sc__browser_profile_dir(b));
  double t0 = sc__now_ms();
  *st = NULL;
  sc_browser_free(b);
  double took = sc__now_ms() - t0;
  assert_true(pid_gone(pid));
  assert_int_equal(waitpid(pid, NULL, WNOHANG), -1); /* reaped: no zombie */
  struct stat s;
  assert_int_equal(stat(dir, &s), -1);
  assert_int_equal(errno, ENOENT);
  print_message("sc_browser_free took %.0f ms\n", took);
  sc_browser_free(NULL);
}

/* Deadlines hold on a live connection: a never-answered call times out at its
 * deadline, an idle service() waits its full timeout, 0 polls. */
static void deadlines_and_service(void **st) {
  sc_browser *b = *st;
  sc__client *cl = sc__browser_client(b);
  const char *sid = open_session(cl);
  double t0 = sc__now_ms();
  int rc = sc__client_call(cl, sid, "Runtime.evaluate",
                           json_pack("{sssb}", "expression", "new Promise(() => {})",
                                     "awaitPromise", 1),
                           300, NULL);
  double took = sc__now_ms() - t0;
  assert_int_equal(rc, SC_ETIMEDOUT);
  assert_non_null(strstr(sc_errmsg(), "Runtime.evaluate: timed out after 300 ms"));
  if (took < 300 || took > 400) fail_msg("timed out after %.0f ms (want 300..400)", took);
  t0 = sc__now_ms();
  assert_int_equal(sc__client_service(cl, 200), 0);
  took = sc__now_ms() - t0;
  if (took < 199 || took > 300) fail_msg("idle service(200) took %.0f ms", took);
  t0 = sc__now_ms();
  assert_int_equal(sc__client_service(cl, 0), 0);
  assert_true(sc__now_ms() - t0 < 20);
  /* The connection is still good. */
  assert_int_equal(sc__client_call(cl, NULL, "Browser.getVersion", NULL, 5000, NULL), 0);
}

/* Multi-megabyte replies arrive whole (many receive chunks); over the cap a
 * reply fails with SC_ETOOBIG and the connection keeps working. */
static void big_messages_and_cap(void **st) {
  sc_browser *b = *st;
  sc__client *cl = sc__browser_client(b);
  const char *sid = open_session(cl);
  json_t *r = NULL;
  assert_int_equal(sc__client_call(cl, sid, "Runtime.evaluate",
                                   json_pack("{ss}", "expression", "'x'.repeat(5000000)"),
                                   20000, &r),
                   0);
  const char *v = json_string_value(json_object_get(json_object_get(r, "result"), "value"));
  assert_non_null(v);
  assert_int_equal(strlen(v), 5000000);
  json_decref(r);

  sc__client *small = NULL;
  sc__client_options co = {1 << 20, 5000, NULL};
  assert_int_equal(sc__client_connect(&small, NULL, sc_browser_ws_url(b), &co), 0);
  sid = open_session(small); /* sessions belong to their connection */
  double t0 = sc__now_ms();
  int rc = sc__client_call(small, sid, "Runtime.evaluate",
                           json_pack("{ss}", "expression", "'y'.repeat(2000000)"), 20000, NULL);
  assert_int_equal(rc, SC_ETOOBIG);
  assert_true(sc__now_ms() - t0 < 5000); /* failed by the cap, not by the deadline */
  assert_non_null(strstr(sc_errmsg(), "exceeds the 1048576 byte limit"));
  assert_int_equal(sc__client_call(small, sid, "Runtime.evaluate",
                                   json_pack("{ss}", "expression", "1+2"), 5000, &r),
                   0);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(r, "result"), "value")), 3);
  json_decref(r);
  sc__client_free(small);
}

typedef struct lctx {
  sc__client *cl;
  int calls[3];
  sc__listener_id ids[3];
} lctx;

static lctx *g_l;
static void l0(const char *s, const char *m, json_t *p, void *ud) { g_l->calls[0]++; }
static void l1(const char *s, const char *m, json_t *p, void *ud) {
  /* Removes itself and the next listener in the middle of a dispatch. */
  g_l->calls[1]++;
  sc__client_unlisten(g_l->cl, g_l->ids[1]);
  sc__client_unlisten(g_l->cl, g_l->ids[2]);
}
static void l2(const char *s, const char *m, json_t *p, void *ud) { g_l->calls[2]++; }

static void listeners(void **st) {
  sc_browser *b = *st;
  lctx L = {sc__browser_client(b), {0, 0, 0}, {0, 0, 0}};
  g_l = &L;
  const char *sid = open_session(L.cl);
  L.ids[0] = sc__client_listen(L.cl, l0, NULL);
  L.ids[1] = sc__client_listen(L.cl, l1, NULL);
  L.ids[2] = sc__client_listen(L.cl, l2, NULL);
  assert_true(L.ids[0] > 0 && L.ids[1] > L.ids[0] && L.ids[2] > L.ids[1]);
  assert_int_equal(sc__client_call(L.cl, sid, "Runtime.enable", NULL, 5000, NULL), 0);
  assert_int_equal(sc__client_call(L.cl, sid, "Runtime.evaluate",
                                   json_pack("{ss}", "expression", "console.log('hi')"), 5000,
                                   NULL),
                   0);
  sc__client_service(L.cl, 100);
  assert_true(L.calls[0] >= 2);
  assert_int_equal(L.calls[1], 1);
  assert_int_equal(L.calls[2], 0);
  sc__client_unlisten(L.cl, L.ids[0]);
  sc__client_unlisten(L.cl, 12345); /* unknown: ignored */
}

/* This process's profiles (stepcheck-PID-XXXXXX): other tests running at
 * the same time launch browsers of their own. */
static int count_profiles(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "ls -d /dev/shm/stepcheck-%ld-* 2>/dev/null | wc -l", (long)getpid());
  FILE *p = popen(cmd, "r");
  int n = -1;
  if (p) {
    if (fscanf(p, "%d", &n) != 1) n = -1;
    pclose(p);
  }
  return n;
}

static void bad_launches(void **st) {
  (void)st;
  int before = count_profiles();
  sc_browser_options o = SC_BROWSER_OPTIONS_INIT;
  sc_browser *b = (sc_browser *)1;
  o.executable = "/nonexistent/chromium-xyz";
  assert_int_equal(sc_browser_launch(&b, &o), SC_ELAUNCH);
  assert_null(b);
  assert_non_null(strstr(sc_errmsg(), "/nonexistent/chromium-xyz"));

  o.executable = "/bin/false"; /* starts, dies at once */
  assert_int_equal(sc_browser_launch(&b, &o), SC_ELAUNCH);
  assert_non_null(strstr(sc_errmsg(), "exited with status 1"));

  /* Starts and never writes DevToolsActivePort: timeout, process killed. */
  char *tmp = sc_test_mkdtemp();
  char script[600];
  snprintf(script, sizeof script, "%s/hang.sh", tmp);
  FILE *f = fopen(script, "w");
  assert_non_null(f);
  fputs("#!/bin/sh\nexec sleep 30\n", f);
  fclose(f);
  chmod(script, 0700);
  o.executable = script;
  o.launch_timeout_ms = 300;
  double t0 = sc__now_ms();
  assert_int_equal(sc_browser_launch(&b, &o), SC_ETIMEDOUT);
  assert_true(sc__now_ms() - t0 < 4000);
  assert_non_null(strstr(sc_errmsg(), "DevToolsActivePort not written within 300 ms"));
  sc_test_rmtree(tmp);
  free(tmp);

  o = (sc_browser_options)SC_BROWSER_OPTIONS_INIT;
  o.version = 99;
  assert_int_equal(sc_browser_launch(&b, &o), SC_EINVAL);
  assert_int_equal(count_profiles(), before);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(launch_and_evaluate, setup_browser, teardown_browser),
      cmocka_unit_test_setup_teardown(attach_twice, setup_browser, teardown_browser),
      cmocka_unit_test(loopback_only),
      cmocka_unit_test_setup_teardown(killed_while_pending, setup_browser, teardown_browser),
      cmocka_unit_test_setup_teardown(free_cleans_up, setup_browser, teardown_browser),
      cmocka_unit_test(bad_launches),
      cmocka_unit_test_setup_teardown(deadlines_and_service, setup_browser, teardown_browser),
      cmocka_unit_test_setup_teardown(big_messages_and_cap, setup_browser, teardown_browser),
      cmocka_unit_test_setup_teardown(listeners, setup_browser, teardown_browser),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
