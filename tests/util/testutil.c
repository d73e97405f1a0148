#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stepcheck.h"

const char *sc_test_fixture(const char *rel) {
  static char buf[4096];
  const char *root = getenv("SC_FIXTURES");
  snprintf(buf, sizeof buf, "%s/%s", root ? root : "fixtures", rel);
  return buf;
}

char *sc_test_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  size_t r;
  while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
    n += r;
    if (n == cap) buf = realloc(buf, (cap *= 2) + 1);
  }
  fclose(f);
  buf[n] = '\0';
  if (len) *len = n;
  return buf;
}

void sc_test_golden(const char *rel, const char *got, size_t len) {
  const char *path = sc_test_fixture(rel);
  if (getenv("SC_UPDATE_GOLDEN")) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(got, 1, len, f), len);
    fclose(f);
    return;
  }
  size_t glen;
  char *want = sc_test_slurp(path, &glen);
  if (!want) fail_msg("missing golden file %s (SC_UPDATE_GOLDEN=1 makes it)", path);
  if (glen != len || memcmp(want, got, len) != 0)
    fail_msg("%s differs from the golden file:\n--- got ---\n%.*s", rel, (int)len, got);
  free(want);
}

char *sc_test_mkdtemp(void) {
  char tmpl[] = "/tmp/sc-test-XXXXXX";
  char *d = mkdtemp(tmpl);
  return d ? strdup(d) : NULL;
}

void sc_test_rmtree(const char *dir) {
  if (!dir || strncmp(dir, "/tmp/sc-test-", 13) != 0) return;
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "rmtree %s failed\n", dir);
}

static long g_fail_after = -1;
static long g_live;

static void *t_malloc(size_t n) {
  if (g_fail_after == 0) return NULL;
  if (g_fail_after > 0) g_fail_after--;
  size_t *p = malloc(n + sizeof(size_t) * 2);
  if (!p) return NULL;
  g_live++;
  return p + 2;
}
static void t_free(void *p) {
  if (!p) return;
  g_live--;
  free((size_t *)p - 2);
}
static void *t_realloc(void *p, size_t n) {
  if (!p) return t_malloc(n);
  if (g_fail_after == 0) return NULL;
  if (g_fail_after > 0) g_fail_after--;
  size_t *q = realloc((size_t *)p - 2, n + sizeof(size_t) * 2);
  return q ? q + 2 : NULL;
}

void sc_test_alloc_install(void) { sc_set_allocator(t_malloc, t_realloc, t_free); }
void sc_test_alloc_fail_after(long n) { g_fail_after = n; }
long sc_test_alloc_live(void) { return g_live; }
