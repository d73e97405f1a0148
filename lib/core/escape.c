/* Control characters out of messages: text from anywhere (a scenario's
 * keys, ids and values, a file name, a server's or the browser's message)
 * is quoted into one-line messages, and a newline in it must not forge a
 * second "FILE:LINE:COL:" line, nor an ESC or C1 sequence (U+009B is a
 * CSI on its own) reach the terminal. One rule, applied by sc__err to
 * every library message, by the report tables and by the CLI's output:
 *   C0 and DEL       \n \t \r, else \xNN
 *   C1 U+0080..009F  \u00NN
 *   a byte that is not part of valid UTF-8 (a lone 0x9b would be an 8-bit
 *   CSI to a terminal that is not in UTF-8 mode)   \xNN
 * Everything else passes. The output is printable ASCII or valid UTF-8 of
 * U+00A0 and up, so escaping it again changes nothing. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"

/* Length of the valid UTF-8 sequence at p (2-4), 0 when it is not one. */
static size_t utf8_len(const unsigned char *p) {
  unsigned char c = p[0];
  size_t n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  for (size_t i = 1; i < n; i++)
    if ((p[i] & 0xc0) != 0x80) return 0; /* also stops at the NUL */
  if (n == 3 && ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0))) return 0;
  if (n == 4 && ((c == 0xf0 && p[1] < 0x90) || (c == 0xf4 && p[1] >= 0x90))) return 0;
  return n;
}

/* The text for the character at *p into out (at most 7 bytes and a NUL);
 * *used: bytes of input it stands for. Returns the length of out. */
static size_t escape_one(const unsigned char *p, char out[8], size_t *used) {
  unsigned char c = *p;
  *used = 1;
  if (c >= 0x20 && c < 0x7f) {
    out[0] = (char)c;
    out[1] = '\0';
    return 1;
  }
  if (c == '\n' || c == '\t' || c == '\r') {
    out[0] = '\\';
    out[1] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
    out[2] = '\0';
    return 2;
  }
  size_t n = c >= 0x80 ? utf8_len(p) : 0;
  if (n == 2 && c == 0xc2 && p[1] <= 0x9f) { /* C1 */
    *used = 2;
    return (size_t)snprintf(out, 8, "\\u%04x", p[1]);
  }
  if (n) {
    memcpy(out, p, n);
    out[n] = '\0';
    *used = n;
    return n;
  }
  return (size_t)snprintf(out, 8, "\\x%02x", c);
}

size_t sc__escape_ctl_len(const char *s) {
  size_t n = 0, used;
  char one[8];
  for (const unsigned char *p = (const unsigned char *)s; *p; p += used)
    n += escape_one(p, one, &used);
  return n;
}

size_t sc__escape_ctl_to(char *dst, size_t size, const char *s) {
  size_t n = 0, used, k;
  char one[8];
  for (const unsigned char *p = (const unsigned char *)s; *p; p += used) {
    k = escape_one(p, one, &used);
    if (n + k >= size) break; /* never half an escape */
    memcpy(dst + n, one, k);
    n += k;
  }
  if (size) dst[n] = '\0';
  return n;
}

char *sc__escape_ctl(const char *s) {
  size_t n = sc__escape_ctl_len(s) + 1;
  char *out = sc__malloc(n);
  if (out) sc__escape_ctl_to(out, n, s);
  return out;
}

SC_EXTERN size_t sc_escape_ctl(char *dst, size_t size, const char *src) {
  if (!dst || !size) return 0;
  return sc__escape_ctl_to(dst, size, src ? src : "");
}
