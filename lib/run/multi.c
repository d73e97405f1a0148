/* The multi interface: users added to one handle, each a runner over its
 * own page (own browser context), all driven from one loop. A user's page
 * opens without blocking the others; a user that fails or hangs ends alone
 * (every wait has a deadline); results are per user, with their own error
 * text. */
#include <stdio.h>
#include <string.h>

#include "browser/handle.h"
#include "cdp/loop.h"
#include "core/core.h"
#include "core/debug.h"
#include "engine.h"
#include "page/tab.h"
#include "runner.h"
#include "shared.h"
#include "core/opts.h"

/* How long an error waits for the crash report that may explain it. */
#define SC__CRASH_GRACE_MS 300.0

typedef struct muser {
  sc_multi *m;
  int index;
  sc__runner r;
  sc_page *page;
  int own_page;      /* opened here (closed when the user ends) */
  sc_run_result *rr; /* NULL once taken */
  int running;
  int graced;        /* an error waited once for a crash report */
  uint64_t grace;    /* that wait's timer on the loop, 0 none */
  sc__runner_io io;  /* the page's (or the test's), under the runner's when watched */
} muser;

struct sc_multi {
  const sc_scenario *s;
  sc_multi_options o;
  sc_loop *loop;
  muser **u;
  size_t n, cap;
  int active;
  unsigned long ended; /* users that ended, for perform's early return */
  volatile int *interrupt; /* sc__multi_interrupt */
  sc__frames_budget *frames; /* passed steps' frames (the run's, borrowed); NULL none */
  sc__shared *shared; /* shared-session detection (sc__multi_watch_shared); NULL off */
};

SC_EXTERN int sc_multi_new(sc_multi **out, const sc_scenario *s, const sc_multi_options *opts) {
  if (!out) return sc__err(SC_EINVAL, "sc_multi_new: out is NULL");
  *out = NULL;
  sc_multi_options o;
  if (sc__multi_options_read(&o, opts, "sc_multi_new")) return SC_EINVAL;
  opts = &o;
  if (!s) return sc__err(SC_EINVAL, "sc_multi_new: no scenario");
  if (opts->cycles < 1 && opts->duration_ms <= 0)
    return sc__err(SC_EINVAL, "sc_multi_new: cycles %d < 1", opts->cycles);
  if (opts->duration_ms < 0)
    return sc__err(SC_EINVAL, "sc_multi_new: duration_ms %g < 0", opts->duration_ms);
  sc_multi *m = sc__calloc(1, sizeof *m);
  if (!m) return sc__err(SC_ENOMEM, "multi: out of memory");
  m->s = s;
  m->o = *opts;
  *out = m;
  return 0;
}

static void user_step(sc__runner *r, const sc_step_result *res, void *ud) {
  (void)r;
  muser *u = ud;
  if (u->m->o.on_step) u->m->o.on_step(u->rr, res, u->m->o.userdata);
}

/* The user ended: close its page at once (the browser frees the
 * context's memory), then tell the caller. */
static void user_done(sc__runner *r, void *ud);

static void user_done_later(void *ud) {
  muser *u = ud;
  u->grace = 0;
  user_done(&u->r, u);
}

static void user_done(sc__runner *r, void *ud) {
  (void)r;
  muser *u = ud;
  if (!u->running) return;
  /* A renderer that crashes fails the command in flight first ("Unable to
   * capture screenshot") and says why a moment later: wait for that once,
   * so the user's error names the crash. */
  if (u->r.rc < 0 && u->page && !u->graced && !sc__page_crashed(u->page)) {
    u->graced = 1;
    u->grace = sc__loop_timer(u->m->loop, sc__now_ms() + SC__CRASH_GRACE_MS, user_done_later, u);
    if (u->grace) return;
  }
  if (u->grace) { /* ended again while it waited (never, since the runner ends once) */
    sc__loop_cancel(u->m->loop, u->grace);
    u->grace = 0;
  }
  if (u->page && sc__page_crashed(u->page) && u->rr->error && !strstr(u->rr->error, "crashed")) {
    char *e = sc__asprintf("page crashed (its renderer is gone): %s", u->rr->error);
    if (e) {
      sc__free(u->rr->error);
      u->rr->error = e;
    }
  }
  if (u->rr->error && !u->rr->error_code) u->rr->error_code = u->r.rc < 0 ? u->r.rc : SC_EIO;
  u->running = 0;
  u->m->active--;
  u->m->ended++;
  if (!u->rr->ended_unix_ms) {
    u->rr->ended_unix_ms = u->rr->started_unix_ms;
    u->rr->passed = 0;
  }
  if (u->own_page) {
    sc__page_close_async(u->page);
    u->page = NULL;
  }
  if (u->m->o.on_user_done) u->m->o.on_user_done(u->rr, u->m->o.userdata);
}

/* A user that ended before its runner started (page open failed). */
static void user_failed(muser *u, int rc, const char *msg) {
  u->r.rc = rc;
  if (!u->rr->error) u->rr->error = sc__strdup(msg ? msg : sc_strerror(rc));
  user_done(&u->r, u);
}

/* ---- shared-session detection (shared.h): every input a user sends and
 * every paint start its page's log reports, fed to the detector on the way
 * between the runner and its page ---- */

typedef struct watched_log {
  muser *u;
  sc__io_logged cb;
  void *ud;
} watched_log;

static void w_input(muser *u) { sc__shared_input(u->m->shared, u->index, sc__now_ms()); }

static int w_move(void *ctx, sc_point at, sc__io_done cb, void *ud) {
  muser *u = ctx;
  w_input(u);
  return u->io.move(u->io.ctx, at, cb, ud);
}

static int w_click(void *ctx, sc_point at, sc__io_done cb, void *ud) {
  muser *u = ctx;
  w_input(u);
  return u->io.click(u->io.ctx, at, cb, ud);
}

static int w_notch(void *ctx, sc_point at, int dir, int first, sc__io_done cb, void *ud) {
  muser *u = ctx;
  w_input(u);
  return u->io.notch(u->io.ctx, at, dir, first, cb, ud);
}

static int w_key(void *ctx, const char *key, int repeat, sc__io_done cb, void *ud) {
  muser *u = ctx;
  w_input(u);
  return u->io.key(u->io.ctx, key, repeat, cb, ud);
}

static int w_capture(void *ctx, sc_rect clip, int fast, double timeout_ms, sc__io_captured cb,
                     void *ud) {
  muser *u = ctx;
  return u->io.capture(u->io.ctx, clip, fast, timeout_ms, cb, ud);
}

static int w_decode(void *ctx, sc_image **out, const char *raw, size_t len, sc_rect clip) {
  muser *u = ctx;
  return u->io.decode(u->io.ctx, out, raw, len, clip);
}

static uint64_t w_timer(void *ctx, double at_ms, sc__io_tick cb, void *ud) {
  muser *u = ctx;
  return u->io.timer(u->io.ctx, at_ms, cb, ud);
}

static void w_cancel(void *ctx, uint64_t id) {
  muser *u = ctx;
  u->io.cancel(u->io.ctx, id);
}

static int w_guest(void *ctx, sc__io_done cb, void *ud) {
  muser *u = ctx;
  return u->io.guest(u->io.ctx, cb, ud);
}

static int w_inputs(void *ctx, double timeout_ms, sc__io_inputs cb, void *ud) {
  muser *u = ctx;
  return u->io.inputs(u->io.ctx, timeout_ms, cb, ud);
}

static void w_logged(int status, const char *errmsg, const sc__log_reply *rep, void *ud) {
  watched_log c = *(watched_log *)ud;
  sc__free(ud);
  if (status == 0 && rep && rep->have && rep->now_ms >= 0)
    sc__shared_paints(c.u->m->shared, c.u->index, rep->starts, rep->nstarts, rep->starts_lost,
                      rep->now_ms);
  c.cb(status, errmsg, rep, c.ud);
}

static int w_log_wait(void *ctx, const sc__log_ask *a, sc__io_logged cb, void *ud) {
  muser *u = ctx;
  watched_log *c = sc__malloc(sizeof *c);
  if (!c) return sc__err(SC_ENOMEM, "multi: out of memory");
  *c = (watched_log){u, cb, ud};
  int rc = u->io.log_wait(u->io.ctx, a, w_logged, c);
  if (rc) sc__free(c);
  return rc;
}

/* The runner's I/O: the page's as it is, or through the detector. */
static int set_io(muser *u, const sc__runner_io *io) {
  u->io = *io;
  u->r.io = *io;
  if (!u->m->shared) return 0;
  int rc = sc__shared_grow(u->m->shared, u->index + 1);
  if (rc < 0) return rc;
  u->r.io = (sc__runner_io){.move = w_move,
                            .click = w_click,
                            .notch = w_notch,
                            .key = w_key,
                            .capture = w_capture,
                            .decode = w_decode,
                            .timer = w_timer,
                            .cancel = w_cancel,
                            .guest = io->guest ? w_guest : NULL,
                            .ctx = u,
                            .log_wait = io->log_wait ? w_log_wait : NULL,
                            .inputs = io->inputs ? w_inputs : NULL};
  return 0;
}

static void start_runner(muser *u) {
  /* The page's commands may wait no longer than a step may: a hung page
   * fails its user soon after the step's own timeout. */
  double longest = 0;
  for (size_t i = 0; i < u->m->s->nsetup + u->m->s->nsteps; i++) {
    const sc_step *st = i < u->m->s->nsetup ? &u->m->s->setup[i] : &u->m->s->steps[i - u->m->s->nsetup];
    if (st->timeout_ms > longest) longest = st->timeout_ms;
  }
  if (longest < SC__REST_WAIT_MS) longest = SC__REST_WAIT_MS;
  sc__page_set_timeout(u->page, longest + SC__CAPTURE_GRACE_MS);
  sc__runner_io io = sc__runner_page_io(u->page);
  int rc = set_io(u, &io);
  if (rc < 0) {
    user_failed(u, rc, sc_errmsg());
    return;
  }
  sc_page_canvas(u->page, NULL, NULL, &u->r.guest_w, &u->r.guest_h);
  rc = sc__runner_start(&u->r);
  if (rc < 0) user_failed(u, rc, sc_errmsg());
}

static void page_opened(int status, const char *errmsg, void *ud) {
  muser *u = ud;
  if (status) {
    /* The page failed to open: nothing to close but the half-made target. */
    user_failed(u, status, errmsg);
    return;
  }
  if (u->r.canceled) {
    user_failed(u, SC_ECANCELED, u->r.cancel_why);
    return;
  }
  start_runner(u);
}

static int check_loop(sc_multi *m, sc_loop *l, const char *what) {
  if (!m->loop) m->loop = l;
  if (m->loop != l)
    return sc__err(SC_EINVAL,
                   "sc_multi_add: %s is on another loop than the users before it (create "
                   "every browser with sc_browser_options.loop set to one sc_loop)",
                   what);
  return 0;
}

static int new_user(muser **out, sc_multi *m, const char *name, const char *url) {
  *out = NULL;
  if (m->n == m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 8;
    muser **p = sc__realloc(m->u, cap * sizeof *p);
    if (!p) return sc__err(SC_ENOMEM, "multi: out of memory");
    m->u = p;
    m->cap = cap;
  }
  muser *u = sc__calloc(1, sizeof *u);
  sc_run_result *rr = sc__calloc(1, sizeof *rr);
  if (rr) rr->ready_ms = -1;
  char *nm = name ? sc__strdup(name) : sc__asprintf("user-%zu", m->n + 1);
  char *driven = url ? sc__strdup(url) : NULL;
  if (!u || !rr || !nm || (url && !driven)) {
    sc__free(u);
    sc__free(rr);
    sc__free(nm);
    sc__free(driven);
    return sc__err(SC_ENOMEM, "multi: out of memory");
  }
  rr->scenario = m->s;
  rr->started_unix_ms = sc__unix_ms(); /* the user exists from its add on */
  rr->user = (int)m->n;
  rr->user_name = nm;
  rr->url = driven;
  u->m = m;
  u->index = (int)m->n;
  u->rr = rr;
  u->r.s = m->s;
  u->r.rr = rr;
  u->r.interrupt = m->interrupt;
  u->r.report_dir = m->o.report_dir;
  u->r.frames = m->frames;
  rr->pass_frames_budget = m->frames ? m->frames->budget : 0;
  u->r.fast_capture = m->o.fast_capture;
  u->r.cycles = m->o.cycles;
  u->r.duration_ms = m->o.duration_ms;
  u->r.on_step = user_step;
  u->r.on_done = user_done;
  u->r.ud = u;
  if (sc__runner_plan(&u->r) < 0) {
    sc__runner_clear(&u->r);
    sc_run_result_free(rr);
    sc__free(u);
    return SC_ENOMEM;
  }
  m->u[m->n++] = u;
  u->running = 1;
  m->active++;
  *out = u;
  return 0;
}

SC_EXTERN int sc_multi_add(sc_multi *m, sc_browser *b, const char *url, const char *name) {
  if (!m || !b) return sc__err(SC_EINVAL, "sc_multi_add: NULL %s", m ? "browser" : "handle");
  int rc = check_loop(m, sc__client_loop(sc__browser_client(b)), "the browser");
  if (rc) return rc;
  if (!url) url = m->s->url;
  if (!url) return sc__err(SC_EINVAL, "sc_multi_add: no url (the scenario has none)");
  muser *u;
  if ((rc = new_user(&u, m, name, url)) < 0) return rc;
  sc_page_options po;
  sc_run_page_options(&po, m->s);
  u->own_page = 1;
  rc = sc__page_open_async(&u->page, b, url, &po, page_opened, u);
  if (rc < 0) {
    /* Counted as a user that failed at once: its result says why. */
    user_failed(u, rc, sc_errmsg());
  }
  return u->index;
}

int sc__multi_add_page(sc_multi *m, sc_page *p, const char *name, const char *url) {
  if (!m || !p) return sc__err(SC_EINVAL, "sc_multi_add: NULL page");
  int rc = check_loop(m, sc__page_loop(p), "the page");
  if (rc) return rc;
  muser *u;
  if ((rc = new_user(&u, m, name, url)) < 0) return rc;
  u->page = p;
  start_runner(u);
  return u->index;
}

int sc__multi_add_io(sc_multi *m, const char *name, const sc__runner_io *io, int guest_w,
                     int guest_h) {
  if (!m || !io) return sc__err(SC_EINVAL, "sc_multi_add: NULL handle or io");
  muser *u;
  int rc = new_user(&u, m, name, NULL);
  if (rc < 0) return rc;
  u->r.guest_w = guest_w;
  u->r.guest_h = guest_h;
  if ((rc = set_io(u, io)) < 0 || (rc = sc__runner_start(&u->r)) < 0)
    user_failed(u, rc, sc_errmsg());
  return u->index;
}

SC_EXTERN int sc_multi_perform(sc_multi *m, double timeout_ms) {
  if (!m) return sc__err(SC_EINVAL, "sc_multi_perform: NULL handle");
  if (!m->loop || m->active == 0) return m->active;
  int brc = sc__loop_busy(m->loop, "sc_multi_perform");
  if (brc) return brc;
  double end = sc__now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
  unsigned long ended = m->ended;
  do {
    int rc = sc__loop_service(m->loop, end - sc__now_ms());
    if (rc < 0) return rc;
  } while (m->active > 0 && m->ended == ended && sc__now_ms() < end);
  return m->active;
}

void sc__multi_interrupt(sc_multi *m, volatile int *flag) {
  m->interrupt = flag;
  for (size_t i = 0; i < m->n; i++) m->u[i]->r.interrupt = flag;
}

void sc__multi_pass_frames(sc_multi *m, sc__frames_budget *fb) {
  m->frames = fb;
  for (size_t i = 0; i < m->n; i++) {
    m->u[i]->r.frames = fb;
    m->u[i]->rr->pass_frames_budget = fb ? fb->budget : 0;
  }
}

SC_EXTERN int sc_multi_cancel(sc_multi *m, int i, const char *why) {
  if (!m || i < 0 || (size_t)i >= m->n)
    return sc__err(SC_EINVAL, "sc_multi_cancel: no user %d", i);
  muser *u = m->u[i];
  if (!u->running) return 0;
  if (u->page && u->page->opener) { /* still opening: abandon it */
    sc__page_open_abandon(u->page);
    snprintf(u->r.cancel_why, sizeof u->r.cancel_why, "%s", why ? why : "by request");
    char msg[256];
    snprintf(msg, sizeof msg, "canceled: %s", u->r.cancel_why);
    user_failed(u, SC_ECANCELED, msg);
    return 0;
  }
  sc__runner_cancel(&u->r, why);
  return 0;
}

int sc__multi_watch_shared(sc_multi *m) {
  if (m->shared) return 0;
  if (m->n) return sc__err(SC_EINVAL, "multi: shared-session detection starts before any user");
  m->shared = sc__shared_new();
  return m->shared ? 0 : sc__err(SC_ENOMEM, "multi: out of memory");
}

int sc__multi_shared_suspect(const sc_multi *m, size_t b, int *a, int *hits, int *chances) {
  return m->shared ? sc__shared_suspect(m->shared, (int)b, a, hits, chances) : 0;
}

void sc__multi_shared_judge(sc_multi *m) { sc__shared_judge(m->shared); }

SC_EXTERN size_t sc_multi_count(const sc_multi *m) { return m ? m->n : 0; }

SC_EXTERN const sc_run_result *sc_multi_result(const sc_multi *m, size_t i) {
  return m && i < m->n ? m->u[i]->rr : NULL;
}

SC_EXTERN int sc_multi_running(const sc_multi *m, size_t i) {
  return m && i < m->n ? m->u[i]->running : 0;
}

SC_EXTERN sc_run_result *sc_multi_take(sc_multi *m, size_t i) {
  if (!m || i >= m->n || m->u[i]->running) return NULL;
  sc_run_result *rr = m->u[i]->rr;
  m->u[i]->rr = NULL;
  return rr;
}

int sc__multi_user_rc(const sc_multi *m, size_t i) { return m && i < m->n ? m->u[i]->r.rc : 0; }

sc_loop *sc__multi_loop(const sc_multi *m) { return m->loop; }

sc_page *sc__multi_page(const sc_multi *m, size_t i) {
  return m && i < m->n && m->u[i]->running ? m->u[i]->page : NULL;
}

int sc__multi_active(const sc_multi *m) { return m->active; }

SC_EXTERN int sc_multi_active(const sc_multi *m) { return m ? m->active : 0; }

SC_EXTERN void sc_multi_free(sc_multi *m) {
  if (!m) return;
  /* From inside a callback of the loop (the handle's own, or any other on
   * the same loop) the users' last replies cannot be waited for, and the
   * code that called back still holds the user: refuse, free nothing. */
  if (m->loop && sc__loop_running(m->loop)) {
    sc__err(SC_EBUSY, "sc_multi_free: called from inside a callback of the handle's loop: "
                      "nothing freed (free it after the loop returns)");
    return;
  }
  /* Users still running have callbacks in flight that point at them: cancel
   * them and let the loop deliver those (every command has a deadline). */
  m->o.on_step = NULL;
  m->o.on_user_done = NULL;
  for (size_t i = 0; i < m->n; i++)
    if (m->u[i]->running) sc_multi_cancel(m, (int)i, "the handle was freed");
  while (m->active > 0)
    if (sc__loop_service(m->loop, 100) < 0) break;
  for (size_t i = 0; i < m->n; i++) {
    muser *u = m->u[i];
    sc__runner_clear(&u->r);
    if (u->own_page) sc__page_close_async(u->page);
    sc_run_result_free(u->rr);
    sc__free(u);
  }
  sc__free(m->u);
  sc__shared_free(m->shared);
  sc__free(m);
}

SC__OPTS_DEFINE(multi_options, SC_MULTI_OPTIONS_INIT,
                 sizeof(sc_multi_options))
