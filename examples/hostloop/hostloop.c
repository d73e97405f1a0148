/* A host program that runs stepcheck's loop inside its own poll(2) loop, the
 * way an application with its own event loop (libuv, libevent, GLib, a
 * game-day controller) embeds it: it asks which descriptors to watch and how
 * long it may sleep, sleeps in its own poll() beside its own descriptor (here
 * stdin: a line typed cancels every user), and hands control to stepcheck
 * only when something is ready. No thread, no sc_multi_perform.
 *
 *   hostloop SCENARIO URL [USERS] [CYCLES]
 *
 * Exit 0 when every user passed every step, 1 when one failed, 2/3 on
 * errors. Prints one line per finished step and a summary. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <stepcheck.h>

#define MAX_FDS 64

static void on_step(const sc_run_result *u, const sc_step_result *s, void *ud) {
  (void)ud;
  printf("user-%d %s cycle %d %s (verified %.0f ms)\n", u->user + 1, s->step_id, s->cycle,
         s->passed ? "PASS" : "FAIL", s->verified_ms);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s SCENARIO URL [USERS] [CYCLES]\n", argv[0]);
    return 2;
  }
  int users = argc > 3 ? atoi(argv[3]) : 4, cycles = argc > 4 ? atoi(argv[4]) : 1;
  if (users < 1 || users > 16 || cycles < 1) {
    fprintf(stderr, "hostloop: USERS 1..16, CYCLES >= 1\n");
    return 2;
  }
  sc_scenario *s = NULL;
  if (sc_scenario_load(&s, argv[1]) < 0) {
    fprintf(stderr, "hostloop: %s\n", sc_errmsg());
    return 2;
  }
  sc_loop *loop = NULL;
  sc_browser *b = NULL;
  sc_multi *m = NULL;
  int code = 3;
  sc_browser_options bo = SC_BROWSER_OPTIONS_INIT;
  sc_multi_options mo = SC_MULTI_OPTIONS_INIT;
  mo.cycles = cycles;
  mo.on_step = on_step;
  if (sc_loop_new(&loop) < 0) goto out;
  bo.loop = loop; /* the browser's connection lives on the host-run loop */
  if (sc_browser_launch(&b, &bo) < 0 || sc_multi_new(&m, s, &mo) < 0) goto out;
  for (int i = 0; i < users; i++)
    if (sc_multi_add(m, b, argv[2], NULL) < 0) goto out;

  /* The host's loop: its own descriptor first, then stepcheck's. */
  unsigned long wakeups = 0, idle = 0;
  int canceled = 0;
  while (sc_multi_active(m) > 0) {
    struct pollfd fds[MAX_FDS + 1];
    fds[0] = (struct pollfd){canceled ? -1 : STDIN_FILENO, POLLIN, 0};
    int n = sc_loop_fds(loop, fds + 1, MAX_FDS);
    if (n < 0 || n > MAX_FDS) goto out;
    int wait = sc_loop_timeout(loop);
    if (wait < 0) goto out;
    int ready = poll(fds, (nfds_t)n + 1, wait);
    if (ready < 0 && errno != EINTR) goto out;
    if (ready > 0 && (fds[0].revents & (POLLIN | POLLHUP))) {
      char line[64];
      if (read(STDIN_FILENO, line, sizeof line) > 0) { /* a line: stop everyone */
        for (size_t i = 0; i < sc_multi_count(m); i++) sc_multi_cancel(m, (int)i, "host");
      }
      canceled = 1; /* EOF or a line: stdin is not watched again */
    }
    wakeups++;
    int handled = sc_loop_step(loop);
    if (handled < 0) goto out;
    idle += handled == 0;
  }
  code = 0;
  int steps = 0, failed = 0;
  for (size_t i = 0; i < sc_multi_count(m); i++) {
    const sc_run_result *r = sc_multi_result(m, i);
    steps += r->steps_passed + r->steps_failed;
    failed += r->steps_failed;
    if (!r->passed) code = r->error ? 3 : 1;
    if (r->error) fprintf(stderr, "hostloop: user-%d: %s\n", r->user + 1, r->error);
  }
  printf("hostloop: %d users, %d steps, %d failed, %lu wake-ups (%lu idle)\n", users, steps,
         failed, wakeups, idle);
out:
  if (code == 3 && sc_errmsg()[0]) fprintf(stderr, "hostloop: %s\n", sc_errmsg());
  sc_multi_free(m);
  sc_browser_free(b);
  sc_loop_free(loop);
  sc_scenario_free(s);
  return code;
}
