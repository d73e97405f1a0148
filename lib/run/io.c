/* The runner's view of the page and the clock: input, raw captures and
 * timers through a small table of functions. The default table drives a
 * real page on its loop; unit tests give a scripted world with a fake
 * clock to check verdict timing without a browser. */
#include "cdp/loop.h"
#include "core/core.h"
#include "page/tab.h"
#include "runner.h"

static int p_move(void *ctx, sc_point at, sc__io_done cb, void *ud) {
  return sc__page_move_async(ctx, at, cb, ud);
}
static int p_click(void *ctx, sc_point at, sc__io_done cb, void *ud) {
  return sc__page_click_async(ctx, at, cb, ud);
}
static int p_notch(void *ctx, sc_point at, int dir, int first, sc__io_done cb, void *ud) {
  return sc__page_notch_async(ctx, at, dir, first, cb, ud);
}
static int p_key(void *ctx, const char *key, int repeat, sc__io_done cb, void *ud) {
  return sc__page_key_async(ctx, key, repeat, cb, ud);
}
static int p_capture(void *ctx, sc_rect clip, int fast, double timeout_ms, sc__io_captured cb,
                     void *ud) {
  return sc__page_capture_async(ctx, clip, 1.0, fast, timeout_ms, cb, ud);
}
static int p_decode(void *ctx, sc_image **out, const char *raw, size_t len, sc_rect clip) {
  (void)ctx;
  return sc__page_decode(out, raw, len, clip, 1.0);
}
static uint64_t p_timer(void *ctx, double at_ms, sc__io_tick cb, void *ud) {
  return sc__loop_timer(sc__page_loop(ctx), at_ms, cb, ud);
}
static void p_cancel(void *ctx, uint64_t id) { sc__loop_cancel(sc__page_loop(ctx), id); }
static int p_guest(void *ctx, sc__io_done cb, void *ud) {
  return sc__page_guest_check_async(ctx, cb, ud);
}

static int p_log_wait(void *ctx, const sc__log_ask *ask, sc__io_logged cb, void *ud) {
  return sc__page_log_wait_async(ctx, ask, cb, ud);
}

static int p_inputs(void *ctx, double timeout_ms, sc__io_inputs cb, void *ud) {
  return sc__page_inputs_async(ctx, timeout_ms, cb, ud);
}

sc__runner_io sc__runner_page_io(sc_page *p) {
  sc__runner_io io = {p_move,  p_click,  p_notch, p_key, p_capture, p_decode,
                      p_timer, p_cancel, p_guest, p,     p_log_wait, p_inputs};
  return io;
}
