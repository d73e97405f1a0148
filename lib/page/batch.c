/* Commands on a page's session without blocking: a batch of commands sent
 * back to back that completes when its last reply is in, and the wait that
 * turns any of them into a blocking call for simple harnesses. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tab.h"

typedef struct batch {
  const char *method; /* static */
  int left;        /* replies still to come */
  int status;      /* first failure */
  char err[256];
  sc__done_cb cb;
  void *ud;
} batch;

static void batch_reply(int status, json_t *result, const char *errmsg, void *ud) {
  (void)result;
  batch *b = ud;
  if (status && !b->status) {
    b->status = status;
    snprintf(b->err, sizeof b->err, "%s: %s", b->method, errmsg ? errmsg : sc_strerror(status));
  }
  if (--b->left > 0) return;
  sc__done_cb cb = b->cb;
  void *cud = b->ud;
  int st = b->status;
  char err[256];
  snprintf(err, sizeof err, "%s", b->err);
  sc__free(b);
  if (cb) cb(st, st ? err : NULL, cud);
}

int sc__page_batch(sc_page *p, const char *method, json_t **params, int n, sc__done_cb cb,
                   void *ud) {
  if (!p->cl) { /* orphaned: its browser was freed */
    for (int i = 0; i < n; i++) json_decref(params[i]);
    return sc__page_check(p, method);
  }
  batch *b = sc__calloc(1, sizeof *b);
  int rc = b ? 0 : sc__err(SC_ENOMEM, "%s: out of memory", method);
  for (int i = 0; i < n && rc == 0; i++)
    if (!params[i]) rc = sc__err(SC_ENOMEM, "%s: out of memory", method);
  if (rc) {
    for (int i = 0; i < n; i++) json_decref(params[i]);
    sc__free(b);
    return rc;
  }
  b->method = method;
  b->cb = cb;
  b->ud = ud;
  b->left = n;
  /* an input makes at most a frame per event (witness.h); its reply is
   * due at once, so its frames come within the witness's window of it */
  if (!strncmp(method, "Input.", 6)) sc__witness_ours(p, n, 0);
  sc__cdp *cdp = sc__client_cdp(p->cl);
  for (int i = 0; i < n; i++) {
    rc = sc__cdp_send(cdp, p->session_id, method, params[i], p->timeout_ms, batch_reply, b,
                      NULL);
    if (rc == 0) continue;
    for (int j = i + 1; j < n; j++) json_decref(params[j]);
    if (i == 0) { /* nothing in flight: the callback never fires */
      sc__free(b);
      return sc__err(rc, "%s: %s", method, sc_strerror(rc));
    }
    /* Some are in flight: they finish the batch, which reports this. */
    b->left -= n - i;
    b->status = rc;
    snprintf(b->err, sizeof b->err, "%s: %s", method, sc_strerror(rc));
    return 0;
  }
  return 0;
}

void sc__page_wait(sc_page *p, const int *done) {
  /* Every command has a deadline, so this ends; a closed connection has
   * failed every pending command already. */
  while (!*done) sc__client_service(p->cl, 1000);
}

void sc__waited(int status, const char *errmsg, void *ud) {
  sc__waiter *w = ud;
  w->done = 1;
  w->status = status;
  if (status) snprintf(w->err, sizeof w->err, "%s", errmsg ? errmsg : sc_strerror(status));
}

int sc__page_wait_for(sc_page *p, sc__waiter *w, int rc) {
  if (rc < 0) return rc;
  sc__page_wait(p, &w->done);
  return w->status ? sc__err(w->status, "%s", w->err) : 0;
}

struct sc_loop *sc__page_loop(sc_page *p) { return sc__client_loop(p->cl); }
