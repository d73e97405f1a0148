/* PNG decode from memory with libpng 1.6: any colour type and bit depth to
 * 8-bit RGBA, limits checked before any allocation, libpng errors turned into
 * SC_EFORMAT. Hostile input must fail cleanly and cheaply. */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "image/image_priv.h"

/* Ancillary chunks (iCCP, zTXt, ...) may not make libpng allocate more. */
#define SC_PNG_CHUNK_MALLOC_MAX ((png_alloc_size_t)8 << 20)
/* Nor may a file queue up more than this many unknown/text chunks. */
#define SC_PNG_CHUNK_CACHE_MAX 256

/* Everything the setjmp-protected part touches lives here, so no local
 * variable is modified between setjmp and longjmp. */
typedef struct decode_ctx {
  const uint8_t *buf;
  size_t len, pos;
  int oom;             /* an allocation failed (mem_ptr of the png struct) */
  char msg[200];       /* libpng's error text */
  png_structp png;
  png_infop info;
  png_bytep *rows;
  sc_image *img;
} decode_ctx;

static void on_error(png_structp png, png_const_charp msg) {
  decode_ctx *c = png_get_error_ptr(png);
  /* libpng says "IDAT: CRC error"; read it as "CRC error in IDAT". */
  if (strlen(msg) > 6 && msg[4] == ':' && msg[5] == ' ')
    snprintf(c->msg, sizeof c->msg, "%s in %.4s", msg + 6, msg);
  else
    snprintf(c->msg, sizeof c->msg, "%s", msg);
  png_longjmp(png, 1); /* returning would make libpng print to stderr */
}

static void on_warning(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg; /* benign: ancillary chunk problems, sRGB profile notes */
}

static void on_read(png_structp png, png_bytep out, size_t n) {
  decode_ctx *c = png_get_io_ptr(png);
  if (n > c->len - c->pos) png_error(png, "truncated");
  memcpy(out, c->buf + c->pos, n);
  c->pos += n;
}

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Walk the chunk list without allocating: a chunk that claims more bytes
 * than the file has left means the file is truncated (and libpng would
 * allocate the claimed size before finding out). Then, as deflate cannot
 * compress better than about 1032:1, IDAT chunks too small to hold the
 * image's filtered rows also mean a broken file: checked first so a small
 * hostile file claiming a large image does not cost a large allocation. */
#define SC_DEFLATE_MAX_RATIO 1040u
static int chunks_plausible(const uint8_t *buf, size_t len, uint32_t w, uint32_t h) {
  uint64_t idat = 0;
  size_t pos = 8;
  for (;;) {
    if (len - pos < 12) return sc__err(SC_EFORMAT, "png: truncated (no IEND chunk)");
    uint32_t n = be32(buf + pos);
    const uint8_t *kind = buf + pos + 4;
    if (n > len - pos - 12)
      return sc__err(SC_EFORMAT, "png: truncated (%.4s chunk of %lu bytes, %zu left)",
                     (const char *)kind, (unsigned long)n, len - pos - 12);
    if (memcmp(kind, "IDAT", 4) == 0) idat += n;
    if (memcmp(kind, "IEND", 4) == 0) break;
    pos += 12 + (size_t)n;
  }
  static const unsigned channels[7] = {1, 0, 3, 1, 2, 0, 4};
  unsigned depth = buf[24], type = buf[25];
  if (type > 6 || channels[type] == 0 || depth == 0 || depth > 16) return 0; /* libpng says */
  /* filtered size of the non-interlaced image: a lower bound for Adam7 too */
  uint64_t rowbits = (uint64_t)w * channels[type] * depth;
  uint64_t raw = (uint64_t)h * (1 + (rowbits + 7) / 8);
  if (idat * SC_DEFLATE_MAX_RATIO + SC_DEFLATE_MAX_RATIO < raw)
    return sc__err(SC_EFORMAT, "png: %llu bytes of image data cannot hold %lux%lu",
                   (unsigned long long)idat, (unsigned long)w, (unsigned long)h);
  return 0;
}

/* Signature and the IHDR size against the limits, before libpng (and so
 * before any allocation) sees the file. */
static int precheck(const uint8_t *buf, size_t len, const sc_png_limits *lim) {
  static const uint8_t sig[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  if (len == 0) return sc__err(SC_EFORMAT, "png: empty input");
  if (memcmp(buf, sig, len < 8 ? len : 8) != 0)
    return sc__err(SC_EFORMAT, "png: not a PNG file (bad signature)");
  if (len < 8 + 8 + 13 + 4) return sc__err(SC_EFORMAT, "png: truncated");
  if (be32(buf + 8) != 13 || memcmp(buf + 12, "IHDR", 4) != 0)
    return sc__err(SC_EFORMAT, "png: first chunk is not a valid IHDR");
  uint32_t w = be32(buf + 16), h = be32(buf + 20);
  if (w == 0 || h == 0 || w > 0x7fffffffu || h > 0x7fffffffu)
    return sc__err(SC_EFORMAT, "png: invalid image size %lux%lu in IHDR", (unsigned long)w,
                   (unsigned long)h);
  if (w > (uint32_t)lim->max_width || h > (uint32_t)lim->max_height)
    return sc__err(SC_ETOOBIG, "png: %lux%lu exceeds the limit %dx%d", (unsigned long)w,
                   (unsigned long)h, lim->max_width, lim->max_height);
  size_t row = (size_t)w * 4;
  if (row > SIZE_MAX / h || row * h > lim->max_bytes)
    return sc__err(SC_ETOOBIG, "png: %lux%lu needs more than the limit of %zu RGBA bytes",
                   (unsigned long)w, (unsigned long)h, lim->max_bytes);
  return chunks_plausible(buf, len, w, h);
}

/* 8-bit RGB read into the last 3w bytes of a 4w-byte row, widened in
 * place to RGBA with alpha 255. Forward is safe: pixel i is read (bytes
 * w + 3i .. w + 3i + 3) before it is written (4i .. 4i + 3), and every
 * write stays below what is still to be read (4i + 3 < w + 3i + 3 while
 * i < w). One 4-byte load per pixel; the last pixel by bytes, as its load
 * would reach one byte past the row. libpng's filler moves a byte at a
 * time and was a tenth of the library's CPU on Chromium's captures. */
static void rgb_to_rgba(uint8_t *row, size_t w) {
  const uint8_t *s = row + w;
  size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; i + 1 < w; i++) {
    uint32_t v;
    memcpy(&v, s + 3 * i, 4);
    v |= 0xff000000u;
    memcpy(row + 4 * i, &v, 4);
  }
#endif
  for (; i < w; i++) {
    uint8_t r = s[3 * i], g = s[3 * i + 1], b = s[3 * i + 2];
    row[4 * i] = r, row[4 * i + 1] = g, row[4 * i + 2] = b, row[4 * i + 3] = 255;
  }
}

/* The part libpng may longjmp out of. Returns 0, or 1 after a libpng error
 * (message in c->msg), or a negative sc_error of our own. */
static int decode(decode_ctx *c, const sc_png_limits *lim) {
  if (setjmp(png_jmpbuf(c->png))) return 1;
  png_set_user_limits(c->png, (png_uint_32)lim->max_width, (png_uint_32)lim->max_height);
  png_set_chunk_malloc_max(c->png, SC_PNG_CHUNK_MALLOC_MAX);
  png_set_chunk_cache_max(c->png, SC_PNG_CHUNK_CACHE_MAX);
  png_set_read_fn(c->png, c, on_read);
  if (lim->skip_checksums) {
    png_set_crc_action(c->png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
    png_set_option(c->png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
  }
  png_read_info(c->png, c->info);

  png_uint_32 w, h;
  int depth, type, interlace;
  png_get_IHDR(c->png, c->info, &w, &h, &depth, &type, &interlace, NULL, NULL);
  if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(c->png);
  if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(c->png);
  int trns = png_get_valid(c->png, c->info, PNG_INFO_tRNS) != 0;
  /* Chromium's screenshots: 8-bit RGB, not interlaced. Read as they are
   * and widened here (rgb_to_rgba), row by row while the row is cached. */
  int rgb8 = type == PNG_COLOR_TYPE_RGB && depth == 8 && !trns && interlace == PNG_INTERLACE_NONE;
  if (!rgb8) {
    if (trns) png_set_tRNS_to_alpha(c->png);
    if (depth == 16) png_set_scale_16(c->png); /* rounds: v * 255 / 65535 */
    if (!(type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(c->png);
    if (!(type & PNG_COLOR_MASK_ALPHA) && !trns) png_set_filler(c->png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(c->png);
  }
  png_read_update_info(c->png, c->info);
  if (png_get_rowbytes(c->png, c->info) != (size_t)w * (rgb8 ? 3 : 4) ||
      png_get_bit_depth(c->png, c->info) != 8)
    return sc__err(SC_EFORMAT, "png: transform did not give 8-bit RGBA");

  int rc = sc__image_alloc(&c->img, (int)w, (int)h, 0);
  if (rc) return rc;
  if (rgb8) {
    for (png_uint_32 y = 0; y < h; y++) {
      uint8_t *row = c->img->px + (size_t)y * c->img->stride;
      png_read_row(c->png, row + w, NULL);
      rgb_to_rgba(row, w);
    }
  } else {
    c->rows = sc__malloc((size_t)h * sizeof *c->rows);
    if (!c->rows) return sc__err(SC_ENOMEM, "png: out of memory");
    for (png_uint_32 y = 0; y < h; y++) c->rows[y] = c->img->px + (size_t)y * c->img->stride;
    png_read_image(c->png, c->rows);
  }
  /* reads up to IEND, so a file cut after its image data is still an error */
  png_read_end(c->png, NULL);
  return 0;
}

SC_EXTERN int sc_image_decode_png(sc_image **out, const void *buf, size_t len,
                                  const sc_png_limits *lim) {
  if (!out || (!buf && len)) return sc__err(SC_EINVAL, "png: NULL argument");
  *out = NULL;
  sc_png_limits l;
  if (sc__png_limits_read(&l, lim, "sc_image_decode_png")) return SC_EINVAL;
  lim = &l;
  if (l.max_width <= 0 || l.max_height <= 0)
    return sc__err(SC_EINVAL, "sc_image_decode_png: limits %dx%d, want > 0", l.max_width,
                   l.max_height);
  int rc = precheck(buf, len, lim);
  if (rc) return rc;

  decode_ctx c;
  memset(&c, 0, sizeof c);
  c.buf = buf;
  c.len = len;
  c.png = png_create_read_struct_2(PNG_LIBPNG_VER_STRING, &c, on_error, on_warning, &c.oom,
                                   sc__png_malloc, sc__png_free);
  if (!c.png) return sc__err(SC_ENOMEM, "png: out of memory");
  c.info = png_create_info_struct(c.png);
  if (!c.info) {
    png_destroy_read_struct(&c.png, NULL, NULL);
    return sc__err(SC_ENOMEM, "png: out of memory");
  }
  rc = decode(&c, lim);
  if (rc == 1) {
    if (c.oom)
      rc = sc__err(SC_ENOMEM, "png: out of memory (%s)", c.msg);
    else
      rc = sc__err(SC_EFORMAT, "png: %s", c.msg);
  }
  png_destroy_read_struct(&c.png, &c.info, NULL);
  sc__free(c.rows);
  if (rc) {
    sc_image_free(c.img);
    return rc;
  }
  *out = c.img;
  return 0;
}

SC_EXTERN int sc_image_load_png(sc_image **out, const char *path, const sc_png_limits *lim) {
  if (!out || !path) return sc__err(SC_EINVAL, "png: NULL argument");
  *out = NULL;
  /* zlib's best ratio is about 1032:1; a file far bigger than its decoded
   * size allowed can only be hostile or junk */
  sc_png_limits l;
  if (sc__png_limits_read(&l, lim, "sc_image_load_png")) return SC_EINVAL;
  size_t maxb = l.max_bytes;
  size_t cap = maxb < SIZE_MAX / 2 ? maxb + ((size_t)1 << 20) : SIZE_MAX;
  char *buf;
  size_t n;
  int rc = sc__file_read_all(path, cap, &buf, &n); /* a FIFO is refused, not waited on */
  if (rc) return rc;
  rc = sc_image_decode_png(out, (const uint8_t *)buf, n, &l);
  sc__free(buf);
  if (rc) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", sc_errmsg());
    return sc__err(rc, "%s: %s", path, msg);
  }
  return 0;
}
