/* The CLI's text commands: an unknown glyph set or scale-bar profile, or a
 * glyph file that cannot be read (missing, a FIFO), is a configuration
 * error, exit 2, not an infrastructure error (3). Runs $SC_CLI. */
#include "testutil.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Exit status of $SC_CLI with args (NULL-terminated; stdout and stderr to /dev/null). */
static int run_argv(char *const *args) {
  const char *cli = getenv("SC_CLI");
  assert_non_null(cli);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    FILE *null = freopen("/dev/null", "w", stdout);
    null = freopen("/dev/null", "w", stderr);
    (void)null;
    char *argv[16] = {(char *)cli};
    for (int i = 0; i < 14 && args[i]; i++) argv[i + 1] = args[i];
    execv(cli, argv);
    _exit(127);
  }
  int status;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  assert_true(WIFEXITED(status));
  return WEXITSTATUS(status);
}

static int run_cli(const char *a1, const char *a2, const char *a3, const char *a4) {
  char *args[] = {(char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL};
  return run_argv(args);
}

static void unknown_sets_and_profiles_exit_2(void **st) {
  (void)st;
  alarm(60); /* a CLI blocked on the FIFO fails the test instead of hanging it */
  char img[512];
  snprintf(img, sizeof img, "%s", sc_test_fixture("text/josm/m-building-4m.png"));
  char *dir = sc_test_mkdtemp();
  char fifo[600];
  snprintf(fifo, sizeof fifo, "%s/set.glyphs", dir);
  assert_int_equal(mkfifo(fifo, 0600), 0);
  assert_int_equal(run_cli("ocr", img, "--glyphs", "UNKNOWN"), 2);
  assert_int_equal(run_cli("ocr", img, "--glyphs", "/no/such/dir/x.glyphs"), 2);
  assert_int_equal(run_cli("ocr", img, "--glyphs", fifo), 2);
  assert_int_equal(run_cli("read-scale", img, "--profile", "UNKNOWN"), 2);
  assert_int_equal(run_cli("read-scale", img, "--profile", "/no/such/dir/x.glyphs"), 2);
  assert_int_equal(run_cli("read-scale", img, "--profile", fifo), 2);
  /* glyphs learn adding to the set at -o: a FIFO there is refused, not waited on */
  char *learn[] = {"glyphs", "learn", "--text", "4", img, "--region", "0,0,10,10", "-o", fifo, NULL};
  assert_int_equal(run_argv(learn), 2);
  /* sabotage of the test itself: a good set and profile read this image */
  assert_int_equal(run_cli("read-scale", img, "--profile", "josm"), 0);
  alarm(0);
  sc_test_rmtree(dir);
  free(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(unknown_sets_and_profiles_exit_2)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
