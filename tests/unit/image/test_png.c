/* PNG decode/encode: every colour type pixel-exact against the formulas in
 * fixtures/png/make-fixtures.py, hostile files, limits, allocation failure. */
#include "testutil.h"

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
      cmocka_unit_test(alloc_failure_decode),
      cmocka_unit_test(alloc_failure_encode),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
