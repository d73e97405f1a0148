/* The runner's two honest waits, public for harnesses that build their own
 * steps (stepcheck/page.h): a capture taken only once the screen is at
 * rest, and a wait until a region differs from a given image, returned at
 * rest. They are the runner's own proof of rest (sc__runner_settle: the
 * page's paint log where it can see, screenshot pairs where it cannot), on
 * a runner that has a page and no scenario; asynchronous on the page's
 * loop, the blocking forms run the loop until their callback fired. */
#include <stddef.h>
#include <string.h>

#include "core/core.h"
#include "page/tab.h"
#include "runner.h"

typedef struct prest {
  sc__runner r;       /* first: settle's callbacks get &pr->r */
  sc_rect clip;
  double t0, end;
  sc_image *before;   /* wait: ours (a copy); NULL for capture-at-rest */
  double first_paint; /* wait: the first paint over clip the log saw, run clock */
  const char *fn;
  sc_page_done_cb cb;
  void *ud;
} prest;

static prest *of(sc__runner *r) { return (prest *)((char *)r - offsetof(prest, r)); }

static void finish(prest *pr, int status, const char *errmsg, sc_image *img, double first) {
  sc_page_done_cb cb = pr->cb;
  void *ud = pr->ud;
  char msg[512] = "";
  if (status) snprintf(msg, sizeof msg, "%s", errmsg ? errmsg : sc_errmsg());
  sc_image_free(pr->before);
  sc__runner_clear(&pr->r);
  sc__free(pr);
  cb(status, status ? msg : NULL, img, status ? 0 : first, ud);
}

/* The settled capture, as a new image of the caller's. */
static int settled_image(prest *pr, sc_image **out) {
  sc__frame *f = &pr->r.settle.f;
  int rc = sc__frame_pixels(f);
  if (rc == 0) {
    *out = f->img;
    f->img = NULL;
  }
  return rc;
}

static void at_rest(sc__runner *r, int rc) {
  prest *pr = of(r);
  char msg[256];
  sc_image *img = NULL;
  if (rc == SC__NOT_AT_REST) {
    snprintf(msg, sizeof msg, "%s: region %d,%d %dx%d still moving", pr->fn, pr->clip.x,
             pr->clip.y, pr->clip.w, pr->clip.h);
    finish(pr, SC_ETIMEDOUT, msg, NULL, 0);
    return;
  }
  if (rc == 0) rc = settled_image(pr, &img);
  if (rc < 0) {
    finish(pr, rc, sc_errmsg(), NULL, 0);
    return;
  }
  finish(pr, 0, NULL, img, 0);
}

/* ---- the wait for a change ---- */

static void settle_again(sc__runner *r);

static int same_pixels(const sc_image *a, const sc_image *b) {
  if (a->width != b->width || a->height != b->height) return 0;
  for (int y = 0; y < a->height; y++)
    if (memcmp(a->px + (size_t)y * a->stride, b->px + (size_t)y * b->stride,
               (size_t)a->width * 4) != 0)
      return 0;
  return 1;
}

static void unchanged_timeout(prest *pr) {
  char msg[256];
  snprintf(msg, sizeof msg, "%s: region %d,%d %dx%d unchanged after %.0f ms", pr->fn,
           pr->clip.x, pr->clip.y, pr->clip.w, pr->clip.h, pr->end - pr->t0);
  finish(pr, SC_ETIMEDOUT, msg, NULL, 0);
}

/* The next paint over the clip (the log), then at rest again. */
static void painted(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__runner *r = ud;
  prest *pr = of(r);
  int rc = sc__runner_reply(r, status, errmsg);
  if (rc < 0) {
    finish(pr, rc, sc_errmsg(), NULL, 0);
    return;
  }
  if (sc__runner_log_have(r, rep)) {
    if (rep->timed_out && rep->n == 0) {
      unchanged_timeout(pr);
      return;
    }
    if (pr->first_paint < 0 && rep->first_ms >= 0 && !rep->lost) pr->first_paint = rep->first_ms;
  }
  settle_again(r);
}

static void changed_at_rest(sc__runner *r, int rc) {
  prest *pr = of(r);
  sc_image *img = NULL;
  if (rc == SC__NOT_AT_REST) {
    at_rest(r, rc);
    return;
  }
  if (rc == 0) rc = settled_image(pr, &img);
  if (rc < 0) {
    finish(pr, rc, sc_errmsg(), NULL, 0);
    return;
  }
  if (!same_pixels(pr->before, img)) {
    /* dated by the log's first paint over the clip, else when the settle
     * that saw it began (the change was on the screen by then at most) */
    double first = pr->first_paint >= 0 ? pr->first_paint : pr->r.settle.begun;
    finish(pr, 0, NULL, img, first > pr->t0 ? first - pr->t0 : 0);
    return;
  }
  sc_image_free(img);
  if (sc__now_ms() >= pr->end) {
    unchanged_timeout(pr);
    return;
  }
  if (sc__runner_logging(r)) { /* no polling: the page says when it paints */
    uint64_t after = r->settle.seq;
    rc = sc__runner_log(r, pr->clip, after, 0, 0, 1, pr->end, painted);
    if (rc < 0) finish(pr, rc, sc_errmsg(), NULL, 0);
    return;
  }
  settle_again(r);
}

static void settle_again(sc__runner *r) {
  prest *pr = of(r);
  sc__runner_settle(r, pr->clip, pr->end, pr->before ? changed_at_rest : at_rest, NULL);
}

static int start(sc_page *p, sc_rect clip, const sc_image *before, double timeout_ms,
                 sc_page_done_cb cb, void *ud, const char *fn) {
  int rc = sc__page_check(p, fn);
  if (rc) return rc;
  if (!cb) return sc__err(SC_EINVAL, "%s: callback is NULL", fn);
  if (!(timeout_ms > 0)) return sc__err(SC_EINVAL, "%s: timeout %g ms", fn, timeout_ms);
  if ((rc = sc__page_check_rect(p, clip, fn)) < 0) return rc;
  prest *pr = sc__calloc(1, sizeof *pr);
  if (!pr) return sc__err(SC_ENOMEM, "%s: out of memory", fn);
  pr->r.io = sc__runner_page_io(p);
  pr->clip = clip;
  pr->fn = fn;
  pr->cb = cb;
  pr->ud = ud;
  pr->first_paint = -1;
  pr->t0 = sc__now_ms();
  pr->end = pr->t0 + timeout_ms;
  if (before && (rc = sc_image_crop(&pr->before, before,
                                    (sc_rect){0, 0, before->width, before->height})) < 0) {
    sc__free(pr);
    return rc;
  }
  settle_again(&pr->r);
  return 0;
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
  int brc = sc__page_blocking(p, "sc_page_capture_at_rest");
  if (brc) return brc;
  bwait w = {0};
  return bfinish(&w, p, sc_page_capture_at_rest_async(p, clip, timeout_ms, bdone, &w), out,
                 NULL);
}

SC_EXTERN int sc_page_wait_change(sc_image **out, double *first_change_ms, sc_page *p,
                                  sc_rect clip, const sc_image *before, double timeout_ms) {
  if (!out) return sc__err(SC_EINVAL, "sc_page_wait_change: out is NULL");
  *out = NULL;
  if (first_change_ms) *first_change_ms = 0;
  int brc = sc__page_blocking(p, "sc_page_wait_change");
  if (brc) return brc;
  bwait w = {0};
  return bfinish(&w, p, sc_page_wait_change_async(p, clip, before, timeout_ms, bdone, &w), out,
                 first_change_ms);
}
