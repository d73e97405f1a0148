/* Private parts of the browser layer shared by browser.c (object, attach,
 * free), launch.c (spawn) and process.c (stop, profile removal). */
#ifndef SC_BROWSER_PRIV_H
#define SC_BROWSER_PRIV_H

#include <sys/types.h>

#include "handle.h"

struct sc_browser {
  sc__client *client;
  char *product;       /* "HeadlessChrome/156.0..." */
  char *ws_url;        /* ws://127.0.0.1:PORT/devtools/browser/ID */
  pid_t pid;           /* launched browser (process group leader), else 0 */
  char *profile_dir;   /* launched browser's --user-data-dir, else NULL */
  double launch_timeout_ms;
  double command_timeout_ms;
  size_t max_message_bytes;
  sc_loop *loop;       /* from the options (borrowed), NULL = the client's own */
  int allow_remote;    /* attach may reach hosts other than loopback */
  const volatile int *cancel; /* from the options: ends network waits, NULL none */
  sc__browser_dep deps; /* list head of the pages on this browser */
  pid_t reaper_pid;     /* removes the profile if we die first (reaper.c), 0 none */
  int reaper_fd;        /* its pipe's write end, -1 none */
};

/* Chromium's flags for a headless run, NULL-terminated (launch.c): what a
 * local launch and a grid session have in common (no DevTools port, no
 * profile, no --no-sandbox). */
extern const char *const sc__chromium_flags[];

/* Check opts (NULL = defaults) and allocate an empty browser in *out. */
/* opts: whole, from sc__browser_options_read. */
int sc__browser_new(sc_browser **out, const sc_browser_options *opts);
/* Connect the websocket (ws_url copied) and read the product through
 * Browser.getVersion, within timeout_ms. */
int sc__browser_attach_ws(sc_browser *b, const char *ws_url, double timeout_ms);
/* The same over the DevTools pipe of a browser we launched (rfd, wfd are
 * the client's from here on); ws_url is kept for sc_browser_ws_url. */
int sc__browser_attach_pipe(sc_browser *b, const char *ws_url, int rfd, int wfd,
                            double timeout_ms);
/* Stop a launched browser: SIGTERM its process group, wait up to ~3 s,
 * SIGKILL, reap; then remove the profile directory. No-op when attached. */
void sc__browser_stop(sc_browser *b);
/* The reaper (reaper.c): started once the browser runs; stopped after
 * sc__browser_stop cleaned up. Start: 0 or SC_ELAUNCH. */
int sc__reaper_start(sc_browser *b);
void sc__reaper_stop(sc_browser *b);
/* Remove a directory tree (no symlinks followed). Returns 0 or SC_EIO. */
int sc__rmtree(const char *dir);

/* Profiles of launched browsers are BASE/stepcheck-PID-XXXXXX, PID the
 * launching process. */
#define SC__PROFILE_PREFIX "stepcheck-"
/* Remove the profiles in base whose launching process is gone: entries
 * named SC__PROFILE_PREFIX "PID-XXXXXX" that are directories (not links)
 * of this effective uid and whose PID no longer exists (kill(PID, 0)
 * fails with ESRCH). A live owner's profile is never touched (a reused
 * PID keeps a stale one until that process ends too). Returns how many
 * were removed; errors are ignored (the next launch tries again). */
int sc__profile_sweep(const char *base);

#endif
