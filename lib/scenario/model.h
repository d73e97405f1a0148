/* The scenario model: what sc_scenario, sc_step and sc_expect are. Opaque
 * to callers (include/stepcheck/scenario.h has accessors), so this layout
 * is the library's own and may change in any release. Built only by the
 * loader (load.c, top.c, steps.c, ...) and the builder (builder.c); read by
 * the layers above (judge, locate, run, report). */
#ifndef SC_SCENARIO_MODEL_H
#define SC_SCENARIO_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "stepcheck/scenario.h"

/** A named rectangle in guest coordinates (inset already applied). */
typedef struct sc_region {
  char *name;
  sc_rect r;
} sc_region;

typedef struct sc_named_point {
  char *name;
  sc_point p;
} sc_named_point;


typedef struct sc_action {
  sc_action_kind kind;
  sc_point at;      /**< resolved point (click, wheel, move; key: pointer position) */
  int has_at;       /**< key: 0 when no pointer position was given */
  int notches;      /**< wheel: negative = up (zoom in on JOSM), positive = down */
  char *key;        /**< key: DOM key name, "NumpadAdd", "Control+a" */
  int repeat;       /**< key: times, >= 1 */
} sc_action;


typedef struct sc_expect {
  sc_expect_kind kind;
  int region;            /**< index into regions */
  /* tolerance (changed/unchanged/equals/stable) */
  double threshold;      /**< per-pixel YIQ threshold 0..1 */
  long max_pixels;       /**< equals/unchanged/stable: differing pixels allowed */
  double max_ratio;      /**< equals/unchanged/stable: or as a fraction of the region (0 = unused) */
  long min_pixels;       /**< changed: at least this many differ; color: at least this many match */
  /* equals */
  char *snapshot;        /**< step id whose pre-gesture capture to compare with, or "start" */
  char *baseline;        /**< PNG path (resolved relative to the scenario file) */
  /* color */
  uint32_t rgb;          /**< 0xRRGGBB */
  int color_tol;         /**< max abs difference per channel */
  int absent;            /**< color: non-zero = must NOT be present (fewer than min_pixels) */
  /* scale */
  double factor;         /**< wanted ratio new/old metres-per-pixel, e.g. 0.125 */
  double factor_tol;     /**< relative, default 0.02 */
  char *profile;         /**< scale-bar profile name ("josm") or glyph-set path */
  /* text */
  char *text_equals;     /**< exact text, or NULL */
  char *text_match;      /**< POSIX extended regex, or NULL */
  char *glyphs;          /**< glyph set name or path */
} sc_expect;

typedef struct sc_step {
  char *id;
  sc_action action;
  double timeout_ms;     /**< judging deadline after the first input */
  double settle_ms;      /**< minimum time since the previous gesture before this one */
  int park;              /**< non-zero: park the pointer before the pre-gesture capture */
  size_t nexpect;
  sc_expect *expect;
  int line;              /**< line in the scenario file, for messages */
} sc_step;


typedef struct sc_scenario {
  char *path;            /**< file it was loaded from (absolute or as given) */
  char *app;
  char *url;
  int viewport_w, viewport_h;
  int guest_w, guest_h;  /**< expected canvas size; checked to 1 px */
  /* input profile */
  double wheel_delta;    /**< |deltaY| per notch, default 100 */
  double notch_spacing_ms; /**< default 250 */
  double double_click_ms;  /**< same-point clicks closer than this are spaced out, default 500 */
  double default_timeout_ms; /**< default 8000 */
  double default_settle_ms;  /**< default 300 */
  int has_park;
  sc_point park;
  size_t npoints;
  sc_named_point *points;
  size_t nregions;
  sc_region *regions;
  size_t nsetup;
  sc_step *setup;        /**< run once before the first cycle */
  size_t nsteps;
  sc_step *steps;        /**< one cycle */
  sc_drift_mode drift;
  size_t ndrift;
  int *drift_regions;    /**< indexes into regions; all when ndrift == 0 */
  double drift_threshold; /**< per-pixel YIQ threshold for drift (default: defaults.threshold) */
  long drift_max_pixels;  /**< differing pixels per region that are not drift (default: defaults.max_pixels) */
  /** The readiness gate: the first cycle's "start" snapshot is taken only
   * once the screen has not changed for this long (ms, default 1000; 0 =
   * two identical captures in a row are enough), so a half-painted screen
   * never becomes the reference. */
  double ready_quiet_ms;
  /** Points and regions found on the screen instead of given ("Locators"
   * in docs/scenario.md); NULL when the scenario has none. Opaque: their
   * entries in points and regions hold 0 until a run finds them for its
   * user (each user's run uses its own resolved copy and reports where
   * each was found in sc_run_result.located). */
  struct sc_locators *locators;
  /* 0.3.0: how rest is proven (docs/design.md, "Paint log") */
  int rest_pairs;         /**< "rest": "pairs": prove rest by two identical captures in a
                               row only; 0 ("paint-log", the default): by the page's own
                               log of its paints, falling back to pairs where the log is
                               blind */
  double rest_quiet_ms;   /**< paint log: at rest = no paint touching the step's regions
                               for this long after the last one (default 150) */
  char *canvas;           /**< "canvas": CSS selector of the guest canvas, or NULL (the
                               largest visible one) */
  double response_ms;     /**< a step none of whose expectations needs a change
                               (unchanged, equals, stable, absent colours) is verified
                               only after this long without a paint touching its
                               regions (default 1000; both rules) */
  /* 0.4.0 */
  double rest_capture_ms; /**< paint log: the verdict capture is taken this long after
                               the application's last paint (not after the whole quiet
                               time), and proven final when no paint followed it for
                               rest_quiet_ms (default 50; 0 or >= rest_quiet_ms: capture
                               after the quiet time, as 0.3.0 did) */
  long self_check_first;  /**< the paint log's self-check: a second capture after each
                               of a user's first N log verdicts (default 1) */
  long self_check_every;  /**< ... then after one in N (default 16; 0: never again) */
} sc_scenario;

#endif
