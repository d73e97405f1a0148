/* Base64 (RFC 4648). Screenshots arrive as base64 PNG inside CDP JSON. */
#include <string.h>

#include "core.h"

static const char k_enc[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int dec_char(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

int sc__base64_decode(uint8_t **out, size_t *outlen, const char *in, size_t inlen) {
  *out = NULL;
  *outlen = 0;
  /* Strip up to two '=' of padding; padding is only legal on a 4-aligned input. */
  size_t pad = 0;
  while (inlen > 0 && in[inlen - 1] == '=' && pad < 2) {
    inlen--;
    pad++;
  }
  if (pad && (inlen + pad) % 4 != 0)
    return sc__err(SC_EFORMAT, "base64: bad padding");
  if (inlen % 4 == 1) return sc__err(SC_EFORMAT, "base64: truncated input");
  size_t n = inlen / 4 * 3 + (inlen % 4 ? inlen % 4 - 1 : 0);
  uint8_t *buf = sc__malloc(n);
  if (!buf) return sc__err(SC_ENOMEM, "base64: out of memory (%zu bytes)", n);
  size_t o = 0;
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < inlen; i++) {
    int v = dec_char((unsigned char)in[i]);
    if (v < 0) {
      sc__free(buf);
      return sc__err(SC_EFORMAT, "base64: invalid character at offset %zu", i);
    }
    acc = (acc << 6) | (uint32_t)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      buf[o++] = (uint8_t)(acc >> bits);
    }
  }
  *out = buf;
  *outlen = o;
  return 0;
}

char *sc__base64_encode(const uint8_t *in, size_t inlen) {
  size_t n = (inlen + 2) / 3 * 4;
  char *s = sc__malloc(n + 1);
  if (!s) return NULL;
  size_t o = 0, i = 0;
  for (; i + 2 < inlen; i += 3) {
    uint32_t v = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
    s[o++] = k_enc[v >> 18];
    s[o++] = k_enc[(v >> 12) & 63];
    s[o++] = k_enc[(v >> 6) & 63];
    s[o++] = k_enc[v & 63];
  }
  if (i < inlen) {
    uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < inlen ? (uint32_t)in[i + 1] << 8 : 0);
    s[o++] = k_enc[v >> 18];
    s[o++] = k_enc[(v >> 12) & 63];
    s[o++] = i + 1 < inlen ? k_enc[(v >> 6) & 63] : '=';
    s[o++] = '=';
  }
  s[o] = '\0';
  return s;
}
