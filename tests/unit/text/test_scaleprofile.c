/* Scale-bar profiles: the file format's checks (line:column messages), the
 * builtins equal their files in data/scalebars/, GpsPrune's real crops read
 * exactly (label, bar and metres per pixel within the bound, against
 * GpsPrune's own maths in fixtures/text/gpsprune/labels.tsv), and each
 * sabotage is unreadable with a message naming the rule that did not hold. */
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stepcheck.h"

static sc_image *load(const char *rel) {
  sc_image *img = NULL;
  if (sc_image_load_png(&img, sc_test_fixture(rel), NULL)) fail_msg("%s: %s", rel, sc_errmsg());
  return img;
}

static sc_rect whole(const sc_image *img) { return (sc_rect){0, 0, img->width, img->height}; }

static void expect_msg(int rc, int want, const char *part) {
  if (rc != want) fail_msg("rc %d, want %d (%s)", rc, want, sc_errmsg());
  if (!strstr(sc_errmsg(), part)) fail_msg("message \"%s\" lacks \"%s\"", sc_errmsg(), part);
}

static void gpsprune_crops_read_exactly(void **st) {
  (void)st;
  size_t len;
  char *tsv = sc_test_slurp(sc_test_fixture("text/gpsprune/labels.tsv"), &len);
  assert_non_null(tsv);
  sc_scale_profile *p = NULL;
  assert_int_equal(sc_scale_profile_load(&p, "gpsprune"), 0);
  int n = 0, units[2] = {0, 0};
  for (char *line = strtok(tsv, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == '#') continue;
    char file[64], num[16], unit[8];
    int bar, zoom;
    double mpp;
    if (sscanf(line, "%63s %15s %7s %d %lf %d", file, num, unit, &bar, &mpp, &zoom) != 6)
      fail_msg("bad line %s", line);
    char rel[128], text[32];
    snprintf(rel, sizeof rel, "text/gpsprune/%s", file);
    snprintf(text, sizeof text, "%s %s", num, unit);
    sc_image *img = load(rel);
    sc_scale_reading r;
    if (sc_scalebar_read_with(&r, img, whole(img), p, NULL)) fail_msg("%s: %s", file, sc_errmsg());
    if (strcmp(r.text, text)) fail_msg("%s: read \"%s\", want \"%s\"", file, r.text, text);
    if (r.bar_px != bar) fail_msg("%s: bar %d px, want %d", file, r.bar_px, bar);
    if (!(fabs(r.metres_per_px / mpp - 1) <= r.rel_err))
      fail_msg("%s: %.6g m/px, GpsPrune's %.6g, beyond the bound %.4f", file, r.metres_per_px, mpp,
               r.rel_err);
    assert_true(fabs(r.rel_err - 0.5 / bar) < 1e-12);
    units[strcmp(unit, "mi") == 0]++;
    /* The same crop through the name-keyed call gives the same reading. */
    sc_scale_reading q;
    assert_int_equal(sc_scalebar_read(&q, img, whole(img), "gpsprune", NULL), 0);
    assert_memory_equal(&q, &r, sizeof q);
    sc_image_free(img);
    n++;
  }
  free(tsv);
  assert_int_equal(n, 28);
  assert_int_equal(units[0], 14);
  assert_int_equal(units[1], 14);
  sc_scale_profile_free(p);
}

/* Leaflet's scale control in headless Chromium: the metric box (profile
 * leaflet) and the imperial box under it (leaflet-imperial) of every crop,
 * against Leaflet's own maths; lat60-* were not used to learn the glyphs.
 * One crop is refused, never misread: at lat 60, zoom 2 "1000 km" is wider
 * than its 52 px box and Leaflet draws the "m" across the right border. */
static void leaflet_crops_read_exactly(void **st) {
  (void)st;
  size_t len;
  char *tsv = sc_test_slurp(sc_test_fixture("text/leaflet/labels.tsv"), &len);
  assert_non_null(tsv);
  int n = 0, held_out = 0, refused = 0;
  for (char *line = strtok(tsv, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == '#') continue;
    char file[64], m[2][16], mu[2][8], learned[8];
    int bar[2];
    double mpp;
    if (sscanf(line, "%63s %15s %7s %d %lf %15s %7s %d %7s", file, m[0], mu[0], &bar[0], &mpp, m[1],
               mu[1], &bar[1], learned) != 9)
      fail_msg("bad line %s", line);
    char rel[128];
    snprintf(rel, sizeof rel, "text/leaflet/%s", file);
    sc_image *img = load(rel);
    for (int k = 0; k < 2; k++) {
      sc_scale_reading r;
      char text[32];
      snprintf(text, sizeof text, "%s %s", m[k], mu[k]);
      int rc = sc_scalebar_read(&r, img, whole(img), k ? "leaflet-imperial" : "leaflet", NULL);
      if (k == 0 && !strcmp(file, "lat60-z2.png")) {
        expect_msg(rc, SC_EUNREADABLE, "has no right tick");
        refused++;
        continue;
      }
      if (rc) fail_msg("%s %d: %s", file, k, sc_errmsg());
      if (strcmp(r.text, text)) fail_msg("%s: read \"%s\", want \"%s\"", file, r.text, text);
      if (r.bar_px != bar[k]) fail_msg("%s: bar %d px, want %d", file, r.bar_px, bar[k]);
      if (!(fabs(r.metres_per_px / mpp - 1) <= r.rel_err))
        fail_msg("%s: %.6g m/px, Leaflet's %.6g, beyond the bound %.4f", file, r.metres_per_px,
                 mpp, r.rel_err);
      assert_true(fabs(r.rel_err - 0.5 / (bar[k] - 0.5)) < 1e-12);
      n++;
      held_out += strcmp(learned, "no") == 0;
    }
    sc_image_free(img);
  }
  free(tsv);
  assert_int_equal(n, 51);
  assert_int_equal(held_out, 17);
  assert_int_equal(refused, 1);
}

/* OpenLayers' ScaleLine (line mode) in headless Chromium, metric and
 * imperial, against ScaleLine's own point resolution; lat60-* held out. */
static void openlayers_crops_read_exactly(void **st) {
  (void)st;
  size_t len;
  char *tsv = sc_test_slurp(sc_test_fixture("text/openlayers/labels.tsv"), &len);
  assert_non_null(tsv);
  int n = 0, held_out = 0, imperial = 0;
  for (char *line = strtok(tsv, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == '#') continue;
    char file[64], num[16], unit[8], learned[8];
    int bar;
    double mpp;
    if (sscanf(line, "%63s %15s %7s %d %lf %7s", file, num, unit, &bar, &mpp, learned) != 6)
      fail_msg("bad line %s", line);
    char rel[128], text[32];
    snprintf(rel, sizeof rel, "text/openlayers/%s", file);
    snprintf(text, sizeof text, "%s %s", num, unit);
    sc_image *img = load(rel);
    sc_scale_reading r;
    if (sc_scalebar_read(&r, img, whole(img), "openlayers", NULL)) fail_msg("%s: %s", file, sc_errmsg());
    if (strcmp(r.text, text)) fail_msg("%s: read \"%s\", want \"%s\"", file, r.text, text);
    if (r.bar_px != bar) fail_msg("%s: bar %d px, want %d", file, r.bar_px, bar);
    if (!(fabs(r.metres_per_px / mpp - 1) <= r.rel_err))
      fail_msg("%s: %.6g m/px, ScaleLine's %.6g, beyond the bound %.4f", file, r.metres_per_px, mpp,
               r.rel_err);
    /* Neither Leaflet profile reads an OpenLayers bar (other ink, other ticks). */
    int rc = sc_scalebar_read(&r, img, whole(img), "leaflet", NULL);
    assert_true(rc == SC_EUNREADABLE || rc == SC_ENOTEXT);
    sc_image_free(img);
    n++;
    held_out += strcmp(learned, "no") == 0;
    imperial += file[0] == 'i';
  }
  free(tsv);
  assert_int_equal(n, 52);
  assert_int_equal(held_out, 18);
  assert_int_equal(imperial, 26);
}

/* OpenLayers' ScaleLine in bar mode, read with the line mode's glyph set
 * (no bar-mode crop was learned from). Three crops are refused, never
 * misread: at those widths OpenLayers wraps the last label ("2000" over
 * the bar, "km" below it). */
static void openlayers_bar_crops_read_exactly(void **st) {
  (void)st;
  size_t len;
  char *tsv = sc_test_slurp(sc_test_fixture("text/openlayers-bar/labels.tsv"), &len);
  assert_non_null(tsv);
  int n = 0, refused = 0;
  for (char *line = strtok(tsv, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == '#') continue;
    char file[64], num[16], unit[8], readable[8];
    int bar;
    double mpp;
    if (sscanf(line, "%63s %15s %7s %d %lf %7s", file, num, unit, &bar, &mpp, readable) != 6)
      fail_msg("bad line %s", line);
    char rel[128], text[32];
    snprintf(rel, sizeof rel, "text/openlayers-bar/%s", file);
    snprintf(text, sizeof text, "%s %s", num, unit);
    sc_image *img = load(rel);
    sc_scale_reading r;
    int rc = sc_scalebar_read(&r, img, whole(img), "openlayers-bar", NULL);
    if (!strcmp(readable, "no")) {
      expect_msg(rc, SC_EUNREADABLE, "centres it under the right tick");
      refused++;
    } else {
      if (rc) fail_msg("%s: %s", file, sc_errmsg());
      if (strcmp(r.text, text)) fail_msg("%s: read \"%s\", want \"%s\"", file, r.text, text);
      if (r.bar_px != bar) fail_msg("%s: bar %d px, want %d", file, r.bar_px, bar);
      if (!(fabs(r.metres_per_px / mpp - 1) <= r.rel_err))
        fail_msg("%s: %.6g m/px, ScaleLine's %.6g, beyond the bound %.4f", file, r.metres_per_px,
                 mpp, r.rel_err);
      n++;
    }
    /* The line-mode profile does not take the bar for a line (other ink, no 0 rule). */
    rc = sc_scalebar_read(&r, img, whole(img), "openlayers", NULL);
    assert_true(rc == SC_EUNREADABLE || rc == SC_ENOTEXT);
    sc_image_free(img);
  }
  free(tsv);
  assert_int_equal(n, 49);
  assert_int_equal(refused, 3);
  /* The "0" under the first marker painted over with the map's colour. */
  sc_image *img = load("text/openlayers-bar/bm-lat48-z10.png");
  for (int y = 34; y < 46; y++)
    for (int x = 3; x < 12; x++) {
      uint8_t *px = img->px + (size_t)y * img->stride + (size_t)x * 4;
      if (x != 8) px[0] = 0xdd, px[1] = 0xdd, px[2] = 0xee;
    }
  sc_scale_reading r;
  expect_msg(sc_scalebar_read(&r, img, whole(img), "openlayers-bar", NULL), SC_EUNREADABLE,
             "expects a \"0\" under the left tick");
  sc_image_free(img);
}

static void web_sabotages_name_the_rule(void **st) {
  (void)st;
  sc_scale_reading r;
  /* "500 km" over 155 px: a region 160 px wide cuts the line. */
  sc_image *img = load("text/openlayers/m-lat48-z5.png");
  assert_int_equal(sc_scalebar_read(&r, img, whole(img), "openlayers", NULL), 0);
  expect_msg(sc_scalebar_read(&r, img, (sc_rect){0, 0, 160, img->height}, "openlayers", NULL),
             SC_EUNREADABLE, "the region cuts the bar");
  sc_image_free(img);
  /* "10 km" over 99 px (ticks at x=11 and 111, rows 14..28): the right tick
   * painted over with the box's background. */
  img = load("text/openlayers/m-lat48-z10.png");
  for (int y = 14; y < 28; y++) {
    uint8_t *px = img->px + (size_t)y * img->stride + 111 * 4;
    memcpy(px, px - 4, 4);
  }
  expect_msg(sc_scalebar_read(&r, img, whole(img), "openlayers", NULL), SC_EUNREADABLE,
             "has no right tick");
  sc_image_free(img);
  /* A Leaflet crop under the OpenLayers profile, and "10 km" off a 1-5 series. */
  img = load("text/leaflet/lat48-z10.png");
  int rc = sc_scalebar_read(&r, img, whole(img), "openlayers", NULL);
  assert_true(rc == SC_EUNREADABLE || rc == SC_ENOTEXT);
  size_t len;
  char *json = sc_test_slurp(sc_test_fixture("../data/scalebars/leaflet.json"), &len);
  char *m = strstr(json, "[1, 2, 3, 5]");
  assert_non_null(m);
  memcpy(m, "[2, 3, 5   ]", 12);
  sc_scale_profile *p = NULL;
  assert_int_equal(sc_scale_profile_parse(&p, json, len, "sabotage.json"), 0);
  expect_msg(sc_scalebar_read_with(&r, img, whole(img), p, NULL), SC_EUNREADABLE,
             "10 is not in this profile's series (2-3-5 x 10^n)");
  sc_scale_profile_free(p);
  free(json);
  sc_image_free(img);
}

/* Zoom chains one GpsPrune zoom step apart (x2): each ratio holds 0.5 within its bound. */
static void gpsprune_zoom_steps_are_exact(void **st) {
  (void)st;
  const char *u[] = {"ki", "mi"};
  for (int k = 0; k < 2; k++)
    for (int z = -5; z < 8; z++) {
      char a[64], b[64];
      snprintf(a, sizeof a, "text/gpsprune/%s-z%d.png", u[k], z);
      snprintf(b, sizeof b, "text/gpsprune/%s-z%d.png", u[k], z + 1);
      sc_image *ia = load(a), *ib = load(b);
      sc_scale_reading ra, rb;
      assert_int_equal(sc_scalebar_read(&ra, ia, whole(ia), "gpsprune", NULL), 0);
      assert_int_equal(sc_scalebar_read(&rb, ib, whole(ib), "gpsprune", NULL), 0);
      double f, e;
      assert_int_equal(sc_scale_ratio(&f, &e, &ra, &rb), 0);
      if (!(fabs(0.5 / f - 1) <= e)) fail_msg("%s -> %s: x%.4f +-%.4f", a, b, f, e);
      sc_image_free(ia);
      sc_image_free(ib);
    }
}

/* Paint a rectangle of the crop white (GpsPrune's background). */
static void paint(sc_image *img, int x0, int y0, int w, int h) {
  for (int y = y0; y < y0 + h; y++)
    for (int x = x0; x < x0 + w; x++) memset(img->px + (size_t)y * img->stride + (size_t)x * 4, 255, 3);
}

static void sabotages_name_the_rule(void **st) {
  (void)st;
  sc_scale_reading r;
  /* "20 km" over 261 px: bar from x=19, right tick at 280..281, rows 13..18. */
  sc_image *img = load("text/gpsprune/ki-z0.png");
  sc_rect all = whole(img);
  assert_int_equal(sc_scalebar_read(&r, img, all, "gpsprune", NULL), 0);
  /* A bar cut by the region. */
  expect_msg(sc_scalebar_read(&r, img, (sc_rect){0, 0, 200, all.h}, "gpsprune", NULL),
             SC_EUNREADABLE, "the region cuts the bar");
  /* The label cut by the region. */
  expect_msg(sc_scalebar_read(&r, img, (sc_rect){0, 0, 300, all.h}, "gpsprune", NULL),
             SC_EUNREADABLE, "the region cuts it");
  /* The wrong profile: JOSM's white ink, ticks through, "0" under the left tick. */
  int rc = sc_scalebar_read(&r, img, all, "josm", NULL);
  assert_true(rc == SC_EUNREADABLE || rc == SC_ENOTEXT);
  /* A label off the series: the same pixels under a profile whose series is 1-5 x 10^n. */
  size_t len;
  char *json = sc_test_slurp(sc_test_fixture("../data/scalebars/gpsprune.json"), &len);
  assert_non_null(json);
  char *m = strstr(json, "[1, 2, 5]");
  assert_non_null(m);
  memcpy(m, "[1, 5   ]", 9);
  sc_scale_profile *p = NULL;
  assert_int_equal(sc_scale_profile_parse(&p, json, len, "sabotage.json"), 0);
  expect_msg(sc_scalebar_read_with(&r, img, all, p, NULL), SC_EUNREADABLE,
             "20 is not in this profile's series (1-5 x 10^n)");
  assert_string_equal(r.text, "20 km");
  assert_true(r.metres_per_px == 0);
  sc_scale_profile_free(p);
  free(json);
  /* The right tick missing (its 5 rows above the bar painted over). */
  sc_image_free(img);
  img = load("text/gpsprune/ki-z0.png");
  paint(img, 280, 12, 2, 6);
  expect_msg(sc_scalebar_read(&r, img, all, "gpsprune", NULL), SC_EUNREADABLE, "has no right tick");
  sc_image_free(img);
  /* The label moved 3 px right of where GpsPrune draws it. */
  img = load("text/gpsprune/ki-z0.png");
  for (int y = 0; y < img->height; y++) {
    uint8_t *row = img->px + (size_t)y * img->stride;
    memmove(row + 287 * 4, row + 284 * 4, (size_t)(img->width - 287) * 4);
    memset(row + 284 * 4, 255, 12);
  }
  expect_msg(sc_scalebar_read(&r, img, all, "gpsprune", NULL), SC_EUNREADABLE,
             "9 px from the right tick");
  sc_image_free(img);
  /* A unit outside its switching rule: "500 km" under a profile drawing km only up to 100. */
  img = load("text/gpsprune/ki-z-5.png");
  json = sc_test_slurp(sc_test_fixture("../data/scalebars/gpsprune.json"), &len);
  m = strstr(json, "\"max\": 10000");
  assert_non_null(m);
  memcpy(m, "\"max\":   100", 12);
  assert_int_equal(sc_scale_profile_parse(&p, json, len, "sabotage.json"), 0);
  expect_msg(sc_scalebar_read_with(&r, img, whole(img), p, NULL), SC_EUNREADABLE,
             "draws km only from 0.005 to 100");
  sc_scale_profile_free(p);
  free(json);
  sc_image_free(img);
  /* A JOSM crop under the GpsPrune profile: never a value. */
  img = load("text/josm/m-black-500m.png");
  rc = sc_scalebar_read(&r, img, whole(img), "gpsprune", NULL);
  assert_true(rc == SC_EUNREADABLE || rc == SC_ENOTEXT);
  sc_image_free(img);
}

/* The JOSM profile says "0" under the left tick: a region that starts after it. */
static void josm_zero_rule_is_named(void **st) {
  (void)st;
  sc_image *img = load("text/josm/m-black-500m.png");
  sc_scale_reading r;
  assert_int_equal(sc_scalebar_read(&r, img, whole(img), "josm", NULL), 0);
  int left = r.bar.x;
  sc_rect cut = {left - 2, 0, img->width - left + 2, img->height};
  expect_msg(sc_scalebar_read(&r, img, cut, "josm", NULL), SC_EUNREADABLE,
             "expects a \"0\" under the left tick");
  sc_image_free(img);
}

static void builtins_equal_their_files(void **st) {
  (void)st;
  const char *names[] = {"josm",    "gpsprune",   "leaflet", "leaflet-imperial",
                         "openlayers", "openlayers-bar"};
  const char *crops[] = {"text/josm/m-black-500m.png", "text/gpsprune/mi-z3.png",
                         "text/leaflet/lat48-z13.png", "text/leaflet/lat48-z13.png",
                         "text/openlayers/i-lat60-z12.png", "text/openlayers-bar/bm-lat60-z8.png"};
  for (int i = 0; i < 6; i++) {
    char rel[96];
    snprintf(rel, sizeof rel, "../data/scalebars/%s.json", names[i]);
    sc_scale_profile *a = NULL, *b = NULL;
    assert_int_equal(sc_scale_profile_load(&a, names[i]), 0);
    if (sc_scale_profile_load(&b, sc_test_fixture(rel))) fail_msg("%s: %s", rel, sc_errmsg());
    assert_string_equal(sc_scale_profile_name(a), names[i]);
    assert_string_equal(sc_scale_profile_name(b), names[i]);
    /* Same reading of a crop of each app through both. */
    sc_image *img = load(crops[i]);
    sc_scale_reading ra, rb;
    assert_int_equal(sc_scalebar_read_with(&ra, img, whole(img), a, NULL), 0);
    assert_int_equal(sc_scalebar_read_with(&rb, img, whole(img), b, NULL), 0);
    assert_memory_equal(&ra, &rb, sizeof ra);
    sc_image_free(img);
    sc_scale_profile_free(a);
    sc_scale_profile_free(b);
  }
  /* The library's builtin text is the file's (tools/gen-builtin-profiles.py). */
  size_t len;
  char *src = sc_test_slurp(sc_test_fixture("../lib/text/scaleprofile_builtin.c"), &len);
  assert_non_null(src);
  for (int i = 0; i < 6; i++) {
    char rel[96];
    snprintf(rel, sizeof rel, "../data/scalebars/%s.json", names[i]);
    size_t flen;
    char *f = sc_test_slurp(sc_test_fixture(rel), &flen);
    char *nl = strchr(f, '\n');
    *nl = '\0';
    assert_non_null(strstr(src, f)); /* first line at least; the golden rule is the generator */
    free(f);
  }
  free(src);
}

static void format_errors_have_positions(void **st) {
  (void)st;
  static const struct {
    const char *json, *want;
  } k[] = {
      {"{\"stepcheck-scalebar\": 1,\n \"nmae\": \"x\"}", "t.json:2:2: unknown key \"nmae\""},
      {"{\"stepcheck-scalebar\": 2}", "t.json:1:24: \"stepcheck-scalebar\" must be 1"},
      {"{\"stepcheck-scalebar\": 1, \"name\": \"x\", \"glyphs\": \"nope\"}",
       "t.json:1:50: glyph set \"nope\" cannot be loaded"},
      {"{\"stepcheck-scalebar\": 1, \"name\": \"x\", \"glyphs\": \"josm\",\n"
       " \"bar\": {\"ticks\": \"sideways\", \"tick_px\": 5}}",
       "t.json:2:19: \"ticks\" must be one of \"through\", \"up\", \"down\""},
      {"{\"stepcheck-scalebar\": 1, \"name\": \"x\", \"glyphs\": \"josm\",\n"
       " \"bar\": {\"ticks\": \"up\", \"tick_px\": 5},\n"
       " \"label\": {\"at\": \"right\", \"baseline\": 0}, \"number\": \"plain\",\n"
       " \"series\": {\"mantissas\": [1, 2, 50]}, \"units\": [{\"unit\": \"m\", \"metres\": 1}]}",
       "t.json:4:33: a mantissa must be a number from 1 to 9.99"},
      {"{\"stepcheck-scalebar\": 1, \"name\": \"x\", \"glyphs\": \"josm\",\n"
       " \"bar\": {\"ticks\": \"up\", \"tick_px\": 5},\n"
       " \"label\": {\"at\": \"right\", \"baseline\": 0}, \"number\": \"plain\",\n"
       " \"series\": {\"mantissas\": [1, 2, 5]}}",
       "t.json:1:1: the profile needs \"units\""},
      {"{\"stepcheck-scalebar\": 1, \"name\": \"x\", \"glyphs\": \"josm\", \"zero\": true,\n"
       " \"bar\": {\"ticks\": \"up\", \"tick_px\": 5},\n"
       " \"label\": {\"at\": \"right\", \"baseline\": 0}, \"number\": \"plain\",\n"
       " \"series\": {\"mantissas\": [1, 2, 5]}, \"units\": [{\"unit\": \"m\", \"metres\": 1, "
       "\"note\": \"a comment\"}]}",
       "t.json:1:58: a \"0\" under the left tick goes with a label \"at\": \"under-right-tick\""},
      {"{\"stepcheck-scalebar\": 1,", "t.json:1:"},
  };
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
    sc_scale_profile *p = (sc_scale_profile *)1;
    int rc = sc_scale_profile_parse(&p, k[i].json, strlen(k[i].json), "t.json");
    assert_null(p);
    expect_msg(rc, SC_EFORMAT, k[i].want);
  }
  sc_scale_profile *p = NULL;
  expect_msg(sc_scale_profile_load(&p, "leaflett"), SC_ENOTFOUND, "builtin: gpsprune, josm, leaflet, leaflet-imperial, openlayers, openlayers-bar");
  sc_scale_reading r;
  sc_image *img = load("text/gpsprune/ki-z0.png");
  expect_msg(sc_scalebar_read(&r, img, whole(img), "/nonexistent/p.json", NULL), SC_EIO,
             "/nonexistent/p.json");
  sc_image_free(img);
}

/* Saved profiles load back the same: every builtin saved with its builtin
 * glyph set reads a crop of its application exactly as the builtin does;
 * a profile learned from three GpsPrune captures (sc_scale_profile_learn)
 * and saved reads all 28 GpsPrune crops exactly as the builtin does. */
static void save_and_learn_round_trip(void **st) {
  (void)st;
  char *dir = sc_test_mkdtemp();
  char path[512], gpath[512];
  /* In the builtins' order (sorted by name). */
  const char *crops[] = {"text/gpsprune/mi-z3.png", "text/josm/m-black-500m.png",
                         "text/leaflet/lat48-z13.png", "text/leaflet/lat48-z13.png",
                         "text/openlayers/i-lat60-z12.png", "text/openlayers-bar/bm-lat60-z8.png"};
  const char *b;
  for (size_t i = 0; (b = sc_scale_profile_builtin(i)); i++) {
    assert_true(i < 6);
    sc_scale_profile *a = NULL, *c = NULL;
    assert_int_equal(sc_scale_profile_load(&a, b), 0);
    snprintf(path, sizeof path, "%s/%s.json", dir, b);
    const char *gs = !strncmp(b, "leaflet", 7) ? "leaflet" : !strncmp(b, "openlayers", 10) ? "openlayers" : b;
    assert_int_equal(sc_scale_profile_save(a, NULL, gs, path), 0);
    if (sc_scale_profile_load(&c, path)) fail_msg("%s: %s", path, sc_errmsg());
    assert_string_equal(sc_scale_profile_name(c), b);
    sc_image *img = load(crops[i]);
    sc_scale_reading ra, rc;
    assert_int_equal(sc_scalebar_read_with(&ra, img, whole(img), a, NULL), 0);
    if (sc_scalebar_read_with(&rc, img, whole(img), c, NULL)) fail_msg("%s saved: %s", b, sc_errmsg());
    assert_memory_equal(&ra, &rc, sizeof ra);
    sc_image_free(img);
    sc_scale_profile_free(a);
    sc_scale_profile_free(c);
  }
  /* Learned from three captures. */
  const char *files[] = {"text/gpsprune/ki-z0.png", "text/gpsprune/ki-z5.png", "text/gpsprune/mi-z3.png"};
  const char *labels[] = {"20 km", "0.5 km", "1 mi"};
  sc_image *imgs[3];
  sc_rect regions[3];
  for (int i = 0; i < 3; i++) {
    imgs[i] = load(files[i]);
    regions[i] = whole(imgs[i]);
  }
  sc_scale_profile *layout = NULL, *p = NULL, *q = NULL;
  assert_int_equal(sc_scale_profile_load(&layout, "gpsprune"), 0);
  if (sc_scale_profile_learn(&p, layout, "mine", 0, -1, 1, (const sc_image *const *)imgs, regions,
                             labels, 3))
    fail_msg("learn: %s", sc_errmsg());
  snprintf(path, sizeof path, "%s/mine.json", dir);
  snprintf(gpath, sizeof gpath, "%s/mine.glyphs", dir);
  assert_int_equal(sc_glyphset_save(sc_scale_profile_glyphs(p), gpath), 0);
  assert_int_equal(sc_scale_profile_save(p, NULL, "mine.glyphs", path), 0);
  if (sc_scale_profile_load(&q, path)) fail_msg("%s: %s", path, sc_errmsg());
  assert_string_equal(sc_scale_profile_name(q), "mine");
  const char *u[] = {"ki", "mi"};
  int n = 0;
  for (int k = 0; k < 2; k++)
    for (int z = -5; z <= 8; z++) {
      char rel[64];
      snprintf(rel, sizeof rel, "text/gpsprune/%s-z%d.png", u[k], z);
      sc_image *img = load(rel);
      sc_scale_reading ra, rq;
      assert_int_equal(sc_scalebar_read_with(&ra, img, whole(img), layout, NULL), 0);
      if (sc_scalebar_read_with(&rq, img, whole(img), q, NULL)) fail_msg("%s: %s", rel, sc_errmsg());
      assert_memory_equal(&ra, &rq, sizeof ra);
      sc_image_free(img);
      n++;
    }
  assert_int_equal(n, 28);
  /* The wrong layout for these captures is refused, naming the sample. */
  sc_scale_profile *lf = NULL, *bad = (sc_scale_profile *)1;
  assert_int_equal(sc_scale_profile_load(&lf, "leaflet"), 0);
  expect_msg(sc_scale_profile_learn(&bad, lf, NULL, 0, -1, 1, (const sc_image *const *)imgs,
                                    regions, labels, 3),
             SC_EUNREADABLE, "scale learn: sample 1: scalebar: no bar");
  assert_null(bad);
  for (int i = 0; i < 3; i++) sc_image_free(imgs[i]);
  sc_scale_profile_free(lf);
  sc_scale_profile_free(layout);
  sc_scale_profile_free(p);
  sc_scale_profile_free(q);
  sc_test_rmtree(dir);
  free(dir);
}

/* Every allocation of loading each builtin fails in turn: SC_ENOMEM, no leak. */
static void allocation_failures(void **st) {
  (void)st;
  sc_test_alloc_install();
  long base = sc_test_alloc_live();
  const char *b;
  int names = 0;
  for (size_t i = 0; (b = sc_scale_profile_builtin(i)); i++, names++)
    for (long n = 0;; n++) {
      sc_scale_profile *p = NULL;
      sc_test_alloc_fail_after(n);
      int rc = sc_scale_profile_load(&p, b);
      sc_test_alloc_fail_after(-1);
      if (rc == 0) {
        sc_scale_profile_free(p);
        break;
      }
      if (rc != SC_ENOMEM) fail_msg("%s, allocation %ld failing: rc %d (%s)", b, n, rc, sc_errmsg());
      if (sc_test_alloc_live() != base) fail_msg("%s: leak after failing allocation %ld", b, n);
    }
  assert_int_equal(names, 6);
  assert_int_equal(sc_test_alloc_live(), base);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(gpsprune_crops_read_exactly),
      cmocka_unit_test(gpsprune_zoom_steps_are_exact),
      cmocka_unit_test(leaflet_crops_read_exactly),
      cmocka_unit_test(openlayers_crops_read_exactly),
      cmocka_unit_test(openlayers_bar_crops_read_exactly),
      cmocka_unit_test(web_sabotages_name_the_rule),
      cmocka_unit_test(sabotages_name_the_rule),
      cmocka_unit_test(josm_zero_rule_is_named),
      cmocka_unit_test(builtins_equal_their_files),
      cmocka_unit_test(format_errors_have_positions),
      cmocka_unit_test(save_and_learn_round_trip),
      cmocka_unit_test(allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
