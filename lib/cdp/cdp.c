/* CDP protocol core: ids, the pending table with deadlines, replies matched
 * by id, events routed by sessionId, failure fan-out. No I/O: the transport
 * feeds whole incoming messages and pops whole outgoing ones. */
#include "cdp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "cdp_priv.h"
#include "core/json.h"

#define SC__CDP_DEFAULT_MAX ((size_t)64 << 20)

int sc__cdp_new(sc__cdp **out, const sc__cdp_options *opts) {
  if (!out) return sc__err(SC_EINVAL, "cdp: out is NULL");
  *out = NULL;
  sc__cdp *c = sc__calloc(1, sizeof *c);
  if (!c) return sc__err(SC_ENOMEM, "cdp: out of memory");
  c->next_id = 1;
  c->max_bytes = opts && opts->max_message_bytes ? opts->max_message_bytes
                                                 : SC__CDP_DEFAULT_MAX;
  c->now = opts && opts->now_ms ? opts->now_ms : sc__now_ms;
  *out = c;
  return 0;
}

void sc__cdp_free(sc__cdp *c) {
  if (!c) return;
  sc__cdp_close(c, SC_ECLOSED, "connection closed");
  sc__cdp_sessions_clear(c);
  sc__free(c);
}

void sc__cdp_on_event(sc__cdp *c, sc__cdp_event_cb cb, void *userdata) {
  c->ev = cb;
  c->ev_ud = userdata;
}

int sc__cdp_is_closed(const sc__cdp *c) { return c->closed; }

size_t sc__cdp_pending(const sc__cdp *c) { return c->npending; }

size_t sc__cdp_outgoing(const sc__cdp *c) { return c->nout; }

/* Build the message text; *text is allocated by jansson's hook (the same one
 * sc__free uses). params is stolen. */
static int build_message(char **text, int64_t id, const char *session_id,
                         const char *method, json_t *params) {
  *text = NULL;
  json_t *m = json_object();
  if (!params) params = json_object();
  if (!m || !params || json_object_set_new(m, "id", json_integer(id)) ||
      json_object_set_new(m, "method", json_string(method))) {
    json_decref(m);
    json_decref(params);
    return SC_ENOMEM;
  }
  if (json_object_set_new(m, "params", params)) { /* steals params even on failure */
    json_decref(m);
    return SC_ENOMEM;
  }
  if (session_id && json_object_set_new(m, "sessionId", json_string(session_id))) {
    json_decref(m);
    return SC_ENOMEM;
  }
  *text = sc__json_dump(m, JSON_COMPACT);
  json_decref(m);
  return *text ? 0 : SC_ENOMEM;
}

int sc__cdp_send(sc__cdp *c, const char *session_id, const char *method,
                 json_t *params, double timeout_ms, sc__cdp_reply_cb cb,
                 void *userdata, int64_t *id_out) {
  if (!c || !method || !*method || (params && !json_is_object(params))) {
    json_decref(params);
    return sc__err(SC_EINVAL, "cdp: send: %s", !method || !*method
                                                    ? "no method"
                                                    : "params must be an object");
  }
  if (c->closed) {
    json_decref(params);
    return sc__err(SC_ECLOSED, "cdp: %s: connection closed", method);
  }
  /* A Target.attachToTarget reply carries the sessionId; the targetId is only
   * in our params, so keep it (before params are stolen) to learn the map. */
  const char *attach = NULL;
  if (strcmp(method, "Target.attachToTarget") == 0)
    attach = json_string_value(json_object_get(params, "targetId"));
  sc__cdp_pend *p = NULL;
  if (cb) {
    p = sc__calloc(1, sizeof *p);
    if (!p || (session_id && !(p->session = sc__strdup(session_id))) ||
        (attach && !(p->attach_target = sc__strdup(attach)))) {
      json_decref(params);
      sc__cdp_pend_free(p);
      return sc__err(SC_ENOMEM, "cdp: %s: out of memory", method);
    }
  }
  sc__cdp_out *o = sc__calloc(1, sizeof *o);
  char *text = NULL;
  if (!o || build_message(&text, c->next_id, session_id, method, params)) {
    if (!o) json_decref(params);
    sc__free(o);
    sc__cdp_pend_free(p);
    return sc__err(SC_ENOMEM, "cdp: %s: out of memory", method);
  }
  int64_t id = c->next_id++;
  o->text = text;
  o->len = strlen(text);
  if (c->out_tail)
    c->out_tail->next = o;
  else
    c->out_head = o;
  c->out_tail = o;
  c->nout++;
  if (p) {
    p->id = id;
    p->cb = cb;
    p->ud = userdata;
    p->timeout = timeout_ms > 0 ? timeout_ms : 0;
    p->deadline = timeout_ms > 0 ? c->now() + timeout_ms : 0;
    sc__cdp_pend_link(c, p);
  }
  if (id_out) *id_out = id;
  return 0;
}

char *sc__cdp_pop_outgoing(sc__cdp *c, size_t *len) {
  sc__cdp_out *o = c->out_head;
  if (!o) {
    if (len) *len = 0;
    return NULL;
  }
  c->out_head = o->next;
  if (!c->out_head) c->out_tail = NULL;
  c->nout--;
  char *text = o->text;
  if (len) *len = o->len;
  sc__free(o);
  return text;
}

/* The browser broke the protocol: nothing it sends can be trusted to match
 * what we wait for any more, so the connection fails at once, every
 * pending command with it (SC_EPROTO, this reason), rather than each
 * waiting for its deadline. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int violation(sc__cdp *c, const char *fmt, ...) {
  char why[200], reason[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  /* jansson quotes the bytes near an error: the browser's, maybe not text */
  for (char *q = why; *q; q++)
    if ((unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7f) *q = '?';
  snprintf(reason, sizeof reason, "protocol error: %s", why);
  sc__cdp_close(c, SC_EPROTO, reason);
  return sc__err(SC_EPROTO, "cdp: %s", reason);
}

/* The reply with this id arrived: fire its callback once. */
static int on_reply(sc__cdp *c, json_t *root, int64_t id) {
  json_t *error = json_object_get(root, "error");
  json_t *result = json_object_get(root, "result");
  if (!error && !json_is_object(result))
    return violation(c, "reply %lld has neither result nor error", (long long)id);
  sc__cdp_pend *p = sc__cdp_pend_take(c, id);
  if (!p) {
    /* A reply to a command that timed out, failed by a crash or was sent
     * without a callback: nobody waits. An id we never sent is a reply to
     * something else: the stream is not what we think it is. */
    if (id <= 0 || id >= c->next_id)
      return violation(c, "reply to id %lld, which was never sent", (long long)id);
    return 0;
  }
  int rc = 0;
  if (error) {
    char msg[512];
    const char *text = json_string_value(json_object_get(error, "message"));
    const char *data = json_string_value(json_object_get(error, "data"));
    /* After its renderer crashed, a session's commands fail with Chromium's
     * generic text (-32603 Internal error): say what happened. */
    int gone = p->session && sc__cdp_crashed_has(c, p->session);
    snprintf(msg, sizeof msg, "%s%lld %s%s%s%s%s", gone ? "target crashed (" : "",
             (long long)json_integer_value(json_object_get(error, "code")),
             text ? text : "(no message)", data ? " (" : "", data ? data : "",
             data ? ")" : "", gone ? ")" : "");
    p->cb(gone ? SC_ECRASHED : SC_EPROTO, NULL, msg, p->ud);
  } else {
    const char *sid = json_string_value(json_object_get(result, "sessionId"));
    if (p->attach_target && sid)
      rc = sc__cdp_sessions_add(c, p->attach_target, sid);
    p->cb(0, result, NULL, p->ud);
  }
  sc__cdp_pend_free(p);
  return rc;
}

/* A session's renderer crashed: remember it (later error replies on it
 * mean the crash), then fail what it waits for. */
static int crashed(sc__cdp *c, const char *session) {
  char copy[128]; /* session may be a map entry that a callback frees */
  snprintf(copy, sizeof copy, "%s", session);
  int rc = sc__cdp_crashed_add(c, copy);
  sc__cdp_fail_session(c, copy, SC_ECRASHED, "target crashed");
  return rc;
}

/* Crash and detach events fail the affected session's pending commands
 * before the event itself is dispatched. */
static int on_event(sc__cdp *c, json_t *root, const char *method) {
  int rc = 0;
  const char *sid = json_string_value(json_object_get(root, "sessionId"));
  json_t *params = json_object_get(root, "params");
  const char *psid = json_string_value(json_object_get(params, "sessionId"));
  if (strcmp(method, "Target.attachedToTarget") == 0) {
    const char *tid = json_string_value(
        json_object_get(json_object_get(params, "targetInfo"), "targetId"));
    if (tid && psid) rc = sc__cdp_sessions_add(c, tid, psid);
  } else if (strcmp(method, "Target.detachedFromTarget") == 0 && psid) {
    sc__cdp_fail_session(c, psid, SC_EDETACHED, "target detached");
    sc__cdp_sessions_remove(c, psid);
    sc__cdp_crashed_remove(c, psid);
  } else if (strcmp(method, "Inspector.targetCrashed") == 0 && sid) {
    rc = crashed(c, sid);
  } else if (strcmp(method, "Inspector.targetReloadedAfterCrash") == 0 && sid) {
    sc__cdp_crashed_remove(c, sid);
  } else if (strcmp(method, "Target.targetCrashed") == 0) {
    const char *tid = json_string_value(json_object_get(params, "targetId"));
    const char *mapped = tid ? sc__cdp_session_for_target(c, tid) : NULL;
    if (mapped) rc = crashed(c, mapped);
  }
  if (c->ev) c->ev(sid, method, params, c->ev_ud);
  return rc;
}

/* Reads the id of {"id":123,... from the first bytes, without parsing the
 * rest (Chromium writes "id" first); *end (optional) is where the ',' or
 * '}' after it is. Returns -1 when there is none. */
static int64_t sniff_id(const char *s, size_t n, size_t *end) {
  size_t i = 0;
  while (i < n && strchr(" \t\r\n", s[i])) i++;
  if (i >= n || s[i++] != '{') return -1;
  while (i < n && strchr(" \t\r\n", s[i])) i++;
  if (n - i < 4 || memcmp(s + i, "\"id\"", 4) != 0) return -1;
  i += 4;
  while (i < n && strchr(" \t\r\n", s[i])) i++;
  if (i >= n || s[i++] != ':') return -1;
  while (i < n && strchr(" \t\r\n", s[i])) i++;
  int64_t v = 0;
  size_t digits = 0;
  for (; i < n && s[i] >= '0' && s[i] <= '9' && digits < 18; i++, digits++)
    v = v * 10 + (s[i] - '0');
  if (end) *end = i;
  return digits && i < n && (s[i] == ',' || s[i] == '}') ? v : -1;
}

/* The big message a run receives again and again is a screenshot reply,
 * {"id":N,"result":{"data":"<base64>"}} with ,"sessionId":"<id>" before
 * the last brace: jansson's parse of its megabyte of base64 was a tenth of
 * the library's CPU per step. This reads exactly that shape (as Chromium
 * writes it) and builds the same tree, the string taken as it stands: a
 * JSON string without a backslash has no escapes, so its bytes are its
 * value (anything that is not base64 is refused when it is decoded).
 * Any other shape: NULL, and jansson parses the message. */
#define SC__CDP_FAST_MIN 4096
static int lit(const char *s, size_t n, size_t *i, const char *want) {
  size_t k = strlen(want);
  if (n - *i < k || memcmp(s + *i, want, k) != 0) return 0;
  *i += k;
  return 1;
}

static json_t *data_reply(const char *s, size_t n) {
  size_t i = 0;
  int64_t id = n < SC__CDP_FAST_MIN ? -1 : sniff_id(s, n, &i);
  if (id < 0 || !lit(s, n, &i, ",\"result\":{\"data\":\"")) return NULL;
  const char *data = s + i, *q = memchr(data, '"', n - i);
  if (!q || memchr(data, '\\', (size_t)(q - data))) return NULL;
  size_t dlen = (size_t)(q - data);
  i += dlen + 1;
  const char *sid = NULL;
  size_t slen = 0;
  if (!lit(s, n, &i, "}")) return NULL;
  if (lit(s, n, &i, ",\"sessionId\":\"")) {
    sid = s + i;
    const char *e = memchr(sid, '"', n - i);
    if (!e || memchr(sid, '\\', (size_t)(e - sid))) return NULL;
    slen = (size_t)(e - sid);
    i += slen + 1;
  }
  if (!lit(s, n, &i, "}") || i != n) return NULL;
  json_t *root = json_object(), *result = json_object();
  if (!root || !result || json_object_set_new(root, "id", json_integer((json_int_t)id)) ||
      json_object_set_new(result, "data", json_stringn_nocheck(data, dlen)) ||
      (sid && json_object_set_new(root, "sessionId", json_stringn(sid, slen))) ||
      json_object_set(root, "result", result)) {
    json_decref(result);
    json_decref(root);
    return NULL; /* out of memory: jansson's parse says so */
  }
  json_decref(result);
  return root;
}

int sc__cdp_feed(sc__cdp *c, const char *msg, size_t len) {
  if (c->closed) return sc__err(SC_ECLOSED, "cdp: message after close");
  if (len > c->max_bytes) return sc__cdp_feed_oversized(c, msg, len, len);
  json_error_t je;
  memset(&je, 0, sizeof je); /* jansson leaves it unset on some OOM paths */
  json_t *root = data_reply(msg, len);
  if (!root) root = json_loadb(msg, len, 0, &je);
  if (!root) {
    if (json_error_code(&je) == json_error_out_of_memory)
      return sc__err(SC_ENOMEM, "cdp: out of memory parsing a %zu byte message", len);
    /* jansson also refuses text that is not UTF-8 ("unable to decode byte") */
    return violation(c, "malformed message from the browser (%zu bytes, line %d column %d: %s)",
                     len, je.line, je.column, je.text);
  }
  int rc;
  json_t *jid = json_object_get(root, "id");
  const char *method = json_string_value(json_object_get(root, "method"));
  if (!json_is_object(root))
    rc = violation(c, "message from the browser is not a JSON object");
  else if (jid && json_is_integer(jid))
    rc = on_reply(c, root, json_integer_value(jid));
  else if (jid)
    rc = violation(c, "reply id from the browser is not an integer");
  else if (method)
    rc = on_event(c, root, method);
  else
    rc = violation(c, "message from the browser has neither id nor method");
  json_decref(root);
  return rc;
}

int sc__cdp_feed_oversized(sc__cdp *c, const char *head, size_t head_len,
                           size_t total_len) {
  int64_t id = head ? sniff_id(head, head_len, NULL) : -1;
  sc__cdp_pend *p = id >= 0 ? sc__cdp_pend_take(c, id) : NULL;
  if (p) {
    char msg[160];
    snprintf(msg, sizeof msg, "reply of %zu bytes exceeds the %zu byte limit",
             total_len, c->max_bytes);
    p->cb(SC_ETOOBIG, NULL, msg, p->ud);
    sc__cdp_pend_free(p);
  }
  return sc__err(SC_ETOOBIG, "cdp: message of %zu bytes exceeds the %zu byte limit",
                 total_len, c->max_bytes);
}

size_t sc__cdp_max_message_bytes(const sc__cdp *c) { return c->max_bytes; }

const char *sc__cdp_close_reason(const sc__cdp *c) { return c->closed ? c->why : ""; }
