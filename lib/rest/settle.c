/* The settle job (rest.h): a frame of a clip at rest by a deadline.
 * On the paint log the screen is at rest when no paint touched the clip
 * for the quiet time (the log waits in the page: no capture, no polling);
 * one capture then, settled when no paint touched the clip between the
 * log's answer before it and the one after it. A seed proven settled at a
 * log position is the answer without a screenshot when nothing touched the
 * clip since. By pairs: captures until one shows the pixels of the one
 * before it, held for the quiet time where the log turned out blind
 * (sc__rest_pairs_hold). The log going blind mid-way hands the same job
 * to pairs. */
#include <string.h>

#include "core/core.h"
#include "rest/rest.h"

static void finish(sc__rest *rs, int rc) {
  sc__rest_job *j = &rs->j;
  sc__rest_proof p = {.rc = rc, .mark = j->mark, .seed_used = j->cap_early};
  p.at = p.proven = sc__now_ms();
  p.mark.ok = rc == 0 && j->mark.ok;
  sc__rest_end(rs, &p);
}

/* ---- by pairs ---- */

static void pairs_next(void *arg);

/* A capture's reply taken into j->f, held packed until the next capture
 * (or whoever takes it) looks at it; *same: it shows the pixels f had. */
static int take(sc__rest *rs, int status, const char *errmsg, const char *raw, size_t len,
                int *same) {
  sc__rest_job *j = &rs->j;
  int rc = rs->own.reply(rs->own.ud, status, errmsg);
  if (rc == 0) rc = sc__rest_take(rs->io, &j->f, NULL, j->clip, raw, len, same, NULL);
  if (rc == 0) rc = sc__frame_hold(&j->f);
  return rc;
}

static void pairs_captured(int status, const char *errmsg, const char *raw, size_t len,
                           void *ud) {
  sc__rest *rs = ud;
  sc__rest_job *j = &rs->j;
  int same = 0;
  int rc = take(rs, status, errmsg, raw, len, &same);
  if (rc < 0) {
    finish(rs, rc);
    return;
  }
  double now = sc__now_ms();
  /* new pixels, or a seed's seen again: the quiet time counts from here */
  if (!same || j->since <= 0) j->since = now;
  if (same && sc__rest_pairs_hold(j->since, j->cap_req_at, j->quiet_ms)) {
    finish(rs, 0);
    return;
  }
  if (now >= j->deadline) {
    finish(rs, SC__NOT_AT_REST);
    return;
  }
  if (same && !sc__rest_blind_quiet(rs)) {
    /* unchanged, not yet for long enough: look again a little later */
    double at = j->since + j->quiet_ms;
    if (at > now + SC__QUIET_POLL_MS) at = now + SC__QUIET_POLL_MS;
    if (at > j->deadline) at = j->deadline;
    if (rs->own.after(rs->own.ud, at, pairs_next, rs) < 0) finish(rs, SC_ENOMEM);
    return;
  }
  /* a change, or a page the log is blind on: every capture in the quiet
   * time is compared with the one before it, so a change that comes and
   * goes inside it is seen */
  pairs_next(rs);
}

static void pairs_next(void *arg) {
  sc__rest *rs = arg;
  sc__rest_job *j = &rs->j;
  j->cap_req_at = sc__now_ms();
  int rc = sc__rest_capture(rs, j->clip, j->deadline, pairs_captured);
  if (rc < 0) finish(rs, rc);
}

/* The log stopped answering for this page: pairs take over the same job. */
static void to_pairs(sc__rest *rs) {
  sc__rest_job *j = &rs->j;
  double q = sc__rest_blind_quiet(rs);
  if (j->quiet_ms < q) j->quiet_ms = q;
  j->mark.ok = 0;
  pairs_next(rs);
}

/* ---- by the log ---- */

static void log_wait_rest(sc__rest *rs);

/* An answer: 1 when the job goes on with it; 0 when it ended (an error)
 * or went on by pairs (the log is blind, or the witness saw more). */
static int answered(sc__rest *rs, int status, const char *errmsg, const sc__log_reply *rep) {
  int rc = rs->own.reply(rs->own.ud, status, errmsg);
  if (rc < 0) {
    finish(rs, rc);
    return 0;
  }
  if (!sc__rest_have(rs, rep)) {
    to_pairs(rs);
    return 0;
  }
  return 1;
}

static void log_post(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__rest *rs = ud;
  sc__rest_job *j = &rs->j;
  if (!answered(rs, status, errmsg, rep)) return;
  if (rep->n == 0) { /* nothing touched the clip across the capture */
    j->mark = (sc__rest_mark){rep->seq, 1};
    finish(rs, 0);
    return;
  }
  if (sc__now_ms() >= j->deadline) {
    finish(rs, SC__NOT_AT_REST);
    return;
  }
  log_wait_rest(rs); /* it painted during the capture: at rest after that */
}

static void log_captured(int status, const char *errmsg, const char *raw, size_t len,
                         void *ud) {
  sc__rest *rs = ud;
  sc__rest_job *j = &rs->j;
  int same = 0;
  int rc = take(rs, status, errmsg, raw, len, &same);
  if (rc == 0) rc = sc__rest_ask(rs, j->clip, j->after, 0, 0, 0, j->deadline, NULL, log_post);
  if (rc < 0) finish(rs, rc);
}

/* cap_early holds the seed's outcome here: -1 none, 1 used, 0 not */
static void seed_outcome(sc__rest_job *j, int used) {
  if (j->cap_early < 0 && j->mark.ok) j->cap_early = used;
}

static void log_rested(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  sc__rest *rs = ud;
  sc__rest_job *j = &rs->j;
  int rc;
  if (!answered(rs, status, errmsg, rep)) return;
  if (rep->timed_out) { /* it kept painting until the deadline */
    finish(rs, SC__NOT_AT_REST);
    return;
  }
  if (j->mark.ok && rep->n == 0 && !rep->lost && sc__frame_has(&j->f)) {
    seed_outcome(j, 1);
    finish(rs, 0); /* the seed, proven at its mark, still shows the clip */
    return;
  }
  seed_outcome(j, 0);
  j->mark.ok = 0;
  j->after = rep->seq;
  if ((rc = sc__rest_capture(rs, j->clip, j->deadline, log_captured)) < 0) finish(rs, rc);
}

static void log_wait_rest(sc__rest *rs) {
  sc__rest_job *j = &rs->j;
  double q = j->quiet_ms > 0 ? j->quiet_ms : sc__rest_quiet_ms(rs);
  int rc = sc__rest_ask(rs, j->clip, j->mark.ok ? j->mark.seq : j->after, q, q, 0, j->deadline,
                        NULL, log_rested);
  if (rc < 0) finish(rs, rc);
}

void sc__rest_settle(sc__rest *rs, sc_rect clip, double deadline, double quiet_ms,
                     sc__frame *seed, sc__rest_mark mark, sc__rest_done done, void *ud) {
  sc__rest_job *j = &rs->j;
  sc__frame_free(&j->f);
  sc__frame_free(&j->prev);
  memset(j, 0, sizeof *j);
  j->kind = SC__REST_SETTLE;
  if (seed && sc__frame_has(seed) && !memcmp(&seed->clip, &clip, sizeof clip)) {
    /* Exactly the clip (a composed seed, or a last capture of the same
     * clip): taken as it is, its bytes' hash too, which is a capture of
     * this clip. */
    sc__frame_move(&j->f, seed);
    if (sc__frame_hold(&j->f) < 0) sc__frame_free(&j->f);
  } else if (seed && sc__frame_has(seed) && sc__frame_crop(&j->f.img, seed, clip) == 0) {
    /* A part of it: no bytes to compare with (rawhash 0), so the first
     * capture is decoded and compared pixel by pixel. Out of memory: no
     * seed, two captures. */
    j->f.clip = clip;
    if (sc__frame_hold(&j->f) < 0) sc__frame_free(&j->f);
  }
  j->mark.ok = mark.ok && sc__frame_has(&j->f);
  j->mark.seq = mark.seq;
  j->cap_early = -1;
  j->after = SC__LOG_FROM_NOW; /* no seed: from the log's position now */
  j->begun = sc__now_ms();
  j->clip = clip;
  j->deadline = deadline;
  j->done = done;
  j->ud = ud;
  /* a page the log is blind on: unchanged for the quiet time, not only
   * twice in a row (docs/design.md, "The rule of rest") */
  double bq = sc__rest_blind_quiet(rs);
  j->quiet_ms = quiet_ms > bq ? quiet_ms : bq;
  j->since = 0;
  if (sc__rest_logging(rs)) {
    j->quiet_ms = quiet_ms > 0 ? quiet_ms : 0;
    log_wait_rest(rs);
  } else {
    pairs_next(rs);
  }
}
