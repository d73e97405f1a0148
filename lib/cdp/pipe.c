/* The pipe transport for browsers stepcheck launches
 * (--remote-debugging-pipe): Chromium reads commands from its fd 3 and
 * writes replies and events to its fd 4, each message ended by a NUL. Both
 * of our ends are adopted into the loop's lws context as raw files, so the
 * one loop polls them with every websocket. Reads take whole blocks and
 * split them at NULs with memchr: libwebsockets 4.1's client parses a
 * websocket payload one byte at a time, a third of the CPU of a run on
 * real JOSM (docs/benchmarks.md). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client_priv.h"
#include "core/core.h"

#define SC__PIPE_BLOCK (64 * 1024) /* a Linux pipe holds 64 KiB */

static int on_readable(sc__client *cl) {
  char block[SC__PIPE_BLOCK];
  for (;;) {
    ssize_t n = read(cl->pipe_rfd, block, sizeof block);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
    if (n <= 0) {
      sc__client_lost(cl, n == 0 ? "browser closed its pipe" : strerror(errno));
      return -1;
    }
    const char *p = block, *end = block + n;
    while (p < end) {
      const char *z = memchr(p, '\0', (size_t)(end - p));
      size_t piece = (size_t)((z ? z : end) - p);
      if (sc__rx_append(cl, p, piece, 0) < 0 || (z && sc__rx_end(cl) < 0)) return -1;
      p += piece + (z != NULL);
    }
    if ((size_t)n < sizeof block) return 0;
  }
}

/* write() that turns a reader gone into EPIPE without SIGPIPE reaching the
 * process (a library must not kill its host): SIGPIPE is blocked for this
 * thread around the call and a pending one taken back. */
static ssize_t write_nosig(int fd, const void *buf, size_t len) {
  sigset_t set, old;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &set, &old);
  ssize_t n = write(fd, buf, len);
  int e = errno;
  if (n < 0 && e == EPIPE) {
    struct timespec zero = {0, 0};
    while (sigtimedwait(&set, NULL, &zero) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  errno = e;
  return n;
}

static int on_writeable(sc__client *cl) {
  for (;;) {
    if (!cl->ptx) {
      size_t len;
      char *msg = sc__cdp_pop_outgoing(cl->cdp, &len);
      if (!msg) return 0;
      sc__cdp_trace(cl, "out", msg, len);
      cl->ptx = sc__realloc(msg, len + 1);
      if (!cl->ptx) {
        sc__free(msg);
        sc__client_lost(cl, "out of memory sending a message");
        return -1;
      }
      cl->ptx[len] = '\0';
      cl->ptx_len = len + 1;
      cl->ptx_off = 0;
    }
    ssize_t n = write_nosig(cl->pipe_wfd, cl->ptx + cl->ptx_off, cl->ptx_len - cl->ptx_off);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      lws_callback_on_writable(cl->pipe_w);
      return 0;
    }
    if (n < 0) {
      sc__client_lost(cl, strerror(errno));
      return -1;
    }
    cl->ptx_off += (size_t)n;
    if (cl->ptx_off < cl->ptx_len) continue;
    sc__free(cl->ptx);
    cl->ptx = NULL;
  }
}

int sc__pipe_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                      size_t len) {
  (void)user, (void)in, (void)len;
  sc__client *cl = lws_get_opaque_user_data(wsi);
  if (!cl || cl->destroying) return 0;
  switch (reason) {
  case LWS_CALLBACK_RAW_RX_FILE:
    if (wsi == cl->pipe_r && !cl->lost) on_readable(cl);
    break;
  case LWS_CALLBACK_RAW_WRITEABLE_FILE:
    if (wsi == cl->pipe_w && !cl->lost) on_writeable(cl);
    break;
  case LWS_CALLBACK_RAW_CLOSE_FILE:
    if (wsi == cl->pipe_r) {
      sc__client_lost(cl, "browser closed its pipe");
      cl->pipe_r = NULL;
      cl->pipe_rfd = -1; /* lws closed it */
    } else if (wsi == cl->pipe_w) {
      cl->pipe_w = NULL;
      cl->pipe_wfd = -1;
    }
    break;
  default:
    break;
  }
  return 0;
}

static struct lws *adopt(sc__client *cl, int fd) {
  struct lws_context *ctx = sc__loop_lws(cl->loop);
  struct lws_vhost *vh = lws_get_vhost_by_name(ctx, "default");
  lws_sock_file_fd_type d;
  d.filefd = fd;
  struct lws *wsi = vh ? lws_adopt_descriptor_vhost(vh, LWS_ADOPT_RAW_FILE_DESC, d,
                                                     SC__PIPE_PROTOCOL, NULL)
                       : NULL;
  if (wsi) lws_set_opaque_user_data(wsi, cl);
  return wsi;
}

int sc__pipe_open(sc__client *cl, int rfd, int wfd) {
  cl->pipe_rfd = rfd;
  cl->pipe_wfd = wfd;
  if (fcntl(rfd, F_SETFL, fcntl(rfd, F_GETFL) | O_NONBLOCK) < 0 ||
      fcntl(wfd, F_SETFL, fcntl(wfd, F_GETFL) | O_NONBLOCK) < 0)
    return sc__err(SC_EIO, "cdp: pipe: %s", strerror(errno));
  if (!(cl->pipe_r = adopt(cl, rfd)) || !(cl->pipe_w = adopt(cl, wfd)))
    return sc__err(SC_EIO, "cdp: pipe: the loop cannot watch it");
  cl->established = 1;
  return 0;
}

void sc__pipe_want_write(sc__client *cl) {
  if (cl->pipe_w && !cl->lost && (cl->ptx || sc__cdp_outgoing(cl->cdp)))
    lws_callback_on_writable(cl->pipe_w);
}

void sc__pipe_close(sc__client *cl) {
  cl->destroying = 1;
  /* lws closes an adopted descriptor with its wsi; one never adopted (or
   * already closed by lws) is ours to close. */
  if (cl->pipe_r)
    lws_set_timeout(cl->pipe_r, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_SYNC);
  else if (cl->pipe_rfd >= 0)
    close(cl->pipe_rfd);
  if (cl->pipe_w)
    lws_set_timeout(cl->pipe_w, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_SYNC);
  else if (cl->pipe_wfd >= 0)
    close(cl->pipe_wfd);
  cl->pipe_r = cl->pipe_w = NULL;
  cl->pipe_rfd = cl->pipe_wfd = -1;
  sc__free(cl->ptx);
  cl->ptx = NULL;
}
