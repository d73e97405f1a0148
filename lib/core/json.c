/* JSON text in the library's allocator. jansson keeps its own allocator
 * (process-wide, the host program's to set): the library never changes it,
 * and never frees what jansson allocated with anything but jansson. So a
 * JSON text the library keeps or hands out is serialised into a buffer of
 * ours (json_dumpb), freed with sc__free / sc_free like every other. */
#include "core/json.h"

#include "core/core.h"

char *sc__json_dump(const json_t *j, size_t flags) {
  if (!j) return NULL;
  size_t n = json_dumpb(j, NULL, 0, flags);
  if (n == 0) return NULL;
  char *s = sc__malloc(n + 1);
  if (!s) return NULL;
  if (json_dumpb(j, s, n, flags) != n) {
    sc__free(s);
    return NULL;
  }
  s[n] = '\0';
  return s;
}
