/* The bounded regex engine (core/regex.c): answers as POSIX ERE for the
 * supported syntax (checked against glibc's regexec on the same table),
 * clear refusals, and bounded cost on hostile patterns (asserted on the
 * engine's program size and step counter, never on wall time). */
#include "testutil.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/regex.h"

static const struct {
  const char *pat, *text;
  int want;
} TABLE[] = {
    {"abc", "xabcx", 1}, {"abc", "abx", 0}, {"^abc", "abcd", 1}, {"^abc", "xabc", 0},
    {"abc$", "xabc", 1}, {"abc$", "abcx", 0}, {"^$", "", 1}, {"^$", "a", 0},
    {"a.c", "abc", 1}, {"a.c", "ac", 0}, {"[a-z]+", "123", 0}, {"[a-z]+", "12b3", 1},
    {"^[0-9]+$", "12345", 1}, {"^[0-9]+$", "123a5", 0}, {"[^0-9]", "123", 0},
    {"[^0-9]", "12a", 1}, {"[[:digit:]]{3}", "ab12", 0}, {"[[:digit:]]{3}", "a123", 1},
    {"^[[:alpha:]]+$", "Hello", 1}, {"^[[:alpha:]]+$", "Hel1o", 0}, {"[[:space:]]", "a b", 1},
    {"[[:space:]]", "ab", 0}, {"[[:space:]]", "a\tb", 1}, {"^[[:upper:]][[:lower:]]*$", "Hello", 1},
    {"^[[:upper:]][[:lower:]]*$", "HeLlo", 0}, {"^[[:alnum:]_]+$", "a_1", 1},
    {"^[[:alnum:]]+$", "a_b", 0}, {"[[:punct:]]", "abc", 0}, {"[[:punct:]]", "a.c", 1},
    {"a\\.b", "a.b", 1}, {"a\\.b", "axb", 0}, {"\\\\", "a\\b", 1}, {"\\\\", "ab", 0},
    {"\\(x\\)", "(x)", 1}, {"\\(x\\)", "x", 0}, {"(ab)+", "abab", 1}, {"^(ab)+$", "aba", 0},
    {"cat|dog", "hotdog", 1}, {"cat|dog", "hotdig", 0}, {"^(cat|dog)$", "cats", 0},
    {"colou?r", "color", 1}, {"colou?r", "colouur", 0}, {"^a{3}$", "aaa", 1},
    {"^a{3}$", "aa", 0}, {"^a{3}$", "aaaa", 0}, {"^a{2,}$", "a", 0}, {"^a{2,}$", "aa", 1},
    {"^a{2,}$", "aaaaa", 1}, {"^a{2,4}$", "aaaaa", 0}, {"^a{2,4}$", "aaa", 1},
    {"^a{0,2}$", "", 1}, {"^a{0}b$", "b", 1}, {"^a{0}b$", "ab", 0},
    {"^(a|b){2,3}c$", "abac", 1}, {"^(a|b){2,3}c$", "ababc", 0},
    {"^[0-9]+(\\.[0-9]+)? m$", "100 m", 1}, {"^[0-9]+(\\.[0-9]+)? m$", "1.5 m", 1},
    {"^[0-9]+(\\.[0-9]+)? m$", "1. m", 0}, {"^[0-9]+ (m|km)$", "200 km", 1},
    {"^[0-9]+ (m|km)$", "200 kmm", 0}, {"[]a]", "]", 1}, {"[]a]", "b", 0}, {"[^]a]", "]", 0},
    {"[^]a]", "x", 1}, {"[a-]", "-", 1}, {"[-a]", "-", 1}, {"[-a]", "b", 0}, {"x*", "", 1},
    {"^x*$", "xxx", 1}, {"^x*$", "xxy", 0}, {"a|^b", "cb", 0}, {"a|^b", "bc", 1},
    {"a|b$", "bc", 0}, {"a}", "a}", 1}, {"a]", "a]", 1}, {"^.+$", "ab", 1}, {"^.+$", "", 0},
    {"(a*)*b", "aaaa", 0}, {"(a*)*b", "aaab", 1}, {"(a|a)*c", "aaaa", 0}, {"(a|a)*c", "aac", 1},
    {"[[:digit:]]+[.,][[:digit:]]{2}", "3,14", 1}, {"[[:digit:]]+[.,][[:digit:]]{2}", "3;14", 0},
    {"^-?[0-9]+$", "-12", 1}, {"^-?[0-9]+$", "--12", 0}, {"a|", "zzz", 1}, {"(|a)b", "b", 1},
    {"^(x+x+)+y$", "xxxxxxxy", 1}, {"^(x+x+)+y$", "xxxxxxx", 0}, {"[.]", "a", 0},
    {"[.]", ".", 1}, {"[\\]", "\\", 1}, {"1\\.5", "105", 0}, {"\\^a", "^a", 1},
    {"\\$", "a$", 1}, {"^(ab|a)(bc|c)$", "abc", 1}, {"scale: [0-9]+ (m|km)", "scale: 50 m", 1},
};

static void table_matches_posix(void **st) {
  (void)st;
  for (size_t i = 0; i < sizeof TABLE / sizeof TABLE[0]; i++) {
    sc__regex *re;
    char err[200];
    int rc = sc__regex_compile(&re, TABLE[i].pat, err, sizeof err);
    if (rc != 0) fail_msg("/%s/ refused: %s", TABLE[i].pat, err);
    int got = sc__regex_match(re, TABLE[i].text);
    if (got != TABLE[i].want)
      fail_msg("/%s/ on \"%s\": %d, want %d", TABLE[i].pat, TABLE[i].text, got, TABLE[i].want);
    sc__regex_free(re);
    /* the table itself is what POSIX ERE answers */
    regex_t g;
    assert_int_equal(regcomp(&g, TABLE[i].pat, REG_EXTENDED | REG_NOSUB), 0);
    int posix = regexec(&g, TABLE[i].text, 0, NULL, 0) == 0;
    regfree(&g);
    if (posix != TABLE[i].want)
      fail_msg("table row /%s/ \"%s\": glibc says %d", TABLE[i].pat, TABLE[i].text, posix);
  }
}

/* Sabotage: each of these must NOT match; an engine answering "match" to
 * everything (or ignoring anchors, escapes, counts) fails here. */
static void must_not_match(void **st) {
  (void)st;
  const char *v[][2] = {{"^ok$", "not ok"}, {"1\\.5", "105"}, {"^a{3}$", "aaaa"},
                        {"[^[:digit:]]", "0123456789"}, {"^(a|b)+$", "abc"}};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
    sc__regex *re;
    assert_int_equal(sc__regex_compile(&re, v[i][0], NULL, 0), 0);
    if (sc__regex_match(re, v[i][1]) != 0) fail_msg("/%s/ matched \"%s\"", v[i][0], v[i][1]);
    sc__regex_free(re);
  }
}

static const struct {
  const char *pat;
  int rc;
  const char *err;
} REFUSED[] = {
    {"([a-z]+", SC_EFORMAT, "unmatched ( at offset 0"},
    {"a)", SC_EFORMAT, "unmatched ) at offset 1"},
    {"x[abc", SC_EFORMAT, "unmatched [ at offset 1"},
    {"*a", SC_EFORMAT, "'*' has nothing to repeat at offset 0"},
    {"a|+", SC_EFORMAT, "'+' has nothing to repeat at offset 2"},
    {"^*", SC_EFORMAT, "'*' has nothing to repeat at offset 1"},
    {"a{3", SC_EFORMAT, "unterminated count at offset 1"},
    {"a{,3}", SC_EFORMAT, "'{' must start a count"},
    {"a{x}", SC_EFORMAT, "'{' must start a count"},
    {"a{101}", SC_ETOOBIG, "count over 100 at offset 2"},
    {"a{1,99999999999999999999}", SC_ETOOBIG, "count over 100 at offset 4"},
    {"a{5,2}", SC_EFORMAT, "count {5,2} has its maximum below its minimum at offset 1"},
    {"\\d+", SC_EFORMAT, "unsupported escape \\d at offset 0"},
    {"(a)\\1", SC_EFORMAT, "unsupported escape \\1 at offset 3"},
    {"a\\", SC_EFORMAT, "trailing backslash at offset 1"},
    {"[[:word:]]", SC_EFORMAT, "unknown class [:word:] at offset 1"},
    {"[[:digit:]", SC_EFORMAT, "unmatched ["},
    {"[z-a]", SC_EFORMAT, "range z-a is backwards at offset 1"},
    {"[[=a=]]", SC_EFORMAT, "[=...=] is not supported at offset 1"},
    {"ab\ncd", SC_EFORMAT, "control character 0x0a at offset 2"},
    {"[\x1b]", SC_EFORMAT, "control character 0x1b at offset 1"},
    {"((a{100}){100}){100}", SC_ETOOBIG, "more than 4096 instructions"},
    {"(a{1,100}){1,100}", SC_ETOOBIG, "more than 4096 instructions"},
    {"(((a{100}){100}){100}){100}", SC_ETOOBIG, "more than 4096 instructions"},
};

static void refusals_name_reason_and_offset(void **st) {
  (void)st;
  for (size_t i = 0; i < sizeof REFUSED / sizeof REFUSED[0]; i++) {
    sc__regex *re = (sc__regex *)1;
    char err[200];
    int rc = sc__regex_compile(&re, REFUSED[i].pat, err, sizeof err);
    if (rc != REFUSED[i].rc) fail_msg("/%s/: rc %d, want %d", REFUSED[i].pat, rc, REFUSED[i].rc);
    assert_null(re);
    if (!strstr(err, REFUSED[i].err)) fail_msg("/%s/: \"%s\", want \"%s\"", REFUSED[i].pat, err, REFUSED[i].err);
    assert_null(strchr(err, '\n'));
  }
}

static void limits(void **st) {
  (void)st;
  char pat[SC__REGEX_MAX_PATTERN + 2];
  sc__regex *re;
  char err[200];
  /* 256 bytes is allowed, 257 is not */
  memset(pat, 'a', SC__REGEX_MAX_PATTERN);
  pat[SC__REGEX_MAX_PATTERN] = '\0';
  assert_int_equal(sc__regex_compile(&re, pat, err, sizeof err), 0);
  sc__regex_free(re);
  strcat(pat, "a");
  assert_int_equal(sc__regex_compile(&re, pat, err, sizeof err), SC_ETOOBIG);
  assert_string_equal(err, "pattern longer than 256 bytes at offset 256");
  /* 32 nested groups are allowed, 33 are not */
  for (int depth = 32; depth <= 33; depth++) {
    int n = 0;
    for (int i = 0; i < depth; i++) pat[n++] = '(';
    pat[n++] = 'a';
    for (int i = 0; i < depth; i++) pat[n++] = ')';
    pat[n] = '\0';
    int rc = sc__regex_compile(&re, pat, err, sizeof err);
    if (depth == 32) {
      assert_int_equal(rc, 0);
      assert_int_equal(sc__regex_match(re, "xa"), 1);
      sc__regex_free(re);
    } else {
      assert_int_equal(rc, SC_ETOOBIG);
      assert_string_equal(err, "groups nested deeper than 32 at offset 32");
    }
  }
  /* the largest program allowed: counts expand, up to the cap */
  assert_int_equal(sc__regex_compile(&re, "(a{100}){40}", err, sizeof err), 0);
  assert_int_equal(sc__regex_size(re), 4001);
  sc__regex_free(re);
  assert_int_equal(sc__regex_compile(&re, "(a{100}){41}", err, sizeof err), SC_ETOOBIG);
}

/* Hostile patterns that made glibc crash, run for minutes or take GBs:
 * they compile to a bounded program and match in at most
 * (len + 1) x 2 x size steps. */
static void hostile_patterns_cost_is_bounded(void **st) {
  (void)st;
  static const char *const pats[] = {"(a*)*b",          "(a|a)*c",       "(a|aa)*b",
                                     "^(x+x+)+y$",      "(.*){50}x",     "(a{1,20}){1,20}c",
                                     "((a*)*|b)*(a?){30}a{30}z", "(([a-z]*)*)*[0-9]$"};
  size_t len = 20000;
  char *text = malloc(len + 1);
  assert_non_null(text);
  memset(text, 'a', len);
  text[len] = '\0';
  for (size_t i = 0; i < sizeof pats / sizeof pats[0]; i++) {
    sc__regex *re;
    char err[200];
    if (sc__regex_compile(&re, pats[i], err, sizeof err) != 0) fail_msg("/%s/: %s", pats[i], err);
    size_t size = sc__regex_size(re);
    assert_true(size <= SC__REGEX_MAX_PROGRAM + 1);
    unsigned long steps = 0;
    assert_int_equal(sc__regex_match_steps(re, text, &steps), 0);
    if (steps > (len + 1) * 2 * size)
      fail_msg("/%s/: %lu steps, bound %zu", pats[i], steps, (len + 1) * 2 * size);
    sc__regex_free(re);
  }
  /* the counter counts: a failing search visits at least one instruction per byte */
  sc__regex *re;
  assert_int_equal(sc__regex_compile(&re, "b", NULL, 0), 0);
  unsigned long steps = 0;
  assert_int_equal(sc__regex_match_steps(re, text, &steps), 0);
  assert_true(steps >= len);
  sc__regex_free(re);
  free(text);
}

/* Differential: random patterns from the supported grammar and random
 * texts, answered by this engine and by glibc's regexec; they must agree.
 * A fixed seed, so a failure reproduces. */
typedef struct rng {
  unsigned long s;
} rng;
static unsigned next(rng *r, unsigned n) {
  r->s = r->s * 6364136223846793005UL + 1442695040888963407UL;
  return (unsigned)(r->s >> 33) % n;
}

static void gen(rng *r, char *out, size_t *n, size_t cap, int depth) {
  int items = 1 + (int)next(r, 3);
  for (int i = 0; i < items && *n + 24 < cap; i++) {
    static const char *const atoms[] = {"a", "b", "c", ".", "[ab]", "[^a]", "[[:digit:]]", "1", "\\."};
    if (depth < 3 && next(r, 4) == 0) {
      out[(*n)++] = '(';
      gen(r, out, n, cap, depth + 1);
      if (next(r, 3) == 0) {
        out[(*n)++] = '|';
        gen(r, out, n, cap, depth + 1);
      }
      out[(*n)++] = ')';
    } else {
      const char *a = atoms[next(r, sizeof atoms / sizeof atoms[0])];
      memcpy(out + *n, a, strlen(a));
      *n += strlen(a);
    }
    static const char *const quants[] = {"", "", "", "*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}"};
    const char *q = quants[next(r, sizeof quants / sizeof quants[0])];
    memcpy(out + *n, q, strlen(q));
    *n += strlen(q);
  }
  out[*n] = '\0';
}

static void agrees_with_glibc_on_random_patterns(void **st) {
  (void)st;
  rng r = {12345};
  int compared = 0;
  for (int i = 0; i < 3000; i++) {
    char pat[200];
    size_t n = 0;
    if (next(&r, 4) == 0) pat[n++] = '^';
    gen(&r, pat, &n, sizeof pat - 2, 0);
    if (next(&r, 4) == 0) pat[n++] = '$', pat[n] = '\0';
    sc__regex *re;
    char err[200];
    if (sc__regex_compile(&re, pat, err, sizeof err) != 0) fail_msg("/%s/ refused: %s", pat, err);
    regex_t g;
    assert_int_equal(regcomp(&g, pat, REG_EXTENDED | REG_NOSUB), 0);
    for (int k = 0; k < 8; k++) {
      char text[16];
      int len = (int)next(&r, sizeof text);
      for (int j = 0; j < len; j++) text[j] = "abc1.x"[next(&r, 6)];
      text[len] = '\0';
      int mine = sc__regex_match(re, text), posix = regexec(&g, text, 0, NULL, 0) == 0;
      if (mine != posix) fail_msg("/%s/ on \"%s\": %d, glibc %d", pat, text, mine, posix);
      compared++;
    }
    regfree(&g);
    sc__regex_free(re);
  }
  assert_int_equal(compared, 3000 * 8);
}

static int compile_once(void *ud) {
  (void)ud;
  sc__regex *re;
  int rc = sc__regex_compile(&re, "^(ab|[[:digit:]]{2,5})+x?$", NULL, 0);
  if (rc) return rc;
  rc = sc__regex_match(re, "ab12345ab");
  sc__regex_free(re);
  return rc < 0 ? rc : rc == 1 ? 0 : -1;
}

static void out_of_memory_everywhere(void **st) {
  (void)st;
  sc_test_oom_sweep(compile_once, NULL, 50);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(table_matches_posix),
      cmocka_unit_test(must_not_match),
      cmocka_unit_test(refusals_name_reason_and_offset),
      cmocka_unit_test(limits),
      cmocka_unit_test(hostile_patterns_cost_is_bounded),
      cmocka_unit_test(agrees_with_glibc_on_random_patterns),
      cmocka_unit_test(out_of_memory_everywhere),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
