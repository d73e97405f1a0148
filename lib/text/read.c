/* Ink masks and the line matcher: a dynamic programme over columns that
 * explains the ink of a line as a sequence of glyph templates and blank
 * columns at least cost (pixels that differ). See docs/text.md. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "text/text_priv.h"
#include "core/opts.h"

#define D SC_GLYPH_MAX_DESCENT

int sc__clip_region(sc_rect *r, const sc_image *img) {
  long x0 = r->x, y0 = r->y, x1 = (long)r->x + r->w, y1 = (long)r->y + r->h;
  if (r->w <= 0 || r->h <= 0) return SC_EINVAL;
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > img->width) x1 = img->width;
  if (y1 > img->height) y1 = img->height;
  if (x1 <= x0 || y1 <= y0) return SC_EINVAL;
  *r = (sc_rect){(int)x0, (int)y0, (int)(x1 - x0), (int)(y1 - y0)};
  return 0;
}

int sc__mask_make(sc__mask *out, const sc_image *img, sc_rect r, uint32_t rgb, int tol) {
  out->w = r.w;
  out->h = r.h;
  out->m = sc__malloc((size_t)r.w * (size_t)r.h);
  if (!out->m) return sc__err(SC_ENOMEM, "text: out of memory");
  int cr = (int)(rgb >> 16 & 255), cg = (int)(rgb >> 8 & 255), cb = (int)(rgb & 255);
  for (int y = 0; y < r.h; y++) {
    const uint8_t *p = img->px + (size_t)(r.y + y) * img->stride + (size_t)r.x * 4;
    uint8_t *m = out->m + (size_t)y * (size_t)r.w;
    for (int x = 0; x < r.w; x++, p += 4) {
      int dr = p[0] - cr, dg = p[1] - cg, db = p[2] - cb;
      m[x] = dr <= tol && dr >= -tol && dg <= tol && dg >= -tol && db <= tol && db >= -tol;
    }
  }
  return 0;
}

void sc__mask_free(sc__mask *m) {
  sc__free(m->m);
  m->m = NULL;
}

static int place_cost(const sc__glyph *g, const sc__col *c, int limit) {
  int s = 0;
  for (int i = 0; i < g->w; i++) {
    s += __builtin_popcountll(c[i] ^ g->cols[i]);
    if (s > limit) return INT_MAX;
  }
  return s;
}

/* Cost of the best glyph other than `self` over the span [x, x + w) of a
 * line of n columns: a narrower glyph pays for the columns it leaves
 * uncovered, a wider one for the columns it claims beyond the span. */
static int runner_up(const sc_glyphset *gs, const sc__glyph *self, const sc__col *c, int x, int w,
                     int n) {
  int best = INT_MAX;
  for (size_t k = 0; k < gs->n; k++) {
    const sc__glyph *g = &gs->g[k];
    if (g == self || strcmp(g->name, self->name) == 0) continue;
    if (g->w < w - 1 || g->w > w + 1 || x + g->w > n) continue;
    int s = place_cost(g, c + x, INT_MAX - 1);
    for (int i = g->w; i < w; i++) s += __builtin_popcountll(c[x + i]);
    if (s < best) best = s;
  }
  return best;
}

int sc__match_line(sc_text_result *res, const sc__mask *mk, int x0, int x1, int y0, int y1,
                   int baseline, const sc_glyphset *gs, int ox, int oy) {
  memset(res, 0, sizeof *res);
  int n = x1 - x0;
  if (n <= 0) return 0;
  enum { STACK = 512 };
  sc__col scol[STACK];
  int sbest[STACK + 1], sfrom[STACK + 1], sgi[STACK + 1];
  sc__col *col = scol;
  int *best = sbest, *from = sfrom, *gi = sgi;
  void *heap = NULL;
  if (n > STACK) {
    size_t need = (size_t)n * sizeof *col + 3 * (size_t)(n + 1) * sizeof(int);
    heap = sc__malloc(need);
    if (!heap) return sc__err(SC_ENOMEM, "text: out of memory");
    col = heap;
    best = (int *)(col + n);
    from = best + n + 1;
    gi = from + n + 1;
  }
  /* Columns relative to the baseline; ink the window cannot hold is stray. */
  int stray = 0;
  int lo = baseline - SC_GLYPH_MAX_ASCENT, hi = baseline + D;
  for (int i = 0; i < n; i++) {
    sc__col c = 0;
    for (int y = y0; y < y1; y++) {
      if (!mk->m[(size_t)y * (size_t)mk->w + (size_t)(x0 + i)]) continue;
      if (y < lo || y >= hi)
        stray++;
      else
        c |= (sc__col)1 << (D - 1 - (y - baseline));
    }
    col[i] = c;
  }
  for (int i = 0; i <= n; i++) best[i] = INT_MAX;
  best[0] = 0;
  for (int x = 0; x < n; x++) {
    if (best[x] == INT_MAX) continue;
    int bc = best[x] + __builtin_popcountll(col[x]);
    if (bc < best[x + 1]) {
      best[x + 1] = bc;
      from[x + 1] = x;
      gi[x + 1] = -1;
    }
    /* A glyph's first column always holds ink: starting one on an empty
     * column is a misplacement the blank move already covers. */
    if (!col[x]) continue;
    for (size_t k = 0; k < gs->n; k++) {
      const sc__glyph *g = &gs->g[k];
      if (x + g->w > n) continue;
      int c = place_cost(g, col + x, g->ink);
      if (c == INT_MAX) continue;
      int t = best[x] + c;
      if (t < best[x + g->w]) {
        best[x + g->w] = t;
        from[x + g->w] = x;
        gi[x + g->w] = (int)k;
      }
    }
  }
  /* Walk back: count glyphs, then fill them in order. */
  int count = 0, rc = 0;
  for (int x = n; x > 0; x = from[x]) {
    if (gi[x] >= 0)
      count++;
    else
      stray += __builtin_popcountll(col[x - 1]);
  }
  if (count > SC_TEXT_MAX_GLYPHS) {
    rc = sc__err(SC_EUNREADABLE, "text: more than %d glyphs in one line", SC_TEXT_MAX_GLYPHS);
    goto out;
  }
  res->nglyphs = (size_t)count;
  res->stray_px = stray;
  res->confidence = count ? 1.0 : 0.0;
  int idx = count;
  for (int x = n; x > 0; x = from[x]) {
    if (gi[x] < 0) continue;
    const sc__glyph *g = &gs->g[gi[x]];
    int gx = from[x];
    sc_text_glyph *o = &res->glyphs[--idx];
    snprintf(o->name, sizeof o->name, "%s", g->name);
    o->box = (sc_rect){ox + x0 + gx, oy + baseline - g->top, g->w, g->h};
    int c = place_cost(g, col + gx, INT_MAX - 1);
    int c2 = runner_up(gs, g, col, gx, g->w, n);
    double conf = 1.0 - (double)c / (double)(g->ink > 0 ? g->ink : 1);
    if (c2 != INT_MAX) {
      double alt = c2 > 0 ? 1.0 - (double)c / (double)c2 : 0.0;
      if (alt < conf) conf = alt;
    }
    if (conf < 0) conf = 0;
    o->mismatch_px = c;
    o->confidence = conf;
  }
  /* Text and box. */
  size_t tl = 0;
  int bx0 = INT_MAX, by0 = INT_MAX, bx1 = INT_MIN, by1 = INT_MIN;
  for (size_t i = 0; i < res->nglyphs; i++) {
    const sc_text_glyph *o = &res->glyphs[i];
    if (i > 0 && gs->space_px > 0) {
      const sc_rect *p = &res->glyphs[i - 1].box;
      if (o->box.x - (p->x + p->w) >= gs->space_px && tl + 1 < sizeof res->text)
        res->text[tl++] = ' ';
    }
    size_t nl = strlen(o->name);
    if (tl + nl + 1 > sizeof res->text) {
      rc = sc__err(SC_EUNREADABLE, "text: line longer than %d characters", SC_TEXT_MAX_CHARS - 1);
      goto out;
    }
    memcpy(res->text + tl, o->name, nl);
    tl += nl;
    if (o->confidence < res->confidence) res->confidence = o->confidence;
    if (o->box.x < bx0) bx0 = o->box.x;
    if (o->box.y < by0) by0 = o->box.y;
    if (o->box.x + o->box.w > bx1) bx1 = o->box.x + o->box.w;
    if (o->box.y + o->box.h > by1) by1 = o->box.y + o->box.h;
  }
  res->text[tl] = 0;
  if (res->nglyphs) res->box = (sc_rect){bx0, by0, bx1 - bx0, by1 - by0};
  rc = best[n];
out:
  sc__free(heap);
  return rc;
}

/* Most frequent bottom row of the column segments (runs of ink columns):
 * the row just above the baseline for fonts without many descenders. */
static int guess_baseline(const sc__mask *mk) {
  int hist[SC_GLYPH_MAX_ASCENT * 8] = {0};
  int nh = (int)(sizeof hist / sizeof hist[0]);
  int x = 0, best = -1, bestn = 0;
  while (x < mk->w) {
    int bottom = -1;
    int start = x;
    for (; x < mk->w; x++) {
      int b = -1;
      for (int y = mk->h - 1; y >= 0; y--)
        if (mk->m[(size_t)y * (size_t)mk->w + (size_t)x]) {
          b = y;
          break;
        }
      if (b < 0) break;
      if (b > bottom) bottom = b;
    }
    if (x == start) {
      x++;
      continue;
    }
    if (bottom >= 0 && bottom < nh && ++hist[bottom] > bestn) {
      bestn = hist[bottom];
      best = bottom;
    }
  }
  return best < 0 ? mk->h - 1 : best;
}

SC_EXTERN int sc_text_read(sc_text_result *out, const sc_image *img, sc_rect region,
                           const sc_glyphset *gs, const sc_text_options *opts) {
  if (!out || !img || !gs) return sc__err(SC_EINVAL, "text: NULL argument");
  memset(out, 0, sizeof *out);
  sc_text_options o;
  if (sc__text_options_read(&o, opts, "sc_text_read")) return SC_EINVAL;
  opts = &o;
  if (gs->n == 0) return sc__err(SC_EDATA, "text: the glyph set is empty");
  if (sc__clip_region(&region, img))
    return sc__err(SC_EINVAL, "text: region %dx%d%+d%+d lies outside the %dx%d image", region.w,
                   region.h, region.x, region.y, img->width, img->height);
  sc__mask mk;
  int rc = sc__mask_make(&mk, img, region, gs->ink_rgb, gs->tol);
  if (rc) return rc;
  size_t ink = 0;
  for (size_t i = 0; i < (size_t)mk.w * (size_t)mk.h; i++) ink += mk.m[i];
  if (!ink) {
    sc__mask_free(&mk);
    return sc__err(SC_ENOTEXT, "text: no ink (#%06x +-%d) in the region", (unsigned)gs->ink_rgb,
                   gs->tol);
  }
  int b0 = guess_baseline(&mk) + 1;
  int bestcost = INT_MAX;
  sc_text_result tmp;
  for (int d = 0; d < 3; d++) {
    int b = b0 + (d == 0 ? 0 : d == 1 ? -1 : 1);
    int cost = sc__match_line(&tmp, &mk, 0, mk.w, 0, mk.h, b, gs, region.x, region.y);
    if (cost < 0) {
      if (cost == SC_EUNREADABLE || bestcost != INT_MAX) continue;
      sc__mask_free(&mk);
      return cost;
    }
    cost += tmp.stray_px;
    if (cost < bestcost) {
      bestcost = cost;
      *out = tmp;
    }
  }
  sc__mask_free(&mk);
  if (bestcost == INT_MAX) return sc__err(SC_EUNREADABLE, "text: line too long to read");
  if (out->nglyphs == 0)
    return sc__err(SC_EUNREADABLE, "text: %zu ink pixels but no glyph matches", ink);
  if (out->stray_px > opts->max_stray_px)
    return sc__err(SC_EUNREADABLE, "text: read \"%s\" but %d ink pixels match no glyph (max %d)",
                   out->text, out->stray_px, opts->max_stray_px);
  for (size_t i = 0; i < out->nglyphs; i++)
    if (out->glyphs[i].confidence < opts->min_confidence)
      return sc__err(SC_EUNREADABLE,
                     "text: read \"%s\" but glyph %zu ('%s') has confidence %.2f < %.2f",
                     out->text, i + 1, out->glyphs[i].name, out->glyphs[i].confidence,
                     opts->min_confidence);
  return 0;
}

SC__OPTS_DEFINE(text_options, SC_TEXT_OPTIONS_INIT,
                 sizeof(sc_text_options))
