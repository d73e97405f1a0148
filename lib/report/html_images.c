/* The images under the HTML report's step rows: a failure's before, after
 * and diff beside its reason, a passed step's kept frames as thumbnails
 * (or why it has none), and the note on what the run's frame budget kept.
 * Every image is a link to its file (relative URL, html_src.c) and is shown
 * only when the file is there. */
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "report/report_int.h"

/* "before", "after" or "diff" from the runner's file names
 * (...-before.png), else "image". */
static const char *artifact_kind(const char *path) {
  static const char *const kinds[] = {"before", "after", "diff"};
  size_t len = strlen(path);
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    size_t k = strlen(kinds[i]) + sizeof "-.png" - 1;
    if (len >= k && path[len - k] == '-' && !strncmp(path + len - k + 1, kinds[i], k - 5) &&
        !strcmp(path + len - 4, ".png"))
      return kinds[i];
  }
  return "image";
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* An image is shown only when its file is there as the page is written: a
 * listed file that is gone (a report written again after a clean-up) is
 * named as missing instead of drawn as a broken image. */
static int file_there(const char *path) {
  struct stat sb;
  return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The region part of a runner's file name, USER@cC-STEP@REGION-KIND.png:
 * what a thumbnail's caption needs (the whole name is its tooltip). */
static void put_region(FILE *f, const char *path, const char *kind) {
  const char *b = base_name(path), *at = strrchr(b, '@');
  size_t tail = strlen(kind) + sizeof "-.png" - 1, len = at ? strlen(at + 1) : 0;
  if (!at || len <= tail || !strcmp(kind, "image")) {
    sc__report_put_xml(f, b, 1);
    return;
  }
  char *region = sc__strndup(at + 1, len - tail);
  sc__report_put_xml(f, region ? region : b, 1);
  sc__free(region);
}

/* One image as a link to itself (full size), captioned with its whole name
 * (failures) or its region (thumbnails), or its name marked missing. */
static int figure(FILE *f, const char *page, const char *a, const char *cls) {
  const char *kind = artifact_kind(a);
  int thumb = !strcmp(cls, "thumb");
  if (!file_there(a)) {
    fputs("<figure class=\"missing\"><figcaption><b>missing</b> ", f);
    sc__report_put_xml(f, base_name(a), 1);
    fputs("</figcaption></figure>\n", f);
    return 0;
  }
  fputs("<figure><a href=\"", f);
  int rc = sc__html_src(f, page, a);
  if (!rc) fprintf(f, "\"><img class=\"%s\" src=\"", cls);
  if (!rc) rc = sc__html_src(f, page, a);
  if (rc) return rc;
  fprintf(f, "\" alt=\"%s\" title=\"", kind);
  sc__report_put_xml(f, base_name(a), 1);
  fprintf(f, "\"></a><figcaption><b>%s</b> ", kind);
  if (thumb)
    put_region(f, a, kind);
  else
    sc__report_put_xml(f, base_name(a), 1);
  fputs("</figcaption></figure>\n", f);
  return 0;
}

/* The failure's images beside its reason, in a row under it. */
int sc__html_shots_row(FILE *f, const char *page, const sc_step_result *s, int user, size_t i,
                       int columns) {
  fprintf(f, "<tr class=\"shots\"><td colspan=\"%d\"><div class=\"shots\" id=\"fail-%d-%zu\">"
             "<p class=\"why\">", columns, user, i);
  sc__report_put_xml(f, s->reason ? s->reason : "failed", 1);
  fputs("</p>\n", f);
  for (size_t k = 0; k < s->nartifacts; k++) {
    int rc = figure(f, page, s->artifacts[k], "shot");
    if (rc) return rc;
  }
  fputs("</div></td></tr>\n", f);
  return 0;
}

/* A passed step's frames as thumbnails (before, after per region), or why
 * it has none when the run keeps passed steps' frames. */
int sc__html_frames_row(FILE *f, const char *page, const sc_run_result *r,
                        const sc_step_result *s, int user, size_t i, int columns) {
  if (!s->nartifacts && !s->frames_skipped) return 0;
  fprintf(f, "<tr class=\"frames\"><td colspan=\"%d\"><div class=\"frames\" "
             "id=\"frames-%d-%zu\">", columns, user, i);
  if (s->frames_skipped) {
    char buf[64];
    fprintf(f, "<p class=\"skipped\">frames not kept: the run's budget for passed steps' "
               "frames (%s) was spent</p>", sc__report_bytes(buf, sizeof buf,
                                                         r->pass_frames_budget));
  }
  for (size_t k = 0; k < s->nartifacts; k++) {
    int rc = figure(f, page, s->artifacts[k], "thumb");
    if (rc) return rc;
  }
  fputs("</div></td></tr>\n", f);
  return 0;
}

/* What was kept of passed steps' frames, and from where on the budget left
 * them out. */
void sc__html_frames_note(FILE *f, const sc_run_result *r, int user) {
  if (r->pass_frames_budget <= 0) return;
  size_t skipped = 0, first = 0;
  for (size_t i = 0; i < r->nresults; i++)
    if (r->results[i]->frames_skipped && !skipped++) first = i;
  char used[64], budget[64];
  /* with many users the budget is the run's and the bytes this user's */
  fprintf(f, "<p class=\"meta frames\">frames of passed steps: %s written by this user (run "
             "budget %s",
          sc__report_bytes(used, sizeof used, r->pass_frames_written),
          sc__report_bytes(budget, sizeof budget, r->pass_frames_budget));
  if (!skipped) {
    fputs(")</p>\n", f);
    return;
  }
  const sc_step_result *s = r->results[first];
  fprintf(f, "); <b>budget spent</b>: %zu passed step%s kept no frames, from <a href=\"#r-%d-%zu\">",
          skipped, skipped == 1 ? "" : "s", user, first);
  if (s->setup)
    fputs("setup", f);
  else
    fprintf(f, "cycle %d", s->cycle);
  fputs(" step ", f);
  sc__report_put_xml(f, s->step_id ? s->step_id : "?", 1);
  fputs("</a> on</p>\n", f);
}

