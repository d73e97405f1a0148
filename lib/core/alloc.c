/* The one allocation hook (sc_set_allocator): the library's own memory and
 * libpng's (png_alloc.c). jansson and libwebsockets keep theirs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

static void *(*g_malloc)(size_t) = malloc;
static void *(*g_realloc)(void *, size_t) = realloc;
static void (*g_free)(void *) = free;

SC_EXTERN void sc_set_allocator(void *(*m)(size_t), void *(*r)(void *, size_t),
                                void (*f)(void *)) {
  /* The calling thread's kept blocks go back to the allocator they came
   * from (a program sets it once, first; tests switch it). */
  sc__scratch_release();
  g_malloc = m ? m : malloc;
  g_realloc = r ? r : realloc;
  g_free = f ? f : free;
}

SC_EXTERN void sc_free(void *p) { g_free(p); }

void *sc__malloc(size_t n) { return g_malloc(n ? n : 1); }
void *sc__realloc(void *p, size_t n) { return g_realloc(p, n ? n : 1); }
void sc__free(void *p) { g_free(p); }

void *sc__calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  void *p = sc__malloc(n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

char *sc__strndup(const char *s, size_t n) {
  char *d = sc__malloc(n + 1);
  if (!d) return NULL;
  memcpy(d, s, n);
  d[n] = '\0';
  return d;
}

char *sc__strdup(const char *s) { return s ? sc__strndup(s, strlen(s)) : NULL; }

char *sc__vasprintf(const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *s = n < 0 ? NULL : sc__malloc((size_t)n + 1);
  if (s) vsnprintf(s, (size_t)n + 1, fmt, again);
  va_end(again);
  return s;
}

char *sc__asprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = sc__vasprintf(fmt, ap);
  va_end(ap);
  return s;
}
