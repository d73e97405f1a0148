/* Per-thread memory for big blocks that come and go with every capture:
 * scratch buffers (a capture's PNG bytes, a frame's worst-case packing
 * space; grown, never shrunk) and a small pool of frame-sized pixel blocks
 * (decoded captures, unpacked frames). All freed when the thread exits. A
 * frame-sized block taken from malloc and given back for every capture
 * fragments glibc's heap once small blocks that live on settle in its holes
 * (docs/reliability.md, "Soak"); a block kept per thread is never given
 * back, so it cannot. */
#include <pthread.h>

#include "core.h"

typedef struct scratch {
  void *p[SC__SCRATCH_SLOTS];
  size_t cap[SC__SCRATCH_SLOTS];
  void *pool[SC__POOL_BLOCKS];
  size_t pool_cap[SC__POOL_BLOCKS];
} scratch;

static pthread_key_t g_key;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_key_ok;

static void scratch_free(void *ud) {
  scratch *s = ud;
  if (!s) return;
  for (int i = 0; i < SC__SCRATCH_SLOTS; i++) sc__free(s->p[i]);
  for (int i = 0; i < SC__POOL_BLOCKS; i++) sc__free(s->pool[i]);
  sc__free(s);
}

static void key_make(void) { g_key_ok = pthread_key_create(&g_key, scratch_free) == 0; }

static scratch *mine(void) {
  pthread_once(&g_once, key_make);
  if (!g_key_ok) return NULL;
  scratch *s = pthread_getspecific(g_key);
  if (!s) {
    if (!(s = sc__calloc(1, sizeof *s))) return NULL;
    if (pthread_setspecific(g_key, s) != 0) {
      sc__free(s);
      return NULL;
    }
  }
  return s;
}

void *sc__scratch(int slot, size_t n) {
  if (slot < 0 || slot >= SC__SCRATCH_SLOTS) return NULL;
  scratch *s = mine();
  if (!s) return NULL;
  if (n == 0) n = 1;
  if (s->cap[slot] < n) {
    /* Grow by half again, so a size that creeps up does not reallocate
     * on every call; the old contents are not kept. */
    size_t want = n + n / 2 < n ? n : n + n / 2;
    sc__free(s->p[slot]);
    s->cap[slot] = 0;
    if (!(s->p[slot] = sc__malloc(want))) return NULL;
    s->cap[slot] = want;
  }
  return s->p[slot];
}

void sc__scratch_release(void) {
  pthread_once(&g_once, key_make);
  if (!g_key_ok) return;
  scratch_free(pthread_getspecific(g_key));
  pthread_setspecific(g_key, NULL);
}

void *sc__pool_take(size_t n, size_t *cap) {
  scratch *s = n >= SC__POOL_MIN ? mine() : NULL;
  int best = -1;
  for (int i = 0; s && i < SC__POOL_BLOCKS; i++) /* the smallest that fits */
    if (s->pool[i] && s->pool_cap[i] >= n && (best < 0 || s->pool_cap[i] < s->pool_cap[best]))
      best = i;
  if (best >= 0) {
    void *p = s->pool[best];
    *cap = s->pool_cap[best];
    s->pool[best] = NULL;
    s->pool_cap[best] = 0;
    return p;
  }
  void *p = sc__malloc(n);
  *cap = p ? n : 0;
  return p;
}

void sc__pool_give(void *p, size_t cap) {
  if (!p) return;
  scratch *s = cap >= SC__POOL_MIN ? mine() : NULL;
  if (!s) {
    sc__free(p);
    return;
  }
  int slot = 0; /* an empty place, else the smallest block */
  for (int i = 0; i < SC__POOL_BLOCKS; i++) {
    if (!s->pool[i]) {
      slot = i;
      break;
    }
    if (s->pool_cap[i] < s->pool_cap[slot]) slot = i;
  }
  if (s->pool[slot] && s->pool_cap[slot] >= cap) { /* the pool holds bigger ones */
    sc__free(p);
    return;
  }
  sc__free(s->pool[slot]);
  s->pool[slot] = p;
  s->pool_cap[slot] = cap;
}
