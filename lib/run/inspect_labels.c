/* Labels for inspect pictures that never overlap one another nor cover a
 * marked point: each label takes the first free place among a few around
 * its anchor, then further away along rings, and is left out (counted)
 * when none is free. */
#include <string.h>

#include "core/core.h"
#include "inspect_labels.h"

/* The 5x7 font's cell: 6 px per character, 9 px per line with the box. */
#define SC__LABEL_CW 6
#define SC__LABEL_H 9
/* Half the side of the box kept free around every marked point. */
#define SC__LABEL_MARK 7
/* Rings of places tried around an anchor, SC__LABEL_STEP px apart. */
#define SC__LABEL_RINGS 12
#define SC__LABEL_STEP 10
/* Space kept after a label, so two side by side do not read as one word. */
#define SC__LABEL_GAP 4

static int hits(sc_rect a, sc_rect b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

void sc__labels_init(sc__labels *L, int w, int h) {
  memset(L, 0, sizeof *L);
  L->w = w, L->h = h;
}

void sc__labels_free(sc__labels *L) {
  sc__free(L->taken);
  L->taken = NULL;
  L->n = L->cap = 0;
}

static int take(sc__labels *L, sc_rect r) {
  if (L->n == L->cap) {
    size_t nc = L->cap ? L->cap * 2 : 32;
    sc_rect *g = sc__realloc(L->taken, nc * sizeof *g);
    if (!g) return SC_ENOMEM;
    L->taken = g, L->cap = nc;
  }
  L->taken[L->n++] = r;
  return 0;
}

int sc__labels_mark(sc__labels *L, sc_point p) {
  return take(L, (sc_rect){(int)p.x - SC__LABEL_MARK, (int)p.y - SC__LABEL_MARK,
                           2 * SC__LABEL_MARK + 1, 2 * SC__LABEL_MARK + 1});
}

int sc__labels_block(sc__labels *L, sc_rect r) { return take(L, r); }

/* r inside the picture and, with its gap, clear of everything taken. */
static int free_at(const sc__labels *L, sc_rect r) {
  if (r.x < 0 || r.y < 0 || r.x + r.w > L->w || r.y + r.h > L->h) return 0;
  sc_rect g = {r.x, r.y, r.w + SC__LABEL_GAP, r.h + 1};
  for (size_t i = 0; i < L->n; i++)
    if (hits(g, L->taken[i])) return 0;
  return 1;
}

int sc__labels_place(sc__labels *L, sc_image *img, int ax, int ay, const char *text,
                     uint32_t rgb, uint32_t bg) {
  int w = (int)strlen(text) * SC__LABEL_CW + 1, h = SC__LABEL_H;
  /* right-below, right-above, left-below, left-above, then rings */
  static const int dir[][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}, {0, 1}, {0, -1}, {1, 0}, {-1, 0}};
  for (int ring = 0; ring <= SC__LABEL_RINGS; ring++)
    for (size_t d = 0; d < sizeof dir / sizeof dir[0]; d++) {
      int off = ring * SC__LABEL_STEP;
      int x = dir[d][0] > 0 ? ax + 2 + off : dir[d][0] < 0 ? ax - w - 2 - off : ax - w / 2;
      int y = dir[d][1] > 0 ? ay + 2 + off : dir[d][1] < 0 ? ay - h - 2 - off : ay - h / 2;
      sc_rect r = {x, y, w, h};
      if (!free_at(L, r)) continue;
      if (take(L, (sc_rect){r.x, r.y, r.w + SC__LABEL_GAP, r.h + 1}) < 0) return SC_ENOMEM;
      sc_image_draw_text(img, x + 1, y + 1, text, rgb, bg);
      return 1;
    }
  L->dropped++;
  return 0;
}
