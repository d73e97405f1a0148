/* The probe hash (canvas_hash.h): the C side of the definition the page's
 * JavaScript computes over a canvas. */
#include "canvas_hash.h"

uint64_t sc__canvas_hash(const sc_image *img) {
  uint32_t a = SC__CANVAS_HASH_A0, b = SC__CANVAS_HASH_B0;
  for (int y = 0; y < img->height; y++) {
    const uint8_t *p = img->px + (size_t)y * img->stride;
    for (int x = 0; x < img->width; x++, p += 4) {
      uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                   (uint32_t)p[3] << 24;
      a = (a ^ w) * SC__CANVAS_HASH_PA;
      b = (b ^ w) * SC__CANVAS_HASH_PB;
      b ^= b >> 15;
    }
  }
  return (uint64_t)a << 32 | b;
}
