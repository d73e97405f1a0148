/* Finding a text on the screen: the ink of a region cut into connected
 * pieces, pieces no taller than the glyph set's tallest glyph gathered into
 * lines, every line read with the glyph set, and the places where the
 * wanted text is read as whole words reported. Ink too big to be a glyph
 * (map lines, frames) is left out of the lines, and stays in the reads
 * as stray ink when it crosses one. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "text/text_priv.h"

typedef struct piece {
  int x0, y0, x1, y1; /* inclusive-exclusive box, mask coordinates */
} piece;

typedef struct line {
  int x0, y0, x1, y1;
} line;

/* Connected pieces of ink (8-neighbours), by flood fill with an explicit
 * stack; the mask is cleared as it goes. Pieces taller than max_h or wider
 * than max_w are dropped. */
static int pieces_of(sc__mask *mk, int max_w, int max_h, piece **out, size_t *n) {
  size_t cap = 64, np = 0, scap = 256;
  piece *v = sc__malloc(cap * sizeof *v);
  int *st = sc__malloc(scap * sizeof *st);
  if (!v || !st) goto oom;
  for (int y = 0; y < mk->h; y++)
    for (int x = 0; x < mk->w; x++) {
      if (!mk->m[(size_t)y * (size_t)mk->w + (size_t)x]) continue;
      piece p = {x, y, x + 1, y + 1};
      size_t top = 0;
      st[top++] = y * mk->w + x;
      mk->m[(size_t)y * (size_t)mk->w + (size_t)x] = 0;
      while (top) {
        int i = st[--top], cx = i % mk->w, cy = i / mk->w;
        if (cx < p.x0) p.x0 = cx;
        if (cx + 1 > p.x1) p.x1 = cx + 1;
        if (cy < p.y0) p.y0 = cy;
        if (cy + 1 > p.y1) p.y1 = cy + 1;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++) {
            int nx = cx + dx, ny = cy + dy;
            if (nx < 0 || ny < 0 || nx >= mk->w || ny >= mk->h) continue;
            uint8_t *m = &mk->m[(size_t)ny * (size_t)mk->w + (size_t)nx];
            if (!*m) continue;
            *m = 0;
            if (top == scap) {
              int *ns = sc__realloc(st, scap * 2 * sizeof *st);
              if (!ns) goto oom;
              st = ns;
              scap *= 2;
            }
            st[top++] = ny * mk->w + nx;
          }
      }
      if (p.y1 - p.y0 > max_h || p.x1 - p.x0 > max_w) continue;
      if (np == cap) {
        piece *nv = sc__realloc(v, cap * 2 * sizeof *v);
        if (!nv) goto oom;
        v = nv;
        cap *= 2;
      }
      v[np++] = p;
    }
  sc__free(st);
  *out = v;
  *n = np;
  return 0;
oom:
  sc__free(v);
  sc__free(st);
  return sc__err(SC_ENOMEM, "text: out of memory");
}

static int by_x(const void *a, const void *b) {
  const piece *p = a, *q = b;
  return p->x0 != q->x0 ? (p->x0 > q->x0) - (p->x0 < q->x0) : (p->y0 > q->y0) - (p->y0 < q->y0);
}

/* Pieces left to right, each joined to the first line it overlaps
 * vertically and lies within `gap` columns of; otherwise a new line. */
static int lines_of(const piece *p, size_t n, int gap, int max_h, line **out, size_t *nl) {
  line *v = sc__malloc((n ? n : 1) * sizeof *v);
  if (!v) return sc__err(SC_ENOMEM, "text: out of memory");
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    size_t j = 0;
    for (; j < k; j++) {
      line *l = &v[j];
      int y0 = p[i].y0 < l->y0 ? p[i].y0 : l->y0, y1 = p[i].y1 > l->y1 ? p[i].y1 : l->y1;
      if (p[i].y0 < l->y1 && p[i].y1 > l->y0 && p[i].x0 - l->x1 <= gap && y1 - y0 <= max_h) break;
    }
    if (j == k) {
      v[k++] = (line){p[i].x0, p[i].y0, p[i].x1, p[i].y1};
      continue;
    }
    line *l = &v[j];
    if (p[i].x1 > l->x1) l->x1 = p[i].x1;
    if (p[i].y0 < l->y0) l->y0 = p[i].y0;
    if (p[i].y1 > l->y1) l->y1 = p[i].y1;
  }
  *out = v;
  *nl = k;
  return 0;
}

/* Every whole-word occurrence of want in what a line read as: a match box
 * and its lowest glyph confidence, appended to out (room for max). */
static int occurrences(const sc_text_result *r, const char *want, sc_text_match *out, int max,
                       int found) {
  size_t wl = strlen(want), tl = strlen(r->text);
  for (size_t at = 0; at + wl <= tl; at++) {
    if (memcmp(r->text + at, want, wl) != 0) continue;
    if ((at > 0 && r->text[at - 1] != ' ') || (at + wl < tl && r->text[at + wl] != ' ')) continue;
    /* Glyphs whose characters lie inside [at, at + wl): the text is the
     * glyph names in order, with one space where a word gap was. */
    size_t t = 0;
    int x0 = INT_MAX, y0 = INT_MAX, x1 = INT_MIN, y1 = INT_MIN;
    double conf = 1;
    for (size_t g = 0; g < r->nglyphs; g++) {
      if (r->text[t] == ' ') t++;
      size_t gl = strlen(r->glyphs[g].name);
      if (t >= at && t + gl <= at + wl) {
        const sc_rect *b = &r->glyphs[g].box;
        if (b->x < x0) x0 = b->x;
        if (b->y < y0) y0 = b->y;
        if (b->x + b->w > x1) x1 = b->x + b->w;
        if (b->y + b->h > y1) y1 = b->y + b->h;
        if (r->glyphs[g].confidence < conf) conf = r->glyphs[g].confidence;
      }
      t += gl;
    }
    if (x0 == INT_MAX) continue;
    if (found < max) out[found] = (sc_text_match){{x0, y0, x1 - x0, y1 - y0}, conf};
    found++;
  }
  return found;
}

static int by_place(const void *a, const void *b) {
  const sc_text_match *p = a, *q = b;
  if (p->box.y != q->box.y) return (p->box.y > q->box.y) - (p->box.y < q->box.y);
  return (p->box.x > q->box.x) - (p->box.x < q->box.x);
}

SC_EXTERN int sc_text_find(sc_text_match *out, int max, const sc_image *img, sc_rect within,
                           const sc_glyphset *gs, const char *text, const sc_text_options *opts,
                           int *unreadable) {
  if (unreadable) *unreadable = 0;
  if (!img || !gs || !text || max < 0 || (max > 0 && !out))
    return sc__err(SC_EINVAL, "text find: NULL argument");
  if (!*text || text[0] == ' ' || text[strlen(text) - 1] == ' ' || strstr(text, "  "))
    return sc__err(SC_EINVAL, "text find: the text must be words split by single spaces");
  sc_text_options o;
  if (sc__text_options_read(&o, opts, "sc_text_find")) return SC_EINVAL;
  opts = &o;
  if (gs->n == 0) return sc__err(SC_EDATA, "text find: the glyph set is empty");
  if (within.w <= 0 || within.h <= 0) within = (sc_rect){0, 0, img->width, img->height};
  if (sc__clip_region(&within, img))
    return sc__err(SC_EINVAL, "text find: region %dx%d%+d%+d lies outside the %dx%d image",
                   within.w, within.h, within.x, within.y, img->width, img->height);
  int max_h = 0, max_w = 0;
  for (size_t i = 0; i < gs->n; i++) {
    if (gs->g[i].h > max_h) max_h = gs->g[i].h;
    if (gs->g[i].w > max_w) max_w = gs->g[i].w;
  }
  sc__mask mk;
  int rc = sc__mask_make(&mk, img, within, gs->ink_rgb, gs->tol);
  if (rc) return rc;
  piece *p = NULL;
  line *l = NULL;
  size_t np = 0, nl = 0;
  /* A glyph may fall apart into pieces, never grow: a piece is at most a
   * glyph's size (one pixel of slack for a lossy edge). */
  rc = pieces_of(&mk, max_w + 1, max_h + 1, &p, &np);
  sc__mask_free(&mk);
  if (rc) return rc;
  qsort(p, np, sizeof *p, by_x);
  /* Letters of a word are gap_max apart at most, words of a line about
   * space_px (space_min the narrowest word gap learned): a line goes on
   * over gaps up to twice a word gap. */
  int gap = gs->space_px > 0 ? 2 * gs->space_px : max_w;
  if (gs->space_min + 1 > gap) gap = gs->space_min + 1;
  if (gs->gap_max + 1 > gap) gap = gs->gap_max + 1;
  rc = lines_of(p, np, gap, max_h + 2, &l, &nl);
  sc__free(p);
  if (rc) return rc;
  int found = 0, bad = 0;
  for (size_t i = 0; i < nl; i++) {
    sc_rect r = {within.x + l[i].x0 - 1, within.y + l[i].y0 - 1, l[i].x1 - l[i].x0 + 2,
                 l[i].y1 - l[i].y0 + 2};
    sc__clip_region(&r, img);
    sc_text_result res;
    int k = sc_text_read(&res, img, r, gs, opts);
    if (k == SC_ENOMEM) {
      sc__free(l);
      return k;
    }
    if (k < 0) {
      bad++;
      continue;
    }
    found = occurrences(&res, text, out, max, found);
  }
  sc__free(l);
  if (out && found > 0) qsort(out, (size_t)(found < max ? found : max), sizeof *out, by_place);
  if (unreadable) *unreadable = bad;
  sc__err_clear();
  return found;
}
