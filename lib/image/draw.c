/* Drawing on images, for pictures people look at (stepcheck inspect):
 * rectangle outlines, crosses and 5x7 text, all clipped to the image. */
#include <math.h>

#include "core/core.h"
#include "image/image_priv.h"

static void put(sc_image *img, int x, int y, uint32_t rgb) {
  if (x < 0 || y < 0 || x >= img->width || y >= img->height) return;
  uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
  p[0] = (uint8_t)(rgb >> 16);
  p[1] = (uint8_t)(rgb >> 8);
  p[2] = (uint8_t)rgb;
  p[3] = 255;
}

SC_EXTERN int sc_image_draw_rect(sc_image *img, sc_rect r, uint32_t rgb) {
  if (!img) return sc__err(SC_EINVAL, "sc_image_draw_rect: image is NULL");
  if (r.w <= 0 || r.h <= 0) return sc__err(SC_EINVAL, "sc_image_draw_rect: %dx%d", r.w, r.h);
  /* edges in long: r.x + r.w may be past INT_MAX; put() skips what is off the image */
  long x0 = r.x, y0 = r.y, x1 = x0 + r.w - 1, y1 = y0 + r.h - 1;
  long cx0 = x0 < -1 ? -1 : x0, cx1 = x1 > img->width ? img->width : x1;
  long cy0 = y0 < -1 ? -1 : y0, cy1 = y1 > img->height ? img->height : y1;
  for (long x = cx0; x <= cx1; x++) {
    if (y0 >= 0 && y0 < img->height) put(img, (int)x, (int)y0, rgb);
    if (y1 >= 0 && y1 < img->height) put(img, (int)x, (int)y1, rgb);
  }
  for (long y = cy0; y <= cy1; y++) {
    if (x0 >= 0 && x0 < img->width) put(img, (int)x0, (int)y, rgb);
    if (x1 >= 0 && x1 < img->width) put(img, (int)x1, (int)y, rgb);
  }
  return 0;
}

SC_EXTERN int sc_image_draw_cross(sc_image *img, sc_point at, int arm, uint32_t rgb) {
  if (!img) return sc__err(SC_EINVAL, "sc_image_draw_cross: image is NULL");
  if (!isfinite(at.x) || !isfinite(at.y) || arm < 1 || arm > 1000)
    return sc__err(SC_EINVAL, "sc_image_draw_cross: point (%g, %g), arm %d", at.x, at.y, arm);
  int cx = (int)floor(at.x), cy = (int)floor(at.y);
  for (int d = -arm; d <= arm; d++) {
    put(img, cx + d, cy, rgb);
    put(img, cx, cy + d, rgb);
  }
  return 0;
}

SC_EXTERN int sc_image_draw_text(sc_image *img, int x, int y, const char *text, uint32_t rgb,
                                 uint32_t bg) {
  if (!img || !text) return sc__err(SC_EINVAL, "sc_image_draw_text: NULL argument");
  int n = 0;
  for (const char *c = text; *c; c++) n++;
  /* a background box one pixel around the text keeps it legible anywhere */
  for (int yy = y - 1; yy < y + 8; yy++)
    for (int xx = x - 1; xx < x + n * 6; xx++) put(img, xx, yy, bg);
  for (int i = 0; i < n; i++) {
    const unsigned char *g = sc__font5x7(text[i]);
    for (int row = 0; row < 7; row++)
      for (int col = 0; col < 5; col++)
        if (g[row] & (0x10 >> col)) put(img, x + i * 6 + col, y + row, rgb);
  }
  return 0;
}
