/* Readings for the judge: the scale bar and text, from a frame's region. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "judge.h"
#include "stepcheck/text.h"

void sc__scale_read(sc__scale *out, const sc__frame *f, sc_rect r, const char *profile) {
  memset(out, 0, sizeof *out);
  const sc_image *img;
  sc_image *tmp;
  sc_rect s;
  if (sc__frame_view(f, r, &img, &s, &tmp) != 0) {
    snprintf(out->why, sizeof out->why, "region not captured");
    return;
  }
  sc_scale_reading rd;
  int rc = sc_scalebar_read(&rd, img, s, profile ? profile : "josm", NULL);
  sc_image_free(tmp);
  if (rc < 0) {
    snprintf(out->why, sizeof out->why, "%s", sc_errmsg());
    return;
  }
  if (rd.less_than || rd.metres_per_px <= 0) {
    snprintf(out->why, sizeof out->why, "\"%s\" is a bound, not a scale", rd.text);
    return;
  }
  out->ok = 1;
  out->mpp = rd.metres_per_px;
  out->rel_err = rd.rel_err;
  out->bar_px = rd.bar_px;
  snprintf(out->text, sizeof out->text, "%s", rd.text);
}

int sc__text_read(char *buf, size_t len, const sc__frame *f, sc_rect r, const sc_glyphset *gs) {
  buf[0] = '\0';
  const sc_image *img;
  sc_image *tmp;
  sc_rect s;
  if (sc__frame_view(f, r, &img, &s, &tmp) != 0)
    return sc__err(SC_EINVAL, "text: region not captured");
  sc_text_result tr;
  int rc = sc_text_read(&tr, img, s, gs, NULL);
  sc_image_free(tmp);
  if (rc == 0) snprintf(buf, len, "%s", tr.text);
  return rc;
}
