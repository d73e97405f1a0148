/* The event loop: one libwebsockets context for every CDP connection made
 * on it, and timers. Every user of a multi run is driven from here: a step
 * waits by a timer or a reply, never by sleeping. Not thread-safe. */
#ifndef SC_CDP_LOOP_H
#define SC_CDP_LOOP_H

#include <stdint.h>

#include "stepcheck/loop.h"

struct sc__client;

/* A timer callback; fires exactly once unless cancelled first. */
typedef void (*sc__timer_cb)(void *ud);
/* Timer handle: > 0; 0 means none. */
typedef uint64_t sc__timer_id;

/* Call cb(ud) once the monotonic clock (sc__now_ms) reaches at_ms. Returns
 * the timer's id, or 0 when out of memory (sc_errmsg() set). */
sc__timer_id sc__loop_timer(sc_loop *l, double at_ms, sc__timer_cb cb, void *ud);
/* Cancel a timer that has not fired; 0 and unknown ids are ignored. */
void sc__loop_cancel(sc_loop *l, sc__timer_id id);

/* One round: write what is queued on every connection, wait for I/O until
 * the earliest of timeout_ms, a command deadline or a timer, feed what
 * arrived, expire deadlines and run due timers. Returns the number of
 * things handled (messages, expiries, timers): 0 when the time ran out. */
int sc__loop_service(sc_loop *l, double timeout_ms);
/* 0, or SC_EBUSY naming fn when l is running (we are inside one of its
 * callbacks): every blocking call asks before it starts anything, so a
 * refusal never leaves a command in flight that points at its stack. */
int sc__loop_busy(const sc_loop *l, const char *fn);
/* Non-zero while l runs (inside one of its callbacks), without a message. */
int sc__loop_running(const sc_loop *l);

/* The lws context connections are made on (borrowed). */
struct lws_context *sc__loop_lws(sc_loop *l);
/* Connections register so the loop services them; 0 or SC_ENOMEM. */
int sc__loop_attach(sc_loop *l, struct sc__client *cl);
void sc__loop_detach(sc_loop *l, struct sc__client *cl);

#endif
