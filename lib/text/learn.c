/* Learning glyphs from a line of text whose content is known. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "text/text_priv.h"

#define D SC_GLYPH_MAX_DESCENT
#define MAX_UNITS 128

typedef struct unit {
  char name[SC_GLYPH_NAME_MAX + 1];
  int space_before;
} unit;

typedef struct seg {
  int x0, x1, y0, y1; /* inclusive ink box in mask coordinates */
} seg;

/* "1640.4 [ft]" -> 1,6,4,0,.,4,ft with the space flag on "ft". */
static int split_text(unit *u, int *nu, const char *text) {
  int n = 0, space = 0;
  for (const char *p = text; *p;) {
    if (*p == ' ') {
      space = 1;
      p++;
      continue;
    }
    if (n == MAX_UNITS) return sc__err(SC_EINVAL, "glyphs: text longer than %d glyphs", MAX_UNITS);
    char name[SC_GLYPH_NAME_MAX + 1];
    if (*p == '[') {
      const char *e = strchr(p, ']');
      if (!e || e - p - 1 < 1 || e - p - 1 > SC_GLYPH_NAME_MAX)
        return sc__err(SC_EINVAL, "glyphs: bad group in \"%s\" (use [ab], 1..%d characters)", text,
                       SC_GLYPH_NAME_MAX);
      memcpy(name, p + 1, (size_t)(e - p - 1));
      name[e - p - 1] = 0;
      p = e + 1;
    } else {
      name[0] = *p++;
      name[1] = 0;
    }
    if (!sc__glyph_name_ok(name))
      return sc__err(SC_EINVAL, "glyphs: \"%s\" cannot be a glyph (printable ASCII, no [ ])", name);
    memcpy(u[n].name, name, sizeof name);
    u[n].space_before = space && n > 0;
    space = 0;
    n++;
  }
  *nu = n;
  return 0;
}

static int find_segments(seg *s, int max, const sc__mask *mk) {
  int n = 0;
  for (int x = 0; x < mk->w;) {
    int y0 = mk->h, y1 = -1, x0 = x;
    for (; x < mk->w; x++) {
      int any = 0;
      for (int y = 0; y < mk->h; y++)
        if (mk->m[(size_t)y * (size_t)mk->w + (size_t)x]) {
          any = 1;
          if (y < y0) y0 = y;
          if (y > y1) y1 = y;
        }
      if (!any) break;
    }
    if (x == x0) {
      x++;
      continue;
    }
    if (n < max) s[n] = (seg){x0, x - 1, y0, y1};
    n++;
  }
  return n;
}

SC_EXTERN int sc_glyphset_learn(sc_glyphset *gs, const sc_image *img, sc_rect region,
                                const char *text) {
  if (!gs || !img || !text) return sc__err(SC_EINVAL, "glyphs: NULL argument");
  unit u[MAX_UNITS];
  int nu = 0;
  int rc = split_text(u, &nu, text);
  if (rc) return rc;
  if (nu == 0) return sc__err(SC_EINVAL, "glyphs: text \"%s\" has no glyph", text);
  if (sc__clip_region(&region, img))
    return sc__err(SC_EINVAL, "glyphs: region lies outside the %dx%d image", img->width,
                   img->height);
  sc__mask mk;
  rc = sc__mask_make(&mk, img, region, gs->ink_rgb, gs->tol);
  if (rc) return rc;
  seg s[MAX_UNITS];
  int ns = find_segments(s, MAX_UNITS, &mk);
  sc__col *cols[MAX_UNITS] = {0};
  int skip[MAX_UNITS] = {0};
  if (ns == 0) {
    rc = sc__err(SC_ENOTEXT, "glyphs: no ink (#%06x +-%d) in the region", (unsigned)gs->ink_rgb,
                 gs->tol);
    goto out;
  }
  if (ns != nu) {
    char boxes[512];
    size_t bl = 0;
    boxes[0] = 0;
    for (int i = 0; i < ns && i < MAX_UNITS && bl + 40 < sizeof boxes; i++)
      bl += (size_t)snprintf(boxes + bl, sizeof boxes - bl, "%s%dx%d%+d%+d", i ? " " : "",
                             s[i].x1 - s[i].x0 + 1, s[i].y1 - s[i].y0 + 1, region.x + s[i].x0,
                             region.y + s[i].y0);
    rc = sc__err(SC_EDATA,
                 "glyphs: the region holds %d ink segments but \"%s\" has %d glyphs; segments: "
                 "%s (group touching characters in brackets, e.g. [ft]; crop away other ink)",
                 ns, text, nu, boxes);
    goto out;
  }
  /* Baseline: most frequent segment bottom. */
  int baseline = -1, bestn = 0;
  for (int i = 0; i < ns; i++) {
    int c = 0;
    for (int j = 0; j < ns; j++) c += s[j].y1 == s[i].y1;
    if (c > bestn) {
      bestn = c;
      baseline = s[i].y1 + 1;
    }
  }
  int gap_max = gs->gap_max, space_min = gs->space_min;
  for (int i = 0; i < ns; i++) {
    int w = s[i].x1 - s[i].x0 + 1, h = s[i].y1 - s[i].y0 + 1, top = baseline - s[i].y0;
    if (w > 64 || top < 1 || top > SC_GLYPH_MAX_ASCENT || h - top > D) {
      rc = sc__err(SC_EDATA, "glyphs: '%s' (%dx%d, %d above the baseline) is outside the limits",
                   u[i].name, w, h, top);
      goto out;
    }
    cols[i] = sc__calloc((size_t)w, sizeof(sc__col));
    if (!cols[i]) {
      rc = sc__err(SC_ENOMEM, "glyphs: out of memory");
      goto out;
    }
    for (int x = 0; x < w; x++)
      for (int y = s[i].y0; y <= s[i].y1; y++)
        if (mk.m[(size_t)y * (size_t)mk.w + (size_t)(s[i].x0 + x)])
          cols[i][x] |= (sc__col)1 << (D - 1 - (y - baseline));
    const sc__glyph *old = sc__glyph_find(gs, u[i].name);
    int dup_earlier = 0, same_earlier = 0, earlier = 0;
    for (int j = 0; j < i; j++)
      if (strcmp(u[j].name, u[i].name) == 0) {
        dup_earlier = j + 1;
        earlier += !skip[j];
        if (s[j].x1 - s[j].x0 == s[i].x1 - s[i].x0 &&
            memcmp(cols[j], cols[i], (size_t)w * sizeof(sc__col)) == 0)
          same_earlier = 1;
      }
    /* A set with variants (anti-aliased text) keeps each new mask of a
     * glyph, up to its limit; an identical one is the same glyph. */
    if (gs->variants > 1 && (old || dup_earlier)) {
      if (same_earlier || sc__glyph_same(gs, u[i].name, w, cols[i])) {
        skip[i] = 1;
        old = NULL;
        dup_earlier = 0;
      } else if (sc__glyph_count(gs, u[i].name) + earlier < gs->variants) {
        old = NULL;
        dup_earlier = 0;
      }
    }
    if (old || dup_earlier) {
      int ow = old ? old->w : s[dup_earlier - 1].x1 - s[dup_earlier - 1].x0 + 1;
      const sc__col *oc = old ? old->cols : cols[dup_earlier - 1];
      int diff = ow != w ? -1 : 0;
      for (int x = 0; diff >= 0 && x < w; x++) diff += __builtin_popcountll(oc[x] ^ cols[i][x]);
      if (diff != 0) {
        rc = diff < 0 ? sc__err(SC_EDATA, "glyphs: '%s' is %d px wide here but %d px before",
                                u[i].name, w, ow)
                      : sc__err(SC_EDATA, "glyphs: '%s' differs in %d pixels from the one learned",
                                u[i].name, diff);
        goto out;
      }
    }
    if (i > 0) {
      int gap = s[i].x0 - s[i - 1].x1 - 1;
      if (u[i].space_before) {
        if (space_min < 0 || gap < space_min) space_min = gap;
      } else if (gap > gap_max) {
        gap_max = gap;
      }
    }
  }
  for (int i = 0; i < ns; i++) {
    if (gs->variants > 1 ? skip[i] : sc__glyph_find(gs, u[i].name) != NULL) continue;
    rc = sc__glyphset_add(gs, u[i].name, s[i].x1 - s[i].x0 + 1, s[i].y1 - s[i].y0 + 1,
                          baseline - s[i].y0, cols[i]);
    cols[i] = NULL;
    if (rc) goto out;
  }
  gs->gap_max = gap_max;
  gs->space_min = space_min;
  sc__glyphset_update_space(gs);
out:
  for (int i = 0; i < MAX_UNITS; i++) sc__free(cols[i]);
  sc__mask_free(&mk);
  return rc;
}
