/* The CDP trace is switched by sc_set_debug only: SC_DEBUG in the
 * environment does nothing inside the library (the CLI maps it), and
 * SC_DEBUG_CDP writes each message sent as one transcript line on stderr. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdp/client.h"
#include "core/core.h"
#include "testutil.h"

/* Send one command over a pipe client (no browser: it times out at once)
 * with stderr captured; returns what stderr got. */
static char *trace_of_one_call(void) {
  static char buf[4096];
  char path[] = "/tmp/sc-debug-XXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  fflush(stderr);
  int saved = dup(2);
  assert_int_equal(dup2(fd, 2), 2);
  int cmd[2], out[2];
  assert_int_equal(pipe(cmd), 0);
  assert_int_equal(pipe(out), 0);
  sc__client *cl = NULL;
  sc__client_options o = {0, 0, NULL};
  assert_int_equal(sc__client_connect_pipe(&cl, NULL, out[0], cmd[1], &o), 0);
  (void)sc__client_call(cl, NULL, "Browser.getVersion", NULL, 50, NULL);
  sc__client_free(cl);
  close(cmd[0]);
  close(out[1]);
  fflush(stderr);
  assert_int_equal(dup2(saved, 2), 2);
  close(saved);
  ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  buf[n > 0 ? n : 0] = '\0';
  close(fd);
  unlink(path);
  return buf;
}

static void only_sc_set_debug_switches_the_trace(void **st) {
  (void)st;
  setenv("SC_DEBUG", "cdp", 1);
  sc_set_debug(0);
  assert_null(strstr(trace_of_one_call(), "Browser.getVersion"));
  sc_set_debug(SC_DEBUG_CDP);
  const char *t = trace_of_one_call();
  assert_non_null(strstr(t, "{\"dir\":\"out\""));
  assert_non_null(strstr(t, "Browser.getVersion"));
  sc_set_debug(0);
  unsetenv("SC_DEBUG");
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(only_sc_set_debug_switches_the_trace)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
