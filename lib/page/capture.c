/* Clip screenshots in guest coordinates, decoded to RGBA. */
#include <string.h>

#include "core/core.h"
#include "page_internal.h"

static int check_clip(const sc_page *p, sc_rect clip) {
  if (clip.w <= 0 || clip.h <= 0 || clip.x < 0 || clip.y < 0 || clip.x + clip.w > p->cw ||
      clip.y + clip.h > p->ch)
    return sc__err(SC_EINVAL, "capture: region %d,%d %dx%d outside the %dx%d canvas", clip.x,
                   clip.y, clip.w, clip.h, p->cw, p->ch);
  return 0;
}

int sc__page_capture_b64(char **b64, size_t *len, sc_page *p, sc_rect clip, double scale,
                         int fast) {
  *b64 = NULL;
  *len = 0;
  int rc = check_clip(p, clip);
  if (rc < 0) return rc;
  json_t *res = NULL;
  json_t *params = json_pack(
      "{s:s, s:{s:f, s:f, s:f, s:f, s:f}, s:b, s:b, s:b}", "format", "png", "clip", "x",
      p->cx + clip.x, "y", p->cy + clip.y, "width", (double)clip.w, "height", (double)clip.h,
      "scale", scale, "fromSurface", 1, "captureBeyondViewport", 0, "optimizeForSpeed", fast);
  rc = sc__page_call(p, "Page.captureScreenshot", params, &res);
  if (rc < 0) return rc;
  json_t *data = json_object_get(res, "data");
  if (!json_is_string(data)) {
    json_decref(res);
    return sc__err(SC_EPROTO, "Page.captureScreenshot: no data");
  }
  *len = json_string_length(data);
  *b64 = sc__strndup(json_string_value(data), *len);
  json_decref(res);
  return *b64 ? 0 : sc__err(SC_ENOMEM, "capture: out of memory");
}

int sc__page_decode(sc_image **out, const char *b64, size_t len, sc_rect clip, double scale) {
  *out = NULL;
  uint8_t *png = NULL;
  size_t n = 0;
  int rc = sc__base64_decode(&png, &n, b64, len);
  if (rc < 0) return rc;
  rc = sc_image_decode_png(out, png, n, NULL);
  sc__free(png);
  if (rc < 0) return rc;
  int want_w = (int)(clip.w * scale + 0.5), want_h = (int)(clip.h * scale + 0.5);
  if (abs((*out)->width - want_w) > 1 || abs((*out)->height - want_h) > 1) {
    rc = sc__err(SC_EGEOMETRY, "capture: got %dx%d for a %dx%d clip at scale %g",
                 (*out)->width, (*out)->height, clip.w, clip.h, scale);
    sc_image_free(*out);
    *out = NULL;
  }
  return rc;
}

SC_EXTERN int sc_page_capture(sc_image **out, sc_page *p, sc_rect clip, double scale,
                              int fast, double *ms) {
  *out = NULL;
  if (scale <= 0 || scale > 1) scale = 1;
  double t0 = sc__now_ms();
  char *b64 = NULL;
  size_t len = 0;
  int rc = sc__page_capture_b64(&b64, &len, p, clip, scale, fast);
  if (rc == 0) rc = sc__page_decode(out, b64, len, clip, scale);
  sc__free(b64);
  if (rc == 0 && ms) *ms = sc__now_ms() - t0;
  return rc;
}
