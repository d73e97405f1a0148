/* Clip screenshots in guest coordinates, decoded to RGBA. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tab.h"

int sc__page_check_rect(const sc_page *p, sc_rect r, const char *what) {
  if (!sc__rect_within(r, p->cw, p->ch))
    return sc__err(SC_EINVAL, "%s: region %d,%d %dx%d outside the %dx%d canvas", what, r.x, r.y,
                   r.w, r.h, p->cw, p->ch);
  return 0;
}

typedef struct cap {
  sc_page *p;
  int slot;          /* the witness's (witness.h) */
  sc__capture_cb cb;
  void *ud;
} cap;

static void cap_reply(int status, json_t *res, const char *errmsg, void *ud) {
  cap c = *(cap *)ud;
  sc__free(ud);
  /* a reply that failed may come after the page was freed */
  if (!status) sc__witness_ours_end(c.p, c.slot);
  json_t *data = status ? NULL : json_object_get(res, "data");
  if (!status && !json_is_string(data))
    c.cb(SC_EPROTO, "Page.captureScreenshot: no data", NULL, 0, c.ud);
  else if (status) {
    char msg[300];
    snprintf(msg, sizeof msg, "Page.captureScreenshot: %s", errmsg ? errmsg : sc_strerror(status));
    c.cb(status, msg, NULL, 0, c.ud);
  }
  else
    c.cb(0, NULL, json_string_value(data), json_string_length(data), c.ud);
}

int sc__page_capture_async(sc_page *p, sc_rect clip, double scale, int fast,
                           double timeout_ms, sc__capture_cb cb, void *ud) {
  int rc = sc__page_check(p, "capture");
  if (rc < 0) return rc;
  rc = sc__page_check_rect(p, clip, "capture");
  if (rc < 0) return rc;
  json_t *params = json_pack(
      "{s:s, s:{s:f, s:f, s:f, s:f, s:f}, s:b, s:b, s:b}", "format", "png", "clip", "x",
      p->sx + p->cx + clip.x, "y", p->sy + p->cy + clip.y, "width", (double)clip.w, "height", (double)clip.h,
      "scale", scale, "fromSurface", 1, "captureBeyondViewport", 0, "optimizeForSpeed", fast);
  cap *c = sc__malloc(sizeof *c);
  if (!params || !c) {
    json_decref(params);
    sc__free(c);
    return sc__err(SC_ENOMEM, "capture: out of memory");
  }
  c->p = p;
  c->cb = cb;
  c->ud = ud;
  double tmo = timeout_ms > 0 ? timeout_ms : p->timeout_ms;
  c->slot = sc__witness_ours(p, SC__WITNESS_CAPTURE_FRAMES, tmo);
  rc = sc__cdp_send(sc__client_cdp(p->cl), p->session_id, "Page.captureScreenshot", params,
                    tmo, cap_reply, c, NULL);
  if (rc) {
    sc__witness_ours_end(p, c->slot);
    sc__free(c);
    return sc__err(rc, "Page.captureScreenshot: %s", sc_strerror(rc));
  }
  return 0;
}

int sc__page_decode(sc_image **out, const char *b64, size_t len, sc_rect clip, double scale) {
  *out = NULL;
  size_t n = 0;
  /* The PNG bytes live only for this call: the thread's scratch, not a
   * fresh block per capture (lib/core/scratch.c). */
  uint8_t *png = sc__scratch(SC__SCRATCH_PNG, sc__base64_max(len));
  if (!png) return sc__err(SC_ENOMEM, "capture: out of memory for %zu bytes", len);
  int rc = sc__base64_decode_to(png, &n, b64, len);
  if (rc < 0) return rc;
  /* Chromium's own PNG over a local, checked connection: no checksums.
   * Its size may differ from the clip by one pixel (rounding of the scaled
   * clip); a PNG that declares more is refused from its IHDR, before any
   * row is decoded (a hostile or broken browser cannot make us inflate and
   * allocate a picture far larger than asked for). */
  int want_w = (int)(clip.w * scale + 0.5), want_h = (int)(clip.h * scale + 0.5);
  sc_png_limits lim = SC_PNG_LIMITS_INIT;
  lim.skip_checksums = 1;
  lim.max_width = want_w + 1;
  lim.max_height = want_h + 1;
  lim.max_bytes = (size_t)lim.max_width * (size_t)lim.max_height * 4;
  rc = sc_image_decode_png(out, png, n, &lim);
  if (rc == SC_ETOOBIG && n >= 24) {
    const uint8_t *d = png + 16; /* IHDR width and height: precheck read them */
    unsigned long w = (unsigned long)d[0] << 24 | (unsigned long)d[1] << 16 |
                      (unsigned long)d[2] << 8 | d[3];
    unsigned long h = (unsigned long)d[4] << 24 | (unsigned long)d[5] << 16 |
                      (unsigned long)d[6] << 8 | d[7];
    rc = sc__err(SC_EGEOMETRY,
                 "capture: the PNG declares %lux%lu for a %dx%d clip at scale %g; "
                 "refused before decoding", w, h, clip.w, clip.h, scale);
  }
  if (rc < 0) return rc;
  if (abs((*out)->width - want_w) > 1 || abs((*out)->height - want_h) > 1) {
    rc = sc__err(SC_EGEOMETRY, "capture: got %dx%d for a %dx%d clip at scale %g",
                 (*out)->width, (*out)->height, clip.w, clip.h, scale);
    sc_image_free(*out);
    *out = NULL;
  }
  return rc;
}

typedef struct cap_wait {
  int done, status;
  sc_rect clip;
  double scale;
  sc_image *img;
  char err[256];
} cap_wait;

static void cap_waited(int status, const char *errmsg, const char *b64, size_t len, void *ud) {
  cap_wait *w = ud;
  w->done = 1;
  if (status == 0) status = sc__page_decode(&w->img, b64, len, w->clip, w->scale);
  else sc__err(status, "%s", errmsg);
  w->status = status;
  if (status) snprintf(w->err, sizeof w->err, "%s", sc_errmsg());
}

SC_EXTERN int sc_page_capture(sc_image **out, sc_page *p, sc_rect clip, double scale,
                              int fast, double *ms) {
  if (!out) return sc__err(SC_EINVAL, "sc_page_capture: out is NULL");
  *out = NULL;
  int rc = sc__page_blocking(p, "sc_page_capture");
  if (rc) return rc;
  if (!(scale > 0 && scale <= 1))
    return sc__err(SC_EINVAL, "sc_page_capture: scale %g outside (0, 1]", scale);
  double t0 = sc__now_ms();
  cap_wait w = {0, 0, clip, scale, NULL, ""};
  rc = sc__page_capture_async(p, clip, scale, fast, 0, cap_waited, &w);
  if (rc < 0) return rc;
  sc__page_wait(p, &w.done);
  if (w.status) return sc__err(w.status, "%s", w.err);
  *out = w.img;
  if (ms) *ms = sc__now_ms() - t0;
  return 0;
}
