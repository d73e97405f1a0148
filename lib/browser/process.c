/* Stopping a launched browser: the whole process group, no zombies, and the
 * profile directory removed. */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "browser_priv.h"
#include "core/core.h"

/* Signal the group; the leader alone if the group is gone already. */
static void signal_tree(pid_t pid, int sig) {
  if (kill(-pid, sig) != 0 && errno == ESRCH) kill(pid, sig);
}

/* Reap pid within ms; 1 when it is gone. */
static int reap_within(pid_t pid, double ms) {
  double end = sc__now_ms() + ms;
  for (;;) {
    pid_t r = waitpid(pid, NULL, WNOHANG);
    if (r == pid || (r < 0 && errno == ECHILD)) return 1;
    if (sc__now_ms() >= end) return 0;
    sc__sleep_ms(5);
  }
}

void sc__browser_stop(sc_browser *b) {
  if (b->pid > 0) {
    signal_tree(b->pid, SIGTERM);
    if (!reap_within(b->pid, 3000)) {
      signal_tree(b->pid, SIGKILL);
      while (waitpid(b->pid, NULL, 0) < 0 && errno == EINTR) {
      }
    }
    /* Helpers (renderer, zygote) that outlived the leader are still in the
     * group, which keeps the group id from being reused. */
    kill(-b->pid, SIGKILL);
    b->pid = 0;
  }
  if (b->profile_dir) {
    /* A helper dying right now may still create a file: retry briefly. */
    for (int i = 0; i < 20 && sc__rmtree(b->profile_dir) != 0; i++) sc__sleep_ms(25);
  }
  sc__reaper_stop(b);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)ftw;
  int r = flag == FTW_DP ? rmdir(path) : unlink(path);
  return r != 0 && errno != ENOENT ? -1 : 0;
}

int sc__rmtree(const char *dir) {
  struct stat st;
  if (lstat(dir, &st) != 0) return errno == ENOENT ? 0 : sc__err(SC_EIO, "rm %s: %s", dir, strerror(errno));
  if (nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS) != 0)
    return sc__err(SC_EIO, "rm %s: %s", dir, strerror(errno));
  return 0;
}

/* PID of a name SC__PROFILE_PREFIX "PID-XXXXXX" (mkdtemp's six), else 0. */
static long profile_owner(const char *name) {
  size_t np = strlen(SC__PROFILE_PREFIX);
  if (strncmp(name, SC__PROFILE_PREFIX, np) != 0) return 0;
  const char *d = name + np;
  if (*d < '1' || *d > '9') return 0;
  char *end;
  errno = 0;
  long pid = strtol(d, &end, 10);
  if (errno || end - d > 10 || *end != '-' || strlen(end + 1) != 6 || pid <= 0 ||
      pid > 0x7fffffffL)
    return 0;
  return pid;
}

int sc__profile_sweep(const char *base) {
  DIR *d = opendir(base);
  if (!d) return 0;
  int removed = 0;
  uid_t me = geteuid();
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    long pid = profile_owner(e->d_name);
    if (!pid || pid == (long)getpid()) continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue; /* alive (or not ours to ask) */
    char *path = sc__asprintf("%s/%s", base, e->d_name);
    struct stat st;
    if (path && lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == me &&
        sc__rmtree(path) == 0)
      removed++;
    sc__free(path);
  }
  closedir(d);
  return removed;
}
