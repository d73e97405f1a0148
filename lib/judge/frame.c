/* Frames: a capture of a guest rectangle, held decoded or packed, and exact
 * comparisons on them. */
#include <limits.h>
#include <string.h>

#include "core/core.h"
#include "judge.h"

void sc__frame_free(sc__frame *f) {
  sc_image_free(f->img);
  sc__packed_free(&f->pk);
  f->img = NULL;
  f->rawhash = 0;
  f->rawlen = 0;
}

void sc__frame_move(sc__frame *dst, sc__frame *src) {
  sc__frame_free(dst);
  *dst = *src;
  memset(src, 0, sizeof *src);
}

int sc__frame_hold(sc__frame *f) {
  if (!f->img) return 0;
  if (!f->pk.data) {
    int rc = sc__pack(&f->pk, f->img);
    if (rc < 0) return rc;
  }
  sc_image_free(f->img);
  f->img = NULL;
  return 0;
}

int sc__frame_pixels(sc__frame *f) {
  if (f->img || !f->pk.data) return 0;
  return sc__unpack(&f->img, &f->pk);
}

/* The frame's size, decoded or packed. */
static void frame_size(const sc__frame *f, int *w, int *h) {
  *w = f->img ? f->img->width : f->pk.width;
  *h = f->img ? f->img->height : f->pk.height;
}

int sc__frame_sub(const sc__frame *f, sc_rect r, sc_rect *out) {
  if (!sc__frame_has(f)) return -1;
  int w, h;
  frame_size(f, &w, &h);
  if ((long)r.x - f->clip.x < INT_MIN || (long)r.y - f->clip.y < INT_MIN) return -1;
  sc_rect s = {r.x - f->clip.x, r.y - f->clip.y, r.w, r.h};
  if (!sc__rect_within(s, w, h)) return -1;
  *out = s;
  return 0;
}

int sc__frame_view(const sc__frame *f, sc_rect r, const sc_image **img, sc_rect *sub,
                   sc_image **tmp) {
  *tmp = NULL;
  sc_rect s;
  if (sc__frame_sub(f, r, &s) < 0) return -1;
  if (f->img) {
    *img = f->img;
    *sub = s;
    return 0;
  }
  int rc = sc__unpack_rect(tmp, &f->pk, s);
  if (rc < 0) return rc;
  *img = *tmp;
  *sub = (sc_rect){0, 0, s.w, s.h};
  return 0;
}

int sc__frame_crop(sc_image **out, const sc__frame *f, sc_rect r) {
  *out = NULL;
  const sc_image *img;
  sc_image *tmp;
  sc_rect s;
  int rc = sc__frame_view(f, r, &img, &s, &tmp);
  if (rc != 0) return rc;
  if (tmp) {
    *out = tmp;
    return 0;
  }
  return sc_image_crop(out, img, s);
}

int sc__frame_compose(sc_image **out, const sc__frame *under, const sc__frame *over, sc_rect r) {
  int rc = sc__frame_crop(out, under, r);
  if (rc != 0 || !sc__frame_has(over)) return rc;
  int x0 = r.x > over->clip.x ? r.x : over->clip.x;
  int y0 = r.y > over->clip.y ? r.y : over->clip.y;
  int x1 = r.x + r.w < over->clip.x + over->clip.w ? r.x + r.w : over->clip.x + over->clip.w;
  int y1 = r.y + r.h < over->clip.y + over->clip.h ? r.y + r.h : over->clip.y + over->clip.h;
  if (x1 <= x0 || y1 <= y0) return 0;
  sc_rect in = {x0, y0, x1 - x0, y1 - y0};
  const sc_image *img;
  sc_image *tmp;
  sc_rect sub;
  rc = sc__frame_view(over, in, &img, &sub, &tmp);
  if (rc != 0) {
    sc_image_free(*out);
    *out = NULL;
    return rc;
  }
  for (int y = 0; y < in.h; y++)
    memcpy((*out)->px + (size_t)(in.y - r.y + y) * (*out)->stride + (size_t)(in.x - r.x) * 4,
           img->px + (size_t)(sub.y + y) * img->stride + (size_t)sub.x * 4, (size_t)in.w * 4);
  sc_image_free(tmp);
  return 0;
}

int sc__frame_diff(size_t *n, sc_image **diff, const sc__frame *a, const sc__frame *b, sc_rect r,
                   const sc_diff_options *o) {
  const sc_image *ia, *ib;
  sc_image *ta, *tb = NULL;
  sc_rect ra, rb;
  int rc = sc__frame_view(a, r, &ia, &ra, &ta);
  if (rc == 0) rc = sc__frame_view(b, r, &ib, &rb, &tb);
  if (rc == 0) rc = sc_image_diff(n, NULL, diff, ia, ra, ib, rb, o);
  sc_image_free(ta);
  sc_image_free(tb);
  return rc;
}

int sc__frame_equal(const sc__frame *a, const sc__frame *b, sc_rect r) {
  const sc_image *ia, *ib;
  sc_image *ta, *tb = NULL;
  sc_rect ra, rb;
  if (sc__frame_view(a, r, &ia, &ra, &ta) != 0) return 0;
  int eq = sc__frame_view(b, r, &ib, &rb, &tb) == 0;
  for (int y = 0; eq && y < r.h; y++) {
    const uint8_t *pa = ia->px + (size_t)(ra.y + y) * ia->stride + (size_t)ra.x * 4;
    const uint8_t *pb = ib->px + (size_t)(rb.y + y) * ib->stride + (size_t)rb.x * 4;
    eq = memcmp(pa, pb, (size_t)r.w * 4) == 0;
  }
  sc_image_free(ta);
  sc_image_free(tb);
  return eq;
}
