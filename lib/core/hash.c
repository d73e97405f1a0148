/* A 64-bit hash for "are these the bytes we saw last time?" (captures as
 * received). Not cryptographic: captures are not chosen by an adversary
 * who gains from a collision, and with 64 bits an accidental one is about
 * 1 in 1.8e19 per comparison. Eight bytes per step, each word multiplied
 * in and mixed; the length and a final avalanche make prefixes differ. */
#include <string.h>

#include "core.h"

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

uint64_t sc__hash64(const void *data, size_t len) {
  const unsigned char *p = data;
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (len * 0x2545f4914f6cdd1dULL);
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = (h ^ (w * 0x87c37b91114253d5ULL)) * 0x4cf5ad432745937fULL;
    h = (h << 31) | (h >> 33);
  }
  uint64_t t = 0;
  for (size_t k = 0; i + k < len; k++) t |= (uint64_t)p[i + k] << (8 * k);
  h ^= t * 0x87c37b91114253d5ULL;
  h = mix(h);
  return h ? h : 1; /* 0 means "no hash" to callers */
}
