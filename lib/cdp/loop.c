/* The event loop: one lws context for every connection on it, timers, and
 * the service round that moves bytes, feeds the protocol cores, expires
 * deadlines and runs due timers. Callbacks run after lws_service()
 * returned, never from inside libwebsockets. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "client_priv.h"
#include "core/core.h"
#include "loop.h"

/* lws sizes its fd tables by this; a generator holds a few browser
 * connections and its own pipes, far below it. */
#define SC__LOOP_FD_LIMIT 1024

typedef struct sc__timer {
  sc__timer_id id;
  double at;
  sc__timer_cb cb;
  void *ud;
} sc__timer;

struct sc_loop {
  struct lws_context *ctx;
  lws_sorted_usec_list_t sul; /* wakes lws_service() by our deadline */
  sc__client **cl;
  size_t ncl, capcl;
  sc__timer *t;
  size_t nt, capt;
  sc__timer_id next_id;
  int running; /* inside a round: a blocking call from a callback is refused */
};

SC_EXTERN int sc_loop_new(sc_loop **out) {
  if (!out) return sc__err(SC_EINVAL, "sc_loop_new: out is NULL");
  *out = NULL;
  sc_loop *l = sc__calloc(1, sizeof *l);
  if (!l) return sc__err(SC_ENOMEM, "loop: out of memory");
  /* Long-lived, shared by connections with deadlines of their own: lws'
   * default round-trip timeouts. */
  l->ctx = sc__lws_context_new(sc__ws_protocols, NULL, SC__WS_CHUNK, SC__LOOP_FD_LIMIT, 0);
  if (!l->ctx) {
    sc__free(l);
    return sc__err(SC_ENOMEM, "loop: cannot create the libwebsockets context");
  }
  l->next_id = 1;
  *out = l;
  return 0;
}

SC_EXTERN void sc_loop_free(sc_loop *l) {
  if (!l) return;
  if (l->running) { /* from inside one of its own callbacks */
    sc__err(SC_EBUSY, "sc_loop_free: called from inside one of the loop's callbacks: nothing "
                      "freed (free it after the loop returns)");
    return;
  }
  lws_sul_cancel(&l->sul);
  lws_context_destroy(l->ctx);
  sc__free(l->cl);
  sc__free(l->t);
  sc__free(l);
}

struct lws_context *sc__loop_lws(sc_loop *l) { return l->ctx; }

int sc__loop_attach(sc_loop *l, sc__client *cl) {
  if (l->ncl == l->capcl) {
    size_t cap = l->capcl ? l->capcl * 2 : 4;
    sc__client **p = sc__realloc(l->cl, cap * sizeof *p);
    if (!p) return sc__err(SC_ENOMEM, "loop: out of memory");
    l->cl = p;
    l->capcl = cap;
  }
  l->cl[l->ncl++] = cl;
  return 0;
}

void sc__loop_detach(sc_loop *l, sc__client *cl) {
  for (size_t i = 0; i < l->ncl; i++)
    if (l->cl[i] == cl) {
      memmove(l->cl + i, l->cl + i + 1, (l->ncl - i - 1) * sizeof *l->cl);
      l->ncl--;
      return;
    }
}

sc__timer_id sc__loop_timer(sc_loop *l, double at_ms, sc__timer_cb cb, void *ud) {
  if (l->nt == l->capt) {
    size_t cap = l->capt ? l->capt * 2 : 16;
    sc__timer *p = sc__realloc(l->t, cap * sizeof *p);
    if (!p) {
      sc__err(SC_ENOMEM, "loop: out of memory (timer)");
      return 0;
    }
    l->t = p;
    l->capt = cap;
  }
  sc__timer_id id = l->next_id++;
  l->t[l->nt++] = (sc__timer){id, at_ms, cb, ud};
  return id;
}

void sc__loop_cancel(sc_loop *l, sc__timer_id id) {
  if (!id) return;
  for (size_t i = 0; i < l->nt; i++)
    if (l->t[i].id == id) {
      l->t[i] = l->t[--l->nt]; /* order does not matter: due ones are picked by time */
      return;
    }
}

/* Index of the earliest timer, or nt when none. */
static size_t earliest(const sc_loop *l) {
  size_t best = l->nt;
  for (size_t i = 0; i < l->nt; i++)
    if (best == l->nt || l->t[i].at < l->t[best].at ||
        (l->t[i].at == l->t[best].at && l->t[i].id < l->t[best].id))
      best = i;
  return best;
}

/* Run the timers due now, earliest first. Timers added while running wait
 * for the next round (their id is past the limit), so a timer that re-arms
 * itself at "now" cannot spin here forever. */
static int run_timers(sc_loop *l) {
  sc__timer_id limit = l->next_id;
  int ran = 0;
  for (;;) {
    double now = sc__now_ms();
    size_t best = l->nt;
    for (size_t i = 0; i < l->nt; i++)
      if (l->t[i].id < limit && l->t[i].at <= now &&
          (best == l->nt || l->t[i].at < l->t[best].at ||
           (l->t[i].at == l->t[best].at && l->t[i].id < l->t[best].id)))
        best = i;
    if (best == l->nt) return ran;
    sc__timer t = l->t[best];
    l->t[best] = l->t[--l->nt];
    t.cb(t.ud);
    ran++;
  }
}

/* Our wake-up fired: lws may have run it before entering poll(), in which
 * case the poll would sleep until lws' own next timer, so also cancel the
 * wait. */
static void wake(lws_sorted_usec_list_t *sul) {
  sc_loop *l = (sc_loop *)((char *)sul - offsetof(sc_loop, sul));
  lws_cancel_service(l->ctx);
}

/* The earliest of until (ms, monotonic), our timers and the connections'
 * deadlines. */
static double next_wake(const sc_loop *l, double until) {
  size_t e = earliest(l);
  if (e < l->nt && l->t[e].at < until) until = l->t[e].at;
  for (size_t i = 0; i < l->ncl; i++) {
    double d = sc__cdp_next_deadline(l->cl[i]->cdp);
    if (d > 0 && d < until) until = d;
  }
  return until;
}

static int busy_err(const char *fn) {
  return sc__err(SC_EBUSY, "%s: the loop is already running (a blocking call from inside one "
                           "of its callbacks: use the asynchronous call, or return first)", fn);
}

int sc__loop_busy(const sc_loop *l, const char *fn) { return l && l->running ? busy_err(fn) : 0; }

int sc__loop_running(const sc_loop *l) { return l && l->running; }

/* One round: wait up to timeout_ms (0: not at all) for I/O or a deadline,
 * move bytes, feed the protocol cores, run due timers and callbacks. */
static int round_once(sc_loop *l, double timeout_ms) {
  double now = sc__now_ms();
  for (size_t i = 0; i < l->ncl; i++) sc__ws_want_write(l->cl[i]);
  double wake_at = next_wake(l, now + (timeout_ms > 0 ? timeout_ms : 0));
  if (wake_at - now >= 1.0) {
    /* lws_service() sleeps until its own next timer or I/O; a timer of
     * ours makes it return by our deadline. */
    lws_usec_t us = (lws_usec_t)((wake_at - now) * 1000.0) + 1;
    lws_sul_schedule(l->ctx, 0, &l->sul, wake, us);
    lws_service(l->ctx, 0);
    lws_sul_cancel(&l->sul);
  } else {
    lws_service(l->ctx, -1); /* poll without waiting */
  }
  int handled = 0;
  /* A callback may free a connection (and detach it): walk by index and
   * re-check the bound each time. */
  for (size_t i = 0; i < l->ncl; i++) handled += sc__client_pump(l->cl[i]);
  handled += run_timers(l);
  return handled;
}

int sc__loop_service(sc_loop *l, double timeout_ms) {
  if (l->running) return busy_err("loop");
  l->running = 1;
  int n = round_once(l, timeout_ms);
  l->running = 0;
  return n;
}

/* ------------------------------------------------ a loop run by the host */

/* Longest the host may sleep with nothing due of ours: lws' own timers
 * (connect and close timeouts) are not visible from outside it. */
#define SC__HOST_WAIT_MAX_MS 1000
/* ... and while a connection has no socket to watch yet. */
#define SC__HOST_CONNECTING_MS 5

SC_EXTERN int sc_loop_fds(sc_loop *l, struct pollfd *fds, int max) {
  if (!l || max < 0 || (max > 0 && !fds)) return sc__err(SC_EINVAL, "sc_loop_fds: NULL loop or fds");
  int n = 0;
  for (size_t i = 0; i < l->ncl; i++) {
    struct pollfd two[2];
    int k = sc__client_watch(l->cl[i], two);
    for (int j = 0; j < k; j++, n++)
      if (n < max) fds[n] = two[j];
  }
  return n;
}

SC_EXTERN int sc_loop_timeout(sc_loop *l) {
  if (!l) return sc__err(SC_EINVAL, "sc_loop_timeout: loop is NULL");
  double now = sc__now_ms();
  double ms = next_wake(l, now + SC__HOST_WAIT_MAX_MS) - now;
  for (size_t i = 0; i < l->ncl; i++) {
    struct pollfd two[2];
    if (sc__client_watch(l->cl[i], two) < 0 && ms > SC__HOST_CONNECTING_MS)
      ms = SC__HOST_CONNECTING_MS;
  }
  int out = ms <= 0 ? 0 : (int)(ms + 0.999);
  return lws_service_adjust_timeout(l->ctx, out, 0); /* 0 when lws has work buffered */
}

SC_EXTERN int sc_loop_step(sc_loop *l) {
  if (!l) return sc__err(SC_EINVAL, "sc_loop_step: loop is NULL");
  int rc = sc__loop_busy(l, "sc_loop_step");
  return rc ? rc : sc__loop_service(l, 0);
}
