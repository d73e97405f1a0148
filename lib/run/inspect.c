/* stepcheck inspect: the scenario drawn on a settled capture of its page. */
#include <stdio.h>

#include "core/core.h"
#include "locate/locate.h"
#include "stepcheck/inspect.h"

#define REGION_RGB 0xff00ffu
#define POINT_RGB 0x00ffffu
#define PARK_RGB 0xffff00u
#define LABEL_BG 0x000000u
#define RULER_RGB 0xffffffu
/* How long locators are looked for (SC__LOCATE_WAIT_MS in a run). */
#define SC__INSPECT_LOCATE_MS 15000.0

static void ruler(sc_image *img) {
  char num[16];
  for (int x = 0; x < img->width; x += 50) {
    for (int y = 0; y < (x % 100 ? 4 : 8); y++)
      sc_image_draw_rect(img, (sc_rect){x, y, 1, 1}, RULER_RGB);
    if (x % 100 == 0 && x > 0) {
      snprintf(num, sizeof num, "%d", x);
      sc_image_draw_text(img, x + 2, 2, num, RULER_RGB, LABEL_BG);
    }
  }
  for (int y = 0; y < img->height; y += 50) {
    for (int x = 0; x < (y % 100 ? 4 : 8); x++)
      sc_image_draw_rect(img, (sc_rect){x, y, 1, 1}, RULER_RGB);
    if (y % 100 == 0 && y > 0) {
      snprintf(num, sizeof num, "%d", y);
      sc_image_draw_text(img, 2, y + 2, num, RULER_RGB, LABEL_BG);
    }
  }
}

SC_EXTERN int sc_inspect(sc_image **out, sc_page *p, const sc_scenario *s,
                         void (*line)(const char *text, void *userdata), void *userdata) {
  if (!out) return sc__err(SC_EINVAL, "sc_inspect: out is NULL");
  *out = NULL;
  if (!p || !s) return sc__err(SC_EINVAL, "sc_inspect: page and scenario are required");
  int w = 0, h = 0;
  sc_page_canvas(p, NULL, NULL, &w, &h);
  sc_image *img = NULL;
  char text[320];
  /* Locators are found on the capture, and what they found is drawn; a
   * screen where they find nothing is looked at again for a while, as a
   * run does (a client may show a still, blank canvas until it connects). */
  sc_scenario *resolved = NULL;
  sc_located **found = NULL;
  size_t nfound = 0;
  double until = sc__now_ms() + SC__INSPECT_LOCATE_MS;
  int rc;
  for (;;) {
    if ((rc = sc_page_capture_at_rest(&img, p, (sc_rect){0, 0, w, h}, 10000)) < 0) return rc;
    if (!s->locators || (rc = sc__locate(&resolved, &found, &nfound, s, img, 0)) == 0) break;
    sc_image_free(img);
    img = NULL;
    if (rc != SC_ELOCATE || sc__now_ms() + 500 >= until) return rc;
    sc__errsave e;
    sc__err_save(&e);
    sc_loop_run(sc_page_loop(p), 500); /* nothing else is on this loop: a pause */
    sc__err_restore(&e, rc);
  }
  if (resolved) s = resolved;
  for (size_t i = 0; i < nfound; i++) {
    const sc_located *l = found[i];
    if (line) {
      if (l->is_region)
        snprintf(text, sizeof text, "located region %s at %d,%d %dx%d score %.3f", l->name, l->r.x,
                 l->r.y, l->r.w, l->r.h, l->score);
      else
        snprintf(text, sizeof text, "located point %s at %g,%g score %.3f", l->name, l->p.x,
                 l->p.y, l->score);
      line(text, userdata);
    }
  }
  /* Colours first, from the clean capture. */
  for (size_t i = 0; line && i < s->npoints; i++) {
    const sc_named_point *np = &s->points[i];
    uint32_t px = sc_image_pixel(img, (int)np->p.x, (int)np->p.y);
    snprintf(text, sizeof text, "point %s %g,%g colour #%06x", np->name, np->p.x, np->p.y,
             (unsigned)(px >> 8));
    line(text, userdata);
  }
  for (size_t i = 0; i < nfound; i++) { /* a point's template match */
    if (!found[i]->is_region && found[i]->r.w > 0) sc_image_draw_rect(img, found[i]->r, POINT_RGB);
    sc__free(found[i]);
  }
  sc__free(found);
  for (size_t i = 0; i < s->nregions; i++) {
    const sc_region *r = &s->regions[i];
    sc_image_draw_rect(img, r->r, REGION_RGB);
    sc_image_draw_text(img, r->r.x + 2, r->r.y + 2, r->name, REGION_RGB, LABEL_BG);
    if (line) {
      snprintf(text, sizeof text, "region %s %dx%d at %d,%d", r->name, r->r.w, r->r.h, r->r.x,
               r->r.y);
      line(text, userdata);
    }
  }
  for (size_t i = 0; i < s->npoints; i++) {
    const sc_named_point *np = &s->points[i];
    sc_image_draw_cross(img, np->p, 6, POINT_RGB);
    sc_image_draw_text(img, (int)np->p.x + 5, (int)np->p.y + 4, np->name, POINT_RGB, LABEL_BG);
  }
  if (s->has_park) {
    sc_image_draw_cross(img, s->park, 6, PARK_RGB);
    sc_image_draw_text(img, (int)s->park.x + 5, (int)s->park.y + 4, "park", PARK_RGB, LABEL_BG);
  }
  ruler(img);
  sc__located_free(resolved);
  *out = img;
  return 0;
}
