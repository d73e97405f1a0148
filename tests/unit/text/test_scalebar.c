/* JOSM scale bar: every real crop in fixtures/text/josm/labels.tsv reads
 * exactly; cut, covered, empty and foreign images never give a value. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stepcheck.h"

typedef struct fixture {
  char file[128];
  char text[32];
  int bar_px;
} fixture;

static fixture fx[256];
static size_t nfx;

static void load_labels(void) {
  if (nfx) return;
  size_t len;
  char *tsv = sc_test_slurp(sc_test_fixture("text/josm/labels.tsv"), &len);
  assert_non_null(tsv);
  for (char *line = strtok(tsv, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == '#') continue;
    fixture *f = &fx[nfx];
    char *a = strchr(line, '\t');
    assert_non_null(a);
    char *b = strchr(a + 1, '\t');
    assert_non_null(b);
    snprintf(f->file, sizeof f->file, "%.*s", (int)(a - line), line);
    snprintf(f->text, sizeof f->text, "%.*s", (int)(b - a - 1), a + 1);
    f->bar_px = atoi(b + 1);
    nfx++;
    assert_true(nfx < sizeof fx / sizeof fx[0]);
  }
  free(tsv);
  assert_true(nfx >= 40);
}

static sc_image *load(const char *file) {
  char rel[200];
  snprintf(rel, sizeof rel, "text/josm/%s", file);
  sc_image *img = NULL;
  if (sc_image_load_png(&img, sc_test_fixture(rel), NULL)) fail_msg("%s: %s", rel, sc_errmsg());
  return img;
}

static sc_rect whole(const sc_image *img) { return (sc_rect){0, 0, img->width, img->height}; }

/* Metres of a label, computed here independently of the library. */
static double label_metres(const char *text, int *lt) {
  *lt = strncmp(text, "< ", 2) == 0;
  const char *p = *lt ? text + 2 : text;
  char unit[8];
  double v;
  if (sscanf(p, "%lf %7s", &v, unit) != 2) fail_msg("bad label %s", text);
  const char *u[] = {"m", "km", "ft", "mi", "kbl", "NM"};
  const double f[] = {1, 1000, 0.3048, 1609.344, 185.2, 1852};
  for (int i = 0; i < 6; i++)
    if (strcmp(unit, u[i]) == 0) return v * f[i];
  fail_msg("unknown unit in %s", text);
  return 0;
}

static void every_fixture_reads_exactly(void **st) {
  (void)st;
  load_labels();
  for (size_t i = 0; i < nfx; i++) {
    sc_image *img = load(fx[i].file);
    sc_scale_reading r;
    int rc = sc_scalebar_read(&r, img, whole(img), "josm", NULL);
    if (rc) fail_msg("%s: %s", fx[i].file, sc_errmsg());
    if (strcmp(r.text, fx[i].text) != 0)
      fail_msg("%s: read \"%s\", want \"%s\"", fx[i].file, r.text, fx[i].text);
    if (r.bar_px != fx[i].bar_px)
      fail_msg("%s: bar %d px, want %d", fx[i].file, r.bar_px, fx[i].bar_px);
    int lt;
    double m = label_metres(fx[i].text, &lt);
    assert_int_equal(r.less_than, lt);
    assert_true(fabs(r.metres - m) <= 1e-9 * m);
    assert_true(fabs(r.metres_per_px - m / (fx[i].bar_px + 0.5)) <= 1e-12 * m);
    assert_true(fabs(r.rel_err - 0.5 / fx[i].bar_px) < 1e-15);
    assert_true(r.confidence >= 0.6);
    assert_int_equal(r.bar.w, fx[i].bar_px + 1);
    sc_image_free(img);
  }
}

static int fill(sc_image *img, sc_rect r, uint8_t v) {
  for (int y = r.y; y < r.y + r.h; y++)
    for (int x = r.x; x < r.x + r.w; x++) {
      if (x < 0 || y < 0 || x >= img->width || y >= img->height) continue;
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      p[0] = p[1] = p[2] = v;
    }
  return 0;
}

/* A result is acceptable when it is an error or the whole truth. */
static void never_wrong(int rc, const sc_scale_reading *r, const fixture *f, const char *what,
                        int a) {
  if (rc == 0 && (strcmp(r->text, f->text) != 0 || r->bar_px != f->bar_px))
    fail_msg("%s (%s %d): read \"%s\" over %d px, truth \"%s\" over %d px", f->file, what, a,
             r->text, r->bar_px, f->text, f->bar_px);
  if (rc != 0) assert_true(rc == SC_EUNREADABLE || rc == SC_ENOTEXT);
}

static void cut_regions_never_read_wrong(void **st) {
  (void)st;
  load_labels();
  long refused = 0;
  for (size_t i = 0; i < nfx; i++) {
    sc_image *img = load(fx[i].file);
    sc_scale_reading truth, r;
    assert_int_equal(sc_scalebar_read(&truth, img, whole(img), "josm", NULL), 0);
    /* Right edge through the label (and a little past it). */
    for (int x1 = truth.text_box.x - 2; x1 <= truth.text_box.x + truth.text_box.w + 3; x1++) {
      int rc = sc_scalebar_read(&r, img, (sc_rect){0, 0, x1, img->height}, "josm", NULL);
      never_wrong(rc, &r, &fx[i], "right edge at", x1);
      refused += rc != 0;
      if (x1 < truth.text_box.x + truth.text_box.w) assert_int_not_equal(rc, 0);
    }
    /* Left edge through the bar's start and the "0". */
    for (int x0 = truth.bar.x - 4; x0 <= truth.bar.x + 4; x0++) {
      int rc = sc_scalebar_read(&r, img, (sc_rect){x0, 0, img->width - x0, img->height}, "josm",
                                NULL);
      never_wrong(rc, &r, &fx[i], "left edge at", x0);
    }
    /* Bottom edge through the text (text cut in half horizontally). */
    for (int y1 = truth.text_box.y; y1 < truth.text_box.y + truth.text_box.h; y1++) {
      int rc = sc_scalebar_read(&r, img, (sc_rect){0, 0, img->width, y1}, "josm", NULL);
      assert_int_equal(rc, SC_EUNREADABLE);
    }
    sc_image_free(img);
  }
  assert_true(refused > 0);
}

static void covered_label_never_reads_wrong(void **st) {
  (void)st;
  load_labels();
  for (size_t i = 0; i < nfx; i++) {
    sc_image *img = load(fx[i].file);
    sc_scale_reading truth, r;
    assert_int_equal(sc_scalebar_read(&truth, img, whole(img), "josm", NULL), 0);
    sc_rect tb = truth.text_box;
    sc_image *c;
    assert_int_equal(sc_image_crop(&c, img, whole(img)), 0);
    /* Black, grey-UI and white bands of 1..4 columns over every column. */
    const uint8_t shade[] = {0, 238, 255};
    for (int s = 0; s < 3; s++)
      for (int w = 1; w <= 4; w++)
        for (int x = tb.x - 1; x < tb.x + tb.w; x++) {
          memcpy(c->px, img->px, img->stride * (size_t)img->height);
          fill(c, (sc_rect){x, tb.y - 1, w, tb.h + 2}, shade[s]);
          int rc = sc_scalebar_read(&r, c, whole(c), "josm", NULL);
          never_wrong(rc, &r, &fx[i], "covered at", x);
        }
    /* Covering the top or bottom half of the glyphs. */
    for (int half = 0; half < 2; half++) {
      memcpy(c->px, img->px, img->stride * (size_t)img->height);
      fill(c, (sc_rect){tb.x, tb.y + (half ? tb.h / 2 : 0), tb.w, tb.h - tb.h / 2}, 0);
      assert_int_equal(sc_scalebar_read(&r, c, whole(c), "josm", NULL), SC_EUNREADABLE);
    }
    sc_image_free(c);
    sc_image_free(img);
  }
}

static void empty_and_foreign_images(void **st) {
  (void)st;
  sc_image *img;
  sc_scale_reading r;
  assert_int_equal(sc_image_new(&img, 200, 34), 0);
  assert_int_equal(sc_scalebar_read(&r, img, whole(img), "josm", NULL), SC_ENOTEXT);
  /* Seeded random noise, at several densities of white. */
  unsigned seed = 12345;
  for (int density = 1; density <= 9; density += 2)
    for (int k = 0; k < 20; k++) {
      for (int y = 0; y < img->height; y++)
        for (int x = 0; x < img->width; x++) {
          uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
          seed = seed * 1103515245u + 12345u;
          int white = (int)((seed >> 16) % 10) < density;
          for (int ch = 0; ch < 3; ch++) {
            seed = seed * 1103515245u + 12345u;
            p[ch] = white ? 255 : (uint8_t)(seed >> 24);
          }
        }
      int rc = sc_scalebar_read(&r, img, whole(img), "josm", NULL);
      assert_true(rc == SC_EUNREADABLE || rc == SC_ENOTEXT);
    }
  /* A photo-like gradient. */
  for (int y = 0; y < img->height; y++)
    for (int x = 0; x < img->width; x++) {
      uint8_t *p = img->px + (size_t)y * img->stride + (size_t)x * 4;
      p[0] = p[1] = p[2] = (uint8_t)(x * 255 / 199);
    }
  assert_int_equal(sc_scalebar_read(&r, img, whole(img), "josm", NULL), SC_EUNREADABLE);
  sc_image_free(img);
  /* A real screenshot of JOSM before its map was drawn (grey UI). */
  assert_int_equal(sc_image_load_png(&img, sc_test_fixture("text/negative/josm-not-loaded.png"),
                                     NULL), 0);
  assert_int_equal(sc_scalebar_read(&r, img, whole(img), "josm", NULL), SC_EUNREADABLE);
  assert_int_equal(sc_scalebar_read(&r, img, whole(img), "nope", NULL), SC_ENOTFOUND);
  assert_int_equal(sc_scalebar_read(&r, img, (sc_rect){500, 500, 10, 10}, "josm", NULL),
                   SC_EINVAL);
  sc_image_free(img);
}

static sc_scale_reading reading(const char *file) {
  sc_image *img = load(file);
  sc_scale_reading r;
  if (sc_scalebar_read(&r, img, whole(img), "josm", NULL)) fail_msg("%s: %s", file, sc_errmsg());
  sc_image_free(img);
  return r;
}

static void ratio_arithmetic(void **st) {
  (void)st;
  /* The numbers of JOSM-NOTES: 100.0 m over 78 px, then 20.0 m over 125 px. */
  sc_scale_reading a = {.metres = 100, .bar_px = 78}, b = {.metres = 20, .bar_px = 125};
  a.length_px = 78.5;
  a.metres_per_px = 100 / 78.5;
  a.rel_err = 0.5 / 78;
  b.length_px = 125.5;
  b.metres_per_px = 20 / 125.5;
  b.rel_err = 0.5 / 125;
  double f, e;
  assert_int_equal(sc_scale_ratio(&f, &e, &a, &b), 0);
  assert_true(fabs(f - (20 / 125.5) / (100 / 78.5)) < 1e-12);
  assert_true(fabs(f - 0.12510) < 5e-5);
  assert_true(fabs(e - (0.5 / 78 + 0.5 / 125) / (1 - 0.5 / 78)) < 1e-12);
  assert_true(fabs(0.125 / f - 1) <= e);
  /* The raw tick-to-tick ratio (x0.1248) lies inside the bound too. */
  assert_true(fabs((20.0 / 125) / (100.0 / 78) / f - 1) <= e);
  /* The other way round: x8. */
  assert_int_equal(sc_scale_ratio(&f, &e, &b, &a), 0);
  assert_true(fabs(8.0 / f - 1) <= e);
  /* Real zoom-in chains, one wheel step (x0.5) per crop. */
  const char *chain[][12] = {
      {"m-streets-500m.png", "m-streets-200m.png", "m-labels-100m.png", "m-streets-50m.png",
       "m-node-30m.png", "m-node-10m.png", "m-building-5m.png", "m-building-4m.png",
       "m-building-2m.png", "m-black-1m.png", "m-black-0.5m.png", NULL},
      {"i-hatch-1640.4ft.png", "i-hatch-656.2ft.png", "i-hatch-328.1ft.png",
       "i-hatch-164.0ft.png", "i-hatch-98.4ft.png", "i-hatch-32.8ft.png", "i-hatch-16.4ft.png",
       "i-hatch-13.1ft.png", "i-hatch-6.56ft.png", "i-hatch-3.28ft.png", "i-hatch-1.64ft.png",
       "i-hatch-0.66ft.png"}};
  for (size_t c = 0; c < 2; c++) {
    sc_scale_reading prev = reading(chain[c][0]), first = prev;
    size_t n = 1;
    for (size_t k = 1; k < 12 && chain[c][k]; k++, n++) {
      sc_scale_reading cur = reading(chain[c][k]);
      assert_int_equal(sc_scale_ratio(&f, &e, &prev, &cur), 0);
      if (fabs(0.5 / f - 1) > e)
        fail_msg("%s -> %s: x%.4f, bound %.4f", chain[c][k - 1], chain[c][k], f, e);
      prev = cur;
    }
    /* Across the whole chain the bound still holds (only the end bars count). */
    assert_int_equal(sc_scale_ratio(&f, &e, &first, &prev), 0);
    assert_true(fabs(pow(0.5, (double)(n - 1)) / f - 1) <= e);
  }
  /* A "< 0.01 kbl" bound gives no ratio. */
  sc_scale_reading lt = reading("n-black-lt0.01kbl-a.png");
  assert_int_equal(lt.less_than, 1);
  assert_int_equal(sc_scale_ratio(&f, &e, &a, &lt), SC_EDATA);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_fixture_reads_exactly),
      cmocka_unit_test(cut_regions_never_read_wrong),
      cmocka_unit_test(covered_label_never_reads_wrong),
      cmocka_unit_test(empty_and_foreign_images),
      cmocka_unit_test(ratio_arithmetic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
