/* The one file slurper for user input (scenarios, glyph sets, PNGs): the
 * regular-file check comes before anything can block. open(2) of a FIFO
 * with O_NONBLOCK returns at once even with no writer, so fstat can refuse
 * it; O_NONBLOCK is then cleared for the reads of a regular file. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"

const char *sc__file_kind(unsigned mode) {
  mode_t m = (mode_t)mode;
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISREG(m)) return "a regular file";
  return "not a regular file";
}

/* fpath is opened; path, escaped, is what messages show */
static int read_all(const char *fpath, size_t max_bytes, char **out, size_t *outlen,
                    const char *path) {
  int fd = open(fpath, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return sc__err(SC_EIO, "open %s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return sc__err(SC_EIO, "%s: %s", path, strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return sc__err(SC_EIO, "%s: not a regular file (%s)", path, sc__file_kind(st.st_mode));
  }
  if ((uintmax_t)st.st_size > max_bytes) {
    close(fd);
    return sc__err(SC_ETOOBIG, "%s: larger than %zu bytes", path, max_bytes);
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
    int e = errno;
    close(fd);
    return sc__err(SC_EIO, "%s: %s", path, strerror(e));
  }
  if (max_bytes > SIZE_MAX / 4) max_bytes = SIZE_MAX / 4;
  /* the size is a hint (the file may change while it is read): room for
   * one byte more than it says, so its end is seen without a realloc */
  size_t cap = (size_t)st.st_size + 2, n = 0;
  char *buf = sc__malloc(cap);
  int rc = buf ? 0 : sc__err(SC_ENOMEM, "%s: out of memory", path);
  while (rc == 0) {
    if (n + 1 == cap) {
      if (n > max_bytes) {
        rc = sc__err(SC_ETOOBIG, "%s: larger than %zu bytes", path, max_bytes);
        break;
      }
      size_t ncap = cap < 4096 ? 4096 : cap * 2;
      if (ncap > max_bytes + 2) ncap = max_bytes + 2;
      char *b = sc__realloc(buf, ncap);
      if (!b) {
        rc = sc__err(SC_ENOMEM, "%s: out of memory", path);
        break;
      }
      buf = b;
      cap = ncap;
    }
    ssize_t r = read(fd, buf + n, cap - n - 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) rc = sc__err(SC_EIO, "read %s: %s", path, strerror(errno));
    if (r <= 0) break;
    n += (size_t)r;
  }
  close(fd);
  if (rc == 0 && n > max_bytes) rc = sc__err(SC_ETOOBIG, "%s: larger than %zu bytes", path, max_bytes);
  if (rc) {
    sc__free(buf);
    return rc;
  }
  buf[n] = '\0';
  *out = buf;
  *outlen = n;
  return 0;
}

int sc__file_read_all(const char *path, size_t max_bytes, char **out, size_t *outlen) {
  *out = NULL;
  *outlen = 0;
  /* messages name the file: with its control characters escaped */
  char *shown = sc__escape_ctl(path);
  if (!shown) return sc__err(SC_ENOMEM, "out of memory");
  int rc = read_all(path, max_bytes, out, outlen, shown);
  sc__free(shown);
  return rc;
}
