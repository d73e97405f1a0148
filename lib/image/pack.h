/* Packed images: an image held run-length coded while nothing looks at
 * it, for snapshots a later step compares with. Screens are mostly flat
 * colour, so a flat 1225x813 map of 4 MB packs to a few KB; noise packs
 * to the pixels plus one byte per 128 of them. Internal to the library
 * (the runner's snapshots). */
#ifndef SC_IMAGE_PACK_H
#define SC_IMAGE_PACK_H

#include <stddef.h>

#include "stepcheck/image.h"

typedef struct sc__packed {
  int width, height;
  unsigned char *data; /* the rows, run-length coded (pack.c) */
  size_t len;
  size_t *rows;        /* offset of each row's code in data */
} sc__packed;

/* Pack img; *pk is replaced (freed first). 0 or SC_ENOMEM. */
int sc__pack(sc__packed *pk, const sc_image *img);
/* Unpack into a new image. 0, SC_ENOMEM, or SC_EFORMAT when the data is
 * not what sc__pack made. */
int sc__unpack(sc_image **out, const sc__packed *pk);
/* Unpack only rect r (inside the image) into a new r.w x r.h image. */
int sc__unpack_rect(sc_image **out, const sc__packed *pk, sc_rect r);
/* Copy src into *dst (replaced). 0 or SC_ENOMEM. */
int sc__packed_dup(sc__packed *dst, const sc__packed *src);
/* Equal packed images hold equal pixels, and the code is a function of
 * the pixels: equal pixels pack to equal bytes. */
int sc__packed_equal(const sc__packed *a, const sc__packed *b);
void sc__packed_free(sc__packed *pk);

#endif
