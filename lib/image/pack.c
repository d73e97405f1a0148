/* Packed images (pack.h): deflate at level 1 over the rows, row by row so
 * a strided image needs no copy; memory through the library's allocator. */
#include "pack.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

#include "core/core.h"
#include "image_int.h"

static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
  (void)opaque;
  return sc__calloc(items, size);
}
static void z_free(voidpf opaque, voidpf p) {
  (void)opaque;
  sc__free(p);
}

void sc__packed_free(sc__packed *pk) {
  sc__free(pk->data);
  memset(pk, 0, sizeof *pk);
}

int sc__pack(sc__packed *pk, const sc_image *img) {
  sc__packed_free(pk);
  size_t row = (size_t)img->width * 4, raw = row * (size_t)img->height;
  if (row > UINT_MAX) return sc__err(SC_ETOOBIG, "pack: rows of %d px are too wide", img->width);
  z_stream z = {.zalloc = z_alloc, .zfree = z_free};
  if (deflateInit(&z, 1) != Z_OK) return sc__err(SC_ENOMEM, "pack: out of memory");
  size_t cap = deflateBound(&z, (uLong)raw);
  unsigned char *out = sc__malloc(cap ? cap : 1);
  if (!out) {
    deflateEnd(&z);
    return sc__err(SC_ENOMEM, "pack: out of memory");
  }
  int zr = Z_OK;
  z.next_out = out;
  z.avail_out = (uInt)(cap > UINT_MAX ? UINT_MAX : cap);
  for (int y = 0; y < img->height && zr == Z_OK; y++) {
    z.next_in = (Bytef *)(img->px + (size_t)y * img->stride);
    z.avail_in = (uInt)row;
    zr = deflate(&z, y + 1 == img->height ? Z_FINISH : Z_NO_FLUSH);
    if (zr == Z_STREAM_END) break;
    if (zr == Z_OK && z.avail_in) zr = Z_BUF_ERROR; /* deflateBound was not enough */
  }
  if (img->height == 0) zr = deflate(&z, Z_FINISH);
  size_t len = z.total_out;
  deflateEnd(&z);
  if (zr != Z_STREAM_END) {
    sc__free(out);
    return sc__err(zr == Z_MEM_ERROR ? SC_ENOMEM : SC_EINVAL, "pack: deflate failed (%d)", zr);
  }
  unsigned char *fit = sc__realloc(out, len ? len : 1);
  pk->data = fit ? fit : out;
  pk->len = len;
  pk->width = img->width;
  pk->height = img->height;
  return 0;
}

int sc__unpack(sc_image **out, const sc__packed *pk) {
  *out = NULL;
  sc_image *img = NULL;
  int rc = sc__image_alloc(&img, pk->width, pk->height, 0);
  if (rc < 0) return rc;
  size_t raw = (size_t)img->stride * (size_t)img->height;
  z_stream z = {.zalloc = z_alloc, .zfree = z_free};
  if (inflateInit(&z) != Z_OK) {
    sc_image_free(img);
    return sc__err(SC_ENOMEM, "unpack: out of memory");
  }
  int zr = Z_OK;
  size_t in_left = pk->len, out_left = raw;
  z.next_in = pk->data;
  z.next_out = img->px;
  while (zr == Z_OK) {
    uInt in = (uInt)(in_left > UINT_MAX ? UINT_MAX : in_left);
    uInt o = (uInt)(out_left > UINT_MAX ? UINT_MAX : out_left);
    z.avail_in = in;
    z.avail_out = o;
    zr = inflate(&z, Z_FINISH);
    in_left -= in - z.avail_in;
    out_left -= o - z.avail_out;
    if (zr == Z_BUF_ERROR && in_left && out_left) zr = Z_OK; /* more than 4 GiB: go on */
  }
  inflateEnd(&z);
  if (zr != Z_STREAM_END || out_left != 0 || in_left != 0) {
    sc_image_free(img);
    return zr == Z_MEM_ERROR ? sc__err(SC_ENOMEM, "unpack: out of memory")
                             : sc__err(SC_EFORMAT, "unpack: packed image is damaged");
  }
  *out = img;
  return 0;
}
