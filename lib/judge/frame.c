/* Frames: a capture of a guest rectangle, and exact comparisons on them. */
#include <string.h>

#include "core/core.h"
#include "judge.h"

void sc__frame_free(sc__frame *f) {
  sc_image_free(f->img);
  f->img = NULL;
  f->rawhash = 0;
  f->rawlen = 0;
}

void sc__frame_move(sc__frame *dst, sc__frame *src) {
  sc__frame_free(dst);
  *dst = *src;
  src->img = NULL;
  src->rawhash = 0;
  src->rawlen = 0;
}

int sc__frame_sub(const sc__frame *f, sc_rect r, sc_rect *out) {
  if (!f || !f->img) return -1;
  sc_rect s = {r.x - f->clip.x, r.y - f->clip.y, r.w, r.h};
  if (s.x < 0 || s.y < 0 || s.x + s.w > f->img->width || s.y + s.h > f->img->height) return -1;
  *out = s;
  return 0;
}

int sc__frame_equal(const sc__frame *a, const sc__frame *b, sc_rect r) {
  sc_rect ra, rb;
  if (sc__frame_sub(a, r, &ra) < 0 || sc__frame_sub(b, r, &rb) < 0) return 0;
  for (int y = 0; y < r.h; y++) {
    const uint8_t *pa = a->img->px + (size_t)(ra.y + y) * a->img->stride + (size_t)ra.x * 4;
    const uint8_t *pb = b->img->px + (size_t)(rb.y + y) * b->img->stride + (size_t)rb.x * 4;
    if (memcmp(pa, pb, (size_t)r.w * 4) != 0) return 0;
  }
  return 1;
}
