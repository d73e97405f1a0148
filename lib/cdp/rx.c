/* Received messages, for every transport (ws.c, pipe.c): a message is
 * assembled from the pieces the transport reads, capped (over the cap it is
 * counted, not buffered, and its first bytes kept so the reply it answers
 * can still be failed), then queued whole for client.c to feed to the core
 * outside any lws callback. Also the debug trace (SC_DEBUG=cdp). */
#include <stdio.h>
#include <string.h>

#include "client_priv.h"
#include "core/core.h"

void sc__cdp_trace(const sc__client *cl, const char *dir, const char *msg, size_t len) {
  if (cl->trace) fprintf(stderr, "{\"dir\":\"%s\",\"msg\":%.*s}\n", dir, (int)len, msg);
}

void sc__client_lost(sc__client *cl, const char *why) {
  if (!cl->lost && !cl->conn_failed) {
    snprintf(cl->err, sizeof cl->err, "connection closed: %.200s", why);
    cl->lost = 1;
  }
}

static void drop_buffer(sc__client *cl) {
  sc__free(cl->rx);
  cl->rx = NULL;
  cl->rx_len = cl->rx_cap = 0;
}

int sc__rx_append(sc__client *cl, const char *in, size_t len, size_t rest) {
  /* The head fills across pieces: a message may start at the end of a
   * pipe read or in a short first fragment. */
  if (cl->rx_head_len < sizeof cl->rx_head && len) {
    size_t k = sizeof cl->rx_head - cl->rx_head_len;
    if (k > len) k = len;
    memcpy(cl->rx_head + cl->rx_head_len, in, k);
    cl->rx_head_len += k;
  }
  cl->rx_total += len;
  /* Over the cap: stop buffering at once (a known rest tells early), keep
   * counting to report the size. */
  if (!cl->rx_drop && cl->rx_total + rest > cl->max_bytes) {
    cl->rx_drop = 1;
    drop_buffer(cl);
  }
  if (cl->rx_drop) return 0;
  /* With the rest known, one exact allocation for the whole message;
   * doubling otherwise. Always room for the NUL. */
  size_t need = cl->rx_len + len + rest + 1;
  if (!cl->rx && cl->rx_spare) { /* the last fed message's buffer (sc__rx_recycle) */
    cl->rx = cl->rx_spare;
    cl->rx_cap = cl->rx_spare_cap;
    cl->rx_spare = NULL;
    cl->rx_spare_cap = 0;
  }
  if (need > cl->rx_cap) {
    size_t cap = cl->rx_cap * 2 > need ? cl->rx_cap * 2 : need;
    char *p = sc__realloc(cl->rx, cap);
    if (!p) {
      sc__client_lost(cl, "out of memory receiving a message");
      return -1;
    }
    cl->rx = p;
    cl->rx_cap = cap;
  }
  memcpy(cl->rx + cl->rx_len, in, len);
  cl->rx_len += len;
  return 0;
}

int sc__rx_end(sc__client *cl) {
  sc__rxmsg *m = sc__calloc(1, sizeof *m);
  if (!m || (!cl->rx_drop && !cl->rx && sc__rx_append(cl, "", 0, 0) < 0)) {
    sc__free(m);
    sc__client_lost(cl, "out of memory receiving a message");
    return -1;
  }
  if (cl->rx_drop) {
    m->len = cl->rx_total;
    memcpy(m->head, cl->rx_head, cl->rx_head_len);
    m->head_len = cl->rx_head_len;
  } else {
    cl->rx[cl->rx_len] = '\0';
    sc__cdp_trace(cl, "in", cl->rx, cl->rx_len);
    /* Hand the buffer over whole (no copy). */
    m->data = cl->rx;
    m->len = cl->rx_len;
    m->cap = cl->rx_cap;
    cl->rx = NULL;
    cl->rx_cap = 0;
  }
  if (cl->q_tail)
    cl->q_tail->next = m;
  else
    cl->q_head = m;
  cl->q_tail = m;
  cl->rx_len = cl->rx_total = cl->rx_head_len = 0;
  cl->rx_drop = 0;
  return 0;
}

sc__rxmsg *sc__rx_pop(sc__client *cl) {
  sc__rxmsg *m = cl->q_head;
  if (m) {
    cl->q_head = m->next;
    if (!cl->q_head) cl->q_tail = NULL;
  }
  return m;
}

/* Messages are assembled by doubling (a pipe message's size is not known
 * ahead): a buffer per message, freed after it is fed, is malloc churn of
 * screenshot-sized blocks. The largest fed buffer up to SC__RX_SPARE_MAX is
 * kept for the next message instead. */
#define SC__RX_SPARE_MAX ((size_t)8 << 20)

void sc__rx_recycle(sc__client *cl, sc__rxmsg *m) {
  if (m->data && m->cap <= SC__RX_SPARE_MAX && m->cap > cl->rx_spare_cap) {
    sc__free(cl->rx_spare);
    cl->rx_spare = m->data;
    cl->rx_spare_cap = m->cap;
  } else {
    sc__free(m->data);
  }
  sc__free(m);
}

void sc__rx_drop_queue(sc__client *cl) {
  sc__rxmsg *m;
  while ((m = sc__rx_pop(cl))) {
    sc__free(m->data);
    sc__free(m);
  }
  drop_buffer(cl);
  sc__free(cl->rx_spare);
  cl->rx_spare = NULL;
  cl->rx_spare_cap = 0;
}
