/* libwebsockets transport for the CDP client: one websocket to the browser
 * endpoint, on the loop's lws context. It only moves bytes: received
 * pieces go to the assembler (rx.c); outgoing messages are popped from the
 * core when writable. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client_priv.h"
#include "core/core.h"
#include "url.h"

/* One chunk of an incoming message. Returns -1 to drop the connection. */
static int on_receive(sc__client *cl, struct lws *wsi, const char *in, size_t len) {
  size_t rest = lws_remaining_packet_payload(wsi);
  if (sc__rx_append(cl, in, len, rest) < 0) return -1;
  return lws_is_final_fragment(wsi) && rest == 0 ? sc__rx_end(cl) : 0;
}

static int on_writeable(sc__client *cl, struct lws *wsi) {
  size_t len;
  char *msg = sc__cdp_pop_outgoing(cl->cdp, &len);
  if (!msg) return 0;
  sc__cdp_trace(cl, "out", msg, len);
  if (LWS_PRE + len > cl->tx_cap) {
    unsigned char *p = sc__realloc(cl->tx, LWS_PRE + len);
    if (!p) {
      sc__free(msg);
      sc__client_lost(cl, "out of memory sending a message");
      return -1;
    }
    cl->tx = p;
    cl->tx_cap = LWS_PRE + len;
  }
  memcpy(cl->tx + LWS_PRE, msg, len);
  sc__free(msg);
  /* lws buffers what the socket does not take now and sends it before the
   * next writable callback, so one lws_write per message is enough. */
  int n = lws_write(wsi, cl->tx + LWS_PRE, len, LWS_WRITE_TEXT);
  if (n < (int)len) {
    sc__client_lost(cl, "write failed");
    return -1;
  }
  if (cl->tx_cap > 4 * SC__WS_CHUNK) { /* do not keep a big buffer around */
    sc__free(cl->tx);
    cl->tx = NULL;
    cl->tx_cap = 0;
  }
  if (sc__cdp_outgoing(cl->cdp)) lws_callback_on_writable(wsi);
  return 0;
}

static int ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user,
                       void *in, size_t len) {
  /* Each connection carries its client as the wsi's user data. */
  sc__client *cl = user;
  if (!cl) return 0;
  switch (reason) {
  case LWS_CALLBACK_CLIENT_ESTABLISHED:
    cl->established = 1;
    if (sc__cdp_outgoing(cl->cdp)) lws_callback_on_writable(wsi);
    break;
  case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
    if (cl->established) {
      sc__client_lost(cl, in ? (const char *)in : "connection error");
    } else {
      snprintf(cl->err, sizeof cl->err, "%s", in ? (const char *)in : "connection failed");
      cl->conn_failed = 1;
    }
    cl->wsi = NULL;
    break;
  case LWS_CALLBACK_CLIENT_RECEIVE:
    if (!cl->destroying) return on_receive(cl, wsi, in, len);
    break;
  case LWS_CALLBACK_CLIENT_WRITEABLE:
    if (!cl->destroying && !cl->lost) return on_writeable(cl, wsi);
    break;
  case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
    sc__client_lost(cl, "browser closed the websocket");
    break;
  case LWS_CALLBACK_CLIENT_CLOSED:
    sc__client_lost(cl, "websocket closed");
    cl->wsi = NULL;
    break;
  case LWS_CALLBACK_WSI_DESTROY:
    if (wsi == cl->wsi) {
      if (cl->established) sc__client_lost(cl, "websocket gone");
      else if (!cl->conn_failed) {
        snprintf(cl->err, sizeof cl->err, "connection failed");
        cl->conn_failed = 1;
      }
      cl->wsi = NULL;
    }
    break;
  default:
    break;
  }
  return 0;
}

const struct lws_protocols sc__ws_protocols[] = {
    {"stepcheck-cdp", ws_callback, 0, SC__WS_CHUNK, 0, NULL, 0},
    {SC__PIPE_PROTOCOL, sc__pipe_callback, 0, 0, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

void sc__ws_want_write(sc__client *cl) {
  if (cl->pipe_w) {
    sc__pipe_want_write(cl);
    return;
  }
  if (cl->wsi && cl->established && !cl->lost && sc__cdp_outgoing(cl->cdp))
    lws_callback_on_writable(cl->wsi);
}

int sc__client_watch(sc__client *cl, struct pollfd *out) {
  int n = 0;
  int writing = sc__cdp_outgoing(cl->cdp) > 0;
  if (cl->pipe_r || cl->pipe_w) {
    if (cl->pipe_r && cl->pipe_rfd >= 0) out[n++] = (struct pollfd){cl->pipe_rfd, POLLIN, 0};
    if (cl->pipe_w && cl->pipe_wfd >= 0 && (writing || cl->ptx))
      out[n++] = (struct pollfd){cl->pipe_wfd, POLLOUT, 0};
    return n;
  }
  if (!cl->wsi || cl->lost) return 0;
  int fd = (int)lws_get_socket_fd(cl->wsi);
  if (fd < 0) return -1; /* still connecting: no socket to name yet */
  short ev = POLLIN;
  if (writing || !cl->established) ev |= POLLOUT; /* a connect completes as writable */
  out[n++] = (struct pollfd){fd, ev, 0};
  return n;
}

int sc__ws_open(sc__client *cl, const char *ws_url, double timeout_ms) {
  int rc = sc__loop_busy(cl->loop, "cdp connect");
  if (rc) return rc;
  sc__url u;
  rc = sc__url_parse(&u, ws_url);
  if (rc) return rc;
  if (strcmp(u.scheme, "ws") != 0)
    return sc__err(SC_EINVAL, "cdp: %s: want a ws:// URL", ws_url);
  double deadline = sc__now_ms() + timeout_ms;

  char host[300];
  sc__url_host_port(&u, host, sizeof host);
  struct lws_client_connect_info ci;
  memset(&ci, 0, sizeof ci);
  ci.context = sc__loop_lws(cl->loop);
  ci.address = u.host;
  ci.port = u.port;
  ci.path = u.path;
  ci.host = host;
  ci.origin = NULL; /* Chromium refuses an Origin it was not told to allow */
  ci.protocol = NULL;
  ci.ietf_version_or_minus_one = -1;
  /* A handshake answered with a redirect fails: libwebsockets would follow
   * it to any host, past the loopback rule (http.c says why). */
  ci.ssl_connection = LCCSCF_HTTP_NO_FOLLOW_REDIRECT;
  ci.local_protocol_name = sc__ws_protocols[0].name;
  ci.pwsi = &cl->wsi;
  ci.userdata = cl;
  if (!lws_client_connect_via_info(&ci) && !cl->conn_failed) {
    snprintf(cl->err, sizeof cl->err, "connect failed");
    cl->conn_failed = 1;
  }
  while (!cl->established && !cl->conn_failed && !cl->lost) {
    if (sc__now_ms() >= deadline)
      return sc__err(SC_ETIMEDOUT, "cdp: connect %s: no handshake within %.0f ms",
                     ws_url, timeout_ms);
    if (cl->cancel && *cl->cancel)
      return sc__err(SC_ECANCELED, "cdp: connect %s: interrupted", ws_url);
    double wait = deadline - sc__now_ms();
    if (cl->cancel && wait > SC__CLIENT_CANCEL_SLICE_MS) wait = SC__CLIENT_CANCEL_SLICE_MS;
    rc = sc__loop_service(cl->loop, wait);
    if (rc < 0) return rc;
  }
  if (!cl->established || cl->lost)
    return sc__err(SC_EIO, "cdp: connect %s: %s", ws_url, cl->err);
  return 0;
}

void sc__ws_close(sc__client *cl) {
  cl->destroying = 1;
  /* Close this connection alone: the context is the loop's. */
  if (cl->wsi) lws_set_timeout(cl->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_SYNC);
  cl->wsi = NULL;
}
