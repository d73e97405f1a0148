/* Fuzz target: the text reader (lib/text/read.c) with the builtin "josm"
 * glyph set and the scale-bar reader (lib/text/scalebar.c, profile "josm")
 * on images built from the input.
 *
 * Input: [w-1][h-1][flags][rx][ry][rw][rh] then pixels.
 *   flags & 1      one grey byte per pixel, else one bit per pixel (ink
 *                  white, background from flags >> 2 & 3)
 *   flags & 2      region rx, ry (signed), rw, rh, else the whole image
 *   flags & 16     lenient options (confidence 0, 1000 stray pixels)
 * Pixels the input does not cover are background.
 * Invariants checked: documented return codes only; a text result holds a
 * terminated text of at most SC_TEXT_MAX_GLYPHS glyphs whose confidence is
 * within 0..1; a scale reading is finite and positive. */
#include <math.h>
#include <string.h>

#include "stepcheck/text.h"
#include "fuzz.h"

static const uint8_t backgrounds[4] = {0x00, 0x80, 0xc8, 0xe0};

static sc_glyphset *josm(void) {
  static sc_glyphset *gs;
  if (!gs && sc_glyphset_load(&gs, "josm") != 0) abort();
  return gs;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 7) return 0;
  int w = data[0] + 1, h = data[1] + 1, flags = data[2];
  sc_rect r = {0, 0, w, h};
  if (flags & 2) r = (sc_rect){(int8_t)data[3], (int8_t)data[4], data[5], data[6]};
  const uint8_t *px = data + 7;
  size_t npx = size - 7;
  sc_image *img;
  if (sc_image_new(&img, w, h) != 0) return 0;
  uint8_t bg = backgrounds[(flags >> 2) & 3];
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      size_t i = (size_t)y * (size_t)w + (size_t)x;
      uint8_t v = bg;
      if (flags & 1)
        v = i < npx ? px[i] : bg;
      else if (i / 8 < npx && (px[i / 8] >> (i % 8) & 1))
        v = 255;
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      p[0] = p[1] = p[2] = v;
      p[3] = 255;
    }
  sc_text_options o = SC_TEXT_OPTIONS_INIT;
  if (flags & 16) {
    o.min_confidence = 0;
    o.max_stray_px = 1000;
  }

  sc_text_result t;
  int rc = sc_text_read(&t, img, r, josm(), &o);
  FUZZ_CHECK(rc == 0 || rc == SC_ENOTEXT || rc == SC_EUNREADABLE || rc == SC_EINVAL);
  if (rc == 0) {
    FUZZ_CHECK(memchr(t.text, '\0', sizeof t.text) && t.nglyphs <= SC_TEXT_MAX_GLYPHS);
    FUZZ_CHECK(t.confidence >= 0 && t.confidence <= 1 && t.confidence >= o.min_confidence);
    for (size_t i = 0; i < t.nglyphs; i++)
      FUZZ_CHECK(t.glyphs[i].confidence >= 0 && t.glyphs[i].confidence <= 1);
  }

  sc_scale_reading s;
  rc = sc_scalebar_read(&s, img, r, "josm", &o);
  FUZZ_CHECK(rc == 0 || rc == SC_ENOTEXT || rc == SC_EUNREADABLE || rc == SC_EINVAL);
  if (rc == 0) {
    FUZZ_CHECK(memchr(s.text, '\0', sizeof s.text) && memchr(s.unit, '\0', sizeof s.unit));
    FUZZ_CHECK(s.bar_px > 0 && isfinite(s.metres_per_px) && s.metres_per_px > 0);
    FUZZ_CHECK(isfinite(s.rel_err) && s.rel_err > 0);
  }
  sc_image_free(img);
  return 0;
}
