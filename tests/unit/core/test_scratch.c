/* Per-thread scratch buffers (lib/core/scratch.c): reused by the next call
 * of the same slot, grown when asked for more, separate per slot and per
 * thread, and freed when their thread exits or is released. The pool of
 * big blocks: a block given back is the next one taken, small ones are not
 * kept, and the pool holds its largest few. */
#include <pthread.h>
#include <string.h>

#include "core/core.h"
#include "testutil.h"

static void reused_and_grown(void **st) {
  (void)st;
  sc_test_alloc_install();
  long live = sc_test_alloc_live();
  char *a = sc__scratch(SC__SCRATCH_PACK, 1000);
  assert_non_null(a);
  memset(a, 1, 1000);
  assert_int_equal(sc_test_alloc_live(), live + 2); /* the thread's table and the block */
  assert_ptr_equal(sc__scratch(SC__SCRATCH_PACK, 10), a); /* smaller: the same block */
  assert_ptr_equal(sc__scratch(SC__SCRATCH_PACK, 1000), a);
  char *b = sc__scratch(SC__SCRATCH_PNG, 1000);
  assert_non_null(b);
  assert_ptr_not_equal(a, b); /* slots do not share */
  char *c = sc__scratch(SC__SCRATCH_PACK, 100000);
  assert_non_null(c);
  memset(c, 2, 100000); /* writable to its size (ASan, valgrind) */
  assert_int_equal(sc_test_alloc_live(), live + 3); /* grown in place of the old */
  assert_null(sc__scratch(SC__SCRATCH_SLOTS, 1)); /* no such slot */
  sc__scratch_release();
  assert_int_equal(sc_test_alloc_live(), live);
  sc_set_allocator(NULL, NULL, NULL);
}

static void out_of_memory_is_null(void **st) {
  (void)st;
  sc_test_alloc_install();
  long live = sc_test_alloc_live();
  sc_test_alloc_fail_after(0);
  assert_null(sc__scratch(SC__SCRATCH_PNG, 100));
  assert_int_equal(sc_test_alloc_live(), live);
  sc_test_alloc_fail_after(1); /* the table, not the block */
  assert_null(sc__scratch(SC__SCRATCH_PNG, 100));
  sc_test_alloc_fail_after(-1);
  assert_non_null(sc__scratch(SC__SCRATCH_PNG, 100)); /* and again later */
  sc__scratch_release();
  assert_int_equal(sc_test_alloc_live(), live);
  sc_set_allocator(NULL, NULL, NULL);
}

static void *use_and_exit(void *ud) {
  char **out = ud;
  *out = sc__scratch(SC__SCRATCH_PNG, 5000);
  if (*out) memset(*out, 3, 5000);
  return NULL;
}

static void per_thread_and_freed_at_exit(void **st) {
  (void)st;
  sc_test_alloc_install();
  long live = sc_test_alloc_live();
  char *mine = sc__scratch(SC__SCRATCH_PNG, 5000);
  assert_non_null(mine);
  char *theirs = NULL;
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, use_and_exit, &theirs), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  assert_non_null(theirs);
  assert_ptr_not_equal(theirs, mine);
  /* the other thread's table and block went with it; mine are still here */
  assert_int_equal(sc_test_alloc_live(), live + 2);
  sc__scratch_release();
  assert_int_equal(sc_test_alloc_live(), live);
  sc_set_allocator(NULL, NULL, NULL);
}

static void pool_reuses_big_blocks(void **st) {
  (void)st;
  sc_test_alloc_install();
  long live = sc_test_alloc_live();
  size_t cap = 0;
  void *a = sc__pool_take(2 * SC__POOL_MIN, &cap);
  assert_non_null(a);
  assert_int_equal(cap, 2 * SC__POOL_MIN);
  sc__pool_give(a, cap);
  long held = sc_test_alloc_live(); /* the block, kept, and the thread's table */
  assert_int_equal(held, live + 2);
  void *b = sc__pool_take(2 * SC__POOL_MIN - 100, &cap); /* smaller fits: the same block */
  assert_ptr_equal(a, b);
  assert_int_equal(cap, 2 * SC__POOL_MIN);
  assert_int_equal(sc_test_alloc_live(), held);
  void *c = sc__pool_take(4 * SC__POOL_MIN, &cap); /* larger: a new one */
  assert_ptr_not_equal(c, b);
  assert_int_equal(cap, 4 * SC__POOL_MIN);
  sc__pool_give(b, 2 * SC__POOL_MIN);
  sc__pool_give(c, 4 * SC__POOL_MIN);
  /* small blocks are malloc and free */
  void *d = sc__pool_take(100, &cap);
  assert_int_equal(cap, 100);
  sc__pool_give(d, cap);
  assert_int_equal(sc_test_alloc_live(), held + 1);
  /* the pool keeps its SC__POOL_BLOCKS largest: a smaller one given to a
   * full pool is freed */
  void *v[SC__POOL_BLOCKS + 1];
  size_t vc[SC__POOL_BLOCKS + 1];
  for (int i = 0; i <= SC__POOL_BLOCKS; i++) v[i] = sc__pool_take((size_t)(4 + i) * SC__POOL_MIN, &vc[i]);
  for (int i = 0; i <= SC__POOL_BLOCKS; i++) sc__pool_give(v[i], vc[i]);
  assert_int_equal(sc_test_alloc_live(), live + 1 + SC__POOL_BLOCKS);
  sc__scratch_release();
  assert_int_equal(sc_test_alloc_live(), live);
  sc_set_allocator(NULL, NULL, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(reused_and_grown),
      cmocka_unit_test(out_of_memory_is_null),
      cmocka_unit_test(per_thread_and_freed_at_exit),
      cmocka_unit_test(pool_reuses_big_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
