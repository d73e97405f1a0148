/* Packed images (snapshots held run-length coded): exact round trips, flat screens
 * pack small, damaged data is refused, allocation failures leave nothing;
 * and the capture hash that says "same bytes as last time". */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "image/pack.h"
#include "stepcheck.h"

static sc_image *make(int w, int h, int noisy) {
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, w, h), 0);
  unsigned seed = 12345;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      seed = seed * 1103515245u + 12345u;
      p[0] = noisy ? (uint8_t)(seed >> 16) : (x > w / 2 ? 0xcb : 0);
      p[1] = noisy ? (uint8_t)(seed >> 8) : (y > h / 3 ? 0x99 : 0);
      p[2] = (uint8_t)(x ^ y);
      p[3] = 255;
    }
  return img;
}

static void assert_same_image(const sc_image *a, const sc_image *b) {
  assert_int_equal(a->width, b->width);
  assert_int_equal(a->height, b->height);
  for (int y = 0; y < a->height; y++)
    assert_memory_equal(a->px + (size_t)y * a->stride, b->px + (size_t)y * b->stride,
                        (size_t)a->width * 4);
}

/* Pack img, unpack it whole and each of rects, compare with the pixels;
 * the packed length. */
static size_t packs_back(const sc_image *img, const sc_rect *rects, int nrects) {
  sc__packed pk = {0};
  sc_image *back = NULL;
  assert_int_equal(sc__pack(&pk, img), 0);
  assert_int_equal(sc__unpack(&back, &pk), 0);
  assert_same_image(img, back);
  assert_int_equal(back->stride, img->width * 4);
  sc_image_free(back);
  for (int i = 0; i < nrects; i++) {
    sc_image *a = NULL, *b = NULL;
    assert_int_equal(sc__unpack_rect(&a, &pk, rects[i]), 0);
    assert_int_equal(sc_image_crop(&b, img, rects[i]), 0);
    assert_same_image(a, b);
    sc_image_free(a);
    sc_image_free(b);
  }
  size_t len = pk.len;
  sc__packed_free(&pk);
  return len;
}

static void round_trip_is_exact(void **st) {
  (void)st;
  for (int noisy = 0; noisy < 2; noisy++) {
    sc_image *img = make(301, 97, noisy);
    packs_back(img, NULL, 0);
    sc_image_free(img);
  }
}

/* Runs and literals at and around their limits (128 literals, 16385
 * repeats, 8192 pixels "as above"), pairs inside noise, and rows wider
 * than one run. */
static void runs_of_every_length_round_trip(void **st) {
  (void)st;
  int w = 70000;
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, w, 3), 0);
  unsigned seed = 7;
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < w; x++) {
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      int seg = x / 1000; /* segments: flat, noise, pairs, alternating */
      seed = seed * 1103515245u + 12345u;
      uint8_t v = seg % 4 == 0 ? 9 : seg % 4 == 1 ? (uint8_t)(seed >> 16)
                  : seg % 4 == 2 ? (uint8_t)(x / 2) : (uint8_t)(x & 1);
      p[0] = v, p[1] = (uint8_t)y, p[2] = 0, p[3] = 255;
    }
  for (int x = 0; x < 32769 + 5; x++) /* row 2: one run over the limit */
    memset(img->px + 2 * img->stride + (size_t)x * 4, 0x42, 4);
  packs_back(img, NULL, 0);
  sc_image_free(img);
}

/* Packing reads each row at its stride: a view with padding at the end of
 * each row packs its own pixels only. */
static void strided_rows_pack_their_pixels_only(void **st) {
  (void)st;
  sc_image *img = make(64, 20, 1);
  sc_image view = *img;
  view.width = 40; /* a view of the left 40 columns, stride still 64 * 4 */
  sc_rect rects[] = {{30, 5, 10, 10}};
  packs_back(&view, rects, 1); /* unpacked with stride 40 * 4 */
  sc_image_free(img);
}

/* The point of packing: a flat 1225x813 map (4 MB of RGBA) held in a few
 * KB, and packing again replaces the old data. */
static void a_flat_screen_packs_small(void **st) {
  (void)st;
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, 1225, 813), 0);
  for (size_t i = 0; i < (size_t)img->stride * 813; i += 4) img->px[i + 3] = 255;
  sc__packed pk = {0};
  assert_int_equal(sc__pack(&pk, img), 0);
  assert_true(pk.len < 8 * 1024); /* a 7-byte run per row */
  sc_image *noisy = make(200, 100, 1);
  assert_int_equal(sc__pack(&pk, noisy), 0); /* replaces */
  assert_int_equal(pk.width, 200);
  /* noise does not pack, and costs one byte per 128 pixels at most */
  assert_true(pk.len > 200 * 100 * 4 && pk.len <= 200 * 100 * 4 + 100 * 2);
  sc_image_free(noisy);
  sc_image_free(img);
  sc__packed_free(&pk);
}

/* Packing a frame allocates what it keeps, not its worst case: after the
 * thread's scratch has grown once, packing a flat 1225x813 frame (4 MB of
 * pixels, a few KB packed) asks for no block of 64 KiB or more. A
 * worst-case block per frame, shrunk afterwards, fragments the heap over a
 * long run (the soak). */
static void packing_allocates_no_worst_case_block(void **st) {
  (void)st;
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, 1225, 813), 0);
  for (size_t i = 0; i < (size_t)img->stride * 813; i += 4) img->px[i + 3] = 255;
  sc__packed pk = {0};
  sc_test_sizes_install(SIZE_MAX);
  assert_int_equal(sc__pack(&pk, img), 0); /* the scratch grows here */
  sc_test_sizes_reset();
  for (int i = 0; i < 3; i++) assert_int_equal(sc__pack(&pk, img), 0);
  size_t largest = sc_test_sizes_largest();
  sc_set_allocator(NULL, NULL, NULL);
  assert_true(pk.len < 8 * 1024);
  if (largest >= 64 * 1024) fail_msg("packing asked for %zu bytes", largest);
  sc__packed_free(&pk);
  sc_image_free(img);
}

/* A row equal to the row above costs nothing; any rect of such an image
 * (starting on a repeated row too) unpacks to the same pixels. */
static void repeated_rows_are_stored_once(void **st) {
  (void)st;
  sc_image *img = make(90, 60, 1);
  for (int y = 1; y < 60; y++)
    if (y % 10) memcpy(img->px + (size_t)y * img->stride, img->px + (size_t)(y - 1) * img->stride, 90 * 4);
  sc_rect rects[] = {{0, 0, 90, 60}, {5, 3, 40, 20}, {0, 11, 90, 1}, {89, 59, 1, 1}};
  assert_true(packs_back(img, rects, 4) <= 6 * (90 * 4 + 1)); /* six distinct rows */
  sc__packed pk = {0};
  assert_int_equal(sc__pack(&pk, img), 0);
  sc_image *out = NULL;
  assert_int_equal(sc__unpack_rect(&out, &pk, (sc_rect){80, 0, 11, 5}), SC_EINVAL);
  assert_null(out);
  sc_image_free(img);
  sc__packed_free(&pk);
}

/* Shapes with vertical edges and diagonal hatches (JOSM hatches what is
 * outside the downloaded area) are mostly "as above" or "as above, one to
 * the side": they pack small, and every rect unpacks exactly, rows that
 * refer to rows above the rect included. */
static void hatches_and_edges_pack_small(void **st) {
  (void)st;
  int w = 300, h = 120;
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, w, h), 0);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      int v = x < 100 ? ((x + y) % 7 == 0) * 200         /* hatch going left */
              : x < 200 ? ((x - y + 700) % 9 == 0) * 150 /* hatch going right */
              : (x % 20 < 2 || (y > 30 && y < 60 && x > 230 && x < 280)) * 90; /* edges */
      p[0] = (uint8_t)v, p[1] = (uint8_t)(v / 2), p[2] = 30, p[3] = 255;
    }
  sc_rect rects[] = {{0, 0, 300, 120}, {10, 50, 280, 40}, {150, 119, 20, 1}, {0, 60, 300, 60}};
  assert_true(packs_back(img, rects, 4) < (size_t)w * h * 4 / 50);
  sc_image_free(img);
}

static void damaged_data_is_refused(void **st) {
  (void)st;
  sc_image *img = make(50, 40, 1), *back = NULL;
  sc__packed pk = {0};
  assert_int_equal(sc__pack(&pk, img), 0);
  size_t len = pk.len;
  pk.len = len / 2; /* truncated */
  assert_int_equal(sc__unpack(&back, &pk), SC_EFORMAT);
  assert_null(back);
  pk.len = len;
  pk.height = 39; /* more pixels than the header says */
  assert_int_equal(sc__unpack(&back, &pk), SC_EFORMAT);
  pk.height = 40;
  pk.data[0] = 0xff; /* a run longer than the row */
  assert_int_equal(sc__unpack(&back, &pk), SC_EFORMAT);
  pk.data[0] = 0x7f; /* 128 literals: more than the row's 50 */
  assert_int_equal(sc__unpack(&back, &pk), SC_EFORMAT);
  pk.data[0] = 0xc0; /* "as above" in the first row */
  assert_int_equal(sc__unpack(&back, &pk), SC_EFORMAT);
  sc_image_free(img);
  sc__packed_free(&pk);
}

static sc_image *g_img;
static int pack_unpack(void *ud) {
  (void)ud;
  sc__packed pk = {0};
  sc_image *back = NULL;
  int rc = sc__pack(&pk, g_img);
  if (rc == 0) rc = sc__unpack(&back, &pk);
  sc_image_free(back);
  sc__packed_free(&pk);
  return rc;
}

static void allocation_failures_leave_nothing(void **st) {
  (void)st;
  g_img = make(120, 80, 0);
  sc_test_oom_sweep(pack_unpack, NULL, 64);
  sc_set_allocator(NULL, NULL, NULL);
  sc_image_free(g_img);
}

/* The capture hash: equal bytes hash equal, any change of a byte, of the
 * length, or of the bytes' order hashes differently; never 0. */
static void capture_hash_tells_bytes_apart(void **st) {
  (void)st;
  char a[1000];
  for (size_t i = 0; i < sizeof a; i++) a[i] = (char)(i * 7);
  uint64_t h = sc__hash64(a, sizeof a);
  assert_true(h == sc__hash64(a, sizeof a));
  assert_true(h != 0 && sc__hash64("", 0) != 0);
  for (size_t i = 0; i < sizeof a; i += 37) {
    a[i] ^= 1;
    assert_true(sc__hash64(a, sizeof a) != h);
    a[i] ^= 1;
  }
  assert_true(sc__hash64(a, sizeof a - 1) != h);
  char b[16] = "AAAAAAAABBBBBBBB", c[16] = "BBBBBBBBAAAAAAAA";
  assert_true(sc__hash64(b, 16) != sc__hash64(c, 16));
  char z1[3] = {0, 0, 0};
  assert_true(sc__hash64(z1, 2) != sc__hash64(z1, 3));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(round_trip_is_exact),
      cmocka_unit_test(strided_rows_pack_their_pixels_only),
      cmocka_unit_test(runs_of_every_length_round_trip),
      cmocka_unit_test(a_flat_screen_packs_small),
      cmocka_unit_test(packing_allocates_no_worst_case_block),
      cmocka_unit_test(repeated_rows_are_stored_once),
      cmocka_unit_test(hatches_and_edges_pack_small),
      cmocka_unit_test(damaged_data_is_refused),
      cmocka_unit_test(allocation_failures_leave_nothing),
      cmocka_unit_test(capture_hash_tells_bytes_apart),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
