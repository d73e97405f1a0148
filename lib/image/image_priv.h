/* Internal helpers of the image layer. Not installed. */
#ifndef SC_IMAGE_INT_H
#define SC_IMAGE_INT_H

#include <png.h>

#include "stepcheck/image.h"
#include "core/opts.h"

/* New width x height image with stride width * 4; pixels zeroed only when
 * zero is non-zero (the decoder overwrites every byte). SC_ETOOBIG when the
 * byte size overflows size_t. */
int sc__image_alloc(sc_image **out, int width, int height, int zero);
/* Every sc_image the library makes is the first member of this box, which
 * also says how many bytes its pixel block has (for the pool). */
typedef struct sc__image_box {
  sc_image img;
  size_t cap;
} sc__image_box;

/* Non-zero when r is a valid rectangle lying entirely inside img. */
int sc__image_rect_inside(const sc_image *img, sc_rect r);

/* libpng allocation callbacks that route through sc__malloc / sc__free.
 * mem_ptr must point at an int that sc__png_malloc sets to 1 when an
 * allocation failed, so an error that follows can be reported as SC_ENOMEM. */
png_voidp sc__png_malloc(png_structp png, png_alloc_size_t n);
void sc__png_free(png_structp png, png_voidp p);

/* The 5x7 label font (font5x7.c): 7 rows of 5 bits for c ("?" when none). */
const unsigned char *sc__font5x7(char c);

/* Versioned options (core/opts.h). */
SC__OPTS_DECLARE(png_limits);
SC__OPTS_DECLARE(diff_options);

#endif
