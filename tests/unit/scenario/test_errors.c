/* Every fixtures/scenario/bad-*.json is a case: its sibling .expect lists,
 * one per line, every problem sc_scenario_validate reports, in order; the
 * first is the message sc_scenario_load gives. A new pair needs no code. */
#include "testutil.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stepcheck.h"

typedef struct lines {
  char *v[64];
  int n;
} lines;

static void collect(const char *line, void *ud) {
  lines *l = ud;
  if (l->n < 64) l->v[l->n] = strdup(line);
  l->n++;
}

static void lines_free(lines *l) {
  for (int i = 0; i < l->n && i < 64; i++) free(l->v[i]);
  l->n = 0;
}

static int setup(void **st) {
  (void)st;
  /* messages name files as given: run from the fixture folder so they are short */
  return chdir(sc_test_fixture("scenario"));
}

/* Check one bad-*.json; returns the number of mismatches (printed). */
static int check_case(const char *json) {
  char exp[512];
  snprintf(exp, sizeof exp, "%.*s.expect", (int)(strlen(json) - 5), json);
  char *text = sc_test_slurp(exp, NULL);
  if (!text) {
    print_error("%s: missing %s\n", json, exp);
    return 1;
  }
  lines want = {0};
  for (char *save, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
    collect(l, &want);
  free(text);
  int bad = 0;
  if (want.n == 0) {
    print_error("%s: %s is empty\n", json, exp);
    bad++;
  }
  sc_scenario *s = (sc_scenario *)1;
  int rc = sc_scenario_load(&s, json);
  if (rc != SC_ESCENARIO || s != NULL) {
    print_error("%s: load returned %d (want %d)\n", json, rc, SC_ESCENARIO);
    bad++;
  } else if (want.n > 0 && strcmp(sc_errmsg(), want.v[0]) != 0) {
    print_error("%s: load says\n  %s\nwant\n  %s\n", json, sc_errmsg(), want.v[0]);
    bad++;
  }
  lines got = {0};
  int n = sc_scenario_validate(json, collect, &got);
  if (n != want.n || got.n != want.n) {
    print_error("%s: validate counted %d (%d lines), want %d\n", json, n, got.n, want.n);
    bad++;
  }
  for (int i = 0; i < got.n && i < want.n && i < 64; i++) {
    if (strcmp(got.v[i], want.v[i]) != 0) {
      print_error("%s: problem %d is\n  %s\nwant\n  %s\n", json, i, got.v[i], want.v[i]);
      bad++;
    }
  }
  lines_free(&got);
  lines_free(&want);
  return bad;
}

static void every_bad_fixture(void **st) {
  (void)st;
  glob_t g;
  assert_int_equal(glob("bad-*.json", 0, NULL, &g), 0);
  int bad = 0;
  for (size_t i = 0; i < g.gl_pathc; i++) bad += check_case(g.gl_pathv[i]);
  print_message("%zu bad-*.json cases checked\n", g.gl_pathc);
  globfree(&g);
  assert_int_equal(bad, 0);
}

/* The classes the format promises to catch, each with its own fixture. */
static void required_cases_exist(void **st) {
  (void)st;
  static const char *const need[] = {
      "syntax",         "missing-key",   "wrong-type",   "unknown-key",   "unknown-point",
      "unknown-region", "duplicate-id",  "snapshot-later", "two-actions", "no-action",
      "notches-zero",   "rgb",           "region-outside", "duplicate-key"};
  for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
    char p[128];
    snprintf(p, sizeof p, "bad-%s.json", need[i]);
    if (access(p, R_OK) != 0) fail_msg("fixture %s is missing", p);
    snprintf(p, sizeof p, "bad-%s.expect", need[i]);
    if (access(p, R_OK) != 0) fail_msg("fixture %s is missing", p);
  }
}

static void validate_counts_every_problem(void **st) {
  (void)st;
  lines got = {0};
  assert_int_equal(sc_scenario_validate("bad-many.json", collect, &got), 6);
  assert_int_equal(got.n, 6);
  /* sorted by position, whatever order the checks ran in */
  assert_string_equal(got.v[0], "bad-many.json:3:10: \"url\" must be a non-empty string");
  assert_string_equal(got.v[5], "bad-many.json:11:12: cycle[1]: duplicate step id \"zoom-in\" (first at 9:12)");
  lines_free(&got);
  /* a valid file: no callback at all */
  assert_int_equal(sc_scenario_validate("valid-small.json", collect, &got), 0);
  assert_int_equal(got.n, 0);
  /* an unreadable file: an error code, no callback */
  assert_int_equal(sc_scenario_validate("no-such-file.json", collect, &got), SC_EIO);
  assert_int_equal(got.n, 0);
}

static void parse_string_positions(void **st) {
  (void)st;
  sc_scenario *s;
  /* a key with '/' and '~' and escapes: the position index must match jansson's keys */
  const char *j = "{\"app\": \"a\", \"url\": \"http://u/\", \"viewport\": {\"width\": 1, \"height\": 1},\n"
                  "\"guest\": {\"width\": 10, \"height\": 10},\n"
                  "\"regions\": {\"a/b~c\": [0, 0, 1, 1], \"\\u00e9t\\u00e9\": {\"x\": 0, \"y\": 0,\n"
                  "   \"w\": \"1\", \"h\": 1}},\n"
                  "\"cycle\": [{\"id\": \"x\", \"none\": true, \"expect\": [{\"stable\": \"a/b~c\"}]}]}";
  assert_int_equal(sc_scenario_parse(&s, j, "t.json"), SC_ESCENARIO);
  assert_string_equal(sc_errmsg(), "t.json:4:9: regions \"\xc3\xa9t\xc3\xa9\": \"w\" must be an integer > 0");
  /* columns count characters, not bytes (as jansson's do) */
  j = "{\"app\": \"\xc3\xa9\xc3\xa9\", \"url\": 1, \"viewport\": {\"width\": 1, \"height\": 1},\n"
      "\"guest\": {\"width\": 10, \"height\": 10}, \"regions\": {\"a\": [0, 0, 1, 1]},\n"
      "\"cycle\": [{\"id\": \"x\", \"none\": true, \"expect\": [{\"stable\": \"a\"}]}]}";
  assert_int_equal(sc_scenario_parse(&s, j, "u.json"), SC_ESCENARIO);
  assert_string_equal(sc_errmsg(), "u.json:1:22: \"url\" must be a non-empty string");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_bad_fixture),
      cmocka_unit_test(required_cases_exist),
      cmocka_unit_test(validate_counts_every_problem),
      cmocka_unit_test(parse_string_positions),
  };
  return cmocka_run_group_tests(tests, setup, NULL);
}
