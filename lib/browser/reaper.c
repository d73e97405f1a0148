/* The reaper: what removes a launched browser's profile when the process
 * that launched it dies without a word (SIGKILL, a crash). The browser
 * itself dies with its parent (PR_SET_PDEATHSIG), but nothing of ours runs
 * then, and the profile (cookies, cache, the DevTools port file) would stay
 * on /dev/shm until the next launch swept it.
 *
 * A small shell in its own session waits on a pipe whose only writer is
 * us; when we die the kernel closes it, the read returns, and the shell
 * gives the browser's group a second, kills what is left of it and removes
 * the profile. On a normal sc_browser_free we cleaned up ourselves, so the
 * reaper is killed and reaped. The shell is exec'd (nothing but
 * async-signal-safe calls between fork and exec in posix_spawn), so this is
 * safe in a threaded host. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "browser_priv.h"
#include "core/core.h"

extern char **environ;

static const char k_script[] =
    "read _; i=0; while [ $i -lt 10 ] && kill -0 \"$1\" 2>/dev/null; do sleep 0.1; "
    "i=$((i+1)); done; /bin/kill -KILL -- \"-$1\" 2>/dev/null; exec rm -rf -- \"$0\"";

int sc__reaper_start(sc_browser *b) {
  b->reaper_pid = 0;
  b->reaper_fd = -1;
  if (!b->profile_dir || b->pid <= 0) return 0;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    return sc__err(SC_ELAUNCH, "launch: reaper pipe: %s", strerror(errno));
  char pgid[24];
  snprintf(pgid, sizeof pgid, "%ld", (long)b->pid);
  char *argv[] = {"/bin/sh", "-c", (char *)k_script, b->profile_dir, pgid, NULL};
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&at);
  posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  /* Its own session: a Ctrl-C meant for us must not take it down first. */
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID);
  pid_t pid;
  int rc = posix_spawn(&pid, "/bin/sh", &fa, &at, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(fds[0]);
  if (rc != 0) {
    close(fds[1]);
    return sc__err(SC_ELAUNCH, "launch: reaper: %s", strerror(rc));
  }
  b->reaper_pid = pid;
  b->reaper_fd = fds[1];
  return 0;
}

void sc__reaper_stop(sc_browser *b) {
  if (b->reaper_pid > 0) {
    kill(b->reaper_pid, SIGKILL); /* we cleaned up ourselves */
    while (waitpid(b->reaper_pid, NULL, 0) < 0 && errno == EINTR) {
    }
    b->reaper_pid = 0;
  }
  if (b->reaper_fd >= 0) close(b->reaper_fd);
  b->reaper_fd = -1;
}
