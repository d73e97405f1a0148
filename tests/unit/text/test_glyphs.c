/* Glyph sets: file format, builtin == data file, learning, text reads. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stepcheck.h"

static sc_image *load(const char *file) {
  char rel[200];
  snprintf(rel, sizeof rel, "text/josm/%s", file);
  sc_image *img = NULL;
  if (sc_image_load_png(&img, sc_test_fixture(rel), NULL)) fail_msg("%s: %s", rel, sc_errmsg());
  return img;
}

/* The label line of a JOSM crop: below the bar, right of the "0". */
static sc_rect label_line(const sc_image *img) {
  sc_scale_reading r;
  sc_rect all = {0, 0, img->width, img->height};
  if (sc_scalebar_read(&r, img, all, "josm", NULL)) fail_msg("%s", sc_errmsg());
  return (sc_rect){r.bar.x + 3, r.bar.y + 11, img->width - r.bar.x - 3, 14};
}

static char *path_in(const char *dir, const char *name) {
  static char buf[2][512];
  static int k;
  k ^= 1;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

static void builtin_equals_data_file(void **st) {
  (void)st;
  sc_glyphset *a, *b;
  assert_int_equal(sc_glyphset_load(&a, "josm"), 0);
  char file[512];
  snprintf(file, sizeof file, "%s/data/glyphs/josm-scalebar.glyphs", getenv("SC_SOURCE_DIR"));
  assert_int_equal(sc_glyphset_load(&b, file), 0);
  assert_int_equal(sc_glyphset_count(a), 20);
  char *dir = sc_test_mkdtemp();
  assert_int_equal(sc_glyphset_save(a, path_in(dir, "a.glyphs")), 0);
  assert_int_equal(sc_glyphset_save(b, path_in(dir, "b.glyphs")), 0);
  size_t la, lb;
  char *ta = sc_test_slurp(path_in(dir, "a.glyphs"), &la);
  char *tb = sc_test_slurp(path_in(dir, "b.glyphs"), &lb);
  assert_non_null(ta);
  assert_non_null(tb);
  assert_int_equal(la, lb);
  assert_memory_equal(ta, tb, la);
  /* Saving what was loaded gives the data file minus its comments. */
  assert_non_null(strstr(ta, "glyph ft 8 10 10\n"));
  free(ta);
  free(tb);
  sc_test_rmtree(dir);
  free(dir);
  sc_glyphset_free(a);
  sc_glyphset_free(b);
  assert_int_equal(sc_glyphset_load(&a, "nosuch"), SC_ENOTFOUND);
  assert_int_equal(sc_glyphset_load(&a, "/nonexistent/x.glyphs"), SC_EIO);
}

static void learn_save_load_read_back(void **st) {
  (void)st;
  struct {
    const char *file, *text, *reads;
  } s[] = {{"m-hatch-100m.png", "100.0 m", "100.0 m"},
           {"i-hatch-31.1mi.png", "31.1 mi", "31.1 mi"},
           {"n-hatch-54.0NM.png", "54.0 NM", "54.0 NM"},
           {"i-hatch-98.4ft.png", "98.4 [ft]", "98.4ft"},
           {"n-black-lt0.01kbl-a.png", "< 0.01 kbl", "< 0.01 kbl"}};
  sc_glyphset *gs;
  assert_int_equal(sc_glyphset_new(&gs, 0xFFFFFF, 40), 0);
  for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
    sc_image *img = load(s[i].file);
    if (sc_glyphset_learn(gs, img, label_line(img), s[i].text))
      fail_msg("%s: %s", s[i].file, sc_errmsg());
    sc_image_free(img);
  }
  char *dir = sc_test_mkdtemp();
  assert_int_equal(sc_glyphset_save(gs, path_in(dir, "t.glyphs")), 0);
  sc_glyphset_free(gs);
  assert_int_equal(sc_glyphset_load(&gs, path_in(dir, "t.glyphs")), 0);
  for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
    sc_image *img = load(s[i].file);
    sc_text_result r;
    sc_rect line = label_line(img);
    if (sc_text_read(&r, img, line, gs, NULL)) fail_msg("%s: %s", s[i].file, sc_errmsg());
    /* "4 ft" has a 3 px gap, "1." a 4 px one: no single gap width splits
     * this font's words, so the learned set keeps "98.4ft" together. */
    assert_string_equal(r.text, s[i].reads);
    assert_true(r.confidence == 1.0);
    assert_int_equal(r.stray_px, 0);
    assert_true(r.box.x >= line.x && r.box.x + r.box.w <= line.x + line.w);
    sc_image_free(img);
  }
  sc_glyphset_free(gs);
  sc_test_rmtree(dir);
  free(dir);
}

static void learn_refuses_with_reasons(void **st) {
  (void)st;
  sc_glyphset *gs;
  assert_int_equal(sc_glyphset_new(&gs, 0xFFFFFF, 40), 0);
  sc_image *img = load("m-hatch-100m.png");
  sc_rect line = label_line(img);
  assert_int_equal(sc_glyphset_learn(gs, img, line, "100.0"), SC_EDATA);
  assert_non_null(strstr(sc_errmsg(), "6 ink segments but \"100.0\" has 5 glyphs"));
  sc_image_free(img);
  img = load("i-hatch-98.4ft.png");
  line = label_line(img);
  assert_int_equal(sc_glyphset_learn(gs, img, line, "98.4 ft"), SC_EDATA);
  assert_non_null(strstr(sc_errmsg(), "[ft]"));
  assert_int_equal(sc_glyphset_learn(gs, img, line, "98.4 [ft"), SC_EINVAL);
  /* A sample that contradicts what was learned: "8" learned as the 9. */
  assert_int_equal(sc_glyphset_learn(gs, img, line, "98.4 [ft]"), 0);
  assert_int_equal(sc_glyphset_learn(gs, img, line, "89.4 [ft]"), SC_EDATA);
  assert_non_null(strstr(sc_errmsg(), "differs"));
  sc_image_free(img);
  sc_image *black;
  assert_int_equal(sc_image_new(&black, 50, 20), 0);
  assert_int_equal(sc_glyphset_learn(gs, black, (sc_rect){0, 0, 50, 20}, "1"), SC_ENOTEXT);
  sc_image_free(black);
  sc_glyphset_free(gs);
  assert_int_equal(sc_glyphset_new(&gs, 0xFFFFFF, 300), SC_EINVAL);
}

static void text_read_judges(void **st) {
  (void)st;
  sc_glyphset *gs;
  assert_int_equal(sc_glyphset_load(&gs, "josm"), 0);
  sc_image *img = load("m-hatch-100m.png");
  sc_rect line = label_line(img);
  sc_text_result r;
  assert_int_equal(sc_text_read(&r, img, line, gs, NULL), 0);
  assert_string_equal(r.text, "100.0 m");
  assert_int_equal(r.nglyphs, 6);
  assert_string_equal(r.glyphs[5].name, "m");
  /* No ink at all: ENOTEXT, not unreadable. */
  assert_int_equal(sc_text_read(&r, img, (sc_rect){line.x, 0, 5, 5}, gs, NULL), SC_ENOTEXT);
  /* Two extra ink pixels in the first "0": still read by default, but not
   * when the caller asks for perfect glyphs. */
  assert_int_equal(sc_text_read(&r, img, line, gs, NULL), 0);
  sc_text_glyph z = r.glyphs[1];
  uint8_t *p = img->px + (size_t)(z.box.y + 4) * img->stride + (size_t)(z.box.x + 2) * 4;
  p[0] = p[1] = p[2] = 255;
  p += img->stride;
  p[0] = p[1] = p[2] = 255;
  sc_text_options strict = SC_TEXT_OPTIONS_INIT;
  strict.min_confidence = 0.99;
  assert_int_equal(sc_text_read(&r, img, line, gs, &strict), SC_EUNREADABLE);
  assert_non_null(strstr(sc_errmsg(), "confidence"));
  int rc = sc_text_read(&r, img, line, gs, NULL);
  assert_true(rc == SC_EUNREADABLE || (rc == 0 && strcmp(r.text, "100.0 m") == 0));
  /* Five more pixels turn the 0 into something no glyph explains. */
  for (int k = 0; k < 3; k++) {
    p = img->px + (size_t)(z.box.y + 1 + k) * img->stride + (size_t)(z.box.x + 2) * 4;
    p[0] = p[1] = p[2] = 255;
  }
  rc = sc_text_read(&r, img, line, gs, NULL);
  if (rc != SC_EUNREADABLE) fail_msg("read \"%s\" conf %.2f", r.text, r.confidence);
  sc_image_free(img);
  /* Dirt between words: stray ink beyond max_stray_px is unreadable. */
  img = load("m-hatch-100m.png");
  assert_int_equal(sc_text_read(&r, img, line, gs, NULL), 0);
  sc_rect b = r.glyphs[5].box; /* the m */
  for (int k = 0; k < 4; k++) {
    p = img->px + (size_t)(b.y + 2 * k) * img->stride + (size_t)(b.x - 3) * 4;
    p[0] = p[1] = p[2] = 255;
  }
  assert_int_equal(sc_text_read(&r, img, line, gs, NULL), SC_EUNREADABLE);
  assert_non_null(strstr(sc_errmsg(), "match no glyph"));
  /* A grey street line (193) is not ink. */
  sc_image_free(img);
  img = load("m-hatch-100m.png");
  for (int y = line.y; y < line.y + line.h; y++) {
    p = img->px + (size_t)y * img->stride + (size_t)(r.glyphs[3].box.x + 1) * 4;
    if (p[0] != 255) p[0] = p[1] = p[2] = 193;
  }
  assert_int_equal(sc_text_read(&r, img, line, gs, NULL), 0);
  assert_string_equal(r.text, "100.0 m");
  sc_image_free(img);
  sc_glyphset_free(gs);
}

static void file_format_errors(void **st) {
  (void)st;
  sc_glyphset *gs;
  const char *bad[] = {
      "",
      "stepcheck-glyphs 2\n",
      "stepcheck-glyphs 1\nink zz\n",
      "stepcheck-glyphs 1\ntolerance 400\n",
      "stepcheck-glyphs 1\nglyph a 2 2 2\n##\n",
      "stepcheck-glyphs 1\nglyph a 2 2 2\n##\n#x\n",
      "stepcheck-glyphs 1\nglyph a 2 2 2\n#.\n#.\n",
      "stepcheck-glyphs 1\nglyph a 1 1 1\n#\nglyph a 1 1 1\n#\n",
      "stepcheck-glyphs 1\nglyph [ 1 1 1\n#\n",
      "stepcheck-glyphs 1\nbogus\n",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (sc_glyphset_parse(&gs, bad[i], strlen(bad[i])) != SC_EFORMAT)
      fail_msg("case %zu parsed", i);
    assert_non_null(strstr(sc_errmsg(), "line "));
    assert_null(gs);
  }
  const char *good = "# comment\r\nstepcheck-glyphs 1\r\nink 00ff00\r\ntolerance 10\r\n"
                     "space 3\r\n\r\nglyph ab 2 3 2\r\n#.\r\n.#\r\n##\r\n";
  assert_int_equal(sc_glyphset_parse(&gs, good, strlen(good)), 0);
  assert_int_equal(sc_glyphset_count(gs), 1);
  sc_glyphset_free(gs);
}

static void allocation_failures(void **st) {
  (void)st;
  sc_test_alloc_install();
  long base = sc_test_alloc_live();
  for (long n = 0;; n++) {
    sc_glyphset *gs = NULL;
    sc_test_alloc_fail_after(n);
    int rc = sc_glyphset_load(&gs, "josm");
    sc_test_alloc_fail_after(-1);
    if (rc == 0) {
      sc_glyphset_free(gs);
      break;
    }
    assert_int_equal(rc, SC_ENOMEM);
    if (sc_test_alloc_live() != base) fail_msg("leak after failing allocation %ld", n);
  }
  assert_int_equal(sc_test_alloc_live(), base);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(builtin_equals_data_file),
      cmocka_unit_test(learn_save_load_read_back),
      cmocka_unit_test(learn_refuses_with_reasons),
      cmocka_unit_test(text_read_judges),
      cmocka_unit_test(file_format_errors),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
