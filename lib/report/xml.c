/* XML 1.0 text for the JUnit and HTML writers. Any C string becomes a
 * well-formed character sequence: a report must parse whatever a scenario,
 * a server or the browser put in a name or a message (docs/security.md,
 * "Reports"). */
#include "core/core.h"
#include "report/report_int.h"

/* The length of the UTF-8 sequence at s if it encodes a character XML 1.0
 * allows (Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
 * [#x10000-#x10FFFF]), else 0: C0 controls other than tab, LF and CR,
 * U+FFFE and U+FFFF, surrogates, overlong forms and broken sequences. */
static int xml_char_len(const unsigned char *s) {
  unsigned c = s[0];
  if (c < 0x80) return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
  int n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (!n) return 0;
  unsigned long u = c & (0x7f >> n);
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0; /* also stops at the terminating NUL */
    u = u << 6 | (s[i] & 0x3f);
  }
  if ((n == 3 && u < 0x800) || (n == 4 && (u < 0x10000 || u > 0x10ffff))) return 0;
  if ((u >= 0xd800 && u <= 0xdfff) || u == 0xfffe || u == 0xffff) return 0;
  return n;
}

/* Markup characters as entities; inside attributes also the whitespace
 * that attribute normalisation would eat; every byte that does not start
 * an allowed character as '?'. */
void sc__report_put_xml(FILE *f, const char *s, int attr) {
  const unsigned char *p = (const unsigned char *)s;
  while (p && *p) {
    int n = xml_char_len(p);
    if (n == 0) {
      fputc('?', f);
      p++;
      continue;
    }
    switch (*p) {
    case '&': fputs("&amp;", f); break;
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '"': fputs(attr ? "&quot;" : "\"", f); break;
    case '\'': fputs(attr ? "&apos;" : "'", f); break;
    case '\t': fputs(attr ? "&#9;" : "\t", f); break;
    case '\n': fputs(attr ? "&#10;" : "\n", f); break;
    case '\r': fputs("&#13;", f); break;
    default: fwrite(p, 1, (size_t)n, f);
    }
    p += n;
  }
}
