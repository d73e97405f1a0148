/* Private parts of the CDP client shared by ws.c (libwebsockets transport)
 * and client.c (service loop, blocking calls, listeners). */
#ifndef SC_CDP_CLIENT_PRIV_H
#define SC_CDP_CLIENT_PRIV_H

#include <libwebsockets.h>
#include <poll.h>

#include "client.h"
#include "loop.h"

#define SC__WS_CHUNK (64 * 1024)

/* The descriptors cl needs watched now (at most 2, into out): its socket or
 * its two pipe ends, POLLOUT only while it has something to send. -1 when
 * it has a socket lws has not made yet (a connect in progress). */
int sc__client_watch(sc__client *cl, struct pollfd *out);

/* The websocket protocol table (ws.c); every loop's context uses it. */
extern const struct lws_protocols sc__ws_protocols[];

/* A whole received message waiting to be fed to the core. Messages are fed
 * after lws_service() returns, never from inside an lws callback, so user
 * callbacks may send; a blocking call from one of them is SC_EBUSY (loop.c). */
typedef struct sc__rxmsg {
  struct sc__rxmsg *next;
  char *data;      /* whole message, NUL-terminated; NULL when oversized */
  size_t len;      /* bytes in data, or the dropped message's total size */
  size_t cap;      /* bytes allocated for data */
  char head[64];   /* first bytes of a dropped message (reply id sniffing) */
  size_t head_len;
} sc__rxmsg;

typedef struct sc__listener {
  sc__listener_id id;
  sc__cdp_event_cb cb; /* NULL once removed during a dispatch */
  void *ud;
} sc__listener;

struct sc__client {
  sc_loop *loop;         /* the loop this connection is serviced by */
  int own_loop;          /* the loop was made for this client alone */
  struct lws *wsi;
  sc__cdp *cdp;
  size_t max_bytes;
  int trace;             /* SC_DEBUG_CDP: log messages to stderr */
  int established;       /* handshake done */
  int conn_failed;       /* handshake failed: err says why */
  int lost;              /* socket gone, close not yet handed to the core */
  int destroying;        /* in sc__client_free: lws callbacks only record */
  const volatile int *cancel; /* ends blocking waits (client.h), NULL none */
  char err[256];         /* why the connection failed or closed */

  /* receive: the message being assembled */
  char *rx;
  size_t rx_len, rx_cap;
  int rx_drop;           /* over the cap: counting, not buffering */
  size_t rx_total;
  char rx_head[64];
  size_t rx_head_len;
  sc__rxmsg *q_head, *q_tail; /* complete messages not yet fed */
  char *rx_spare;        /* a fed message's buffer, kept for the next one */
  size_t rx_spare_cap;

  /* send: one buffer with LWS_PRE headroom, reused */
  unsigned char *tx;
  size_t tx_cap;

  /* the pipe transport (pipe.c), instead of wsi: Chromium's fd 4 and 3 */
  struct lws *pipe_r, *pipe_w;
  int pipe_rfd, pipe_wfd;   /* -1 when closed */
  char *ptx;                /* the message being written, NUL included */
  size_t ptx_len, ptx_off;

  /* event listeners */
  sc__listener *ls;
  size_t nls, cap_ls;
  sc__listener_id next_lid;
  int dispatch_depth;
  int ls_dirty;          /* some were removed during a dispatch */

};

/* A client-only lws context (the one setup the loop and the HTTP client
 * use): user is handed to the protocols' callbacks (lws_context_user),
 * rx_buf_size 0 = lws' default service buffer, fd_limit sizes lws' fd
 * tables; timeout_ms > 0 sets lws' own round-trip timeouts past it (the
 * caller's deadline decides), 0 keeps lws' (20 s). NULL when lws cannot
 * create it. */
struct lws_context *sc__lws_context_new(const struct lws_protocols *protocols, void *user,
                                        unsigned int rx_buf_size, unsigned int fd_limit,
                                        double timeout_ms);

/* Open the websocket on the client's loop and wait up to timeout_ms for the
 * handshake (servicing the loop). */
int sc__ws_open(sc__client *cl, const char *ws_url, double timeout_ms);
/* Ask for a writable callback if messages are queued. */
void sc__ws_want_write(sc__client *cl);
/* Close the socket at once (no callbacks reach the client afterwards). */
void sc__ws_close(sc__client *cl);
/* Received messages (rx.c). Append a piece of the message being
 * assembled; rest: bytes known to follow (0 when unknown). -1 when out of
 * memory (the connection is then lost). */
int sc__rx_append(sc__client *cl, const char *in, size_t len, size_t rest);
/* The message is whole: queue it (or its size and head, when over the
 * cap). -1 when out of memory (the connection is then lost). */
int sc__rx_end(sc__client *cl);
/* Pop the oldest complete received message, or NULL. */
sc__rxmsg *sc__rx_pop(sc__client *cl);
/* Free every queued message and the one being assembled. */
void sc__rx_drop_queue(sc__client *cl);
/* Done with a fed message: its buffer may become the next one's (rx.c). */
void sc__rx_recycle(sc__client *cl, sc__rxmsg *m);
/* The connection is gone (first reason wins). */
void sc__client_lost(sc__client *cl, const char *why);
/* SC_DEBUG_CDP: one message in the fixtures' transcript format. */
void sc__cdp_trace(const sc__client *cl, const char *dir, const char *msg, size_t len);

/* The pipe transport (pipe.c): adopt rfd (Chromium's fd 4) and wfd (its
 * fd 3) into the client's loop; the client owns them from here on, also on
 * failure. */
#define SC__PIPE_PROTOCOL "stepcheck-pipe"
int sc__pipe_open(sc__client *cl, int rfd, int wfd);
void sc__pipe_want_write(sc__client *cl);
void sc__pipe_close(sc__client *cl);
int sc__pipe_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                      size_t len);

/* Feed what the transport received, hand a lost socket to the core and
 * expire deadlines; returns the number of things handled (loop.c). */
int sc__client_pump(sc__client *cl);

#endif
