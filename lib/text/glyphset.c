/* Glyph sets: creation, the text file format (docs/text.md), load/save. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "text/text_priv.h"

#define D SC_GLYPH_MAX_DESCENT
/* A glyph set is a few KiB of text; this only stops a wrong path from eating RAM. */
#define SC__GLYPHSET_FILE_MAX ((size_t)16 << 20)
/* A font's printable characters and a few ligatures are a few hundred; the
 * cap bounds loading (each name is checked against the others) and reading
 * (each ink segment is compared with every glyph). */
#define SC__GLYPHSET_MAX_GLYPHS 1024

SC_EXTERN int sc_glyphset_new(sc_glyphset **out, uint32_t ink_rgb, int tol) {
  if (!out) return sc__err(SC_EINVAL, "glyphs: out is NULL");
  *out = NULL;
  if (tol < 0 || tol > 255) return sc__err(SC_EINVAL, "glyphs: tolerance %d outside 0..255", tol);
  sc_glyphset *gs = sc__calloc(1, sizeof *gs);
  if (!gs) return sc__err(SC_ENOMEM, "glyphs: out of memory");
  gs->ink_rgb = ink_rgb & 0xFFFFFFu;
  gs->tol = tol;
  gs->gap_max = -1;
  gs->space_min = -1;
  gs->variants = 1;
  *out = gs;
  return 0;
}

SC_EXTERN void sc_glyphset_free(sc_glyphset *gs) {
  if (!gs) return;
  for (size_t i = 0; i < gs->n; i++) sc__free(gs->g[i].cols);
  sc__free(gs->g);
  sc__free(gs);
}

SC_EXTERN size_t sc_glyphset_count(const sc_glyphset *gs) { return gs ? gs->n : 0; }

const sc__glyph *sc__glyph_find(const sc_glyphset *gs, const char *name) {
  for (size_t i = 0; i < gs->n; i++)
    if (strcmp(gs->g[i].name, name) == 0) return &gs->g[i];
  return NULL;
}

int sc__glyph_count(const sc_glyphset *gs, const char *name) {
  int n = 0;
  for (size_t i = 0; i < gs->n; i++) n += strcmp(gs->g[i].name, name) == 0;
  return n;
}

const sc__glyph *sc__glyph_same(const sc_glyphset *gs, const char *name, int w, const sc__col *cols) {
  for (size_t i = 0; i < gs->n; i++)
    if (strcmp(gs->g[i].name, name) == 0 && gs->g[i].w == w &&
        memcmp(gs->g[i].cols, cols, (size_t)w * sizeof *cols) == 0)
      return &gs->g[i];
  return NULL;
}

SC_EXTERN int sc_glyphset_set_variants(sc_glyphset *gs, int max) {
  if (!gs || max < 1 || max > SC_GLYPH_MAX_VARIANTS)
    return sc__err(SC_EINVAL, "glyphs: variants must be 1..%d", SC_GLYPH_MAX_VARIANTS);
  for (size_t i = 0; i < gs->n; i++)
    if (sc__glyph_count(gs, gs->g[i].name) > max)
      return sc__err(SC_EINVAL, "glyphs: '%s' already has more than %d variants", gs->g[i].name, max);
  gs->variants = max;
  return 0;
}

int sc__glyph_name_ok(const char *name) {
  size_t n = strlen(name);
  if (n == 0 || n > SC_GLYPH_NAME_MAX) return 0;
  for (size_t i = 0; i < n; i++)
    if (name[i] <= ' ' || name[i] > '~' || name[i] == '[' || name[i] == ']') return 0;
  return 1;
}

/* Take ownership of cols. */
int sc__glyphset_add(sc_glyphset *gs, const char *name, int w, int h, int top, sc__col *cols) {
  if (gs->n >= SC__GLYPHSET_MAX_GLYPHS) {
    sc__free(cols);
    return sc__err(SC_ETOOBIG, "glyphs: a set holds at most %d glyphs", SC__GLYPHSET_MAX_GLYPHS);
  }
  if (gs->n == gs->cap) {
    size_t nc = gs->cap ? gs->cap * 2 : 32;
    sc__glyph *ng = sc__realloc(gs->g, nc * sizeof *ng);
    if (!ng) {
      sc__free(cols);
      return sc__err(SC_ENOMEM, "glyphs: out of memory");
    }
    gs->g = ng;
    gs->cap = nc;
  }
  sc__glyph *g = &gs->g[gs->n++];
  memset(g, 0, sizeof *g);
  snprintf(g->name, sizeof g->name, "%s", name);
  g->w = w;
  g->h = h;
  g->top = top;
  g->cols = cols;
  for (int i = 0; i < w; i++) g->ink += __builtin_popcountll(cols[i]);
  if (w > gs->max_w) gs->max_w = w;
  return 0;
}

void sc__glyphset_update_space(sc_glyphset *gs) {
  /* Side bearings can make a word gap narrower than a gap inside a word
   * (JOSM: "4 ft" has 3 px, "1." has 4 px); then words are kept whole. */
  if (gs->space_min >= 0 && gs->gap_max >= 0 && gs->space_min <= gs->gap_max)
    gs->space_px = gs->gap_max + 1;
  else if (gs->space_min >= 0 && gs->gap_max >= 0)
    gs->space_px = gs->gap_max + 1 + (gs->space_min - gs->gap_max - 1) / 2;
  else if (gs->space_min >= 0)
    gs->space_px = gs->space_min;
  else if (gs->gap_max >= 0)
    gs->space_px = gs->gap_max + 2;
}

/* --- parsing ------------------------------------------------------------ */

typedef struct lines {
  const char *p, *end;
  int lineno;
} lines;

/* Next line without its newline (and without a trailing '\r'); 0 at end. */
static int next_line(lines *ls, const char **s, size_t *n) {
  if (ls->p >= ls->end) return 0;
  const char *e = memchr(ls->p, '\n', (size_t)(ls->end - ls->p));
  if (!e) e = ls->end;
  *s = ls->p;
  *n = (size_t)(e - ls->p);
  if (*n && (*s)[*n - 1] == '\r') (*n)--;
  ls->p = e < ls->end ? e + 1 : e;
  ls->lineno++;
  return 1;
}

static int parse_fail(sc_glyphset *gs, int line, const char *what) {
  sc_glyphset_free(gs);
  return sc__err(SC_EFORMAT, "glyphs: line %d: %s", line, what);
}

SC_EXTERN int sc_glyphset_parse(sc_glyphset **out, const char *buf, size_t len) {
  if (!out || (!buf && len)) return sc__err(SC_EINVAL, "glyphs: NULL argument");
  *out = NULL;
  sc_glyphset *gs;
  int rc = sc_glyphset_new(&gs, 0xFFFFFF, 40);
  if (rc) return rc;
  lines ls = {buf, buf + len, 0};
  const char *s;
  size_t n;
  int have_magic = 0;
  char tmp[256];
  while (next_line(&ls, &s, &n)) {
    if (n == 0 || s[0] == '#') continue;
    if (n >= sizeof tmp) return parse_fail(gs, ls.lineno, "line too long");
    memcpy(tmp, s, n);
    tmp[n] = 0;
    char kw[32], name[64], extra[8];
    unsigned ink;
    int a, b, c;
    if (!have_magic) {
      if (sscanf(tmp, "stepcheck-glyphs %d %7s", &a, extra) != 1 || a != 1)
        return parse_fail(gs, ls.lineno, "expected \"stepcheck-glyphs 1\" first");
      have_magic = 1;
    } else if (sscanf(tmp, "ink %6x %7s", &ink, extra) == 1 && strlen(tmp) == 10) {
      gs->ink_rgb = ink;
    } else if (sscanf(tmp, "tolerance %d %7s", &a, extra) == 1) {
      if (a < 0 || a > 255) return parse_fail(gs, ls.lineno, "tolerance outside 0..255");
      gs->tol = a;
    } else if (sscanf(tmp, "variants %d %7s", &a, extra) == 1) {
      if (a < 1 || a > SC_GLYPH_MAX_VARIANTS || gs->n)
        return parse_fail(gs, ls.lineno, "variants must be 1..16, before the first glyph");
      gs->variants = a;
    } else if (sscanf(tmp, "space %d %7s", &a, extra) == 1) {
      if (a < 0 || a > 1000) return parse_fail(gs, ls.lineno, "bad space width");
      gs->space_px = a;
    } else if (sscanf(tmp, "gaps %d %d %7s", &a, &b, extra) == 2) {
      if (a < -1 || b < -1 || a > 1000 || b > 1000) return parse_fail(gs, ls.lineno, "bad gaps");
      gs->gap_max = a;
      gs->space_min = b;
    } else if (sscanf(tmp, "%31s %63s %d %d %d %7s", kw, name, &a, &b, &c, extra) == 5 &&
               strcmp(kw, "glyph") == 0) {
      int w = a, h = b, top = c, hdr = ls.lineno;
      if (!sc__glyph_name_ok(name)) return parse_fail(gs, hdr, "bad glyph name");
      if (gs->n >= SC__GLYPHSET_MAX_GLYPHS) return parse_fail(gs, hdr, "more than 1024 glyphs");
      if (sc__glyph_count(gs, name) >= gs->variants)
        return parse_fail(gs, hdr, gs->variants > 1 ? "more variants of a glyph than \"variants\" allows"
                                                    : "glyph defined twice");
      if (w < 1 || w > 64 || h < 1 || top < 1 || top > SC_GLYPH_MAX_ASCENT ||
          h - top > D || h > top + D)
        return parse_fail(gs, hdr, "glyph size or position out of range");
      sc__col *cols = sc__calloc((size_t)w, sizeof *cols);
      if (!cols) {
        sc_glyphset_free(gs);
        return sc__err(SC_ENOMEM, "glyphs: out of memory");
      }
      for (int r = 0; r < h; r++) {
        if (!next_line(&ls, &s, &n) || n != (size_t)w) {
          sc__free(cols);
          return parse_fail(gs, ls.lineno, "glyph row missing or of the wrong width");
        }
        for (int x = 0; x < w; x++) {
          if (s[x] == '#')
            cols[x] |= (sc__col)1 << (D - 1 - (r - top));
          else if (s[x] != '.') {
            sc__free(cols);
            return parse_fail(gs, ls.lineno, "glyph rows hold only '#' and '.'");
          }
        }
      }
      int empty_edge = cols[0] == 0 || cols[w - 1] == 0;
      sc__col any = 0;
      for (int x = 0; x < w; x++) any |= cols[x];
      int r0 = D - 1 + top, r1 = D - (h - top);
      if (empty_edge || !(any >> r0 & 1) || !(any >> r1 & 1)) {
        sc__free(cols);
        return parse_fail(gs, hdr, "glyph box is not tight around its ink");
      }
      rc = sc__glyphset_add(gs, name, w, h, top, cols);
      if (rc) {
        sc_glyphset_free(gs);
        return rc;
      }
    } else {
      return parse_fail(gs, ls.lineno, "unknown line");
    }
  }
  if (!have_magic) return parse_fail(gs, ls.lineno, "empty file");
  if (gs->space_px == 0) sc__glyphset_update_space(gs);
  *out = gs;
  return 0;
}

/* --- load / save --------------------------------------------------------- */

static const struct {
  const char *name, *text;
  const size_t *len;
} builtins[] = {{"josm", sc__builtin_josm_glyphs, &sc__builtin_josm_glyphs_len},
                {"gpsprune", sc__builtin_gpsprune_glyphs, &sc__builtin_gpsprune_glyphs_len},
                {"leaflet", sc__builtin_leaflet_glyphs, &sc__builtin_leaflet_glyphs_len},
                {"openlayers", sc__builtin_openlayers_glyphs, &sc__builtin_openlayers_glyphs_len}};

SC_EXTERN const char *sc_glyphset_builtin(size_t i) {
  return i < sizeof builtins / sizeof builtins[0] ? builtins[i].name : NULL;
}

SC_EXTERN int sc_glyphset_load(sc_glyphset **out, const char *name) {
  if (!out || !name) return sc__err(SC_EINVAL, "glyphs: NULL argument");
  *out = NULL;
  size_t nl = strlen(name);
  int is_path = strchr(name, '/') || (nl > 7 && strcmp(name + nl - 7, ".glyphs") == 0);
  if (!is_path) {
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
      if (strcmp(name, builtins[i].name) == 0)
        return sc_glyphset_parse(out, builtins[i].text, *builtins[i].len);
    return sc__err(SC_ENOTFOUND, "glyphs: no builtin glyph set \"%s\" (builtin: josm, gpsprune, leaflet, openlayers)",
                   name);
  }
  char *buf;
  size_t len;
  int rc = sc__file_read_all(name, SC__GLYPHSET_FILE_MAX, &buf, &len);
  if (!rc) {
    rc = sc_glyphset_parse(out, buf, len);
    if (rc == SC_EFORMAT) {
      char *msg = sc__strdup(sc_errmsg());
      rc = sc__err(SC_EFORMAT, "%s: %s", name, msg ? msg : "malformed");
      sc__free(msg);
    }
  }
  sc__free(buf);
  return rc;
}

static int by_name(const void *a, const void *b) {
  const sc__glyph *x = *(const sc__glyph *const *)a, *y = *(const sc__glyph *const *)b;
  int c = strcmp(x->name, y->name);
  if (c || x == y) return c;
  /* variants of one name: by width, then by their columns, so equal sets give equal files */
  if (x->w != y->w) return x->w < y->w ? -1 : 1;
  if (x->h != y->h) return x->h < y->h ? -1 : 1;
  if (x->top != y->top) return x->top < y->top ? -1 : 1;
  return memcmp(x->cols, y->cols, (size_t)x->w * sizeof *x->cols);
}

SC_EXTERN int sc_glyphset_save(const sc_glyphset *gs, const char *path) {
  if (!gs || !path) return sc__err(SC_EINVAL, "glyphs: NULL argument");
  int orc = sc__out_check(path);
  if (orc) return orc;
  char *tmp = sc__asprintf("%s.tmp", path);
  const sc__glyph **order = sc__malloc((gs->n ? gs->n : 1) * sizeof *order);
  if (!tmp || !order) {
    sc__free(tmp);
    sc__free(order);
    return sc__err(SC_ENOMEM, "glyphs: out of memory");
  }
  for (size_t i = 0; i < gs->n; i++) order[i] = &gs->g[i];
  if (gs->n) qsort(order, gs->n, sizeof *order, by_name);
  FILE *f = sc__out_open_tmp(tmp);
  int rc = 0;
  if (!f) {
    rc = sc__err(SC_EIO, "%s: %s", tmp, strerror(errno));
    goto done;
  }
  fprintf(f, "stepcheck-glyphs 1\nink %06x\ntolerance %d\nspace %d\ngaps %d %d\n",
          (unsigned)gs->ink_rgb, gs->tol, gs->space_px, gs->gap_max, gs->space_min);
  if (gs->variants > 1) fprintf(f, "variants %d\n", gs->variants);
  for (size_t i = 0; i < gs->n; i++) {
    const sc__glyph *g = order[i];
    fprintf(f, "glyph %s %d %d %d\n", g->name, g->w, g->h, g->top);
    for (int r = 0; r < g->h; r++) {
      for (int x = 0; x < g->w; x++)
        fputc((g->cols[x] >> (D - 1 - (r - g->top)) & 1) ? '#' : '.', f);
      fputc('\n', f);
    }
  }
  if (ferror(f) | (fclose(f) != 0)) {
    rc = sc__err(SC_EIO, "%s: write error", tmp);
    remove(tmp);
  } else if (rename(tmp, path) != 0) {
    rc = sc__err(SC_EIO, "rename %s: %s", path, strerror(errno));
    remove(tmp);
  }
done:
  sc__free(tmp);
  sc__free(order);
  return rc;
}

SC_EXTERN int sc_glyphset_spell(const sc_glyphset *gs, const char *text, char *missing) {
  if (!gs || !text) return sc__err(SC_EINVAL, "glyphs: NULL argument");
  size_t n = strlen(text);
  if (missing) missing[0] = '\0';
  /* ok[i]: text[0..i) can be written (spaces are free). */
  unsigned char sok[256], *ok = n < sizeof sok ? sok : sc__malloc(n + 1);
  if (!ok) return sc__err(SC_ENOMEM, "glyphs: out of memory");
  memset(ok, 0, n + 1);
  ok[0] = 1;
  size_t far = 0; /* furthest position reached */
  for (size_t i = 0; i < n; i++) {
    if (!ok[i]) continue;
    if (i > far) far = i;
    if (text[i] == ' ') {
      ok[i + 1] = 1;
      continue;
    }
    for (size_t k = 0; k < gs->n; k++) {
      size_t gl = strlen(gs->g[k].name);
      if (gl && i + gl <= n && memcmp(text + i, gs->g[k].name, gl) == 0) ok[i + gl] = 1;
    }
  }
  int good = ok[n];
  if (!good && missing) {
    while (far < n && ok[far + 1]) far++;
    snprintf(missing, SC_GLYPH_NAME_MAX + 2, "%.*s", 1, text + far);
  }
  if (ok != sok) sc__free(ok);
  return good ? 0 : SC_ENOTFOUND;
}
