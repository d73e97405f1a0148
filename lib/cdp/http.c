/* One HTTP request over libwebsockets' HTTP client: DevTools discovery
 * (GET /json/version) and the WebDriver calls of a Selenium Grid (POST and
 * DELETE /session). Small bodies only; the reply is read whole.
 *
 * Redirects are ours to follow, never libwebsockets': it would follow a
 * Location to any host, so a loopback endpoint could send the request (and
 * a grid's session body) off the machine. A GET follows at most
 * SC__HTTP_MAX_REDIRECTS, each target checked by the rule the first URL
 * passed (loopback unless remote hosts are allowed); other methods follow
 * none (their body is never sent anywhere but the URL the caller named). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_priv.h"
#include "core/core.h"
#include "url.h"

#define SC__HTTP_MAX_BODY (1u << 20)
#define SC__HTTP_CHUNK 4096
/* The grid refuses a JSON body whose type does not say utf-8. */
#define SC__HTTP_JSON_TYPE "application/json; charset=utf-8"
#define SC__HTTP_MAX_REDIRECTS 4
#define SC__HTTP_LOCATION_MAX 2048
/* How often a wait looks at its cancel flag: well inside the 2 s in which an
 * interrupted run lets go of the network (docs/reliability.md). */
#define SC__HTTP_CANCEL_SLICE_MS 100.0

typedef struct http_state {
  const char *req;     /* request body, NULL for none */
  size_t req_len, req_sent;
  char *body;          /* response body */
  size_t len, cap;
  int status;          /* HTTP status once the headers are in */
  char location[SC__HTTP_LOCATION_MAX]; /* a 3xx reply's Location, "" for none */
  int done;            /* 1 complete, -1 failed */
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

/* Request headers for a body: its type and length; the body follows from
 * LWS_CALLBACK_CLIENT_HTTP_WRITEABLE. */
static int add_body_headers(struct lws *wsi, http_state *st, unsigned char **p,
                            unsigned char *end) {
  if (lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_TYPE,
                                   (const unsigned char *)SC__HTTP_JSON_TYPE,
                                   (int)strlen(SC__HTTP_JSON_TYPE), p, end) ||
      lws_add_http_header_content_length(wsi, st->req_len, p, end)) {
    snprintf(st->err, sizeof st->err, "request headers too long");
    return -1;
  }
  lws_client_http_body_pending(wsi, 1);
  lws_callback_on_writable(wsi);
  return 0;
}

/* The next piece of the request body. */
static int write_body(struct lws *wsi, http_state *st) {
  unsigned char buf[LWS_PRE + SC__HTTP_CHUNK];
  size_t n = st->req_len - st->req_sent;
  if (n > SC__HTTP_CHUNK) n = SC__HTTP_CHUNK;
  int last = st->req_sent + n == st->req_len;
  memcpy(buf + LWS_PRE, st->req + st->req_sent, n);
  if (lws_write(wsi, buf + LWS_PRE, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) !=
      (int)n) {
    snprintf(st->err, sizeof st->err, "cannot send the request body");
    return -1;
  }
  st->req_sent += n;
  if (last)
    lws_client_http_body_pending(wsi, 0);
  else
    lws_callback_on_writable(wsi);
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
  case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
    if (st->req && add_body_headers(wsi, st, (unsigned char **)in, *(unsigned char **)in + len)) {
      st->done = -1;
      return -1;
    }
    break;
  case LWS_CALLBACK_CLIENT_HTTP_WRITEABLE:
    if (st->req && st->req_sent < st->req_len && write_body(wsi, st)) {
      st->done = -1;
      return -1;
    }
    break;
  case LWS_CALLBACK_ESTABLISHED_CLIENT_HTTP:
    st->status = (int)lws_http_client_http_response(wsi);
    if (st->status >= 300 && st->status < 400 &&
        lws_hdr_copy(wsi, st->location, sizeof st->location, WSI_TOKEN_HTTP_LOCATION) < 0)
      st->location[0] = '\0'; /* too long: reported as a redirect without a target */
    break;
  case LWS_CALLBACK_RECEIVE_CLIENT_HTTP_READ:
    if (append(st, in, len)) {
      st->done = -1;
      return -1;
    }
    break;
  case LWS_CALLBACK_RECEIVE_CLIENT_HTTP: {
    char buf[LWS_PRE + SC__HTTP_CHUNK];
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
    {"stepcheck-http", http_callback, 0, SC__HTTP_CHUNK, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* The deadline timer: also cancel the wait, in case lws ran the timer before
 * entering poll() (which would then sleep until lws' own next timer). */
typedef struct http_timer {
  lws_sorted_usec_list_t sul; /* first: the callback gets its address */
  struct lws_context *ctx;
} http_timer;

static void wake(lws_sorted_usec_list_t *sul) { lws_cancel_service(((http_timer *)sul)->ctx); }

/* Service ctx until st is done, the deadline passes or *cancel is set
 * (looked at every SC__HTTP_CANCEL_SLICE_MS): 1 when canceled. */
static int run_until(struct lws_context *ctx, const http_state *st, double deadline,
                     const volatile int *cancel) {
  http_timer timer;
  memset(&timer, 0, sizeof timer);
  timer.ctx = ctx;
  while (!st->done) {
    if (cancel && *cancel) return 1;
    double now = sc__now_ms();
    if (now >= deadline) break;
    if (deadline - now < 1.0) {
      lws_service(ctx, -1); /* poll without waiting */
      continue;
    }
    double slice = deadline - now;
    if (cancel && slice > SC__HTTP_CANCEL_SLICE_MS) slice = SC__HTTP_CANCEL_SLICE_MS;
    lws_sul_schedule(ctx, 0, &timer.sul, wake, (lws_usec_t)(slice * 1000.0) + 1);
    lws_service(ctx, 0);
    lws_sul_cancel(&timer.sul);
  }
  return 0;
}

static int check_request(const sc__url *u, const char *method, const char *url,
                         unsigned flags) {
  if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0 &&
      strcmp(method, "DELETE") != 0)
    return sc__err(SC_EINVAL, "http: method %s not supported (GET, POST, DELETE)", method);
  if (strcmp(u->scheme, "http") != 0)
    return sc__err(SC_EINVAL, "http: %s: want an http:// URL", url);
  if (!(flags & SC__HTTP_ALLOW_REMOTE) && !sc__url_host_is_loopback(u->host))
    return sc__err(SC_EINVAL,
                   "http: %s: host %s is not a loopback address (127.0.0.0/8, "
                   "localhost or [::1]) and remote hosts were not allowed",
                   url, u->host);
  return 0;
}

/* One exchange with url (parsed in *u): *st gets the status, body and
 * Location. 0 or an error naming method and url. */
static int one_request(http_state *st, const sc__url *u, const char *method, const char *url,
                       const char *json_body, double timeout_ms, const volatile int *cancel) {
  memset(st, 0, sizeof *st);
  if (json_body && *json_body) {
    st->req = json_body;
    st->req_len = strlen(json_body);
  }
  /* lws sizes its fd table by the fd limit; one socket needs few. */
  struct lws_context *ctx = sc__lws_context_new(sc__http_protocols, st, 0, 16, timeout_ms);
  if (!ctx) return sc__err(SC_ENOMEM, "http: cannot create lws context");

  char hosthdr[300];
  sc__url_host_port(u, hosthdr, sizeof hosthdr);
  struct lws_client_connect_info ci;
  memset(&ci, 0, sizeof ci);
  ci.context = ctx;
  ci.address = u->host;
  ci.port = u->port;
  ci.path = u->path;
  ci.host = hosthdr;
  ci.origin = NULL;
  ci.method = method;
  ci.alpn = "http/1.1";
  ci.protocol = sc__http_protocols[0].name;
  ci.local_protocol_name = sc__http_protocols[0].name;
  ci.ssl_connection = LCCSCF_HTTP_NO_FOLLOW_REDIRECT; /* ours to decide (top) */
  if (!lws_client_connect_via_info(&ci) && !st->done) {
    snprintf(st->err, sizeof st->err, "connect failed");
    st->done = -1;
  }
  int canceled = run_until(ctx, st, sc__now_ms() + timeout_ms, cancel);
  int timed_out = !st->done;
  lws_context_destroy(ctx); /* may still report a close: decided above */

  int rc = 0;
  if (canceled)
    rc = sc__err(SC_ECANCELED, "http: %s %s: interrupted", method, url);
  else if (timed_out)
    rc = sc__err(SC_ETIMEDOUT, "http: %s %s: no response within %.0f ms", method, url,
                 timeout_ms);
  else if (st->done < 0)
    rc = sc__err(SC_EIO, "http: %s %s: %s", method, url, st->err);
  else if (!st->body && !(st->body = sc__strdup("")))
    rc = sc__err(SC_ENOMEM, "http: out of memory");
  if (rc) {
    sc__free(st->body);
    st->body = NULL;
  }
  return rc;
}

static int is_redirect(int status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

/* The URL a redirect from *from names: an absolute http:// URL, or a path
 * on the same host and port. Into *next (parsed) and buf. */
static int redirect_target(sc__url *next, char *buf, size_t size, const sc__url *from,
                           const char *method, const char *url, const char *location) {
  if (!location[0])
    return sc__err(SC_EPROTO, "http: %s %s: redirected without a usable Location", method, url);
  if (location[0] == '/' && location[1] != '/') {
    char hostport[300];
    sc__url_host_port(from, hostport, sizeof hostport);
    if (snprintf(buf, size, "http://%s%s", hostport, location) >= (int)size)
      return sc__err(SC_EPROTO, "http: %s %s: redirect target too long", method, url);
  } else if (snprintf(buf, size, "%s", location) >= (int)size) {
    return sc__err(SC_EPROTO, "http: %s %s: redirect target too long", method, url);
  }
  if (sc__url_parse(next, buf))
    return sc__err(SC_EPROTO, "http: %s %s: redirected to \"%.200s\", not an http:// URL",
                   method, url, location);
  return 0;
}

int sc__http_request(int *status, char **body, const char *method, const char *url,
                     const char *json_body, unsigned flags, double timeout_ms) {
  return sc__http_request_cancel(status, body, method, url, json_body, flags, timeout_ms, NULL);
}

int sc__http_request_cancel(int *status, char **body, const char *method, const char *url,
                            const char *json_body, unsigned flags, double timeout_ms,
                            const volatile int *cancel) {
  if (status) *status = 0;
  if (body) *body = NULL;
  if (!method || !url || !(timeout_ms > 0))
    return sc__err(SC_EINVAL, "http: bad argument");
  sc__url u;
  int rc = sc__url_parse(&u, url);
  if (rc || (rc = check_request(&u, method, url, flags))) return rc;
  double deadline = sc__now_ms() + timeout_ms;
  char hop_url[SC__HTTP_LOCATION_MAX + 300];
  const char *cur = url;
  http_state st;
  for (int hops = 0;; hops++) {
    double left = deadline - sc__now_ms();
    if ((rc = one_request(&st, &u, method, cur, json_body, left > 1 ? left : 1, cancel))) return rc;
    if (!is_redirect(st.status)) break;
    sc__free(st.body);
    st.body = NULL;
    sc__url next;
    if (strcmp(method, "GET") != 0)
      return sc__err(SC_EPROTO,
                     "http: %s %s: answered %d (redirect to \"%.200s\"): redirects are "
                     "not followed for %s",
                     method, cur, st.status, st.location, method);
    if (hops == SC__HTTP_MAX_REDIRECTS)
      return sc__err(SC_EPROTO, "http: GET %s: more than %d redirects", url,
                     SC__HTTP_MAX_REDIRECTS);
    char target[sizeof hop_url];
    if ((rc = redirect_target(&next, target, sizeof target, &u, method, cur, st.location)))
      return rc;
    if (check_request(&next, method, target, flags)) {
      sc__errsave e; /* the refusal, quoted after the redirect that led there */
      sc__err_save(&e);
      return sc__err(SC_EINVAL, "http: GET %s: redirected, not followed: %s", url, e.msg);
    }
    memcpy(hop_url, target, sizeof hop_url);
    u = next;
    cur = hop_url;
  }
  if (status) *status = st.status;
  if (body)
    *body = st.body;
  else
    sc__free(st.body);
  return 0;
}
