/* stepcheck — RGBA images, PNG decode/encode with limits, region diff.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_IMAGE_H
#define STEPCHECK_IMAGE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** 8-bit RGBA image, rows top to bottom, px[y * stride + x * 4 + c]. */
typedef struct sc_image {
  int width, height;
  size_t stride; /**< bytes per row, >= width * 4 */
  uint8_t *px;
} sc_image;

/** Limits applied while decoding PNG: anything beyond fails with SC_ETOOBIG. */
typedef struct sc_png_limits {
  unsigned version;
  int max_width;        /**< default 16384 */
  int max_height;       /**< default 16384 */
  size_t max_bytes;     /**< decoded RGBA bytes, default 256 MiB */
  /** (version 2) Non-zero: do not verify chunk CRCs and zlib's Adler-32
   * (a quarter of the decode time). For PNGs from a local producer over a
   * checked transport, e.g. Chromium's screenshots over CDP, which is how
   * the runner decodes its captures. Default 0: verify. */
  int skip_checksums;
} sc_png_limits;
/* Versions 1 (ends before skip_checksums) and 2 are accepted. */
#define SC_PNG_LIMITS_VERSION 2
#define SC_PNG_LIMITS_INIT {SC_PNG_LIMITS_VERSION, 16384, 16384, (size_t)256 << 20, 0}
/**
 * Fill *opts with the defaults of sc_png_limits for a caller built against
 * `version` (1 .. the library's): the same as the INIT macro, for bindings.
 * SC_EINVAL for a NULL opts or an unknown version.
 */
SC_EXTERN int sc_png_limits_init(sc_png_limits *opts, unsigned version);

/**
 * New image, all pixels (0,0,0,0), stride width * 4.
 * @param out  the image, the caller's (sc_image_free); NULL on failure.
 * @return 0; SC_EINVAL for a negative size, SC_ETOOBIG, SC_ENOMEM.
 */
SC_EXTERN int sc_image_new(sc_image **out, int width, int height);
/** Free an image; NULL is fine. */
SC_EXTERN void sc_image_free(sc_image *img);

/**
 * Decode a PNG held in memory into 8-bit RGBA (any PNG colour type and bit
 * depth: palette and tRNS become alpha, 16-bit is scaled with rounding,
 * interlaced is handled). The size in IHDR is checked against the limits
 * before anything is allocated; a file whose chunks claim more bytes than it
 * holds is refused before libpng sees it.
 * @param out  the image, the caller's (sc_image_free); NULL on failure.
 * @param buf  the PNG bytes (borrowed).
 * @param lim  NULL for SC_PNG_LIMITS_INIT.
 * @return 0; SC_EFORMAT for a broken file (truncated, bad CRC, not PNG),
 *         SC_ETOOBIG beyond the limits, SC_ENOMEM, SC_EINVAL for bad
 *         arguments or limits; sc_errmsg() says which ("png: CRC error in IDAT").
 */
SC_EXTERN int sc_image_decode_png(sc_image **out, const void *buf, size_t len,
                                  const sc_png_limits *lim);
/** Decode a PNG file, as sc_image_decode_png; errors name the path (SC_EIO
 *  when it cannot be read). */
SC_EXTERN int sc_image_load_png(sc_image **out, const char *path,
                                const sc_png_limits *lim);
/**
 * Encode as 8-bit RGBA PNG (zlib's fastest level, no filtering) into a new
 * buffer.
 * @param out  the PNG bytes, the caller's (sc_free).
 * @param len  out: their count.
 * @return 0; SC_EINVAL for an empty image, SC_ENOMEM.
 */
SC_EXTERN int sc_image_encode_png(void **out, size_t *len, const sc_image *img);
/** Write a PNG file (written to path.tmp then renamed, so readers never see
 *  half a file). @return 0, or as sc_image_encode_png, SC_EIO; errors name the path. */
SC_EXTERN int sc_image_save_png(const sc_image *img, const char *path);

/** Copy of region r of src into a new image (the caller's, sc_image_free).
 *  @return 0; SC_EINVAL when r does not lie inside src, SC_ENOMEM. */
SC_EXTERN int sc_image_crop(sc_image **out, const sc_image *src, sc_rect r);

/** Pixel (x, y) as 0xRRGGBBAA; 0 when (x, y) lies outside the image. */
SC_EXTERN uint32_t sc_image_pixel(const sc_image *img, int x, int y);

/** 64-bit FNV-1a hash of the RGB bytes of region r, row by row (alpha is
 *  ignored); r is clipped to the image. */
SC_EXTERN uint64_t sc_image_hash(const sc_image *img, sc_rect r);

/** How two regions are compared. */
typedef struct sc_diff_options {
  unsigned version;
  /** Per-pixel colour threshold 0..1 on the YIQ distance (as pixelmatch):
   *  0 = any difference counts; default 0.1. */
  double threshold;
} sc_diff_options;
#define SC_DIFF_OPTIONS_VERSION 1
#define SC_DIFF_OPTIONS_INIT {SC_DIFF_OPTIONS_VERSION, 0.1}
/**
 * Fill *opts with the defaults of sc_diff_options for a caller built against
 * `version` (1 .. the library's): the same as the INIT macro, for bindings.
 * SC_EINVAL for a NULL opts or an unknown version.
 */
SC_EXTERN int sc_diff_options_init(sc_diff_options *opts, unsigned version);

/**
 * Compare region ra of a with region rb of b (same w and h, each inside its
 * image). Alpha is ignored (screenshots are opaque). A pixel differs when its
 * squared YIQ distance exceeds 35215 * threshold^2 (pixelmatch); with
 * threshold 0 any RGB difference counts.
 * @param ndiff  out: number of pixels whose YIQ distance exceeds the threshold.
 * @param bbox   out (optional): bounding box of differing pixels, relative to
 *               the region; w = h = 0 when none.
 * @param diff   out (optional): a new image of the region size: b dimmed to
 *               grey (its luma faded 75% toward white), differing pixels
 *               pure red (255,0,0,255); the caller's (sc_image_free).
 * @param opts   NULL for SC_DIFF_OPTIONS_INIT.
 * @return 0; SC_EINVAL for regions outside their image or of different
 *         sizes, or a threshold outside 0..1; SC_ENOMEM.
 */
SC_EXTERN int sc_image_diff(size_t *ndiff, sc_rect *bbox, sc_image **diff,
                            const sc_image *a, sc_rect ra, const sc_image *b,
                            sc_rect rb, const sc_diff_options *opts);

/**
 * Count pixels of region r whose colour is within tol (max abs per channel,
 * RGB only) of rgb (0xRRGGBB); r is clipped to the image. 0 for a negative tol.
 */
SC_EXTERN size_t sc_image_count_color(const sc_image *img, sc_rect r,
                                      uint32_t rgb, int tol);

/** Where a template was found: its top-left corner in the image, and the
 *  fraction of its pixels that matched. */
typedef struct sc_match {
  int x, y;
  double score;
} sc_match;

/**
 * Find the template tpl in img inside `within` (clipped to img; w or h <= 0
 * for the whole image). A position matches when at least min_score (0..1]
 * of the template's opaque pixels (alpha >= 128; others are "don't care")
 * are within tol (0..255, max abs per RGB channel) of the image there.
 * Matches overlapping a better one are the same place: the best of them is
 * kept. Fills out[0..max) best first (ties: top to bottom, left to right).
 * @return the number of distinct places found (which may exceed max: only
 *         max are filled); SC_EINVAL for NULL images, a template without an
 *         opaque pixel, tol or min_score out of range; SC_ETOOBIG when more
 *         than 4096 positions match (a template that fits nearly anywhere:
 *         say so instead of counting them) or a template larger than
 *         SC_SEARCH_MAX_TEMPLATE_PIXELS; SC_ETIMEDOUT after
 *         SC_SEARCH_TIME_LIMIT_MS. Counts every place scoring min_score:
 *         sc_image_search decides "found" with a margin (what locators use).
 */
SC_EXTERN int sc_image_find(sc_match *out, int max, const sc_image *img, const sc_image *tpl,
                            sc_rect within, int tol, double min_score);

/** How sc_image_search looks for a template. */
typedef struct sc_search_options {
  unsigned version;
  sc_rect within;        /**< where to look (clipped to the image); w or h <= 0: everywhere */
  int tol;               /**< 0..255, max abs difference per RGB channel; default 48 */
  double min_score;      /**< (0, 1]: fraction of the template's opaque pixels within tol
                              for a place to match; default 0.99 */
  double margin;         /**< [0, 0.5]: the best place must score more than margin above
                              every other place to be found; default SC_SEARCH_MARGIN */
  double time_limit_ms;  /**< > 0: the search gives up after this much CPU time of its
                              thread (SC_ETIMEDOUT; CPU, so a busy machine does not cut
                              it short); default SC_SEARCH_TIME_LIMIT_MS */
  volatile int *cancel;  /**< non-zero (e.g. set from a signal handler) ends the search
                              within a few ms with SC_ECANCELED; borrowed, NULL = never */
} sc_search_options;
/** The default margin: measured on JOSM through noVNC and on the map app
 *  (docs/scenario.md, "Locators that never guess"). */
#define SC_SEARCH_MARGIN 0.02
/** The default limit of one search, in ms of CPU time (a usual template
 *  on a whole 1600x900 guest takes tens of ms). */
#define SC_SEARCH_TIME_LIMIT_MS 5000.0
/** The largest template searched, in pixels (256 x 256): a larger one is SC_ETOOBIG. */
#define SC_SEARCH_MAX_TEMPLATE_PIXELS 65536
#define SC_SEARCH_OPTIONS_VERSION 1
#define SC_SEARCH_OPTIONS_INIT                                                         \
  {SC_SEARCH_OPTIONS_VERSION, {0, 0, 0, 0}, 48, 0.99, SC_SEARCH_MARGIN,               \
   SC_SEARCH_TIME_LIMIT_MS, NULL}
/** Fill *opts with the defaults for a caller built against `version` (1 .. the
 *  library's). SC_EINVAL for a NULL opts or an unknown version. */
SC_EXTERN int sc_search_options_init(sc_search_options *opts, unsigned version);

/**
 * Look for the template tpl in img and decide whether it is in exactly one
 * place, never by luck: a place scores the fraction of the template's
 * opaque pixels (alpha >= 128) within tol of the image there; places that
 * overlap a better one are the same place. The template is found when its
 * best place scores at least min_score AND beats every other place by more
 * than margin, so noise that lowers some of several identical objects
 * cannot make one of them unique.
 * opts: NULL for SC_SEARCH_OPTIONS_INIT.
 * @param out filled best first (ties: top to bottom, left to right) with up
 *        to max places and their exact scores: the contenders, then (when
 *        nothing was found) the best near misses (looked for with the time
 *        that is left; may be fewer).
 * @param filled set to the number of entries written to out (may be NULL).
 * @return the number of places that contend: 1 found (out[0]); 0 not
 *         found (no place scores min_score); > 1 ambiguous (places within
 *         margin of the best). SC_EINVAL for NULL images, bad options or a
 *         template without an opaque pixel; SC_ETOOBIG for a template larger
 *         than SC_SEARCH_MAX_TEMPLATE_PIXELS or one that matches more than
 *         4096 positions; SC_ETIMEDOUT after time_limit_ms; SC_ECANCELED when
 *         *cancel became non-zero. The message (sc_errmsg) says which.
 */
SC_EXTERN int sc_image_search(sc_match *out, int max, int *filled, const sc_image *img,
                              const sc_image *tpl, const sc_search_options *opts);

/**
 * Make a template of what has one colour (text, an icon's ink) on a
 * background that may vary: every pixel farther than tol (0..255, max abs
 * per RGB channel) from rgb (0xRRGGBB) becomes transparent (alpha 0, a
 * "don't care" pixel for sc_image_find); the others become opaque.
 * @return the number of pixels kept (opaque); SC_EINVAL for a NULL image
 *         or tol out of range.
 */
SC_EXTERN long sc_image_keep_color(sc_image *img, uint32_t rgb, int tol);

/* Drawing, for pictures people look at (stepcheck inspect). Everything is
 * clipped to the image; colours are 0xRRGGBB, drawn opaque. */
/** A one-pixel outline of r. */
SC_EXTERN int sc_image_draw_rect(sc_image *img, sc_rect r, uint32_t rgb);
/** A cross of arm pixels (1..1000) each way through the pixel at `at`. */
SC_EXTERN int sc_image_draw_cross(sc_image *img, sc_point at, int arm, uint32_t rgb);
/** text in a 5x7 pixel font (6 px per character; letters upper case) with its
 * top-left at (x, y), on a box of colour bg. */
SC_EXTERN int sc_image_draw_text(sc_image *img, int x, int y, const char *text, uint32_t rgb,
                                 uint32_t bg);

#ifdef __cplusplus
}
#endif
#endif
