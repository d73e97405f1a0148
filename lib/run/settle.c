/* The runner's side of its proof of rest (rest/rest.h): the rest object
 * set up on first use with the runner's hooks (its replies, its one
 * outstanding request, its one timer), its configuration from the
 * scenario, and the settled capture of a clip as the runner's callers take
 * it (r->settle), with what the seed's covering capture taught the plan. */
#include <string.h>

#include "core/core.h"
#include "core/debug.h"
#include "runner.h"

static int hook_reply(void *ud, int status, const char *errmsg) {
  return sc__runner_reply(ud, status, errmsg);
}

static void hook_asked(void *ud, int timed) {
  sc__runner *r = ud;
  r->pending = 1;
  /* a wait in the page is no stall of the browser's (the stall rule times
   * requests from here) */
  r->io_asked_at = timed ? sc__now_ms() : 0;
}

static void hook_tick(sc__runner *r) {
  void (*fn)(void *) = r->timer_gfn;
  void *arg = r->timer_arg;
  r->timer_gfn = NULL;
  r->timer_arg = NULL;
  fn(arg);
}

static int hook_after(void *ud, double at_ms, void (*fn)(void *arg), void *arg) {
  sc__runner *r = ud;
  r->timer_gfn = fn;
  r->timer_arg = arg;
  return sc__runner_after(r, at_ms, hook_tick);
}

static sc__rest_config config(const sc__runner *r) {
  const sc_scenario *s = r->s;
  sc__rest_config c = {0};
  c.fast = r->fast_capture;
  c.trust = (sc__debug() & SC_DEBUG_LOG_TRUST) != 0;
  if (s) {
    c.pairs = s->rest_pairs;
    c.quiet_ms = s->rest_quiet_ms;
    c.capture_ms = s->rest_capture_ms;
    c.self_first = s->self_check_first;
    c.self_every = s->self_check_every;
  }
  return c;
}

sc__rest *sc__runner_rest(sc__runner *r) {
  if (!r->rest.io) {
    sc__rest_owner own = {hook_reply, hook_asked, hook_after, r};
    sc__rest_init(&r->rest, &r->io, own, config(r));
  } else {
    r->rest.cfg = config(r); /* r->s may be a located copy by now */
  }
  return &r->rest;
}

int sc__runner_logging(sc__runner *r) { return sc__rest_logging(sc__runner_rest(r)); }

/* The rest object's answer, as the runner's callers take it. */
static void settled(void *ud, const sc__rest_proof *p) {
  sc__runner *r = ud;
  sc__settle *st = &r->settle;
  sc__frame_free(&st->f);
  sc__frame_move(&st->f, p->f);
  st->seq = p->mark.seq;
  st->seq_ok = p->mark.ok;
  if (p->seed_used >= 0) sc__runner_cover_used(r, p->seed_used);
  st->done(r, p->rc);
}

static void settle(sc__runner *r, sc_rect clip, double deadline, double quiet_ms,
                   sc__settle_done done, sc__frame *seed) {
  sc__settle *st = &r->settle;
  sc__rest_mark mark = {r->seed_seq, r->seed_ok};
  r->seed_ok = 0;
  sc__frame_free(&st->f);
  st->seq = 0;
  st->seq_ok = 0;
  st->done = done;
  st->begun = sc__now_ms();
  sc__rest_settle(sc__runner_rest(r), clip, deadline, quiet_ms, seed, mark, settled, r);
}

void sc__runner_settle(sc__runner *r, sc_rect clip, double deadline, sc__settle_done done,
                       sc__frame *seed) {
  settle(r, clip, deadline, 0, done, seed);
}

void sc__runner_settle_quiet(sc__runner *r, sc_rect clip, double deadline, double quiet_ms,
                             sc__settle_done done) {
  r->seed_ok = 0; /* fresh captures: a seed's age is unknown */
  settle(r, clip, deadline, quiet_ms, done, NULL);
}
