/* One HTTP GET over libwebsockets' HTTP client, for DevTools discovery
 * (http://127.0.0.1:PORT/json/version). Small bodies only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libwebsockets.h>

#include "client.h"
#include "core/core.h"

#define SC__HTTP_MAX_BODY (1u << 20)

typedef struct http_state {
  char *body;
  size_t len, cap;
  int status;  /* HTTP status once the headers are in */
  int done;    /* 1 complete, -1 failed */
  char err[256];
} http_state;

static int append(http_state *st, const char *in, size_t len) {
  if (st->len + len > SC__HTTP_MAX_BODY) {
    snprintf(st->err, sizeof st->err, "body larger than %u bytes", SC__HTTP_MAX_BODY);
    return -1;
  }
  if (st->len + len + 1 > st->cap) {
    size_t cap = st->cap ? st->cap : 4096;
    while (cap < st->len + len + 1) cap *= 2;
    char *p = sc__realloc(st->body, cap);
    if (!p) {
      snprintf(st->err, sizeof st->err, "out of memory");
      return -1;
    }
    st->body = p;
    st->cap = cap;
  }
  memcpy(st->body + st->len, in, len);
  st->len += len;
  st->body[st->len] = '\0';
  return 0;
}

static int http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                         void *in, size_t len) {
  http_state *st = lws_context_user(lws_get_context(wsi));
  if (!st) return 0;
  switch (reason) {
  case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    snprintf(st->err, sizeof st->err, "%s", in ? (const char *)in : "connection failed");
    st->done = -1;
    break;
  case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
    st->status = (int)lws_http_client_http_response(wsi);
    break;
  case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
    if (append(st, in, len)) {
      st->done = -1;
      return -1;
    }
    break;
  case LWS_CALLBACK_RECEIVE_CLIENT_HTTP: {
    char buf[LWS_PRE + 4096];
    char *p = buf + LWS_PRE;
    int n = (int)sizeof buf - LWS_PRE;
    if (lws_http_client_read(wsi, &p, &n) < 0) return -1;
    break;
  }
  case LWS_CALLBACK_COMPLETED_CLIENT_HTTP:
    if (!st->done) st->done = 1;
    break;
  case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
    if (!st->done) {
      snprintf(st->err, sizeof st->err, "connection closed before the response ended");
      st->done = -1;
    }
    break;
  default:
    break;
  }
  return 0;
}

static const struct lws_protocols sc__http_protocols[] = {
    {"stepcheck-http", http_callback, 0, 4096, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* The deadline timer: also cancel the wait, in case lws ran the timer before
 * entering poll() (which would then sleep until lws' own next timer). */
typedef struct http_timer {
  lws_sorted_usec_list_t sul; /* first: the callback gets its address */
  struct lws_context *ctx;
} http_timer;

static void wake(lws_sorted_usec_list_t *sul) { lws_cancel_service(((http_timer *)sul)->ctx); }

int sc__http_get(char **body, const char *host, int port, const char *path,
                 double timeout_ms) {
  if (!body || !host || !path || port <= 0 || port > 65535)
    return sc__err(SC_EINVAL, "http: bad argument");
  *body = NULL;
  const char *dbg = getenv("SC_DEBUG");
  lws_set_log_level(dbg && *dbg ? LLL_ERR | LLL_WARN : 0, NULL);
  http_state st;
  memset(&st, 0, sizeof st);
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = CONTEXT_PORT_NO_LISTEN;
  info.protocols = sc__http_protocols;
  info.gid = (gid_t)-1;
  info.uid = (uid_t)-1;
  info.user = &st;
  info.fd_limit_per_thread = 16;
  info.options = LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS;
  struct lws_context *ctx = lws_create_context(&info);
  if (!ctx) return sc__err(SC_ENOMEM, "http: cannot create lws context");

  int v6 = strchr(host, ':') != NULL;
  char hosthdr[300];
  snprintf(hosthdr, sizeof hosthdr, v6 ? "[%s]:%d" : "%s:%d", host, port);
  struct lws_client_connect_info ci;
  memset(&ci, 0, sizeof ci);
  ci.context = ctx;
  ci.address = host;
  ci.port = port;
  ci.path = path;
  ci.host = hosthdr;
  ci.origin = NULL;
  ci.method = "GET";
  ci.alpn = "http/1.1";
  ci.protocol = sc__http_protocols[0].name;
  ci.local_protocol_name = sc__http_protocols[0].name;
  if (!lws_client_connect_via_info(&ci) && !st.done) {
    snprintf(st.err, sizeof st.err, "connect failed");
    st.done = -1;
  }
  double deadline = sc__now_ms() + timeout_ms;
  http_timer timer;
  memset(&timer, 0, sizeof timer);
  timer.ctx = ctx;
  while (!st.done) {
    double now = sc__now_ms();
    if (now >= deadline) break;
    if (deadline - now < 1.0) {
      lws_service(ctx, -1); /* poll without waiting */
      continue;
    }
    lws_sul_schedule(ctx, 0, &timer.sul, wake, (lws_usec_t)((deadline - now) * 1000.0) + 1);
    lws_service(ctx, 0);
    lws_sul_cancel(&timer.sul);
  }
  int timed_out = !st.done;
  lws_context_destroy(ctx); /* may still report a close: decided above */

  int rc = 0;
  if (timed_out)
    rc = sc__err(SC_ETIMEDOUT, "http: GET http://%s%s: no response within %.0f ms",
                 hosthdr, path, timeout_ms);
  else if (st.done < 0)
    rc = sc__err(SC_EIO, "http: GET http://%s%s: %s", hosthdr, path, st.err);
  else if (st.status != 200)
    rc = sc__err(SC_EPROTO, "http: GET http://%s%s: status %d", hosthdr, path, st.status);
  else if (!st.body && !(st.body = sc__strdup("")))
    rc = sc__err(SC_ENOMEM, "http: out of memory");
  if (rc) {
    sc__free(st.body);
    return rc;
  }
  *body = st.body;
  return 0;
}
