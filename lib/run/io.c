/* The runner's view of the page: input and raw captures through a small
 * table of functions. The default table drives a real page; unit tests give
 * a scripted one (with a fake clock) to check verdict timing without a
 * browser. */
#include "core/core.h"
#include "page/page_internal.h"
#include "runner.h"

static int p_move(void *ctx, sc_point at) { return sc_page_move(ctx, at); }
static int p_click(void *ctx, sc_point at) { return sc_page_click(ctx, at); }
static int p_wheel(void *ctx, sc_point at, int notches, sc__idle_fn idle, void *ud) {
  return sc__page_wheel(ctx, at, notches, idle, ud);
}
static int p_key(void *ctx, const char *key, int repeat) { return sc_page_key(ctx, key, repeat); }
static int p_capture(void *ctx, char **raw, size_t *len, sc_rect clip, int fast) {
  return sc__page_capture_b64(raw, len, ctx, clip, 1.0, fast);
}
static int p_decode(void *ctx, sc_image **out, const char *raw, size_t len, sc_rect clip) {
  (void)ctx;
  return sc__page_decode(out, raw, len, clip, 1.0);
}

sc__runner_io sc__runner_page_io(sc_page *p) {
  sc__runner_io io = {p_move, p_click, p_wheel, p_key, p_capture, p_decode, p};
  return io;
}
