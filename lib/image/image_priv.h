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

/* A template's opaque pixel (offset and colour) for matching, with its
 * rank: the distance from the template's mean colour (larger first). */
typedef struct sc__tpx {
  int dx, dy;
  uint8_t r, g, b;
  int rank;
} sc__tpx;
/* The template's opaque pixels (alpha >= 128), most distinctive first, in
 * a new array (sc__free); *n their number. NULL when out of memory. */
sc__tpx *sc__tpl_pixels(const sc_image *tpl, size_t *n);
/* Non-zero when the RGB at p is within tol of t's on every channel. */
static inline int sc__tpx_near(const uint8_t *p, const sc__tpx *t, int tol) {
  int dr = p[0] - t->r, dg = p[1] - t->g, db = p[2] - t->b;
  return dr <= tol && dr >= -tol && dg <= tol && dg >= -tol && db <= tol && db >= -tol;
}
/* Every position of tpl in img inside within whose score (fraction of
 * opaque pixels within tol) is at least threshold, best first, places
 * overlapping a better one dropped: *out (sc__free), *n. Stops with
 * SC_ETIMEDOUT after time_limit_ms, SC_ECANCELED when *cancel is set,
 * SC_ETOOBIG beyond 4096 matching positions or a template larger than
 * SC_SEARCH_MAX_TEMPLATE_PIXELS; messages set. */
int sc__image_places(sc_match **out, size_t *n, const sc_image *img, const sc_image *tpl,
                     sc_rect within, int tol, double threshold, double time_limit_ms,
                     volatile int *cancel);

/* Versioned options (core/opts.h). */
SC__OPTS_DECLARE(png_limits);
SC__OPTS_DECLARE(diff_options);
SC__OPTS_DECLARE(search_options);

#endif
