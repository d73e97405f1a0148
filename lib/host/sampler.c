/* The generator's cost read off the loop thread: a thread that reads
 * /proc (this process, and the process trees of the browsers it launched)
 * every period and keeps the latest reading for the loop thread to take.
 * A scan of many Chromium processes' smaps_rollup takes tens of ms on a busy
 * machine; on the loop thread it delayed every user's timers by that much
 * once a second, and was charged to no step. */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "host.h"

static void abs_after(struct timespec *ts, double ms) {
  clock_gettime(CLOCK_MONOTONIC, ts);
  long long ns = (long long)ts->tv_nsec + (long long)(ms * 1e6);
  ts->tv_sec += (time_t)(ns / 1000000000LL);
  ts->tv_nsec = (long)(ns % 1000000000LL);
}

/* One reading, outside the lock; then published under it. */
static void read_once(sc__sampler *s) {
  sc__usage self, tree;
  memset(&tree, 0, sizeof tree);
  double t0 = sc__now_ms();
  int ok = sc__usage_self(&self, s->proc_root) == 0 &&
           (!s->npids || sc__usage_trees(&tree, s->proc_root, s->pids, s->npids, 1) == 0);
  double t1 = sc__now_ms();
  pthread_mutex_lock(&s->mu);
  if (ok) {
    s->self = self;
    s->tree = tree;
    s->at_ms = t1;
    s->seq++;
  }
  s->cost_ms = t1 - t0;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
}

static void *run(void *arg) {
  sc__sampler *s = arg;
  for (;;) {
    read_once(s);
    struct timespec until;
    abs_after(&until, s->period_ms);
    pthread_mutex_lock(&s->mu);
    while (!s->stop && pthread_cond_timedwait(&s->cv, &s->mu, &until) != ETIMEDOUT) {
    }
    int stop = s->stop;
    pthread_mutex_unlock(&s->mu);
    if (stop) return NULL;
  }
}

int sc__sampler_start(sc__sampler *s, const char *proc_root, const int *pids, size_t npids,
                      double period_ms) {
  memset(s, 0, sizeof *s);
  if (npids && !(s->pids = sc__calloc(npids, sizeof *pids)))
    return sc__err(SC_ENOMEM, "sampler: out of memory");
  if (npids) memcpy(s->pids, pids, npids * sizeof *pids);
  s->npids = npids;
  s->proc_root = proc_root;
  s->period_ms = period_ms > 0 ? period_ms : 1000;
  pthread_condattr_t ca;
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_mutex_init(&s->mu, NULL);
  pthread_cond_init(&s->cv, &ca);
  pthread_condattr_destroy(&ca);
  if (pthread_create(&s->th, NULL, run, s) != 0) {
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    sc__free(s->pids);
    s->pids = NULL;
    return sc__err(SC_ENOMEM, "sampler: cannot start its thread");
  }
  s->started = 1;
  return 0;
}

int sc__sampler_wait_first(sc__sampler *s, double timeout_ms) {
  struct timespec until;
  abs_after(&until, timeout_ms);
  pthread_mutex_lock(&s->mu);
  int rc = 0;
  while (s->seq == 0 && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&s->cv, &s->mu, &until);
  int got = s->seq > 0;
  pthread_mutex_unlock(&s->mu);
  return got;
}

int sc__sampler_take(sc__sampler *s, unsigned long *seen, sc__usage *self, sc__usage *tree,
                     double *at_ms, double *cost_ms) {
  if (!s->started) return 0;
  pthread_mutex_lock(&s->mu);
  int fresh = s->seq != *seen;
  if (fresh) {
    *seen = s->seq;
    *self = s->self;
    *tree = s->tree;
    *at_ms = s->at_ms;
    if (cost_ms) *cost_ms = s->cost_ms;
  }
  pthread_mutex_unlock(&s->mu);
  return fresh;
}

void sc__sampler_stop(sc__sampler *s) {
  if (!s->started) return;
  pthread_mutex_lock(&s->mu);
  s->stop = 1;
  pthread_cond_broadcast(&s->cv);
  pthread_mutex_unlock(&s->mu);
  pthread_join(s->th, NULL);
  pthread_cond_destroy(&s->cv);
  pthread_mutex_destroy(&s->mu);
  sc__free(s->pids);
  s->pids = NULL;
  s->started = 0;
}
