/* Taking a capture into a series (rest.h, sc__rest_take): the same bytes
 * as the last capture are the same pixels; the same bytes as a known frame
 * are copied, not decoded; other bytes are decoded and compared. */
#include <string.h>

#include "core/core.h"
#include "image/pack.h"
#include "rest/rest.h"

static int same_capture(const sc__frame *k, sc_rect clip, uint64_t h, size_t len) {
  return sc__frame_has(k) && k->rawhash == h && k->rawlen == len &&
         !memcmp(&k->clip, &clip, sizeof clip);
}

int sc__rest_take(const sc__io *io, sc__frame *f, sc__frame *old, sc_rect clip, const char *raw,
                    size_t len, int *same, const sc__frame *also) {
  *same = 0;
  uint64_t h = sc__hash64(raw, len);
  if (same_capture(f, clip, h, len)) {
    *same = 1; /* the bytes as received are the last capture's: so are its pixels */
    return 0;
  }
  sc__frame n = {.clip = clip, .rawhash = h, .rawlen = len};
  int rc;
  if (same_capture(also, clip, h, len)) { /* same bytes, same pixels: copy, do not decode */
    rc = also->img ? sc__frame_crop(&n.img, also, clip) : sc__packed_dup(&n.pk, &also->pk);
    if (rc == 0) rc = sc__frame_pixels(&n);
  } else {
    rc = io->decode(io->ctx, &n.img, raw, len, clip);
  }
  /* Other bytes, maybe the same picture. A held (packed) frame compares
   * packed: equal pixels pack to equal bytes, and n is packed anyway to be
   * held later. */
  int eq = 0;
  if (rc == 0 && sc__frame_has(f) && !memcmp(&f->clip, &clip, sizeof clip)) {
    if (f->img) {
      eq = sc__frame_equal(f, &n, clip);
    } else {
      if (!n.pk.data) rc = sc__pack(&n.pk, n.img);
      eq = rc == 0 && sc__packed_equal(&f->pk, &n.pk);
    }
  }
  if (rc < 0 || eq) {
    sc__frame_free(&n);
    if (rc < 0) return rc;
    f->rawhash = h; /* still the same capture */
    f->rawlen = len;
    *same = 1;
    return 0;
  }
  if (old)
    sc__frame_move(old, f);
  else
    sc__frame_free(f);
  sc__frame_move(f, &n);
  return 0;
}
