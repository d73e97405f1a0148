/* The allocator story: sc_set_allocator covers the library's memory and
 * never touches jansson's process-wide allocator; JSON text the library
 * makes comes from its own allocator. */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/json.h"
#include "testutil.h"

static void jansson_keeps_its_allocator(void **st) {
  (void)st;
  json_malloc_t m0;
  json_free_t f0;
  json_get_alloc_funcs(&m0, &f0);
  sc_test_alloc_install();
  json_malloc_t m1;
  json_free_t f1;
  json_get_alloc_funcs(&m1, &f1);
  assert_ptr_equal(m0, m1);
  assert_ptr_equal(f0, f1);
  sc_set_allocator(NULL, NULL, NULL);
}

static void json_text_is_ours(void **st) {
  (void)st;
  sc_test_alloc_install();
  long live = sc_test_alloc_live();
  json_t *j = json_pack("{s:s, s:i}", "method", "Page.enable", "id", 7);
  assert_int_equal(sc_test_alloc_live(), live); /* jansson's objects: not ours */
  char *s = sc__json_dump(j, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(j);
  assert_string_equal(s, "{\"id\":7,\"method\":\"Page.enable\"}");
  assert_int_equal(sc_test_alloc_live(), live + 1); /* the text: ours */
  sc__free(s);
  assert_int_equal(sc_test_alloc_live(), live);
  /* Out of memory is NULL, nothing left behind. */
  j = json_string("x");
  sc_test_alloc_fail_after(0);
  assert_null(sc__json_dump(j, JSON_ENCODE_ANY));
  sc_test_alloc_fail_after(-1);
  json_decref(j);
  assert_int_equal(sc_test_alloc_live(), live);
  sc_set_allocator(NULL, NULL, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(jansson_keeps_its_allocator),
      cmocka_unit_test(json_text_is_ours),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
