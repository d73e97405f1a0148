/* Clip screenshots in guest coordinates, decoded to RGBA. */
#include <string.h>

#include "core/core.h"
#include "page_internal.h"

SC_EXTERN int sc_page_capture(sc_image **out, sc_page *p, sc_rect clip, double scale,
                              int fast, double *ms) {
  *out = NULL;
  if (clip.w <= 0 || clip.h <= 0 || clip.x < 0 || clip.y < 0 || clip.x + clip.w > p->cw ||
      clip.y + clip.h > p->ch)
    return sc__err(SC_EINVAL, "capture: region %d,%d %dx%d outside the %dx%d canvas", clip.x,
                   clip.y, clip.w, clip.h, p->cw, p->ch);
  if (scale <= 0 || scale > 1) scale = 1;
  double t0 = sc__now_ms();
  json_t *res = NULL;
  json_t *params = json_pack(
      "{s:s, s:{s:f, s:f, s:f, s:f, s:f}, s:b, s:b, s:b}", "format", "png", "clip", "x",
      p->cx + clip.x, "y", p->cy + clip.y, "width", (double)clip.w, "height", (double)clip.h,
      "scale", scale, "fromSurface", 1, "captureBeyondViewport", 0, "optimizeForSpeed", fast);
  int rc = sc__page_call(p, "Page.captureScreenshot", params, &res);
  if (rc < 0) return rc;
  const char *data = json_string_value(json_object_get(res, "data"));
  if (!data) {
    json_decref(res);
    return sc__err(SC_EPROTO, "Page.captureScreenshot: no data");
  }
  uint8_t *png = NULL;
  size_t len = 0;
  rc = sc__base64_decode(&png, &len, data, strlen(data));
  json_decref(res);
  if (rc < 0) return rc;
  rc = sc_image_decode_png(out, png, len, NULL);
  sc__free(png);
  if (rc < 0) return rc;
  int want_w = (int)(clip.w * scale + 0.5), want_h = (int)(clip.h * scale + 0.5);
  if (abs((*out)->width - want_w) > 1 || abs((*out)->height - want_h) > 1) {
    rc = sc__err(SC_EGEOMETRY, "capture: got %dx%d for a %dx%d clip at scale %g",
                 (*out)->width, (*out)->height, clip.w, clip.h, scale);
    sc_image_free(*out);
    *out = NULL;
    return rc;
  }
  if (ms) *ms = sc__now_ms() - t0;
  return 0;
}
