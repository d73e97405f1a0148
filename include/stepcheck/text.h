/* stepcheck — deterministic glyph OCR for pixel fonts and the scale-bar reader.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_TEXT_H
#define STEPCHECK_TEXT_H

#include "common.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A glyph set: the binary masks of one font at one size, plus the colour
 * treatment that turns pixels into ink (a pixel is ink when every RGB channel
 * is within `tol` of the ink colour). Opaque; see docs/text.md for the file
 * format. Glyphs are named by a short string: usually one character, or a
 * ligature ("ft") when the font draws two characters touching.
 */
typedef struct sc_glyphset sc_glyphset;

/** Longest glyph name (bytes, without NUL): "ft" is a 2-byte name. */
#define SC_GLYPH_NAME_MAX 7
/** Most glyphs one read returns; longer lines are SC_EUNREADABLE. */
#define SC_TEXT_MAX_GLYPHS 64
/** Size of the text buffer in results (longest text + NUL). */
#define SC_TEXT_MAX_CHARS 160
/** Tallest glyph (pixels above the baseline) a glyph set may hold. */
#define SC_GLYPH_MAX_ASCENT 48
/** Deepest descender (pixels below the baseline) a glyph set may hold. */
#define SC_GLYPH_MAX_DESCENT 8

/**
 * New empty glyph set.
 * @param out     receives the set (caller frees with sc_glyphset_free).
 * @param ink_rgb ink colour as 0xRRGGBB (0xFFFFFF for JOSM's scale bar).
 * @param tol     per-channel tolerance 0..255 (the JOSM set uses 48).
 * @return 0, SC_EINVAL for a bad tolerance, SC_ENOMEM.
 */
SC_EXTERN int sc_glyphset_new(sc_glyphset **out, uint32_t ink_rgb, int tol);

/**
 * Load a glyph set.
 * @param name_or_path a builtin name ("josm", the JOSM scale-bar font,
 *        same content as data/glyphs/josm-scalebar.glyphs; "gpsprune",
 *        data/glyphs/gpsprune-scalebar.glyphs) or a file path
 *        (anything containing '/' or ending in ".glyphs").
 * @return 0; SC_ENOTFOUND for an unknown builtin; SC_EIO when the file
 *         cannot be read; SC_EFORMAT with line number in sc_errmsg().
 */
SC_EXTERN int sc_glyphset_load(sc_glyphset **out, const char *name_or_path);

/** Most masks one glyph name may have in a set (sc_glyphset_set_variants). */
#define SC_GLYPH_MAX_VARIANTS 16

/**
 * Let each glyph name have up to `max` masks (default 1). For anti-aliased
 * text drawn at fractional positions (a browser's), where one character
 * thresholds to a few slightly different masks: learning then keeps a
 * differing sample as another variant instead of refusing it, and reading
 * takes whichever variant fits (confidence is still against the best glyph
 * of another name). Saved as a "variants N" line.
 * @return 0; SC_EINVAL for max outside 1..SC_GLYPH_MAX_VARIANTS or below a
 *         count the set already holds.
 */
SC_EXTERN int sc_glyphset_set_variants(sc_glyphset *gs, int max);

/** The name of the i-th builtin glyph set (0, 1, ...), NULL past the last. */
SC_EXTERN const char *sc_glyphset_builtin(size_t i);

/**
 * Parse a glyph set held in memory (the file format of docs/text.md).
 * @param buf borrowed; need not be NUL-terminated.
 */
SC_EXTERN int sc_glyphset_parse(sc_glyphset **out, const char *buf, size_t len);

/**
 * Write a glyph set in the text format (to path.tmp, then renamed).
 * Glyphs are written sorted by name, so equal sets give equal files.
 */
SC_EXTERN int sc_glyphset_save(const sc_glyphset *gs, const char *path);

/** Free a glyph set; NULL is fine. */
SC_EXTERN void sc_glyphset_free(sc_glyphset *gs);

/**
 * Whether gs can write text: every word (spaces split words) is a sequence
 * of the set's glyph names ("1640.4 ft" with a ligature "ft" is fine).
 * @param missing optional, room for SC_GLYPH_NAME_MAX + 2 bytes: on
 *                SC_ENOTFOUND, the first character no glyph starts with
 *                where one is needed.
 * @return 0; SC_ENOTFOUND when some word cannot be written; SC_EINVAL.
 */
SC_EXTERN int sc_glyphset_spell(const sc_glyphset *gs, const char *text, char *missing);

/** Number of glyphs in the set. */
SC_EXTERN size_t sc_glyphset_count(const sc_glyphset *gs);

/**
 * Learn glyphs from one line of text in region of img.
 * The region's ink is cut into segments of connected ink columns; each
 * segment becomes the glyph of the matching character of text. Spaces in
 * text mark word gaps (they also teach the set how wide a word gap is).
 * Characters the font draws touching are grouped in brackets: "1640.4 [ft]"
 * learns "ft" as one glyph. Brackets themselves cannot be learned.
 * A glyph already in the set must match the new sample pixel for pixel.
 * @param img, region borrowed; region is clipped to the image.
 * @return 0; SC_ENOTEXT when the region has no ink; SC_EDATA when the
 *         number of segments differs from the number of glyphs in text
 *         (sc_errmsg() gives both counts and the segment boxes) or a
 *         glyph differs from the one already learned; SC_EINVAL for bad
 *         text or arguments.
 */
SC_EXTERN int sc_glyphset_learn(sc_glyphset *gs, const sc_image *img,
                                sc_rect region, const char *text);

/** How reads judge what they see. */
typedef struct sc_text_options {
  unsigned version;
  /** Lowest per-glyph confidence accepted (0..1); default 0.6. */
  double min_confidence;
  /** Ink pixels inside the text that no glyph explains (lines crossing,
   *  dirt) accepted before the read is SC_EUNREADABLE; default 3. */
  int max_stray_px;
} sc_text_options;
#define SC_TEXT_OPTIONS_VERSION 1
#define SC_TEXT_OPTIONS_INIT {SC_TEXT_OPTIONS_VERSION, 0.6, 3}
/**
 * Fill *opts with the defaults of sc_text_options for a caller built against
 * `version` (1 .. the library's): the same as the INIT macro, for bindings.
 * SC_EINVAL for a NULL opts or an unknown version.
 */
SC_EXTERN int sc_text_options_init(sc_text_options *opts, unsigned version);

/** One recognised glyph. */
typedef struct sc_text_glyph {
  char name[SC_GLYPH_NAME_MAX + 1]; /**< what it reads as: "7", "ft" */
  sc_rect box;       /**< glyph cell in image coordinates */
  int mismatch_px;   /**< pixels that differ from the template */
  double confidence; /**< 0..1, see docs/text.md */
} sc_text_glyph;

/** Result of a text read. No heap memory: nothing to free. */
typedef struct sc_text_result {
  char text[SC_TEXT_MAX_CHARS]; /**< NUL-terminated, words split by one space */
  size_t nglyphs;
  sc_text_glyph glyphs[SC_TEXT_MAX_GLYPHS];
  sc_rect box;        /**< bounding box of all glyphs, image coordinates */
  double confidence;  /**< lowest glyph confidence */
  int stray_px;       /**< ink pixels not explained by any glyph */
} sc_text_result;

/**
 * Read one line of text in region of img.
 * @param out     filled on success; on SC_EUNREADABLE it holds the best guess
 *                (for diagnostics only: never act on it).
 * @param opts    NULL for SC_TEXT_OPTIONS_INIT.
 * @return 0; SC_ENOTEXT when the region holds no ink pixel at all;
 *         SC_EUNREADABLE when ink is there but some glyph is below
 *         min_confidence, too much ink is unexplained, or the ink is taller
 *         than a line (sc_errmsg() says which); SC_EDATA for a glyph set
 *         without glyphs; SC_EINVAL.
 */
SC_EXTERN int sc_text_read(sc_text_result *out, const sc_image *img, sc_rect region,
                           const sc_glyphset *gs, const sc_text_options *opts);

/** Where sc_text_find read the text. */
typedef struct sc_text_match {
  sc_rect box;       /**< the matched words' glyphs, image coordinates */
  double confidence; /**< lowest glyph confidence among them */
} sc_text_match;

/**
 * Find where `text` is written inside `within` of img: the ink of the
 * region (the glyph set's colour) is cut into connected pieces, pieces no
 * larger than the set's largest glyph are gathered into lines (ink that
 * is bigger, such as lines and frames, is left out), each line is read
 * with sc_text_read, and a place counts where the line reads `text` as
 * whole words ("93" is not found inside "193" or "93a"). Lines that do not
 * read (unknown glyphs, stray ink) are skipped and counted.
 * @param out        the places, top to bottom, then left to right; room
 *                   for max (0 with out NULL: only count).
 * @param within     w or h <= 0 for the whole image; clipped to it.
 * @param text       words split by single spaces, as sc_text_read writes.
 * @param opts       NULL for SC_TEXT_OPTIONS_INIT (per line read).
 * @param unreadable optional: lines of ink that did not read.
 * @return the number of places (which may exceed max); SC_EINVAL for bad
 *         arguments or text; SC_EDATA for an empty glyph set; SC_ENOMEM.
 */
SC_EXTERN int sc_text_find(sc_text_match *out, int max, const sc_image *img, sc_rect within,
                           const sc_glyphset *gs, const char *text, const sc_text_options *opts,
                           int *unreadable);

/**
 * A scale-bar profile: how one application draws its scale bar (the bar's
 * shape, where the label is, whether a "0" is drawn, the number format,
 * the rounding series, the units and when each is used, the glyph set),
 * loaded from a JSON file or a builtin (docs/text.md, "Scale-bar
 * profiles"). Opaque, so profiles can describe new layouts without
 * changing the ABI. Read-only once loaded: one profile may be used by
 * many threads at once.
 */
typedef struct sc_scale_profile sc_scale_profile;

/**
 * Load a scale-bar profile.
 * @param out          receives the profile (caller frees with
 *                     sc_scale_profile_free).
 * @param name_or_path a builtin (sc_scale_profile_builtin lists them) or
 *                     the path of a profile file (anything containing '/'
 *                     or ending in ".json"); a glyph-set path in the file
 *                     is relative to the file.
 * @return 0; SC_ENOTFOUND for an unknown builtin (sc_errmsg() lists them);
 *         SC_EIO when the file cannot be read; SC_EFORMAT with
 *         "FILE:LINE:COL: what is wrong" in sc_errmsg(); SC_ENOMEM.
 */
SC_EXTERN int sc_scale_profile_load(sc_scale_profile **out, const char *name_or_path);

/**
 * Parse a profile held in memory.
 * @param buf    borrowed; need not be NUL-terminated.
 * @param origin name used in messages ("FILE:LINE:COL"); NULL for "profile".
 *               Glyph-set paths in buf are taken as they are.
 * @return as sc_scale_profile_load.
 */
SC_EXTERN int sc_scale_profile_parse(sc_scale_profile **out, const char *buf, size_t len,
                                     const char *origin);

/** The name of the i-th builtin profile (0, 1, ...), NULL past the last. */
SC_EXTERN const char *sc_scale_profile_builtin(size_t i);

/** Free a profile (NULL is fine). */
SC_EXTERN void sc_scale_profile_free(sc_scale_profile *p);

/** The profile's "name" (borrowed, lives as long as p). */
SC_EXTERN const char *sc_scale_profile_name(const sc_scale_profile *p);

/** The profile's glyph set (borrowed, lives as long as p). */
SC_EXTERN const sc_glyphset *sc_scale_profile_glyphs(const sc_scale_profile *p);

/**
 * Make a profile for an application whose bar is drawn like `layout`'s
 * (a builtin or a file with the same shape and label placement) from
 * captures at known labels: each sample's bar is found by the layout's
 * rules, the glyphs of its label (and of the "0", when the layout has one)
 * are learned where the layout draws them into a new glyph set, and the
 * label's baseline (and its distance from the tick) is measured on the
 * samples, which must agree. Everything else (series, number format,
 * units, rounding) is the layout's.
 * @param out      receives the profile (free with sc_scale_profile_free).
 * @param name     the new profile's name (NULL: the layout's).
 * @param ink_rgb, tol  the label's colour (also the bar's, when the layout
 *                 draws bar and label in one colour); tol < 0: the
 *                 layout's colour and tolerance.
 * @param variants masks per glyph (1; more for anti-aliased text).
 * @param imgs, regions, labels  n samples (borrowed): a capture, where the
 *                 bar is, its label as drawn ("0.5 km"; touching glyphs in
 *                 brackets, "100 [ft]").
 * @return 0; SC_EUNREADABLE (no bar of the layout's shape: the message
 *         names the sample and the rule), SC_EDATA (a label whose glyphs
 *         do not match the text or earlier samples, or samples that place
 *         the label differently), SC_EINVAL, SC_ENOMEM.
 */
SC_EXTERN int sc_scale_profile_learn(sc_scale_profile **out, const sc_scale_profile *layout,
                                     const char *name, uint32_t ink_rgb, int tol, int variants,
                                     const sc_image *const *imgs, const sc_rect *regions,
                                     const char *const *labels, size_t n);

/**
 * Write a profile as a profile file (to path.tmp, then renamed).
 * @param name   the "name" written (NULL: the profile's).
 * @param glyphs the "glyphs" written: a builtin name or a path relative
 *               to the file (save the glyph set there with
 *               sc_glyphset_save(sc_scale_profile_glyphs(p), ...)).
 * @return 0; SC_EIO; SC_EINVAL; SC_ENOMEM.
 */
SC_EXTERN int sc_scale_profile_save(const sc_scale_profile *p, const char *name,
                                    const char *glyphs, const char *path);

/**
 * A scale-bar reading, the same for every profile. Only what every layout
 * has is here: the label, the distance it names, the bar's length and the
 * scale with its bound. How a profile measures its bar (which ticks or
 * borders, which offset) is the profile's, not this struct's.
 */
typedef struct sc_scale_reading {
  char text[32];        /**< label as drawn: "100.0 m", "< 0.01 kbl", "0.5 km" */
  double value;         /**< 100.0 */
  char unit[8];         /**< the unit word as drawn: "m", "km", "mi", ... (per profile) */
  int less_than;        /**< label was "< x": metres is an upper bound only */
  double metres;        /**< value converted to metres with the profile's unit */
  /** The bar's length in whole pixels as the application computed it
   *  (JOSM, GpsPrune: tick to tick; Leaflet: the box's width less its
   *  borders and padding). */
  int bar_px;
  /** Best estimate of the application's exact length: bar_px + 0.5 for
   *  applications that truncate (the true length lies in [bar_px,
   *  bar_px + 1)), bar_px for those that round. */
  double length_px;
  double metres_per_px; /**< metres / length_px */
  /** Bound on |true metres_per_px / metres_per_px - 1| from the length's
   *  rounding: 0.5 / bar_px when truncated, 0.5 / (bar_px - 0.5) when rounded. */
  double rel_err;
  sc_rect bar;          /**< end tick to end tick, tick height, image coords */
  sc_rect text_box;     /**< the label's glyphs, image coords */
  double confidence;    /**< lowest glyph confidence of the label */
} sc_scale_reading;

/**
 * Read a map scale bar with a loaded profile.
 * @param region  where to look (the bar, its label and any "0" must lie
 *                inside; other map content around them is fine).
 * @param profile borrowed.
 * @param opts    NULL for SC_TEXT_OPTIONS_INIT.
 * @return 0; SC_ENOTEXT when the region holds no ink of the bar's colour;
 *         SC_EUNREADABLE when a rule of the profile does not hold (no bar
 *         of its shape, a missing tick or "0", a label not where the
 *         profile draws it, not in its number format, unit or series:
 *         sc_errmsg() names the rule); SC_EINVAL. Thread-safe.
 */
SC_EXTERN int sc_scalebar_read_with(sc_scale_reading *out, const sc_image *img, sc_rect region,
                                    const sc_scale_profile *profile, const sc_text_options *opts);

/**
 * Read a map scale bar with a profile named by a string.
 * @param profile a builtin profile ("josm": JOSM's MapScaler; "gpsprune",
 *                "leaflet", "leaflet-imperial", "openlayers",
 *                "openlayers-bar"), a profile file (a path ending in
 *                ".json"), or any other path (with '/' or ending in
 *                ".glyphs"): a glyph-set file, read with JOSM's layout in
 *                that font. The last one loaded is kept per thread.
 * @return as sc_scalebar_read_with; also SC_ENOTFOUND for an unknown
 *         builtin, SC_EIO / SC_EFORMAT for a file that does not load.
 */
SC_EXTERN int sc_scalebar_read(sc_scale_reading *out, const sc_image *img, sc_rect region,
                               const char *profile, const sc_text_options *opts);

/**
 * Zoom factor between two readings: after.metres_per_px / before.metres_per_px
 * (x0.125 for three JOSM zoom-in steps).
 * @param factor  out.
 * @param rel_err out (optional): relative bound on factor from both readings'
 *                bounds: (e1 + e2) / (1 - e1). The true factor f satisfies
 *                |f / factor - 1| <= rel_err.
 * @return 0; SC_EDATA when a reading is a "< x" bound or not positive;
 *         SC_EINVAL for NULL arguments.
 */
SC_EXTERN int sc_scale_ratio(double *factor, double *rel_err, const sc_scale_reading *before,
                             const sc_scale_reading *after);

#ifdef __cplusplus
}
#endif
#endif
