/* Where the HTML page finds a failure image: the image's path relative to
 * the page's directory, as a percent-encoded URL, so the page and its
 * images can be moved or served together. Worked out on the text of the
 * paths (made absolute against the working directory when relative), so
 * the files need not exist yet. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "report/report_int.h"

/* The working directory in the library's allocator into *out: 0, SC_ENOMEM,
 * or NO_CWD when there is none to be had (removed, unreadable). */
#define NO_CWD 1
static int working_dir(char **out) {
  *out = NULL;
  for (size_t cap = 256;; cap *= 2) {
    char *buf = sc__malloc(cap);
    if (!buf) return SC_ENOMEM;
    if (getcwd(buf, cap)) return *out = buf, 0;
    sc__free(buf);
    if (errno != ERANGE || cap > ((size_t)1 << 20)) return NO_CWD;
  }
}

/* p made absolute against cwd (when relative) and normalised: "/a/b", no
 * ".", "..", doubled or trailing '/'; the root is "". */
static char *absolute(const char *p, const char *cwd) {
  char *in = p[0] == '/' ? sc__strdup(p) : sc__asprintf("%s/%s", cwd, p);
  if (!in) return NULL;
  size_t n = 0; /* out is written over in: it never grows */
  for (char *seg = in, *end; *seg; seg = end) {
    while (*seg == '/') seg++;
    end = seg + strcspn(seg, "/");
    size_t len = (size_t)(end - seg);
    if (len == 0 || (len == 1 && seg[0] == '.')) continue;
    if (len == 2 && seg[0] == '.' && seg[1] == '.') {
      while (n > 0 && in[--n] != '/') {}
      continue;
    }
    in[n++] = '/';
    memmove(in + n, seg, len);
    n += len;
  }
  in[n] = '\0';
  return in;
}

/* Next segment of a normalised path at *p ("/a/b"): its start and length;
 * 0 at the end. */
static size_t next_seg(const char **p, const char **seg) {
  if (**p != '/') return 0;
  *seg = *p + 1;
  size_t len = strcspn(*seg, "/");
  *p = *seg + len;
  return len;
}

/* Bytes that need no encoding in a URL path (RFC 3986 unreserved, '/' and
 * '@'): everything else is %XX, so no byte can end the attribute or read
 * as a query, fragment or scheme. */
static int url_safe(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '-' || c == '.' || c == '_' || c == '~' || c == '/' || c == '@';
}

static void put_url(FILE *f, const char *s) {
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (url_safe(c))
      fputc(c, f);
    else
      fprintf(f, "%%%02X", c);
  }
}

int sc__html_src(FILE *f, const char *page, const char *file) {
  char *cwd = NULL;
  int rc = page[0] == '/' && file[0] == '/' ? 0 : working_dir(&cwd);
  if (rc == SC_ENOMEM) return sc__err(SC_ENOMEM, "%s: out of memory", page);
  if (rc) { /* no working directory to resolve against: the path as it is */
    put_url(f, file);
    return 0;
  }
  char *pa = absolute(page, cwd), *fa = absolute(file, cwd);
  sc__free(cwd);
  if (!pa || !fa) {
    sc__free(pa);
    sc__free(fa);
    return sc__err(SC_ENOMEM, "%s: out of memory", page);
  }
  char *slash = strrchr(pa, '/'); /* the page's directory */
  if (slash) *slash = '\0';
  /* skip the segments both share */
  const char *d = pa, *x = fa;
  for (;;) {
    const char *d0 = d, *x0 = x, *ds = NULL, *xs = NULL;
    size_t dl = next_seg(&d, &ds), xl = next_seg(&x, &xs);
    if (!dl || dl != xl || memcmp(ds, xs, dl) != 0) {
      d = d0;
      x = x0;
      break;
    }
  }
  const char *seg;
  while (next_seg(&d, &seg)) fputs("../", f);
  put_url(f, x[0] == '/' ? x + 1 : x);
  sc__free(pa);
  sc__free(fa);
  return 0;
}
