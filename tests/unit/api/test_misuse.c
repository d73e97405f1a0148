/* Misuse of every public function: NULL handles, NULL out pointers and
 * out-of-range arguments answer SC_EINVAL with a message naming the call,
 * or (free functions and accessors) do nothing; none crashes. Each call
 * runs in a child process, so a crash fails its case instead of the suite. */
#include "testutil.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stepcheck.h"

/* Child exit codes: 0 the expected answer, 1 a wrong return, 2 no message. */
enum { WANT_EINVAL, WANT_NOTHING };

typedef struct mcase {
  const char *name;
  int want;
  int (*call)(void); /* returns the function's int, or 0 for void */
} mcase;

static sc_image *tiny(void) {
  sc_image *img = NULL;
  return sc_image_new(&img, 4, 4) == 0 ? img : NULL;
}

static const sc_point k_pt = {1, 1};
static const sc_rect k_rect = {0, 0, 2, 2};

/* page: a NULL page or NULL out */
static int c_page_open_out(void) { return sc_page_open(NULL, NULL, "http://127.0.0.1/", NULL); }
static int c_page_open_browser(void) {
  sc_page *p;
  return sc_page_open(&p, NULL, "http://127.0.0.1/", NULL);
}
static int c_page_move(void) { return sc_page_move(NULL, k_pt); }
static int c_page_click(void) { return sc_page_click(NULL, k_pt); }
static int c_page_wheel(void) { return sc_page_wheel(NULL, k_pt, 1); }
static int c_page_key(void) { return sc_page_key(NULL, "a", 1); }
static int c_page_capture(void) {
  sc_image *img;
  return sc_page_capture(&img, NULL, k_rect, 1, 0, NULL);
}
static int c_page_capture_out(void) { return sc_page_capture(NULL, NULL, k_rect, 1, 0, NULL); }
static int c_page_eval(void) {
  char *j;
  return sc_page_eval(&j, NULL, "1");
}
static int c_page_canvas(void) {
  double x = 7, y = 7;
  int w = 7, h = 7;
  sc_page_canvas(NULL, &x, &y, &w, &h);
  return x == 0 && y == 0 && w == 0 && h == 0 ? 0 : 1;
}
static void c_cb(int status, const char *errmsg, sc_image *img, double first, void *ud) {
  (void)status, (void)errmsg, (void)first, (void)ud;
  sc_image_free(img);
}
static int c_page_rest_async(void) { return sc_page_capture_at_rest_async(NULL, k_rect, 100, c_cb, NULL); }
static int c_page_wait_async(void) {
  sc_image *img = tiny();
  int rc = sc_page_wait_change_async(NULL, (sc_rect){0, 0, 4, 4}, img, 100, c_cb, NULL);
  sc_image_free(img);
  return rc;
}
static int c_page_rest(void) {
  sc_image *img;
  return sc_page_capture_at_rest(&img, NULL, k_rect, 100);
}
static int c_page_type(void) { return sc_page_type(NULL, "a"); }
static int c_loop_run(void) { return sc_loop_run(NULL, 1); }
static int c_page_loop(void) { return sc_page_loop(NULL) != NULL; }
static int c_page_free(void) {
  sc_page_free(NULL);
  return 0;
}

/* browser and grid */
static int c_browser_launch(void) { return sc_browser_launch(NULL, NULL); }
static int c_browser_connect(void) { return sc_browser_connect(NULL, "127.0.0.1:9", NULL); }
static int c_browser_connect_ep(void) {
  sc_browser *b;
  return sc_browser_connect(&b, NULL, NULL);
}
static int c_browser_accessors(void) {
  sc_browser_free(NULL);
  return strcmp(sc_browser_product(NULL), "") || sc_browser_pid(NULL) != 0 ||
         strcmp(sc_browser_ws_url(NULL), "");
}
static int c_grid_new(void) { return sc_grid_session_new(NULL, "http://127.0.0.1:9", NULL); }
static int c_grid_new_url(void) {
  sc_grid_session *g;
  return sc_grid_session_new(&g, NULL, NULL);
}
static int c_grid_delete(void) { return sc_grid_session_delete(NULL); }
static int c_grid_accessors(void) {
  sc_grid_session_free(NULL);
  return strcmp(sc_grid_session_cdp_url(NULL), "") || strcmp(sc_grid_session_id(NULL), "");
}

/* loop, multi, run, load */
static int c_loop_new(void) { return sc_loop_new(NULL); }
static int c_loop_free(void) {
  sc_loop_free(NULL);
  return 0;
}
static int c_multi_new(void) { return sc_multi_new(NULL, NULL, NULL); }
static int c_multi_new_scenario(void) {
  sc_multi *m;
  return sc_multi_new(&m, NULL, NULL);
}
static int c_multi_add(void) { return sc_multi_add(NULL, NULL, NULL, NULL); }
static int c_multi_perform(void) { return sc_multi_perform(NULL, 1); }
static int c_multi_cancel(void) { return sc_multi_cancel(NULL, 0, "x"); }
static int c_multi_accessors(void) {
  sc_multi_free(NULL);
  return sc_multi_count(NULL) != 0 || sc_multi_result(NULL, 0) != NULL ||
         sc_multi_running(NULL, 0) != 0 || sc_multi_take(NULL, 0) != NULL;
}
static int c_run_out(void) { return sc_run_scenario(NULL, NULL, NULL); }
static int c_run_scenario(void) {
  sc_run_result *r;
  return sc_run_scenario(&r, NULL, NULL);
}
static int c_run_cycles(void) {
  char path[4096];
  snprintf(path, sizeof path, "%s/scenario/valid-small.json", getenv("SC_FIXTURES"));
  sc_scenario *s = NULL;
  int rc = sc_scenario_load(&s, path);
  if (rc) return 100 - rc; /* the fixture itself must load */
  sc_run_options o = SC_RUN_OPTIONS_INIT;
  o.cycles = 0;
  sc_run_result *r = NULL;
  rc = sc_run_scenario(&r, s, &o);
  sc_scenario_free(s);
  return rc;
}
static int c_run_free(void) {
  sc_run_result_free(NULL);
  sc_load_result_free(NULL);
  sc_page_options po;
  sc_run_page_options(&po, NULL); /* defaults */
  sc_run_page_options(NULL, NULL);
  return po.viewport_w > 0 ? 0 : 1;
}
static int c_load_out(void) { return sc_load_run(NULL, NULL, NULL); }
static int c_load_scenario(void) {
  sc_load_result *r;
  return sc_load_run(&r, NULL, NULL);
}

/* scenario */
static int c_scn_parse_out(void) { return sc_scenario_parse(NULL, "{}", "x"); }
static int c_scn_parse_json(void) {
  sc_scenario *s;
  return sc_scenario_parse(&s, NULL, "x");
}
static int c_scn_load_out(void) { return sc_scenario_load(NULL, "x.json"); }
static int c_scn_load_path(void) {
  sc_scenario *s;
  return sc_scenario_load(&s, NULL);
}
static int c_scn_validate(void) { return sc_scenario_validate(NULL, NULL, NULL); }
static int c_scn_misc(void) {
  sc_scenario_free(NULL);
  return sc_scenario_region(NULL, "r") != -1;
}
/* The model's accessors: NULL reads as nothing, never a crash. */
static int c_scn_accessors(void) {
  int w = 1, h = 1;
  sc_point at = {1, 1};
  sc_scenario_guest_size(NULL, &w, &h);
  sc_scenario_viewport(NULL, NULL, NULL);
  sc_rect r = sc_scenario_region_rect(NULL, 0);
  sc_point p = sc_scenario_point(NULL, 0);
  int rep = 1;
  return sc_scenario_path(NULL) || sc_scenario_app(NULL) || sc_scenario_url(NULL) || w || h ||
         sc_scenario_nregions(NULL) || sc_scenario_region_name(NULL, 0) || r.w ||
         sc_scenario_npoints(NULL) || sc_scenario_point_name(NULL, 0) || p.x != 0 ||
         sc_scenario_nsteps(NULL) || sc_scenario_step(NULL, 0) || sc_scenario_nsetup(NULL) ||
         sc_scenario_setup_step(NULL, 0) || sc_scenario_rest(NULL) ||
         sc_scenario_canvas(NULL) || sc_step_id(NULL) || sc_step_action(NULL) ||
         sc_step_point(NULL, &at) || sc_step_notches(NULL) || sc_step_key(NULL, &rep) || rep ||
         sc_step_timeout_ms(NULL) != 0 || sc_step_line(NULL) || sc_step_nexpect(NULL) ||
         sc_step_expect(NULL, 0) || sc_expect_kind_of(NULL) || sc_expect_region(NULL) != -1 ||
         sc_expect_json(NULL, NULL);
}
static int c_scn_set_rest(void) { return sc_scenario_set_rest(NULL, "pairs"); }
static int c_scn_set_canvas(void) { return sc_scenario_set_canvas(NULL, "#c"); }

/* image */
static int c_img_new(void) { return sc_image_new(NULL, 4, 4); }
static int c_img_new_size(void) {
  sc_image *img;
  return sc_image_new(&img, -1, 4);
}
static int c_img_decode(void) { return sc_image_decode_png(NULL, "x", 1, NULL); }
static int c_img_decode_buf(void) {
  sc_image *img;
  return sc_image_decode_png(&img, NULL, 5, NULL);
}
static int c_img_load(void) { return sc_image_load_png(NULL, "x.png", NULL); }
static int c_img_load_path(void) {
  sc_image *img;
  return sc_image_load_png(&img, NULL, NULL);
}
static int c_img_encode(void) {
  void *buf;
  size_t len;
  return sc_image_encode_png(&buf, &len, NULL);
}
static int c_img_save(void) { return sc_image_save_png(NULL, "/nonexistent/x.png"); }
static int c_img_save_path(void) {
  sc_image *img = tiny();
  int rc = sc_image_save_png(img, NULL);
  sc_image_free(img);
  return rc;
}
static int c_img_crop(void) { return sc_image_crop(NULL, NULL, k_rect); }
static int c_img_crop_src(void) {
  sc_image *img;
  return sc_image_crop(&img, NULL, k_rect);
}
static int c_img_crop_outside(void) {
  sc_image *img = tiny(), *out = NULL;
  int rc = sc_image_crop(&out, img, (sc_rect){3, 3, 2, 2});
  sc_image_free(img);
  sc_image_free(out);
  return rc;
}
static int c_img_diff(void) {
  size_t n;
  return sc_image_diff(&n, NULL, NULL, NULL, k_rect, NULL, k_rect, NULL);
}
static int c_img_find(void) {
  sc_match m;
  return sc_image_find(&m, 1, NULL, NULL, k_rect, 0, 1.0);
}
static int c_img_find_out(void) {
  sc_image *img = tiny();
  int rc = sc_image_find(NULL, 1, img, img, k_rect, 0, 1.0);
  sc_image_free(img);
  return rc;
}
static int c_img_find_range(void) {
  sc_image *img = tiny();
  sc_match m;
  int rc = sc_image_find(&m, 1, img, img, k_rect, 0, NAN);
  sc_image_free(img);
  return rc;
}
static int c_img_search(void) {
  sc_search_options o = SC_SEARCH_OPTIONS_INIT;
  return sc_image_search(NULL, 0, NULL, NULL, NULL, &o);
}
static int c_img_search_range(void) {
  sc_image *img = tiny();
  sc_search_options o = SC_SEARCH_OPTIONS_INIT;
  o.time_limit_ms = NAN;
  int rc = sc_image_search(NULL, 0, NULL, img, img, &o);
  sc_image_free(img);
  return rc;
}
static int c_search_init(void) { return sc_search_options_init(NULL, SC_SEARCH_OPTIONS_VERSION); }
static int c_img_keep(void) { return (int)sc_image_keep_color(NULL, 0, 0); }
static int c_img_misc(void) {
  sc_image_free(NULL);
  (void)sc_image_hash(NULL, k_rect);
  return sc_image_pixel(NULL, 0, 0) != 0 || sc_image_count_color(NULL, k_rect, 0, 0) != 0;
}

/* text */
static int c_gs_new(void) { return sc_glyphset_new(NULL, 0, 0); }
static int c_gs_new_tol(void) {
  sc_glyphset *g;
  return sc_glyphset_new(&g, 0, 300);
}
static int c_gs_load(void) { return sc_glyphset_load(NULL, "josm"); }
static int c_gs_load_name(void) {
  sc_glyphset *g;
  return sc_glyphset_load(&g, NULL);
}
static int c_gs_parse(void) { return sc_glyphset_parse(NULL, "", 0); }
static int c_gs_save(void) { return sc_glyphset_save(NULL, "/tmp/x"); }
static int c_gs_learn(void) { return sc_glyphset_learn(NULL, NULL, k_rect, "a"); }
static int c_gs_misc(void) {
  sc_glyphset_free(NULL);
  return sc_glyphset_count(NULL) != 0;
}
static int c_text_read(void) { return sc_text_read(NULL, NULL, k_rect, NULL, NULL); }
static int c_scalebar_read(void) { return sc_scalebar_read(NULL, NULL, k_rect, "josm", NULL); }
static int c_scale_ratio(void) { return sc_scale_ratio(NULL, NULL, NULL, NULL); }

/* reports */
static int c_rep_table(void) { return sc_report_table(NULL, NULL); }
static int c_rep_json(void) { return sc_report_json(NULL, NULL); }
static int c_rep_junit(void) { return sc_report_junit("/tmp/x", NULL); }
static int c_rep_jtl(void) { return sc_report_jtl(NULL, NULL); }
static int c_rep_load_table(void) { return sc_report_load_table(stdout, NULL); }
static int c_rep_load_json(void) { return sc_report_load_json(NULL, NULL); }
static int c_rep_load_junit(void) { return sc_report_load_junit(NULL, NULL); }
static int c_rep_load_jtl(void) { return sc_report_load_jtl(NULL, NULL); }
static int c_rep_html(void) { return sc_report_html("/tmp/x", NULL); }
static int c_rep_load_html(void) { return sc_report_load_html(NULL, NULL); }

/* core */
static int c_core(void) {
  sc_free(NULL);
  char buf[4] = "x";
  return strcmp(sc_strerror(12345), "unknown error") != 0 || sc_errmsg() == NULL ||
         sc_version() == NULL || sc_escape_ctl(NULL, 4, "a") != 0 ||
         sc_escape_ctl(buf, 0, "a") != 0 || sc_escape_ctl(buf, sizeof buf, NULL) != 0 ||
         buf[0] != '\0';
}

#define E(fn) {#fn, WANT_EINVAL, fn}
#define N(fn) {#fn, WANT_NOTHING, fn}
static const mcase k_cases[] = {
    E(c_page_open_out), E(c_page_open_browser), E(c_page_move), E(c_page_click),
    E(c_page_wheel), E(c_page_key), E(c_page_capture), E(c_page_capture_out), E(c_page_eval),
    N(c_page_canvas), N(c_page_free), E(c_page_rest_async), E(c_page_wait_async),
    E(c_page_rest), E(c_page_type), E(c_loop_run), N(c_page_loop),
    E(c_browser_launch), E(c_browser_connect), E(c_browser_connect_ep), N(c_browser_accessors),
    E(c_grid_new), E(c_grid_new_url), E(c_grid_delete), N(c_grid_accessors),
    E(c_loop_new), N(c_loop_free), E(c_multi_new), E(c_multi_new_scenario), E(c_multi_add),
    E(c_multi_perform), E(c_multi_cancel), N(c_multi_accessors), E(c_run_out),
    E(c_run_scenario), E(c_run_cycles), N(c_run_free), E(c_load_out), E(c_load_scenario),
    E(c_scn_parse_out), E(c_scn_parse_json), E(c_scn_load_out), E(c_scn_load_path),
    E(c_scn_validate), N(c_scn_misc), N(c_scn_accessors), E(c_scn_set_rest),
    E(c_scn_set_canvas),
    E(c_img_new), E(c_img_new_size), E(c_img_decode), E(c_img_decode_buf), E(c_img_load),
    E(c_img_load_path), E(c_img_encode), E(c_img_save), E(c_img_save_path), E(c_img_crop),
    E(c_img_crop_src), E(c_img_crop_outside), E(c_img_diff),
    E(c_img_find), E(c_img_find_out), E(c_img_find_range), E(c_img_search), E(c_img_search_range),
    E(c_search_init), E(c_img_keep), N(c_img_misc),
    E(c_gs_new), E(c_gs_new_tol), E(c_gs_load), E(c_gs_load_name), E(c_gs_parse),
    E(c_gs_save), E(c_gs_learn), N(c_gs_misc), E(c_text_read), E(c_scalebar_read),
    E(c_scale_ratio),
    E(c_rep_table), E(c_rep_json), E(c_rep_junit), E(c_rep_jtl), E(c_rep_load_table),
    E(c_rep_load_json), E(c_rep_load_junit), E(c_rep_load_jtl), E(c_rep_html),
    E(c_rep_load_html), N(c_core),
};

/* Run one case in a child: 0 when it answered as wanted, else a line why. */
static int run_case(const mcase *c, char *why, size_t n) {
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    /* cmocka traps crashes to report them: the child must die of them. */
    int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) signal(sigs[i], SIG_DFL);
    int rc = c->call();
    if (c->want == WANT_NOTHING) _exit(rc == 0 ? 0 : 1);
    if (rc != SC_EINVAL) {
      fprintf(stderr, "%s: returned %d (%s), want SC_EINVAL\n", c->name, rc, sc_strerror(rc));
      _exit(1);
    }
    _exit(sc_errmsg()[0] ? 0 : 2);
  }
  int st = 0;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  if (WIFSIGNALED(st)) return snprintf(why, n, "%s: killed by signal %d", c->name, WTERMSIG(st));
  if (WEXITSTATUS(st) == 2) return snprintf(why, n, "%s: SC_EINVAL without a message", c->name);
  if (WEXITSTATUS(st)) return snprintf(why, n, "%s: wrong answer (exit %d)", c->name, WEXITSTATUS(st));
  return 0;
}

static void every_public_function(void **state) {
  (void)state;
  int bad = 0;
  for (size_t i = 0; i < sizeof k_cases / sizeof *k_cases; i++) {
    char why[256];
    if (run_case(&k_cases[i], why, sizeof why)) {
      print_message("%s\n", why);
      bad++;
    }
  }
  assert_int_equal(bad, 0);
}

/* The suite can fail: a case that crashes, or answers 0, is caught. */
static int c_sabotage_crash(void) {
  raise(SIGSEGV); /* a crash (a NULL load would be UBSan's report, not a signal) */
  return 0;
}
static int c_sabotage_ok(void) { return 0; }

static void the_harness_catches_crashes_and_wrong_answers(void **state) {
  (void)state;
  char why[256];
  mcase crash = {"crash", WANT_EINVAL, c_sabotage_crash};
  mcase ok = {"ok", WANT_EINVAL, c_sabotage_ok};
  assert_true(run_case(&crash, why, sizeof why) > 0);
  assert_non_null(strstr(why, "signal"));
  assert_true(run_case(&ok, why, sizeof why) > 0);
}

/* The error table: every code distinct, named, and no sentinel sharing a
 * code (an enum member after the table once equalled a real error). */
static void error_codes_are_distinct(void **state) {
  (void)state;
  static const int codes[] = {
#define XX(name, code, msg) SC_##name,
      SC_ERRNO_MAP(XX)
#undef XX
  };
  size_t n = sizeof codes / sizeof *codes;
  for (size_t i = 0; i < n; i++) {
    assert_true(codes[i] < 0);
    assert_string_not_equal(sc_strerror(codes[i]), "unknown error");
    for (size_t j = i + 1; j < n; j++) {
      assert_int_not_equal(codes[i], codes[j]);
      assert_string_not_equal(sc_strerror(codes[i]), sc_strerror(codes[j]));
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_public_function),
      cmocka_unit_test(error_codes_are_distinct),
      cmocka_unit_test(the_harness_catches_crashes_and_wrong_answers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
