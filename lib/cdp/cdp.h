/* CDP protocol core: no I/O. Fed whole incoming messages, hands out whole
 * outgoing ones. Owns command ids, the pending-reply table with deadlines,
 * event routing by sessionId (flat sessions) and failure fan-out. */
#ifndef SC_CDP_H
#define SC_CDP_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "stepcheck/common.h"

typedef struct sc__cdp sc__cdp;

/* Reply to one command; fires exactly once.
 * status 0: result is the "result" object (borrowed, valid during the call).
 * status < 0: result NULL, errmsg says why (CDP error text, "timed out after
 * 5000 ms", "target crashed", "connection closed: ..."). */
typedef void (*sc__cdp_reply_cb)(int status, json_t *result, const char *errmsg,
                                 void *userdata);

/* Event; session_id NULL for browser-level events; params borrowed. */
typedef void (*sc__cdp_event_cb)(const char *session_id, const char *method,
                                 json_t *params, void *userdata);

typedef struct sc__cdp_options {
  size_t max_message_bytes; /* incoming messages larger fail with SC_ETOOBIG; 0 = 64 MiB */
  double (*now_ms)(void);   /* clock for deadlines; NULL = sc__now_ms (tests pass a fake) */
} sc__cdp_options;

/* New connection core in *out (caller's, sc__cdp_free); opts NULL = defaults.
 * Returns 0 or SC_ENOMEM. */
int sc__cdp_new(sc__cdp **out, const sc__cdp_options *opts);
/* Fails every pending command with SC_ECLOSED ("connection closed") first.
 * NULL is fine. Never call it from one of this connection's callbacks. */
void sc__cdp_free(sc__cdp *c);

/* Queue a command. params is stolen (may be NULL). session_id NULL = browser.
 * timeout_ms > 0 sets the deadline now + timeout_ms. cb NULL: fire and forget
 * (the reply is dropped). Callbacks may call sc__cdp_send again.
 * On a closed connection it fails at once (callback not called, returns SC_ECLOSED). */
int sc__cdp_send(sc__cdp *c, const char *session_id, const char *method,
                 json_t *params, double timeout_ms, sc__cdp_reply_cb cb,
                 void *userdata, int64_t *id_out);

/* Next queued outgoing message (new NUL-terminated string, caller sc__free),
 * or NULL when none. */
char *sc__cdp_pop_outgoing(sc__cdp *c, size_t *len);

/* One whole incoming message. Replies fire their callback; events go to the
 * event callback. Crash/detach events fail that session's pending commands
 * (Inspector.targetCrashed → SC_ECRASHED, Target.targetCrashed → SC_ECRASHED
 * for the session attached to that targetId, Target.detachedFromTarget →
 * SC_EDETACHED); an error reply on a crashed session is SC_ECRASHED too.
 * A message over the cap: SC_ETOOBIG, dropped, the connection stays usable.
 * A protocol violation (malformed JSON or not UTF-8, not an object, neither
 * id nor method, a non-integer id, a reply to an id never sent, a reply with
 * neither result nor error) closes the connection: every pending command
 * fails at once with SC_EPROTO and the reason, which is also returned (with
 * sc_errmsg() set) and kept (sc__cdp_close_reason). */
int sc__cdp_feed(sc__cdp *c, const char *msg, size_t len);

/* Fail commands whose deadline passed with SC_ETIMEDOUT. */
void sc__cdp_expire(sc__cdp *c);
/* Earliest pending deadline (ms, same clock), or 0 when nothing is pending. */
double sc__cdp_next_deadline(const sc__cdp *c);
/* Number of commands awaiting a reply. */
size_t sc__cdp_pending(const sc__cdp *c);

/* Transport gone: fail every pending command with err and reason (the
 * callbacks' errmsg, verbatim; NULL = sc_strerror(err)); queued outgoing
 * messages are dropped; later sends fail with SC_ECLOSED. A second close is
 * a no-op for what was already failed. */
void sc__cdp_close(sc__cdp *c, int err, const char *reason);
/* Non-zero once sc__cdp_close was called. */
int sc__cdp_is_closed(const sc__cdp *c);
/* Why the connection was closed (the first close's reason); "" while open.
 * Borrowed, valid as long as c. */
const char *sc__cdp_close_reason(const sc__cdp *c);

/* Register the event callback (one; NULL removes it). */
void sc__cdp_on_event(sc__cdp *c, sc__cdp_event_cb cb, void *userdata);

/* Added for the transports and the page layer. */

/* Number of outgoing messages queued (not yet popped). */
size_t sc__cdp_outgoing(const sc__cdp *c);
/* The transport dropped an incoming message over the size cap without
 * buffering it: head/head_len are its first bytes (may be NULL/0), total_len
 * its size. If head shows a reply id ({"id":N,...), that command fails with
 * SC_ETOOBIG. Always returns SC_ETOOBIG (sc_errmsg() set). */
int sc__cdp_feed_oversized(sc__cdp *c, const char *head, size_t head_len,
                           size_t total_len);
/* The cap on incoming messages in bytes (the default applied). */
size_t sc__cdp_max_message_bytes(const sc__cdp *c);
/* Session attached to target_id (learnt from Target.attachedToTarget and
 * Target.attachToTarget replies; forgotten on detach), or NULL. Borrowed,
 * valid until the next feed. */
const char *sc__cdp_session_for_target(const sc__cdp *c, const char *target_id);

#endif
