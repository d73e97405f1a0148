/* Stale profiles (browser/process.c, sc__profile_sweep): a profile whose
 * launching process is gone is removed at the next launch; a live owner's,
 * another user's, a link, a file and a name that is not ours are kept. */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "browser/browser_priv.h"
#include "core/core.h"

/* A pid that existed a moment ago and is gone now. */
static long dead_pid(void) {
  pid_t p = fork();
  assert_true(p >= 0);
  if (p == 0) _exit(0);
  assert_int_equal(waitpid(p, NULL, 0), p);
  assert_int_equal(kill(p, 0), -1);
  assert_int_equal(errno, ESRCH);
  return (long)p;
}

/* mkdir base/name (name is consumed); the path, sc__free. */
static char *mk(const char *base, char *name) {
  assert_non_null(name);
  char *p = sc__asprintf("%s/%s", base, name);
  sc__free(name);
  assert_non_null(p);
  assert_int_equal(mkdir(p, 0700), 0);
  return p;
}

static int exists(const char *p) {
  struct stat st;
  return lstat(p, &st) == 0;
}

static void only_dead_owners_profiles_go(void **st) {
  (void)st;
  char *base = sc_test_mkdtemp();
  long dead = dead_pid();
  char *stale = mk(base, sc__asprintf(SC__PROFILE_PREFIX "%ld-a1b2c3", dead));
  char *inner = sc__asprintf("%s/Default", stale); /* a profile has content */
  assert_int_equal(mkdir(inner, 0700), 0);
  char *file = sc__asprintf("%s/Default/Cookies", stale);
  FILE *f = fopen(file, "w");
  assert_non_null(f);
  fclose(f);
  char *mine = mk(base, sc__asprintf(SC__PROFILE_PREFIX "%ld-zzzzzz", (long)getpid()));
  char *parent = mk(base, sc__asprintf(SC__PROFILE_PREFIX "%ld-pppppp", (long)getppid()));
  char *init = mk(base, sc__asprintf(SC__PROFILE_PREFIX "%ld-iiiiii", 1L));
  char *old = mk(base, sc__asprintf("%s", SC__PROFILE_PREFIX "XyZ123")); /* 0.1.0's: no owner */
  char *other = mk(base, sc__asprintf("chromium-%ld-a1b2c3", dead));
  char *longer = mk(base, sc__asprintf(SC__PROFILE_PREFIX "%ld-a1b2c3d", dead)); /* 7 */
  /* another user's profile with a dead owner: not ours to remove */
  char *foreign = NULL;
  if (geteuid() == 0) {
    foreign = mk(base, sc__asprintf(SC__PROFILE_PREFIX "%ld-ffffff", dead));
    assert_int_equal(chown(foreign, 65534, 65534), 0);
  }
  /* a link and a file under a stale name: never followed, never removed */
  char *target = mk(base, sc__asprintf("%s", "target"));
  char *link = sc__asprintf("%s/" SC__PROFILE_PREFIX "%ld-llllll", base, dead);
  assert_int_equal(symlink(target, link), 0);
  char *plain = sc__asprintf("%s/" SC__PROFILE_PREFIX "%ld-ffffff", base, dead + 0);
  if (!foreign) {
    f = fopen(plain, "w");
    assert_non_null(f);
    fclose(f);
  }

  assert_int_equal(sc__profile_sweep(base), 1);
  assert_false(exists(stale));
  assert_true(exists(mine));
  assert_true(exists(parent));
  assert_true(exists(init));
  assert_true(exists(old));
  assert_true(exists(other));
  assert_true(exists(longer));
  assert_true(exists(link));
  assert_true(exists(target));
  assert_true(exists(plain));
  /* nothing left to do */
  assert_int_equal(sc__profile_sweep(base), 0);
  assert_int_equal(sc__profile_sweep("/nonexistent-sc-base"), 0);

  sc_test_rmtree(base);
  char *all[] = {stale, inner, file, mine, parent, init, old, other, longer, foreign, target,
                 link, plain};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) sc__free(all[i]);
  free(base);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(only_dead_owners_profiles_go),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
