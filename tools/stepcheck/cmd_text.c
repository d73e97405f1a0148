/* stepcheck glyphs learn / ocr / read-scale: the text layer from the shell. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static int load_image(sc_image **img, const char *path) {
  int rc = sc_image_load_png(img, path, NULL);
  return rc < 0 ? cli_input_err(rc, "image") : 0;
}

/* Region or the whole image. */
static sc_rect region_or_all(const sc_rect *r, const sc_image *img) {
  return r->w ? *r : (sc_rect){0, 0, img->width, img->height};
}

int cmd_glyphs(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "learn") != 0)
    return cli_err(EXIT_USAGE,
                   "usage: stepcheck glyphs learn --text TEXT IMAGE --region x,y,w,h "
                   "[--ink RRGGBB] [--tol N] [--variants N] -o SET");
  const char *text = NULL, *image = NULL, *out = NULL, *v;
  int variants = 0;
  sc_rect region = {0, 0, 0, 0};
  uint32_t ink = 0xffffff;
  int tol = 40;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--text")) {
      if (!(text = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--region")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_rect(&region, a, v) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--ink")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_rgb(&ink, a, v) < 0) return EXIT_USAGE;
    } else if (!strcmp(a, "--tol")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_int(&tol, a, v, 0, 255) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--variants")) {
      if (!(v = cli_value(argc, argv, &i)) ||
          cli_parse_int(&variants, a, v, 1, SC_GLYPH_MAX_VARIANTS) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "-o")) {
      if (!(out = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (a[0] == '-') {
      return cli_err(EXIT_USAGE, "glyphs learn: unknown option '%s'", a);
    } else {
      image = a;
    }
  }
  if (!text || !image || !out)
    return cli_err(EXIT_USAGE, "glyphs learn: --text, IMAGE and -o are required");
  if (cli_check_output("glyphs learn", "-o", out) < 0) return EXIT_USAGE;
  sc_image *img = NULL;
  int code = load_image(&img, image);
  if (code) return code;
  /* Add to an existing set at OUT (the loader refuses a FIFO there instead
   * of blocking on it), or start a new one. */
  sc_glyphset *gs = NULL;
  int rc;
  if (access(out, F_OK) == 0) {
    rc = sc_glyphset_load(&gs, out);
    if (rc < 0 && rc != SC_ENOMEM) code = cli_input_err(rc, "glyphs learn -o"); /* configuration */
  } else {
    rc = sc_glyphset_new(&gs, ink, tol);
  }
  if (rc == 0 && variants) rc = sc_glyphset_set_variants(gs, variants);
  if (rc == 0) rc = sc_glyphset_learn(gs, img, region_or_all(&region, img), text);
  if (rc == 0) rc = sc_glyphset_save(gs, out);
  if (rc < 0 && !code)
    code = cli_lib_err(rc, "glyphs learn");
  else if (rc == 0) {
    char shown[CLI_SHOWN_MAX];
    printf("%s: %zu glyphs\n", cli_shown(shown, sizeof shown, out), sc_glyphset_count(gs));
  }
  sc_glyphset_free(gs);
  sc_image_free(img);
  return code;
}

int cmd_ocr(int argc, char **argv) {
  const char *image = NULL, *glyphs = NULL, *v;
  sc_rect region = {0, 0, 0, 0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--glyphs")) {
      if (!(glyphs = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--region")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_rect(&region, a, v) < 0)
        return EXIT_USAGE;
    } else if (a[0] == '-') {
      return cli_err(EXIT_USAGE, "ocr: unknown option '%s'", a);
    } else {
      image = a;
    }
  }
  if (!image || !glyphs)
    return cli_err(EXIT_USAGE, "usage: stepcheck ocr IMAGE --glyphs SET [--region x,y,w,h]");
  sc_image *img = NULL;
  int code = load_image(&img, image);
  if (code) return code;
  sc_glyphset *gs = NULL;
  int rc = sc_glyphset_load(&gs, glyphs);
  sc_text_result tr;
  if (rc < 0 && rc != SC_ENOMEM) {
    code = cli_input_err(rc, "ocr --glyphs"); /* unknown set, unreadable file: configuration */
  } else if (rc == 0 && (rc = sc_text_read(&tr, img, region_or_all(&region, img), gs, NULL)) == 0) {
    char shown[CLI_SHOWN_MAX];
    printf("%s\t(confidence %.2f, %zu glyphs)\n", cli_shown(shown, sizeof shown, tr.text),
           tr.confidence, tr.nglyphs);
  } else {
    code = cli_lib_err(rc, "ocr");
  }
  sc_glyphset_free(gs);
  sc_image_free(img);
  return code;
}

int cmd_read_scale(int argc, char **argv) {
  const char *image = NULL, *profile = "josm", *v;
  sc_rect region = {0, 0, 0, 0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--profile")) {
      if (!(profile = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--region")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_rect(&region, a, v) < 0)
        return EXIT_USAGE;
    } else if (a[0] == '-') {
      return cli_err(EXIT_USAGE, "read-scale: unknown option '%s'", a);
    } else {
      image = a;
    }
  }
  if (!image)
    return cli_err(EXIT_USAGE,
                   "usage: stepcheck read-scale IMAGE [--region x,y,w,h] [--profile NAME|FILE]");
  sc_image *img = NULL;
  int code = load_image(&img, image);
  if (code) return code;
  sc_scale_reading rd;
  int rc = sc_scalebar_read(&rd, img, region_or_all(&region, img), profile, NULL);
  /* SC_ENOTFOUND (unknown profile), SC_EIO and SC_EFORMAT (its file or its
   * glyph file does not load) come only from the profile: configuration, exit 2 */
  if (rc == SC_ENOTFOUND || rc == SC_EIO || rc == SC_EFORMAT)
    code = cli_input_err(rc, "read-scale --profile");
  else if (rc < 0)
    code = cli_lib_err(rc, "read-scale");
  else {
    char shown[CLI_SHOWN_MAX];
    printf("text \"%s\"  bar %d px  %.6g m/px (+-%.2f%%)\n", cli_shown(shown, sizeof shown, rd.text), rd.bar_px,
           rd.metres_per_px, rd.rel_err * 100);
  }
  sc_image_free(img);
  return code;
}

/* stepcheck scale learn: a profile for an application drawn like a known
 * layout, from two or three captures at known labels (and, optionally,
 * known metres per pixel), checked by reading every sample back. */
#define LEARN_MAX 16
int cmd_scale(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "learn") != 0)
    return cli_err(EXIT_USAGE, "usage: stepcheck scale learn --layout NAME|FILE -o OUT.json "
                   "IMAGE=LABEL[@M_PER_PX]... [--region x,y,w,h] [--ink RRGGBB] [--tol N] "
                   "[--variants N] [--name NAME]");
  const char *layout_name = NULL, *out = NULL, *name = NULL, *v;
  sc_rect region = {0, 0, 0, 0};
  uint32_t ink = 0;
  int tol = -1, variants = 1, have_ink = 0;
  const char *specs[LEARN_MAX];
  size_t n = 0;
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--layout")) {
      if (!(layout_name = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "-o")) {
      if (!(out = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--name")) {
      if (!(name = cli_value(argc, argv, &i))) return EXIT_USAGE;
    } else if (!strcmp(a, "--region")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_rect(&region, a, v) < 0) return EXIT_USAGE;
    } else if (!strcmp(a, "--ink")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_rgb(&ink, a, v) < 0) return EXIT_USAGE;
      have_ink = 1;
    } else if (!strcmp(a, "--tol")) {
      if (!(v = cli_value(argc, argv, &i)) || cli_parse_int(&tol, a, v, 0, 255) < 0)
        return EXIT_USAGE;
    } else if (!strcmp(a, "--variants")) {
      if (!(v = cli_value(argc, argv, &i)) ||
          cli_parse_int(&variants, a, v, 1, SC_GLYPH_MAX_VARIANTS) < 0)
        return EXIT_USAGE;
    } else if (a[0] == '-') {
      return cli_err(EXIT_USAGE, "scale learn: unknown option '%s'", a);
    } else if (!strchr(a, '=')) {
      return cli_err(EXIT_USAGE, "scale learn: a sample is IMAGE=LABEL[@M_PER_PX], not '%s'", a);
    } else if (n == LEARN_MAX) {
      return cli_err(EXIT_USAGE, "scale learn: at most %d samples", LEARN_MAX);
    } else {
      specs[n++] = a;
    }
  }
  size_t ol = out ? strlen(out) : 0;
  if (!layout_name || !out || n == 0)
    return cli_err(EXIT_USAGE, "scale learn: --layout, -o and at least one IMAGE=LABEL are required");
  if (ol < 6 || strcmp(out + ol - 5, ".json") != 0)
    return cli_err(EXIT_USAGE, "scale learn: -o names a profile file ending in .json");
  if (cli_check_output("scale learn", "-o", out) < 0) return EXIT_USAGE;
  sc_scale_profile *layout = NULL, *p = NULL;
  int rc = sc_scale_profile_load(&layout, layout_name);
  if (rc) return cli_input_err(rc, "scale learn --layout");
  sc_image *imgs[LEARN_MAX] = {0};
  sc_rect regions[LEARN_MAX];
  char *labels[LEARN_MAX] = {0};
  double mpp[LEARN_MAX];
  int code = 0;
  for (size_t i = 0; i < n && !code; i++) {
    const char *eq = strchr(specs[i], '=');
    char file[1024];
    snprintf(file, sizeof file, "%.*s", (int)(eq - specs[i]), specs[i]);
    labels[i] = strdup(eq + 1);
    char *at = labels[i] ? strrchr(labels[i], '@') : NULL;
    mpp[i] = 0;
    if (at) {
      char *end;
      mpp[i] = strtod(at + 1, &end);
      if (*end || !(mpp[i] > 0)) code = cli_err(EXIT_USAGE, "scale learn: '%s': @M_PER_PX must be a positive number", specs[i]);
      *at = '\0';
    }
    if (!code) code = load_image(&imgs[i], file);
    if (!code) regions[i] = region_or_all(&region, imgs[i]);
  }
  if (!code) {
    char glyphs[1100], gpath[1100];
    snprintf(gpath, sizeof gpath, "%.*s.glyphs", (int)(ol - 5), out);
    const char *slash = strrchr(gpath, '/');
    snprintf(glyphs, sizeof glyphs, "%s", slash ? slash + 1 : gpath);
    /* No --ink: the layout's colour and tolerance (tol -1). */
    if (have_ink && tol < 0) tol = 40;
    rc = sc_scale_profile_learn(&p, layout, name, ink, have_ink ? tol : -1, variants,
                                (const sc_image *const *)imgs, regions, (const char *const *)labels,
                                n);
    if (!rc) rc = sc_glyphset_save(sc_scale_profile_glyphs(p), gpath);
    if (!rc) rc = sc_scale_profile_save(p, NULL, glyphs, out);
    /* The library's learning messages already say "scale learn: sample N: ...". */
    if (rc && !strncmp(sc_errmsg(), "scale learn: ", 13))
      code = cli_err(rc == SC_ENOMEM ? EXIT_INFRA : EXIT_USAGE, "%s", sc_errmsg());
    else if (rc)
      code = cli_lib_err(rc, "scale learn");
  }
  /* Read every sample back through the file just written. */
  sc_scale_profile_free(p);
  p = NULL;
  if (!code && (rc = sc_scale_profile_load(&p, out))) code = cli_lib_err(rc, "scale learn: read back");
  char shown[CLI_SHOWN_MAX];
  for (size_t i = 0; i < n && !code; i++) {
    sc_scale_reading rd;
    rc = sc_scalebar_read_with(&rd, imgs[i], regions[i], p, NULL);
    char want[64];
    size_t k = 0;
    for (const char *c = labels[i]; *c && k + 1 < sizeof want; c++)
      if (*c != '[' && *c != ']') want[k++] = *c;
    want[k] = '\0';
    if (rc) {
      code = cli_err(EXIT_FAIL, "scale learn: sample %zu does not read back: %s", i + 1, sc_errmsg());
    } else if (strcmp(rd.text, want) != 0) {
      code = cli_err(EXIT_FAIL, "scale learn: sample %zu reads \"%s\", not \"%s\"", i + 1,
                     cli_shown(shown, sizeof shown, rd.text), want);
    } else if (mpp[i] > 0 && !(fabs(rd.metres_per_px / mpp[i] - 1) <= rd.rel_err)) {
      code = cli_err(EXIT_FAIL, "scale learn: sample %zu: %.6g m/px, not %.6g within +-%.2f%%: "
                     "the layout's length rules do not fit this application", i + 1,
                     rd.metres_per_px, mpp[i], rd.rel_err * 100);
    } else {
      printf("sample %zu: text \"%s\"  bar %d px  %.6g m/px (+-%.2f%%)%s\n", i + 1,
             cli_shown(shown, sizeof shown, rd.text), rd.bar_px, rd.metres_per_px,
             rd.rel_err * 100, mpp[i] > 0 ? "  (given m/px within the bound)" : "");
    }
  }
  if (!code) printf("%s: profile \"%s\", %zu glyphs\n", cli_shown(shown, sizeof shown, out),
                    sc_scale_profile_name(p), sc_glyphset_count(sc_scale_profile_glyphs(p)));
  for (size_t i = 0; i < n; i++) {
    sc_image_free(imgs[i]);
    free(labels[i]);
  }
  sc_scale_profile_free(p);
  sc_scale_profile_free(layout);
  return code;
}
