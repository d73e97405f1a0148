/* Locators: points and regions a run finds on the screen instead of
 * reading them from the file (docs/scenario.md, "Locators"). The loader
 * fills this (scenario/locators.c); lib/locate resolves it against a
 * capture of the guest for one user. Internal, not installed. */
#ifndef SC_SCENARIO_LOCATORS_H
#define SC_SCENARIO_LOCATORS_H

#include <stddef.h>

#include "stepcheck/image.h"
#include "stepcheck/scenario.h"
#include "stepcheck/text.h"
#include "scenario/model.h"

typedef enum sc__loc_kind {
  SC__LOC_TEMPLATE = 1, /* a PNG cut from a capture, matched with a tolerance */
  SC__LOC_FROM,         /* an offset from another point or region */
  SC__LOC_BETWEEN,      /* the rectangle spanning two points or regions */
  SC__LOC_TEXT,         /* words read with a glyph set (sc_text_find) */
  SC__LOC_CENTRE,       /* a point: the centre of region a */
  SC__LOC_QUIET         /* a point in region a with no ink within radius, nearest
                           more[0] (nmore 1) or else the region's centre */
} sc__loc_kind;

/* A point or a region of the scenario, by index. */
typedef struct sc__ref {
  int is_region;
  int index;
} sc__ref;

#define SC__LOC_ANCHORS 4

typedef struct sc__locator {
  sc__ref self;      /* the point or region this locator fills */
  sc__loc_kind kind;
  /* template */
  char *path;        /* resolved against the scenario's directory */
  sc_image *tpl;
  int tol;           /* max abs difference per channel, default 48 */
  double score;      /* fraction of template pixels that must match, default 0.99 */
  double margin;     /* the best place beats every other by more, default SC_SEARCH_MARGIN */
  int within;        /* region index to search in, -1 = the whole guest */
  /* text: the words, and the glyph set they are read with (path: as
   * written, a file resolved against the scenario's directory or a
   * builtin name) */
  char *text;
  sc_glyphset *gs;
  /* from: a; between: a and the others (2 to SC__LOC_ANCHORS in all) */
  sc__ref a, more[SC__LOC_ANCHORS - 1];
  int nmore;
  /* placement: a point's offset (template, text: from the match's
   * top-left, default its centre; from: from the anchor point or the anchor region's
   * top-left); a region's offset and size (template, text: default 0,0
   * and the match's size) and inset */
  double dx, dy;
  int has_offset;
  int w, h;
  int inset;
  char *hint;        /* added to "not found" messages (template, text), or NULL */
  int radius;        /* quiet: px around the point with no ink (tol: from the background) */
} sc__locator;

/* A step's point reference (click, move, wheel "at", key "at") or park,
 * so that a resolved point reaches every gesture that names it. */
typedef struct sc__bind {
  int section;       /* 0 setup, 1 cycle, 2 park */
  size_t step;
  int point;
} sc__bind;

struct sc_locators {
  size_t n;
  sc__locator *v;    /* in resolution order: what one uses comes first */
  size_t nbind;
  sc__bind *bind;
  int relocate;      /* non-zero: resolve again at every cycle's start */
};

void sc__locators_free(struct sc_locators *l);
/* Index in v[0..n) of the locator that fills r, or -1 (a given point or region). */
int sc__locator_of(const sc__locator *v, size_t n, sc__ref r);
/* Is point (is_region 0) or region i of s found by a locator? */
int sc__scenario_located(const sc_scenario *s, int is_region, size_t i);

#endif
