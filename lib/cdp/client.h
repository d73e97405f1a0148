/* A CDP client: the protocol core over a libwebsockets transport, with a
 * service loop and blocking calls for simple use. One client = one
 * connection to one browser (all pages share it through flat sessions). */
#ifndef SC_CDP_CLIENT_H
#define SC_CDP_CLIENT_H

#include "cdp.h"
#include "stepcheck/loop.h"

typedef struct sc__client sc__client;

typedef struct sc__client_options {
  size_t max_message_bytes;  /* 0 = 64 MiB */
  double connect_timeout_ms; /* 0 = 10000 */
  /* non-zero ends the handshake's wait and every blocking call on the
   * connection within SC__CLIENT_CANCEL_SLICE_MS: SC_ECANCELED (borrowed;
   * NULL never) */
  const volatile int *cancel;
} sc__client_options;
#define SC__CLIENT_CANCEL_SLICE_MS 100.0
/* From now on blocking calls look at cancel (NULL: at none). */
void sc__client_set_cancel(sc__client *cl, const volatile int *cancel);

/* Connect to ws://127.0.0.1:PORT/devtools/browser/ID (no Origin header) on
 * loop (NULL = a private loop of the client's own) and wait for the
 * handshake (connect_timeout_ms), servicing the loop. opts NULL = defaults.
 * *out is the caller's (sc__client_free). Returns 0, SC_EINVAL (bad URL),
 * SC_ETIMEDOUT, SC_EIO (refused, handshake rejected: sc_errmsg() says). */
int sc__client_connect(sc__client **out, sc_loop *loop, const char *ws_url,
                       const sc__client_options *opts);
/* The same over a browser's --remote-debugging-pipe: rfd reads what the
 * browser writes to its fd 4, wfd writes to its fd 3 (messages end with a
 * NUL). The client owns both descriptors from here on, also on failure.
 * Returns 0, SC_EINVAL, SC_ENOMEM, SC_EIO. */
int sc__client_connect_pipe(sc__client **out, sc_loop *loop, int rfd, int wfd,
                            const sc__client_options *opts);
/* The loop the client lives on (borrowed). */
sc_loop *sc__client_loop(sc__client *cl);
/* Fail every pending command with SC_ECLOSED, close the socket, free.
 * NULL is fine. Not from inside one of this client's callbacks. */
void sc__client_free(sc__client *cl);

/* The protocol core of this client (borrowed): sc__cdp_send on it queues a
 * command that the next sc__client_service writes. Its event callback is
 * owned by the client: use sc__client_listen instead of sc__cdp_on_event. */
sc__cdp *sc__client_cdp(sc__client *cl);

/* Service the client's loop for at most timeout_ms (0 = poll once without
 * waiting): writes queued messages, feeds received ones, expires deadlines,
 * runs due timers (of every connection on the loop). Returns early, with 0,
 * once anything was handled, so callers loop until their own condition
 * holds. Callbacks run from here (never from inside libwebsockets).
 * Returns SC_ECLOSED once the connection is gone (after failing every
 * pending command). */
int sc__client_service(sc__client *cl, double timeout_ms);

/* Blocking call: send, service until the reply or timeout_ms (<= 0: no
 * deadline, waits while the connection lives).
 * *result (optional) receives a new reference to the "result" object.
 * Returns 0 or the command's error (SC_EPROTO for a CDP error reply,
 * SC_ETIMEDOUT, SC_ECLOSED, SC_ECRASHED, SC_EDETACHED, SC_ETOOBIG, ...).
 * Errors set sc_errmsg() to "METHOD: reason". */
int sc__client_call(sc__client *cl, const char *session_id, const char *method,
                    json_t *params /* stolen */, double timeout_ms,
                    json_t **result);

/* Listeners for events (several; called in registration order). */
typedef int sc__listener_id;
/* Add a listener for every event; returns its id (> 0) or a negative
 * sc_error. A listener added during a dispatch sees the next event on. */
sc__listener_id sc__client_listen(sc__client *cl, sc__cdp_event_cb cb, void *ud);
/* Remove a listener; safe during a dispatch (also from inside the listener
 * itself): it is not called again. Unknown ids are ignored. */
void sc__client_unlisten(sc__client *cl, sc__listener_id id);

/* sc__http_request flags. */
#define SC__HTTP_ALLOW_REMOTE 1u /* hosts other than loopback may be asked */

/* One HTTP/1.1 request: method "GET", "POST" or "DELETE" to url
 * ("http://host[:port]/path"); json_body (NULL or "" for none, borrowed)
 * is sent as "application/json; charset=utf-8". Hosts must be loopback
 * (127.0.0.0/8, localhost, [::1]) unless flags has SC__HTTP_ALLOW_REMOTE;
 * that is checked before any network traffic. timeout_ms bounds the whole
 * exchange. On 0, *status (optional) is the reply's status, whatever it is,
 * and *body (optional) a new NUL-terminated string (sc__free), "" when the
 * reply had none. Returns 0, SC_EINVAL (bad URL or method, remote host),
 * SC_ETIMEDOUT, SC_EIO (refused, closed early, body over 1 MiB), SC_ENOMEM;
 * sc_errmsg() names the method and URL. */
int sc__http_request(int *status, char **body, const char *method, const char *url,
                     const char *json_body, unsigned flags, double timeout_ms);
/* The same, also ending within 100 ms of *cancel becoming non-zero:
 * SC_ECANCELED "http: METHOD URL: interrupted". cancel NULL = never. */
int sc__http_request_cancel(int *status, char **body, const char *method, const char *url,
                            const char *json_body, unsigned flags, double timeout_ms,
                            const volatile int *cancel);

#endif
