/* stepcheck — scenario files: a validated model of one application's steps.
 * Format: docs/scenario.md.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_SCENARIO_H
#define STEPCHECK_SCENARIO_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The model's parts, read with the accessors below (docs/api.md, "The
 * scenario model"). A scenario owns its steps and their expectations:
 * pointers from the accessors live as long as the scenario. */
typedef struct sc_scenario sc_scenario;
typedef struct sc_step sc_step;
typedef struct sc_expect sc_expect;

typedef enum sc_action_kind {
  SC_ACTION_NONE = 0, /**< no gesture: only judge (e.g. a setup wait) */
  SC_ACTION_CLICK,
  SC_ACTION_WHEEL,
  SC_ACTION_KEY,
  SC_ACTION_MOVE
} sc_action_kind;

typedef enum sc_expect_kind {
  SC_EXPECT_CHANGED = 1, /**< region differs from its pre-gesture capture */
  SC_EXPECT_UNCHANGED,   /**< region equals its pre-gesture capture */
  SC_EXPECT_EQUALS,      /**< region equals a snapshot or a baseline PNG */
  SC_EXPECT_STABLE,      /**< region identical on two consecutive captures */
  SC_EXPECT_COLOR,       /**< colour present (or absent) in region */
  SC_EXPECT_SCALE,       /**< scale bar factor relative to pre-gesture */
  SC_EXPECT_TEXT         /**< text in region equals / matches */
} sc_expect_kind;

typedef enum sc_drift_mode { SC_DRIFT_OFF = 0, SC_DRIFT_WARN, SC_DRIFT_FAIL } sc_drift_mode;

/** Where a locator found its point or region for one user (docs/scenario.md,
 *  "Locators"). By pointer only, like every result (docs/api.md). */
typedef struct sc_located {
  const char *name;       /**< the point's or region's name; borrowed from the scenario */
  int is_region;
  sc_point p;             /**< a point: where it is */
  sc_rect r;              /**< a region: where it is; a point: the template match or
                               the anchor it was placed from (w = h = 0 when none) */
  double score;           /**< template: fraction of its pixels that matched; 1 otherwise */
  int cycle;              /**< 0 when found as the page opened, else the cycle it was
                               found again for ("relocate") */
} sc_located;

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

/* Reading the model. Strings and steps are borrowed from the scenario;
 * NULL s (or an index out of range) reads as NULL, 0 or -1. */

/** The file it was loaded from (as given), or "<string>"/the parse name. */
SC_EXTERN const char *sc_scenario_path(const sc_scenario *s);
SC_EXTERN const char *sc_scenario_app(const sc_scenario *s);
SC_EXTERN const char *sc_scenario_url(const sc_scenario *s);
/** The guest canvas's expected size (checked to 1 px) and the viewport. */
SC_EXTERN void sc_scenario_guest_size(const sc_scenario *s, int *w, int *h);
SC_EXTERN void sc_scenario_viewport(const sc_scenario *s, int *w, int *h);

/** Regions: names and rectangles in guest coordinates, inset applied. A
 *  located region reads {0, 0, 0, 0} until a run finds it (its run
 *  result's `located` says where). */
SC_EXTERN size_t sc_scenario_nregions(const sc_scenario *s);
SC_EXTERN const char *sc_scenario_region_name(const sc_scenario *s, size_t i);
SC_EXTERN sc_rect sc_scenario_region_rect(const sc_scenario *s, size_t i);
/** Named points, likewise. */
SC_EXTERN size_t sc_scenario_npoints(const sc_scenario *s);
SC_EXTERN const char *sc_scenario_point_name(const sc_scenario *s, size_t i);
SC_EXTERN sc_point sc_scenario_point(const sc_scenario *s, size_t i);

/** The steps of one cycle, and the setup steps run once before it. */
SC_EXTERN size_t sc_scenario_nsteps(const sc_scenario *s);
SC_EXTERN const sc_step *sc_scenario_step(const sc_scenario *s, size_t i);
SC_EXTERN size_t sc_scenario_nsetup(const sc_scenario *s);
SC_EXTERN const sc_step *sc_scenario_setup_step(const sc_scenario *s, size_t i);

/** How rest is proven: "paint-log" (the default) or "pairs". */
SC_EXTERN const char *sc_scenario_rest(const sc_scenario *s);
/** Override the scenario's "rest" ("paint-log" or "pairs"; SC_EINVAL
 *  otherwise), e.g. from a command line. */
SC_EXTERN int sc_scenario_set_rest(sc_scenario *s, const char *rule);
/** The CSS selector of the guest canvas ("canvas"), or NULL: the page's
 *  largest visible canvas. */
SC_EXTERN const char *sc_scenario_canvas(const sc_scenario *s);
/** Override it (NULL: the largest visible canvas). Copied. SC_EINVAL for
 *  an empty selector, SC_ENOMEM. */
SC_EXTERN int sc_scenario_set_canvas(sc_scenario *s, const char *selector);

/** A step: its id, gesture and expectations. */
SC_EXTERN const char *sc_step_id(const sc_step *st);
SC_EXTERN sc_action_kind sc_step_action(const sc_step *st);
/** Where the gesture acts (click, wheel, move; a key's pointer position):
 *  1 with *at set, or 0 when it has no point (a key without one, none). */
SC_EXTERN int sc_step_point(const sc_step *st, sc_point *at);
/** Wheel notches (negative = up); 0 for other gestures. */
SC_EXTERN int sc_step_notches(const sc_step *st);
/** Key name ("NumpadAdd", "Control+a") and repeat count; NULL / 0 for
 *  other gestures. */
SC_EXTERN const char *sc_step_key(const sc_step *st, int *repeat);
/** Judging deadline after the first input (ms). */
SC_EXTERN double sc_step_timeout_ms(const sc_step *st);
/** Line in the scenario file (0 when built). */
SC_EXTERN int sc_step_line(const sc_step *st);
SC_EXTERN size_t sc_step_nexpect(const sc_step *st);
SC_EXTERN const sc_expect *sc_step_expect(const sc_step *st, size_t i);

/** An expectation: its kind, its region (an index for
 *  sc_scenario_region_name), and the whole of it as scenario JSON — the one
 *  representation that stays readable whatever kinds and fields later
 *  releases add. */
SC_EXTERN sc_expect_kind sc_expect_kind_of(const sc_expect *e);
SC_EXTERN int sc_expect_region(const sc_expect *e);
/** The expectation as the JSON object a scenario file would hold
 *  ({"changed": "map", "min_pixels": 50}), a new string for sc_free, or
 *  NULL (no memory or NULL e). Region names need the scenario. */
SC_EXTERN char *sc_expect_json(const sc_scenario *s, const sc_expect *e);

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
