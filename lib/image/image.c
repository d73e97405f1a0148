/* sc_image: allocation, crop, pixel access, region hash, colour count. */
#include <string.h>

#include "core/core.h"
#include "image/image_priv.h"
#include "core/opts.h"

int sc__image_alloc(sc_image **out, int width, int height, int zero) {
  *out = NULL;
  if (width < 0 || height < 0)
    return sc__err(SC_EINVAL, "image: invalid size %dx%d", width, height);
  size_t stride = (size_t)width * 4;
  if (height && stride > SIZE_MAX / (size_t)height)
    return sc__err(SC_ETOOBIG, "image: %dx%d is too large", width, height);
  sc__image_box *box = sc__malloc(sizeof *box);
  if (!box) return sc__err(SC_ENOMEM, "image: out of memory");
  sc_image *img = &box->img;
  size_t bytes = stride * (size_t)height;
  /* Frame-sized pixels come from the thread's pool (lib/core/scratch.c):
   * a capture's frame is made and freed for every capture. */
  img->px = sc__pool_take(bytes ? bytes : 1, &box->cap);
  if (!img->px) {
    sc__free(box);
    return sc__err(SC_ENOMEM, "image: out of memory for %dx%d", width, height);
  }
  if (zero) memset(img->px, 0, bytes);
  img->width = width;
  img->height = height;
  img->stride = stride;
  *out = img;
  return 0;
}

SC_EXTERN int sc_image_new(sc_image **out, int width, int height) {
  if (!out) return sc__err(SC_EINVAL, "image: out is NULL");
  return sc__image_alloc(out, width, height, 1);
}

SC_EXTERN void sc_image_free(sc_image *img) {
  if (!img) return;
  sc__image_box *box = (sc__image_box *)img;
  sc__pool_give(img->px, box->cap);
  sc__free(box);
}

int sc__image_rect_inside(const sc_image *img, sc_rect r) {
  return img && r.x >= 0 && r.y >= 0 && r.w >= 0 && r.h >= 0 && r.x <= img->width &&
         r.y <= img->height && r.w <= img->width - r.x && r.h <= img->height - r.y;
}

/* Intersection of r with the image, so hash and count never read outside. */
static sc_rect clip(const sc_image *img, sc_rect r) {
  long x0 = r.x, y0 = r.y, x1 = (long)r.x + (r.w > 0 ? r.w : 0),
       y1 = (long)r.y + (r.h > 0 ? r.h : 0);
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > img->width) x1 = img->width;
  if (y1 > img->height) y1 = img->height;
  sc_rect c = {(int)x0, (int)y0, 0, 0};
  if (x1 > x0 && y1 > y0) {
    c.w = (int)(x1 - x0);
    c.h = (int)(y1 - y0);
  }
  return c;
}

SC_EXTERN int sc_image_crop(sc_image **out, const sc_image *src, sc_rect r) {
  if (!out || !src) return sc__err(SC_EINVAL, "image crop: NULL argument");
  *out = NULL;
  if (!sc__image_rect_inside(src, r))
    return sc__err(SC_EINVAL, "image crop: %dx%d+%d+%d outside %dx%d image", r.w, r.h, r.x,
                   r.y, src->width, src->height);
  sc_image *img;
  int rc = sc__image_alloc(&img, r.w, r.h, 0);
  if (rc) return rc;
  for (int y = 0; y < r.h; y++)
    memcpy(img->px + (size_t)y * img->stride,
           src->px + (size_t)(r.y + y) * src->stride + (size_t)r.x * 4, (size_t)r.w * 4);
  *out = img;
  return 0;
}

SC_EXTERN uint32_t sc_image_pixel(const sc_image *img, int x, int y) {
  if (!img || x < 0 || y < 0 || x >= img->width || y >= img->height) return 0;
  const uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

SC_EXTERN uint64_t sc_image_hash(const sc_image *img, sc_rect r) {
  uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a 64 offset basis */
  if (!img) return h;
  r = clip(img, r);
  for (int y = 0; y < r.h; y++) {
    const uint8_t *p = img->px + (size_t)(r.y + y) * img->stride + (size_t)r.x * 4;
    for (int x = 0; x < r.w; x++, p += 4)
      for (int c = 0; c < 3; c++) {
        h ^= p[c];
        h *= 0x100000001b3ULL; /* FNV-1a 64 prime */
      }
  }
  return h;
}

SC_EXTERN size_t sc_image_count_color(const sc_image *img, sc_rect r, uint32_t rgb, int tol) {
  if (!img || tol < 0) return 0;
  r = clip(img, r);
  int want[3] = {(int)(rgb >> 16 & 0xff), (int)(rgb >> 8 & 0xff), (int)(rgb & 0xff)};
  size_t n = 0;
  for (int y = 0; y < r.h; y++) {
    const uint8_t *p = img->px + (size_t)(r.y + y) * img->stride + (size_t)r.x * 4;
    for (int x = 0; x < r.w; x++, p += 4) {
      int d0 = p[0] - want[0], d1 = p[1] - want[1], d2 = p[2] - want[2];
      if (d0 <= tol && -d0 <= tol && d1 <= tol && -d1 <= tol && d2 <= tol && -d2 <= tol) n++;
    }
  }
  return n;
}

SC__OPTS_DEFINE(png_limits, SC_PNG_LIMITS_INIT,
                 offsetof(sc_png_limits, skip_checksums), sizeof(sc_png_limits))
