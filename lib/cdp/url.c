/* DevTools endpoint URLs: scheme, host, port, path; loopback check. */
#include "url.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/core.h"

int sc__url_parse(sc__url *u, const char *url) {
  memset(u, 0, sizeof *u);
  if (!url) return sc__err(SC_EINVAL, "url: NULL");
  const char *sep = strstr(url, "://");
  size_t slen = sep ? (size_t)(sep - url) : 0;
  if (!sep || slen == 0 || slen >= sizeof u->scheme)
    return sc__err(SC_EINVAL, "url %s: want ws://HOST:PORT/... or http://HOST:PORT", url);
  for (size_t i = 0; i < slen; i++)
    u->scheme[i] = (char)(url[i] >= 'A' && url[i] <= 'Z' ? url[i] + 32 : url[i]);
  if (strcmp(u->scheme, "ws") != 0 && strcmp(u->scheme, "http") != 0)
    return sc__err(SC_EINVAL, "url %s: unsupported scheme \"%s\" (ws or http)", url,
                   u->scheme);
  const char *h = sep + 3, *end;
  if (*h == '[') {
    end = strchr(h, ']');
    if (!end) return sc__err(SC_EINVAL, "url %s: unterminated [", url);
    if ((size_t)(end - h - 1) >= sizeof u->host)
      return sc__err(SC_EINVAL, "url %s: host too long", url);
    memcpy(u->host, h + 1, (size_t)(end - h - 1));
    u->ipv6 = 1;
    end++;
  } else {
    end = h + strcspn(h, ":/?#");
    if ((size_t)(end - h) >= sizeof u->host)
      return sc__err(SC_EINVAL, "url %s: host too long", url);
    memcpy(u->host, h, (size_t)(end - h));
  }
  if (!u->host[0]) return sc__err(SC_EINVAL, "url %s: no host", url);
  if (strchr(u->host, '@')) return sc__err(SC_EINVAL, "url %s: credentials not supported", url);
  const char *ok = u->ipv6 ? "0123456789abcdefABCDEF:.%" : "-._";
  for (const char *p = u->host; *p; p++)
    if (!strchr(ok, *p) && !(!u->ipv6 && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                                          (*p >= '0' && *p <= '9'))))
      return sc__err(SC_EINVAL, "url %s: bad character in host", url);
  u->port = 80;
  if (*end == ':') {
    char *stop;
    long port = strtol(end + 1, &stop, 10);
    if (stop == end + 1 || port < 1 || port > 65535 || (*stop && !strchr("/?#", *stop)))
      return sc__err(SC_EINVAL, "url %s: bad port", url);
    u->port = (int)port;
    end = stop;
  } else if (*end && !strchr("/?#", *end)) {
    return sc__err(SC_EINVAL, "url %s: bad host", url);
  }
  if (*end == '#') end += strlen(end);
  size_t plen = strcspn(end, "#");
  if (plen + 2 > sizeof u->path) return sc__err(SC_EINVAL, "url %s: path too long", url);
  if (*end != '/') u->path[0] = '/';
  memcpy(u->path + (*end != '/'), end, plen);
  return 0;
}

int sc__url_host_is_loopback(const char *host) {
  if (strcasecmp(host, "localhost") == 0) return 1;
  struct in_addr a4;
  if (inet_pton(AF_INET, host, &a4) == 1) return (ntohl(a4.s_addr) >> 24) == 127;
  struct in6_addr a6;
  if (inet_pton(AF_INET6, host, &a6) == 1) return memcmp(&a6, &in6addr_loopback, sizeof a6) == 0;
  return 0;
}

void sc__url_host_port(const sc__url *u, char *buf, size_t size) {
  snprintf(buf, size, u->ipv6 ? "[%s]:%d" : "%s:%d", u->host, u->port);
}
