/* Control characters out of messages: text from a scenario (keys, ids,
 * values, the file name) is quoted into one-line messages, and a newline in
 * it must not forge a second "FILE:LINE:COL:" line, nor an ESC sequence
 * reach the terminal. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

static int is_ctl(unsigned char c) { return c < 0x20 || c == 0x7f; }

size_t sc__escape_ctl_len(const char *s) {
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++)
    n += !is_ctl(*p) ? 1 : (*p == '\n' || *p == '\t' || *p == '\r') ? 2 : 4;
  return n;
}

char *sc__escape_ctl(const char *s) {
  char *out = sc__malloc(sc__escape_ctl_len(s) + 1), *w = out;
  if (!out) return NULL;
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (!is_ctl(*p)) {
      *w++ = (char)*p;
    } else if (*p == '\n' || *p == '\t' || *p == '\r') {
      *w++ = '\\';
      *w++ = *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r';
    } else {
      snprintf(w, 5, "\\x%02x", *p);
      w += 4;
    }
  }
  *w = '\0';
  return out;
}
