/* PNG decode/encode: every colour type pixel-exact against the formulas in
 * fixtures/png/make-fixtures.py, hostile files, limits, allocation failure. */
#include "testutil.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "stepcheck.h"

static sc_image *load(const char *name) {
  sc_image *img = NULL;
  int rc = sc_image_load_png(&img, sc_test_fixture(name), NULL);
  if (rc) fprintf(stderr, "%s: %s\n", name, sc_errmsg());
  assert_int_equal(rc, 0);
  assert_non_null(img);
  assert_true(img->stride >= (size_t)img->width * 4);
  return img;
}

static uint32_t rgba(unsigned r, unsigned g, unsigned b, unsigned a) {
  return (uint32_t)(r & 255) << 24 | (uint32_t)(g & 255) << 16 | (uint32_t)(b & 255) << 8 |
         (a & 255);
}

/* The formulas of make-fixtures.py. */
static uint32_t f_rgba(int x, int y) {
  return rgba(x * 50 + y * 10, y * 60 + x * 3, x * y * 17 + 5, 255 - x * 40 - y * 15);
}
static uint32_t f_rgb(int x, int y) {
  return rgba(x * 37 + y * 11, x * 5 + y * 43, x * y * 7 + 100, 255);
}
static uint32_t f_pal(int x, int y) {
  static const unsigned alpha[] = {0, 128, 200};
  int i = (x + y * 3) % 10;
  return rgba(i * 25, 255 - i * 20, i * i * 3, i < 3 ? alpha[i] : 255);
}
static uint32_t f_gray16(int x, int y) {
  unsigned v = (unsigned)(x * 50 + y * 30) & 255;
  return rgba(v, v, v, 255);
}
static uint32_t f_gray2(int x, int y) {
  unsigned v = (unsigned)((x + y) % 4) * 85;
  return rgba(v, v, v, 255);
}

static void check_all(const char *name, int w, int h, uint32_t (*f)(int, int)) {
  sc_image *img = load(name);
  assert_int_equal(img->width, w);
  assert_int_equal(img->height, h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      if (sc_image_pixel(img, x, y) != f(x, y))
        fail_msg("%s (%d,%d): got %08x want %08x", name, x, y, sc_image_pixel(img, x, y),
                 f(x, y));
    }
  sc_image_free(img);
}

static void decode_rgba(void **st) { (void)st; check_all("png/rgba.png", 5, 4, f_rgba); }
static void decode_rgb(void **st) { (void)st; check_all("png/rgb.png", 7, 5, f_rgb); }
static void decode_palette_trns(void **st) {
  (void)st;
  check_all("png/palette.png", 6, 4, f_pal);
}
static void decode_gray16(void **st) { (void)st; check_all("png/gray16.png", 5, 3, f_gray16); }
static void decode_gray2(void **st) { (void)st; check_all("png/gray2.png", 9, 2, f_gray2); }
static void decode_interlaced(void **st) {
  (void)st;
  check_all("png/interlaced.png", 11, 9, f_rgb);
}

static int load_err(const char *name, const sc_png_limits *lim) {
  sc_image *img = (sc_image *)&img; /* must come back NULL */
  int rc = sc_image_load_png(&img, sc_test_fixture(name), lim);
  assert_null(img);
  return rc;
}

static void broken_files(void **st) {
  (void)st;
  assert_int_equal(load_err("png/truncated.png", NULL), SC_EFORMAT);
  assert_non_null(strstr(sc_errmsg(), "truncated"));
  assert_non_null(strstr(sc_errmsg(), "truncated.png")); /* names the path */
  assert_int_equal(load_err("png/badcrc.png", NULL), SC_EFORMAT);
  assert_non_null(strstr(sc_errmsg(), "png: CRC error in IDAT"));
  assert_int_equal(load_err("png/notpng.png", NULL), SC_EFORMAT);
  assert_non_null(strstr(sc_errmsg(), "not a PNG"));
  assert_int_equal(load_err("png/empty.png", NULL), SC_EFORMAT);
  assert_int_equal(load_err("png/hugechunk.png", NULL), SC_EFORMAT);
  assert_int_equal(load_err("png/does-not-exist.png", NULL), SC_EIO);
  assert_non_null(strstr(sc_errmsg(), "does-not-exist.png"));
  sc_image *img = NULL;
  assert_int_equal(sc_image_decode_png(&img, "", 0, NULL), SC_EFORMAT);
  assert_int_equal(sc_image_decode_png(&img, "\x89PN", 3, NULL), SC_EFORMAT);
  assert_null(img);
}

/* 100000x100000 must be refused from the IHDR alone: no allocation at all
 * (with every allocation failing it must still say ETOOBIG, not ENOMEM). */
static void huge_ihdr_no_alloc(void **st) {
  (void)st;
  size_t len;
  char *buf = sc_test_slurp(sc_test_fixture("png/huge_ihdr.png"), &len);
  assert_non_null(buf);
  sc_test_alloc_install();
  long live = sc_test_alloc_live();
  sc_test_alloc_fail_after(0);
  sc_image *img = NULL;
  double t0 = sc__now_ms();
  assert_int_equal(sc_image_decode_png(&img, buf, len, NULL), SC_ETOOBIG);
  assert_true(sc__now_ms() - t0 < 50.0);
  sc_test_alloc_fail_after(-1);
  assert_null(img);
  assert_int_equal(sc_test_alloc_live(), live);
  assert_non_null(strstr(sc_errmsg(), "100000x100000"));
  sc_set_allocator(NULL, NULL, NULL);
  free(buf);
}

/* Files that lie about their size are refused from the chunk list alone,
 * before libpng allocates what they claim. */
static void lying_files_no_alloc(void **st) {
  (void)st;
  const char *names[] = {"png/bigclaim.png", "png/hugechunk.png", "png/truncated.png"};
  const char *says[] = {"cannot hold 4000x4000", "tEXt chunk of 2147483632 bytes",
                        "png: truncated"};
  for (int i = 0; i < 3; i++) {
    size_t len;
    char *buf = sc_test_slurp(sc_test_fixture(names[i]), &len);
    assert_non_null(buf);
    sc_test_alloc_install();
    sc_test_alloc_fail_after(0);
    sc_image *img = NULL;
    assert_int_equal(sc_image_decode_png(&img, buf, len, NULL), SC_EFORMAT);
    sc_test_alloc_fail_after(-1);
    sc_set_allocator(NULL, NULL, NULL);
    assert_null(img);
    if (!strstr(sc_errmsg(), says[i])) fail_msg("%s: %s", names[i], sc_errmsg());
    free(buf);
  }
}

static void limits_honoured(void **st) {
  (void)st;
  sc_png_limits lim = SC_PNG_LIMITS_INIT;
  lim.max_width = 100;
  assert_int_equal(load_err("png/wide200x100.png", &lim), SC_ETOOBIG);
  lim.max_width = 200;
  lim.max_height = 99;
  assert_int_equal(load_err("png/wide200x100.png", &lim), SC_ETOOBIG);
  lim.max_height = 100;
  lim.max_bytes = 200 * 100 * 4 - 1;
  assert_int_equal(load_err("png/wide200x100.png", &lim), SC_ETOOBIG);
  lim.max_bytes = 200 * 100 * 4;
  sc_image *img;
  assert_int_equal(sc_image_load_png(&img, sc_test_fixture("png/wide200x100.png"), &lim), 0);
  assert_int_equal(img->width, 200);
  assert_int_equal(sc_image_pixel(img, 199, 99), 0xc86432ffu);
  sc_image_free(img);
  lim.version = 99;
  assert_int_equal(load_err("png/wide200x100.png", &lim), SC_EINVAL);
  /* A version 1 struct ends before skip_checksums: never read past it. */
  struct {
    unsigned version;
    int max_width, max_height;
    size_t max_bytes;
  } v1 = {1, 100, 100, 1 << 20};
  assert_int_equal(load_err("png/wide200x100.png", (const sc_png_limits *)(void *)&v1),
                   SC_ETOOBIG);
}

/* Checksums are verified unless the caller trusts its producer: the file
 * with a flipped IDAT CRC fails by default and decodes with
 * skip_checksums (to the pixels of the good file). */
static void checksums_can_be_skipped(void **st) {
  (void)st;
  sc_png_limits lim = SC_PNG_LIMITS_INIT;
  assert_int_equal(lim.skip_checksums, 0);
  assert_int_equal(load_err("png/badcrc.png", &lim), SC_EFORMAT);
  lim.skip_checksums = 1;
  sc_image *bad = NULL, *good = NULL;
  assert_int_equal(sc_image_load_png(&bad, sc_test_fixture("png/badcrc.png"), &lim), 0);
  assert_int_equal(sc_image_load_png(&good, sc_test_fixture("png/rgb.png"), NULL), 0);
  assert_int_equal(bad->width, good->width);
  assert_int_equal(bad->height, good->height);
  assert_memory_equal(bad->px, good->px, (size_t)good->stride * (size_t)good->height);
  sc_image_free(bad);
  sc_image_free(good);
}

/* Every prefix of a valid file, and a file with bytes flipped: an error or
 * an image, never a crash (valgrind watches the reads). */
static void prefixes_and_flips(void **st) {
  (void)st;
  size_t len;
  char *buf = sc_test_slurp(sc_test_fixture("png/interlaced.png"), &len);
  assert_non_null(buf);
  for (size_t n = 0; n < len; n++) {
    sc_image *img = NULL;
    assert_int_equal(sc_image_decode_png(&img, buf, n, NULL), SC_EFORMAT);
    assert_null(img);
  }
  srand(1);
  for (int i = 0; i < 300; i++) {
    char *copy = malloc(len);
    memcpy(copy, buf, len);
    for (int k = 0; k < 3; k++) copy[8 + rand() % (int)(len - 8)] ^= (char)(1 + rand() % 255);
    sc_image *img = NULL;
    int rc = sc_image_decode_png(&img, copy, len, NULL);
    assert_true(rc == 0 || rc == SC_EFORMAT || rc == SC_ETOOBIG);
    assert_true((rc == 0) == (img != NULL));
    sc_image_free(img);
    free(copy);
  }
  free(buf);
}

static void round_trip(void **st) {
  (void)st;
  sc_image *img;
  assert_int_equal(sc_image_new(&img, 37, 23), 0);
  for (int y = 0; y < 23; y++)
    for (int x = 0; x < 37; x++) {
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      p[0] = (uint8_t)(x * 7);
      p[1] = (uint8_t)(y * 11);
      p[2] = (uint8_t)(x ^ y);
      p[3] = (uint8_t)(255 - x - y);
    }
  void *buf;
  size_t len;
  assert_int_equal(sc_image_encode_png(&buf, &len, img), 0);
  assert_true(len > 8);
  assert_memory_equal(buf, "\x89PNG\r\n\x1a\n", 8);
  sc_image *back;
  assert_int_equal(sc_image_decode_png(&back, buf, len, NULL), 0);
  sc_free(buf);
  assert_int_equal(back->width, 37);
  assert_int_equal(back->height, 23);
  for (int y = 0; y < 23; y++)
    assert_memory_equal(back->px + (size_t)y * back->stride, img->px + (size_t)y * img->stride,
                        37 * 4);
  sc_image_free(back);

  /* a crop keeps the parent's pixels and encodes with its own stride */
  sc_image *part;
  assert_int_equal(sc_image_crop(&part, img, (sc_rect){3, 4, 10, 5}), 0);
  assert_int_equal(sc_image_pixel(part, 0, 0), sc_image_pixel(img, 3, 4));
  assert_int_equal(sc_image_pixel(part, 9, 4), sc_image_pixel(img, 12, 8));
  sc_image *out = NULL;
  assert_int_equal(sc_image_crop(&out, img, (sc_rect){30, 0, 8, 1}), SC_EINVAL);
  assert_null(out);

  char *dir = sc_test_mkdtemp();
  char path[512];
  snprintf(path, sizeof path, "%s/crop.png", dir);
  assert_int_equal(sc_image_save_png(part, path), 0);
  struct stat sb;
  char tmp[600];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  assert_int_not_equal(stat(tmp, &sb), 0); /* renamed away */
  assert_int_equal(sc_image_load_png(&back, path, NULL), 0);
  assert_int_equal(sc_image_hash(back, (sc_rect){0, 0, 10, 5}),
                   sc_image_hash(img, (sc_rect){3, 4, 10, 5}));
  sc_image_free(back);
  snprintf(path, sizeof path, "%s/no/such/dir/x.png", dir);
  assert_int_equal(sc_image_save_png(part, path), SC_EIO);
  assert_non_null(strstr(sc_errmsg(), "no/such/dir/x.png"));
  sc_test_rmtree(dir);
  free(dir);
  sc_image_free(part);
  sc_image_free(img);
}

/* An 8-bit RGB PNG of w x h from rgb (3 bytes a pixel), written by libpng
 * with the given filter and interlacing, into a malloc'd buffer. */
typedef struct membuf {
  unsigned char *p;
  size_t n, cap;
} membuf;
static void mem_write(png_structp png, png_bytep data, png_size_t len) {
  membuf *m = png_get_io_ptr(png);
  if (m->n + len > m->cap) {
    m->cap = (m->n + len) * 2;
    m->p = realloc(m->p, m->cap);
    assert_non_null(m->p);
  }
  memcpy(m->p + m->n, data, len);
  m->n += len;
}
static void mem_flush(png_structp png) { (void)png; }

static membuf encode_rgb(const unsigned char *rgb, int w, int h, int filter, int interlace) {
  membuf m = {0};
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png_create_info_struct(png);
  assert_non_null(png);
  assert_non_null(info);
  if (setjmp(png_jmpbuf(png))) fail_msg("libpng could not write the test image");
  png_set_write_fn(png, &m, mem_write, mem_flush);
  png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
               interlace ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_filter(png, 0, filter);
  png_set_compression_level(png, 1);
  png_write_info(png, info);
  png_bytep *rows = malloc((size_t)h * sizeof *rows);
  assert_non_null(rows);
  for (int y = 0; y < h; y++) rows[y] = (png_bytep)rgb + (size_t)y * (size_t)w * 3;
  png_write_image(png, rows);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  free(rows);
  return m;
}

/* Chromium's captures are 8-bit RGB, one filter ("Up"), not interlaced; the
 * decoder widens their rows to RGBA itself (a fast path, pixel i read before
 * it is overwritten). Every width that exercises its loop and its last
 * pixel, under every filter and interlaced (libpng's own path), must give
 * exactly the pixels written, with alpha 255. */
static void rgb_rows_are_widened_exactly(void **st) {
  (void)st;
  static const int widths[] = {1, 2, 3, 4, 5, 16, 17, 333};
  static const int filters[] = {PNG_FILTER_NONE, PNG_FILTER_UP, PNG_FILTER_SUB, PNG_FILTER_PAETH,
                                PNG_ALL_FILTERS};
  uint32_t seed = 12345;
  for (size_t wi = 0; wi < sizeof widths / sizeof *widths; wi++)
    for (int h = 1; h <= 3; h += 2)
      for (size_t fi = 0; fi < sizeof filters / sizeof *filters; fi++)
        for (int il = 0; il < 2; il++) {
          int w = widths[wi];
          unsigned char *rgb = malloc((size_t)w * (size_t)h * 3);
          assert_non_null(rgb);
          for (size_t i = 0; i < (size_t)w * (size_t)h * 3; i++) {
            seed = seed * 1103515245u + 12345u;
            rgb[i] = (unsigned char)(seed >> 16);
          }
          membuf m = encode_rgb(rgb, w, h, filters[fi], il);
          sc_image *img = NULL;
          assert_int_equal(sc_image_decode_png(&img, m.p, m.n, NULL), 0);
          assert_int_equal(img->width, w);
          assert_int_equal(img->height, h);
          for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
              const unsigned char *p = rgb + ((size_t)y * (size_t)w + (size_t)x) * 3;
              if (sc_image_pixel(img, x, y) != rgba(p[0], p[1], p[2], 255))
                fail_msg("%dx%d filter %d interlace %d: (%d,%d) %08x", w, h, filters[fi], il, x,
                         y, sc_image_pixel(img, x, y));
            }
          sc_image_free(img);
          free(m.p);
          free(rgb);
        }
}

/* Fail the n-th allocation for every n until the call succeeds: always an
 * error (ENOMEM), never a crash, never a leak. */
static void alloc_failure_decode(void **st) {
  (void)st;
  size_t len;
  char *buf = sc_test_slurp(sc_test_fixture("png/interlaced.png"), &len);
  sc_test_alloc_install();
  long live = sc_test_alloc_live();
  int ok = 0;
  long n;
  for (n = 0; n < 1000 && !ok; n++) {
    sc_test_alloc_fail_after(n);
    sc_image *img = NULL;
    int rc = sc_image_decode_png(&img, buf, len, NULL);
    sc_test_alloc_fail_after(-1);
    if (rc == 0) {
      ok = 1;
      assert_int_equal(sc_image_pixel(img, 10, 8), f_rgb(10, 8));
      sc_image_free(img);
    } else {
      assert_int_equal(rc, SC_ENOMEM);
      assert_null(img);
    }
    assert_int_equal(sc_test_alloc_live(), live);
  }
  assert_true(ok);
  assert_true(n > 3); /* libpng and zlib allocations were exercised */
  sc_set_allocator(NULL, NULL, NULL);
  free(buf);
}

static void alloc_failure_encode(void **st) {
  (void)st;
  sc_image *img;
  assert_int_equal(sc_image_new(&img, 16, 16), 0);
  sc_test_alloc_install();
  long live = sc_test_alloc_live();
  int ok = 0;
  for (long n = 0; n < 1000 && !ok; n++) {
    sc_test_alloc_fail_after(n);
    void *buf = NULL;
    size_t len;
    int rc = sc_image_encode_png(&buf, &len, img);
    sc_test_alloc_fail_after(-1);
    if (rc == 0) {
      ok = 1;
      sc_free(buf);
    } else {
      assert_int_equal(rc, SC_ENOMEM);
      assert_null(buf);
    }
    assert_int_equal(sc_test_alloc_live(), live);
  }
  assert_true(ok);
  sc_set_allocator(NULL, NULL, NULL);
  sc_image_free(img);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(decode_rgba),
      cmocka_unit_test(decode_rgb),
      cmocka_unit_test(decode_palette_trns),
      cmocka_unit_test(decode_gray16),
      cmocka_unit_test(decode_gray2),
      cmocka_unit_test(decode_interlaced),
      cmocka_unit_test(broken_files),
      cmocka_unit_test(huge_ihdr_no_alloc),
      cmocka_unit_test(lying_files_no_alloc),
      cmocka_unit_test(limits_honoured),
      cmocka_unit_test(checksums_can_be_skipped),
      cmocka_unit_test(prefixes_and_flips),
      cmocka_unit_test(round_trip),
      cmocka_unit_test(rgb_rows_are_widened_exactly),
      cmocka_unit_test(alloc_failure_decode),
      cmocka_unit_test(alloc_failure_encode),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
