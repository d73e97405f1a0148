/* stepcheck glyphs learn / ocr / read-scale: the text layer from the shell. */
#include <stdio.h>
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
