/* Checking a scenario costs work linear in its size: 200k unknown keys
 * used to take minutes (a position lookup scanned every key). Asserted on
 * work counters and on what is reported, never on wall time; the numbers
 * before and after are in the commit that made it linear. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/jsonpos.h"
#include "scenario/locators.h"
#include "stepcheck.h"

#define NKEYS 200000

static const char HEAD[] =
    "{\"app\": \"a\", \"url\": \"http://127.0.0.1:8000/\", \"viewport\": {\"width\": 800, \"height\": 600},\n"
    "\"guest\": {\"width\": 800, \"height\": 600}, \"regions\": {\"map\": [0, 0, 800, 560]},\n";

typedef struct buf {
  char *p;
  size_t n, cap;
} buf;

static void put(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(buf *b, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
    va_end(ap);
    if ((size_t)k < b->cap - b->n) {
      b->n += (size_t)k;
      return;
    }
    b->cap = b->cap ? b->cap * 2 : 1 << 20;
    b->p = realloc(b->p, b->cap);
    assert_non_null(b->p);
  }
}

static char *write_tmp(const char *dir, const buf *b) {
  static char path[512];
  snprintf(path, sizeof path, "%s/big.json", dir);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  assert_int_equal(fwrite(b->p, 1, b->n, f), b->n);
  fclose(f);
  return path;
}

typedef struct lines {
  size_t n;
  char *first, *last;
} lines;

static void collect(const char *line, void *ud) {
  lines *l = ud;
  if (!l->first) l->first = strdup(line);
  free(l->last);
  l->last = strdup(line);
  l->n++;
}

/* The position index answers each lookup in O(1) probes, whatever its size. */
static void position_lookups_are_constant_work(void **st) {
  (void)st;
  buf b = {0};
  put(&b, "{");
  for (int i = 0; i < NKEYS; i++) put(&b, "%s\"k%d\": %d", i ? ",\n" : "", i, i);
  put(&b, "}");
  sc__jsonpos *ix;
  assert_int_equal(sc__jsonpos_build(&ix, b.p, b.n), 0);
  unsigned long built = sc__jsonpos_probes(ix);
  assert_true(built <= 4UL * (NKEYS + 1)); /* inserting: about 1.5 probes each */
  for (int i = 0; i < NKEYS; i++) {
    char path[32];
    snprintf(path, sizeof path, "/k%d", i);
    sc__jpos k = sc__jsonpos_key(ix, path);
    if (i % 50000 == 0 || i == NKEYS - 1) {
      assert_int_equal(k.line, i + 1);
      assert_int_equal(k.col, i ? 1 : 2);
    }
  }
  /* a path that is not there walks up to the root: a few lookups */
  assert_int_equal(sc__jsonpos_value(ix, "/k7/x/y").line, 8);
  unsigned long per = (sc__jsonpos_probes(ix) - built) / NKEYS;
  if (per > 8) fail_msg("%lu probes per lookup", per);
  const char *path;
  sc__jpos at, first;
  assert_int_equal(sc__jsonpos_duplicate(ix, &path, &at, &first), 0);
  sc__jsonpos_free(ix);
  /* the first repeated key, in text order, found without comparing pairs */
  b.n = 0;
  put(&b, "{");
  for (int i = 0; i < NKEYS; i++) put(&b, "\"k%d\": 0,\n", i);
  put(&b, "\"k5\": 1, \"k3\": 2}");
  assert_int_equal(sc__jsonpos_build(&ix, b.p, b.n), 0);
  assert_int_equal(sc__jsonpos_duplicate(ix, &path, &at, &first), 1);
  assert_string_equal(path, "/k5");
  assert_int_equal(at.line, NKEYS + 1);
  assert_int_equal(first.line, 6);
  sc__jsonpos_free(ix);
  free(b.p);
}

/* 200k unknown keys at the top and in a step: 20 listed each, the rest
 * counted in one line (the problems a person can act on, and a bounded
 * amount of output). */
static void unknown_keys_are_capped(void **st) {
  (void)st;
  char *dir = sc_test_mkdtemp();
  buf b = {0};
  put(&b, "%s", HEAD);
  for (int i = 0; i < NKEYS; i++) put(&b, "\"unknown_%d\": %d,\n", i, i);
  put(&b, "\"cycle\": [{\"id\": \"s\", \"none\": true, \"expect\": [{\"changed\": \"map\"");
  for (int i = 0; i < NKEYS; i++) put(&b, ", \"x%d\": 0", i);
  put(&b, "}]}]}\n");
  lines l = {0};
  int n = sc_scenario_validate(write_tmp(dir, &b), collect, &l);
  assert_int_equal(n, 2 * 21);
  assert_int_equal(l.n, 2 * 21);
  assert_non_null(strstr(l.first, ":3:1: unknown key \"unknown_0\""));
  assert_non_null(strstr(l.last, "199980 more unknown keys in this object (the first 20 are listed)"));
  free(l.first);
  free(l.last);
  free(b.p);
  sc_test_rmtree(dir);
  free(dir);
}

/* Did-you-mean compares a bad name with every candidate: with thousands of
 * bad references the comparisons stop at a budget, the problems do not. */
static void suggestions_have_a_budget(void **st) {
  (void)st;
  char *dir = sc_test_mkdtemp();
  enum { NSTEPS = 25000 };
  buf b = {0};
  put(&b, "%s\"cycle\": [", HEAD);
  for (int i = 0; i < NSTEPS; i++)
    put(&b, "%s{\"id\": \"s%d\", \"none\": true, \"expect\": [{\"changed\": \"mpa\"}]}", i ? ",\n" : "", i);
  put(&b, "]}\n");
  lines l = {0};
  int n = sc_scenario_validate(write_tmp(dir, &b), collect, &l);
  assert_int_equal(n, NSTEPS); /* every bad reference is still reported */
  assert_non_null(strstr(l.first, "unknown region \"mpa\" (did you mean \"map\"?)"));
  assert_non_null(strstr(l.last, "unknown region \"mpa\""));
  assert_null(strstr(l.last, "did you mean")); /* past the budget */
  free(l.first);
  free(l.last);
  free(b.p);
  sc_test_rmtree(dir);
  free(dir);
}

/* Locator placement: a "from" chain written last link first used to be
 * placed one locator per pass over all of them, each dependency looked up
 * by a scan (cubic: 4000 links took 66 s). In topological order it is
 * linear; a chain far longer than that is placed well inside the test's
 * ctest TIMEOUT, and every link after the one it names. */
static void a_reversed_chain_is_placed_in_order(void **st) {
  (void)st;
  enum { NLINKS = 20000 };
  char *dir = sc_test_mkdtemp();
  buf b = {0};
  put(&b, "{\"app\": \"a\", \"url\": \"http://127.0.0.1:8000/\", \"viewport\": {\"width\": 800, "
          "\"height\": 600},\n\"guest\": {\"width\": 800, \"height\": 600}, \"regions\": {\"map\": [0, 0, "
          "800, 560], \"r1\": {\"from\": \"p%d\", \"size\": [4, 4]}},\n\"points\": {", NLINKS - 1);
  for (int i = NLINKS - 1; i > 0; i--)
    put(&b, "\"p%d\": {\"from\": \"p%d\", \"offset\": [0, 0]},\n", i, i - 1);
  put(&b, "\"p0\": [10, 10]},\n\"cycle\": [{\"id\": \"s\", \"click\": \"p%d\", \"expect\": "
          "[{\"changed\": \"r1\"}]}]}\n", NLINKS - 1);
  sc_scenario *s;
  assert_int_equal(sc_scenario_load(&s, write_tmp(dir, &b)), 0);
  const struct sc_locators *L = s->locators;
  assert_non_null(L);
  assert_int_equal(L->n, NLINKS);  /* p1 .. p19999 and r1 */
  /* p1 is the only one ready at first, then each makes the next ready */
  for (size_t k = 0; k + 1 < L->n; k++) {
    assert_false(L->v[k].self.is_region);
    char want[16];
    snprintf(want, sizeof want, "p%zu", k + 1);
    assert_string_equal(s->points[L->v[k].self.index].name, want);
  }
  assert_true(L->v[L->n - 1].self.is_region);
  sc_scenario_free(s);
  /* a cycle among the links is still found, and named once per locator on it */
  b.n = 0;
  put(&b, "%s\"points\": {\"q0\": {\"from\": \"q2\"}, \"q1\": {\"from\": \"q0\"}, \"q2\": "
          "{\"from\": \"q1\"}, \"q3\": {\"from\": \"q3\"}, \"ok\": {\"from\": \"map\"}},\n"
          "\"cycle\": [{\"id\": \"s\", \"click\": \"ok\", \"expect\": [{\"changed\": \"map\"}]}]}\n", HEAD);
  lines l = {0};
  assert_int_equal(sc_scenario_validate(write_tmp(dir, &b), collect, &l), 4);
  assert_non_null(strstr(l.first, "points \"q0\": its locator depends on itself"));
  assert_non_null(strstr(l.last, "points \"q3\": its locator depends on itself"));
  free(l.first);
  free(l.last);
  free(b.p);
  sc_test_rmtree(dir);
  free(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(position_lookups_are_constant_work),
      cmocka_unit_test(unknown_keys_are_capped),
      cmocka_unit_test(suggestions_have_a_budget),
      cmocka_unit_test(a_reversed_chain_is_placed_in_order),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
