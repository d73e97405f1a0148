/* Where an output may be written (docs/security.md, "Output paths").
 * Every writer puts its bytes in PATH.tmp and renames it over PATH, which
 * replaces whatever PATH names: a device (/dev/null, /dev/full) would become
 * a regular file, for every other program too. So only a regular file, or
 * no file in an existing folder, is replaced; anything else is refused
 * before a byte is written. The same check serves the CLI up front (before
 * any browser starts) and every writer when it writes. The temporary
 * file itself is created afresh and never followed through a link (a link
 * planted at PATH.tmp would otherwise have the bytes written wherever it
 * points, with this process's rights). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"

/* The folder path is in (PATH's part before its last '/'), checked. */
static int check_folder(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return 0; /* the working directory */
  char *dir = slash == path ? sc__strdup("/") : sc__strndup(path, (size_t)(slash - path));
  if (!dir) return sc__err(SC_ENOMEM, "%s: out of memory", path);
  struct stat st;
  int rc = 0;
  if (stat(dir, &st) != 0)
    rc = errno == ENOENT || errno == ENOTDIR
             ? sc__err(SC_EIO, "%s: the folder %s does not exist", path, dir)
             : sc__err(SC_EIO, "%s: the folder %s: %s", path, dir, strerror(errno));
  else if (!S_ISDIR(st.st_mode))
    rc = sc__err(SC_EIO, "%s: the folder %s: %s", path, dir, strerror(ENOTDIR));
  sc__free(dir);
  return rc;
}

int sc__out_check(const char *path) {
  if (!path || !*path) return sc__err(SC_EINVAL, "output path is NULL or empty");
  struct stat st;
  if (stat(path, &st) == 0) { /* through a link: what a write would reach */
    if (S_ISREG(st.st_mode)) return 0;
    return sc__err(SC_EINVAL,
                   "%s: not replaced: it is %s (only a regular file or a new file is written)",
                   path, sc__file_kind(st.st_mode));
  }
  if (errno != ENOENT && errno != ENOTDIR) return sc__err(SC_EIO, "%s: %s", path, strerror(errno));
  struct stat lst; /* a link to nothing: the rename would replace the link */
  if (lstat(path, &lst) == 0 && !S_ISLNK(lst.st_mode))
    return sc__err(SC_EINVAL, "%s: not replaced: it is %s", path, sc__file_kind(lst.st_mode));
  return check_folder(path);
}

int sc__out_check_dir(const char *dir) {
  if (!dir || !*dir) return sc__err(SC_EINVAL, "output folder is NULL or empty");
  struct stat st;
  if (stat(dir, &st) != 0)
    return errno == ENOENT || errno == ENOTDIR
               ? sc__err(SC_EIO, "%s: the folder does not exist", dir)
               : sc__err(SC_EIO, "%s: %s", dir, strerror(errno));
  if (!S_ISDIR(st.st_mode))
    return sc__err(SC_EIO, "%s: %s (%s)", dir, strerror(ENOTDIR), sc__file_kind(st.st_mode));
  return 0;
}

FILE *sc__out_open_tmp(const char *tmp) {
  struct stat lst;
  if (lstat(tmp, &lst) == 0 && !S_ISDIR(lst.st_mode) && unlink(tmp) != 0) return NULL;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "wb");
  if (!f) {
    int saved = errno;
    close(fd);
    unlink(tmp);
    errno = saved;
  }
  return f;
}

SC_EXTERN int sc_output_check(const char *path) { return sc__out_check(path); }

SC_EXTERN int sc_output_check_dir(const char *dir) { return sc__out_check_dir(dir); }
