/* Helpers shared by the tests: fixture paths, counting allocator, temp dirs. */
#ifndef SC_TESTUTIL_H
#define SC_TESTUTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* One browser for a group of real-Chromium tests: sc_test_browser_up
 * launches it into sc_test_b (a group setup: -1 with the error on stderr
 * when it cannot start), sc_test_browser_down frees it. */
struct sc_browser;
extern struct sc_browser *sc_test_b;
int sc_test_browser_up(void **st);
int sc_test_browser_down(void **st);

/* $SC_FIXTURES/rel as a static buffer (valid until the next call). */
const char *sc_test_fixture(const char *rel);
/* Read a whole file; NULL if missing. Caller frees with free(). */
char *sc_test_slurp(const char *path, size_t *len);
/* Compare got with the golden file $SC_FIXTURES/rel byte for byte (fail
 * with what was got), or rewrite the golden file when SC_UPDATE_GOLDEN is
 * set (then review the diff by hand). */
void sc_test_golden(const char *rel, const char *got, size_t len);
/* mkdtemp under /tmp; the caller removes it with sc_test_rmtree, and what
 * is left (a failed assertion left the test body early) goes at exit. */
char *sc_test_mkdtemp(void);
void sc_test_rmtree(const char *dir);

/* Counting allocator: install with sc_test_alloc_install(); after
 * sc_test_alloc_fail_after(n) the n-th next allocation (0-based) fails. */
void sc_test_alloc_install(void);
void sc_test_alloc_fail_after(long n);
long sc_test_alloc_live(void);

/* Size-watching allocator (malloc underneath): install, then read the
 * largest size asked for (malloc or realloc) and how many asked for at
 * least `big` bytes since. Restore with sc_set_allocator(NULL, NULL, NULL). */
void sc_test_sizes_install(size_t big);
void sc_test_sizes_reset(void); /* forget what was asked for so far */
size_t sc_test_sizes_largest(void);
long sc_test_sizes_big(void);

/* Make every allocation of call(ud) fail in turn, the n-th for n = 0, 1,
 * ... up to max: each run returns SC_ENOMEM or (at last) 0, and leaves no
 * allocation behind (the thread's scratch and pool, a cache, are released
 * after each run before counting). Fails the test otherwise, or when max is not enough.
 * Installs the counting allocator. */
void sc_test_oom_sweep(int (*call)(void *ud), void *ud, long max);

/* cmocka has no double assertion: fail with both values when got is
 * farther than eps from want (eps 0: exactly equal). */
#define assert_near(got, want, eps)                                              \
  do {                                                                           \
    double g_ = (got), w_ = (want);                                              \
    if (g_ - w_ > (eps) || w_ - g_ > (eps))                                      \
      fail_msg("%s = %.9g, want %.9g", #got, g_, w_);                            \
  } while (0)

/* A scripted HTTP/1.1 server on 127.0.0.1 in a forked child: it answers one
 * connection per reply, in order (a NULL body echoes the raw request back),
 * then exits. Each raw request it read is logged, followed by "\n--\n". */
typedef struct sc_test_reply {
  int status;
  const char *body;
  int delay_ms; /* wait this long after the request before replying */
  const char *location; /* a Location header (redirects), NULL for none */
} sc_test_reply;
typedef struct sc_test_http {
  int pid;
  int port;
  char log[64];
} sc_test_http;
sc_test_http sc_test_http_start(const sc_test_reply *replies, size_t n);
/* Stop the child (killed if still running); returns the request log
 * (malloc'd, "" when nothing came). */
char *sc_test_http_stop(sc_test_http *s);

#endif
