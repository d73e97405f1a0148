/* Selenium Grid 4 sessions: POST /session for a Chrome with our headless
 * flags, se:cdp for the CDP websocket, DELETE /session/ID at the end. Only
 * the W3C WebDriver new-session and delete calls are used; everything else
 * goes over CDP. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "browser_priv.h"
#include "cdp/url.h"
#include "core/core.h"
#include "stepcheck/grid.h"
#include "core/opts.h"
#include "core/json.h"

#define SC__GRID_DEFAULT_BINARY "/usr/bin/chromium"
/* Deleting only quits a browser: do not hang for the whole creation budget
 * on a grid that stopped answering (this runs on failure paths too). */
#define SC__GRID_DELETE_TIMEOUT_MS 15000.0
/* Longest piece of the grid's error message quoted in ours. */
#define SC__GRID_MSG_MAX 300
#define SC__GRID_ID_MAX 128

struct sc_grid_session {
  char *base;    /* "http://host:port[/prefix]" without a trailing slash */
  char *id;
  char *cdp_url;
  unsigned http_flags;
  double timeout_ms;
  int deleted;
};

/* The grid URL as given (for messages) and the base requests are made on. */
static int parse_grid_url(char **base, sc__url *u, const char *grid_url, int allow_remote) {
  if (sc__url_parse(u, grid_url)) {
    sc__errsave e; /* the URL parser's reason, quoted in ours */
    sc__err_save(&e);
    return sc__err(SC_EINVAL, "grid %s: want http://HOST:PORT (%s)", grid_url, e.msg);
  }
  if (strcmp(u->scheme, "http") != 0)
    return sc__err(SC_EINVAL, "grid %s: want an http:// URL", grid_url);
  if (strpbrk(u->path, "?#"))
    return sc__err(SC_EINVAL, "grid %s: no query in a grid URL", grid_url);
  if (!allow_remote && !sc__url_host_is_loopback(u->host))
    return sc__err(SC_EINVAL,
                   "grid %s: host %s is not a loopback address (127.0.0.0/8, localhost, "
                   "[::1]); set allow_remote for a grid on a private network",
                   grid_url, u->host);
  char hostport[300];
  sc__url_host_port(u, hostport, sizeof hostport);
  size_t plen = strlen(u->path);
  while (plen > 0 && u->path[plen - 1] == '/') plen--;
  if (!(*base = sc__asprintf("http://%s%.*s", hostport, (int)plen, u->path)))
    return sc__err(SC_ENOMEM, "grid: out of memory");
  return 0;
}

/* {"capabilities":{"alwaysMatch":{"browserName":"chrome",
 *  "goog:chromeOptions":{"binary":B,"args":[...]}}}} as a new string. */
static char *new_session_body(const char *binary, const char *const *extra) {
  json_t *args = json_array();
  for (size_t i = 0; args && sc__chromium_flags[i]; i++)
    if (json_array_append_new(args, json_string(sc__chromium_flags[i]))) goto fail;
  for (size_t i = 0; args && extra && extra[i]; i++)
    if (json_array_append_new(args, json_string(extra[i]))) goto fail;
  json_t *req = json_pack("{s:{s:{s:s, s:{s:s, s:o}}}}", "capabilities", "alwaysMatch",
                          "browserName", "chrome", "goog:chromeOptions", "binary", binary,
                          "args", args);
  if (!req) return NULL; /* json_pack released args ("o") */
  char *s = sc__json_dump(req, JSON_COMPACT);
  json_decref(req);
  return s;
fail:
  json_decref(args);
  return NULL;
}

/* ": ERROR: MESSAGE" from a W3C error reply {"value":{"error":..,
 * "message":..}}, cut at SC__GRID_MSG_MAX bytes; "" when the reply has
 * neither. Its newlines and controls are escaped by sc__err, so the
 * message stays on the one line that quotes it. */
static void grid_message(char *buf, size_t size, json_t *reply) {
  json_t *value = json_object_get(reply, "value");
  const char *msg = json_string_value(json_object_get(value, "message"));
  const char *err = json_string_value(json_object_get(value, "error"));
  if (!msg) msg = "";
  size_t n = strlen(msg); /* a newline in it is escaped with the rest (sc__err) */
  const char *cut = n > SC__GRID_MSG_MAX ? "..." : "";
  if (n > SC__GRID_MSG_MAX) n = SC__GRID_MSG_MAX;
  snprintf(buf, size, "%s%s%s%.*s%s", err || n ? ": " : "", err ? err : "",
           err && n ? ": " : "", (int)n, msg, cut);
}

static int id_ok(const char *id) {
  size_t n = strlen(id);
  return n > 0 && n < SC__GRID_ID_MAX &&
         strspn(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == n;
}

/* se:cdp's path on the grid's own host and port. */
static int cdp_url_from(char **out, const char *grid_url, const sc__url *grid, const char *cdp) {
  sc__url c;
  if (sc__url_parse(&c, cdp) || strcmp(c.scheme, "ws") != 0)
    return sc__err(SC_EPROTO, "grid %s: se:cdp \"%.200s\" is not a ws:// URL", grid_url, cdp);
  char hostport[300];
  sc__url_host_port(grid, hostport, sizeof hostport);
  if (!(*out = sc__asprintf("ws://%s%s", hostport, c.path)))
    return sc__err(SC_ENOMEM, "grid: out of memory");
  return 0;
}

/* Read sessionId and se:cdp out of a 200 reply. */
static int read_new_session(sc_grid_session *g, const char *grid_url, const sc__url *u,
                            json_t *reply) {
  json_t *value = json_object_get(reply, "value");
  const char *id = json_string_value(json_object_get(value, "sessionId"));
  if (!id || !id_ok(id))
    return sc__err(SC_EPROTO, "grid %s: the new-session reply has no usable sessionId",
                   grid_url);
  if (!(g->id = sc__strdup(id))) return sc__err(SC_ENOMEM, "grid: out of memory");
  const char *cdp =
      json_string_value(json_object_get(json_object_get(value, "capabilities"), "se:cdp"));
  if (!cdp)
    return sc__err(SC_EPROTO,
                   "grid %s: the reply has no se:cdp capability (is CDP disabled on the "
                   "grid? --enable-cdp)",
                   grid_url);
  return cdp_url_from(&g->cdp_url, grid_url, u, cdp);
}

static int session_post(sc_grid_session *g, const char *grid_url, const sc__url *u,
                        const sc_grid_options *opts) {
  char *req = new_session_body(opts->binary ? opts->binary : SC__GRID_DEFAULT_BINARY,
                               opts->extra_args);
  char *url = sc__asprintf("%s/session", g->base), *body = NULL;
  int status = 0, rc = 0;
  if (!req || !url)
    rc = sc__err(SC_ENOMEM, "grid: out of memory");
  else
    rc = sc__http_request_cancel(&status, &body, "POST", url, req, g->http_flags, g->timeout_ms,
                                 opts->cancel);
  sc__free(req);
  sc__free(url);
  if (rc == SC_EIO) {
    sc__errsave e; /* the transport's reason, quoted in ours */
    sc__err_save(&e);
    rc = sc__err(SC_EIO, "grid %s: cannot reach it (refused or unreachable; %s)", grid_url,
                 e.msg);
  } else if (rc == SC_ECANCELED)
    rc = sc__err(SC_ECANCELED, "grid %s: interrupted while it made a session", grid_url);
  else if (rc == SC_ETIMEDOUT)
    rc = sc__err(SC_ETIMEDOUT, "grid %s: no new session within %.0f ms", grid_url,
                 g->timeout_ms);
  if (rc) {
    sc__free(body);
    return rc;
  }
  json_t *reply = json_loads(body, 0, NULL);
  sc__free(body);
  if (status != 200) {
    char msg[SC__GRID_MSG_MAX + 100];
    grid_message(msg, sizeof msg, reply);
    rc = sc__err(SC_EPROTO, "grid %s: new session refused: status %d%s", grid_url, status,
                 msg);
  } else if (!reply) {
    rc = sc__err(SC_EPROTO, "grid %s: the new-session reply is not JSON", grid_url);
  } else {
    rc = read_new_session(g, grid_url, u, reply);
  }
  json_decref(reply);
  return rc;
}

SC_EXTERN int sc_grid_session_new(sc_grid_session **out, const char *grid_url,
                                  const sc_grid_options *opts) {
  if (!out) return sc__err(SC_EINVAL, "grid: out is NULL");
  *out = NULL;
  if (!grid_url) return sc__err(SC_EINVAL, "grid: grid_url is NULL");
  sc_grid_options o;
  if (sc__grid_options_read(&o, opts, "sc_grid_session_new")) return SC_EINVAL;
  opts = &o;
  if (opts->timeout_ms < 0 || opts->timeout_ms != opts->timeout_ms)
    return sc__err(SC_EINVAL, "grid: timeout_ms %g", opts->timeout_ms);
  sc_grid_session *g = sc__calloc(1, sizeof *g);
  if (!g) return sc__err(SC_ENOMEM, "grid: out of memory");
  g->timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : SC_GRID_TIMEOUT_MS;
  g->http_flags = opts->allow_remote ? SC__HTTP_ALLOW_REMOTE : 0;
  sc__url u;
  int rc = parse_grid_url(&g->base, &u, grid_url, opts->allow_remote);
  if (rc == 0) rc = session_post(g, grid_url, &u, opts);
  if (rc) {
    /* A session the grid made but we cannot use is ended here (no id: none
     * was made, or we cannot name it). */
    sc__errsave e;
    sc__err_save(&e);
    if (!g->id) g->deleted = 1;
    sc_grid_session_free(g);
    return sc__err_restore(&e, rc);
  }
  *out = g;
  return 0;
}

SC_EXTERN const char *sc_grid_session_cdp_url(const sc_grid_session *g) {
  return g && g->cdp_url ? g->cdp_url : "";
}

SC_EXTERN const char *sc_grid_session_id(const sc_grid_session *g) {
  return g && g->id ? g->id : "";
}

SC_EXTERN int sc_grid_session_delete(sc_grid_session *g) {
  if (!g) return sc__err(SC_EINVAL, "grid: session is NULL");
  if (g->deleted) return 0;
  char *url = sc__asprintf("%s/session/%s", g->base, g->id), *body = NULL;
  if (!url) return sc__err(SC_ENOMEM, "grid: out of memory");
  double t = g->timeout_ms < SC__GRID_DELETE_TIMEOUT_MS ? g->timeout_ms
                                                        : SC__GRID_DELETE_TIMEOUT_MS;
  int status = 0;
  int rc = sc__http_request(&status, &body, "DELETE", url, NULL, g->http_flags, t);
  if (rc == 0 && status != 200 && status != 404) {
    json_t *reply = json_loads(body, 0, NULL);
    char msg[SC__GRID_MSG_MAX + 100];
    grid_message(msg, sizeof msg, reply);
    json_decref(reply);
    rc = sc__err(SC_EPROTO, "grid: DELETE %s: status %d%s", url, status, msg);
  }
  sc__free(body);
  sc__free(url);
  if (rc == 0) g->deleted = 1; /* 404: the grid no longer has it either */
  return rc;
}

SC_EXTERN void sc_grid_session_free(sc_grid_session *g) {
  if (!g) return;
  if (!g->deleted) {
    sc__errsave e;
    sc__err_save(&e);
    sc_grid_session_delete(g);
    sc__err_restore(&e, 0);
  }
  sc__free(g->base);
  sc__free(g->id);
  sc__free(g->cdp_url);
  sc__free(g);
}

SC__OPTS_DEFINE(grid_options, SC_GRID_OPTIONS_INIT,
                 offsetof(sc_grid_options, allow_remote) + sizeof(int), sizeof(sc_grid_options))
