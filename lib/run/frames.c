/* Frames of passed steps (sc_run_options.pass_frames_bytes): for each
 * region the step's expectations name, its at-rest capture before the
 * gesture and the capture its verdict was given on, as PNGs beside the
 * failure images, while the run's budget lasts. A step keeps all its
 * frames or none: they are encoded first, and written only when their
 * bytes fit in what is left; the first step that does not fit ends the
 * keeping for every user of the run, so the report can say from where on
 * frames are missing (docs/design.md, "Reports"). */
#include <string.h>

#include "artifacts.h"
#include "core/core.h"
#include "image/png_file.h"
#include "runner.h"

/* At most one pair per expectation: a step names few regions. */
typedef struct frame_png {
  size_t region;
  void *png[2]; /* before, after */
  size_t len[2];
} frame_png;

static int named_before(const sc_step *st, size_t e) {
  for (size_t k = 0; k < e; k++)
    if (st->expect[k].region == st->expect[e].region) return 1;
  return 0;
}

/* Region `reg` of frame f (which covers it) encoded; 0 or a negative
 * sc_error. */
static int encode(void **png, size_t *len, const sc__frame *f, sc_rect reg) {
  sc_image *img = NULL;
  int rc = sc__frame_crop(&img, f, reg);
  if (rc == 0) rc = sc_image_encode_png(png, len, img);
  sc_image_free(img);
  return rc;
}

/* Write the encoded pairs and list them; a file that could not be written
 * is named in the reason, as a failure image is. */
static long long write_all(sc__runner *r, sc_step_result *res, const frame_png *fp, size_t n) {
  static const char *const kinds[2] = {"before", "after"};
  long long bytes = 0;
  char *why = NULL;
  int lost = 0;
  for (size_t i = 0; i < n; i++) {
    char *dir_why = NULL;
    char *base = sc__runner_artifact_base(r, res->step_id, r->s->regions[fp[i].region].name,
                                          r->cycle, &dir_why);
    if (!why) why = dir_why; /* the first failure says why */
    else sc__free(dir_why);
    for (int k = 0; k < 2; k++) {
      char *path = base ? sc__asprintf("%s-%s.png", base, kinds[k]) : NULL;
      int rc = path ? sc__png_write(path, fp[i].png[k], fp[i].len[k]) : SC_ENOMEM;
      if (rc == 0 && sc__artifact_add(res, path) == 0) {
        bytes += (long long)fp[i].len[k];
      } else {
        lost++;
        if (!why) why = sc__asprintf("%s", rc ? sc_errmsg() : "out of memory");
      }
      sc__free(path);
    }
    sc__free(base);
  }
  if (lost) {
    char *note = sc__asprintf("%d of %zu frames not written: %s", lost, 2 * n,
                              why ? why : "out of memory");
    if (note) sc__artifact_note(res, note);
    sc__free(note);
  }
  sc__free(why);
  return bytes;
}

void sc__runner_pass_frames(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  sc__frames_budget *fb = r->frames;
  sc_step_result *res = sm->res;
  const sc_step *st = sm->st;
  if (!fb || fb->budget <= 0 || !r->report_dir || !res->passed || st->nexpect == 0) return;
  if (fb->spent) {
    res->frames_skipped = 1;
    return;
  }
  frame_png *fp = sc__calloc(st->nexpect, sizeof *fp);
  size_t n = 0;
  long long total = 0;
  int rc = fp ? 0 : SC_ENOMEM;
  for (size_t e = 0; e < st->nexpect && rc >= 0; e++) {
    if (named_before(st, e)) continue;
    size_t reg = st->expect[e].region;
    sc_rect rr = r->s->regions[reg].r, sub;
    /* a region the frames do not cover (judged on a snapshot) has nothing to show */
    if (sc__frame_sub(&sm->before, rr, &sub) || sc__frame_sub(&sm->cur, rr, &sub)) continue;
    fp[n].region = reg;
    rc = encode(&fp[n].png[0], &fp[n].len[0], &sm->before, rr);
    if (rc == 0) rc = encode(&fp[n].png[1], &fp[n].len[1], &sm->cur, rr);
    if (rc == 0) total += (long long)(fp[n].len[0] + fp[n].len[1]);
    if (rc == 0) n++;
  }
  if (rc < 0) { /* out of memory encoding: say so, as a write that failed */
    char *note = sc__asprintf("frames not written: %s", sc_errmsg());
    if (note) sc__artifact_note(res, note);
    sc__free(note);
  } else if (total > fb->budget - fb->written) {
    fb->spent = 1;
    res->frames_skipped = 1;
  } else {
    long long bytes = write_all(r, res, fp, n);
    fb->written += bytes;
    if (r->rr) r->rr->pass_frames_written += bytes;
  }
  for (size_t i = 0; fp && i <= n && i < st->nexpect; i++) {
    sc__free(fp[i].png[0]);
    sc__free(fp[i].png[1]);
  }
  sc__free(fp);
}

/* The whole guest before and after step res (sc_run_options.pass_frames_guest),
 * named "guest" (or "@guest", kept apart by its hash, when a region is
 * called guest), within the same budget: a pair that does not fit ends the
 * keeping as a region's would. */
void sc__runner_guest_frames(sc__runner *r, sc_step_result *res, const sc_image *after) {
  sc__frames_budget *fb = r->frames;
  const sc_image *img[2] = {r->guest_before, after};
  if (!fb || !img[0] || !img[1] || !r->report_dir) return;
  if (fb->spent) {
    if (res->passed) res->frames_skipped = 1;
    return;
  }
  static const char *const kinds[2] = {"before", "after"};
  void *png[2] = {NULL, NULL};
  size_t len[2] = {0, 0};
  int rc = 0;
  for (int k = 0; k < 2 && rc == 0; k++) rc = sc_image_encode_png(&png[k], &len[k], img[k]);
  if (rc < 0) {
    char *note = sc__asprintf("guest frames not written: %s", sc_errmsg());
    if (note) sc__artifact_note(res, note);
    sc__free(note);
  } else if ((long long)(len[0] + len[1]) > fb->budget - fb->written) {
    fb->spent = 1;
    if (res->passed) res->frames_skipped = 1;
  } else {
    char *why = NULL;
    const char *name = sc_scenario_region(r->s, "guest") >= 0 ? "@guest" : "guest";
    char *base = sc__runner_artifact_base(r, res->step_id, name, r->cycle, &why);
    int lost = 0;
    for (int k = 0; k < 2; k++) {
      char *path = base ? sc__asprintf("%s-%s.png", base, kinds[k]) : NULL;
      int wrc = path ? sc__png_write(path, png[k], len[k]) : SC_ENOMEM;
      if (wrc == 0 && sc__artifact_add(res, path) == 0) {
        fb->written += (long long)len[k];
        if (r->rr) r->rr->pass_frames_written += (long long)len[k];
      } else {
        lost++;
        if (!why) why = sc__asprintf("%s", wrc ? sc_errmsg() : "out of memory");
      }
      sc__free(path);
    }
    if (lost) {
      char *note = sc__asprintf("%d of 2 guest frames not written: %s", lost, why ? why : "out of memory");
      if (note) sc__artifact_note(res, note);
      sc__free(note);
    }
    sc__free(why);
    sc__free(base);
  }
  sc__free(png[0]);
  sc__free(png[1]);
}
