/* sc__strmap: put, get, duplicates, growth, and constant work per key. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

static void put_get_grow(void **st) {
  (void)st;
  enum { N = 100000 };
  char *keys = malloc((size_t)N * 16);
  assert_non_null(keys);
  sc__strmap m;
  assert_int_equal(sc__strmap_init(&m, 0), 0); /* grows from nothing */
  for (int i = 0; i < N; i++) {
    snprintf(keys + (size_t)i * 16, 16, "key-%d", i);
    assert_int_equal(sc__strmap_put(&m, keys + (size_t)i * 16, strlen(keys + (size_t)i * 16), (size_t)i, NULL), 1);
  }
  size_t old = 0, v = 0;
  assert_int_equal(sc__strmap_put(&m, "key-77", 6, 5, &old), 0); /* a repeat keeps the first */
  assert_int_equal(old, 77);
  unsigned long before = m.probes;
  for (int i = 0; i < N; i++) {
    const char *k = keys + (size_t)i * 16;
    assert_int_equal(sc__strmap_get(&m, k, strlen(k), &v), 1);
    assert_int_equal(v, (size_t)i);
  }
  assert_true(m.probes - before <= 4UL * N); /* about 1.5 probes per hit at load 1/2 */
  assert_int_equal(sc__strmap_get(&m, "key-", 4, &v), 0);
  assert_int_equal(sc__strmap_get(&m, "key-1000000", 11, &v), 0);
  /* keys are bytes with a length: a prefix is another key */
  assert_int_equal(sc__strmap_get(&m, "key-12", 5, &v), 1);
  assert_int_equal(v, 1);
  sc__strmap_free(&m);
  sc__strmap empty = {0};
  assert_int_equal(sc__strmap_get(&empty, "x", 1, &v), 0); /* never initialised */
  free(keys);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(put_get_grow)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
