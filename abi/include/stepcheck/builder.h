/* stepcheck — scenarios built in C: the same model a scenario file gives,
 * checked by the same loader (every rule and message of docs/scenario.md),
 * with every string escaped for you.
 *
 *   sc_builder *b;
 *   sc_builder_new(&b, "myapp", url, 1600, 900);
 *   sc_builder_region(b, "target", (sc_rect){10, 20, 200, 100});
 *   sc_builder_step(b, "click");                  // a cycle step
 *   sc_builder_click(b, (sc_point){534, 272});
 *   sc_builder_expect_changed(b, "target", 1);
 *   sc_scenario *s;
 *   if (sc_builder_finish(&s, b) < 0) puts(sc_errmsg());
 *
 * Errors are sticky: after the first failing call every later one does
 * nothing and returns the same error, and sc_builder_finish returns it
 * again (message in sc_errmsg()), so a harness may check only the end.
 * Actions and expectations apply to the step begun last.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_BUILDER_H
#define STEPCHECK_BUILDER_H

#include "common.h"
#include "scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sc_builder sc_builder;

/**
 * A new builder: app name, url, expected guest (canvas) size. The viewport
 * defaults to the guest plus 40 px of height (sc_builder_viewport changes
 * it). Strings are copied.
 * @param out the builder, the caller's (sc_builder_finish or sc_builder_free).
 */
SC_EXTERN int sc_builder_new(sc_builder **out, const char *app, const char *url, int guest_w,
                             int guest_h);
/** Browser viewport (CSS px). */
SC_EXTERN int sc_builder_viewport(sc_builder *b, int width, int height);
/** A named region (guest pixels). */
SC_EXTERN int sc_builder_region(sc_builder *b, const char *name, sc_rect r);
/** A named point. */
SC_EXTERN int sc_builder_point(sc_builder *b, const char *name, sc_point p);
/** Where the pointer rests before at-rest captures. */
SC_EXTERN int sc_builder_park(sc_builder *b, sc_point p);
/** Input profile: |deltaY| per wheel notch and the time between notches. */
SC_EXTERN int sc_builder_input(sc_builder *b, double wheel_delta, double notch_spacing_ms);
/** Drift check after each cycle: SC_DRIFT_OFF, SC_DRIFT_WARN or SC_DRIFT_FAIL. */
SC_EXTERN int sc_builder_drift(sc_builder *b, sc_drift_mode mode);

/** Begin a cycle step (id unique; "start" is reserved). */
SC_EXTERN int sc_builder_step(sc_builder *b, const char *id);
/** Begin a setup step (run once before the first cycle). */
SC_EXTERN int sc_builder_setup_step(sc_builder *b, const char *id);
/** The current step's judging deadline and quiet time before its gesture (ms). */
SC_EXTERN int sc_builder_timing(sc_builder *b, double timeout_ms, double settle_ms);

/* The current step's gesture (one per step; none = only judge). */
SC_EXTERN int sc_builder_click(sc_builder *b, sc_point at);
SC_EXTERN int sc_builder_move(sc_builder *b, sc_point at);
/** notches < 0 scrolls up (zooms in on JOSM), > 0 down. */
SC_EXTERN int sc_builder_wheel(sc_builder *b, sc_point at, int notches);
/** A key by DOM name ("NumpadAdd", "Control+a"), repeat >= 1 times. */
SC_EXTERN int sc_builder_key(sc_builder *b, const char *key, int repeat);

/* The current step's expectations (docs/scenario.md, "Expectations"). */
SC_EXTERN int sc_builder_expect_changed(sc_builder *b, const char *region, long min_pixels);
SC_EXTERN int sc_builder_expect_unchanged(sc_builder *b, const char *region, long max_pixels);
/** region equals its capture before the gesture of earlier cycle step
 * snapshot_step ("start": the cycle's start). */
SC_EXTERN int sc_builder_expect_equals(sc_builder *b, const char *region,
                                       const char *snapshot_step);
SC_EXTERN int sc_builder_expect_stable(sc_builder *b, const char *region);
/** Colour 0xRRGGBB present (absent = 0) or absent, within tol per channel. */
SC_EXTERN int sc_builder_expect_color(sc_builder *b, const char *region, uint32_t rgb, int tol,
                                      int absent);
/** Scale-bar factor (after / before metres per pixel) with a profile ("josm"). */
SC_EXTERN int sc_builder_expect_scale(sc_builder *b, const char *region, double factor,
                                      const char *profile);
/** Text read with glyph set glyphs equals `equals` (or matches `match`: one of the two). */
SC_EXTERN int sc_builder_expect_text(sc_builder *b, const char *region, const char *equals,
                                     const char *match, const char *glyphs);

/**
 * Check and build the scenario; b is freed whatever the outcome.
 * @param out the scenario, the caller's (sc_scenario_free).
 * @return 0; the first sticky error; SC_ESCENARIO with the loader's message
 *         (naming the step and field) when the model breaks a rule.
 */
SC_EXTERN int sc_builder_finish(sc_scenario **out, sc_builder *b);
/** Free without building; NULL is fine. */
SC_EXTERN void sc_builder_free(sc_builder *b);

#ifdef __cplusplus
}
#endif
#endif
