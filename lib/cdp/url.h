/* Minimal URL parsing for DevTools endpoints (ws://, http://) and the
 * loopback check. No name resolution happens here. */
#ifndef SC_CDP_URL_H
#define SC_CDP_URL_H

#include <stddef.h>

typedef struct sc__url {
  char scheme[8];  /* "ws" or "http" */
  char host[256];  /* without brackets: "127.0.0.1", "localhost", "::1" */
  int port;        /* explicit or the scheme's default (80) */
  char path[2048]; /* "/" when absent; includes any query */
  int ipv6;        /* host was written in brackets */
} sc__url;

/* Parse "ws://host[:port][/path]" or "http://…" into *u.
 * Returns 0, or SC_EINVAL naming what is wrong (sc_errmsg()). */
int sc__url_parse(sc__url *u, const char *url);

/* Non-zero when host (as in sc__url.host) is a loopback address:
 * 127.0.0.0/8 in dotted-quad form, "localhost" or "::1". */
int sc__url_host_is_loopback(const char *host);

/* "host:port" for a Host header, brackets around IPv6, into buf. */
void sc__url_host_port(const sc__url *u, char *buf, size_t size);

#endif
