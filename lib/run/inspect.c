/* stepcheck inspect: the scenario drawn on a settled capture of its page. */
#include <stdio.h>

#include "core/core.h"
#include "inspect_labels.h"
#include "locate/locate.h"
#include "scenario/locators.h"
#include "stepcheck/inspect.h"

#define REGION_RGB 0xff00ffu
#define POINT_RGB 0x00ffffu
#define PARK_RGB 0xffff00u
#define MISS_RGB 0xff3030u
#define LABEL_BG 0x000000u
#define RULER_RGB 0xffffffu
/* How long locators are looked for (SC__LOCATE_WAIT_MS in a run). */
#define SC__INSPECT_LOCATE_MS 15000.0
/* The ruler: a tick every 10 px, longer every 50, a number every 100. */
#define SC__RULER_TICK 10

static int tick_len(int v) { return v % 100 == 0 ? 8 : v % 50 == 0 ? 5 : 2; }

static int ruler(sc_image *img, sc__labels *L) {
  char num[16];
  for (int x = 0; x < img->width; x += SC__RULER_TICK) {
    /* white beside black: seen on a light menu bar and on a dark map */
    sc_image_draw_rect(img, (sc_rect){x, 0, 1, tick_len(x)}, RULER_RGB);
    sc_image_draw_rect(img, (sc_rect){x + 1, 0, 1, tick_len(x)}, LABEL_BG);
    if (x % 100 == 0 && x > 0) {
      snprintf(num, sizeof num, "%d", x);
      sc_image_draw_text(img, x + 2, 2, num, RULER_RGB, LABEL_BG);
    }
  }
  for (int y = 0; y < img->height; y += SC__RULER_TICK) {
    sc_image_draw_rect(img, (sc_rect){0, y, tick_len(y), 1}, RULER_RGB);
    sc_image_draw_rect(img, (sc_rect){0, y + 1, tick_len(y), 1}, LABEL_BG);
    if (y % 100 == 0 && y > 0) {
      snprintf(num, sizeof num, "%d", y);
      sc_image_draw_text(img, 2, y + 2, num, RULER_RGB, LABEL_BG);
    }
  }
  /* labels stay off the ruler's bands */
  int rc = 0;
  for (int x = 0; x < img->width && rc == 0; x += 14) rc = sc__labels_mark(L, (sc_point){x, 2});
  for (int y = 0; y < img->height && rc == 0; y += 14) rc = sc__labels_mark(L, (sc_point){2, y});
  return rc;
}

/* Capture at rest and find the locators, looking again for a while when
 * they are not found (a client may show a still, blank canvas until it
 * connects). 0, SC_ELOCATE with *img, *found and *miss set (the picture
 * is still drawn), or another error with nothing handed out. */
static int capture_and_locate(sc_image **img, sc_scenario **resolved, sc_located ***found,
                              size_t *nfound, sc__locate_miss *miss, sc_page *p,
                              const sc_scenario *s, int w, int h) {
  double until = sc__now_ms() + SC__INSPECT_LOCATE_MS;
  for (;;) {
    int rc = sc_page_capture_at_rest(img, p, (sc_rect){0, 0, w, h}, 10000);
    if (rc < 0) return rc;
    if (!s->locators) return 0;
    rc = sc__locate(resolved, found, nfound, s, *img, 0, NULL, miss);
    if (rc == 0) return 0;
    if (rc == SC_ELOCATE && (miss->final || sc__now_ms() + 500 >= until)) return rc;
    for (size_t i = 0; i < *nfound; i++) sc__free((*found)[i]);
    sc__free(*found);
    *found = NULL;
    *nfound = 0;
    sc_image_free(*img);
    *img = NULL;
    if (rc != SC_ELOCATE) return rc;
    sc__errsave e;
    sc__err_save(&e);
    sc_loop_run(sc_page_loop(p), 500); /* nothing else is on this loop: a pause */
    sc__err_restore(&e, rc);
  }
}

static void say(void (*line)(const char *, void *), void *ud, const char *text) {
  if (line) line(text, ud);
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
  sc_scenario *resolved = NULL;
  sc_located **found = NULL;
  size_t nfound = 0;
  sc__locate_miss miss = {-1, 0, {{0, 0, 0, 0}}, {0}, 0};
  int rc = capture_and_locate(&img, &resolved, &found, &nfound, &miss, p, s, w, h);
  if (rc < 0 && rc != SC_ELOCATE) return rc;
  sc__errsave failed;
  sc__err_save(&failed); /* the locator's message, returned after drawing */
  const sc_scenario *orig = s;
  if (resolved) s = resolved;
  /* On a failure only what was found, and what was given, has a place. */
  int partial = rc == SC_ELOCATE;
  for (size_t i = 0; i < nfound; i++) {
    const sc_located *l = found[i];
    if (l->is_region)
      snprintf(text, sizeof text, "located region %s at %d,%d %dx%d score %.3f", l->name, l->r.x,
               l->r.y, l->r.w, l->r.h, l->score);
    else
      snprintf(text, sizeof text, "located point %s at %g,%g score %.3f", l->name, l->p.x, l->p.y,
               l->score);
    say(line, userdata, text);
  }
  /* Colours first, from the clean capture. */
  for (size_t i = 0; line && i < s->npoints; i++) {
    const sc_named_point *np = &s->points[i];
    if (partial && sc__scenario_located(orig, 0, i)) continue;
    uint32_t px = sc_image_pixel(img, (int)np->p.x, (int)np->p.y);
    snprintf(text, sizeof text, "point %s %g,%g colour #%06x", np->name, np->p.x, np->p.y,
             (unsigned)(px >> 8));
    line(text, userdata);
  }
  sc__labels L;
  sc__labels_init(&L, img->width, img->height);
  int drc = ruler(img, &L);
  /* points are marked before any label is placed, so none covers one */
  for (size_t i = 0; drc == 0 && i < s->npoints; i++)
    if (!(partial && sc__scenario_located(orig, 0, i))) drc = sc__labels_mark(&L, s->points[i].p);
  for (size_t i = 0; drc == 0 && partial && i < nfound; i++)
    if (!found[i]->is_region) drc = sc__labels_mark(&L, found[i]->p);
  if (drc == 0 && s->has_park) drc = sc__labels_mark(&L, s->park);
  for (int i = 0; drc == 0 && partial && i < miss.ncand; i++) {
    sc_rect c = miss.cand[i];
    drc = sc__labels_block(&L, (sc_rect){c.x - 1, c.y - 1, c.w + 2, c.h + 2});
  }
  for (size_t i = 0; i < nfound; i++) /* a point's template match */
    if (!found[i]->is_region && found[i]->r.w > 0) sc_image_draw_rect(img, found[i]->r, POINT_RGB);
  for (size_t i = 0; drc >= 0 && i < s->nregions; i++) {
    const sc_region *r = &s->regions[i];
    if (partial && sc__scenario_located(orig, 1, i)) continue;
    sc_image_draw_rect(img, r->r, REGION_RGB);
    drc = sc__labels_place(&L, img, r->r.x, r->r.y, r->name, REGION_RGB, LABEL_BG);
    snprintf(text, sizeof text, "region %s %dx%d at %d,%d", r->name, r->r.w, r->r.h, r->r.x,
             r->r.y);
    say(line, userdata, text);
  }
  for (size_t i = 0; drc >= 0 && partial && i < nfound; i++)
    if (found[i]->is_region) {
      sc_image_draw_rect(img, found[i]->r, REGION_RGB);
      drc = sc__labels_place(&L, img, found[i]->r.x, found[i]->r.y, found[i]->name, REGION_RGB,
                             LABEL_BG);
    }
  for (size_t i = 0; drc >= 0 && i < s->npoints; i++) {
    const sc_named_point *np = &s->points[i];
    if (partial && sc__scenario_located(orig, 0, i)) continue;
    sc_image_draw_cross(img, np->p, 6, POINT_RGB);
    drc = sc__labels_place(&L, img, (int)np->p.x, (int)np->p.y, np->name, POINT_RGB, LABEL_BG);
  }
  for (size_t i = 0; drc >= 0 && partial && i < nfound; i++)
    if (!found[i]->is_region) {
      sc_image_draw_cross(img, found[i]->p, 6, POINT_RGB);
      drc = sc__labels_place(&L, img, (int)found[i]->p.x, (int)found[i]->p.y, found[i]->name,
                             POINT_RGB, LABEL_BG);
    }
  if (drc >= 0 && s->has_park) {
    sc_image_draw_cross(img, s->park, 6, PARK_RGB);
    drc = sc__labels_place(&L, img, (int)s->park.x, (int)s->park.y, "park", PARK_RGB, LABEL_BG);
  }
  /* The locator that failed: its best candidates, outlined and scored. */
  if (partial && miss.locator >= 0) {
    const sc__locator *fl = &orig->locators->v[miss.locator];
    const char *nm = fl->self.is_region ? orig->regions[fl->self.index].name
                                        : orig->points[fl->self.index].name;
    for (int i = 0; drc >= 0 && i < miss.ncand; i++) {
      sc_rect c = miss.cand[i];
      sc_image_draw_rect(img, c, MISS_RGB);
      sc_image_draw_rect(img, (sc_rect){c.x - 1, c.y - 1, c.w + 2, c.h + 2}, MISS_RGB);
      snprintf(text, sizeof text, "%s? #%d %.3f", nm, i + 1, miss.score[i]);
      drc = sc__labels_place(&L, img, c.x + c.w, c.y + c.h, text, MISS_RGB, LABEL_BG);
      snprintf(text, sizeof text, "candidate %d for %s at %d,%d %dx%d score %.3f", i + 1, nm, c.x,
               c.y, c.w, c.h, miss.score[i]);
      say(line, userdata, text);
    }
  }
  if (drc >= 0 && L.dropped) {
    snprintf(text, sizeof text, "%d label%s left out: no free place", L.dropped,
             L.dropped == 1 ? "" : "s");
    say(line, userdata, text);
  }
  sc__labels_free(&L);
  for (size_t i = 0; i < nfound; i++) sc__free(found[i]);
  sc__free(found);
  sc__located_free(resolved);
  if (drc < 0) {
    sc_image_free(img);
    return sc__err(SC_ENOMEM, "inspect: out of memory");
  }
  *out = img;
  return partial ? sc__err_restore(&failed, rc) : 0;
}
