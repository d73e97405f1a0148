/* Fuzz target: glyph-set loading (lib/text/glyphset.c, the *.glyphs format
 * of docs/text.md); a set that loads is then used for one text read on a
 * fixed grey pattern, so odd glyph shapes (width 1, full ascent, deepest
 * descender, long names) reach the reader too.
 * Invariants checked: success gives a set and failure none, with a
 * documented error; a read returns a documented code (SC_EDATA only for a
 * set without glyphs) and a terminated text. */
#include <string.h>

#include "stepcheck/text.h"
#include "fuzz.h"

static sc_image *pattern(void) {
  static sc_image *img;
  if (!img && sc_image_new(&img, 96, 24) == 0) {
    for (int y = 0; y < img->height; y++)
      for (int x = 0; x < img->width; x++) {
        uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
        uint8_t v = (x % 7 < 3 && y % 11 < 8) || (x * 5 + y * 3) % 13 == 0 ? 255 : (uint8_t)(x * 37 + y * 91);
        p[0] = p[1] = p[2] = v;
        p[3] = 255;
      }
  }
  return img;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  sc_glyphset *gs = (sc_glyphset *)1;
  int rc = sc_glyphset_parse(&gs, (const char *)data, size);
  if (rc != 0) {
    FUZZ_CHECK(gs == NULL);
    FUZZ_CHECK(rc == SC_EFORMAT || rc == SC_ENOMEM || rc == SC_ETOOBIG);
    return 0;
  }
  FUZZ_CHECK(gs != NULL);
  sc_image *img = pattern();
  if (img) {
    sc_text_result t;
    sc_rect r = {0, 0, img->width, img->height};
    rc = sc_text_read(&t, img, r, gs, NULL);
    /* an empty set is refused by the reader, as documented */
    FUZZ_CHECK(rc == 0 || rc == SC_ENOTEXT || rc == SC_EUNREADABLE ||
               (rc == SC_EDATA && sc_glyphset_count(gs) == 0));
    if (rc == 0 || rc == SC_EUNREADABLE)
      FUZZ_CHECK(memchr(t.text, '\0', sizeof t.text) && t.nglyphs <= SC_TEXT_MAX_GLYPHS);
  }
  sc_glyphset_free(gs);
  return 0;
}
