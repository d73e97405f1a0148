#include "testutil.h"

#include <string.h>

#include "core/core.h"

static void roundtrip_all_lengths(void **st) {
  (void)st;
  uint8_t in[64];
  for (int i = 0; i < 64; i++) in[i] = (uint8_t)(i * 37 + 11);
  for (size_t n = 0; n <= sizeof in; n++) {
    char *enc = sc__base64_encode(in, n);
    assert_non_null(enc);
    assert_int_equal(strlen(enc), (n + 2) / 3 * 4);
    uint8_t *dec;
    size_t dn;
    assert_int_equal(sc__base64_decode(&dec, &dn, enc, strlen(enc)), 0);
    assert_int_equal(dn, n);
    assert_memory_equal(dec, in, n);
    sc__free(dec);
    sc__free(enc);
  }
}

static void known_vectors(void **st) {
  (void)st;
  const char *v[][2] = {{"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
                        {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    uint8_t *d;
    size_t n;
    assert_int_equal(sc__base64_decode(&d, &n, v[i][1], strlen(v[i][1])), 0);
    assert_int_equal(n, strlen(v[i][0]));
    assert_memory_equal(d, v[i][0], n);
    sc__free(d);
  }
}

static void rejects_garbage(void **st) {
  (void)st;
  uint8_t *d;
  size_t n;
  assert_int_equal(sc__base64_decode(&d, &n, "Zm!v", 4), SC_EFORMAT);
  assert_non_null(strstr(sc_errmsg(), "offset 2"));
  assert_int_equal(sc__base64_decode(&d, &n, "Z", 1), SC_EFORMAT);
  assert_int_equal(sc__base64_decode(&d, &n, "Zm9=", 4) == 0, 1); /* "fo" with 1 pad */
  sc__free(d);
  assert_int_equal(sc__base64_decode(&d, &n, "Zm=", 3), SC_EFORMAT);
  assert_null(d);
}

static void strerror_table(void **st) {
  (void)st;
  assert_string_equal(sc_strerror(SC_ETIMEDOUT), "timed out");
  assert_string_equal(sc_strerror(SC_OK), "success");
  assert_string_equal(sc_strerror(-9999), "unknown error");
  assert_string_equal(sc_version(), SC_VERSION_STRING);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(roundtrip_all_lengths),
      cmocka_unit_test(known_vectors),
      cmocka_unit_test(rejects_garbage),
      cmocka_unit_test(strerror_table),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
