/* Fuzz target: PNG decoding (lib/image/png_decode.c) under tight limits,
 * with chunk and zlib checksums verified and skipped.
 *
 * Input: byte 0 = flags, the rest = the PNG file.
 *   flags & 1   skip_checksums
 *   flags & 2   sc_png_limits version 1 (ends before skip_checksums)
 *   flags & 4   tight limits: 64 x 64 and 8 KiB of RGBA, else 512 x 512, 1 MiB
 * Invariants checked: success gives an image within the limits whose pixels
 * survive an encode and decode unchanged; failure gives no image and one of
 * the documented errors. */
#include <string.h>

#include "stepcheck/image.h"
#include "fuzz.h"

static volatile unsigned sink; /* keeps the pixel sum from being optimised away */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int flags = data[0];
  sc_png_limits lim = SC_PNG_LIMITS_INIT;
  lim.skip_checksums = flags & 1;
  if (flags & 2) lim.version = 1;
  lim.max_width = lim.max_height = flags & 4 ? 64 : 512;
  lim.max_bytes = flags & 4 ? 8 << 10 : 1 << 20;
  sc_image *img = (sc_image *)1;
  int rc = sc_image_decode_png(&img, data + 1, size - 1, &lim);
  if (rc != 0) {
    FUZZ_CHECK(img == NULL);
    FUZZ_CHECK(rc == SC_EFORMAT || rc == SC_ETOOBIG || rc == SC_ENOMEM);
    return 0;
  }
  FUZZ_CHECK(img && img->width > 0 && img->height > 0);
  FUZZ_CHECK(img->width <= lim.max_width && img->height <= lim.max_height);
  FUZZ_CHECK((size_t)img->width * (size_t)img->height * 4 <= lim.max_bytes);
  FUZZ_CHECK(img->stride >= (size_t)img->width * 4);
  /* Touch every decoded byte: uninitialised rows show under valgrind/MSan. */
  unsigned sum = 0;
  for (int y = 0; y < img->height; y++)
    for (size_t x = 0; x < (size_t)img->width * 4; x++) sum += img->px[(size_t)y * img->stride + x];
  void *png = NULL;
  size_t len = 0;
  FUZZ_CHECK(sc_image_encode_png(&png, &len, img) == 0);
  sc_image *back = NULL;
  FUZZ_CHECK(sc_image_decode_png(&back, png, len, NULL) == 0);
  FUZZ_CHECK(back->width == img->width && back->height == img->height);
  for (int y = 0; y < img->height; y++)
    FUZZ_CHECK(memcmp(back->px + (size_t)y * back->stride, img->px + (size_t)y * img->stride,
                      (size_t)img->width * 4) == 0);
  sc_image_free(back);
  sc_free(png);
  sc_image_free(img);
  sink = sum;
  return 0;
}
