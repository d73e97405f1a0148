/* The compositor witness (witness.h): the screencast's frames, ours told
 * from the page's, and each of the page's judged against the paint log's
 * entry times when the log answers. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tab.h"
#include "witness.h"

int sc__witness_ours(sc_page *p, int frames, double timeout_ms) {
  sc__witness *w = &p->wit;
  double now = sc__now_ms();
  int k = 0;
  for (int i = 0; i < SC__WITNESS_OURS; i++) {
    if (w->ours[i].until < now || w->ours[i].credit <= 0) { /* free, expired, spent */
      k = i;
      break;
    }
    if (w->ours[i].until < w->ours[k].until) k = i;
  }
  w->ours[k] = (struct sc__witness_ours){now, now + timeout_ms + SC__WITNESS_OURS_MS, frames};
  return k;
}

void sc__witness_ours_end(sc_page *p, int slot) {
  if (slot < 0 || slot >= SC__WITNESS_OURS) return;
  double until = sc__now_ms() + SC__WITNESS_OURS_MS;
  if (p->wit.ours[slot].until > until) p->wit.ours[slot].until = until;
}

void sc__witness_started(sc_page *p, int ok, const char *why) {
  sc__witness *w = &p->wit;
  w->state = ok ? 1 : -1;
  if (!ok) snprintf(w->err, sizeof w->err, "%s", why ? why : "");
  /* the screencast sends the frame it starts with (measured: up to 340 ms
   * later on a page at rest) */
  sc__witness_ours(p, 1, SC__WITNESS_START_MS);
}

/* A frame at t made by something of ours: its credit is spent. */
static int ours(sc__witness *w, double t) {
  int k = -1;
  for (int i = 0; i < SC__WITNESS_OURS; i++) {
    const struct sc__witness_ours *o = &w->ours[i];
    if (o->credit > 0 && t >= o->from && t <= o->until && (k < 0 || o->from < w->ours[k].from))
      k = i;
  }
  if (k < 0) return 0;
  w->ours[k].credit--;
  return 1;
}

void sc__witness_frame(sc_page *p, json_t *params) {
  sc__witness *w = &p->wit;
  json_t *sid = json_object_get(params, "sessionId");
  if (json_is_integer(sid)) /* the next frame comes only once this one is acked */
    sc__cdp_send(sc__client_cdp(p->cl), p->session_id, "Page.screencastFrameAck",
                 json_pack("{s:I}", "sessionId", (json_int_t)json_integer_value(sid)), 5000, NULL,
                 NULL, NULL);
  if (w->state != 1) return;
  /* When the compositor drew it: the frame's own timestamp (the browser's
   * wall clock, seconds) on our clock, as its smallest lag to our receipt
   * so far maps it; our receipt can come much later when the loop was
   * busy or the host did not run it. No timestamp: the receipt. */
  double got = sc__now_ms(), t = got;
  json_t *ts = json_object_get(json_object_get(params, "metadata"), "timestamp");
  if (json_is_number(ts)) {
    double at = json_number_value(ts) * 1000, lag = got - at;
    if (!w->lag_ok || lag < w->lag) w->lag = lag, w->lag_ok = 1;
    t = at + w->lag;
  }
  w->frames_total++;
  if (ours(w, t)) return;
  if (w->nframes == SC__WITNESS_FRAMES) {
    w->frames_lost = 1;
    memmove(w->frames, w->frames + 1, (SC__WITNESS_FRAMES - 1) * sizeof *w->frames);
    w->nframes--;
  }
  w->frames[w->nframes++] = t;
}

/* Is there an entry in (from, to]? The ring is in time order. */
static int entry_in(const sc__witness *w, double from, double to) {
  size_t n = w->nents < SC__WITNESS_ENTS ? w->nents : SC__WITNESS_ENTS;
  for (size_t k = 0; k < n; k++) {
    double e = w->ents[(w->nents - 1 - k) % SC__WITNESS_ENTS];
    if (e <= from) return 0; /* older ones are older still */
    if (e <= to) return 1;
  }
  return 0;
}

int sc__witness_judge(sc_page *p, const double *ents, size_t n, int lost, double until) {
  sc__witness *w = &p->wit;
  if (w->state != 1) return 0;
  if (lost && n > 0 && ents[0] > w->ents_lost_until) w->ents_lost_until = ents[0];
  for (size_t i = 0; i < n; i++) {
    if (ents[i] < 0) continue;
    double last = w->nents ? w->ents[(w->nents - 1) % SC__WITNESS_ENTS] : -1;
    w->ents[w->nents++ % SC__WITNESS_ENTS] = ents[i] > last ? ents[i] : last;
  }
  int bad = 0;
  size_t k = 0;
  for (; k < w->nframes && w->frames[k] <= until; k++) {
    double t = w->frames[k];
    /* an entry since the frame before (or just before this one), and
     * never longer ago than the lag a busy compositor may add */
    double from = t - SC__WITNESS_NEAR_MS;
    if (w->prev > 0 && w->prev - SC__WITNESS_CLOCK_MS < from) from = w->prev - SC__WITNESS_CLOCK_MS;
    if (w->prev <= 0 || from < t - SC__WITNESS_LAG_MS) from = t - SC__WITNESS_LAG_MS;
    w->prev = t;
    if (t <= w->ents_lost_until) continue;
    if (!entry_in(w, from, t + SC__WITNESS_AFTER_MS)) bad++;
  }
  memmove(w->frames, w->frames + k, (w->nframes - k) * sizeof *w->frames);
  w->nframes -= k;
  if (w->frames_lost) {
    w->frames_lost = 0;
    bad++;
  }
  w->unexplained_total += bad;
  return bad;
}
