/* Attach to a running browser: ws://HOST:PORT/devtools/browser/ID (or a
 * grid's ws://HOST:PORT/session/ID/se/cdp), or http://HOST:PORT[/] resolved
 * through /json/version. Loopback hosts only unless the options allow
 * remote ones: DevTools gives full control of the browser and has no
 * authentication. */
#include <stdio.h>
#include <string.h>

#include "browser_priv.h"
#include "cdp/url.h"
#include "core/core.h"

static int check_loopback(const sc_browser *b, const sc__url *u, const char *what) {
  if (b->allow_remote || sc__url_host_is_loopback(u->host)) return 0;
  return sc__err(SC_EINVAL,
                 "connect %s: host %s is not a loopback address (DevTools is only "
                 "used on 127.0.0.0/8, localhost or [::1] unless allow_remote is set)",
                 what, u->host);
}

/* GET /json/version → webSocketDebuggerUrl, into a new string. */
static int discover(char **ws_url, const sc_browser *b, const sc__url *u, const char *endpoint,
                    double timeout_ms) {
  char hostport[300];
  sc__url_host_port(u, hostport, sizeof hostport);
  char *url = sc__asprintf("http://%s/json/version", hostport), *body = NULL;
  if (!url) return sc__err(SC_ENOMEM, "connect: out of memory");
  int status = 0, rc = sc__http_request_cancel(&status, &body, "GET", url, NULL,
                                               b->allow_remote ? SC__HTTP_ALLOW_REMOTE : 0,
                                               timeout_ms, b->cancel);
  if (rc == 0 && status != 200)
    rc = sc__err(SC_EPROTO, "connect %s: GET %s: status %d", endpoint, url, status);
  sc__free(url);
  if (rc) {
    sc__free(body);
    return rc;
  }
  json_error_t je;
  json_t *v = json_loads(body, 0, &je);
  sc__free(body);
  const char *found = json_string_value(json_object_get(v, "webSocketDebuggerUrl"));
  if (!found) {
    json_decref(v);
    return sc__err(SC_EPROTO, "connect %s: /json/version has no webSocketDebuggerUrl", endpoint);
  }
  *ws_url = sc__strdup(found);
  json_decref(v);
  return *ws_url ? 0 : sc__err(SC_ENOMEM, "connect: out of memory");
}

SC_EXTERN int sc_browser_connect(sc_browser **out, const char *endpoint,
                                 const sc_browser_options *opts) {
  if (!out) return sc__err(SC_EINVAL, "connect: out is NULL");
  *out = NULL;
  if (!endpoint) return sc__err(SC_EINVAL, "connect: endpoint is NULL");
  sc_browser_options o;
  int rc = sc__browser_options_read(&o, opts, "sc_browser_connect");
  if (rc) return rc;
  opts = &o;
  sc__url u;
  rc = sc__url_parse(&u, endpoint);
  if (rc) return rc;
  if (strcmp(u.scheme, "http") == 0 && strcmp(u.path, "/") != 0)
    return sc__err(SC_EINVAL, "connect %s: want http://HOST:PORT (no path)", endpoint);
  sc_browser *b;
  if ((rc = sc__browser_new(&b, opts))) return rc;
  rc = check_loopback(b, &u, endpoint);
  double deadline = sc__now_ms() + b->launch_timeout_ms;
  char *ws = NULL;
  if (rc == 0 && strcmp(u.scheme, "http") == 0) {
    rc = discover(&ws, b, &u, endpoint, b->launch_timeout_ms);
    sc__url wu;
    if (rc == 0 && (rc = sc__url_parse(&wu, ws)) == 0) rc = check_loopback(b, &wu, ws);
  }
  if (rc == 0) {
    double left = deadline - sc__now_ms();
    rc = sc__browser_attach_ws(b, ws ? ws : endpoint, left > 1 ? left : 1);
  }
  sc__free(ws);
  if (rc) {
    sc__errsave e;
    sc__err_save(&e);
    sc_browser_free(b);
    return sc__err_restore(&e, rc);
  }
  *out = b;
  return 0;
}
