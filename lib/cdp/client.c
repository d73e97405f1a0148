/* CDP client: the core over the websocket transport, a service loop that
 * honours deadlines, blocking calls and event listeners. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client_priv.h"
#include "core/debug.h"
#include "core/core.h"

static void dispatch_event(const char *session_id, const char *method, json_t *params,
                           void *ud) {
  sc__client *cl = ud;
  /* Listeners added during this dispatch wait for the next event; removed
   * ones are only marked (cb NULL) and compacted at the outermost level. */
  size_t n = cl->nls;
  cl->dispatch_depth++;
  for (size_t i = 0; i < n && i < cl->nls; i++) {
    sc__listener l = cl->ls[i];
    if (l.cb) l.cb(session_id, method, params, l.ud);
  }
  if (--cl->dispatch_depth == 0 && cl->ls_dirty) {
    size_t j = 0;
    for (size_t i = 0; i < cl->nls; i++)
      if (cl->ls[i].cb) cl->ls[j++] = cl->ls[i];
    cl->nls = j;
    cl->ls_dirty = 0;
  }
}

/* A client on loop (NULL: its own), not yet connected. */
static int client_new(sc__client **out, sc_loop *loop, const sc__client_options *opts) {
  *out = NULL;
  sc__client *cl = sc__calloc(1, sizeof *cl);
  if (!cl) return sc__err(SC_ENOMEM, "cdp: out of memory");
  cl->pipe_rfd = cl->pipe_wfd = -1;
  cl->cancel = opts ? opts->cancel : NULL;
  sc__cdp_options co = {opts ? opts->max_message_bytes : 0, NULL};
  int rc = sc__cdp_new(&cl->cdp, &co);
  if (rc == 0 && !loop) {
    rc = sc_loop_new(&loop);
    cl->own_loop = rc == 0;
  }
  if (rc == 0) {
    cl->loop = loop;
    rc = sc__loop_attach(loop, cl);
  }
  if (rc) {
    if (cl->own_loop) sc_loop_free(loop);
    sc__cdp_free(cl->cdp);
    sc__free(cl);
    return rc;
  }
  cl->max_bytes = sc__cdp_max_message_bytes(cl->cdp);
  cl->next_lid = 1;
  cl->trace = (sc__debug() & SC_DEBUG_CDP) != 0;
  sc__cdp_on_event(cl->cdp, dispatch_event, cl);
  *out = cl;
  return 0;
}

/* The end of both connects: on failure the half-made client goes, its
 * error kept. */
static int connected(sc__client **out, sc__client *cl, int rc) {
  if (rc) {
    sc__errsave e;
    sc__err_save(&e);
    sc__client_free(cl);
    return sc__err_restore(&e, rc);
  }
  *out = cl;
  return 0;
}

int sc__client_connect(sc__client **out, sc_loop *loop, const char *ws_url,
                       const sc__client_options *opts) {
  if (!out || !ws_url) return sc__err(SC_EINVAL, "cdp: connect: NULL argument");
  *out = NULL;
  sc__client *cl;
  int rc = client_new(&cl, loop, opts);
  if (rc) return rc;
  double timeout = opts && opts->connect_timeout_ms > 0 ? opts->connect_timeout_ms : 10000;
  return connected(out, cl, sc__ws_open(cl, ws_url, timeout));
}

int sc__client_connect_pipe(sc__client **out, sc_loop *loop, int rfd, int wfd,
                            const sc__client_options *opts) {
  sc__client *cl = NULL;
  int rc = out ? client_new(&cl, loop, opts) : sc__err(SC_EINVAL, "cdp: connect: NULL argument");
  if (rc) {
    close(rfd);
    close(wfd);
    return rc;
  }
  *out = NULL;
  /* the client owns the descriptors from here: sc__client_free closes them */
  return connected(out, cl, sc__pipe_open(cl, rfd, wfd));
}

void sc__client_free(sc__client *cl) {
  if (!cl) return;
  /* Fail what is pending while the client is still whole (callbacks may look
   * at it), then tear the socket down. */
  sc__cdp_close(cl->cdp, SC_ECLOSED, "connection closed");
  sc__ws_close(cl);
  sc__pipe_close(cl);
  sc__rx_drop_queue(cl);
  sc__loop_detach(cl->loop, cl);
  if (cl->own_loop) sc_loop_free(cl->loop);
  sc__cdp_free(cl->cdp);
  sc__free(cl->tx);
  sc__free(cl->ls);
  sc__free(cl);
}

sc__cdp *sc__client_cdp(sc__client *cl) { return cl->cdp; }

sc_loop *sc__client_loop(sc__client *cl) { return cl->loop; }

/* Feed what the transport received; hand a lost socket to the core; expire
 * deadlines. Runs outside any lws callback. */
int sc__client_pump(sc__client *cl) {
  int handled = 0;
  sc__rxmsg *m;
  while ((m = sc__rx_pop(cl))) {
    /* After a close (a protocol violation closes from inside the core) what
     * still comes is dropped, not queued for ever. */
    if (!sc__cdp_is_closed(cl->cdp)) {
      if (m->data)
        sc__cdp_feed(cl->cdp, m->data, m->len);
      else
        sc__cdp_feed_oversized(cl->cdp, m->head, m->head_len, m->len);
      handled++;
      if (sc__cdp_is_closed(cl->cdp) && !cl->err[0])
        snprintf(cl->err, sizeof cl->err, "%s", sc__cdp_close_reason(cl->cdp));
    }
    sc__rx_recycle(cl, m);
  }
  if (cl->lost && !sc__cdp_is_closed(cl->cdp)) {
    sc__cdp_close(cl->cdp, SC_ECLOSED, cl->err);
    handled++;
  }
  size_t before = sc__cdp_pending(cl->cdp);
  sc__cdp_expire(cl->cdp);
  handled += (int)(before - sc__cdp_pending(cl->cdp));
  return handled;
}

int sc__client_service(sc__client *cl, double timeout_ms) {
  double end = sc__now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
  for (;;) {
    if (sc__cdp_is_closed(cl->cdp))
      return sc__err(SC_ECLOSED, "cdp: %s", cl->err[0] ? cl->err : "connection closed");
    int n = sc__loop_service(cl->loop, end - sc__now_ms());
    if (n < 0) return n;
    if (sc__cdp_is_closed(cl->cdp))
      return sc__err(SC_ECLOSED, "cdp: %s", cl->err[0] ? cl->err : "connection closed");
    if (n > 0 || sc__now_ms() >= end) return 0;
  }
}

void sc__client_set_cancel(sc__client *cl, const volatile int *cancel) { cl->cancel = cancel; }

typedef struct call_state {
  int done;
  int status;
  json_t *result;
  char err[512];
  int abandoned; /* the caller was canceled and left: the reply frees it */
} call_state;

static void call_done(int status, json_t *result, const char *errmsg, void *ud) {
  call_state *st = ud;
  if (st->abandoned) {
    sc__free(st);
    return;
  }
  st->done = 1;
  st->status = status;
  if (status == 0)
    st->result = json_incref(result);
  else
    snprintf(st->err, sizeof st->err, "%s", errmsg ? errmsg : sc_strerror(status));
}

int sc__client_call(sc__client *cl, const char *session_id, const char *method,
                    json_t *params, double timeout_ms, json_t **result) {
  if (result) *result = NULL;
  if (!cl || !method) {
    json_decref(params);
    return sc__err(SC_EINVAL, "cdp: call: NULL argument");
  }
  int brc = sc__loop_busy(cl->loop, method);
  if (brc) {
    json_decref(params); /* stolen on every path (they leaked here) */
    return brc;
  }
  /* On the heap: a canceled caller leaves before the reply, which frees it. */
  call_state *st = sc__calloc(1, sizeof *st);
  if (!st) {
    json_decref(params);
    return sc__err(SC_ENOMEM, "%s: out of memory", method);
  }
  int rc = sc__cdp_send(cl->cdp, session_id, method, params, timeout_ms, call_done,
                        st, NULL);
  if (rc) {
    sc__free(st);
    return sc__err(rc, "%s: %s", method,
                   rc == SC_ECLOSED && cl->err[0] ? cl->err : sc_strerror(rc));
  }
  /* The callback fires exactly once: by reply, deadline or close. Without a
   * deadline this waits as long as the connection lives. */
  while (!st->done) {
    if (cl->cancel && *cl->cancel) {
      st->abandoned = 1;
      return sc__err(SC_ECANCELED, "%s: interrupted", method);
    }
    sc__client_service(cl, cl->cancel ? SC__CLIENT_CANCEL_SLICE_MS : 1000);
  }
  rc = st->status ? sc__err(st->status, "%s: %s", method, st->err) : 0;
  if (rc == 0 && result)
    *result = st->result;
  else
    json_decref(st->result);
  sc__free(st);
  return rc;
}

sc__listener_id sc__client_listen(sc__client *cl, sc__cdp_event_cb cb, void *ud) {
  if (!cl || !cb) return sc__err(SC_EINVAL, "cdp: listen: NULL argument");
  if (cl->nls == cl->cap_ls) {
    size_t cap = cl->cap_ls ? cl->cap_ls * 2 : 8;
    sc__listener *p = sc__realloc(cl->ls, cap * sizeof *p);
    if (!p) return sc__err(SC_ENOMEM, "cdp: listen: out of memory");
    cl->ls = p;
    cl->cap_ls = cap;
  }
  sc__listener_id id = cl->next_lid++;
  cl->ls[cl->nls++] = (sc__listener){id, cb, ud};
  return id;
}

void sc__client_unlisten(sc__client *cl, sc__listener_id id) {
  if (!cl) return;
  for (size_t i = 0; i < cl->nls; i++) {
    if (cl->ls[i].id != id || !cl->ls[i].cb) continue;
    if (cl->dispatch_depth) {
      cl->ls[i].cb = NULL;
      cl->ls_dirty = 1;
    } else {
      memmove(cl->ls + i, cl->ls + i + 1, (cl->nls - i - 1) * sizeof *cl->ls);
      cl->nls--;
    }
    return;
  }
}
