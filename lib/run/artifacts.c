/* Failure images: before, after and a diff for the region that failed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "runner.h"

static int add_artifact(sc_step_result *res, const char *path) {
  char **n = sc__realloc(res->artifacts, (res->nartifacts + 1) * sizeof *n);
  if (!n) return SC_ENOMEM;
  res->artifacts = n;
  n[res->nartifacts] = sc__strdup(path);
  if (!n[res->nartifacts]) return SC_ENOMEM;
  res->nartifacts++;
  return 0;
}

static int save_region(const sc__frame *f, sc_rect rr, const char *path) {
  sc_image *img = NULL;
  int rc = sc__frame_crop(&img, f, rr);
  if (rc == 0) rc = sc_image_save_png(img, path);
  sc_image_free(img);
  return rc;
}

void sc__runner_artifacts(sc__runner *r, sc_step_result *res, const char *region, sc_rect rr,
                          const sc__frame *before, const sc__frame *after, int cycle) {
  const char *dir = r->report_dir;
  if (!dir || !sc__frame_has(before) || !sc__frame_has(after)) return;
  if (mkdir(dir, 0755) < 0 && errno != EEXIST) return;
  char base[1024], path[1100];
  snprintf(base, sizeof base, "%s/c%d-%s-%s", dir, cycle, res->step_id, region);
  snprintf(path, sizeof path, "%s-before.png", base);
  if (save_region(before, rr, path) == 0) add_artifact(res, path);
  snprintf(path, sizeof path, "%s-after.png", base);
  if (save_region(after, rr, path) == 0) add_artifact(res, path);
  sc_image *diff = NULL;
  size_t n = 0;
  if (sc__frame_diff(&n, &diff, before, after, rr, NULL) == 0) {
    snprintf(path, sizeof path, "%s-diff.png", base);
    if (sc_image_save_png(diff, path) == 0) add_artifact(res, path);
  }
  sc_image_free(diff);
  if (res->nartifacts && res->reason) {
    char *withref = sc__asprintf("%s [see %s-{before,after,diff}.png]", res->reason, base);
    if (withref) {
      sc__free(res->reason);
      res->reason = withref;
    }
  }
}
