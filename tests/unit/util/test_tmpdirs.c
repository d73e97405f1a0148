/* The test helpers' temp dirs (tests/util/testutil.c): one a test made
 * and did not remove, because a failed assertion left its body early, is
 * removed when the test program exits. A child process runs such a
 * failing test and says which dir it made; the parent checks it is gone.
 * Sabotage: the same dir made with plain mkdtemp (no helper) stays. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int g_pipe[2];
static int g_plain;

static void fails_after_making_a_dir(void **st) {
  (void)st;
  char plain[] = "/tmp/sc-test-XXXXXX";
  char *d = g_plain ? strdup(mkdtemp(plain)) : sc_test_mkdtemp();
  assert_non_null(d);
  assert_int_equal(write(g_pipe[1], d, strlen(d) + 1), (ssize_t)strlen(d) + 1);
  free(d);
  fail_msg("this test fails on purpose, before it removes its dir");
}

/* Run the failing test in a child; the path of the dir it made. */
static void made_by_a_failing_test(int plain, char *out, size_t len) {
  assert_int_equal(pipe(g_pipe), 0);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(g_pipe[0]);
    g_plain = plain;
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) dup2(fd, 1), dup2(fd, 2); /* its FAILED lines are expected */
    const struct CMUnitTest t[] = {cmocka_unit_test(fails_after_making_a_dir)};
    exit(cmocka_run_group_tests(t, NULL, NULL) == 1 ? 0 : 3);
  }
  close(g_pipe[1]);
  ssize_t n = read(g_pipe[0], out, len - 1);
  close(g_pipe[0]);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_true(n > 13);
  out[n] = '\0';
}

static void a_failed_tests_dir_is_removed_at_exit(void **st) {
  (void)st;
  char d[256];
  struct stat sb;
  made_by_a_failing_test(0, d, sizeof d);
  assert_int_equal(strncmp(d, "/tmp/sc-test-", 13), 0);
  assert_int_not_equal(stat(d, &sb), 0);
}

static void sabotage_a_plain_mkdtemp_stays(void **st) {
  (void)st;
  char d[256];
  struct stat sb;
  made_by_a_failing_test(1, d, sizeof d);
  assert_int_equal(stat(d, &sb), 0);
  assert_int_equal(rmdir(d), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_failed_tests_dir_is_removed_at_exit),
      cmocka_unit_test(sabotage_a_plain_mkdtemp_stays),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
