/* The limits of one generator (lib/host/limits.c) on a machine given as
 * numbers: each limit refuses in one line naming the limit, the need and
 * the measured figure; a load that fits passes; nothing overflows. The
 * measurement reads this machine's /proc and limits. */
#include "testutil.h"

#include <stdint.h>
#include <string.h>
#include <sys/resource.h>

#include "core/core.h"
#include "host/host.h"

#define GIB ((uint64_t)1 << 30)
#define MIB ((uint64_t)1 << 20)

static const sc__machine k_big = {64 * GIB, 8 * GIB, 65536, 10};

static void refused(const sc__machine *m, int users, int browsers, int launched,
                    const char *want) {
  int rc = sc__preflight_load(m, "/dev/shm", users, browsers, launched);
  if (rc != SC_ENOSPACE || !strstr(sc_errmsg(), want))
    fail_msg("%d users, %d browsers (%d launched): rc %d, \"%s\", want \"%s\"", users, browsers,
             launched, rc, sc_errmsg(), want);
  assert_null(strchr(sc_errmsg(), '\n'));
}

static void a_load_that_fits_passes(void **st) {
  (void)st;
  assert_int_equal(sc__preflight_load(&k_big, "/dev/shm", 8, 1, 1), 0);
  assert_int_equal(sc__preflight_load(&k_big, "/dev/shm", SC__LOAD_USERS_MAX, 4, 0), 0);
  assert_int_equal(sc__preflight_load(&k_big, "/dev/shm", 64, 8, 8), 0);
  sc__machine unknown = {UINT64_MAX, 8 * GIB, UINT64_MAX, 3}; /* no MemAvailable, no fd limit */
  assert_int_equal(sc__preflight_load(&unknown, "/dev/shm", 64, 8, 8), 0);
}

static void each_limit_names_itself_and_the_figure(void **st) {
  (void)st;
  refused(&k_big, 100000, 12500, 12500, "100000 users, but one generator drives at most 1000");
  refused(&k_big, 1000, 125, 125, "need 125 browsers, but one generator launches at most 64");
  /* memory: 8 users on one launched browser need 128 + 8 x 49 = 520 MiB */
  sc__machine m = k_big;
  m.mem_avail = 300 * MIB;
  refused(&m, 8, 1, 1, "8 users on 1 launched browser need at least 520 MiB of memory, the "
                       "machine has 300 MiB available (MemAvailable): at most 3 users fit");
  /* attached browsers cost this process only the users' state */
  assert_int_equal(sc__preflight_load(&m, "/dev/shm", 200, 25, 0), 0);
  m = k_big;
  m.tmp_avail = 3 * MIB;
  refused(&m, 32, 4, 4, "4 launched browsers need at least 4 MiB in /dev/shm, which has 3 MiB free");
  m = k_big;
  m.fd_limit = 20;
  m.fd_open = 5;
  refused(&m, 3, 1, 1, "need 20 more file descriptors with 5 open, but the limit is 20 (ulimit -n)");
  m.fd_limit = 1024;
  assert_int_equal(sc__preflight_load(&m, "/dev/shm", 3, 1, 1), 0);
  assert_int_equal(sc__preflight_load(&m, "/dev/shm", -1, 1, 1), SC_EINVAL);
  assert_int_equal(sc__preflight_load(&m, "/dev/shm", 3, 1, 2), SC_EINVAL);
}

static void the_machine_is_measured(void **st) {
  (void)st;
  sc__machine m;
  assert_int_equal(sc__machine_measure(&m, NULL, "/tmp"), 0);
  struct rlimit rl;
  assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
  if (rl.rlim_cur != RLIM_INFINITY) assert_true(m.fd_limit == (uint64_t)rl.rlim_cur);
  assert_true(m.fd_open >= 3 && m.fd_open < m.fd_limit); /* stdio at least */
  assert_true(m.mem_avail > 0);
  assert_int_equal(sc__machine_measure(&m, NULL, "/nonexistent-sc-dir"), SC_EIO);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(a_load_that_fits_passes),
      cmocka_unit_test(each_limit_names_itself_and_the_figure),
      cmocka_unit_test(the_machine_is_measured),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
