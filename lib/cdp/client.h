/* A CDP client: the protocol core over a libwebsockets transport, with a
 * service loop and blocking calls for simple use. One client = one
 * connection to one browser (all pages share it through flat sessions). */
#ifndef SC_CDP_CLIENT_H
#define SC_CDP_CLIENT_H

#include "cdp.h"

typedef struct sc__client sc__client;

typedef struct sc__client_options {
  size_t max_message_bytes;  /* 0 = 64 MiB */
  double connect_timeout_ms; /* 0 = 10000 */
} sc__client_options;

/* Connect to ws://127.0.0.1:PORT/devtools/browser/ID (no Origin header). */
int sc__client_connect(sc__client **out, const char *ws_url,
                       const sc__client_options *opts);
void sc__client_free(sc__client *cl);

sc__cdp *sc__client_cdp(sc__client *cl);

/* Service I/O for at most timeout_ms (0 = poll once without waiting):
 * writes queued messages, feeds received ones, expires deadlines.
 * Returns SC_ECLOSED once the connection is gone. */
int sc__client_service(sc__client *cl, double timeout_ms);

/* Blocking call: send, service until the reply or timeout_ms.
 * *result (optional) receives a new reference to the "result" object.
 * Errors set sc_errmsg() to "METHOD: reason". */
int sc__client_call(sc__client *cl, const char *session_id, const char *method,
                    json_t *params /* stolen */, double timeout_ms,
                    json_t **result);

/* Listeners for events (several; called in registration order). */
typedef int sc__listener_id;
sc__listener_id sc__client_listen(sc__client *cl, sc__cdp_event_cb cb, void *ud);
void sc__client_unlisten(sc__client *cl, sc__listener_id id);

/* HTTP GET http://host:port/path over libwebsockets (for /json/version).
 * *body is a new NUL-terminated string. */
int sc__http_get(char **body, const char *host, int port, const char *path,
                 double timeout_ms);

#endif
