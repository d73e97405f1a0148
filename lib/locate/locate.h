/* The locate layer: a scenario's locators resolved against one capture of
 * the whole guest, for one user. Internal, not installed. */
#ifndef SC_LOCATE_H
#define SC_LOCATE_H

#include "stepcheck/image.h"
#include "stepcheck/scenario.h"
#include "scenario/model.h"

/* Resolve every locator of s on guest (a capture of the whole guest, the
 * guest's size). *out is a copy of s with its own points, regions and step
 * arrays, every located point and region filled in and every gesture and
 * park that names a located point moved there; strings, expectations and
 * the rest are s's (borrowed: s must outlive it). Free it with
 * sc__located_free. Where each was found goes to *found (n entries,
 * cycle set on each; free each and the array with sc__free).
 * SC_ELOCATE, message naming the locator, when one is not found, found in
 * more than one place, or lands outside the guest. */
/* Why a locator was not found, for pictures (stepcheck inspect): which
 * one, and its best candidates (a template's places with exact scores, a
 * text's boxes with score 0), best first. */
#define SC__LOC_SHOW 3
typedef struct sc__locate_miss {
  int locator;                 /* index in s->locators->v; -1: none failed */
  int ncand;
  sc_rect cand[SC__LOC_SHOW];
  double score[SC__LOC_SHOW];
  int final;                   /* the search hit its size or time limit: looking
                                  again on another capture cannot help */
} sc__locate_miss;

/* cancel (borrowed, may be NULL): non-zero ends a template search within
 * a few ms with SC_ECANCELED. With miss non-NULL, a failure still hands
 * out what was found before it in *found / *n (*out stays NULL) and fills
 * *miss; with miss NULL nothing is handed out on failure. */
int sc__locate(sc_scenario **out, sc_located ***found, size_t *n, const sc_scenario *s,
               const sc_image *guest, int cycle, volatile int *cancel, sc__locate_miss *miss);
void sc__located_free(sc_scenario *resolved);

/* The quiet spot of region r (inside img) nearest near: the centre of a
 * pixel around which no ink lies in the (2 radius + 1) square, the square
 * inside r; ink is a pixel farther than tol (any channel) from r's most
 * common colour (*bg, 0xRRGGBB). 0; SC_ENOTFOUND when no such pixel;
 * SC_EINVAL for r not inside img; SC_ENOMEM. No message set (quiet.c). */
int sc__quiet_spot(sc_point *out, uint32_t *bg, const sc_image *img, sc_rect r, sc_point near,
                   int radius, int tol);

#endif
