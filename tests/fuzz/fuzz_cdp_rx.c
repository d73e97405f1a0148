/* Fuzz target: the received-message assembler both transports share
 * (lib/cdp/rx.c), driven the way pipe.c (NUL-framed blocks) and ws.c
 * (websocket fragments, with the rest of a frame known or not) drive it,
 * each finished message then fed to the CDP core as sc__client_pump does.
 *
 * Input: byte 0 = flags, byte 1 = piece size - 1, the rest = the stream.
 *   flags & 15   cap: 16 << (flags & 15) bytes
 *   flags & 16   websocket mode, else pipe mode
 * Pipe mode: the stream is read in blocks of the piece size and split at
 * NULs, as pipe.c's on_readable does. Websocket mode: the stream is frames
 * [length][bits][payload]: bits & 1 = final fragment, bits & 2 = the
 * transport knows the rest of the frame (lws_remaining_packet_payload);
 * each frame arrives in pieces of the piece size.
 * Invariants checked against the harness' own copy of every message: a
 * message within the cap arrives whole and NUL-terminated; one over it
 * arrives as its size and first bytes; nothing else arrives. */
#include <string.h>

#include "cdp/client_priv.h"
#include "core/core.h"
#include "fuzz.h"

static double fake_now(void) { return 0; }

/* The harness' copy of the message being assembled. */
static struct {
  uint8_t buf[1 << 16];
  size_t len;
  int over;
} want;

static sc__client cl;

static void expect_append(const char *in, size_t len, size_t rest) {
  if (want.len + len <= sizeof want.buf) memcpy(want.buf + want.len, in, len);
  want.len += len;
  if (want.len + rest > cl.max_bytes) want.over = 1;
}

/* The message just ended must be the only one queued: check it, feed it. */
static void take(void) {
  sc__rxmsg *m = sc__rx_pop(&cl);
  FUZZ_CHECK(m != NULL);
  FUZZ_CHECK(m->len == want.len);
  if (want.over) {
    FUZZ_CHECK(m->data == NULL);
    size_t h = want.len < sizeof m->head ? want.len : sizeof m->head;
    FUZZ_CHECK(m->head_len == h && memcmp(m->head, want.buf, h) == 0);
    sc__cdp_feed_oversized(cl.cdp, m->head, m->head_len, m->len);
  } else {
    FUZZ_CHECK(m->data != NULL && m->data[m->len] == '\0');
    FUZZ_CHECK(memcmp(m->data, want.buf, m->len) == 0);
    sc__cdp_feed(cl.cdp, m->data, m->len);
  }
  sc__free(m->data);
  sc__free(m);
  FUZZ_CHECK(sc__rx_pop(&cl) == NULL);
  want.len = 0;
  want.over = 0;
}

static void append(const char *p, size_t n, size_t rest) {
  expect_append(p, n, rest);
  FUZZ_CHECK(sc__rx_append(&cl, p, n, rest) == 0);
}

static void pipe_mode(const char *p, const char *end, size_t block) {
  while (p < end) {
    const char *bend = (size_t)(end - p) < block ? end : p + block;
    while (p < bend) {
      const char *z = memchr(p, '\0', (size_t)(bend - p));
      size_t piece = (size_t)((z ? z : bend) - p);
      append(p, piece, 0);
      if (z) {
        FUZZ_CHECK(sc__rx_end(&cl) == 0);
        take();
      }
      p += piece + (z != NULL);
    }
  }
}

static void ws_mode(const char *p, const char *end, size_t piece) {
  while (end - p >= 2) {
    size_t flen = (uint8_t)p[0];
    int bits = (uint8_t)p[1];
    p += 2;
    if (flen > (size_t)(end - p)) flen = (size_t)(end - p);
    const char *fend = p + flen;
    do {
      size_t n = (size_t)(fend - p) < piece ? (size_t)(fend - p) : piece;
      size_t rest = bits & 2 ? (size_t)(fend - p) - n : 0;
      append(p, n, rest);
      p += n;
      /* as ws.c: the message ends with a final fragment's last known byte */
      if ((bits & 1) && rest == 0) {
        FUZZ_CHECK(sc__rx_end(&cl) == 0);
        take();
      }
    } while (p < fend);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2 || size > sizeof want.buf) return 0;
  memset(&cl, 0, sizeof cl);
  want.len = 0;
  want.over = 0;
  cl.max_bytes = (size_t)16 << (data[0] & 15);
  sc__cdp_options o = {cl.max_bytes, fake_now};
  if (sc__cdp_new(&cl.cdp, &o) != 0) return 0;
  /* Two commands so replies 1 and 2 have someone waiting (and the
   * oversized path fails one of them). */
  sc__cdp_send(cl.cdp, NULL, "Browser.getVersion", NULL, 0, NULL, NULL, NULL);
  sc__cdp_send(cl.cdp, "S1", "Page.captureScreenshot", NULL, 5000, NULL, NULL, NULL);
  size_t piece = (size_t)data[1] + 1;
  const char *p = (const char *)data + 2, *end = (const char *)data + size;
  if (data[0] & 16)
    ws_mode(p, end, piece);
  else
    pipe_mode(p, end, piece);
  /* A message cut off by the end of the stream is dropped with the queue. */
  sc__rx_drop_queue(&cl);
  FUZZ_CHECK(cl.rx == NULL && sc__rx_pop(&cl) == NULL);
  sc__cdp_free(cl.cdp);
  return 0;
}
