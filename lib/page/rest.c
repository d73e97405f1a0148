/* The runner's two honest waits, public for harnesses that build their own
 * steps: a capture taken only once the screen is at rest (two consecutive
 * identical captures), and a wait until a region differs from a given
 * image, dated at the first differing capture and returned at rest. Both
 * are asynchronous machines on the page's loop (captures back to back,
 * exact comparisons, no tolerance); the blocking forms run the loop until
 * their callback fired. */
#include <string.h>

#include "cdp/loop.h"
#include "core/core.h"
#include "page_internal.h"

typedef struct rest {
  sc_page *p;
  sc_rect clip;
  double t0, end, asked, first_change;
  sc_image *before; /* wait: ours (a copy); NULL for capture-at-rest */
  sc_image *prev;   /* the last capture */
  int changed;      /* wait: a capture differed from before */
  const char *fn;
  sc_page_done_cb cb;
  void *ud;
} rest;

static int same_pixels(const sc_image *a, const sc_image *b) {
  if (a->width != b->width || a->height != b->height) return 0;
  for (int y = 0; y < a->height; y++)
    if (memcmp(a->px + (size_t)y * a->stride, b->px + (size_t)y * b->stride,
               (size_t)a->width * 4) != 0)
      return 0;
  return 1;
}

static void done(rest *r, int status, const char *errmsg, sc_image *img) {
  sc_page_done_cb cb = r->cb;
  void *ud = r->ud;
  double first = r->first_change;
  sc_image_free(r->before);
  sc_image_free(r->prev);
  sc__free(r);
  cb(status, errmsg, img, status ? 0 : first, ud);
}

static int next(rest *r);

static void captured(int status, const char *errmsg, const char *b64, size_t len, void *ud) {
  rest *r = ud;
  sc_image *cur = NULL;
  char msg[256];
  if (status == 0) status = sc__page_decode(&cur, b64, len, r->clip, 1.0);
  if (status) {
    done(r, status, errmsg ? errmsg : sc_errmsg(), NULL);
    return;
  }
  if (r->before && !r->changed) {
    if (same_pixels(r->before, cur)) {
      sc_image_free(cur);
      if (sc__now_ms() >= r->end) {
        snprintf(msg, sizeof msg, "%s: region %d,%d %dx%d unchanged after %.0f ms", r->fn,
                 r->clip.x, r->clip.y, r->clip.w, r->clip.h, r->end - r->t0);
        done(r, SC_ETIMEDOUT, msg, NULL);
        return;
      }
    } else {
      /* Dated when the capture that saw it was asked for: the change was
       * on the screen by then at the latest. */
      r->changed = 1;
      r->first_change = r->asked - r->t0;
      r->prev = cur;
    }
  } else if (r->prev && same_pixels(r->prev, cur)) {
    sc_image_free(r->prev);
    r->prev = NULL;
    done(r, 0, NULL, cur);
    return;
  } else {
    sc_image_free(r->prev);
    r->prev = cur;
    if (sc__now_ms() >= r->end) {
      snprintf(msg, sizeof msg, "%s: region %d,%d %dx%d still moving", r->fn, r->clip.x,
               r->clip.y, r->clip.w, r->clip.h);
      done(r, SC_ETIMEDOUT, msg, NULL);
      return;
    }
  }
  int rc = next(r);
  if (rc) done(r, rc, sc_errmsg(), NULL);
}

static int next(rest *r) {
  r->asked = sc__now_ms();
  return sc__page_capture_async(r->p, r->clip, 1.0, 0, 0, captured, r);
}

static int start(sc_page *p, sc_rect clip, const sc_image *before, double timeout_ms,
                 sc_page_done_cb cb, void *ud, const char *fn) {
  int rc = sc__page_check(p, fn);
  if (rc) return rc;
  if (!cb) return sc__err(SC_EINVAL, "%s: callback is NULL", fn);
  if (!(timeout_ms > 0)) return sc__err(SC_EINVAL, "%s: timeout %g ms", fn, timeout_ms);
  rest *r = sc__calloc(1, sizeof *r);
  if (!r) return sc__err(SC_ENOMEM, "%s: out of memory", fn);
  *r = (rest){.p = p, .clip = clip, .fn = fn, .cb = cb, .ud = ud};
  r->t0 = sc__now_ms();
  r->end = r->t0 + timeout_ms;
  if (before && (rc = sc_image_crop(&r->before, before,
                                    (sc_rect){0, 0, before->width, before->height})) < 0) {
    sc__free(r);
    return rc;
  }
  if ((rc = next(r)) < 0) {
    sc_image_free(r->before);
    sc__free(r);
  }
  return rc;
}

SC_EXTERN int sc_page_capture_at_rest_async(sc_page *p, sc_rect clip, double timeout_ms,
                                            sc_page_done_cb cb, void *userdata) {
  return start(p, clip, NULL, timeout_ms, cb, userdata, "sc_page_capture_at_rest");
}

SC_EXTERN int sc_page_wait_change_async(sc_page *p, sc_rect clip, const sc_image *before,
                                        double timeout_ms, sc_page_done_cb cb,
                                        void *userdata) {
  const char *fn = "sc_page_wait_change";
  if (!before) return sc__err(SC_EINVAL, "%s: before is NULL", fn);
  if (before->width != clip.w || before->height != clip.h)
    return sc__err(SC_EINVAL, "%s: before is %dx%d, the clip %dx%d", fn, before->width,
                   before->height, clip.w, clip.h);
  return start(p, clip, before, timeout_ms, cb, userdata, fn);
}

/* The blocking forms: the asynchronous call, then the page's loop until
 * its callback fired. */
typedef struct bwait {
  int done, status;
  sc_image *img;
  double first;
  char err[512];
} bwait;

static void bdone(int status, const char *errmsg, sc_image *img, double first, void *ud) {
  bwait *w = ud;
  w->done = 1;
  w->status = status;
  w->img = img;
  w->first = first;
  if (status) snprintf(w->err, sizeof w->err, "%s", errmsg ? errmsg : sc_strerror(status));
}

static int bfinish(bwait *w, sc_page *p, int rc, sc_image **out, double *first) {
  if (rc < 0) return rc;
  sc__page_wait(p, &w->done);
  if (w->status) return sc__err(w->status, "%s", w->err);
  *out = w->img;
  if (first) *first = w->first;
  return 0;
}

SC_EXTERN int sc_page_capture_at_rest(sc_image **out, sc_page *p, sc_rect clip,
                                      double timeout_ms) {
  if (!out) return sc__err(SC_EINVAL, "sc_page_capture_at_rest: out is NULL");
  *out = NULL;
  bwait w = {0};
  return bfinish(&w, p, sc_page_capture_at_rest_async(p, clip, timeout_ms, bdone, &w), out,
                 NULL);
}

SC_EXTERN int sc_page_wait_change(sc_image **out, double *first_change_ms, sc_page *p,
                                  sc_rect clip, const sc_image *before, double timeout_ms) {
  if (!out) return sc__err(SC_EINVAL, "sc_page_wait_change: out is NULL");
  *out = NULL;
  if (first_change_ms) *first_change_ms = 0;
  bwait w = {0};
  return bfinish(&w, p, sc_page_wait_change_async(p, clip, before, timeout_ms, bdone, &w), out,
                 first_change_ms);
}

SC_EXTERN sc_loop *sc_page_loop(sc_page *p) { return p && p->cl ? sc__page_loop(p) : NULL; }

SC_EXTERN int sc_loop_run(sc_loop *l, double timeout_ms) {
  if (!l) return sc__err(SC_EINVAL, "sc_loop_run: loop is NULL");
  double end = sc__now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
  int n = 0;
  do {
    int k = sc__loop_service(l, end - sc__now_ms());
    if (k < 0) return k;
    n += k;
  } while (n == 0 && sc__now_ms() < end);
  return n;
}
