/* The DevTools pipe transport with a scripted browser on the other end of
 * two pipes (no Chromium): commands come out NUL-terminated, replies are
 * assembled across reads and split when several come in one, a message
 * over the cap fails its command, a browser that goes away fails every
 * pending command and a write to it does not kill the process (SIGPIPE). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cdp/client.h"
#include "core/core.h"
#include "testutil.h"

static int open_fds(void) {
  int n = 0;
  for (int fd = 0; fd < 1024; fd++) n += fcntl(fd, F_GETFD) != -1;
  return n;
}

typedef struct fake {
  int cmd_r;   /* the browser's fd 3: what the client writes */
  int out_w;   /* the browser's fd 4: what the client reads */
  sc__client *cl;
} fake;

static void fake_open(fake *f, size_t max) {
  int cmd[2], out[2];
  assert_int_equal(pipe(cmd), 0);
  assert_int_equal(pipe(out), 0);
  f->cmd_r = cmd[0];
  f->out_w = out[1];
  sc__client_options o = {max, 0, NULL};
  assert_int_equal(sc__client_connect_pipe(&f->cl, NULL, out[0], cmd[1], &o), 0);
}

/* Read one NUL-terminated command the client wrote (servicing it). */
static char *read_command(fake *f) {
  static char buf[4096];
  size_t n = 0;
  fcntl(f->cmd_r, F_SETFL, O_NONBLOCK);
  for (int i = 0; i < 200; i++) {
    sc__client_service(f->cl, 10);
    ssize_t k = read(f->cmd_r, buf + n, sizeof buf - 1 - n);
    if (k > 0) n += (size_t)k;
    if (n && buf[n - 1] == '\0') return buf;
  }
  fail_msg("no command came out of the pipe (%zu bytes)", n);
  return NULL;
}

static void say(fake *f, const char *bytes, size_t len) {
  assert_int_equal(write(f->out_w, bytes, len), (ssize_t)len);
}

typedef struct got {
  int fired, status;
  long long v;
  char err[256];
} got;

static void on_reply(int status, json_t *result, const char *errmsg, void *ud) {
  got *g = ud;
  g->fired++;
  g->status = status;
  g->v = json_integer_value(json_object_get(result, "v"));
  snprintf(g->err, sizeof g->err, "%s", errmsg ? errmsg : "");
}

static void wait_for(fake *f, const got *g, int n) {
  for (int i = 0; i < 200 && g->fired < n; i++) sc__client_service(f->cl, 10);
  assert_int_equal(g->fired, n);
}

static void commands_and_replies(void **st) {
  (void)st;
  int fds = open_fds();
  fake f;
  fake_open(&f, 0);
  got a = {0}, b = {0}, c = {0};
  int64_t ia, ib, ic;
  sc__cdp *cdp = sc__client_cdp(f.cl);
  assert_int_equal(sc__cdp_send(cdp, "S", "A.a", NULL, 0, on_reply, &a, &ia), 0);
  char *m = read_command(&f);
  assert_non_null(strstr(m, "\"method\":\"A.a\""));
  assert_non_null(strstr(m, "\"sessionId\":\"S\""));
  assert_int_equal(strlen(m) + 1, strlen(m) + 1); /* one NUL ends it */
  /* one reply in two writes */
  char r1[128];
  int n = snprintf(r1, sizeof r1, "{\"id\":%lld,\"result\":{\"v\":7}}", (long long)ia);
  say(&f, r1, 10);
  sc__client_service(f.cl, 20);
  assert_int_equal(a.fired, 0);
  say(&f, r1 + 10, (size_t)n - 10 + 1);
  wait_for(&f, &a, 1);
  assert_int_equal(a.status, 0);
  assert_int_equal(a.v, 7);
  /* two replies in one write */
  assert_int_equal(sc__cdp_send(cdp, NULL, "B.b", NULL, 0, on_reply, &b, &ib), 0);
  assert_int_equal(sc__cdp_send(cdp, NULL, "C.c", NULL, 0, on_reply, &c, &ic), 0);
  read_command(&f);
  char two[256];
  int k = snprintf(two, sizeof two, "{\"id\":%lld,\"result\":{\"v\":1}}", (long long)ib);
  k += 1 + snprintf(two + k + 1, sizeof two - (size_t)k - 1,
                    "{\"id\":%lld,\"result\":{\"v\":2}}", (long long)ic);
  say(&f, two, (size_t)k + 1);
  wait_for(&f, &c, 1);
  assert_int_equal(b.fired, 1);
  assert_int_equal(b.v, 1);
  assert_int_equal(c.v, 2);
  sc__client_free(f.cl);
  close(f.cmd_r);
  close(f.out_w);
  assert_int_equal(open_fds(), fds); /* the client's two ends are closed */
}

/* A big reply (several pipe loads) arrives whole; one over the cap fails
 * only its command, and the next reply is read as usual. */
static void big_and_oversized_replies(void **st) {
  (void)st;
  fake f;
  fake_open(&f, 300000);
  sc__cdp *cdp = sc__client_cdp(f.cl);
  got a = {0}, b = {0}, c = {0};
  int64_t ia, ib, ic;
  assert_int_equal(sc__cdp_send(cdp, NULL, "Big", NULL, 0, on_reply, &a, &ia), 0);
  assert_int_equal(sc__cdp_send(cdp, NULL, "Huge", NULL, 0, on_reply, &b, &ib), 0);
  assert_int_equal(sc__cdp_send(cdp, NULL, "Small", NULL, 0, on_reply, &c, &ic), 0);
  read_command(&f);
  fcntl(f.out_w, F_SETFL, O_NONBLOCK);
  for (int which = 0; which < 3; which++) {
    size_t pad = which == 0 ? 200000 : which == 1 ? 400000 : 0;
    char *msg = malloc(pad + 128);
    int h = snprintf(msg, 128, "{\"id\":%lld,\"result\":{\"v\":%d,\"s\":\"",
                     (long long)(which == 0 ? ia : which == 1 ? ib : ic), which + 10);
    memset(msg + h, 'x', pad);
    size_t len = (size_t)h + pad;
    len += (size_t)sprintf(msg + len, "\"}}");
    msg[len++] = '\0';
    size_t off = 0;
    while (off < len) { /* the pipe holds 64 KiB: let the client drain it */
      ssize_t w = write(f.out_w, msg + off, len - off);
      if (w > 0) off += (size_t)w;
      else sc__client_service(f.cl, 5);
    }
    free(msg);
  }
  wait_for(&f, &c, 1);
  assert_int_equal(a.status, 0);
  assert_int_equal(a.v, 10);
  assert_int_equal(b.status, SC_ETOOBIG);
  assert_non_null(strstr(b.err, "exceeds"));
  assert_int_equal(c.status, 0);
  assert_int_equal(c.v, 12);
  sc__client_free(f.cl);
  close(f.cmd_r);
  close(f.out_w);
}

/* Screenshot-sized replies one after another: the first one's buffer is
 * kept and reused (rx.c, sc__rx_recycle), so the next ones allocate no big
 * block (malloc churn of such blocks fragments the heap: the soak). */
static void big_replies_reuse_one_buffer(void **st) {
  (void)st;
  sc_test_sizes_install(100000);
  fake f;
  fake_open(&f, 0);
  sc__cdp *cdp = sc__client_cdp(f.cl);
  fcntl(f.out_w, F_SETFL, O_NONBLOCK);
  size_t pad = 300000;
  char *msg = malloc(pad + 128);
  for (int i = 0; i < 4; i++) {
    got g = {0};
    int64_t id;
    assert_int_equal(sc__cdp_send(cdp, NULL, "Shot", NULL, 0, on_reply, &g, &id), 0);
    read_command(&f);
    if (i == 1) sc_test_sizes_reset(); /* from the second reply on */
    int h = snprintf(msg, 128, "{\"id\":%lld,\"result\":{\"v\":%d,\"s\":\"", (long long)id, i);
    memset(msg + h, 'x', pad - (size_t)i * 1000); /* sizes vary a little */
    size_t len = (size_t)h + pad - (size_t)i * 1000;
    len += (size_t)sprintf(msg + len, "\"}}");
    msg[len++] = '\0';
    size_t off = 0;
    while (off < len) {
      ssize_t w = write(f.out_w, msg + off, len - off);
      if (w > 0) off += (size_t)w;
      else sc__client_service(f.cl, 5);
    }
    wait_for(&f, &g, 1);
    assert_int_equal(g.status, 0);
    assert_int_equal(g.v, i);
  }
  free(msg);
  long big = sc_test_sizes_big();
  sc__client_free(f.cl);
  sc_set_allocator(NULL, NULL, NULL);
  close(f.cmd_r);
  close(f.out_w);
  assert_int_equal(big, 0);
}

/* The browser goes away: pending commands fail "closed" with the reason,
 * and writing the next command to a pipe nobody reads is EPIPE, not a
 * SIGPIPE that kills the process. */
static void browser_gone(void **st) {
  (void)st;
  signal(SIGPIPE, SIG_DFL); /* as in a host that never touched it */
  fake f;
  fake_open(&f, 0);
  sc__cdp *cdp = sc__client_cdp(f.cl);
  got a = {0}, b = {0};
  assert_int_equal(sc__cdp_send(cdp, NULL, "A", NULL, 0, on_reply, &a, NULL), 0);
  read_command(&f);
  close(f.cmd_r); /* the browser stops reading */
  assert_int_equal(sc__cdp_send(cdp, NULL, "B", NULL, 0, on_reply, &b, NULL), 0);
  for (int i = 0; i < 20; i++) sc__client_service(f.cl, 5);
  close(f.out_w); /* and writing */
  wait_for(&f, &a, 1);
  assert_int_equal(a.status, SC_ECLOSED);
  wait_for(&f, &b, 1);
  assert_int_equal(b.status, SC_ECLOSED);
  assert_int_equal(sc__client_service(f.cl, 10), SC_ECLOSED);
  int fds = open_fds();
  sc__client_free(f.cl);
  assert_true(open_fds() <= fds - 1); /* what lws had not closed yet, closed */
}

/* A malformed message from the browser fails a blocking call at once
 * (SC_EPROTO, the reason), not after its 20 s deadline; what the browser
 * sends after it is dropped, and the connection says why it closed. */
static void malformed_message_fails_a_call_at_once(void **st) {
  (void)st;
  fake f;
  fake_open(&f, 0);
  /* written before the call: the reply it gets is garbage, then a valid
   * reply to the call's id (which must not be taken any more) */
  static const char junk[] = "{\"id\":1,\"result\":{\"v\":\"\xff\"}}\0{\"id\":1,\"result\":{}}";
  say(&f, junk, sizeof junk);
  double t0 = sc__now_ms();
  json_t *res = NULL;
  int rc = sc__client_call(f.cl, NULL, "A.a", NULL, 20000, &res);
  double took = sc__now_ms() - t0;
  assert_int_equal(rc, SC_EPROTO);
  assert_null(res);
  assert_non_null(strstr(sc_errmsg(), "A.a: protocol error: malformed message"));
  assert_true(took < 1000);
  assert_int_equal(sc__client_service(f.cl, 10), SC_ECLOSED);
  assert_non_null(strstr(sc_errmsg(), "protocol error"));
  sc__client_free(f.cl);
  close(f.cmd_r);
  close(f.out_w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(commands_and_replies),
      cmocka_unit_test(big_and_oversized_replies),
      cmocka_unit_test(big_replies_reuse_one_buffer),
      cmocka_unit_test(browser_gone),
      cmocka_unit_test(malformed_message_fails_a_call_at_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
