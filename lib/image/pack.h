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
} sc__packed;

/* Pack img; *pk is replaced (freed first). 0 or SC_ENOMEM. */
int sc__pack(sc__packed *pk, const sc_image *img);
/* Unpack into a new image. 0, SC_ENOMEM, or SC_EFORMAT when the data is
 * not what sc__pack made. */
int sc__unpack(sc_image **out, const sc__packed *pk);
void sc__packed_free(sc__packed *pk);

#endif
