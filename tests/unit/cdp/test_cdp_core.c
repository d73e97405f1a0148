/* CDP core: message text, deadlines on a fake clock, failure fan-out,
 * re-entrant callbacks, size cap, malformed input. */
#include <stdio.h>
#include <string.h>

#include "cdp/cdp.h"
#include "core/core.h"
#include "testutil.h"

static double g_now = 1000.0;
static double fake_now(void) { return g_now; }

typedef struct got {
  int fired, status;
  char err[256];
  long long value; /* result.v when present */
} got;

static void on_reply(int status, json_t *result, const char *errmsg, void *ud) {
  got *g = ud;
  g->fired++;
  g->status = status;
  snprintf(g->err, sizeof g->err, "%s", errmsg ? errmsg : "");
  g->value = json_integer_value(json_object_get(result, "v"));
}

static sc__cdp *new_conn(size_t max) {
  sc__cdp_options o = {max, fake_now};
  sc__cdp *c = NULL;
  assert_int_equal(sc__cdp_new(&c, &o), 0);
  return c;
}

static void feed(sc__cdp *c, const char *s) { assert_int_equal(sc__cdp_feed(c, s, strlen(s)), 0); }

static void drain(sc__cdp *c) {
  char *m;
  while ((m = sc__cdp_pop_outgoing(c, NULL))) sc__free(m);
}

/* Screenshot replies (big, one base64 string) are read without jansson's
 * parser when they have Chromium's exact shape; every shape gives the same
 * result, and nothing malformed gets through that way. */
typedef struct gotdata {
  int fired, status;
  char *data;
  size_t len;
} gotdata;

static void on_data(int status, json_t *result, const char *errmsg, void *ud) {
  gotdata *g = ud;
  (void)errmsg;
  g->fired++;
  g->status = status;
  json_t *d = json_object_get(result, "data");
  free(g->data);
  g->len = json_string_length(d);
  g->data = g->len ? malloc(g->len) : NULL;
  if (g->data) memcpy(g->data, json_string_value(d), g->len);
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral" /* the shapes below are formats */
static void screenshot_replies(void **st) {
  (void)st;
  enum { B64 = 6000 };
  char *b64 = malloc(B64 + 1);
  for (int i = 0; i < B64; i++) b64[i] = "AZaz09+/"[i % 8];
  b64[B64] = '\0';
  const char *shapes[] = {
      "{\"id\":%lld,\"result\":{\"data\":\"%s\"},\"sessionId\":\"AB12\"}",
      "{\"id\":%lld,\"result\":{\"data\":\"%s\"}}",
      "{\"id\":%lld,\"result\":{\"data\":\"%s\",\"x\":1}}",  /* another field */
      "{\"id\": %lld, \"result\": {\"data\": \"%s\"}}",       /* spaces */
      "{\"id\":%lld,\"result\":{\"data\":\"\\/%s\"}}",       /* an escape: "\/" is "/" */
  };
  sc__cdp *c = new_conn(0);
  char *msg = malloc(B64 + 200);
  for (int k = 0; k < 5; k++) {
    gotdata g = {0};
    int64_t id = 0;
    assert_int_equal(sc__cdp_send(c, "AB12", "Page.captureScreenshot", NULL, 0, on_data, &g, &id),
                     0);
    snprintf(msg, B64 + 200, shapes[k], (long long)id, b64);
    assert_int_equal(sc__cdp_feed(c, msg, strlen(msg)), 0);
    assert_int_equal(g.fired, 1);
    assert_int_equal(g.status, 0);
    size_t off = k == 4; /* the escaped slash comes first */
    assert_int_equal(g.len, B64 + off);
    if (off) assert_int_equal(g.data[0], '/');
    assert_memory_equal(g.data + off, b64, B64);
    free(g.data);
  }
  drain(c);
  sc__cdp_free(c);
  /* Malformed near-misses are protocol errors, as jansson says: they fail
   * the connection and every command at once, never pass as a reply. */
  const char *bad[] = {
      "{\"id\":%lld,\"result\":{\"data\":\"%s\"}",                  /* no last brace */
      "{\"id\":%lld,\"result\":{\"data\":\"%s\"}}}",                /* one too many */
      "{\"id\":%lld,\"result\":{\"data\":\"%s\"},\"sessionId\":\"AB}", /* open string */
      "{\"id\":%lld,\"result\":{\"data\":\"%s}}",                    /* open string */
  };
  for (int k = 0; k < 4; k++) {
    c = new_conn(0);
    gotdata gb = {0};
    int64_t id = 0;
    assert_int_equal(sc__cdp_send(c, NULL, "Page.captureScreenshot", NULL, 0, on_data, &gb, &id),
                     0);
    snprintf(msg, B64 + 200, bad[k], (long long)id, b64);
    assert_int_equal(sc__cdp_feed(c, msg, strlen(msg)), SC_EPROTO);
    assert_int_equal(gb.fired, 1);
    assert_int_equal(gb.status, SC_EPROTO);
    assert_null(gb.data);
    drain(c);
    sc__cdp_free(c);
  }
  free(msg);
  free(b64);
}
#pragma GCC diagnostic pop

static void message_text(void **st) {
  (void)st;
  sc__cdp *c = new_conn(0);
  int64_t id = 0;
  got g = {0};
  assert_int_equal(sc__cdp_send(c, "S1", "Runtime.evaluate",
                                json_pack("{ss}", "expression", "1+2"), 0, on_reply, &g, &id),
                   0);
  assert_int_equal(id, 1);
  assert_int_equal(sc__cdp_send(c, NULL, "Browser.getVersion", NULL, 0, on_reply, &g, &id), 0);
  assert_int_equal(id, 2);
  assert_int_equal(sc__cdp_outgoing(c), 2);
  size_t len;
  char *m = sc__cdp_pop_outgoing(c, &len);
  assert_string_equal(
      m, "{\"id\":1,\"method\":\"Runtime.evaluate\",\"params\":{\"expression\":\"1+2\"},"
         "\"sessionId\":\"S1\"}");
  assert_int_equal(len, strlen(m));
  sc__free(m);
  m = sc__cdp_pop_outgoing(c, NULL);
  assert_string_equal(m, "{\"id\":2,\"method\":\"Browser.getVersion\",\"params\":{}}");
  sc__free(m);
  assert_null(sc__cdp_pop_outgoing(c, &len));
  assert_int_equal(len, 0);
  assert_int_equal(sc__cdp_pending(c), 2);
  /* Bad arguments: params stolen, nothing queued, no callback. */
  assert_int_equal(sc__cdp_send(c, NULL, NULL, json_object(), 0, on_reply, &g, NULL), SC_EINVAL);
  assert_int_equal(sc__cdp_send(c, NULL, "X.y", json_array(), 0, on_reply, &g, NULL), SC_EINVAL);
  assert_int_equal(sc__cdp_outgoing(c), 0);
  /* Fire and forget: queued, nothing pending, the reply is dropped. */
  assert_int_equal(sc__cdp_send(c, NULL, "X.y", NULL, 0, NULL, NULL, &id), 0);
  assert_int_equal(id, 3);
  assert_int_equal(sc__cdp_pending(c), 2);
  feed(c, "{\"id\":3,\"result\":{}}");
  drain(c);
  sc__cdp_free(c);
  assert_int_equal(g.fired, 2); /* the two pending ones, failed by free */
  assert_int_equal(g.status, SC_ECLOSED);
  assert_string_equal(g.err, "connection closed");
}

static void deadlines_fake_clock(void **st) {
  (void)st;
  g_now = 1000.0;
  sc__cdp *c = new_conn(0);
  got a = {0}, b = {0}, n = {0};
  assert_int_equal(sc__cdp_send(c, NULL, "A.a", NULL, 100, on_reply, &a, NULL), 0);
  assert_int_equal(sc__cdp_send(c, NULL, "B.b", NULL, 250, on_reply, &b, NULL), 0);
  assert_int_equal(sc__cdp_send(c, NULL, "N.n", NULL, 0, on_reply, &n, NULL), 0);
  assert_true(sc__cdp_next_deadline(c) == 1100.0);
  g_now = 1099.999;
  sc__cdp_expire(c);
  assert_int_equal(a.fired, 0);
  g_now = 1100.0; /* exactly at the deadline: expired */
  sc__cdp_expire(c);
  assert_int_equal(a.fired, 1);
  assert_int_equal(a.status, SC_ETIMEDOUT);
  assert_string_equal(a.err, "timed out after 100 ms");
  assert_int_equal(b.fired, 0);
  assert_true(sc__cdp_next_deadline(c) == 1250.0);
  /* A late reply for a command that timed out is ignored. */
  feed(c, "{\"id\":1,\"result\":{\"v\":1}}");
  assert_int_equal(a.fired, 1);
  g_now = 5000.0; /* well after */
  sc__cdp_expire(c);
  assert_int_equal(b.fired, 1);
  assert_string_equal(b.err, "timed out after 250 ms");
  assert_int_equal(n.fired, 0); /* no deadline, never expires */
  assert_true(sc__cdp_next_deadline(c) == 0);
  assert_int_equal(sc__cdp_pending(c), 1);
  feed(c, "{\"id\":3,\"result\":{\"v\":42}}");
  assert_int_equal(n.fired, 1);
  assert_int_equal(n.status, 0);
  assert_int_equal(n.value, 42);
  drain(c);
  sc__cdp_free(c);
}

static void close_fails_all(void **st) {
  (void)st;
  sc__cdp *c = new_conn(0);
  got g[3] = {{0}};
  assert_int_equal(sc__cdp_send(c, NULL, "A.a", NULL, 100, on_reply, &g[0], NULL), 0);
  assert_int_equal(sc__cdp_send(c, "S1", "B.b", NULL, 0, on_reply, &g[1], NULL), 0);
  assert_int_equal(sc__cdp_send(c, "S2", "C.c", NULL, 0, on_reply, &g[2], NULL), 0);
  sc__cdp_close(c, SC_ECLOSED, "connection closed: test");
  for (int i = 0; i < 3; i++) {
    assert_int_equal(g[i].fired, 1);
    assert_int_equal(g[i].status, SC_ECLOSED);
    assert_string_equal(g[i].err, "connection closed: test");
  }
  assert_true(sc__cdp_is_closed(c));
  assert_int_equal(sc__cdp_pending(c), 0);
  assert_null(sc__cdp_pop_outgoing(c, NULL)); /* queued ones dropped */
  got late = {0};
  assert_int_equal(sc__cdp_send(c, NULL, "D.d", NULL, 0, on_reply, &late, NULL), SC_ECLOSED);
  assert_int_equal(late.fired, 0);
  assert_non_null(strstr(sc_errmsg(), "D.d"));
  assert_int_equal(sc__cdp_feed(c, "{\"id\":1,\"result\":{}}", 20), SC_ECLOSED);
  sc__cdp_close(c, SC_ECLOSED, "again");
  sc__cdp_free(c);
  for (int i = 0; i < 3; i++) assert_int_equal(g[i].fired, 1);
}

/* Callbacks that send (and close) while a fan-out is under way. */
typedef struct chain {
  sc__cdp *c;
  int fired, status, send_rc;
  const char *send_session; /* send this from the callback */
  int close_now;
  got child;
} chain;

static void on_chain(int status, json_t *result, const char *errmsg, void *ud) {
  chain *ch = ud;
  ch->fired++;
  ch->status = status;
  if (ch->send_session)
    ch->send_rc = sc__cdp_send(ch->c, ch->send_session, "Re.send", NULL, 0, on_reply,
                               &ch->child, NULL);
  if (ch->close_now) sc__cdp_close(ch->c, SC_ECLOSED, "closed from a callback");
}

static void reentrant_callbacks(void **st) {
  (void)st;
  sc__cdp *c = new_conn(0);
  chain ch[4];
  memset(ch, 0, sizeof ch);
  for (int i = 0; i < 4; i++) ch[i].c = c;
  ch[0].send_session = "A"; /* resend to the crashed session: stays pending */
  ch[1].send_session = "B";
  for (int i = 0; i < 3; i++)
    assert_int_equal(sc__cdp_send(c, "A", "X.x", NULL, 0, on_chain, &ch[i], NULL), 0);
  assert_int_equal(sc__cdp_send(c, "B", "Y.y", NULL, 0, on_chain, &ch[3], NULL), 0);
  feed(c, "{\"method\":\"Inspector.targetCrashed\",\"params\":{},\"sessionId\":\"A\"}");
  for (int i = 0; i < 3; i++) {
    assert_int_equal(ch[i].fired, 1);
    assert_int_equal(ch[i].status, SC_ECRASHED);
  }
  assert_int_equal(ch[0].send_rc, 0);
  assert_int_equal(ch[1].send_rc, 0);
  assert_int_equal(ch[3].fired, 0);
  assert_int_equal(sc__cdp_pending(c), 3); /* B's original + the two re-sends */
  assert_int_equal(ch[0].child.fired, 0);
  /* A callback that closes the connection during the close fan-out. */
  ch[3].close_now = 1;
  ch[3].send_session = "B";
  sc__cdp_close(c, SC_ECLOSED, "bye");
  assert_int_equal(ch[3].fired, 1);
  assert_int_equal(ch[3].send_rc, SC_ECLOSED);
  assert_int_equal(ch[0].child.fired, 1);
  assert_int_equal(ch[1].child.fired, 1);
  assert_int_equal(ch[0].child.status, SC_ECLOSED);
  drain(c);
  sc__cdp_free(c);
}

static void oversized_then_usable(void **st) {
  (void)st;
  sc__cdp *c = new_conn(64);
  assert_int_equal(sc__cdp_max_message_bytes(c), 64);
  got big = {0}, ok = {0};
  assert_int_equal(sc__cdp_send(c, NULL, "Big.reply", NULL, 0, on_reply, &big, NULL), 0);
  assert_int_equal(sc__cdp_send(c, NULL, "Small.reply", NULL, 0, on_reply, &ok, NULL), 0);
  char msg[200];
  snprintf(msg, sizeof msg, "{\"id\":1,\"result\":{\"data\":\"%0100d\"}}", 7);
  assert_int_equal(sc__cdp_feed(c, msg, strlen(msg)), SC_ETOOBIG);
  assert_non_null(strstr(sc_errmsg(), "exceeds the 64 byte limit"));
  assert_int_equal(big.fired, 1);
  assert_int_equal(big.status, SC_ETOOBIG);
  assert_non_null(strstr(big.err, "exceeds the 64 byte limit"));
  /* An oversized event: dropped, nobody fails. */
  snprintf(msg, sizeof msg, "{\"method\":\"Big.event\",\"params\":{\"x\":\"%0100d\"}}", 1);
  assert_int_equal(sc__cdp_feed(c, msg, strlen(msg)), SC_ETOOBIG);
  assert_int_equal(ok.fired, 0);
  /* Garbage over the cap: not parsed, nothing fails. */
  memset(msg, '{', 100);
  assert_int_equal(sc__cdp_feed(c, msg, 100), SC_ETOOBIG);
  feed(c, "{\"id\":2,\"result\":{\"v\":5}}");
  assert_int_equal(ok.fired, 1);
  assert_int_equal(ok.value, 5);
  /* The transport's path: only the head of a dropped message is known. */
  got t = {0};
  assert_int_equal(sc__cdp_send(c, NULL, "T.t", NULL, 0, on_reply, &t, NULL), 0);
  assert_int_equal(sc__cdp_feed_oversized(c, "{\"id\":3,\"resu", 13, 1 << 20), SC_ETOOBIG);
  assert_int_equal(t.status, SC_ETOOBIG);
  assert_non_null(strstr(t.err, "1048576 bytes"));
  drain(c);
  sc__cdp_free(c);
}

/* A browser that breaks the protocol fails the connection at once: every
 * pending command completes with SC_EPROTO and a one-line reason, instead
 * of each waiting for its deadline; later sends and feeds are refused. */
static void violation_fails_everything(const char *bad, size_t len, const char *want) {
  sc__cdp *c = new_conn(0);
  got g = {0}, h = {0}, late = {0};
  assert_int_equal(sc__cdp_send(c, NULL, "A.a", NULL, 20000, on_reply, &g, NULL), 0);
  assert_int_equal(sc__cdp_send(c, "S1", "B.b", NULL, 0, on_reply, &h, NULL), 0);
  sc__err_clear();
  assert_int_equal(sc__cdp_feed(c, bad, len), SC_EPROTO);
  if (!strstr(sc_errmsg(), want)) fail_msg("'%s' lacks '%s'", sc_errmsg(), want);
  assert_int_equal(g.fired, 1);
  assert_int_equal(h.fired, 1);
  assert_int_equal(g.status, SC_EPROTO);
  assert_int_equal(h.status, SC_EPROTO);
  assert_non_null(strstr(g.err, "protocol error: "));
  assert_non_null(strstr(g.err, want));
  for (const char *q = g.err; *q; q++) /* one line of plain text */
    if ((unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7f) fail_msg("byte %#x in '%s'", *q, g.err);
  assert_int_equal(sc__cdp_pending(c), 0);
  assert_true(sc__cdp_is_closed(c));
  assert_string_equal(sc__cdp_close_reason(c), g.err);
  assert_int_equal(sc__cdp_send(c, NULL, "C.c", NULL, 0, on_reply, &late, NULL), SC_ECLOSED);
  assert_int_equal(late.fired, 0);
  assert_int_equal(sc__cdp_feed(c, "{\"id\":1,\"result\":{}}", 20), SC_ECLOSED);
  assert_int_equal(g.fired, 1);
  drain(c);
  sc__cdp_free(c);
  assert_int_equal(g.fired, 1); /* exactly once, also through the free */
}

static void malformed_messages_fail_the_connection(void **st) {
  (void)st;
  static const struct {
    const char *msg, *want;
  } cases[] = {
      {"{\"id\":1,", "malformed message"},
      {"not json", "malformed message"},
      {"", "malformed message"},
      {"[1,2]", "not a JSON object"},
      {"{\"foo\":1}", "neither id nor method"},
      {"{\"id\":\"1\"}", "not an integer"},
      {"{\"id\":1}", "neither result nor error"},
      /* not UTF-8: a lone continuation byte, an overlong '/' */
      {"{\"method\":\"Page.frameNavigated\",\"params\":{\"u\":\"\x80\"}}", "malformed message"},
      {"{\"id\":1,\"result\":{\"v\":\"\xc0\xaf\"}}", "malformed message"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    violation_fails_everything(cases[i].msg, strlen(cases[i].msg), cases[i].want);
  /* the position jansson found is in the reason, and the browser's bytes
   * it quotes cannot break the line */
  violation_fails_everything("{\"id\":1,", 8, "line 1");
  static const char esc[] = "{\"id\":1,\n\x1b[2Jx", ctl[] = "{\"a\":\"b\nc\"}";
  violation_fails_everything(esc, strlen(esc), "line 2");
  violation_fails_everything(ctl, strlen(ctl), "unexpected newline");
}

/* A reply to an id we never sent is a violation; a late reply to one we
 * did send (it timed out, or was sent without a callback) is not. */
static void replies_to_unknown_ids(void **st) {
  (void)st;
  violation_fails_everything("{\"id\":99,\"result\":{}}", 21, "id 99, which was never sent");
  violation_fails_everything("{\"id\":3,\"result\":{}}", 20, "id 3, which was never sent");
  violation_fails_everything("{\"id\":0,\"result\":{}}", 20, "never sent");
  violation_fails_everything("{\"id\":-5,\"error\":{\"code\":1}}", 28, "never sent");
  sc__cdp *c = new_conn(0);
  got t = {0}, ok = {0};
  assert_int_equal(sc__cdp_send(c, NULL, "T.t", NULL, 100, on_reply, &t, NULL), 0);
  assert_int_equal(sc__cdp_send(c, NULL, "F.f", NULL, 0, NULL, NULL, NULL), 0);
  assert_int_equal(sc__cdp_send(c, NULL, "O.o", NULL, 0, on_reply, &ok, NULL), 0);
  g_now += 100;
  sc__cdp_expire(c);
  assert_int_equal(t.status, SC_ETIMEDOUT);
  feed(c, "{\"id\":1,\"result\":{\"v\":1}}");                   /* too late: dropped */
  feed(c, "{\"id\":2,\"error\":{\"code\":-32000,\"message\":\"x\"}}"); /* fire and forget */
  assert_false(sc__cdp_is_closed(c));
  feed(c, "{\"id\":3,\"result\":{\"v\":4}}");
  assert_int_equal(ok.fired, 1);
  assert_int_equal(ok.value, 4);
  assert_int_equal(t.fired, 1);
  feed(c, "{\"id\":3,\"result\":{\"v\":4}}"); /* a second reply to a sent id: nobody waits */
  assert_int_equal(ok.fired, 1);
  drain(c);
  sc__cdp_free(c);
}

/* After its renderer crashed, a session's error replies (Chromium's
 * "-32603 Internal error") say "target crashed"; other sessions' errors
 * stay protocol errors; a reload after the crash or a detach ends that. */
static void errors_after_a_crash_name_it(void **st) {
  (void)st;
  sc__cdp *c = new_conn(0);
  got a = {0}, b = {0}, o = {0}, r = {0};
  int64_t ia, ib, io, ir;
  assert_int_equal(sc__cdp_send(c, "S1", "A.a", NULL, 0, on_reply, &a, &ia), 0);
  feed(c, "{\"method\":\"Inspector.targetCrashed\",\"params\":{},\"sessionId\":\"S1\"}");
  assert_int_equal(a.status, SC_ECRASHED);
  assert_string_equal(a.err, "target crashed");
  assert_int_equal(sc__cdp_send(c, "S1", "Page.captureScreenshot", NULL, 0, on_reply, &b, &ib), 0);
  assert_int_equal(sc__cdp_send(c, "S2", "O.o", NULL, 0, on_reply, &o, &io), 0);
  char m[160];
  snprintf(m, sizeof m, "{\"id\":%lld,\"error\":{\"code\":-32603,\"message\":\"Internal error\"},"
           "\"sessionId\":\"S1\"}", (long long)ib);
  feed(c, m);
  assert_int_equal(b.status, SC_ECRASHED);
  assert_string_equal(b.err, "target crashed (-32603 Internal error)");
  snprintf(m, sizeof m, "{\"id\":%lld,\"error\":{\"code\":-32603,\"message\":\"Internal error\"},"
           "\"sessionId\":\"S2\"}", (long long)io);
  feed(c, m);
  assert_int_equal(o.status, SC_EPROTO);
  assert_string_equal(o.err, "-32603 Internal error");
  feed(c, "{\"method\":\"Inspector.targetReloadedAfterCrash\",\"params\":{},\"sessionId\":\"S1\"}");
  assert_int_equal(sc__cdp_send(c, "S1", "R.r", NULL, 0, on_reply, &r, &ir), 0);
  snprintf(m, sizeof m, "{\"id\":%lld,\"error\":{\"code\":-32000,\"message\":\"no\"}}",
           (long long)ir);
  feed(c, m);
  assert_int_equal(r.status, SC_EPROTO);
  /* Target.targetCrashed names the target: its attached session counts */
  feed(c, "{\"method\":\"Target.attachedToTarget\",\"params\":{\"sessionId\":\"S3\","
          "\"targetInfo\":{\"targetId\":\"T3\"}}}");
  feed(c, "{\"method\":\"Target.targetCrashed\",\"params\":{\"targetId\":\"T3\"}}");
  got d = {0};
  int64_t id3;
  assert_int_equal(sc__cdp_send(c, "S3", "D.d", NULL, 0, on_reply, &d, &id3), 0);
  snprintf(m, sizeof m, "{\"id\":%lld,\"error\":{\"code\":-32603,\"message\":\"Internal error\"}}",
           (long long)id3);
  feed(c, m);
  assert_int_equal(d.status, SC_ECRASHED);
  /* a detach forgets the crash */
  feed(c, "{\"method\":\"Target.detachedFromTarget\",\"params\":{\"sessionId\":\"S3\"}}");
  got e = {0};
  assert_int_equal(sc__cdp_send(c, "S3", "E.e", NULL, 0, on_reply, &e, &id3), 0);
  snprintf(m, sizeof m, "{\"id\":%lld,\"error\":{\"code\":-32603,\"message\":\"Internal error\"}}",
           (long long)id3);
  feed(c, m);
  assert_int_equal(e.status, SC_EPROTO);
  drain(c);
  sc__cdp_free(c);
}

/* Unknown targets and sessions: crash/detach events that match nothing
 * fail nothing and are still delivered. */
static int g_events;
static void count_event(const char *s, const char *m, json_t *p, void *ud) { g_events++; }

static void unmatched_crash_events(void **st) {
  (void)st;
  sc__cdp *c = new_conn(0);
  sc__cdp_on_event(c, count_event, NULL);
  got g = {0};
  assert_int_equal(sc__cdp_send(c, "S", "A.a", NULL, 0, on_reply, &g, NULL), 0);
  feed(c, "{\"method\":\"Target.targetCrashed\",\"params\":{\"targetId\":\"T9\"}}");
  feed(c, "{\"method\":\"Target.detachedFromTarget\",\"params\":{\"sessionId\":\"Z\"}}");
  feed(c, "{\"method\":\"Inspector.targetCrashed\",\"params\":{}}");
  assert_int_equal(g.fired, 0);
  assert_int_equal(g_events, 3);
  sc__cdp_on_event(c, NULL, NULL);
  feed(c, "{\"method\":\"Some.event\"}");
  assert_int_equal(g_events, 3);
  drain(c);
  sc__cdp_free(c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(message_text),         cmocka_unit_test(deadlines_fake_clock),
      cmocka_unit_test(close_fails_all),      cmocka_unit_test(reentrant_callbacks),
      cmocka_unit_test(oversized_then_usable),
      cmocka_unit_test(malformed_messages_fail_the_connection),
      cmocka_unit_test(replies_to_unknown_ids), cmocka_unit_test(errors_after_a_crash_name_it),
      cmocka_unit_test(unmatched_crash_events),
      cmocka_unit_test(screenshot_replies),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
