/* The probe hash: a 64-bit hash of an image's pixels, defined so that the
 * page can compute the same value over a 2D canvas's getImageData() in
 * JavaScript (lib/page/probe.c). Equal values from a screenshot and from
 * the canvas mean the screen showed exactly the canvas's pixels; equal
 * values from the canvas at two times mean it did not change in between
 * (up to a 2^-64 chance of collision). Internal to the library. */
#ifndef SC_IMAGE_CANVAS_HASH_H
#define SC_IMAGE_CANVAS_HASH_H

#include <stdint.h>

#include "stepcheck/image.h"

/* Every pixel, row by row, as the 32-bit little-endian word R | G<<8 |
 * B<<16 | A<<24, through two lanes:
 *   a = (a ^ w) * 0x01000193          (FNV-1a, from 0x811c9dc5)
 *   b = (b ^ w) * 0x5bd1e995; b ^= b >> 15   (from 0x9747b28c)
 * all mod 2^32; the result is a << 32 | b. */
#define SC__CANVAS_HASH_A0 0x811c9dc5u
#define SC__CANVAS_HASH_B0 0x9747b28cu
#define SC__CANVAS_HASH_PA 0x01000193u
#define SC__CANVAS_HASH_PB 0x5bd1e995u
uint64_t sc__canvas_hash(const sc_image *img);

#endif
