/* The URL-scheme policy (sc_url_check): which pages a run may open. A
 * scenario file is input, not trusted: by default it can only name a web
 * page, not a local file (file:), inline content (data:) or the browser's
 * own pages (chrome:, view-source:), which could read what the test machine
 * holds. Opening those is the run's decision (a CLI option), never the
 * file's. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/core.h"
#include "stepcheck/scenario.h"

static const struct {
  const char *name;
  unsigned bit;
} SCHEMES[] = {{"http", SC_URL_HTTP}, {"https", SC_URL_HTTPS}, {"file", SC_URL_FILE}, {"data", SC_URL_DATA}};

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The authority of an http(s) URL: [userinfo@]host[:port], host not empty. */
static const char *bad_authority(const char *a, size_t n) {
  const char *at = memchr(a, '@', n);
  if (at) {
    n -= (size_t)(at + 1 - a);
    a = at + 1;
  }
  const char *port = NULL;
  if (n > 0 && a[0] == '[') {
    const char *close = memchr(a, ']', n);
    if (!close || close == a + 1) return "a bad [IPv6] host";
    if ((size_t)(close + 1 - a) < n) {
      if (close[1] != ':') return "junk after the [IPv6] host";
      port = close + 2;
    }
  } else {
    const char *colon = memchr(a, ':', n);
    if ((colon ? (size_t)(colon - a) : n) == 0) return "no host";
    if (colon) port = colon + 1;
  }
  if (port) {
    long v = 0;
    const char *p = port;
    for (; p < a + n && is_digit(*p) && v <= 65535; p++) v = v * 10 + (*p - '0');
    if (p == port || p != a + n || v < 1 || v > 65535) return "a bad port";
  }
  return NULL;
}

SC_EXTERN int sc_url_check(const char *url, unsigned allow) {
  if (!url) return sc__err(SC_EINVAL, "no URL");
  for (const unsigned char *p = (const unsigned char *)url; *p; p++)
    if (*p <= 0x20 || *p == 0x7f) return sc__err(SC_EINVAL, "a space or control character at byte %zu", (size_t)(p - (const unsigned char *)url));
  if (strcmp(url, "about:blank") == 0) return 0;
  /* RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" */
  size_t n = 0;
  if (is_alpha(url[0]))
    while (is_alpha(url[n]) || is_digit(url[n]) || url[n] == '+' || url[n] == '-' || url[n] == '.') n++;
  if (n == 0 || url[n] != ':') return sc__err(SC_EINVAL, "no scheme (write http:// or https://)");
  unsigned bit = 0;
  for (size_t i = 0; i < sizeof SCHEMES / sizeof SCHEMES[0]; i++)
    if (strlen(SCHEMES[i].name) == n && strncasecmp(url, SCHEMES[i].name, n) == 0) bit = SCHEMES[i].bit;
  if (!(bit & allow)) {
    char names[64] = "";
    for (size_t i = 0; i < sizeof SCHEMES / sizeof SCHEMES[0]; i++)
      if (allow & SCHEMES[i].bit)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", names[0] ? ", " : "",
                 SCHEMES[i].name);
    return sc__err(SC_EINVAL, "scheme \"%.*s\" is not allowed (allowed: %s)", (int)(n > 20 ? 20 : n),
                   url, names[0] ? names : "none");
  }
  const char *rest = url + n + 1;
  if (bit == SC_URL_DATA) return 0;
  if (strncmp(rest, "//", 2) != 0) return sc__err(SC_EINVAL, "no \"//\" after \"%.*s:\"", (int)n, url);
  if (bit == SC_URL_FILE) return 0; /* file:///path; Chromium resolves the rest */
  rest += 2;
  size_t alen = strcspn(rest, "/?#");
  const char *why = bad_authority(rest, alen);
  return why ? sc__err(SC_EINVAL, "%s", why) : 0;
}
