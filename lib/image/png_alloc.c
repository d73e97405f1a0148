/* libpng (and, through it, zlib) allocates through the library's hook. */
#include "core/core.h"
#include "image/image_priv.h"

png_voidp sc__png_malloc(png_structp png, png_alloc_size_t n) {
  void *p = sc__malloc(n);
  if (!p) {
    int *oom = png_get_mem_ptr(png);
    if (oom) *oom = 1;
  }
  return p;
}

void sc__png_free(png_structp png, png_voidp p) {
  (void)png;
  sc__free(p);
}
