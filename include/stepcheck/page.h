/* stepcheck — a page: one user's tab showing the guest canvas; input and capture
 * in guest coordinates.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_PAGE_H
#define STEPCHECK_PAGE_H

#include "browser.h"
#include "common.h"
#include "image.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One tab in its own browser context (users are isolated from each other). */
typedef struct sc_page sc_page;

typedef struct sc_page_options {
  unsigned version;
  int viewport_w, viewport_h;  /**< CSS px at device scale factor 1; default 1600x940 */
  int guest_w, guest_h;        /**< expected canvas size (1 px tolerance); 0 = take what is found */
  double wheel_delta;          /**< |deltaY| per wheel notch; default 100 */
  double notch_spacing_ms;     /**< pause between wheel notches; default 250 */
  double load_timeout_ms;      /**< navigation + canvas of the right size; default 30000 */
  const char *canvas_selector; /**< CSS selector; NULL = the largest canvas. Borrowed. */
} sc_page_options;
#define SC_PAGE_OPTIONS_VERSION 1
#define SC_PAGE_OPTIONS_INIT \
  {SC_PAGE_OPTIONS_VERSION, 1600, 940, 0, 0, 100.0, 250.0, 30000.0, NULL}
/**
 * Fill *opts with the defaults of sc_page_options for a caller built against
 * `version` (1 .. the library's): the same as the INIT macro, for bindings.
 * SC_EINVAL for a NULL opts or an unknown version.
 */
SC_EXTERN int sc_page_options_init(sc_page_options *opts, unsigned version);

/**
 * Open url in a new browser context and wait until the page has loaded and a
 * canvas of the expected guest size is shown, whole, inside the viewport.
 * @param out  the page, the caller's (sc_page_free); b is borrowed and must
 *             outlive the page.
 * @param opts NULL for SC_PAGE_OPTIONS_INIT.
 * @return 0; SC_EIO when the server answered an HTTP error ("http://...:
 *         the server answered HTTP 404", as soon as the page loaded) or the
 *         navigation failed; SC_EGEOMETRY when the canvas has another size,
 *         is clipped or is missing ("canvas 1280x720 at (0,32.5) ..., want
 *         1600x900"), either once the loaded page has looked the same for
 *         5 s (a client such as noVNC resizes its canvas after connecting)
 *         or at load_timeout_ms; SC_ETIMEDOUT, ...
 */
SC_EXTERN int sc_page_open(sc_page **out, sc_browser *b, const char *url,
                           const sc_page_options *opts);

/** Close the tab and its context. NULL is fine. From inside a callback of
 * the page's loop (also the page's own sc_page_done_cb: nothing of the page
 * is touched once that returns) the close is sent without waiting for its
 * replies, and p is freed at once; never while an asynchronous call on p
 * is still to call back. */
SC_EXTERN void sc_page_free(sc_page *p);

/** Canvas position in the page (CSS px, may be fractional) and its size;
 * all 0 for a NULL page. Any output pointer may be NULL. */
SC_EXTERN void sc_page_canvas(const sc_page *p, double *x, double *y, int *w, int *h);

/* Input. Guest coordinates; an integer point names a guest pixel and input
 * goes to that pixel's centre. Each returns once the browser acknowledged
 * the last event it sent. Every page function answers SC_EINVAL (with
 * sc_errmsg() naming the function) for a NULL page or out pointer, a point
 * that is not finite or whose input position (x + 0.5, y + 0.5) is not on
 * the guest, and the out-of-range arguments named below. */

/** Move the pointer (mouseMoved, no buttons). */
SC_EXTERN int sc_page_move(sc_page *p, sc_point at);
/** Left click: mouseMoved, mousePressed, mouseReleased with clickCount 1. */
SC_EXTERN int sc_page_click(sc_page *p, sc_point at);
/**
 * Wheel notches at a point: |notches| mouseWheel events of the configured
 * delta, spaced by notch_spacing_ms. notches < 0 scrolls up (deltaY < 0).
 */
SC_EXTERN int sc_page_wheel(sc_page *p, sc_point at, int notches);
/**
 * Press and release a key, repeat (1..64) times, as a US keyboard would.
 * The key is named by its DOM key value ("Escape", "a", "A", "+", "F5"),
 * its DOM code ("KeyA", "Digit1", "Equal", "NumpadAdd", "Space") or an
 * alias (Esc, Return, Del, Ins, Plus), with modifiers joined by '+'
 * ("Control+a", "Shift+Tab"; Alt, Control, Meta, Shift; 8 parts at most).
 * A character that needs Shift ("A", "+") is sent with Shift held;
 * "Shift+Equal" sends "+". Another single Unicode character is sent with
 * that key value and no code. The table: docs/keys.md. SC_EINVAL for an
 * unknown name.
 */
SC_EXTERN int sc_page_key(sc_page *p, const char *key, int repeat);

/**
 * Type text (UTF-8, 1..4096 bytes): one key press per character, as
 * sc_page_key sends it ("\n" presses Enter, "\t" Tab). SC_EINVAL for other
 * control characters or broken UTF-8, before anything is sent.
 */
SC_EXTERN int sc_page_type(sc_page *p, const char *text);

/**
 * Capture guest region clip as an image (Page.captureScreenshot, PNG,
 * decoded). clip must lie inside the guest and have a positive size;
 * scale in (0, 1]: < 1 gives a smaller image for cheap change detection.
 * fast non-zero uses optimizeForSpeed. *ms (optional) receives the cost.
 */
SC_EXTERN int sc_page_capture(sc_image **out, sc_page *p, sc_rect clip,
                              double scale, int fast, double *ms);

/**
 * Capture clip once the screen is at rest: captures are taken back to back
 * until two consecutive ones are identical (exactly), and the last is
 * returned. Park the pointer first (sc_page_move to a harmless point) when
 * hover effects could move the region. SC_ETIMEDOUT when the region still
 * moved after timeout_ms (> 0).
 * @param out the settled capture, the caller's (sc_image_free).
 */
SC_EXTERN int sc_page_capture_at_rest(sc_image **out, sc_page *p, sc_rect clip,
                                      double timeout_ms);

/**
 * Wait until clip differs (exactly) from before, then until it is at rest
 * again, and return that settled capture: the runner's "changed" wait for
 * a step built in C. before is typically sc_page_capture_at_rest's image
 * taken before the gesture (its size must be the clip's).
 * @param out             the settled capture after the change, the caller's.
 * @param first_change_ms optional: ms from the call to the request of the
 *                        first capture that differed.
 * @return 0; SC_ETIMEDOUT when nothing changed within timeout_ms (> 0), or
 *         the region did not come to rest by then.
 */
SC_EXTERN int sc_page_wait_change(sc_image **out, double *first_change_ms, sc_page *p,
                                  sc_rect clip, const sc_image *before, double timeout_ms);

/**
 * A finished asynchronous page call. status is 0 or a negative sc_error,
 * errmsg (borrowed, for the call) its detail; img, when the call yields
 * one, is the caller's (sc_image_free), else NULL; first_change_ms is the
 * wait's first-change time (0 otherwise).
 */
typedef void (*sc_page_done_cb)(int status, const char *errmsg, sc_image *img,
                                double first_change_ms, void *userdata);

/**
 * The asynchronous forms of sc_page_capture_at_rest and sc_page_wait_change:
 * they return at once (0, or an error and cb never fires) and cb fires
 * exactly once from the page's loop (sc_page_loop; run it with
 * sc_loop_run, or let a multi handle on the same loop run it). before is
 * copied. Free the page only after cb fired. Many of them may run at once
 * on one loop, on different pages.
 */
SC_EXTERN int sc_page_capture_at_rest_async(sc_page *p, sc_rect clip, double timeout_ms,
                                            sc_page_done_cb cb, void *userdata);
SC_EXTERN int sc_page_wait_change_async(sc_page *p, sc_rect clip, const sc_image *before,
                                        double timeout_ms, sc_page_done_cb cb,
                                        void *userdata);

/** The loop page p lives on (its browser's), NULL for a NULL or orphaned page. */
SC_EXTERN struct sc_loop *sc_page_loop(sc_page *p);

/**
 * Run loop l: wait for replies and timers for up to timeout_ms and run the
 * callbacks that are due. Returns the number of things handled (> 0) as
 * soon as something was, 0 when the time ran out, or a negative sc_error.
 */
SC_EXTERN int sc_loop_run(struct sc_loop *l, double timeout_ms);

/**
 * Evaluate a JavaScript expression in the page; *json receives the result
 * value as JSON text (returnByValue; promises awaited), freed with sc_free.
 * json may be NULL to ignore the value. SC_EPROTO on a thrown exception.
 */
SC_EXTERN int sc_page_eval(char **json, sc_page *p, const char *expr);

#ifdef __cplusplus
}
#endif
#endif
