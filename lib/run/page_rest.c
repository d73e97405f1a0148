/* The runner's two honest waits, public for harnesses that build their own
 * steps (stepcheck/page.h): a capture taken only once the screen is at
 * rest, and a wait until a region differs from a given image, returned at
 * rest and final. They are the rest object's two jobs (rest/rest.h: the
 * page's paint log where it can see, with the compositor witness beside
 * it, screenshot pairs where it cannot), with its defaults; asynchronous
 * on the page's loop, the blocking forms run the loop until their
 * callback fired. */
#include <stddef.h>
#include <string.h>

#include "core/core.h"
#include "page/tab.h"
#include "runner.h"

typedef struct prest {
  sc__io io;          /* the page's */
  sc__rest rest;      /* the proof of rest of this wait */
  uint64_t timer;     /* the rest object's timer, 0 none */
  void (*tick_fn)(void *arg);
  void *tick_arg;
  sc_rect clip;
  double t0, end;
  sc_image *before;   /* wait: ours (a copy); NULL for capture-at-rest */
  double first_diff;  /* wait: when the first capture that differs was asked for, 0 none */
  const char *fn;
  sc_page_done_cb cb;
  void *ud;
} prest;

static void finish(prest *pr, int status, const char *errmsg, sc_image *img, double first) {
  sc_page_done_cb cb = pr->cb;
  void *ud = pr->ud;
  char msg[512] = "";
  if (status) snprintf(msg, sizeof msg, "%s", errmsg ? errmsg : sc_errmsg());
  sc_image_free(pr->before);
  sc__rest_clear(&pr->rest);
  sc__free(pr);
  cb(status, status ? msg : NULL, img, status ? 0 : first, ud);
}

/* ---- the rest object's hooks: no cancel, one timer ---- */

static int hook_reply(void *ud, int status, const char *errmsg) {
  (void)ud;
  if (status) return sc__err(status, "%s", errmsg ? errmsg : sc_strerror(status));
  return 0;
}

static void hook_asked(void *ud, int timed) {
  (void)ud;
  (void)timed;
}

static void hook_tick(void *ud) {
  prest *pr = ud;
  pr->timer = 0;
  pr->tick_fn(pr->tick_arg);
}

static int hook_after(void *ud, double at_ms, void (*fn)(void *arg), void *arg) {
  prest *pr = ud;
  pr->tick_fn = fn;
  pr->tick_arg = arg;
  pr->timer = pr->io.timer(pr->io.ctx, at_ms, hook_tick, pr);
  return pr->timer ? 0 : sc__err(SC_ENOMEM, "%s: out of memory (timer)", pr->fn);
}

/* The answer's frame, as a new image of the caller's. */
static int answer_image(const sc__rest_proof *p, sc_image **out) {
  int rc = sc__frame_pixels(p->f);
  if (rc == 0) {
    *out = p->f->img;
    p->f->img = NULL;
  }
  return rc;
}

static void at_rest(void *ud, const sc__rest_proof *p) {
  prest *pr = ud;
  char msg[256];
  sc_image *img = NULL;
  int rc = p->rc;
  if (rc == SC__NOT_AT_REST) {
    snprintf(msg, sizeof msg, "%s: region %d,%d %dx%d still moving", pr->fn, pr->clip.x,
             pr->clip.y, pr->clip.w, pr->clip.h);
    finish(pr, SC_ETIMEDOUT, msg, NULL, 0);
    return;
  }
  if (rc == 0) rc = answer_image(p, &img);
  if (rc < 0) {
    finish(pr, rc, sc_errmsg(), NULL, 0);
    return;
  }
  finish(pr, 0, NULL, img, 0);
}

/* ---- the wait for a change: a verdict whose judge wants the region to
 * differ from `before`, on a frame the rest object proves final ---- */

static int differs(void *ud, sc__frame *f, sc__frame *prev, int same, double t_req,
                   double t_reply) {
  prest *pr = ud;
  const sc_image *img = NULL;
  sc_image *tmp = NULL;
  sc_rect sub;
  (void)prev;
  (void)same;
  (void)t_reply;
  if (sc__frame_view(f, pr->clip, &img, &sub, &tmp) != 0) return 0; /* judged again later */
  const sc_image *b = pr->before;
  int eq = sub.w == b->width && sub.h == b->height;
  for (int y = 0; eq && y < sub.h; y++)
    eq = !memcmp(img->px + (size_t)(sub.y + y) * img->stride + (size_t)sub.x * 4,
                 b->px + (size_t)y * b->stride, (size_t)b->width * 4);
  sc_image_free(tmp);
  if (!eq && pr->first_diff <= 0) pr->first_diff = t_req;
  return !eq;
}

static void changed_at_rest(void *ud, const sc__rest_proof *p) {
  prest *pr = ud;
  sc_image *img = NULL;
  char msg[256];
  int rc = p->rc;
  if (rc == SC__NOT_AT_REST && pr->first_diff > 0) {
    at_rest(ud, p); /* it changed, and never came to rest: "still moving" */
    return;
  }
  if (rc == SC__NOT_AT_REST) {
    snprintf(msg, sizeof msg, "%s: region %d,%d %dx%d unchanged after %.0f ms", pr->fn,
             pr->clip.x, pr->clip.y, pr->clip.w, pr->clip.h, pr->end - pr->t0);
    finish(pr, SC_ETIMEDOUT, msg, NULL, 0);
    return;
  }
  if (rc == 0) rc = answer_image(p, &img);
  if (rc < 0) {
    finish(pr, rc, sc_errmsg(), NULL, 0);
    return;
  }
  /* dated by the log's first paint over the clip, else when the first
   * capture that showed the change was asked for (it was on the screen by
   * then at most) */
  double first = p->first_paint >= 0 ? p->first_paint : pr->first_diff;
  finish(pr, 0, NULL, img, first > pr->t0 ? first - pr->t0 : 0);
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
  pr->io = sc__runner_page_io(p);
  sc__rest_owner own = {hook_reply, hook_asked, hook_after, pr};
  sc__rest_init(&pr->rest, &pr->io, own, (sc__rest_config){0});
  pr->clip = clip;
  pr->fn = fn;
  pr->cb = cb;
  pr->ud = ud;
  pr->t0 = sc__now_ms();
  pr->end = pr->t0 + timeout_ms;
  if (before && (rc = sc_image_crop(&pr->before, before,
                                    (sc_rect){0, 0, before->width, before->height})) < 0) {
    sc__free(pr);
    return rc;
  }
  if (!before) {
    sc__rest_settle(&pr->rest, clip, pr->end, 0, NULL, (sc__rest_mark){0, 0}, at_rest, pr);
    return 0;
  }
  /* no gesture: the screen as it is first (it may differ already), then
   * at each paint over the clip (or, by pairs, capture by capture) */
  sc__rest_want w = {.clip = clip,
                     .wide = clip,
                     .deadline = pr->end,
                     .gesture_end = pr->t0,
                     .from = {SC__LOG_FROM_NOW, 0},
                     .log = 1};
  sc__rest_verdict(&pr->rest, &w, differs, changed_at_rest, pr);
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
