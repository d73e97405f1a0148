/* A string -> index map (open addressing, linear probing, load at most
 * 1/2, doubled when full): what makes scenario checking linear in its number of keys,
 * names and ids. The hash (FNV-1a and a final mix) starts from a per-map seed
 * from getrandom(), so which keys collide changes from run to run (scenario
 * text is user input; jansson seeds its own tables for the same reason). It
 * is not a keyed cryptographic hash such as SipHash. */
#include <string.h>
#include <sys/random.h>

#include "core/core.h"

static uint64_t seeded_hash(uint64_t seed, const char *key, size_t len) {
  uint64_t h = seed ^ (len * 0x2545f4914f6cdd1dULL);
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)key[i];
    h *= 0x100000001b3ULL; /* FNV-1a prime, 64-bit */
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

int sc__strmap_init(sc__strmap *m, size_t n) {
  memset(m, 0, sizeof *m);
  size_t cap = 16;
  while (cap < 2 * n + 2) cap *= 2;
  m->slot = sc__calloc(cap, sizeof *m->slot);
  if (!m->slot) return SC_ENOMEM;
  m->cap = cap;
  if (getrandom(&m->seed, sizeof m->seed, GRND_NONBLOCK) != (ssize_t)sizeof m->seed)
    m->seed = (uint64_t)(uintptr_t)m->slot * 0x9e3779b97f4a7c15ULL;
  return 0;
}

void sc__strmap_free(sc__strmap *m) {
  sc__free(m->slot);
  memset(m, 0, sizeof *m);
}

/* The slot holding key, or the empty slot where it would go. */
static struct sc__strmap_slot *lookup(const sc__strmap *m, const char *key, size_t len,
                                      unsigned long *probes) {
  size_t i = (size_t)seeded_hash(m->seed, key, len) & (m->cap - 1);
  for (;; i = (i + 1) & (m->cap - 1)) {
    (*probes)++;
    struct sc__strmap_slot *s = &m->slot[i];
    if (!s->key || (s->len == len && memcmp(s->key, key, len) == 0)) return s;
  }
}

/* Twice the slots, every key moved over. */
static int grow(sc__strmap *m) {
  sc__strmap big = *m;
  big.cap = m->cap ? m->cap * 2 : 16;
  big.slot = sc__calloc(big.cap, sizeof *big.slot);
  if (!big.slot) return -1;
  big.n = 0;
  for (size_t i = 0; i < m->cap; i++)
    if (m->slot[i].key) *lookup(&big, m->slot[i].key, m->slot[i].len, &big.probes) = m->slot[i];
  big.n = m->n;
  sc__free(m->slot);
  *m = big;
  return 0;
}

int sc__strmap_put(sc__strmap *m, const char *key, size_t len, size_t val, size_t *old) {
  if (2 * (m->n + 1) > m->cap && grow(m) < 0) return -1;
  struct sc__strmap_slot *s = lookup(m, key, len, &m->probes);
  if (s->key) {
    if (old) *old = s->val;
    return 0;
  }
  *s = (struct sc__strmap_slot){key, len, val};
  m->n++;
  return 1;
}

int sc__strmap_get(const sc__strmap *m, const char *key, size_t len, size_t *val) {
  if (!m->cap) return 0;
  /* lookups count too: the map is the caller's, the counter is for tests */
  struct sc__strmap_slot *s = lookup(m, key, len, (unsigned long *)&m->probes);
  if (!s->key) return 0;
  *val = s->val;
  return 1;
}
