/* CDP core: the pending-reply table, deadlines, failure fan-out and the
 * targetId -> sessionId map.
 *
 * Fan-out detaches every affected command from the table first and only then
 * fires the callbacks, so a callback may send new commands (or close the
 * connection) without disturbing the walk, and failing needs no allocation. */
#include <stdio.h>
#include <string.h>

#include "cdp_priv.h"
#include "core/core.h"

void sc__cdp_pend_link(sc__cdp *c, sc__cdp_pend *p) {
  p->next = NULL;
  p->prev = c->tail;
  if (c->tail)
    c->tail->next = p;
  else
    c->head = p;
  c->tail = p;
  c->npending++;
}

static void unlink_pend(sc__cdp *c, sc__cdp_pend *p) {
  if (p->prev)
    p->prev->next = p->next;
  else
    c->head = p->next;
  if (p->next)
    p->next->prev = p->prev;
  else
    c->tail = p->prev;
  p->next = p->prev = NULL;
  c->npending--;
}

sc__cdp_pend *sc__cdp_pend_take(sc__cdp *c, int64_t id) {
  for (sc__cdp_pend *p = c->head; p; p = p->next) {
    if (p->id == id) {
      unlink_pend(c, p);
      return p;
    }
  }
  return NULL;
}

void sc__cdp_pend_free(sc__cdp_pend *p) {
  if (!p) return;
  sc__free(p->session);
  sc__free(p->attach_target);
  sc__free(p);
}

typedef int (*pend_match)(const sc__cdp_pend *p, const void *arg, double now);

/* Move every matching command to a private list, in send order. */
static sc__cdp_pend *detach_matching(sc__cdp *c, pend_match match, const void *arg) {
  double now = c->now();
  sc__cdp_pend *list = NULL, **tailp = &list, *next;
  for (sc__cdp_pend *p = c->head; p; p = next) {
    next = p->next;
    if (match(p, arg, now)) {
      unlink_pend(c, p);
      *tailp = p;
      tailp = &p->next;
    }
  }
  return list;
}

/* Fire and free a detached list. msg NULL: the per-command timeout text. */
static void fire_list(sc__cdp_pend *list, int err, const char *msg) {
  while (list) {
    sc__cdp_pend *p = list;
    list = p->next;
    char buf[96];
    if (!msg) snprintf(buf, sizeof buf, "timed out after %.0f ms", p->timeout);
    p->cb(err, NULL, msg ? msg : buf, p->ud);
    sc__cdp_pend_free(p);
  }
}

static int match_session(const sc__cdp_pend *p, const void *arg, double now) {
  return p->session && strcmp(p->session, (const char *)arg) == 0;
}

static int match_expired(const sc__cdp_pend *p, const void *arg, double now) {
  return p->deadline > 0 && p->deadline <= now;
}

static int match_all(const sc__cdp_pend *p, const void *arg, double now) { return 1; }

void sc__cdp_fail_session(sc__cdp *c, const char *session_id, int err,
                          const char *msg) {
  fire_list(detach_matching(c, match_session, session_id), err, msg);
}

void sc__cdp_expire(sc__cdp *c) {
  if (!c->head) return;
  fire_list(detach_matching(c, match_expired, NULL), SC_ETIMEDOUT, NULL);
}

double sc__cdp_next_deadline(const sc__cdp *c) {
  double best = 0;
  for (const sc__cdp_pend *p = c->head; p; p = p->next)
    if (p->deadline > 0 && (best == 0 || p->deadline < best)) best = p->deadline;
  return best;
}

void sc__cdp_close(sc__cdp *c, int err, const char *reason) {
  if (!c) return;
  if (!c->closed) /* the first close's reason is the one that stays */
    snprintf(c->why, sizeof c->why, "%s", reason && *reason ? reason : sc_strerror(err));
  c->closed = 1; /* before the callbacks: their sends fail at once */
  while (c->out_head) sc__free(sc__cdp_pop_outgoing(c, NULL));
  char msg[256];
  snprintf(msg, sizeof msg, "%s", reason && *reason ? reason : sc_strerror(err));
  fire_list(detach_matching(c, match_all, NULL), err < 0 ? err : SC_ECLOSED, msg);
}

int sc__cdp_sessions_add(sc__cdp *c, const char *target, const char *session) {
  for (sc__cdp_session *s = c->sessions; s; s = s->next) {
    if (strcmp(s->target, target) == 0) {
      char *dup = sc__strdup(session);
      if (!dup) return sc__err(SC_ENOMEM, "cdp: out of memory");
      sc__free(s->session);
      s->session = dup;
      return 0;
    }
  }
  sc__cdp_session *s = sc__calloc(1, sizeof *s);
  if (!s || !(s->target = sc__strdup(target)) || !(s->session = sc__strdup(session))) {
    if (s) sc__free(s->target);
    sc__free(s);
    return sc__err(SC_ENOMEM, "cdp: out of memory");
  }
  s->next = c->sessions;
  c->sessions = s;
  return 0;
}

void sc__cdp_sessions_remove(sc__cdp *c, const char *session) {
  for (sc__cdp_session **pp = &c->sessions; *pp;) {
    sc__cdp_session *s = *pp;
    if (strcmp(s->session, session) == 0) {
      *pp = s->next;
      sc__free(s->target);
      sc__free(s->session);
      sc__free(s);
    } else {
      pp = &s->next;
    }
  }
}

void sc__cdp_sessions_clear(sc__cdp *c) {
  while (c->sessions) {
    sc__cdp_session *s = c->sessions;
    c->sessions = s->next;
    sc__free(s->target);
    sc__free(s->session);
    sc__free(s);
  }
  while (c->crashed) sc__cdp_crashed_remove(c, c->crashed->session);
}

int sc__cdp_crashed_add(sc__cdp *c, const char *session) {
  if (sc__cdp_crashed_has(c, session)) return 0;
  sc__cdp_crashed *k = sc__calloc(1, sizeof *k);
  if (!k || !(k->session = sc__strdup(session))) {
    sc__free(k);
    return sc__err(SC_ENOMEM, "cdp: out of memory");
  }
  k->next = c->crashed;
  c->crashed = k;
  return 0;
}

void sc__cdp_crashed_remove(sc__cdp *c, const char *session) {
  for (sc__cdp_crashed **pp = &c->crashed; *pp; pp = &(*pp)->next) {
    if (strcmp((*pp)->session, session) == 0) {
      sc__cdp_crashed *k = *pp;
      *pp = k->next;
      sc__free(k->session);
      sc__free(k);
      return;
    }
  }
}

int sc__cdp_crashed_has(const sc__cdp *c, const char *session) {
  for (const sc__cdp_crashed *k = c->crashed; k; k = k->next)
    if (strcmp(k->session, session) == 0) return 1;
  return 0;
}

const char *sc__cdp_session_for_target(const sc__cdp *c, const char *target_id) {
  for (const sc__cdp_session *s = c->sessions; s; s = s->next)
    if (strcmp(s->target, target_id) == 0) return s->session;
  return NULL;
}
