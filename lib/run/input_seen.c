/* Was a failed step's input lost before it left the browser
 * (docs/reliability.md, "Where the clicks were lost")? The CDP
 * acknowledges an input once the renderer took it, not once the page's
 * client (noVNC, Xpra) sent it on: an input lost in between blames the
 * application for something it never got. So when a step fails as the
 * application's failure, the runner asks the page once what it saw
 * (page/inputlog.h): a trusted DOM event for each input of the gesture
 * (clicks, wheel notches, keys; pointer moves are not asked about), and a
 * message sent after the last of them. The step becomes a fault (exit 3)
 * only on positive evidence:
 * - the page, whose record is whole, saw no such event since the gesture
 *   began; or
 * - it saw them all, but sent nothing after the last one for the step's
 *   timeout, although it had sent messages before it and a WebSocket it
 *   sent on is still open (a page that never sent, or whose connections
 *   closed, as when the server went away, says nothing: the application's),
 *   and its record of HTTP sends (fetch, XHR, sendBeacon, a new
 *   EventSource: sendlog_js.c) is whole and shows none after it either. A
 *   request sent after the input is the input leaving the page ("... and
 *   sent a request by fetch 2.3 ms after its mouseup"); no whole record of
 *   them is "unknown", never a fault.
 * No record (no paint log, a blind one, a query that failed) leaves the
 * verdict as it was. The input is never sent again: a second click could
 * select, or toggle, twice. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "runner.h"

/* A DOM event is the input's when it lies this close to the input's point
 * (guest px: input goes to a pixel's centre, the page floors it) and came
 * no earlier than the gesture, less the clocks' uncertainty and this. */
#define SC__INPUT_NEAR_PX 2.0
#define SC__INPUT_CLOCK_SLACK_MS 5.0
/* The query is answered at once: its own deadline. */
#define SC__INPUT_ASK_MS 2000.0

static int near(const sc__input_event *e, sc_point at) {
  return fabs(e->x - at.x) <= SC__INPUT_NEAR_PX && fabs(e->y - at.y) <= SC__INPUT_NEAR_PX;
}

/* The first event of kind k at or after `from` (index), near `at` unless
 * keys; ev->n when none. */
static size_t find(const sc__input_evidence *ev, size_t from, char k, sc_point at, int dir,
                   double since) {
  for (size_t i = from; i < ev->n; i++) {
    const sc__input_event *e = &ev->ev[i];
    if (e->kind != k || e->at_ms < since) continue;
    if (k != 'k' && !near(e, at)) continue;
    if (k == 'w' && dir && e->dir != dir) continue;
    return i;
  }
  return ev->n;
}

/* The first HTTP send at or after `at` (run clock; both on the page's
 * clock, mapped by one offset), NULL when none. */
static const sc__http_send *http_after(const sc__input_evidence *ev, double at) {
  for (size_t i = 0; ev->http_have && i < ev->nhttp; i++)
    if (ev->http[i].at_ms >= at) return &ev->http[i];
  return NULL;
}

int sc__input_lost(const sc_action *a, double t0, double timeout_ms,
                   const sc__input_evidence *ev, char *why, size_t len) {
  if (len) why[0] = '\0';
  if (!ev || !ev->have) return 0;
  double since = t0 - ev->clock_err - SC__INPUT_CLOCK_SLACK_MS;
  /* the ring must reach back to the gesture, else an event may be gone */
  if (ev->n == SC__INPUT_RING && ev->ev[0].at_ms >= since) return 0;
  sc_point at = a->at;
  size_t last = ev->n, i;
  const char *what = "";
  char took[96]; /* what the page saw of the gesture, when it saw all */
  char over[SC__INPUT_OVER + 48] = ""; /* a click's mousedown given to no canvas */
  switch (a->kind) {
  case SC_ACTION_CLICK:
    if ((i = find(ev, 0, 'd', at, 0, since)) == ev->n) {
      snprintf(why, len, "the page saw no mousedown at (%g,%g)", at.x, at.y);
      return 1;
    }
    if ((last = find(ev, i + 1, 'u', at, 0, since)) == ev->n) {
      snprintf(why, len, "the page saw its mousedown at (%g,%g) but no mouseup", at.x, at.y);
      return 1;
    }
    what = "its mouseup";
    snprintf(took, sizeof took, "its mousedown and mouseup at (%g,%g)", at.x, at.y);
    /* an element over the canvas took it (Xpra's notification box over
     * JOSM's layer list did): the remote display's client never saw it */
    if (ev->ev[i].over[0])
      snprintf(over, sizeof over, " (its mousedown went to %s, not to a canvas)", ev->ev[i].over);
    break;
  case SC_ACTION_WHEEL: {
    int n = a->notches < 0 ? -a->notches : a->notches, seen = 0;
    int dir = a->notches < 0 ? -1 : 1;
    /* notches the page's main thread was too busy for arrive as one
     * event (Chromium coalesces wheel events): none at all is the evidence */
    for (i = find(ev, 0, 'w', at, dir, since); i < ev->n; i = find(ev, i + 1, 'w', at, dir, since))
      seen++, last = i;
    if (!seen) {
      snprintf(why, len, "the page saw none of its %d wheel notches at (%g,%g)", n, at.x, at.y);
      return 1;
    }
    what = "its last wheel notch";
    snprintf(took, sizeof took, "%d wheel event%s for its %d notches at (%g,%g)", seen,
             seen == 1 ? "" : "s", n, at.x, at.y);
    break;
  }
  case SC_ACTION_KEY: {
    int n = a->repeat > 0 ? a->repeat : 1, seen = 0;
    for (i = find(ev, 0, 'k', at, 0, since); i < ev->n; i = find(ev, i + 1, 'k', at, 0, since))
      seen++, last = i;
    if (seen < n) {
      snprintf(why, len, "the page saw %d of its %d keydowns (%s)", seen, n,
               a->key ? a->key : "?");
      return 1;
    }
    what = "its last keydown";
    snprintf(took, sizeof took, "its %d keydown%s (%s)", n, n == 1 ? "" : "s",
             a->key ? a->key : "?");
    break;
  }
  default: /* pointer moves are not asked about */
    return 0;
  }
  const sc__input_event *e = &ev->ev[last];
  const sc__http_send *h = http_after(ev, e->at_ms);
  /* Not lost: what the page did say goes into the failure's message, so
   * a step the application ignored shows that the page took the gesture
   * and when it handed a message on (to a socket or a worker, or by HTTP). */
  if (e->sent_ms >= 0)
    snprintf(why, len, "the page saw %s and handed a message on %.1f ms after %s%s", took,
             e->sent_ms - e->at_ms, what, over);
  else if (h)
    snprintf(why, len, "the page saw %s and sent a request by %s %.1f ms after %s%s", took,
             h->kind, h->at_ms - e->at_ms, what, over);
  else if (!ev->http_have)
    snprintf(why, len, "the page saw %s and handed no message to a socket or worker after %s%s; "
             "whether it sent one by HTTP is unknown (no record of its fetch, XHR or sendBeacon)",
             took, what, over);
  else
    snprintf(why, len, "the page saw %s and handed no message on after %s%s", took, what, over);
  /* (the HTTP ring keeps the newest sends: one after the input is in it) */
  if (e->sent_ms >= 0 || h || !ev->http_have || !e->sent_before || ev->open_sockets <= 0)
    return 0;
  if (ev->now_ms + ev->clock_err < t0 + timeout_ms) return 0; /* the timeout is not over */
  double quiet = ev->now_ms - e->at_ms;
  snprintf(why, len, "the page sent nothing in the %.0f ms after %s%s", quiet, what, over);
  return 1;
}

/* ---- in the step: one query, then the step ends ---- */

static void asked(int status, const char *errmsg, const sc__input_evidence *ev, void *ud) {
  sc__runner *r = ud;
  sc__stepm *sm = &r->sm;
  (void)errmsg;
  /* a query that failed leaves the verdict; a cancel still cancels */
  int rc = sc__runner_reply(r, 0, NULL);
  char why[256];
  sc_step_result *res = sm->res;
  if (rc == 0 && status == 0 &&
      sc__input_lost(&sm->st->action, sm->t0, sm->st->timeout_ms, ev, why, sizeof why)) {
    rc = sc__err(SC_EIO, "input lost before it left the browser: %s (%s)", why,
                 res->reason ? res->reason : "step failed");
    sc__free(res->reason);
    res->reason = sc__strdup(sc_errmsg());
  } else if (rc == 0 && status == 0 && why[0] && res->reason) {
    /* the application's failure, with what the page did with the input */
    char *longer = sc__asprintf("%s; %s", res->reason, why);
    if (longer) {
      sc__free(res->reason);
      res->reason = longer;
    }
  }
  sc__step_finish(r, rc);
}

void sc__step_failed(sc__runner *r) {
  sc__stepm *sm = &r->sm;
  sc_action_kind k = sm->st->action.kind;
  int asks = k == SC_ACTION_CLICK || k == SC_ACTION_WHEEL || k == SC_ACTION_KEY;
  if (!r->io.inputs || !asks || sm->t0 <= 0) {
    sc__step_finish(r, 0);
    return;
  }
  r->io_asked_at = 0; /* not a request the stall rule times: the verdict is in */
  if (r->io.inputs(r->io.ctx, SC__INPUT_ASK_MS, asked, r) < 0) {
    sc__step_finish(r, 0);
    return;
  }
  r->pending = 1;
}
