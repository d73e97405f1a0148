/* Failure images: before, after and a diff for the region that failed,
 * under names made from ids that cannot leave the report directory; an
 * image that could not be written is named in the step's reason. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "artifacts.h"
#include "core/core.h"
#include "runner.h"

static int keep_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '.' || c == '_' || c == '-';
}

int sc__name_part(char out[SC__NAME_PART_SIZE], const char *id) {
  if (!id) id = "";
  size_t len = strlen(id), n = 0;
  int changed = len == 0 || len > SC__NAME_PART_MAX;
  for (size_t i = 0; i < len && n < SC__NAME_PART_MAX; i++) {
    unsigned char c = (unsigned char)id[i];
    int bad = !keep_byte(c) || (n == 0 && (c == '.' || c == '-')) ||
              (c == '.' && out[n - 1] == '.');
    out[n++] = bad ? '_' : (char)c;
    changed |= bad;
  }
  if (n == 0) out[n++] = '_';
  out[n] = '\0';
  /* '~' is never kept from an id, so a hashed name never equals a kept one. */
  if (changed)
    snprintf(out + n, SC__NAME_PART_SIZE - n, "~%016" PRIx64, sc__hash64(id, len));
  return changed;
}

int sc__artifact_add(sc_step_result *res, const char *path) {
  char **n = sc__realloc(res->artifacts, (res->nartifacts + 1) * sizeof *n);
  if (!n) return SC_ENOMEM;
  res->artifacts = n;
  n[res->nartifacts] = sc__strdup(path);
  if (!n[res->nartifacts]) return SC_ENOMEM;
  res->nartifacts++;
  return 0;
}

void sc__artifact_note(sc_step_result *res, const char *note) {
  char *r = sc__asprintf("%s [%s]", res->reason ? res->reason : "failed", note);
  if (!r) return;
  sc__free(res->reason);
  res->reason = r;
}

typedef enum { IMG_CROP, IMG_DIFF } img_kind;

/* Write one image and list it; on failure the first failure's text is kept
 * in *why (the caller's, sc__free). */
static int write_one(sc_step_result *res, char **why, const char *path, img_kind kind,
                      const sc__frame *before, const sc__frame *after, sc_rect rr) {
  sc_image *img = NULL;
  size_t n = 0;
  int rc = kind == IMG_DIFF ? sc__frame_diff(&n, &img, before, after, rr, NULL)
                            : sc__frame_crop(&img, after, rr);
  if (rc == 0) rc = sc_image_save_png(img, path);
  sc_image_free(img);
  if (rc == 0 && sc__artifact_add(res, path) == 0) return 1;
  if (!*why) *why = sc__asprintf("%s", rc ? sc_errmsg() : "out of memory");
  return 0;
}

char *sc__runner_artifact_base(sc__runner *r, const char *step_id, const char *region, int cycle,
                               char **why) {
  *why = NULL;
  const char *dir = r->report_dir;
  if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
    *why = sc__asprintf("%s: %s", dir, strerror(errno));
    return NULL;
  }
  /* USER@cCYCLE-STEP@REGION: '@' is never kept from an id, so the parts
   * cannot run into each other. */
  char user[SC__NAME_PART_SIZE], step[SC__NAME_PART_SIZE], reg[SC__NAME_PART_SIZE];
  sc__name_part(user, r->rr && r->rr->user_name ? r->rr->user_name : "user");
  sc__name_part(step, step_id);
  sc__name_part(reg, region);
  return sc__asprintf("%s/%s@c%d-%s@%s", dir, user, cycle, step, reg);
}

void sc__runner_artifacts(sc__runner *r, sc_step_result *res, const char *region, sc_rect rr,
                          const sc__frame *before, const sc__frame *after, int cycle) {
  if (!r->report_dir || !sc__frame_has(before) || !sc__frame_has(after)) return;
  char *why = NULL;
  char *base = sc__runner_artifact_base(r, res->step_id, region, cycle, &why);
  if (!base && why) {
    char *note = sc__asprintf("failure images not written: %s", why);
    if (note) sc__artifact_note(res, note);
    sc__free(note);
    sc__free(why);
    return;
  }
  char *paths[3] = {
      base ? sc__asprintf("%s-before.png", base) : NULL,
      base ? sc__asprintf("%s-after.png", base) : NULL,
      base ? sc__asprintf("%s-diff.png", base) : NULL,
  };
  int written = 0;
  /* a region whose verdict does not compare with the screen before the
   * gesture (a colour, equals, text) is not in that capture: after only */
  sc_rect sub;
  int with_before = sc__frame_sub(before, rr, &sub) == 0, want = with_before ? 3 : 1;
  if (!paths[0] || !paths[1] || !paths[2]) {
    why = sc__asprintf("out of memory");
  } else if (with_before) {
    written += write_one(res, &why, paths[0], IMG_CROP, before, before, rr);
    written += write_one(res, &why, paths[1], IMG_CROP, before, after, rr);
    written += write_one(res, &why, paths[2], IMG_DIFF, before, after, rr);
  } else {
    written += write_one(res, &why, paths[1], IMG_CROP, before, after, rr);
  }
  char *note = NULL;
  if (written < want)
    note = sc__asprintf("%d of %d failure images not written: %s", want - written, want,
                        why ? why : "out of memory");
  else if (with_before)
    note = sc__asprintf("see %s-{before,after,diff}.png", base);
  else
    note = sc__asprintf("see %s-after.png (judged on it alone: the screen before the gesture "
                        "was not captured there)", base);
  if (note) sc__artifact_note(res, note);
  sc__free(note);
  sc__free(why);
  for (int i = 0; i < 3; i++) sc__free(paths[i]);
  sc__free(base);
}
