/* Base64 (RFC 4648). Screenshots arrive as base64 PNG inside CDP JSON. */
#include <string.h>

#include "core.h"

static const char k_enc[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Decoding table: value 0..63, or 64 for a character outside the alphabet
 * (screenshots are megabytes of base64: a table beats branches). A constant,
 * so threads share it without a first-use race. */
static const uint8_t k_dec[256] = {
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 62, 64, 64, 64, 63,
    52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 64, 64, 64, 64, 64, 64,
    64,  0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14,
    15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 64, 64, 64, 64, 64,
    64, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40,
    41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
};

size_t sc__base64_max(size_t inlen) { return inlen / 4 * 3 + 3; }

int sc__base64_decode(uint8_t **out, size_t *outlen, const char *in, size_t inlen) {
  *out = NULL;
  *outlen = 0;
  uint8_t *buf = sc__malloc(sc__base64_max(inlen));
  if (!buf) return sc__err(SC_ENOMEM, "base64: out of memory (%zu bytes)", sc__base64_max(inlen));
  int rc = sc__base64_decode_to(buf, outlen, in, inlen);
  if (rc < 0) {
    sc__free(buf);
    return rc;
  }
  *out = buf;
  return 0;
}

int sc__base64_decode_to(uint8_t *buf, size_t *outlen, const char *in, size_t inlen) {
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
  const unsigned char *u = (const unsigned char *)in;
  size_t o = 0, i = 0;
  /* Whole quads first, then the 2- or 3-character tail. */
  for (; i + 4 <= inlen; i += 4) {
    uint32_t a = k_dec[u[i]], b = k_dec[u[i + 1]], c = k_dec[u[i + 2]], d = k_dec[u[i + 3]];
    if ((a | b | c | d) & 64) break;
    uint32_t v = a << 18 | b << 12 | c << 6 | d;
    buf[o++] = (uint8_t)(v >> 16);
    buf[o++] = (uint8_t)(v >> 8);
    buf[o++] = (uint8_t)v;
  }
  uint32_t acc = 0;
  int bits = 0;
  for (; i < inlen; i++) {
    uint32_t v = k_dec[u[i]];
    if (v & 64) return sc__err(SC_EFORMAT, "base64: invalid character at offset %zu", i);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      buf[o++] = (uint8_t)(acc >> bits);
    }
  }
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
