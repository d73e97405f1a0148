/* Load runs: browsers launched or attached on one loop, a one-user warm-up,
 * the temp-space preflight, then users added `ramp` at a time every
 * `every_ms` on one multi handle, the generator sampled every second, and
 * the quality bar judged per ramp level. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "browser/handle.h"
#include "core/core.h"
#include "host/host.h"
#include "engine.h"
#include "quality.h"
#include "shared.h"
#include "runner.h"
#include "stepcheck/load.h"
#include "core/opts.h"

#define SC__SAMPLE_MS 1000.0
#define SC__USERS_PER_LAUNCHED 8 /* default users per launched browser */
#define SC__CPU_WARN_SHARE 0.8   /* warn past 80% of the cores */
#define SC__SHARED_JUDGE_MS 1000.0 /* users' paints matched across them this often */
#define SC__HEADLESS_SHELL "/usr/bin/chromium-headless-shell"

typedef struct load {
  const sc__load_driver *drv; /* tests: users on scripted I/O; NULL: browsers */
  sc_load_result *res;
  const sc_load_options *o;
  const char *const *urls; /* one per user, or NULL */
  sc_browser_options bo;   /* the caller's, whole (core/opts.h) */
  sc_loop *loop;
  sc_browser **b;
  size_t nb;
  int *pids; /* launched browsers, for the generator's own cost */
  size_t npids;
  double t0;       /* monotonic start of the main run */
  sc__sampler smp; /* reads /proc on its own thread (host/sampler.c) */
  unsigned long smp_seen;
  sc__usage last_tree, last_self;
  double last_sample; /* when the last reading taken was made */
  int cpu_warned;
  sc_multi *m;
  sc__frames_budget frames; /* passed steps' frames: one budget for the whole run */
} load;

static int push(void ***arr, size_t *n, void *item) {
  void **p = sc__realloc(*arr, (*n + 1) * sizeof *p);
  if (!p) return sc__err(SC_ENOMEM, "load: out of memory");
  *arr = p;
  p[(*n)++] = item;
  return 0;
}

/* Browsers the load uses: every endpoint, or as many launched as the users
 * need. */
static size_t browsers_wanted(const sc_load_options *o, int nusers) {
  size_t want = 0;
  if (o->endpoints) {
    while (o->endpoints[want]) want++;
    return want;
  }
  int per = o->users_per_browser > 0 ? o->users_per_browser : SC__USERS_PER_LAUNCHED;
  return (size_t)((nusers + per - 1) / per);
}

/* The limits of one generator against this machine, before anything
 * starts (lib/host/limits.c). */
static int preflight(const sc_load_options *o) {
  const char *dir = o->tmp_dir ? o->tmp_dir : "/dev/shm";
  size_t n = browsers_wanted(o, o->users); /* at most users, or the endpoints given */
  int browsers = n < (size_t)INT_MAX ? (int)n : INT_MAX;
  sc__machine m;
  int rc = sc__machine_measure(&m, NULL, dir);
  if (rc < 0) return rc;
  return sc__preflight_load(&m, dir, o->users, browsers, o->endpoints ? 0 : browsers);
}

/* Browsers: attach to every endpoint, or launch as many as the users need
 * (the headless shell when installed: a third of chromium's memory); a
 * cancel stops between launches and during one. */
static int open_browsers(load *L, int nusers) {
  const sc_load_options *o = L->o;
  sc_browser_options bo = L->bo;
  bo.loop = L->loop;
  if (!bo.cancel) bo.cancel = o->cancel; /* attaching too (a silent endpoint, a grid's se:cdp) */
  size_t want = browsers_wanted(o, nusers);
  if (!o->endpoints && !bo.executable && access(SC__HEADLESS_SHELL, X_OK) == 0)
    bo.executable = SC__HEADLESS_SHELL;
  L->b = sc__calloc(want ? want : 1, sizeof *L->b);
  L->pids = sc__calloc(want ? want : 1, sizeof *L->pids);
  if (!L->b || !L->pids) return sc__err(SC_ENOMEM, "load: out of memory");
  for (size_t i = 0; i < want; i++) {
    if (o->cancel && *o->cancel) return sc__err(SC_ECANCELED, "load: interrupted");
    int rc = o->endpoints ? sc_browser_connect(&L->b[i], o->endpoints[i], &bo)
                          : sc__browser_launch_cancel(&L->b[i], &bo, o->cancel);
    if (rc < 0) return rc;
    L->nb++;
    if (sc_browser_pid(L->b[i]) > 0) L->pids[L->npids++] = sc_browser_pid(L->b[i]);
  }
  return 0;
}

/* Which browser user i runs on. */
static sc_browser *browser_for(const load *L, int i) {
  if (L->o->endpoints && L->o->users_per_browser <= 0) return L->b[(size_t)i % L->nb];
  int per = L->o->users_per_browser > 0 ? L->o->users_per_browser : SC__USERS_PER_LAUNCHED;
  size_t k = (size_t)(i / per);
  return L->b[k < L->nb ? k : L->nb - 1];
}

/* A sample from the sampler thread's latest reading (none new: nothing). */
static void sample(load *L, int users) {
  sc__usage self, tree;
  double now;
  if (!sc__sampler_take(&L->smp, &L->smp_seen, &self, &tree, &now, NULL)) return;
  if (now - L->last_sample < SC__SAMPLE_MS / 2) return; /* too short to divide ticks by */
  sc_gen_sample *s = sc__calloc(1, sizeof *s);
  if (!s) return;
  s->t_ms = now - L->t0;
  double wall = now - L->last_sample;
  s->lib_cpu_pct = sc__cpu_pct(&L->last_self, &self, wall);
  s->cpu_pct = s->lib_cpu_pct + sc__cpu_pct(&L->last_tree, &tree, wall);
  s->lib_pss_mib = self.pss_kib / 1024.0;
  s->pss_mib = (self.pss_kib + tree.pss_kib) / 1024.0;
  s->users = users;
  L->last_self = self;
  L->last_tree = tree;
  L->last_sample = now;
  if (push((void ***)&L->res->samples, &L->res->nsamples, s) < 0) {
    sc__free(s);
    return;
  }
  if (s->cpu_pct > L->res->cpu_warn_pct && !L->cpu_warned) {
    char *w = sc__asprintf("generator CPU %.0f%% > %.0f%% (80%% of %d cores) at %.0f s with %d "
                           "users: counts past here measure the generator, not the server",
                           s->cpu_pct, L->res->cpu_warn_pct, L->res->cores, s->t_ms / 1000.0,
                           users);
    if (w && push((void ***)&L->res->warnings, &L->res->nwarnings, w) < 0) sc__free(w);
    L->cpu_warned = 1;
  }
  if (L->o->on_sample) L->o->on_sample(s, L->o->userdata);
}

/* The sampler's first reading is the baseline every sample's CPU counts
 * from (made on the sampler's thread; the loop thread only waits for it
 * once, here, before any user runs). */
static int sampling_start(load *L) {
  int rc = sc__sampler_start(&L->smp, NULL, L->pids, L->npids, SC__SAMPLE_MS);
  if (rc) return rc;
  memset(&L->last_self, 0, sizeof L->last_self);
  memset(&L->last_tree, 0, sizeof L->last_tree);
  L->last_sample = sc__now_ms();
  if (sc__sampler_wait_first(&L->smp, 5000))
    sc__sampler_take(&L->smp, &L->smp_seen, &L->last_self, &L->last_tree, &L->last_sample, NULL);
  return 0;
}

/* The warm-up: one user alone; the temp filesystem's growth while it runs
 * is what each further user needs there. */
typedef struct warm {
  const char *dir;
  uint64_t used0, peak;
} warm;

static void warm_step(const sc_run_result *u, const sc_step_result *r, void *ud) {
  (void)u, (void)r;
  warm *w = ud;
  uint64_t avail, used;
  if (sc__fs_avail(&avail, &used, w->dir) == 0 && used > w->peak) w->peak = used;
}

/* The URL user i opens: its own server's (urls, version 2), else the one
 * for all (NULL: the scenario's). */
static const char *url_of(const load *L, int i) {
  return L->urls ? L->urls[i] : L->o->url;
}

/* Run the users of m for up to wait_ms: the loop, or the test's world. */
static int perform(load *L, sc_multi *m, double wait_ms) {
  return L->drv ? L->drv->perform(L->drv->ctx, m, wait_ms) : sc_multi_perform(m, wait_ms);
}

static int warmup(load *L, const sc_scenario *s, uint64_t *per_user) {
  const sc_load_options *o = L->o;
  warm w = {o->tmp_dir ? o->tmp_dir : "/dev/shm", 0, 0};
  uint64_t avail;
  *per_user = 0;
  if (sc__fs_avail(&avail, &w.used0, w.dir) < 0) return SC_EIO;
  w.peak = w.used0;
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.cycles = o->warmup_cycles;
  mo.report_dir = o->report_dir;
  mo.fast_capture = o->fast_capture;
  mo.on_step = warm_step;
  mo.userdata = &w;
  sc_multi *m = NULL;
  int rc = sc_multi_new(&m, s, &mo);
  if (rc == 0) sc__multi_interrupt(m, o->cancel);
  if (rc == 0) sc__multi_pass_frames(m, &L->frames);
  if (rc == 0)
    rc = L->drv ? L->drv->add(L->drv->ctx, m, -1, "warm-up")
                : sc_multi_add(m, L->b[0], url_of(L, 0), "warm-up");
  while (rc >= 0 && (rc = perform(L, m, 500)) > 0)
    if (o->cancel && *o->cancel) sc_multi_cancel(m, 0, "interrupted");
  if (rc == 0) {
    L->res->warmup = sc_multi_take(m, 0);
    if (L->res->warmup && L->res->warmup->error) {
      /* its own code, so the run exits as that user alone would */
      int code = L->res->warmup->error_code < 0 ? L->res->warmup->error_code : SC_EIO;
      rc = sc__err(code, "warm-up: %s", L->res->warmup->error);
    } else if (L->res->warmup && !L->res->warmup->passed) {
      rc = sc__err(SC_EIO, "warm-up: the user alone did not verify every step; nothing "
                           "to measure against (see the warm-up's results)");
    }
  }
  sc_multi_free(m);
  *per_user = w.peak > w.used0 ? w.peak - w.used0 : 0;
  return rc;
}

static int new_level(load *L, int users) {
  sc_level *lv = sc__calloc(1, sizeof *lv);
  if (!lv) return sc__err(SC_ENOMEM, "load: out of memory");
  lv->index = (int)L->res->nlevels;
  lv->users = users;
  lv->start_ms = sc__now_ms() - L->t0;
  if (L->res->nlevels) L->res->levels[L->res->nlevels - 1]->end_ms = lv->start_ms;
  if (push((void ***)&L->res->levels, &L->res->nlevels, lv) < 0) {
    sc__free(lv);
    return SC_ENOMEM;
  }
  return 0;
}

static void report_level(load *L, size_t i) {
  if (!L->o->on_level || i >= L->res->nlevels) return;
  const sc_gen_sample *last = L->res->nsamples ? L->res->samples[L->res->nsamples - 1] : NULL;
  L->o->on_level(L->res->levels[i], last, L->o->userdata);
}

static int main_run(load *L, const sc_scenario *s) {
  const sc_load_options *o = L->o;
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.cycles = o->cycles > 0 ? o->cycles : 1;
  mo.duration_ms = o->duration_ms;
  mo.report_dir = o->report_dir;
  mo.fast_capture = o->fast_capture;
  mo.on_step = o->on_step;
  mo.userdata = o->userdata;
  int rc = sc_multi_new(&L->m, s, &mo);
  if (rc < 0) return rc;
  sc__multi_interrupt(L->m, o->cancel);
  sc__multi_pass_frames(L->m, &L->frames);
  if (o->users > 1 && (rc = sc__multi_watch_shared(L->m)) < 0) return rc;
  int ramp = o->ramp > 0 && o->ramp < o->users ? o->ramp : o->users;
  int added = 0, canceled = 0;
  double next_level = 0;
  /* The wall clock and the monotonic t0 that every level's start_ms counts
   * from, read together (a wall stamp taken after the first /proc scan once
   * put every level's start that much late in the reports). */
  L->res->started_unix_ms = sc__unix_ms();
  L->t0 = sc__now_ms();
  if ((rc = sampling_start(L)) < 0) return rc;
  double next_sample = L->t0 + SC__SAMPLE_MS, next_judge = L->t0 + SC__SHARED_JUDGE_MS;
  for (;;) {
    double now = sc__now_ms();
    if (added < o->users && now >= next_level) {
      if (L->res->nlevels) report_level(L, L->res->nlevels - 1);
      int k = added + ramp <= o->users ? ramp : o->users - added;
      /* the level starts as its first user is added, not after the last */
      if ((rc = new_level(L, added + k)) < 0) return rc;
      for (int i = 0; i < k; i++, added++) {
        char name[32];
        snprintf(name, sizeof name, "user-%d", added + 1);
        rc = L->drv ? L->drv->add(L->drv->ctx, L->m, added, name)
                    : sc_multi_add(L->m, browser_for(L, added), url_of(L, added), name);
        if (rc < 0) return rc;
      }
      next_level = now + o->every_ms;
    }
    if (o->cancel && *o->cancel && !canceled) {
      for (size_t i = 0; i < sc_multi_count(L->m); i++) sc_multi_cancel(L->m, (int)i, "interrupted");
      canceled = 1;
      added = o->users; /* no more levels */
    }
    if (now >= next_sample) {
      /* The sampler reads every SC__SAMPLE_MS on its own thread; looking
       * four times as often takes each reading soon after it was made (a
       * reading already taken is skipped). */
      sample(L, sc__multi_active(L->m));
      next_sample = sc__now_ms() + SC__SAMPLE_MS / 4;
    }
    if (now >= next_judge) { /* the users' rings hold many seconds */
      sc__multi_shared_judge(L->m);
      next_judge = sc__now_ms() + SC__SHARED_JUDGE_MS;
    }
    if (added >= o->users && sc__multi_active(L->m) == 0) break;
    double wake = next_sample;
    if (added < o->users && next_level < wake) wake = next_level;
    double wait = wake - sc__now_ms();
    if ((rc = perform(L, L->m, wait > 0 ? (wait < 200 ? wait : 200) : 0)) < 0) return rc;
  }
  if (L->res->nlevels) {
    L->res->levels[L->res->nlevels - 1]->end_ms = sc__now_ms() - L->t0;
    report_level(L, L->res->nlevels - 1);
  }
  return 0;
}

/* Users whose screen changed while they were idle, in step with another
 * user's gestures (shared.h): one warning naming the first such user, its
 * evidence and how many more there are. */
#define SC__SHARED_NAMED 3

static const char *name_of(const sc_multi *m, int i) {
  const sc_run_result *u = i >= 0 ? sc_multi_result(m, (size_t)i) : NULL;
  return u && u->user_name ? u->user_name : "a user";
}

static void shared_warning(load *L) {
  size_t n = sc_multi_count(L->m);
  int first = -1, fa = -1, fh = 0, fc = 0, more = 0;
  char also[160] = "";
  sc__multi_shared_judge(L->m); /* what came in since the last second */
  for (size_t b = 0; b < n; b++) {
    int a, hits, chances;
    if (!sc__multi_shared_suspect(L->m, b, &a, &hits, &chances)) continue;
    if (first < 0) {
      first = (int)b, fa = a, fh = hits, fc = chances;
      continue;
    }
    size_t len = strlen(also);
    if (more++ < SC__SHARED_NAMED)
      snprintf(also + len, sizeof also - len, "%s%s", len ? ", " : "", name_of(L->m, (int)b));
  }
  if (first < 0) return;
  char *w = sc__asprintf(
      "%s's screen changed while it was idle: do users share one display? (%d of the %d "
      "times %s's own gesture changed %s's screen while %s had sent nothing, %s's changed "
      "within %.0f ms too%s%s%s)",
      name_of(L->m, first), fh, fc, name_of(L->m, fa), name_of(L->m, fa), name_of(L->m, first),
      name_of(L->m, first), SC__SHARED_TOL_MS, more ? "; the same for " : "", also,
      more > SC__SHARED_NAMED ? " and more" : "");
  if (w && push((void ***)&L->res->warnings, &L->res->nwarnings, w) < 0) sc__free(w);
}

static int collect(load *L) {
  sc_load_result *res = L->res;
  size_t n = sc_multi_count(L->m);
  res->users = sc__calloc(n ? n : 1, sizeof *res->users);
  if (!res->users) return sc__err(SC_ENOMEM, "load: out of memory");
  for (size_t i = 0; i < n; i++) {
    sc_run_result *u = sc_multi_take(L->m, i);
    if (!u) continue;
    res->users[res->nusers++] = u;
    res->steps_passed += u->steps_passed;
    res->steps_failed += u->steps_failed;
  }
  return 0;
}

SC_EXTERN int sc_load_run(sc_load_result **out, const sc_scenario *s,
                          const sc_load_options *opts) {
  return sc__load_run_with(out, s, opts, NULL);
}

int sc__load_run_with(sc_load_result **out, const sc_scenario *s, const sc_load_options *opts,
                      const sc__load_driver *drv) {
  if (!out) return sc__err(SC_EINVAL, "sc_load_run: out is NULL");
  *out = NULL;
  sc_load_options o;
  if (sc__load_options_read(&o, opts, "sc_load_run")) return SC_EINVAL;
  opts = &o;
  if (!s) return sc__err(SC_EINVAL, "sc_load_run: no scenario");
  if (opts->users < 1) return sc__err(SC_EINVAL, "sc_load_run: users %d < 1", opts->users);
  if (opts->ramp > 0 && opts->ramp < opts->users && opts->every_ms <= 0)
    return sc__err(SC_EINVAL, "sc_load_run: ramp %d of %d users needs every_ms > 0", opts->ramp,
                   opts->users);
  if (opts->pass_frames_bytes < 0 || (opts->pass_frames_bytes > 0 && !opts->report_dir))
    return sc__err(SC_EINVAL, "sc_load_run: pass_frames_bytes %lld %s", opts->pass_frames_bytes,
                   opts->pass_frames_bytes < 0 ? "< 0" : "needs a report_dir");
  if (opts->warmup_cycles < 0 || opts->users_per_browser < 0 || opts->duration_ms < 0)
    return sc__err(SC_EINVAL, "sc_load_run: negative warmup_cycles, users_per_browser or "
                              "duration_ms");
  const char *const *urls = opts->urls;
  if (urls) {
    int n = 0;
    while (urls[n]) n++;
    if (n < opts->users)
      return sc__err(SC_EINVAL, "sc_load_run: %d users but %d URLs: one server per user", opts->users,
                     n);
  }
  load L;
  memset(&L, 0, sizeof L);
  if (sc__browser_options_read(&L.bo, opts->browser_options, "sc_load_run")) return SC_EINVAL;
  L.o = opts;
  L.frames.budget = opts->pass_frames_bytes;
  L.drv = drv;
  L.urls = urls;
  L.res = sc__calloc(1, sizeof *L.res);
  if (!L.res) return sc__err(SC_ENOMEM, "load: out of memory");
  L.res->scenario = s;
  const char *url = urls ? urls[0] : opts->url ? opts->url : s->url;
  if (url && !(L.res->url = sc__strdup(url))) {
    sc__free(L.res);
    return sc__err(SC_ENOMEM, "load: out of memory");
  }
  L.res->cores = sc__cpu_count();
  L.res->cpu_warn_pct = SC__CPU_WARN_SHARE * 100.0 * L.res->cores;
  *out = L.res;
  int rc = preflight(opts);
  if (rc == 0 && !drv) rc = sc_loop_new(&L.loop);
  if (rc == 0 && !drv) rc = open_browsers(&L, opts->users);
  uint64_t per_user = 0;
  if (rc == 0 && opts->warmup_cycles > 0) rc = warmup(&L, s, &per_user);
  if (rc == 0 && !(opts->cancel && *opts->cancel)) {
    const char *dir = opts->tmp_dir ? opts->tmp_dir : "/dev/shm";
    uint64_t avail, used;
    if ((rc = sc__fs_avail(&avail, &used, dir)) == 0)
      rc = sc__preflight_space(dir, avail, per_user, opts->users);
  }
  if (rc == 0 && !(opts->cancel && *opts->cancel)) rc = main_run(&L, s);
  if (L.m) shared_warning(&L);
  if (L.m && collect(&L) == 0 && L.res->nlevels)
    sc__quality_judge(&L.res->last_healthy_users, L.res->levels, L.res->nlevels,
                      L.res->started_unix_ms, L.res->warmup, L.res->users, L.res->nusers);
  if (rc < 0) L.res->error = sc__strdup(sc_errmsg());
  sc__errsave keep;
  sc__err_save(&keep);
  sc__sampler_stop(&L.smp);
  sc_multi_free(L.m);
  for (size_t i = 0; i < L.nb; i++) sc_browser_free(L.b[i]);
  sc__free(L.b);
  sc__free(L.pids);
  sc_loop_free(L.loop);
  L.res->ended_unix_ms = sc__unix_ms();
  L.res->passed = rc == 0 && !L.res->error && L.res->nusers == (size_t)opts->users &&
                  L.res->steps_failed == 0 && L.res->steps_passed > 0;
  for (size_t i = 0; i < L.res->nusers; i++) L.res->passed &= L.res->users[i]->passed;
  if (opts->cancel && *opts->cancel) L.res->passed = 0;
  return rc < 0 ? sc__err_restore(&keep, rc) : 0;
}

SC_EXTERN void sc_load_result_free(sc_load_result *r) {
  if (!r) return;
  sc_run_result_free(r->warmup);
  for (size_t i = 0; i < r->nusers; i++) sc_run_result_free(r->users[i]);
  for (size_t i = 0; i < r->nlevels; i++) {
    sc__free(r->levels[i]->reason);
    sc__free(r->levels[i]);
  }
  for (size_t i = 0; i < r->nsamples; i++) sc__free(r->samples[i]);
  for (size_t i = 0; i < r->nwarnings; i++) sc__free(r->warnings[i]);
  sc__free(r->users);
  sc__free(r->levels);
  sc__free(r->samples);
  sc__free(r->warnings);
  sc__free(r->error);
  sc__free((char *)r->url);
  sc__free(r);
}

SC__OPTS_DEFINE(load_options, SC_LOAD_OPTIONS_INIT,
                 offsetof(sc_load_options, urls),
                 offsetof(sc_load_options, urls) + sizeof(const char *const *),
                 sizeof(sc_load_options))
