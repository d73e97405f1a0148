/* Private parts of the CDP core shared by cdp.c (messages) and pending.c
 * (pending table, session map, failure fan-out). Not for other layers. */
#ifndef SC_CDP_PRIV_H
#define SC_CDP_PRIV_H

#include "cdp.h"

/* One command awaiting its reply. */
typedef struct sc__cdp_pend {
  struct sc__cdp_pend *next, *prev;
  int64_t id;
  char *session;       /* NULL = browser */
  char *attach_target; /* targetId of a Target.attachToTarget, else NULL */
  double timeout;      /* ms, 0 = none */
  double deadline;     /* same clock as now(), 0 = none */
  sc__cdp_reply_cb cb;
  void *ud;
} sc__cdp_pend;

/* One queued outgoing message. */
typedef struct sc__cdp_out {
  struct sc__cdp_out *next;
  char *text;
  size_t len;
} sc__cdp_out;

/* targetId -> sessionId, learnt from attach events and replies. */
typedef struct sc__cdp_session {
  struct sc__cdp_session *next;
  char *target;
  char *session;
} sc__cdp_session;

/* A session whose renderer crashed: an error reply on it means the crash. */
typedef struct sc__cdp_crashed {
  struct sc__cdp_crashed *next;
  char *session;
} sc__cdp_crashed;

struct sc__cdp {
  int64_t next_id;
  sc__cdp_pend *head, *tail; /* in send order */
  size_t npending;
  sc__cdp_out *out_head, *out_tail;
  size_t nout;
  sc__cdp_session *sessions;
  size_t max_bytes;
  double (*now)(void);
  sc__cdp_event_cb ev;
  void *ev_ud;
  int closed;
  char why[256];             /* the close's reason (sc__cdp_close_reason) */
  sc__cdp_crashed *crashed;  /* sessions whose renderer crashed */
};

/* Append p to the pending table. */
void sc__cdp_pend_link(sc__cdp *c, sc__cdp_pend *p);
/* Remove and return the pending command with this id, or NULL. */
sc__cdp_pend *sc__cdp_pend_take(sc__cdp *c, int64_t id);
/* Free one pending record (not linked any more). NULL is fine. */
void sc__cdp_pend_free(sc__cdp_pend *p);
/* Fail every pending command of session_id (not NULL) with err/msg. */
void sc__cdp_fail_session(sc__cdp *c, const char *session_id, int err,
                          const char *msg);

/* Remember target -> session (replaces an older entry for target). */
int sc__cdp_sessions_add(sc__cdp *c, const char *target, const char *session);
/* Forget every entry for this session. */
void sc__cdp_sessions_remove(sc__cdp *c, const char *session);
/* Forget everything (the session map and the crashed sessions). */
void sc__cdp_sessions_clear(sc__cdp *c);

/* Mark a session crashed (0, or SC_ENOMEM); forget the mark (a detach, or
 * the target reloaded after its crash); ask for it. */
int sc__cdp_crashed_add(sc__cdp *c, const char *session);
void sc__cdp_crashed_remove(sc__cdp *c, const char *session);
int sc__cdp_crashed_has(const sc__cdp *c, const char *session);

#endif
