/* The one libwebsockets context setup, shared by the event loop (loop.c,
 * every websocket) and the HTTP client (http.c): client only, no listening
 * port, no system CA store (DevTools and the grid speak plain ws/http). */
#include <stdlib.h>
#include <string.h>

#include "client_priv.h"
#include "core/debug.h"

struct lws_context *sc__lws_context_new(const struct lws_protocols *protocols, void *user,
                                        unsigned int rx_buf_size, unsigned int fd_limit,
                                        double timeout_ms) {
  /* lws logs to stderr; quiet unless sc_set_debug asked for it. */
  lws_set_log_level(sc__debug() & (SC_DEBUG_LWS | SC_DEBUG_CDP) ? LLL_ERR | LLL_WARN : 0, NULL);
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  info.port = CONTEXT_PORT_NO_LISTEN;
  info.protocols = protocols;
  info.gid = (gid_t)-1;
  info.uid = (uid_t)-1;
  info.user = user;
  info.pt_serv_buf_size = rx_buf_size;
  info.fd_limit_per_thread = fd_limit;
  info.options = LWS_SERVER_OPTION_DISABLE_OS_CA_CERTS;
  /* lws gives up on a round trip after 20 s of its own (a grid starting a
   * browser takes longer): our deadline decides, lws' comes later. */
  if (timeout_ms > 0) {
    double secs = timeout_ms / 1000.0 + 2.0;
    info.timeout_secs = info.connect_timeout_secs = secs < 86400.0 ? (unsigned int)secs : 86400u;
  }
  return lws_create_context(&info);
}
