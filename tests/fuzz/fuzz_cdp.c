/* Fuzz target: the sans-IO CDP core (lib/cdp/cdp.c, pending.c) fed
 * arbitrary incoming messages after a few real commands were sent, so reply
 * ids match, sessions route, crash and detach events fan out, deadlines
 * expire and the screenshot-reply fast path is taken.
 *
 * Input: byte 0 = flags, the rest = lines split at '\n'.
 *   flags & 7        commands sent first (ids 1..n; 0 = 8)
 *   flags & 8        reply callbacks send a follow-up command (re-entrancy)
 *   flags >> 4       message cap: 0 = default (64 MiB), k = 256 << k bytes
 *   a line "!t<c>"   advance the fake clock by c * 100 ms and expire
 *   a line "!s<sid>" send one more command on session <sid> ("" = browser)
 *   a line "!o<hd>"  report an oversized message whose first bytes are <hd>
 *   a line "!c"      close the connection
 *   any other line   one incoming message for sc__cdp_feed
 * Invariants checked: every reply callback fires exactly once (by
 * sc__cdp_free at the latest), with a result on success and a message on
 * failure; a result equals what jansson parses from the message (so the
 * screenshot fast path builds the same tree as the parser, whenever the
 * message is valid JSON); every outgoing message is a JSON object with an
 * integer id. */
#include <string.h>

#include "cdp/cdp.h"
#include "core/core.h"
#include "fuzz.h"

#define MAX_CMDS 64

static double fake_now;
static double now_ms(void) { return fake_now; }

typedef struct fz {
  sc__cdp *c;
  int resend;
  int expected[MAX_CMDS]; /* 1: a callback is owed */
  int fired[MAX_CMDS];
  int n;
  json_t *parsed; /* jansson's parse of the message being fed, or NULL */
} fz;

static fz F;

static void reply_cb(int status, json_t *result, const char *errmsg, void *ud);

static void send_cmd(const char *session, int i) {
  if (F.n >= MAX_CMDS) return;
  int slot = F.n++;
  static const char *const methods[] = {"Target.attachToTarget", "Page.captureScreenshot",
                                        "Runtime.evaluate", "Page.captureScreenshot"};
  const char *method = methods[i % 4];
  json_t *params = json_object();
  if (i % 4 == 0) json_object_set_new(params, "targetId", json_string(i % 8 ? "T2" : "T1"));
  /* odd commands get a deadline; every fifth is fire-and-forget */
  int with_cb = i % 5 != 4;
  int rc = sc__cdp_send(F.c, session, method, params, i % 2 ? 1000.0 * (i % 7) : 0,
                        with_cb ? reply_cb : NULL, (void *)(intptr_t)slot, NULL);
  F.expected[slot] = rc == 0 && with_cb;
}

static void reply_cb(int status, json_t *result, const char *errmsg, void *ud) {
  int slot = (int)(intptr_t)ud;
  FUZZ_CHECK(slot >= 0 && slot < F.n);
  FUZZ_CHECK(F.expected[slot]);
  F.fired[slot]++;
  FUZZ_CHECK(F.fired[slot] == 1);
  if (status == 0) {
    FUZZ_CHECK(json_is_object(result));
    (void)json_string_value(json_object_get(result, "data"));
    if (F.parsed) FUZZ_CHECK(json_equal(result, json_object_get(F.parsed, "result")));
  } else {
    FUZZ_CHECK(result == NULL && errmsg != NULL);
    (void)strlen(errmsg);
  }
  if (F.resend) send_cmd(slot % 2 ? "S1" : NULL, slot + 1);
}

static void event_cb(const char *session_id, const char *method, json_t *params, void *ud) {
  (void)ud;
  FUZZ_CHECK(method != NULL);
  if (session_id) (void)strlen(session_id);
  (void)json_object_size(params);
}

/* Feed one message, with jansson's own parse of it at hand for reply_cb. */
static void feed(const char *msg, size_t len) {
  F.parsed = json_loadb(msg, len, 0, NULL);
  sc__cdp_feed(F.c, msg, len);
  json_decref(F.parsed);
  F.parsed = NULL;
}

static void drain_outgoing(void) {
  size_t len;
  char *msg;
  while ((msg = sc__cdp_pop_outgoing(F.c, &len))) {
    FUZZ_CHECK(strlen(msg) == len);
    json_t *m = json_loads(msg, 0, NULL);
    FUZZ_CHECK(json_is_integer(json_object_get(m, "id")));
    json_decref(m);
    sc__free(msg);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  memset(&F, 0, sizeof F);
  fake_now = 1000;
  int flags = data[0];
  sc__cdp_options o = {0, now_ms};
  if (flags >> 4) o.max_message_bytes = (size_t)256 << (flags >> 4);
  if (sc__cdp_new(&F.c, &o) != 0) return 0;
  sc__cdp_on_event(F.c, event_cb, NULL);
  int first = flags & 7 ? flags & 7 : 8;
  static const char *const sessions[] = {NULL, "S1", "S2"};
  for (int i = 0; i < first; i++) send_cmd(sessions[i % 3], i);
  F.resend = (flags & 8) != 0;
  drain_outgoing();

  const char *p = (const char *)data + 1, *end = (const char *)data + size;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t len = (size_t)((nl ? nl : end) - p);
    if (len >= 2 && p[0] == '!') {
      char arg[128];
      size_t alen = len - 2 < sizeof arg - 1 ? len - 2 : sizeof arg - 1;
      memcpy(arg, p + 2, alen);
      arg[alen] = '\0';
      switch (p[1]) {
      case 't':
        fake_now += 100.0 * (alen ? (unsigned char)arg[0] : 1);
        (void)sc__cdp_next_deadline(F.c);
        sc__cdp_expire(F.c);
        break;
      case 's':
        send_cmd(alen ? arg : NULL, F.n);
        break;
      case 'o':
        FUZZ_CHECK(sc__cdp_feed_oversized(F.c, alen ? arg : NULL, alen,
                                          sc__cdp_max_message_bytes(F.c) + 1) == SC_ETOOBIG);
        break;
      case 'c':
        sc__cdp_close(F.c, SC_ECLOSED, alen ? arg : NULL);
        FUZZ_CHECK(sc__cdp_is_closed(F.c) && sc__cdp_pending(F.c) == 0);
        break;
      default:
        feed(p, len);
      }
    } else if (len) {
      feed(p, len);
    }
    (void)sc__cdp_session_for_target(F.c, "T1");
    drain_outgoing();
    p += len + 1;
  }
  sc__cdp_free(F.c);
  for (int i = 0; i < F.n; i++) FUZZ_CHECK(F.fired[i] == F.expected[i]);
  return 0;
}
