/* Temp space preflight arithmetic (fake sizes) and statvfs on real paths. */
#include "testutil.h"

#include <string.h>

#include "host/host.h"

#define MiB ((uint64_t)1 << 20)

/* The message of the last error contains s. */
static void msg_has(const char *s) {
  if (!strstr(sc_errmsg(), s)) fail_msg("'%s' not in '%s'", s, sc_errmsg());
}

static void fits(void **st) {
  (void)st;
  /* 16 x 57 = 912 MiB + 91.2 MiB margin = 1003.2 MiB */
  assert_int_equal(sc__preflight_space("/dev/shm", 1200 * MiB, 57 * MiB, 16), 0);
  assert_int_equal(sc__preflight_space("/dev/shm", 1200 * MiB, 57 * MiB, 1), 0);
  assert_int_equal(sc__preflight_space("/dev/shm", 0, 57 * MiB, 0), 0);
}

static void does_not_fit(void **st) {
  (void)st;
  assert_int_equal(sc__preflight_space("/dev/shm", 412 * MiB, 57 * MiB, 16), SC_ENOSPACE);
  msg_has("/dev/shm has 412 MiB free");
  msg_has("16 users need 16 x 57 MiB = 912 MiB");
  msg_has("+ 91.2 MiB margin");
  /* 6 x 57 + 34.2 = 376.2 fits; 7 x 57 + 39.9 = 438.9 does not */
  msg_has("add at most 6 users,");
  msg_has("give /dev/shm more room");
  assert_string_equal(sc_strerror(SC_ENOSPACE), "no space left");
  assert_int_equal(SC_ENOSPACE, -18);
}

static void margin_boundary(void **st) {
  (void)st;
  /* 10% margin: 10 x 100 MiB + 100 MiB */
  assert_int_equal(sc__preflight_space("/s", 1100 * MiB, 100 * MiB, 10), 0);
  assert_int_equal(sc__preflight_space("/s", 1100 * MiB - 1, 100 * MiB, 10), SC_ENOSPACE);
  msg_has("+ 100 MiB margin");
  msg_has("add at most 9 users,");
  /* Minimum margin: 10 x 1 MiB + 16 MiB */
  assert_int_equal(sc__preflight_space("/s", 26 * MiB, MiB, 10), 0);
  assert_int_equal(sc__preflight_space("/s", 26 * MiB - 1, MiB, 10), SC_ENOSPACE);
  msg_has("+ 16 MiB margin");
  msg_has("add at most 9 users,");
  /* Exactly one fits: singular */
  assert_int_equal(sc__preflight_space("/s", 116 * MiB, 100 * MiB, 2), SC_ENOSPACE);
  msg_has("add at most 1 user,");
}

static void zero_per_user(void **st) {
  (void)st;
  assert_int_equal(sc__preflight_space("/s", 16 * MiB, 0, 1000), 0);
  /* Less than the minimum margin left: nothing fits. */
  assert_int_equal(sc__preflight_space("/s", 16 * MiB - 1, 0, 3), SC_ENOSPACE);
  msg_has("3 users need 3 x 0 MiB = 0 MiB");
  msg_has("add at most 0 users,");
}

static void huge_and_invalid(void **st) {
  (void)st;
  assert_int_equal(sc__preflight_space("/s", UINT64_MAX, UINT64_MAX, 2), SC_ENOSPACE);
  assert_int_equal(sc__preflight_space("/s", UINT64_MAX, UINT64_MAX / 4, 2), 0);
  assert_int_equal(sc__preflight_space("/s", 100 * MiB, MiB, -1), SC_EINVAL);
  assert_int_equal(sc__preflight_space(NULL, 100 * MiB, MiB, 1), SC_EINVAL);
}

static void fs_avail(void **st) {
  (void)st;
  uint64_t avail = 0, used = 0;
  assert_int_equal(sc__fs_avail(&avail, &used, "/"), 0);
  assert_true(avail + used > 0);
  assert_int_equal(sc__fs_avail(NULL, &used, "/"), 0);
  assert_int_equal(sc__fs_avail(&avail, NULL, "/"), 0);
  assert_int_equal(sc__fs_avail(&avail, &used, "/no/such/dir-for-stepcheck"), SC_EIO);
  msg_has("/no/such/dir-for-stepcheck");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fits),
      cmocka_unit_test(does_not_fit),
      cmocka_unit_test(margin_boundary),
      cmocka_unit_test(zero_per_user),
      cmocka_unit_test(huge_and_invalid),
      cmocka_unit_test(fs_avail),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
