/* Packed images (pack.h): each row as runs of one repeated pixel and runs
 * of literal pixels (a PackBits-like code over 32-bit pixels). Screens are
 * mostly flat colour, so this is small where it matters and costs a pass at
 * memory speed both ways (deflate level 1 took ~4 ms per MB to pack);
 * noise costs 1 byte per 128 pixels more than the pixels themselves.
 *
 * Code, per row: a byte T.
 *   T < 0x80: T + 1 literal pixels follow (4 bytes each).
 *   T >= 0x80: with the next byte B, ((T & 0x7f) << 8 | B) + 2 copies of
 *              the one pixel that follows (2 .. 32769).
 * Runs never cross rows, so a row decodes on its own. A row equal to the
 * row above has no code: its entry in rows[] is the row above's (a flat
 * screen is mostly such rows, found with memcmp and copied back with
 * memcpy). The code is a function of the pixels: equal images pack to
 * equal bytes. */
#include "pack.h"

#include <string.h>

#include "core/core.h"
#include "image_int.h"

#define LIT_MAX 128
#define REP_MAX 32769

void sc__packed_free(sc__packed *pk) {
  sc__free(pk->data);
  sc__free(pk->rows);
  memset(pk, 0, sizeof *pk);
}

int sc__packed_dup(sc__packed *dst, const sc__packed *src) {
  sc__packed n = *src;
  n.data = sc__malloc(src->len ? src->len : 1);
  n.rows = sc__malloc(src->height ? (size_t)src->height * sizeof *n.rows : 1);
  if (!n.data || !n.rows) {
    sc__free(n.data);
    sc__free(n.rows);
    return sc__err(SC_ENOMEM, "pack: out of memory");
  }
  memcpy(n.data, src->data, src->len);
  memcpy(n.rows, src->rows, (size_t)src->height * sizeof *n.rows);
  sc__packed_free(dst);
  *dst = n;
  return 0;
}

int sc__packed_equal(const sc__packed *a, const sc__packed *b) {
  return a->data && b->data && a->width == b->width && a->height == b->height &&
         a->len == b->len && !memcmp(a->data, b->data, a->len);
}

static uint32_t pix(const uint8_t *row, int x) {
  uint32_t v;
  memcpy(&v, row + (size_t)x * 4, 4);
  return v;
}

/* How many pixels from x on equal pixel x (at most max), comparing 16 at a
 * time against a pattern while they do. */
static int run_length(const uint8_t *row, int x, int w, int max) {
  uint32_t v = pix(row, x);
  int run = 1, lim = w - x < max ? w - x : max;
  while (run < lim && run < 16 && pix(row, x + run) == v) run++;
  if (run == 16) {
    uint8_t pat[64];
    for (int k = 0; k < 16; k++) memcpy(pat + k * 4, &v, 4);
    while (run + 16 <= lim && memcmp(row + (size_t)(x + run) * 4, pat, 64) == 0) run += 16;
    while (run < lim && pix(row, x + run) == v) run++;
  }
  return run;
}

static size_t pack_row(unsigned char *o, const uint8_t *row, int w) {
  size_t n = 0;
  int x = 0;
  while (x < w) {
    int run = run_length(row, x, w, REP_MAX);
    if (run >= 2) {
      int c = run - 2;
      o[n++] = (unsigned char)(0x80 | (c >> 8));
      o[n++] = (unsigned char)(c & 0xff);
      memcpy(o + n, row + (size_t)x * 4, 4);
      n += 4;
      x += run;
      continue;
    }
    /* literals up to the next pair of equal pixels */
    int lit = 1;
    while (x + lit < w && lit < LIT_MAX &&
           !(x + lit + 1 < w && pix(row, x + lit) == pix(row, x + lit + 1)))
      lit++;
    o[n++] = (unsigned char)(lit - 1);
    memcpy(o + n, row + (size_t)x * 4, (size_t)lit * 4);
    n += (size_t)lit * 4;
    x += lit;
  }
  return n;
}

int sc__pack(sc__packed *pk, const sc_image *img) {
  sc__packed_free(pk);
  size_t w = (size_t)img->width, h = (size_t)img->height;
  /* worst case: a literal token per 128 pixels */
  size_t row_max = w * 4 + (w + LIT_MAX - 1) / LIT_MAX;
  if (h && row_max > SIZE_MAX / h) return sc__err(SC_ETOOBIG, "pack: image too large");
  unsigned char *out = sc__malloc(row_max * h + 1);
  size_t *rows = sc__malloc(h ? h * sizeof *rows : 1);
  if (!out || !rows) {
    sc__free(out);
    sc__free(rows);
    return sc__err(SC_ENOMEM, "pack: out of memory");
  }
  size_t len = 0;
  for (size_t y = 0; y < h; y++) {
    const uint8_t *src = img->px + y * img->stride;
    if (y > 0 && memcmp(src, src - img->stride, w * 4) == 0) {
      rows[y] = rows[y - 1];
      continue;
    }
    rows[y] = len;
    len += pack_row(out + len, src, img->width);
  }
  unsigned char *fit = sc__realloc(out, len ? len : 1);
  pk->data = fit ? fit : out;
  pk->rows = rows;
  pk->len = len;
  pk->width = img->width;
  pk->height = img->height;
  return 0;
}

/* Decode row y of pk into o (width * 4 bytes). 0, or -1 when damaged. */
static int unpack_row(const sc__packed *pk, int y, unsigned char *o) {
  /* the code ends where the next row with a code of its own begins */
  size_t at = pk->rows[y], next = pk->len;
  for (int k = y + 1; k < pk->height; k++)
    if (pk->rows[k] != at) {
      next = pk->rows[k];
      break;
    }
  if (at > next || next > pk->len) return -1;
  const unsigned char *p = pk->data + at, *end = pk->data + next;
  int x = 0;
  while (x < pk->width) {
    if (p >= end) return -1;
    unsigned t = *p++;
    if (t < 0x80) {
      size_t lit = t + 1;
      if (lit > (size_t)(pk->width - x) || (size_t)(end - p) < lit * 4) return -1;
      memcpy(o + (size_t)x * 4, p, lit * 4);
      p += lit * 4;
      x += (int)lit;
    } else {
      if (end - p < 5) return -1;
      int run = (int)(((t & 0x7f) << 8) | *p++) + 2;
      if (run > pk->width - x) return -1;
      /* one pixel, then copies of what is filled so far: doubling */
      unsigned char *d = o + (size_t)x * 4;
      memcpy(d, p, 4);
      size_t have = 4, want = (size_t)run * 4;
      while (have < want) {
        size_t k = have < want - have ? have : want - have;
        memcpy(d + have, d, k);
        have += k;
      }
      p += 4;
      x += run;
    }
  }
  return p == end ? 0 : -1;
}

int sc__unpack_rect(sc_image **out, const sc__packed *pk, sc_rect r) {
  *out = NULL;
  if (r.x < 0 || r.y < 0 || r.w <= 0 || r.h <= 0 || r.x > pk->width - r.w ||
      r.y > pk->height - r.h)
    return sc__err(SC_EINVAL, "unpack: %d,%d %dx%d is not inside %dx%d", r.x, r.y, r.w, r.h,
                   pk->width, pk->height);
  int whole = r.x == 0 && r.w == pk->width;
  sc_image *img = NULL;
  int rc = sc__image_alloc(&img, r.w, r.h, 0);
  if (rc < 0) return rc;
  unsigned char *row = whole ? NULL : sc__malloc((size_t)pk->width * 4);
  if (!whole && !row) {
    sc_image_free(img);
    return sc__err(SC_ENOMEM, "unpack: out of memory");
  }
  for (int y = 0; y < r.h; y++) {
    unsigned char *o = img->px + (size_t)y * img->stride;
    if (y > 0 && pk->rows[r.y + y] == pk->rows[r.y + y - 1]) { /* same as the row above */
      memcpy(o, o - img->stride, (size_t)r.w * 4);
      continue;
    }
    if (unpack_row(pk, r.y + y, whole ? o : row) < 0) {
      sc__free(row);
      sc_image_free(img);
      return sc__err(SC_EFORMAT, "unpack: packed image is damaged");
    }
    if (!whole) memcpy(o, row + (size_t)r.x * 4, (size_t)r.w * 4);
  }
  sc__free(row);
  *out = img;
  return 0;
}

int sc__unpack(sc_image **out, const sc__packed *pk) {
  *out = NULL;
  if (pk->width <= 0 || pk->height <= 0) {
    sc_image *img = NULL;
    int rc = sc__image_alloc(&img, pk->width, pk->height, 0);
    if (rc == 0 && pk->len) {
      sc_image_free(img);
      return sc__err(SC_EFORMAT, "unpack: packed image is damaged");
    }
    *out = img;
    return rc;
  }
  return sc__unpack_rect(out, pk, (sc_rect){0, 0, pk->width, pk->height});
}
