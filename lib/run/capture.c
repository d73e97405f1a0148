/* Captures for judging: taking one (decode, or copy when the bytes are
 * known), the settled capture (two identical in a row) as a small machine,
 * named snapshots (held packed; checks unpack the regions they compare)
 * and baseline images. */
#include <string.h>

#include "core/core.h"
#include "locate/locate.h"
#include "runner.h"

sc_rect sc__rect_union(sc_rect a, sc_rect b) {
  if (a.w <= 0 || a.h <= 0) return b;
  if (b.w <= 0 || b.h <= 0) return a;
  int x0 = a.x < b.x ? a.x : b.x, y0 = a.y < b.y ? a.y : b.y;
  int x1 = a.x + a.w > b.x + b.w ? a.x + a.w : b.x + b.w;
  int y1 = a.y + a.h > b.y + b.h ? a.y + a.h : b.y + b.h;
  return (sc_rect){x0, y0, x1 - x0, y1 - y0};
}

int sc__rect_covers(sc_rect a, sc_rect b) {
  return b.x >= a.x && b.y >= a.y && b.x + b.w <= a.x + a.w && b.y + b.h <= a.y + a.h;
}

static int same_capture(const sc__frame *k, sc_rect clip, uint64_t h, size_t len) {
  return sc__frame_has(k) && k->rawhash == h && k->rawlen == len &&
         !memcmp(&k->clip, &clip, sizeof clip);
}

int sc__runner_take(sc__runner *r, sc__frame *f, sc__frame *old, sc_rect clip, const char *raw,
                    size_t len, int *same, const sc__frame *also) {
  *same = 0;
  uint64_t h = sc__hash64(raw, len);
  if (same_capture(f, clip, h, len)) {
    *same = 1; /* the bytes as received are the last capture's: so are its pixels */
    return 0;
  }
  sc__frame n = {.clip = clip, .rawhash = h, .rawlen = len};
  int rc;
  if (same_capture(also, clip, h, len)) { /* same bytes, same pixels: copy, do not decode */
    rc = also->img ? sc__frame_crop(&n.img, also, clip) : sc__packed_dup(&n.pk, &also->pk);
    if (rc == 0) rc = sc__frame_pixels(&n);
  } else {
    rc = r->io.decode(r->io.ctx, &n.img, raw, len, clip);
  }
  /* Other bytes, maybe the same picture. A held (packed) frame compares
   * packed: equal pixels pack to equal bytes, and n is packed anyway to be
   * held later. */
  int eq = 0;
  if (rc == 0 && sc__frame_has(f) && !memcmp(&f->clip, &clip, sizeof clip)) {
    if (f->img) {
      eq = sc__frame_equal(f, &n, clip);
    } else {
      if (!n.pk.data) rc = sc__pack(&n.pk, n.img);
      eq = rc == 0 && sc__packed_equal(&f->pk, &n.pk);
    }
  }
  if (rc < 0 || eq) {
    sc__frame_free(&n);
    if (rc < 0) return rc;
    f->rawhash = h; /* still the same capture */
    f->rawlen = len;
    *same = 1;
    return 0;
  }
  if (old)
    sc__frame_move(old, f);
  else
    sc__frame_free(f);
  sc__frame_move(f, &n);
  return 0;
}

int sc__runner_reply(sc__runner *r, int status, const char *errmsg) {
  r->pending = 0;
  double took = sc__now_ms() - r->io_asked_at; /* for step.c's stall rule */
  if (r->io_asked_at > 0 && took > r->io_slowest) r->io_slowest = took;
  if (r->canceled) return sc__err(SC_ECANCELED, "canceled: %s", r->cancel_why);
  if (status) return sc__err(status, "%s", errmsg ? errmsg : sc_strerror(status));
  return 0;
}

/* A request's own deadline: what is left until `until`, plus the grace. */
static double io_deadline(sc__runner *r, double until) {
  r->io_asked_at = sc__now_ms();
  double left = until - r->io_asked_at;
  return (left > 0 ? left : 0) + SC__CAPTURE_GRACE_MS;
}

int sc__runner_capture(sc__runner *r, sc_rect clip, double until, sc__io_captured cb) {
  int rc = r->io.capture(r->io.ctx, clip, r->fast_capture, io_deadline(r, until), cb, r);
  if (rc == 0) r->pending = 1;
  return rc;
}

/* The settled capture by screenshot pairs: captures back to back until
 * two in a row are identical (and, with quiet_ms, unchanged that long),
 * or the deadline. */
static void settle_next(sc__runner *r);

static void settle_finish(sc__runner *r, int rc) { r->settle.done(r, rc); }

int sc__runner_settle_take(sc__runner *r, int status, const char *errmsg, const char *raw,
                           size_t len, int *same) {
  sc__settle *st = &r->settle;
  *same = 0;
  int rc = sc__runner_reply(r, status, errmsg);
  if (rc == 0) rc = sc__runner_take(r, &st->f, NULL, st->clip, raw, len, same, NULL);
  /* held packed until the next capture (or whoever takes it) looks at it */
  if (rc == 0) rc = sc__frame_hold(&st->f);
  return rc;
}

static void settle_captured(int status, const char *errmsg, const char *raw, size_t len,
                            void *ud) {
  sc__runner *r = ud;
  sc__settle *st = &r->settle;
  int same = 0;
  int rc = sc__runner_settle_take(r, status, errmsg, raw, len, &same);
  if (rc < 0) {
    settle_finish(r, rc);
    return;
  }
  double now = sc__now_ms();
  if (!same) st->since = r->io_asked_at; /* a new picture: on screen since we asked, at most */
  if (same && now - st->since >= st->quiet_ms) {
    settle_finish(r, 0);
    return;
  }
  if (now >= st->deadline) {
    settle_finish(r, SC__NOT_AT_REST);
    return;
  }
  if (same && !sc__runner_blind_quiet(r)) {
    /* unchanged, not yet for long enough: look again a little later */
    double at = st->since + st->quiet_ms;
    if (at > now + SC__QUIET_POLL_MS) at = now + SC__QUIET_POLL_MS;
    if (at > st->deadline) at = st->deadline;
    if (sc__runner_after(r, at, settle_next) < 0) settle_finish(r, SC_ENOMEM);
    return;
  }
  /* a change, or a page the log is blind on: every capture in the quiet
   * time is compared with the one before it, so a change that comes and
   * goes inside it is seen */
  settle_next(r);
}

static void settle_next(sc__runner *r) {
  int rc = sc__runner_capture(r, r->settle.clip, r->settle.deadline, settle_captured);
  if (rc < 0) settle_finish(r, rc);
}

void sc__runner_seed(sc__runner *r, sc__frame *out, sc_rect clip) {
  *out = r->last;
  r->last = (sc__frame){0};
  /* proven settled at a log position only as it was captured, not composed */
  r->seed_ok = r->last_seq_ok && sc__frame_has(out) && sc__rect_covers(out->clip, clip);
  r->seed_seq = r->last_seq;
  r->last_seq_ok = 0;
  r->seed_cover = r->seed_ok ? r->last_cover : 0;
  r->last_cover = 0;
  if (!sc__frame_has(out) || sc__rect_covers(out->clip, clip)) return;
  const sc__frame *start = sc__runner_snap_get(r, "start");
  sc_image *img = NULL;
  if (start && sc__rect_covers(start->clip, clip) &&
      sc__frame_compose(&img, start, out, clip) == 0) {
    sc__frame_free(out);
    out->img = img;
    out->clip = clip;
  }
}

void sc__runner_settle(sc__runner *r, sc_rect clip, double deadline, sc__settle_done done,
                       sc__frame *seed) {
  sc__settle *st = &r->settle;
  sc__frame_free(&st->f);
  if (seed && sc__frame_has(seed) && !memcmp(&seed->clip, &clip, sizeof clip)) {
    /* Exactly the clip (a composed seed, or a last capture of the same
     * clip): taken as it is, its bytes' hash too, which is a capture of
     * this clip. */
    sc__frame_move(&st->f, seed);
    if (sc__frame_hold(&st->f) < 0) sc__frame_free(&st->f);
  } else if (seed && sc__frame_crop(&st->f.img, seed, clip) == 0) {
    /* A part of it: no bytes to compare with (rawhash 0), so the first
     * capture is decoded and compared pixel by pixel. Out of memory: no
     * seed, two captures. */
    st->f.clip = clip;
    if (sc__frame_hold(&st->f) < 0) sc__frame_free(&st->f);
  }
  st->seq_ok = r->seed_ok && sc__frame_has(&st->f);
  st->seq = r->seed_seq;
  r->seed_ok = 0;
  st->log_after = SC__LOG_FROM_NOW; /* no seed: from the log's position now */
  st->begun = sc__now_ms();
  st->clip = clip;
  st->deadline = deadline;
  st->done = done;
  /* a page the log is blind on: unchanged for the quiet time, not only
   * twice in a row (docs/design.md, "Proof of rest") */
  st->quiet_ms = sc__runner_blind_quiet(r);
  st->since = 0;
  if (sc__runner_logging(r))
    sc__runner_settle_log(r);
  else
    settle_next(r);
}

void sc__runner_settle_pairs(sc__runner *r) { settle_next(r); }

void sc__runner_settle_quiet(sc__runner *r, sc_rect clip, double deadline, double quiet_ms,
                             sc__settle_done done) {
  sc__settle *st = &r->settle;
  sc__frame_free(&st->f);
  st->clip = clip;
  st->deadline = deadline;
  st->done = done;
  st->quiet_ms = quiet_ms > 0 ? quiet_ms : 0;
  st->since = 0;
  st->seq_ok = 0;
  st->log_after = SC__LOG_FROM_NOW; /* no seed: from the log's position now */
  st->begun = sc__now_ms();
  if (sc__runner_logging(r))
    sc__runner_settle_log(r);
  else
    settle_next(r);
}

int sc__runner_snap_put(sc__runner *r, const char *name, const sc__frame *f) {
  sc__snap *sn = NULL;
  for (size_t i = 0; i < r->nsnaps && !sn; i++)
    if (!strcmp(r->snaps[i].name, name)) sn = &r->snaps[i];
  if (!sn) {
    sc__snap *n = sc__realloc(r->snaps, (r->nsnaps + 1) * sizeof *n);
    if (!n) return sc__err(SC_ENOMEM, "runner: out of memory");
    r->snaps = n;
    sn = &n[r->nsnaps];
    *sn = (sc__snap){0};
    sn->name = sc__strdup(name);
    if (!sn->name) return sc__err(SC_ENOMEM, "runner: out of memory");
    r->nsnaps++;
  }
  sc__frame_free(&sn->f);
  sn->f.clip = f->clip;
  return f->pk.data ? sc__packed_dup(&sn->f.pk, &f->pk) : sc__pack(&sn->f.pk, f->img);
}

const sc__frame *sc__runner_snap_get(void *ud, const char *name) {
  sc__runner *r = ud;
  for (size_t i = 0; i < r->nsnaps; i++)
    if (!strcmp(r->snaps[i].name, name))
      return sc__frame_has(&r->snaps[i].f) ? &r->snaps[i].f : NULL;
  return NULL;
}

const sc_image *sc__runner_baseline(void *ud, const char *path) {
  sc__runner *r = ud;
  for (size_t i = 0; i < r->nbaselines; i++)
    if (!strcmp(r->baselines[i].path, path)) return r->baselines[i].img;
  sc_image *img = NULL;
  if (sc_image_load_png(&img, path, NULL) < 0) return NULL;
  sc__baseline *n = sc__realloc(r->baselines, (r->nbaselines + 1) * sizeof *n);
  if (!n) {
    sc_image_free(img);
    return NULL;
  }
  r->baselines = n;
  n[r->nbaselines].path = sc__strdup(path);
  if (!n[r->nbaselines].path) {
    sc_image_free(img);
    return NULL;
  }
  n[r->nbaselines].img = img;
  r->nbaselines++;
  return img;
}

void sc__runner_snaps_clear(sc__runner *r) {
  for (size_t i = 0; i < r->nsnaps; i++) {
    sc__free(r->snaps[i].name);
    sc__frame_free(&r->snaps[i].f);
  }
  r->nsnaps = 0;
}

void sc__runner_clear(sc__runner *r) {
  if (r->timer && r->io.cancel) r->io.cancel(r->io.ctx, r->timer);
  r->timer = 0;
  sc_image_free(r->guest_before);
  r->guest_before = NULL;
  sc__frame_free(&r->settle.f);
  sc__frame_free(&r->last);
  sc__runner_snaps_clear(r);
  sc__free(r->snaps);
  for (size_t i = 0; i < r->nbaselines; i++) {
    sc__free(r->baselines[i].path);
    sc_image_free(r->baselines[i].img);
  }
  sc__free(r->baselines);
  sc__runner_plan_free(r);
  sc__judge_prep_free(r->prep);
  if (r->scenario) r->s = r->scenario;
  sc__located_free(r->resolved);
  r->resolved = NULL;
  r->prep = NULL;
  r->keep = NULL;
  r->snaps = NULL;
  r->baselines = NULL;
  r->need = NULL;
  r->nsnaps = r->nbaselines = 0;
}
