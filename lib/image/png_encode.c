/* PNG encode: 8-bit RGBA at zlib's fastest level (artifacts, not archives),
 * into memory or atomically into a file. */
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "core/core.h"
#include "image/image_priv.h"
#include "image/png_file.h"

typedef struct encode_ctx {
  const sc_image *img;
  uint8_t *buf;
  size_t len, cap;
  int oom;
  char msg[200];
  png_structp png;
  png_infop info;
  png_bytep *rows;
} encode_ctx;

static void on_error(png_structp png, png_const_charp msg) {
  encode_ctx *c = png_get_error_ptr(png);
  snprintf(c->msg, sizeof c->msg, "%s", msg);
  png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

static void on_write(png_structp png, png_bytep data, size_t n) {
  encode_ctx *c = png_get_io_ptr(png);
  if (n > c->cap - c->len) {
    size_t cap = c->cap ? c->cap : 4096;
    while (n > cap - c->len) {
      if (cap > SIZE_MAX / 2) png_error(png, "output too large");
      cap *= 2;
    }
    uint8_t *nb = sc__realloc(c->buf, cap);
    if (!nb) {
      c->oom = 1;
      png_error(png, "out of memory");
    }
    c->buf = nb;
    c->cap = cap;
  }
  memcpy(c->buf + c->len, data, n);
  c->len += n;
}

static void on_flush(png_structp png) { (void)png; }

static int encode(encode_ctx *c) {
  if (setjmp(png_jmpbuf(c->png))) return 1;
  const sc_image *img = c->img;
  png_set_write_fn(c->png, c, on_write, on_flush);
  png_set_IHDR(c->png, c->info, (png_uint_32)img->width, (png_uint_32)img->height, 8,
               PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(c->png, Z_BEST_SPEED);
  /* No filtering: on map-like screenshots (flat areas, thin lines) it gave
   * both the smallest file and the fastest encode of NONE/SUB/UP/adaptive
   * (bench/image/bench_png.c picture: 610 KB in 17 ms vs 797 KB in 66 ms) */
  png_set_filter(c->png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
  c->rows = sc__malloc((size_t)img->height * sizeof *c->rows);
  if (!c->rows) {
    c->oom = 1;
    png_error(c->png, "out of memory");
  }
  for (int y = 0; y < img->height; y++) c->rows[y] = img->px + (size_t)y * img->stride;
  png_set_rows(c->png, c->info, c->rows);
  png_write_png(c->png, c->info, PNG_TRANSFORM_IDENTITY, NULL);
  return 0;
}

SC_EXTERN int sc_image_encode_png(void **out, size_t *len, const sc_image *img) {
  if (!out || !len || !img || !img->px) return sc__err(SC_EINVAL, "png encode: NULL argument");
  *out = NULL;
  *len = 0;
  if (img->width <= 0 || img->height <= 0 || img->stride < (size_t)img->width * 4)
    return sc__err(SC_EINVAL, "png encode: cannot encode a %dx%d image", img->width,
                   img->height);
  encode_ctx c;
  memset(&c, 0, sizeof c);
  c.img = img;
  c.png = png_create_write_struct_2(PNG_LIBPNG_VER_STRING, &c, on_error, on_warning, &c.oom,
                                    sc__png_malloc, sc__png_free);
  if (!c.png) return sc__err(SC_ENOMEM, "png encode: out of memory");
  c.info = png_create_info_struct(c.png);
  int rc;
  if (!c.info)
    rc = sc__err(SC_ENOMEM, "png encode: out of memory");
  else if (encode(&c) != 0)
    rc = c.oom ? sc__err(SC_ENOMEM, "png encode: out of memory")
               : sc__err(SC_EFORMAT, "png encode: %s", c.msg);
  else
    rc = 0;
  png_destroy_write_struct(&c.png, &c.info);
  sc__free(c.rows);
  if (rc) {
    sc__free(c.buf);
    return rc;
  }
  *out = c.buf;
  *len = c.len;
  return 0;
}

SC_EXTERN int sc_image_save_png(const sc_image *img, const char *path) {
  if (!path) return sc__err(SC_EINVAL, "png save: NULL path");
  void *buf;
  size_t len;
  int rc = sc_image_encode_png(&buf, &len, img);
  if (rc) {
    char msg[512];
    snprintf(msg, sizeof msg, "%s", sc_errmsg());
    return sc__err(rc, "%s: %s", path, msg);
  }
  rc = sc__png_write(path, buf, len);
  sc__free(buf);
  return rc;
}

int sc__png_write(const char *path, const void *buf, size_t len) {
  int rc = sc__out_check(path); /* only a regular file is replaced */
  if (rc) return rc;
  char *tmp = sc__asprintf("%s.tmp", path);
  if (!tmp) return sc__err(SC_ENOMEM, "%s: out of memory", path);
  FILE *f = sc__out_open_tmp(tmp);
  if (!f) {
    rc = sc__err(SC_EIO, "%s: %s", tmp, strerror(errno));
    goto done;
  }
  int werr = fwrite(buf, 1, len, f) != len;
  werr |= fflush(f) != 0;
  int saved = errno;
  if (fclose(f) != 0 && !werr) {
    werr = 1;
    saved = errno;
  }
  if (werr) {
    rc = sc__err(SC_EIO, "%s: write failed: %s", tmp, strerror(saved));
    unlink(tmp);
    goto done;
  }
  if (rename(tmp, path) != 0) {
    rc = sc__err(SC_EIO, "%s: rename from %s failed: %s", path, tmp, strerror(errno));
    unlink(tmp);
  }
done:
  sc__free(tmp);
  return rc;
}
