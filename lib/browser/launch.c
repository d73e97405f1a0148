/* Launch headless Chromium: a fresh 0700 profile on a RAM-backed filesystem,
 * fork+exec in its own process group, DevTools port read back from
 * DevToolsActivePort (for sc_browser_ws_url), then CDP over the DevTools
 * pipe (fds 3 and 4 of the browser). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "browser_priv.h"
#include "core/core.h"
#include "core/debug.h"

extern char **environ;

/* Flags and why: see docs/cdp.md. Shared with grid sessions (the browser a
 * grid node starts runs like ours); a local launch adds DevTools on
 * loopback with a port Chromium picks, then --user-data-dir and, as root,
 * --no-sandbox at run time. NULL-terminated. */
const char *const sc__chromium_flags[] = {
    "--headless",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--force-color-profile=srgb",
    "--hide-scrollbars",
    "--disable-quic",
    "--mute-audio",
    "--disable-extensions",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
    /* Not --enable-features=CDPScreenshotNewSurface (Playwright's): with
     * it, Chromium 156's browser process segfaults when a renderer crashes
     * during a screenshot (3 and 2 of 5 runs here; 0 of 10 without), taking
     * every user of that browser down with one page (docs/design.md). */
    "--password-store=basic",
    NULL,
};

/* Commands go over the pipe (fds 3 and 4, see spawn); the port stays for
 * sc_browser_ws_url (other tools may attach), on loopback. */
static const char *const sc__local_flags[] = {
    "--remote-debugging-pipe",
    "--remote-debugging-port=0",
    "--remote-debugging-address=127.0.0.1",
    NULL,
};

/* mkdtemp on /dev/shm, else $TMPDIR, else /tmp; mode 0700. The name
 * carries our pid (SC__PROFILE_PREFIX "PID-XXXXXX"), so a later launch
 * can tell a profile whose owner died (SIGKILL, a crash: nobody removed
 * it) and remove it first (sc__profile_sweep). */
static int make_profile_dir(char **out) {
  const char *bases[] = {"/dev/shm", getenv("TMPDIR"), "/tmp"};
  size_t nbases = sizeof bases / sizeof bases[0];
  for (size_t i = 0; i < nbases; i++)
    if (bases[i] && *bases[i]) sc__profile_sweep(bases[i]);
  int last = 0;
  for (size_t i = 0; i < nbases; i++) {
    if (!bases[i] || !*bases[i]) continue;
    char *dir = sc__asprintf("%s/" SC__PROFILE_PREFIX "%ld-XXXXXX", bases[i], (long)getpid());
    if (!dir) return sc__err(SC_ENOMEM, "launch: out of memory");
    if (mkdtemp(dir) && chmod(dir, 0700) == 0) {
      *out = dir;
      return 0;
    }
    last = errno;
    rmdir(dir);
    sc__free(dir);
  }
  return sc__err(SC_ELAUNCH, "launch: cannot create a profile directory: %s", strerror(last));
}

static size_t count(const char *const *v) {
  size_t n = 0;
  while (v && v[n]) n++;
  return n;
}

/* argv: exe, local flags, shared flags, per-run flags, extra_args,
 * about:blank. The one allocated entry (--user-data-dir) is freed by
 * free_argv, which finds it by the same index. */
static char **build_argv(const char *exe, const char *profile, const char *const *extra) {
  size_t nlocal = count(sc__local_flags), nflags = count(sc__chromium_flags);
  char **argv = sc__calloc(nlocal + nflags + count(extra) + 6, sizeof *argv);
  if (!argv) return NULL;
  size_t n = 0;
  argv[n++] = (char *)exe;
  for (size_t i = 0; i < nlocal; i++) argv[n++] = (char *)sc__local_flags[i];
  for (size_t i = 0; i < nflags; i++) argv[n++] = (char *)sc__chromium_flags[i];
  if (!(argv[n++] = sc__asprintf("--user-data-dir=%s", profile))) {
    sc__free(argv);
    return NULL;
  }
  /* Chromium's sandbox refuses to run as root. */
  if (geteuid() == 0) argv[n++] = "--no-sandbox";
  for (size_t i = 0; extra && extra[i]; i++) argv[n++] = (char *)extra[i];
  argv[n++] = "about:blank";
  argv[n] = NULL;
  return argv;
}

static void free_argv(char **argv) {
  if (!argv) return;
  sc__free(argv[1 + count(sc__local_flags) + count(sc__chromium_flags)]);
  sc__free(argv);
}

/* environ with TMPDIR=profile (Chromium's temp files die with the profile). */
static char **build_envp(char **tmpdir_entry, const char *profile) {
  size_t n = 0;
  while (environ[n]) n++;
  char **envp = sc__calloc(n + 2, sizeof *envp);
  if (!envp || !(*tmpdir_entry = sc__asprintf("TMPDIR=%s", profile))) {
    sc__free(envp);
    return NULL;
  }
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], "TMPDIR=", 7) != 0) envp[k++] = environ[i];
  envp[k++] = *tmpdir_entry;
  envp[k] = NULL;
  return envp;
}

/* Close fds lo..hi (hi -1: all above lo); close_range where the kernel has it. */
static void close_fds(int lo, int hi) {
  if (close_range((unsigned)lo, hi < 0 ? ~0U : (unsigned)hi, 0) == 0) return;
  long max = sysconf(_SC_OPEN_MAX);
  if (max < 0 || max > 65536) max = 65536;
  for (int fd = lo; fd < (int)max && (hi < 0 || fd <= hi); fd++) close(fd);
}

/* In the child: only async-signal-safe calls until exec. */
static void child_exec(const char *exe, char **argv, char **envp, int devnull, int errfd,
                       int show_stderr, pid_t parent, int cmd_fd, int out_fd) {
  setpgid(0, 0); /* own group: sc_browser_free kills the whole tree */
  /* The browser dies with the process that launched it, also when that one
   * crashes or is killed (kept across exec: Chromium is not setuid). The
   * parent may already be gone: then go too. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  int sigs[] = {SIGPIPE, SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGCHLD};
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) signal(sigs[i], SIG_DFL);
  dup2(devnull, 0);
  if (!show_stderr) {
    dup2(devnull, 1);
    dup2(devnull, 2);
  }
  /* The DevTools pipe: Chromium reads commands on fd 3 and writes on fd 4.
   * Every descriptor in play moves above 10 first, so no dup2 below lands
   * on one still needed. */
  errfd = fcntl(errfd, F_DUPFD_CLOEXEC, 10);
  cmd_fd = fcntl(cmd_fd, F_DUPFD_CLOEXEC, 10);
  out_fd = fcntl(out_fd, F_DUPFD_CLOEXEC, 10);
  if (errfd < 0 || cmd_fd < 0 || out_fd < 0 || dup2(cmd_fd, 3) != 3 || dup2(out_fd, 4) != 4)
    _exit(127);
  /* Close everything inherited except 3, 4 and the exec-error pipe
   * (close-on-exec). */
  close_fds(5, errfd - 1);
  close_fds(errfd + 1, -1);
  execvpe(exe, argv, envp);
  int e = errno;
  ssize_t w = write(errfd, &e, sizeof e);
  (void)w;
  _exit(127);
}

static void close_pair(int p[2]) {
  if (p[0] >= 0) close(p[0]);
  if (p[1] >= 0) close(p[1]);
  p[0] = p[1] = -1;
}

/* fork+exec; *pid set on success, and dt[0] (reads what the browser writes
 * on its fd 4) and dt[1] (writes to its fd 3): the DevTools pipe, ours to
 * close. An exec failure comes back through a close-on-exec pipe with its
 * errno. */
static int spawn(pid_t *pid, int dt[2], const char *exe, char **argv, char **envp,
                 int show_stderr) {
  int ep[2] = {-1, -1}, cmd[2] = {-1, -1}, out[2] = {-1, -1};
  dt[0] = dt[1] = -1;
  if (pipe2(ep, O_CLOEXEC) != 0 || pipe2(cmd, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) {
    int e = errno;
    close_pair(ep);
    close_pair(cmd);
    close_pair(out);
    return sc__err(SC_ELAUNCH, "launch %s: pipe: %s", exe, strerror(e));
  }
  int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (devnull < 0) {
    close_pair(ep);
    close_pair(cmd);
    close_pair(out);
    return sc__err(SC_ELAUNCH, "launch %s: /dev/null: %s", exe, strerror(errno));
  }
  pid_t self = getpid();
  pid_t p = fork();
  if (p == 0) child_exec(exe, argv, envp, devnull, ep[1], show_stderr, self, cmd[0], out[1]);
  int fork_errno = errno;
  close(ep[1]);
  close(cmd[0]);
  close(out[1]);
  close(devnull);
  if (p < 0) {
    close(ep[0]);
    close(cmd[1]);
    close(out[0]);
    return sc__err(SC_ELAUNCH, "launch %s: fork: %s", exe, strerror(fork_errno));
  }
  setpgid(p, p); /* also from here: no window where kill(-pid) misses */
  int e = 0;
  ssize_t r;
  while ((r = read(ep[0], &e, sizeof e)) < 0 && errno == EINTR) {
  }
  close(ep[0]);
  if (r == (ssize_t)sizeof e) {
    waitpid(p, NULL, 0);
    close(cmd[1]);
    close(out[0]);
    return sc__err(SC_ELAUNCH, "launch %s: %s", exe, strerror(e));
  }
  *pid = p;
  dt[0] = out[0];
  dt[1] = cmd[1];
  return 0;
}

/* DevToolsActivePort: "PORT\n/devtools/browser/ID". 1 when complete. */
static int read_active_port(const char *path, int *port, char *wspath, size_t size) {
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  char buf[512];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *nl = strchr(buf, '\n');
  if (!nl) return 0;
  *nl = '\0';
  char *end;
  long p = strtol(buf, &end, 10);
  char *path2 = nl + 1;
  path2[strcspn(path2, "\r\n")] = '\0';
  if (*end || p < 1 || p > 65535 || strncmp(path2, "/devtools/browser/", 18) != 0 ||
      strlen(path2) <= 18 || strlen(path2) >= size)
    return 0; /* not yet (or partly) written */
  *port = (int)p;
  snprintf(wspath, size, "%s", path2);
  return 1;
}

static int describe_exit(const char *exe, int status) {
  if (WIFSIGNALED(status))
    return sc__err(SC_ELAUNCH, "launch %s: killed by signal %d before DevTools was ready",
                   exe, WTERMSIG(status));
  return sc__err(SC_ELAUNCH, "launch %s: exited with status %d before DevTools was ready",
                 exe, WEXITSTATUS(status));
}

/* Wait for DevToolsActivePort, watching the child; writes the ws URL. */
static int wait_devtools(sc_browser *b, const char *exe, double deadline, char *url,
                         size_t size, const volatile int *cancel) {
  char *file = sc__asprintf("%s/DevToolsActivePort", b->profile_dir);
  if (!file) return sc__err(SC_ENOMEM, "launch: out of memory");
  char wspath[256];
  int port = 0, rc = 0;
  for (;;) {
    if (read_active_port(file, &port, wspath, sizeof wspath)) break;
    int status;
    if (waitpid(b->pid, &status, WNOHANG) == b->pid) {
      b->pid = 0; /* reaped: nothing left to signal by this pid */
      rc = describe_exit(exe, status);
      break;
    }
    if (sc__now_ms() >= deadline) {
      rc = sc__err(SC_ETIMEDOUT, "launch %s: DevToolsActivePort not written within %.0f ms",
                   exe, b->launch_timeout_ms);
      break;
    }
    if (cancel && *cancel) {
      rc = sc__err(SC_ECANCELED, "launch %s: interrupted", exe);
      break;
    }
    sc__sleep_ms(10);
  }
  sc__free(file);
  if (rc == 0) snprintf(url, size, "ws://127.0.0.1:%d%s", port, wspath);
  return rc;
}

SC_EXTERN int sc_browser_launch(sc_browser **out, const sc_browser_options *opts) {
  return sc__browser_launch_cancel(out, opts, NULL);
}

int sc__browser_launch_cancel(sc_browser **out, const sc_browser_options *opts,
                              const volatile int *cancel) {
  if (!out) return sc__err(SC_EINVAL, "launch: out is NULL");
  *out = NULL;
  sc_browser_options o;
  int rc = sc__browser_options_read(&o, opts, "sc_browser_launch");
  if (rc) return rc;
  opts = &o;
  sc_browser *b;
  if ((rc = sc__browser_new(&b, opts))) return rc;
  if (cancel) b->cancel = cancel; /* the load run's flag, for the attach too */
  cancel = b->cancel;
  double deadline = sc__now_ms() + b->launch_timeout_ms;
  const char *exe = opts->executable ? opts->executable : getenv("SC_CHROMIUM");
  if (!exe || !*exe) exe = "/usr/bin/chromium";
  char **argv = NULL, **envp = NULL, *tmpdir = NULL;
  rc = make_profile_dir(&b->profile_dir);
  if (rc == 0 && (!(argv = build_argv(exe, b->profile_dir, opts->extra_args)) ||
                  !(envp = build_envp(&tmpdir, b->profile_dir))))
    rc = sc__err(SC_ENOMEM, "launch: out of memory");
  int dt[2] = {-1, -1};
  if (rc == 0) rc = spawn(&b->pid, dt, exe, argv, envp, opts->show_browser_stderr);
  if (rc == 0) rc = sc__reaper_start(b);
  free_argv(argv);
  sc__free(envp);
  sc__free(tmpdir);
  char url[512];
  if (rc == 0) rc = wait_devtools(b, exe, deadline, url, sizeof url, cancel);
  if (rc == 0) {
    double left = deadline - sc__now_ms();
    rc = sc__browser_attach_pipe(b, url, dt[0], dt[1], left > 1000 ? left : 1000);
  } else {
    close_pair(dt);
  }
  if (rc) {
    sc__errsave e;
    sc__err_save(&e);
    sc_browser_free(b);
    return sc__err_restore(&e, rc);
  }
  *out = b;
  return 0;
}
