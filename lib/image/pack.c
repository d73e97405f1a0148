/* Packed images (pack.h): each row as runs of one repeated pixel and runs
 * of literal pixels (a PackBits-like code over 32-bit pixels). Screens are
 * mostly flat colour, so this is small where it matters and costs a pass at
 * memory speed both ways (deflate level 1 took ~4 ms per MB to pack);
 * noise costs 1 byte per 128 pixels more than the pixels themselves.
 *
 * Code, per row: a byte T.
 *   T < 0x80: T + 1 literal pixels follow (4 bytes each).
 *   T >= 0x80: with the next byte B, ((T & 0x7f) << 8 | B) + 2 copies of
 *              the one pixel that follows (2 .. 32769).
 * Runs never cross rows, so a row decodes on its own. */
#include "pack.h"

#include <string.h>

#include "core/core.h"
#include "image_int.h"

#define LIT_MAX 128
#define REP_MAX 32769

void sc__packed_free(sc__packed *pk) {
  sc__free(pk->data);
  memset(pk, 0, sizeof *pk);
}

static size_t pack_row(unsigned char *o, const uint32_t *px, int w) {
  size_t n = 0;
  int x = 0;
  while (x < w) {
    int run = 1;
    while (x + run < w && run < REP_MAX && px[x + run] == px[x]) run++;
    if (run >= 2) {
      int c = run - 2;
      o[n++] = (unsigned char)(0x80 | (c >> 8));
      o[n++] = (unsigned char)(c & 0xff);
      memcpy(o + n, &px[x], 4);
      n += 4;
      x += run;
      continue;
    }
    /* literals up to the next pair of equal pixels */
    int lit = 1;
    while (x + lit < w && lit < LIT_MAX && !(x + lit + 1 < w && px[x + lit] == px[x + lit + 1]))
      lit++;
    o[n++] = (unsigned char)(lit - 1);
    memcpy(o + n, &px[x], (size_t)lit * 4);
    n += (size_t)lit * 4;
    x += lit;
  }
  return n;
}

int sc__pack(sc__packed *pk, const sc_image *img) {
  sc__packed_free(pk);
  size_t w = (size_t)img->width, h = (size_t)img->height;
  /* worst case: a literal token per 128 pixels */
  size_t row_max = w * 4 + (w + LIT_MAX - 1) / LIT_MAX;
  if (h && row_max > SIZE_MAX / h) return sc__err(SC_ETOOBIG, "pack: image too large");
  unsigned char *out = sc__malloc(row_max * h + 1);
  uint32_t *row = sc__malloc(w * 4 + 4);
  if (!out || !row) {
    sc__free(out);
    sc__free(row);
    return sc__err(SC_ENOMEM, "pack: out of memory");
  }
  size_t len = 0;
  for (size_t y = 0; y < h; y++) {
    memcpy(row, img->px + y * img->stride, w * 4); /* aligned 32-bit pixels */
    len += pack_row(out + len, row, img->width);
  }
  sc__free(row);
  unsigned char *fit = sc__realloc(out, len ? len : 1);
  pk->data = fit ? fit : out;
  pk->len = len;
  pk->width = img->width;
  pk->height = img->height;
  return 0;
}

int sc__unpack(sc_image **out, const sc__packed *pk) {
  *out = NULL;
  sc_image *img = NULL;
  int rc = sc__image_alloc(&img, pk->width, pk->height, 0);
  if (rc < 0) return rc;
  const unsigned char *p = pk->data, *end = pk->data + pk->len;
  for (int y = 0; y < pk->height; y++) {
    unsigned char *o = img->px + (size_t)y * img->stride;
    int x = 0;
    while (x < pk->width) {
      if (p >= end) goto damaged;
      unsigned t = *p++;
      if (t < 0x80) {
        size_t lit = t + 1;
        if (lit > (size_t)(pk->width - x) || (size_t)(end - p) < lit * 4) goto damaged;
        memcpy(o + (size_t)x * 4, p, lit * 4);
        p += lit * 4;
        x += (int)lit;
      } else {
        if (end - p < 5) goto damaged;
        int run = (int)(((t & 0x7f) << 8) | *p++) + 2;
        if (run > pk->width - x) goto damaged;
        for (int k = 0; k < run; k++) memcpy(o + (size_t)(x + k) * 4, p, 4);
        p += 4;
        x += run;
      }
    }
  }
  if (p != end) goto damaged;
  *out = img;
  return 0;
damaged:
  sc_image_free(img);
  return sc__err(SC_EFORMAT, "unpack: packed image is damaged");
}
