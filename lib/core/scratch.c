/* Per-thread scratch buffers for big, short-lived blocks: a capture's PNG
 * bytes and a frame's worst-case packing space. Grown, never shrunk, freed
 * when the thread exits. A frame-sized block taken from malloc and given
 * back for every capture fragments glibc's heap once small blocks that live
 * on settle in its holes (docs/reliability.md, "Soak"); a block kept per
 * thread is never given back, so it cannot. */
#include <pthread.h>

#include "core.h"

typedef struct scratch {
  void *p[SC__SCRATCH_SLOTS];
  size_t cap[SC__SCRATCH_SLOTS];
} scratch;

static pthread_key_t g_key;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static int g_key_ok;

static void scratch_free(void *ud) {
  scratch *s = ud;
  if (!s) return;
  for (int i = 0; i < SC__SCRATCH_SLOTS; i++) sc__free(s->p[i]);
  sc__free(s);
}

static void key_make(void) { g_key_ok = pthread_key_create(&g_key, scratch_free) == 0; }

void *sc__scratch(int slot, size_t n) {
  if (slot < 0 || slot >= SC__SCRATCH_SLOTS) return NULL;
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
