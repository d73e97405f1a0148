/* The runner's two honest waits, public for harnesses that build their own
 * steps: a capture taken only once the screen is at rest (two consecutive
 * identical captures), and a wait until a region differs from a given
 * image, dated at the first differing capture and returned at rest. Both
 * are blocking, over sc_page_capture; exact comparisons, no tolerance. */
#include <string.h>

#include "core/core.h"
#include "page_internal.h"

static int same_pixels(const sc_image *a, const sc_image *b) {
  if (a->width != b->width || a->height != b->height) return 0;
  for (int y = 0; y < a->height; y++)
    if (memcmp(a->px + (size_t)y * a->stride, b->px + (size_t)y * b->stride,
               (size_t)a->width * 4) != 0)
      return 0;
  return 1;
}

/* Capture until two in a row are identical, from *prev on (NULL: none
 * yet); *out is the last, the caller's. */
static int settle(sc_image **out, sc_page *p, sc_rect clip, sc_image *prev, double end,
                  const char *fn) {
  for (;;) {
    sc_image *cur = NULL;
    int rc = sc_page_capture(&cur, p, clip, 1.0, 0, NULL);
    if (rc) {
      sc_image_free(prev);
      return rc;
    }
    if (prev && same_pixels(prev, cur)) {
      sc_image_free(prev);
      *out = cur;
      return 0;
    }
    sc_image_free(prev);
    prev = cur;
    if (sc__now_ms() >= end) {
      sc_image_free(prev);
      return sc__err(SC_ETIMEDOUT, "%s: region %d,%d %dx%d still moving", fn, clip.x, clip.y,
                     clip.w, clip.h);
    }
  }
}

SC_EXTERN int sc_page_capture_at_rest(sc_image **out, sc_page *p, sc_rect clip,
                                      double timeout_ms) {
  if (!out) return sc__err(SC_EINVAL, "sc_page_capture_at_rest: out is NULL");
  *out = NULL;
  int rc = sc__page_check(p, "sc_page_capture_at_rest");
  if (rc) return rc;
  if (!(timeout_ms > 0))
    return sc__err(SC_EINVAL, "sc_page_capture_at_rest: timeout %g ms", timeout_ms);
  return settle(out, p, clip, NULL, sc__now_ms() + timeout_ms, "sc_page_capture_at_rest");
}

SC_EXTERN int sc_page_wait_change(sc_image **out, double *first_change_ms, sc_page *p,
                                  sc_rect clip, const sc_image *before, double timeout_ms) {
  const char *fn = "sc_page_wait_change";
  if (!out) return sc__err(SC_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  if (first_change_ms) *first_change_ms = 0;
  int rc = sc__page_check(p, fn);
  if (rc) return rc;
  if (!before) return sc__err(SC_EINVAL, "%s: before is NULL", fn);
  if (before->width != clip.w || before->height != clip.h)
    return sc__err(SC_EINVAL, "%s: before is %dx%d, the clip %dx%d", fn, before->width,
                   before->height, clip.w, clip.h);
  if (!(timeout_ms > 0)) return sc__err(SC_EINVAL, "%s: timeout %g ms", fn, timeout_ms);
  double t0 = sc__now_ms(), end = t0 + timeout_ms;
  for (;;) {
    sc_image *cur = NULL;
    double asked = sc__now_ms();
    if ((rc = sc_page_capture(&cur, p, clip, 1.0, 0, NULL))) return rc;
    if (!same_pixels(before, cur)) {
      /* Dated when the capture that saw it was asked for: the change was
       * on the screen by then at the latest. */
      if (first_change_ms) *first_change_ms = asked - t0;
      return settle(out, p, clip, cur, end, fn);
    }
    sc_image_free(cur);
    if (sc__now_ms() >= end)
      return sc__err(SC_ETIMEDOUT, "%s: region %d,%d %dx%d unchanged after %.0f ms", fn, clip.x,
                     clip.y, clip.w, clip.h, timeout_ms);
  }
}
