/* Packed images (pack.h): each row as runs of pixels equal to the pixels
 * right above, runs of one repeated pixel, and literal pixels. Screens are
 * mostly flat colour and shapes with vertical edges, so a row is mostly
 * "as above" and packs to a few bytes; this costs a pass at memory speed
 * both ways (deflate level 1 was tried first: ~4 ms per MB to pack).
 * Noise costs one byte per 128 pixels more than the pixels themselves.
 *
 * Code, per row: a byte T, then
 *   T < 0x80:  T + 1 literal pixels (4 bytes each);
 *   T < 0xc0:  a byte B; ((T & 0x3f) << 8 | B) + 2 copies (2 .. 16385) of
 *              the one pixel that follows;
 *   T < 0xe0:  a byte B; ((T & 0x1f) << 8 | B) + 1 pixels (1 .. 8192)
 *              equal to those right above (never in the first row);
 *   T < 0xf0:  the same count in 12 bits (1 .. 4096): equal to the pixels
 *              above and one to the left (a diagonal hatch going right);
 *   else:      ... above and one to the right (a hatch going left).
 * A row equal to the row above has no code at all: its entry in rows[] is
 * the row above's. The code is a function of the pixels: equal images
 * pack to equal bytes. */
#include "pack.h"

#include <string.h>

#include "core/core.h"
#include "image_priv.h"

#define LIT_MAX 128
#define REP_MAX 16385
#define UP_MAX 8192
#define DIAG_MAX 4096

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
         a->len == b->len && !memcmp(a->data, b->data, a->len) &&
         !memcmp(a->rows, b->rows, (size_t)a->height * sizeof *a->rows);
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

/* How many pixels from x on equal the pixels above shifted by dx (-1, 0,
 * 1), at most max, staying inside the row above. */
static int up_length(const uint8_t *row, const uint8_t *above, int x, int w, int dx, int max) {
  int lim = w - x < max ? w - x : max, n = 0;
  if (x + dx < 0) return 0;
  if (dx > 0 && lim > w - x - dx) lim = w - x - dx;
  const uint8_t *a = above + (size_t)(x + dx) * 4, *r = row + (size_t)x * 4;
  while (n + 16 <= lim && memcmp(r + (size_t)n * 4, a + (size_t)n * 4, 64) == 0) n += 16;
  while (n < lim && pix(r, n) == pix(a, n)) n++;
  return n;
}

static size_t counted(unsigned char *o, unsigned base, int c) {
  o[0] = (unsigned char)(base | (unsigned)(c >> 8));
  o[1] = (unsigned char)(c & 0xff);
  return 2;
}

static size_t pack_row(unsigned char *o, const uint8_t *row, const uint8_t *above, int w) {
  size_t n = 0;
  int x = 0;
  while (x < w) {
    int up = above ? up_length(row, above, x, w, 0, UP_MAX) : 0;
    int rep = run_length(row, x, w, REP_MAX);
    if (up >= 1 && up >= rep) {
      n += counted(o + n, 0xc0, up - 1);
      x += up;
      continue;
    }
    int ul = above ? up_length(row, above, x, w, -1, DIAG_MAX) : 0;
    int ur = above ? up_length(row, above, x, w, 1, DIAG_MAX) : 0;
    if ((ul >= 2 || ur >= 2) && (ul > rep || ur > rep)) {
      int left = ul >= ur;
      n += counted(o + n, left ? 0xe0 : 0xf0, (left ? ul : ur) - 1);
      x += left ? ul : ur;
      continue;
    }
    if (rep >= 2) {
      n += counted(o + n, 0x80, rep - 2);
      memcpy(o + n, row + (size_t)x * 4, 4);
      n += 4;
      x += rep;
      continue;
    }
    /* literals up to a pixel equal to the one above or a pair */
    int lit = 1;
    while (x + lit < w && lit < LIT_MAX &&
           !(above && pix(row, x + lit) == pix(above, x + lit)) &&
           !(above && x + lit + 2 < w && pix(row, x + lit) == pix(above, x + lit - 1) &&
             pix(row, x + lit + 1) == pix(above, x + lit)) &&
           !(above && x + lit + 2 < w && pix(row, x + lit) == pix(above, x + lit + 1) &&
             pix(row, x + lit + 1) == pix(above, x + lit + 2)) &&
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
  /* Packed into the thread's scratch, then copied out at its size: a
   * worst-case block per frame, shrunk in place, would leave the small
   * packed frame in the middle of a frame-sized hole (heap fragmentation,
   * docs/reliability.md "Soak"). */
  unsigned char *out = sc__scratch(SC__SCRATCH_PACK, row_max * h + 1);
  size_t *rows = sc__malloc(h ? h * sizeof *rows : 1);
  if (!out || !rows) {
    sc__free(rows);
    return sc__err(SC_ENOMEM, "pack: out of memory");
  }
  size_t len = 0;
  for (size_t y = 0; y < h; y++) {
    const uint8_t *src = img->px + y * img->stride;
    const uint8_t *above = y ? src - img->stride : NULL;
    if (above && memcmp(src, above, w * 4) == 0) {
      rows[y] = rows[y - 1];
      continue;
    }
    rows[y] = len;
    len += pack_row(out + len, src, above, img->width);
  }
  unsigned char *fit = sc__malloc(len ? len : 1);
  if (!fit) {
    sc__free(rows);
    return sc__err(SC_ENOMEM, "pack: out of memory");
  }
  memcpy(fit, out, len);
  pk->data = fit;
  pk->rows = rows;
  pk->len = len;
  pk->width = img->width;
  pk->height = img->height;
  return 0;
}

/* Decode row y of pk into o (width * 4 bytes); above: row y - 1 decoded
 * (NULL for the first row). 0, or -1 when damaged. */
static int unpack_row(const sc__packed *pk, int y, unsigned char *o, const unsigned char *above) {
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
      continue;
    }
    if (p >= end) return -1;
    int b = *p++;
    if (t >= 0xc0) {
      int dx = t >= 0xf0 ? 1 : t >= 0xe0 ? -1 : 0;
      int up = (int)(((t & (dx ? 0x0f : 0x1f)) << 8) | (unsigned)b) + 1;
      if (!above || up > pk->width - x || x + dx < 0 || x + dx + up > pk->width) return -1;
      memcpy(o + (size_t)x * 4, above + (size_t)(x + dx) * 4, (size_t)up * 4);
      x += up;
      continue;
    }
    int c = (int)(((t & 0x3f) << 8) | (unsigned)b);
    int run = c + 2;
    if (run > pk->width - x || end - p < 4) return -1;
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
  return p == end ? 0 : -1;
}

int sc__unpack_rect(sc_image **out, const sc__packed *pk, sc_rect r) {
  *out = NULL;
  if (r.x < 0 || r.y < 0 || r.w <= 0 || r.h <= 0 || r.x > pk->width - r.w ||
      r.y > pk->height - r.h)
    return sc__err(SC_EINVAL, "unpack: %d,%d %dx%d is not inside %dx%d", r.x, r.y, r.w, r.h,
                   pk->width, pk->height);
  sc_image *img = NULL;
  int rc = sc__image_alloc(&img, r.w, r.h, 0);
  if (rc < 0) return rc;
  /* Rows refer to the rows above: decode from the first row, in two
   * full-width buffers, and keep the rows of r (a whole-width r decodes
   * straight into the image once it is reached). */
  size_t rowb = (size_t)pk->width * 4;
  unsigned char *buf = sc__malloc(2 * rowb);
  if (!buf) {
    sc_image_free(img);
    return sc__err(SC_ENOMEM, "unpack: out of memory");
  }
  int whole = r.x == 0 && r.w == pk->width;
  const unsigned char *above = NULL;
  for (int y = 0; y < r.y + r.h; y++) {
    unsigned char *o = whole && y >= r.y ? img->px + (size_t)(y - r.y) * img->stride
                                         : buf + (size_t)(y & 1) * rowb;
    if (above && pk->rows[y] == pk->rows[y - 1])
      memcpy(o, above, rowb); /* the row above again */
    else if (unpack_row(pk, y, o, above) < 0) {
      sc__free(buf);
      sc_image_free(img);
      return sc__err(SC_EFORMAT, "unpack: packed image is damaged");
    }
    if (!whole && y >= r.y)
      memcpy(img->px + (size_t)(y - r.y) * img->stride, o + (size_t)r.x * 4, (size_t)r.w * 4);
    above = o;
  }
  sc__free(buf);
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
