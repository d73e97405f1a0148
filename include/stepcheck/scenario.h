/* stepcheck — scenario files: a validated model of one application's steps.
 * Format: docs/scenario.md.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_SCENARIO_H
#define STEPCHECK_SCENARIO_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A named rectangle in guest coordinates (inset already applied). */
typedef struct sc_region {
  char *name;
  sc_rect r;
} sc_region;

typedef struct sc_named_point {
  char *name;
  sc_point p;
} sc_named_point;

typedef enum sc_action_kind {
  SC_ACTION_NONE = 0, /**< no gesture: only judge (e.g. a setup wait) */
  SC_ACTION_CLICK,
  SC_ACTION_WHEEL,
  SC_ACTION_KEY,
  SC_ACTION_MOVE
} sc_action_kind;

typedef struct sc_action {
  sc_action_kind kind;
  sc_point at;      /**< resolved point (click, wheel, move; key: pointer position) */
  int has_at;       /**< key: 0 when no pointer position was given */
  int notches;      /**< wheel: negative = up (zoom in on JOSM), positive = down */
  char *key;        /**< key: DOM key name, "NumpadAdd", "Control+a" */
  int repeat;       /**< key: times, >= 1 */
} sc_action;

typedef enum sc_expect_kind {
  SC_EXPECT_CHANGED = 1, /**< region differs from its pre-gesture capture */
  SC_EXPECT_UNCHANGED,   /**< region equals its pre-gesture capture */
  SC_EXPECT_EQUALS,      /**< region equals a snapshot or a baseline PNG */
  SC_EXPECT_STABLE,      /**< region identical on two consecutive captures */
  SC_EXPECT_COLOR,       /**< colour present (or absent) in region */
  SC_EXPECT_SCALE,       /**< scale bar factor relative to pre-gesture */
  SC_EXPECT_TEXT         /**< text in region equals / matches */
} sc_expect_kind;

typedef struct sc_expect {
  sc_expect_kind kind;
  int region;            /**< index into sc_scenario.regions */
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

typedef enum sc_drift_mode { SC_DRIFT_OFF = 0, SC_DRIFT_WARN, SC_DRIFT_FAIL } sc_drift_mode;

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
  double response_ms;     /**< a step none of whose expectations needs a change
                               (unchanged, equals, stable, absent colours) is verified
                               only after this long without a paint touching its
                               regions (default 1000; both rules) */
} sc_scenario;

/**
 * Load and validate a scenario file.
 * @param out  the model, the caller's (sc_scenario_free).
 * @return 0; SC_ESCENARIO with sc_errmsg() = "FILE:LINE:COL: message" (the
 *         first problem), SC_EIO when the file cannot be read.
 */
SC_EXTERN int sc_scenario_load(sc_scenario **out, const char *path);

/**
 * Same, from a NUL-terminated string. name (NULL: "<string>") is used in
 * messages, and relative baseline paths resolve against its directory.
 */
SC_EXTERN int sc_scenario_parse(sc_scenario **out, const char *json, const char *name);

/**
 * Check a file and report every problem (not only the first): each as one
 * line "FILE:LINE:COL: message" through cb (may be NULL), sorted by position.
 * Returns the number of problems (0 = valid), or a negative sc_error when the
 * file cannot be read (SC_EIO) or memory runs out; cb then never fires.
 */
SC_EXTERN int sc_scenario_validate(const char *path,
                                   void (*cb)(const char *line, void *userdata),
                                   void *userdata);

/** Free a model from sc_scenario_load / _parse and everything it owns; NULL is fine. */
SC_EXTERN void sc_scenario_free(sc_scenario *s);

/** Index of a region by name, or -1. */
SC_EXTERN int sc_scenario_region(const sc_scenario *s, const char *name);

/* URL schemes a run may open (docs/security.md, "URL schemes"). */
#define SC_URL_HTTP 0x1u  /**< http:// */
#define SC_URL_HTTPS 0x2u /**< https:// */
#define SC_URL_FILE 0x4u  /**< file:// (local files: opt in per run) */
#define SC_URL_DATA 0x8u  /**< data: (opt in per run) */
/** The default policy: http and https. */
#define SC_URL_DEFAULT (SC_URL_HTTP | SC_URL_HTTPS)

/**
 * Whether a run may open url: its scheme is one of allow (SC_URL_* bits),
 * and an http(s) URL has a host (and a port from 1 to 65535 if it gives
 * one). "about:blank" is always allowed (an empty page, it loads nothing);
 * every other scheme (chrome:, view-source:, javascript:, blob:, about:
 * other than blank, ...) is always refused. No bytes below 0x21 or 0x7f.
 * The scenario loader applies SC_URL_DEFAULT to a scenario's "url"; a
 * caller that overrides the URL (the CLI's --url) checks it with this.
 * @return 0, or SC_EINVAL with the reason in sc_errmsg()
 *         ("scheme \"file\" is not allowed (...)").
 */
SC_EXTERN int sc_url_check(const char *url, unsigned allow);

#ifdef __cplusplus
}
#endif
#endif
