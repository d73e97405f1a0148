/* Packed images: an image held deflated (zlib, fastest level) while nothing
 * looks at it, for snapshots a later step compares with. Screens are mostly
 * flat colour, so a 1225x813 map of 4 MB packs to tens of KB; noisy content
 * packs less, never worse than the pixels plus a few bytes per 16 KB.
 * Internal to the library (the runner's snapshots). */
#ifndef SC_IMAGE_PACK_H
#define SC_IMAGE_PACK_H

#include <stddef.h>

#include "stepcheck/image.h"

typedef struct sc__packed {
  int width, height;
  unsigned char *data; /* deflate stream of the rows, tightly packed RGBA */
  size_t len;
} sc__packed;

/* Pack img; *pk is replaced (freed first). 0 or SC_ENOMEM. */
int sc__pack(sc__packed *pk, const sc_image *img);
/* Unpack into a new image. 0, SC_ENOMEM, or SC_EFORMAT when the data is
 * not what sc__pack made. */
int sc__unpack(sc_image **out, const sc__packed *pk);
void sc__packed_free(sc__packed *pk);

#endif
