/* Label placement for inspect pictures (inspect_labels.c). Internal. */
#ifndef SC_RUN_INSPECT_LABELS_H
#define SC_RUN_INSPECT_LABELS_H

#include <stddef.h>
#include <stdint.h>

#include "stepcheck/image.h"

typedef struct sc__labels {
  int w, h;          /* the picture: labels stay inside it */
  sc_rect *taken;    /* labels placed and points marked */
  size_t n, cap;
  int dropped;       /* labels that found no free place */
} sc__labels;

void sc__labels_init(sc__labels *L, int w, int h);
void sc__labels_free(sc__labels *L);
/* Keep the box around a marked point free of labels. 0 or SC_ENOMEM. */
int sc__labels_mark(sc__labels *L, sc_point p);
/* Keep rectangle r free of labels (a candidate's outline). 0 or SC_ENOMEM. */
int sc__labels_block(sc__labels *L, sc_rect r);
/* Draw text near (ax, ay) where it overlaps no label and no marked point:
 * 1 drawn, 0 no free place (counted in dropped), SC_ENOMEM. */
int sc__labels_place(sc__labels *L, sc_image *img, int ax, int ay, const char *text,
                     uint32_t rgb, uint32_t bg);

#endif
