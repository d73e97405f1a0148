/* The quality bar of a load run (run/quality.c) on hand-made results: one
 * warm-up, three users added 10 s apart, three levels. Every number in the
 * expected reasons is worked out in the comments.
 *
 * Scenario: setup "load", cycle steps "a" (timeout 3000 ms) and "b"
 * (timeout: the default 8000 ms).
 * Warm-up: load 1000 ms; cycle 1 a 240 + b 100 (600 ms span), cycle 2 a 200
 * + b 400 (1400 ms span). So the bars are: load 3000, a max(720, 750) = 750,
 * b 1200; the stall limit 6 x 1400 = 8400 ms.
 * Users (times since the load start): user k starts at 10000k and ends at
 * 30000; load at +100 (900 ms); cycle c (1-based) at 10000k + 1000 +
 * 2000(c-1): a 300 ms, then b 500 ms later, 300 ms, so it completes at
 * 10000k + 1800 + 2000(c-1). user-1 runs 14 cycles, user-2 9, user-3 4.
 * Levels: [0,10000) 1 user, [10000,20000) 2, [20000,30000) 3. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "run/quality.h"
#include "stepcheck.h"
#include "scenario/model.h"

#define T0 1700000000000.0
#define MAXR 64

typedef struct user_fx {
  sc_step_result res[MAXR];
  sc_step_result *resp[MAXR];
  sc_run_result run;
} user_fx;

typedef struct fixture {
  sc_scenario sc;
  sc_step setup[1], steps[2];
  user_fx warm, u[3];
  sc_run_result *users[3];
  sc_level lv[3];
  sc_level *lvp[3];
} fixture;

/* A result at start (ms since the load start); verified < 0: failed. */
static sc_step_result *add(user_fx *u, const char *id, int cycle, double start,
                           double verified) {
  assert_true(u->run.nresults < MAXR);
  sc_step_result *s = &u->res[u->run.nresults];
  *s = (sc_step_result){.step_id = id, .cycle = cycle, .setup = cycle == 0,
                        .passed = verified >= 0, .started_unix_ms = T0 + start,
                        .gesture_ms = 50, .first_change_ms = -1, .verified_ms = verified};
  u->resp[u->run.nresults++] = s;
  return s;
}

static sc_step_result *find(user_fx *u, const char *id, int cycle) {
  for (size_t i = 0; i < u->run.nresults; i++)
    if (!strcmp(u->resp[i]->step_id, id) && u->resp[i]->cycle == cycle) return u->resp[i];
  fail_msg("no %s in cycle %d", id, cycle);
  return NULL;
}

/* Drop the results of cycles lo..hi. */
static void drop(user_fx *u, int lo, int hi) {
  size_t n = 0;
  for (size_t i = 0; i < u->run.nresults; i++)
    if (u->resp[i]->cycle < lo || u->resp[i]->cycle > hi) u->resp[n++] = u->resp[i];
  u->run.nresults = n;
}

static fixture *make(void) {
  fixture *fx = calloc(1, sizeof *fx);
  fx->sc.app = "map";
  fx->sc.default_timeout_ms = 8000;
  fx->setup[0].id = "load";
  fx->steps[0].id = "a";
  fx->steps[0].timeout_ms = 3000;
  fx->steps[1].id = "b";
  fx->sc.setup = fx->setup;
  fx->sc.nsetup = 1;
  fx->sc.steps = fx->steps;
  fx->sc.nsteps = 2;

  user_fx *w = &fx->warm;
  w->run.scenario = &fx->sc;
  w->run.results = w->resp;
  w->run.user_name = "warm-up";
  w->run.started_unix_ms = T0 - 11000;
  w->run.ended_unix_ms = T0 - 4000;
  add(w, "load", 0, -10000, 1000);
  add(w, "a", 1, -8000, 240);
  add(w, "b", 1, -7500, 100);
  add(w, "a", 2, -6000, 200);
  add(w, "b", 2, -5000, 400);

  static const char *names[] = {"user-1", "user-2", "user-3"};
  static const int cycles[] = {14, 9, 4};
  for (int k = 0; k < 3; k++) {
    user_fx *u = &fx->u[k];
    double start = 10000.0 * k;
    u->run.scenario = &fx->sc;
    u->run.results = u->resp;
    u->run.user = k;
    u->run.user_name = names[k];
    u->run.started_unix_ms = T0 + start;
    u->run.ended_unix_ms = T0 + 30000;
    add(u, "load", 0, start + 100, 900);
    for (int c = 1; c <= cycles[k]; c++) {
      add(u, "a", c, start + 1000 + 2000.0 * (c - 1), 300);
      add(u, "b", c, start + 1500 + 2000.0 * (c - 1), 300);
    }
    fx->users[k] = &u->run;
    fx->lv[k] = (sc_level){.index = k, .users = k + 1, .start_ms = 10000.0 * k,
                           .end_ms = 10000.0 * (k + 1)};
    fx->lvp[k] = &fx->lv[k];
  }
  return fx;
}

static int judge_with(fixture *fx, const sc_run_result *warmup) {
  int last = -1;
  assert_int_equal(sc__quality_judge(&last, fx->lvp, 3, T0, warmup, fx->users, 3), 0);
  return last;
}

static int judge(fixture *fx) { return judge_with(fx, &fx->warm.run); }

static void done(fixture *fx) {
  for (int i = 0; i < 3; i++) sc__free(fx->lv[i].reason);
  free(fx);
}

static void assert_healthy(const fixture *fx, int i) {
  if (!fx->lv[i].healthy || fx->lv[i].reason)
    fail_msg("level %d degraded: %s", i, fx->lv[i].reason ? fx->lv[i].reason : "(no reason)");
}

static void assert_degraded(const fixture *fx, int i, const char *reason) {
  assert_false(fx->lv[i].healthy);
  assert_non_null(fx->lv[i].reason);
  assert_string_equal(fx->lv[i].reason, reason);
}

static void bars_from_warmup(void **st) {
  (void)st;
  fixture *fx = make();
  const sc_run_result *w = &fx->warm.run;
  assert_near(sc__quality_warm_ms(w, "a"), 240, 0);
  assert_near(sc__quality_warm_ms(w, "nope"), -1, 0);
  assert_near(sc__quality_step_bar(w, "load"), 3000, 0); /* 3 x 1000 */
  assert_near(sc__quality_step_bar(w, "a"), 750, 0);     /* 3 x 240 = 720: the floor */
  assert_near(sc__quality_step_bar(w, "b"), 1200, 0);    /* 3 x 400 */
  assert_near(sc__quality_step_bar(w, "nope"), 750, 0);  /* never verified: floor */
  assert_near(sc__quality_step_bar(NULL, "a"), 750, 0);
  assert_near(sc__quality_cycle_ms(w), 1400, 0);         /* the longest, not the first */
  assert_near(sc__quality_cycle_ms(NULL), 0, 0);
  /* a cycle missing a step is not a cycle: only cycle 1 (600 ms) is left */
  drop(&fx->warm, 2, 2);
  add(&fx->warm, "a", 2, -6000, 200);
  assert_near(sc__quality_cycle_ms(w), 600, 0);
  /* a cycle ends when its last-ending step does, a failed one after its
   * timeout: a at -3000 fails at 0 (3000 ms timeout), after b (-2400) */
  add(&fx->warm, "a", 3, -3000, -1);
  add(&fx->warm, "b", 3, -2500, 100);
  assert_near(sc__quality_cycle_ms(w), 3000, 0);
  assert_near(sc__quality_warm_ms(w, "a"), 240, 0); /* failures set no bar */
  done(fx);
}

/* Every result lands in the level where it ended:
 * level 0: user-1 load (ends 1000) and cycles 1-5 (b of 5 ends 9800) = 11;
 * level 1: user-1 cycles 6-10 (10), user-2 load + cycles 1-5 (11) = 21;
 * level 2: user-1 cycles 11-14 (8), user-2 cycles 6-9 (8), user-3 load +
 * cycles 1-4 (9) = 25. */
static void healthy(void **st) {
  (void)st;
  fixture *fx = make();
  fx->lv[0].reason = sc__strdup("stale"); /* a reason from before is dropped */
  assert_int_equal(judge(fx), 3);
  const int passed[] = {11, 21, 25};
  for (int i = 0; i < 3; i++) {
    assert_healthy(fx, i);
    assert_int_equal(fx->lv[i].steps_passed, passed[i]);
    assert_int_equal(fx->lv[i].steps_failed, 0);
  }
  done(fx);
}

/* user-2's b of cycle 3 (starts 15500) takes 1201 ms > 3 x 400: level 1 of
 * three degrades, so the last healthy level is level 0 (made 2 users). */
static void slow_step_over_bar(void **st) {
  (void)st;
  fixture *fx = make();
  find(&fx->u[1], "b", 3)->verified_ms = 1201;
  fx->lv[0].users = 2; /* the answer is the level's users, not its position */
  assert_int_equal(judge(fx), 2);
  assert_healthy(fx, 0);
  assert_degraded(fx, 1, "user-2: b 1201 ms > bar 1200 ms (3 x warm-up 400 ms, floor 750)");
  assert_healthy(fx, 2);
  assert_int_equal(fx->lv[1].steps_passed, 21); /* slow but verified: still passed */
  done(fx);
}

/* Exactly at the bar is within it. */
static void at_bar_is_healthy(void **st) {
  (void)st;
  fixture *fx = make();
  find(&fx->u[1], "b", 3)->verified_ms = 1200;
  find(&fx->u[0], "a", 1)->verified_ms = 750;
  find(&fx->u[2], "load", 0)->verified_ms = 3000;
  assert_int_equal(judge(fx), 3);
  for (int i = 0; i < 3; i++) assert_healthy(fx, i);
  done(fx);
}

/* a: 740 ms is over 3 x 240 = 720 but under the 750 ms floor; 751 is over. */
static void floor_under_bar(void **st) {
  (void)st;
  fixture *fx = make();
  find(&fx->u[0], "a", 1)->verified_ms = 740;
  assert_int_equal(judge(fx), 3);
  assert_healthy(fx, 0);
  find(&fx->u[0], "a", 1)->verified_ms = 751;
  assert_int_equal(judge(fx), 0); /* level 0 degraded: none was healthy */
  assert_degraded(fx, 0, "user-1: a 751 ms > bar 750 ms (3 x warm-up 240 ms, floor 750)");
  done(fx);
}

/* user-1's a of cycle 5 starts at 9000 in level 0 and fails after its
 * 3000 ms timeout, at 12000: it counts (and degrades) in level 1. */
static void failure_counts_where_it_ended(void **st) {
  (void)st;
  fixture *fx = make();
  sc_step_result *s = find(&fx->u[0], "a", 5);
  s->passed = 0;
  s->verified_ms = -1;
  s->reason = "map unchanged after 3000 ms";
  assert_int_equal(judge(fx), 1);
  assert_healthy(fx, 0);
  assert_int_equal(fx->lv[0].steps_passed, 10);
  assert_int_equal(fx->lv[0].steps_failed, 0);
  assert_degraded(fx, 1, "user-1: a failed: map unchanged after 3000 ms");
  assert_int_equal(fx->lv[1].steps_passed, 21);
  assert_int_equal(fx->lv[1].steps_failed, 1);
  done(fx);
}

/* A result ending exactly at a level's end belongs to the next level:
 * user-1's b of cycle 5 at 9500 taking 500 ms ends at 10000. */
static void ends_on_boundary(void **st) {
  (void)st;
  fixture *fx = make();
  find(&fx->u[0], "b", 5)->verified_ms = 500;
  assert_int_equal(judge(fx), 3);
  assert_int_equal(fx->lv[0].steps_passed, 10);
  assert_int_equal(fx->lv[1].steps_passed, 22);
  done(fx);
}

/* user-3's load (setup, 20100 + the 8000 ms default timeout = 28100). */
static void setup_failure(void **st) {
  (void)st;
  fixture *fx = make();
  sc_step_result *s = find(&fx->u[2], "load", 0);
  s->passed = 0;
  s->verified_ms = -1;
  s->reason = "no canvas";
  assert_int_equal(judge(fx), 2);
  assert_degraded(fx, 2, "user-3: load failed: no canvas");
  assert_int_equal(fx->lv[2].steps_failed, 1);
  assert_int_equal(fx->lv[2].steps_passed, 24);
  done(fx);
}

/* user-2 loses cycles 4-7: cycle 3 completes at 15800, cycle 8 at 25800,
 * 10000 ms > 8400; past the limit from 24200, in level 2. */
static void stall_between_cycles(void **st) {
  (void)st;
  fixture *fx = make();
  drop(&fx->u[1], 4, 7);
  assert_int_equal(judge(fx), 2);
  assert_healthy(fx, 0);
  assert_healthy(fx, 1);
  assert_degraded(fx, 2, "user-2: no cycle completed for 10000 ms > 6 x warm-up cycle 1400 ms");
  done(fx);
}

/* user-1 completes cycle 1 (at 1800), then only half of cycle 2, then
 * nothing until its end at 30000: 28200 ms; past the limit from 10200, so
 * levels 1 and 2 both degrade. (If the half cycle counted, it would read
 * 26700 ms.) */
static void stall_to_the_end(void **st) {
  (void)st;
  fixture *fx = make();
  drop(&fx->u[0], 3, 14);
  user_fx *u = &fx->u[0];
  size_t n = 0;
  for (size_t i = 0; i < u->run.nresults; i++)
    if (!(u->resp[i]->cycle == 2 && !strcmp(u->resp[i]->step_id, "b"))) u->resp[n++] = u->resp[i];
  u->run.nresults = n;
  assert_int_equal(judge(fx), 1);
  assert_healthy(fx, 0);
  const char *why = "user-1: no cycle completed for 28200 ms > 6 x warm-up cycle 1400 ms";
  assert_degraded(fx, 1, why);
  assert_degraded(fx, 2, why);
  done(fx);
}

/* user-1 stops after cycle 10 (completes at 19800): ending 8400 ms later is
 * within the limit, 8401 is not (degraded from 28200, level 2). */
static void stall_boundary(void **st) {
  (void)st;
  fixture *fx = make();
  drop(&fx->u[0], 11, 14);
  fx->u[0].run.ended_unix_ms = T0 + 28200;
  assert_int_equal(judge(fx), 3);
  assert_healthy(fx, 2);
  fx->u[0].run.ended_unix_ms = T0 + 28201;
  assert_int_equal(judge(fx), 2);
  assert_degraded(fx, 2, "user-1: no cycle completed for 8401 ms > 6 x warm-up cycle 1400 ms");
  /* still running (no end): up to the last level's end, 10200 ms */
  fx->u[0].run.ended_unix_ms = 0;
  assert_int_equal(judge(fx), 2);
  assert_degraded(fx, 2, "user-1: no cycle completed for 10200 ms > 6 x warm-up cycle 1400 ms");
  done(fx);
}

/* An infrastructure error degrades the level in which the user ended. */
static void infrastructure_error(void **st) {
  (void)st;
  fixture *fx = make();
  fx->u[1].run.error = "chromium crashed";
  fx->u[1].run.ended_unix_ms = T0 + 19000;
  drop(&fx->u[1], 5, 9); /* it stopped after cycle 4 (ends 17800) */
  assert_int_equal(judge(fx), 1);
  assert_degraded(fx, 1, "user-2: error: chromium crashed");
  assert_healthy(fx, 2);
  done(fx);
}

/* Two reasons in level 1: user-1's slow b ends at 18800 (cycle 9: 17500 +
 * 1300), user-2's at 12750 (cycle 1: 11500 + 1250). user-1 is judged first,
 * the level names the earlier one. */
static void earliest_reason(void **st) {
  (void)st;
  fixture *fx = make();
  find(&fx->u[0], "b", 9)->verified_ms = 1300;
  find(&fx->u[1], "b", 1)->verified_ms = 1250;
  assert_int_equal(judge(fx), 1);
  assert_degraded(fx, 1, "user-2: b 1250 ms > bar 1200 ms (3 x warm-up 400 ms, floor 750)");
  done(fx);
}

/* No warm-up: no bar; only failures and errors degrade. */
static void no_warmup(void **st) {
  (void)st;
  fixture *fx = make();
  find(&fx->u[1], "b", 3)->verified_ms = 5000;
  drop(&fx->u[0], 3, 14);
  assert_int_equal(judge_with(fx, NULL), 3);
  for (int i = 0; i < 3; i++) assert_healthy(fx, i);
  fx->u[2].run.error = "page closed";
  assert_int_equal(judge_with(fx, NULL), 2);
  assert_degraded(fx, 2, "user-3: error: page closed");
  done(fx);
}

static void bad_arguments(void **st) {
  (void)st;
  fixture *fx = make();
  int last = 7;
  assert_int_equal(sc__quality_judge(NULL, fx->lvp, 3, T0, NULL, fx->users, 3), SC_EINVAL);
  assert_int_equal(sc__quality_judge(&last, NULL, 3, T0, NULL, fx->users, 3), SC_EINVAL);
  assert_int_equal(sc__quality_judge(&last, fx->lvp, 0, T0, NULL, fx->users, 3), 0);
  assert_int_equal(last, 0);
  done(fx);
}

/* Every allocation failing in turn: SC_ENOMEM or the full verdict, no leak. */
static void alloc_failure(void **st) {
  (void)st;
  fixture *fx = make();
  find(&fx->u[1], "b", 3)->verified_ms = 1201;
  drop(&fx->u[0], 3, 14);
  fx->u[2].run.error = "page closed";
  sc_test_alloc_install();
  long live = sc_test_alloc_live();
  int ok = 0;
  for (long n = 0; n < 200 && !ok; n++) {
    int last = -1;
    sc_test_alloc_fail_after(n);
    int rc = sc__quality_judge(&last, fx->lvp, 3, T0, &fx->warm.run, fx->users, 3);
    sc_test_alloc_fail_after(-1);
    if (rc == 0) {
      ok = 1;
      assert_int_equal(last, 1);
    } else {
      assert_int_equal(rc, SC_ENOMEM);
    }
    for (int i = 0; i < 3; i++) {
      sc__free(fx->lv[i].reason);
      fx->lv[i].reason = NULL;
    }
    assert_int_equal(sc_test_alloc_live(), live);
  }
  assert_true(ok);
  sc_set_allocator(NULL, NULL, NULL);
  done(fx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bars_from_warmup),
      cmocka_unit_test(healthy),
      cmocka_unit_test(slow_step_over_bar),
      cmocka_unit_test(at_bar_is_healthy),
      cmocka_unit_test(floor_under_bar),
      cmocka_unit_test(failure_counts_where_it_ended),
      cmocka_unit_test(ends_on_boundary),
      cmocka_unit_test(setup_failure),
      cmocka_unit_test(stall_between_cycles),
      cmocka_unit_test(stall_to_the_end),
      cmocka_unit_test(stall_boundary),
      cmocka_unit_test(infrastructure_error),
      cmocka_unit_test(earliest_reason),
      cmocka_unit_test(no_warmup),
      cmocka_unit_test(bad_arguments),
      cmocka_unit_test(alloc_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
