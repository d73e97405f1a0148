#include "testutil.h"

#include "core/core.h"
#include "stepcheck/browser.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/wait.h>
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

/* Every temp dir a test makes is removed at exit when the test did not
 * remove it itself: a failed assertion leaves its test body at once
 * (cmocka longjmps out), before the test's own sc_test_rmtree. */
#define SC_TEST_DIRS 64
static char *g_dirs[SC_TEST_DIRS];
static pid_t g_dirs_pid; /* a forked child that exits leaves them to its parent */

static void rmtree(const char *dir) {
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "rmtree %s failed\n", dir);
}

static void dirs_at_exit(void) {
  if (getpid() != g_dirs_pid) return;
  for (int i = 0; i < SC_TEST_DIRS; i++)
    if (g_dirs[i]) {
      rmtree(g_dirs[i]);
      free(g_dirs[i]);
      g_dirs[i] = NULL;
    }
}

char *sc_test_mkdtemp(void) {
  static int hooked;
  char tmpl[] = "/tmp/sc-test-XXXXXX";
  char *d = mkdtemp(tmpl);
  if (!d) return NULL;
  if (!hooked) {
    g_dirs_pid = getpid();
    hooked = atexit(dirs_at_exit) == 0;
  }
  for (int i = 0; i < SC_TEST_DIRS; i++)
    if (!g_dirs[i]) {
      g_dirs[i] = strdup(d);
      break;
    }
  return strdup(d);
}

void sc_test_rmtree(const char *dir) {
  if (!dir || strncmp(dir, "/tmp/sc-test-", 13) != 0) return;
  rmtree(dir);
  for (int i = 0; i < SC_TEST_DIRS; i++)
    if (g_dirs[i] && !strcmp(g_dirs[i], dir)) {
      free(g_dirs[i]);
      g_dirs[i] = NULL;
    }
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

static size_t g_big_at, g_largest;
static long g_big;

static void sizes_note(size_t n) {
  if (n > g_largest) g_largest = n;
  g_big += n >= g_big_at;
}
static void *s_malloc(size_t n) {
  sizes_note(n);
  return malloc(n);
}
static void *s_realloc(void *p, size_t n) {
  sizes_note(n);
  return realloc(p, n);
}

void sc_test_sizes_install(size_t big) {
  sc_set_allocator(s_malloc, s_realloc, free);
  g_big_at = big;
  g_largest = 0;
  g_big = 0;
}
void sc_test_sizes_reset(void) {
  g_largest = 0;
  g_big = 0;
}
size_t sc_test_sizes_largest(void) { return g_largest; }
long sc_test_sizes_big(void) { return g_big; }

static void write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= (size_t)w;
  }
}

/* In the child: read one request (head + Content-Length body), log, reply. */
static void http_serve_one(int lfd, int logfd, const sc_test_reply *r) {
  int fd = accept(lfd, NULL, NULL);
  if (fd < 0) _exit(1);
  static char req[256 * 1024];
  size_t len = 0, need = 0;
  char *head_end = NULL;
  for (;;) {
    ssize_t n = read(fd, req + len, sizeof req - 1 - len);
    if (n <= 0) break;
    len += (size_t)n;
    req[len] = '\0';
    if (!head_end && (head_end = strstr(req, "\r\n\r\n"))) {
      const char *cl = strcasestr(req, "\r\ncontent-length:");
      need = (size_t)(head_end + 4 - req) +
             (cl && cl < head_end ? strtoul(cl + 17, NULL, 10) : 0);
    }
    if (head_end && len >= need) break;
  }
  write_all(logfd, req, len);
  write_all(logfd, "\n--\n", 4);
  if (r->delay_ms > 0) usleep((useconds_t)r->delay_ms * 1000);
  const char *body = r->body ? r->body : req;
  size_t blen = r->body ? strlen(r->body) : len;
  char hdr[2048];
  int n = snprintf(hdr, sizeof hdr,
                   "HTTP/1.1 %d X\r\nContent-Type: application/json; charset=utf-8\r\n"
                   "%s%s%sContent-Length: %zu\r\nConnection: close\r\n\r\n",
                   r->status, r->location ? "Location: " : "", r->location ? r->location : "",
                   r->location ? "\r\n" : "", blen);
  if (n < 0 || n >= (int)sizeof hdr) _exit(1);
  write_all(fd, hdr, (size_t)n);
  write_all(fd, body, blen);
  close(fd);
}

sc_test_http sc_test_http_start(const sc_test_reply *replies, size_t n) {
  sc_test_http s;
  memset(&s, 0, sizeof s);
  signal(SIGPIPE, SIG_IGN);
  snprintf(s.log, sizeof s.log, "/tmp/sc-test-http-XXXXXX");
  int logfd = mkstemp(s.log);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t alen = sizeof a;
  if (logfd < 0 || fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
      listen(fd, 8) != 0 || getsockname(fd, (struct sockaddr *)&a, &alen) != 0) {
    fprintf(stderr, "sc_test_http_start: cannot listen\n");
    abort();
  }
  s.port = ntohs(a.sin_port);
  s.pid = fork();
  if (s.pid == 0) {
    alarm(30); /* a test that failed before stopping it leaves no server behind */
    for (size_t i = 0; i < n; i++) http_serve_one(fd, logfd, &replies[i]);
    _exit(0);
  }
  close(fd);
  close(logfd);
  return s;
}

char *sc_test_http_stop(sc_test_http *s) {
  if (s->pid > 0) {
    kill(s->pid, SIGKILL);
    waitpid(s->pid, NULL, 0);
    s->pid = 0;
  }
  char *log = sc_test_slurp(s->log, NULL);
  unlink(s->log);
  return log ? log : strdup("");
}

void sc_test_oom_sweep(int (*call)(void *ud), void *ud, long max) {
  sc_test_alloc_install();
  long live = sc_test_alloc_live();
  int ok = 0;
  for (long n = 0; n <= max && !ok; n++) {
    sc_test_alloc_fail_after(n);
    int rc = call(ud);
    sc_test_alloc_fail_after(-1);
    sc__scratch_release(); /* the thread's kept blocks are a cache, not a leak */
    if (rc == 0)
      ok = 1;
    else
      assert_int_equal(rc, SC_ENOMEM);
    assert_int_equal(sc_test_alloc_live(), live);
  }
  assert_true(ok);
}

sc_browser *sc_test_b;

int sc_test_browser_up(void **st) {
  (void)st;
  if (sc_browser_launch(&sc_test_b, NULL) < 0) {
    fprintf(stderr, "launch: %s\n", sc_errmsg());
    return -1;
  }
  return 0;
}

int sc_test_browser_down(void **st) {
  (void)st;
  sc_browser_free(sc_test_b);
  sc_test_b = NULL;
  return 0;
}
