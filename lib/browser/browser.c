/* The browser object: options, the shared CDP client, product, free. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "browser_priv.h"
#include "cdp/loop.h"
#include "core/core.h"
#include "core/opts.h"

int sc__browser_new(sc_browser **out, const sc_browser_options *opts) {
  sc_browser *b = sc__calloc(1, sizeof *b);
  if (!b) return sc__err(SC_ENOMEM, "browser: out of memory");
  b->launch_timeout_ms = opts->launch_timeout_ms > 0 ? opts->launch_timeout_ms : 20000;
  b->command_timeout_ms = opts->command_timeout_ms > 0 ? opts->command_timeout_ms : 30000;
  b->max_message_bytes = opts->max_message_bytes ? opts->max_message_bytes : (size_t)64 << 20;
  b->loop = opts->loop;
  b->allow_remote = opts->allow_remote;
  b->cancel = opts->cancel;
  b->deps.prev = b->deps.next = &b->deps;
  b->reaper_fd = -1;
  *out = b;
  return 0;
}

static int attach(sc_browser *b, const char *ws_url, int rfd, int wfd, double timeout_ms) {
  double deadline = sc__now_ms() + timeout_ms;
  if (!(b->ws_url = sc__strdup(ws_url))) {
    if (rfd >= 0) close(rfd);
    if (wfd >= 0) close(wfd);
    return sc__err(SC_ENOMEM, "browser: out of memory");
  }
  sc__client_options co = {b->max_message_bytes, timeout_ms, b->cancel};
  int rc = rfd >= 0 ? sc__client_connect_pipe(&b->client, b->loop, rfd, wfd, &co)
                    : sc__client_connect(&b->client, b->loop, ws_url, &co);
  if (rc) return rc;
  double left = deadline - sc__now_ms();
  json_t *v = NULL;
  rc = sc__client_call(b->client, NULL, "Browser.getVersion", NULL,
                       left < b->command_timeout_ms ? (left > 1 ? left : 1)
                                                    : b->command_timeout_ms,
                       &v);
  if (rc) return rc;
  /* Attached: later calls are the pages' and the runs', with their own
   * deadlines and cancels; a close after an interrupt must still go out. */
  sc__client_set_cancel(b->client, NULL);
  const char *product = json_string_value(json_object_get(v, "product"));
  b->product = sc__strdup(product ? product : "");
  json_decref(v);
  return b->product ? 0 : sc__err(SC_ENOMEM, "browser: out of memory");
}

int sc__browser_attach_ws(sc_browser *b, const char *ws_url, double timeout_ms) {
  return attach(b, ws_url, -1, -1, timeout_ms);
}

int sc__browser_attach_pipe(sc_browser *b, const char *ws_url, int rfd, int wfd,
                            double timeout_ms) {
  return attach(b, ws_url, rfd, wfd, timeout_ms);
}

void sc__browser_track(sc_browser *b, sc__browser_dep *dep) {
  dep->next = &b->deps;
  dep->prev = b->deps.prev;
  b->deps.prev->next = dep;
  b->deps.prev = dep;
}

void sc__browser_untrack(sc_browser *b, sc__browser_dep *dep) {
  (void)b;
  if (!dep->next) return;
  dep->prev->next = dep->next;
  dep->next->prev = dep->prev;
  dep->prev = dep->next = NULL;
}

SC_EXTERN void sc_browser_free(sc_browser *b) {
  if (!b) return;
  /* From inside a callback of its loop the loop is using the connection
   * (and Browser.close would have to run it again): refuse, free nothing. */
  if (b->client && sc__loop_running(sc__client_loop(b->client))) {
    sc__err(SC_EBUSY, "sc_browser_free: called from inside a callback of the browser's loop: "
                      "nothing freed (free it after the loop returns)");
    return;
  }
  /* Pages still open: closed and cut loose (their calls answer SC_ECLOSED
   * and sc_page_free still frees them), never left pointing at us. */
  while (b->deps.next != &b->deps) {
    sc__browser_dep *d = b->deps.next;
    sc__browser_untrack(b, d);
    d->orphan(d);
  }
  if (b->pid > 0 && b->client && !sc__cdp_is_closed(sc__client_cdp(b->client))) {
    /* Ask politely first: Chromium flushes and exits on its own. The reply
     * often never comes (the socket closes first), hence the short wait. */
    sc__client_call(b->client, NULL, "Browser.close", NULL, 1000, NULL);
  }
  sc__client_free(b->client);
  sc__browser_stop(b);
  sc__free(b->product);
  sc__free(b->ws_url);
  sc__free(b->profile_dir);
  sc__free(b);
}

SC_EXTERN const char *sc_browser_product(const sc_browser *b) {
  return b && b->product ? b->product : "";
}

SC_EXTERN int sc_browser_pid(const sc_browser *b) { return b ? (int)b->pid : 0; }

SC_EXTERN const char *sc_browser_ws_url(const sc_browser *b) {
  return b && b->ws_url ? b->ws_url : "";
}

sc__client *sc__browser_client(sc_browser *b) { return b->client; }

double sc__browser_timeout(const sc_browser *b) { return b->command_timeout_ms; }

const char *sc__browser_profile_dir(const sc_browser *b) { return b->profile_dir; }

SC__OPTS_DEFINE(browser_options, SC_BROWSER_OPTIONS_INIT,
                 offsetof(sc_browser_options, loop), offsetof(sc_browser_options, allow_remote),
                 offsetof(sc_browser_options, allow_remote) + sizeof(int),
                 sizeof(sc_browser_options))
