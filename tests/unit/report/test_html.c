/* The HTML report's structure: a failure's reason escaped and its images
 * shown by URLs relative to the page, the verdict and the summary exactly
 * the text table's, every timing and scale reading of a row, the chart's
 * points and failure marks, hostile text kept as text, image URLs worked
 * out from paths, the load page per user; errors and allocation failure.
 * (tests/cli/html.sh renders a real run's page in Chromium.) */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "report/report_int.h"
#include "stepcheck.h"

#define T0 1700000000000.0
#define NRES 7

static const char *k_reason = "scale x0.2500 (want x0.1250), bar \"100 m\" <unreadable> & 'x'";
static const char *k_hostile = "\"><script>alert(1)</script><img src=x onerror=alert(2)>\x01";
static const char *k_rest_why = "the paint log is off";

/* One row of the hand-made run: id, cycle (0 setup), verified (< 0 failed). */
typedef struct row {
  const char *id;
  int cycle;
  double verified;
} row;

static const row k_rows[NRES] = {
    {"load", 0, 1250.25},  {"zoom-in", 1, 905.75}, {"zoom-out", 1, 870.15},
    {"zoom-in", 2, -1},    {"zoom-out", 2, 1020.0}, {"zoom-in", 3, 640.5},
    {"zoom-out", 3, 700.0},
};
#define FAILED_ROW 3

typedef struct fixture {
  char *dir, page[512];
  char *arts[3]; /* the failure's images, in dir */
  sc_scenario sc;
  sc_step steps[2];
  sc_step_result res[NRES];
  sc_step_result *resp[NRES];
  sc_run_result run;
} fixture;

/* A small PNG at path: the page shows only images whose file is there. */
static void put_png(const char *path) {
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, 8, 4), 0);
  assert_int_equal(sc_image_save_png(img, path), 0);
  sc_image_free(img);
}

static fixture *make_run(void) {
  fixture *fx = calloc(1, sizeof *fx);
  fx->dir = sc_test_mkdtemp();
  snprintf(fx->page, sizeof fx->page, "%s/report.html", fx->dir);
  const char *kinds[] = {"before", "after", "diff"};
  for (int k = 0; k < 3; k++) {
    size_t n = strlen(fx->dir) + 64;
    fx->arts[k] = malloc(n);
    snprintf(fx->arts[k], n, "%s/user@c2-zoom-in@scalebar-%s.png", fx->dir, kinds[k]);
    put_png(fx->arts[k]);
  }
  fx->sc.path = "fixtures/mapapp/seven-steps.json";
  fx->sc.app = "mapapp";
  fx->sc.url = "http://127.0.0.1:8000/index.html?a=1&b=2";
  fx->sc.default_timeout_ms = 5000;
  fx->steps[0].id = "zoom-in";
  fx->steps[1].id = "zoom-out";
  fx->sc.steps = fx->steps;
  fx->sc.nsteps = 2;
  for (int i = 0; i < NRES; i++) {
    const row *w = &k_rows[i];
    sc_step_result *s = &fx->res[i];
    int passed = w->verified >= 0;
    *s = (sc_step_result){.step_id = w->id, .cycle = w->cycle, .setup = w->cycle == 0,
                          .passed = passed, .reason = passed ? "ok" : (char *)k_reason,
                          .started_unix_ms = T0 + 2000.0 * i, .gesture_ms = 700.0 + i,
                          .first_change_ms = passed ? 750.25 + i : 820.0,
                          .verified_ms = w->verified, .captures = 4 + i,
                          .capture_ms = 33.0 + i / 10.0, .idle_ms = 12.5 * i};
    /* rest rules by row: the paint log; as old code left it (rest NULL,
     * paint fields 0); pairs with a reason */
    if (i % 3 == 0) {
      s->rest = "paint-log";
      s->first_paint_ms = 40.5 + i;
      s->last_paint_ms = 600.25 + i;
      s->paints = i + 1;
    } else if (i % 3 == 2) {
      s->rest = "pairs";
      s->rest_why = k_rest_why;
      s->first_paint_ms = s->last_paint_ms = -1;
    }
    if (!w->cycle) continue;
    s->scale_factor = w->id[5] == 'i' ? 0.125 : 8.0;
    s->scale_text = w->id[5] == 'i' ? "100.0 m/100px -> 12.5 m/100px" : "12.5 m -> 100.0 m";
  }
  fx->res[FAILED_ROW].scale_factor = 0.25;
  fx->res[FAILED_ROW].scale_text = "100.0 m -> 25.0 m";
  fx->res[FAILED_ROW].nartifacts = 3;
  fx->res[FAILED_ROW].artifacts = fx->arts;
  for (int i = 0; i < NRES; i++) fx->resp[i] = &fx->res[i];
  fx->run.scenario = &fx->sc;
  fx->run.url = fx->sc.url;
  fx->run.cycles = 3;
  fx->run.nresults = NRES;
  fx->run.results = fx->resp;
  fx->run.steps_passed = NRES - 1;
  fx->run.steps_failed = 1;
  return fx;
}

static void free_run(fixture *fx) {
  sc_test_rmtree(fx->dir);
  free(fx->dir);
  for (int k = 0; k < 3; k++) free(fx->arts[k]);
  free(fx);
}

/* The page of fx->run, as text (the caller frees). */
static char *page_of(fixture *fx) {
  assert_int_equal(sc_report_html(fx->page, &fx->run), 0);
  char *got = sc_test_slurp(fx->page, NULL);
  assert_non_null(got);
  return got;
}

static char *table_of(const sc_run_result *r, const sc_load_result *l) {
  char *buf = NULL;
  size_t len;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  assert_int_equal(r ? sc_report_table(f, r) : sc_report_load_table(f, l), 0);
  fclose(f);
  return buf;
}

/* The text of the table's "RESULT: ..." line (the caller frees). */
static char *result_line(const char *table) {
  const char *p = strstr(table, "\nRESULT: ");
  assert_non_null(p);
  p++;
  return strndup(p, strcspn(p, "\n"));
}

/* Fails unless `want` is in `got`, showing both. */
static void has(const char *got, const char *want) {
  if (!strstr(got, want)) fail_msg("page lacks\n  %s\n--- page:\n%s", want, got);
}

static size_t count(const char *got, const char *what) {
  size_t n = 0;
  for (const char *p = got; (p = strstr(p, what)) != NULL; p += strlen(what)) n++;
  return n;
}

/* The failed step's block: its reason escaped, its three images by name
 * relative to the page, in order, inside the block. */
static void failure_images_and_reason(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *got = page_of(fx);
  const char *block = strstr(got, "<div class=\"shots\" id=\"fail-0-3\">");
  assert_non_null(block);
  const char *end = strstr(block, "</div>");
  assert_non_null(end);
  char *b = strndup(block, (size_t)(end - block));
  has(b, "<p class=\"why\">scale x0.2500 (want x0.1250), bar &quot;100 m&quot; "
         "&lt;unreadable&gt; &amp; &apos;x&apos;</p>");
  const char *p = b;
  const char *kinds[] = {"before", "after", "diff"};
  for (int k = 0; k < 3; k++) {
    char want[160];
    snprintf(want, sizeof want, "<a href=\"user@c2-zoom-in@scalebar-%s.png\"><img class=\"shot\" "
             "src=\"user@c2-zoom-in@scalebar-%s.png\" alt=\"%s\" "
             "title=\"user@c2-zoom-in@scalebar-%s.png\"></a>", kinds[k], kinds[k], kinds[k],
             kinds[k]);
    const char *at = strstr(p, want);
    if (!at) fail_msg("block lacks (in order) %s:\n%s", want, b);
    p = at + 1;
  }
  assert_int_equal(count(got, "<img "), 3); /* no image but the failure's */
  assert_null(strstr(got, fx->dir));        /* no absolute path leaks into a src */
  assert_null(strstr(got, "<unreadable>"));
  free(b);
  free(got);
  free_run(fx);
}

/* Every timing of a row in timeline order (gesture, first paint, first
 * change, last paint, verified), idle, its captures, rest rule, scale
 * reading and factor. Paint times only on the paint log: an old result's
 * zeroed ones show as "-". */
static void a_row_has_its_timings_and_scale(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *got = page_of(fx);
  for (int i = 0; i < NRES; i++) {
    const sc_step_result *s = &fx->res[i];
    int log = i % 3 == 0;
    char id[32], g[32], fp[32], fc[32], lp[32], v[32], idle[32], cm[32], rest[64], want[900];
    snprintf(id, sizeof id, "id=\"r-0-%d\">", i);
    const char *r = strstr(got, id);
    assert_non_null(r);
    char *line = strndup(r, strcspn(r, "\n"));
    if (log)
      snprintf(rest, sizeof rest, "paint-log, %d paint%s", i + 1, i ? "s" : "");
    else
      snprintf(rest, sizeof rest, i % 3 == 2 ? "pairs (%s)" : "pairs", k_rest_why);
    snprintf(want, sizeof want,
             "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
             "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
             "<td class=\"n\">%d</td><td class=\"n\">%s</td><td class=\"rest\">%s</td>",
             sc__report_ms(g, sizeof g, s->gesture_ms),
             log ? sc__report_ms(fp, sizeof fp, s->first_paint_ms) : "-",
             sc__report_ms(fc, sizeof fc, s->first_change_ms),
             log ? sc__report_ms(lp, sizeof lp, s->last_paint_ms) : "-",
             sc__report_ms(v, sizeof v, s->verified_ms), sc__report_ms(idle, sizeof idle, s->idle_ms),
             s->captures, sc__report_ms(cm, sizeof cm, s->capture_ms), rest);
    has(line, want);
    has(line, s->passed ? "<td class=\"PASS\">PASS</td>" : "<td class=\"FAIL\">FAIL</td>");
    free(line);
  }
  has(got, "<td>100.0 m -&gt; 25.0 m = x0.2500</td>");
  has(got, "<td>12.5 m -&gt; 100.0 m = x8.0000</td>");
  /* a header cell per column, a cell per column in a row, the failure's
   * block across all of them */
  const char *head = strstr(got, "<table class=\"steps\">"), *r0 = strstr(got, "id=\"r-0-0\">");
  assert_non_null(head);
  assert_non_null(r0);
  char *h = strndup(head, (size_t)(strstr(head, "</tr>") - head));
  char *row0 = strndup(r0, strcspn(r0, "\n"));
  assert_int_equal(count(h, "<th>"), 15);
  assert_int_equal(count(row0, "<td"), 15);
  has(h, "<th>gesture</th><th>first paint</th><th>first change</th><th>last paint</th>"
         "<th>verified</th>");
  has(got, "<td colspan=\"15\"><div class=\"shots\" id=\"fail-0-3\">");
  free(row0);
  free(h);
  free(got);
  free_run(fx);
}

/* The headline is the text table's RESULT line, coloured by it. */
static void verdict_is_the_tables(void **st) {
  (void)st;
  fixture *fx = make_run();
  for (int pass = 0; pass < 2; pass++) {
    if (pass) { /* every step verified */
      fx->res[FAILED_ROW].passed = 1;
      fx->res[FAILED_ROW].verified_ms = 990.0;
      fx->run.passed = 1;
    }
    char *table = table_of(&fx->run, NULL), *line = result_line(table);
    char want[256];
    snprintf(want, sizeof want, "<p id=\"verdict\" class=\"verdict %s\">%s</p>",
             pass ? "pass" : "void", line);
    char *got = page_of(fx);
    has(got, want);
    has(got, pass ? "RESULT: PASS 7/7 steps verified" : "RESULT: VOID 1 of 7 steps failed");
    free(got);
    free(line);
    free(table);
  }
  free_run(fx);
}

/* Each summary line of the text table (step, count, pass, fail, avg,
 * median, p95, max, steps/min) is a row of the page's summary. */
static void summary_is_the_tables(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *table = table_of(&fx->run, NULL), *got = page_of(fx);
  const char *p = strstr(table, "\nstep ");
  assert_non_null(p);
  p = strchr(p + 1, '\n') + 1;
  int rows = 0;
  for (;; rows++) {
    char id[64], c[9][32];
    if (sscanf(p, "%63s %31s %31s %31s %31s %31s %31s %31s %31s", id, c[0], c[1], c[2], c[3],
               c[4], c[5], c[6], c[7]) != 9)
      break;
    char want[600];
    int total = !strcmp(id, "TOTAL");
    snprintf(want, sizeof want,
             "%s%s%s<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
             "<td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
             "<td class=\"n\">%s</td><td class=\"n\">%s</td></tr>",
             total ? "<tr class=\"total\"><th>" : "<tr><td>", id, total ? "</th>" : "</td>",
             c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]);
    has(got, want);
    p = strchr(p, '\n') + 1;
    if (total) break;
  }
  assert_int_equal(rows, 3); /* load, zoom-in, zoom-out, then TOTAL */
  free(got);
  free(table);
  free_run(fx);
}

/* The chart: a point per verified cycle step, a cross per failed one, a
 * legend entry per step id; setup steps left out. */
static void chart_points_and_failures(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *got = page_of(fx);
  const char *svg = strstr(got, "<svg id=\"chart\"");
  assert_non_null(svg);
  char *s = strndup(svg, (size_t)(strstr(svg, "</svg>") - svg));
  assert_int_equal(count(s, "<circle class=\"pt\""), 5);
  assert_int_equal(count(s, "<g class=\"fail-mark\">"), 1);
  has(s, "cycle 2, zoom-in: FAILED: scale x0.2500");
  has(s, "<title>cycle 1, zoom-in: 905.8 ms</title>");
  has(s, ">zoom-in</text>");
  has(s, ">zoom-out</text>");
  assert_null(strstr(s, "load"));
  free(s);
  free(got);
  free_run(fx);
}

/* Hostile ids, reasons, app names and paths stay text: no element, no
 * attribute, no script comes from them. */
static void hostile_text_is_text(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *plain = page_of(fx); /* the same run without hostile text: as many titles */
  size_t titles = count(plain, "<title>");
  free(plain);
  fx->sc.app = "</title><script>alert(0)</script>";
  for (int i = 1; i < NRES; i += 2) fx->res[i].step_id = k_hostile;
  fx->res[FAILED_ROW].reason = (char *)k_hostile;
  fx->res[FAILED_ROW].scale_text = (char *)k_hostile;
  fx->res[2].rest_why = k_hostile;
  fx->res[4].rest = k_hostile; /* static in a real result, but text all the same */
  char *odd = malloc(strlen(fx->dir) + 64);
  sprintf(odd, "%s/a\" onerror=\"x <b>#?.png", fx->dir);
  free(fx->arts[2]);
  fx->arts[2] = odd;
  put_png(odd);
  char *got = page_of(fx);
  assert_null(strstr(got, "<script"));
  assert_null(strstr(got, "<img src=x"));
  assert_null(strstr(got, "\" onerror"));
  assert_null(strstr(got, "\x01"));
  assert_int_equal(count(got, "<img "), 3);
  /* the page's, the chart's points and the timelines' marks: none more */
  assert_int_equal(count(got, "<title>"), titles);
  assert_int_equal(count(got, "<title>"), count(got, "</title>"));
  has(got, "<title>&lt;/title&gt;&lt;script&gt;alert(0)&lt;/script&gt; - stepcheck report</title>");
  has(got, "<td>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x "
           "onerror=alert(2)&gt;?</td>");
  has(got, "src=\"a%22%20onerror%3D%22x%20%3Cb%3E%23%3F.png\"");
  has(got, "<td class=\"rest\">pairs (&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
  has(got, "<td class=\"rest\">&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
  free(got);
  free_run(fx);
}

/* Image URLs from paths: relative to the page's directory, normalised,
 * relative paths against the working directory, unsafe bytes encoded. */
static void image_urls(void **st) {
  (void)st;
  char cwd[4096];
  assert_non_null(getcwd(cwd, sizeof cwd));
  char in_cwd[4200];
  snprintf(in_cwd, sizeof in_cwd, "%s/r/x.png", cwd);
  const struct {
    const char *page, *file, *want;
  } cases[] = {
      {"/a/b/report.html", "/a/b/x.png", "x.png"},
      {"/a/b/report.html", "/a/b/img/x.png", "img/x.png"},
      {"/a/b/report.html", "/a/c/x.png", "../c/x.png"},
      {"/a/b/report.html", "/x.png", "../../x.png"},
      {"/a/./b/../b//report.html", "/a//b/./x.png", "x.png"},
      {"/report.html", "/x.png", "x.png"},
      {"r/report.html", "r/x.png", "x.png"},
      {"r/report.html", in_cwd, "x.png"},
      {"./r/../r/report.html", "r/u@c1-a~00ff.png", "u@c1-a~00ff.png"},
      {"/a/report.html", "/a/sp ace%&\"<>#?.png", "sp%20ace%25%26%22%3C%3E%23%3F.png"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(sc__html_src(f, cases[i].page, cases[i].file), 0);
    fclose(f);
    if (strcmp(buf, cases[i].want))
      fail_msg("%s from %s: got %s, want %s", cases[i].file, cases[i].page, buf, cases[i].want);
    free(buf);
  }
}

/* A load: a table per user with that user's failure, the chart over every
 * user, the headline the load table's. */
static void load_page(void **st) {
  (void)st;
  fixture *fx = make_run(), *fy = make_run();
  fy->run.user = 1;
  fy->run.user_name = "user-2";
  fx->run.user_name = "user-1";
  fx->res[FAILED_ROW].passed = 1; /* user-1 verified everything */
  fx->res[FAILED_ROW].verified_ms = 990.0;
  fx->res[FAILED_ROW].nartifacts = 0;
  fx->run.passed = 1;
  sc_run_result *users[] = {&fx->run, &fy->run};
  sc_load_result l = {.scenario = &fx->sc, .nusers = 2, .users = users, .url = fx->sc.url,
                      .cores = 2, .cpu_warn_pct = 160};
  char *table = table_of(NULL, &l), *line = result_line(table);
  assert_int_equal(sc_report_load_html(fx->page, &l), 0);
  char *got = sc_test_slurp(fx->page, NULL);
  char want[400];
  snprintf(want, sizeof want, "class=\"verdict void\">%s</p>", line);
  has(got, want);
  has(got, "<h3>user-1: 7 passed, 0 failed</h3>");
  has(got, "<h3>user-2: 6 passed, 1 failed</h3>");
  has(got, "<div class=\"shots\" id=\"fail-1-3\">");
  /* user-2's images are in its own dir: the URL climbs out of the page's */
  snprintf(want, sizeof want, "src=\"../%s/user@c2-zoom-in@scalebar-before.png\"",
           strrchr(fy->dir, '/') + 1);
  has(got, want);
  assert_int_equal(count(got, "<circle class=\"pt\""), 6 + 5);
  assert_int_equal(count(got, "<g class=\"fail-mark\">"), 1);
  has(got, "<title>user-2, cycle 2, zoom-in: FAILED:");
  free(got);
  free(line);
  free(table);
  free_run(fy);
  free_run(fx);
}

/* The element with id PREFIX-0-I up to the end of its table row (the
 * caller frees). */
static char *row_of(const char *got, const char *prefix, int i) {
  char id[48];
  snprintf(id, sizeof id, "id=\"%s-0-%d\"", prefix, i);
  const char *r = strstr(got, id), *end = r ? strstr(r, "</tr>") : NULL;
  if (!end) fail_msg("no %s", id);
  return strndup(r, (size_t)(end - r));
}

/* Every step's timeline in its row: the drawing's class says pass, fail or
 * fault, every mark's <title> has the row's number, the end is written out,
 * and paint marks appear only on the paint log (an old result's zeroed
 * paint fields draw nothing). */
static void every_step_has_its_timeline(void **st) {
  (void)st;
  fixture *fx = make_run();
  fx->res[6].passed = 0; /* cut off by a fault 123.4 ms in */
  fx->res[6].fault = 1;
  fx->res[6].ran_ms = 123.4;
  fx->res[6].verified_ms = -1;
  fx->res[6].first_change_ms = -1;
  char *got = page_of(fx);
  has(got, "<p class=\"key\">timeline");
  for (int i = 0; i < NRES; i++) {
    const sc_step_result *s = &fx->res[i];
    char *line = row_of(got, "r", i), want[200], ms[320];
    const char *cls = s->fault ? "tl fault" : s->passed ? "tl pass" : "tl fail";
    snprintf(want, sizeof want, "<td class=\"tl\"><svg class=\"%s\"", cls);
    has(line, want);
    snprintf(want, sizeof want, "<title>gesture %s ms</title></rect>",
             sc__report_ms(ms, sizeof ms, s->gesture_ms));
    has(line, want);
    if (s->first_change_ms >= 0) {
      snprintf(want, sizeof want, "<title>first change %s ms (captures)</title>",
               sc__report_ms(ms, sizeof ms, s->first_change_ms));
      has(line, want);
    }
    if (i % 3 == 0 && !s->fault) { /* the paint log: both paints and the span */
      snprintf(want, sizeof want, "<line class=\"fp\"");
      has(line, want);
      snprintf(want, sizeof want, "<title>first paint %s ms</title>",
               sc__report_ms(ms, sizeof ms, s->first_paint_ms));
      has(line, want);
      snprintf(want, sizeof want, "<title>last paint %s ms</title>",
               sc__report_ms(ms, sizeof ms, s->last_paint_ms));
      has(line, want);
      has(line, "<rect class=\"paint\"");
    } else if (!s->fault) {
      assert_null(strstr(line, "class=\"fp\""));
      assert_null(strstr(line, "class=\"paint\""));
    }
    if (s->passed) {
      snprintf(want, sizeof want, "<title>verified %s ms</title></path><text",
               sc__report_ms(ms, sizeof ms, s->verified_ms));
      has(line, want);
      snprintf(want, sizeof want, ">%s ms</text>", ms);
      has(line, want);
    }
    free(line);
  }
  /* the failure ends at its timeout (the scenario's default, 5000 ms) */
  char *fail = row_of(got, "r", FAILED_ROW);
  has(fail, "<title>failed after 5000.0 ms (no verified time)</title>");
  has(fail, ">FAIL 5000.0</text>");
  free(fail);
  /* the fault: the time it ran, cut */
  char *cut = row_of(got, "r", 6);
  has(cut, "<line class=\"ran\"");
  has(cut, "<title>cut off by a fault after 123.4 ms (not judged)</title>");
  has(cut, ">cut 123.4</text>");
  free(cut);
  free(got);
  free_run(fx);
}

/* Passed steps' frames: thumbnails that link to their file, only for files
 * that are there (a listed one that is gone is named as missing). */
static void passed_frames_are_thumbnails_of_existing_files(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *a[2], *b[2];
  for (int k = 0; k < 2; k++) {
    a[k] = malloc(strlen(fx->dir) + 64);
    b[k] = malloc(strlen(fx->dir) + 64);
    sprintf(a[k], "%s/user@c1-zoom-in@map-%s.png", fx->dir, k ? "after" : "before");
    sprintf(b[k], "%s/user@c1-zoom-out@map-%s.png", fx->dir, k ? "after" : "before");
    put_png(a[k]);
  }
  put_png(b[0]); /* b's after was never written (or was removed) */
  fx->run.pass_frames_budget = 1 << 20;
  fx->res[1].artifacts = a;
  fx->res[1].nartifacts = 2;
  fx->res[2].artifacts = b;
  fx->res[2].nartifacts = 2;
  char *got = page_of(fx);
  char *r1 = row_of(got, "frames", 1), *r2 = row_of(got, "frames", 2);
  has(r1, "<a href=\"user@c1-zoom-in@map-before.png\"><img class=\"thumb\" "
          "src=\"user@c1-zoom-in@map-before.png\" alt=\"before\"");
  has(r1, "<a href=\"user@c1-zoom-in@map-after.png\"><img class=\"thumb\" "
          "src=\"user@c1-zoom-in@map-after.png\" alt=\"after\"");
  assert_int_equal(count(r2, "<img "), 1);
  has(r2, "<figure class=\"missing\"><figcaption><b>missing</b> user@c1-zoom-out@map-after.png");
  /* the failure's three, row 1's two, row 2's one: no other image */
  assert_int_equal(count(got, "<img "), 3 + 2 + 1);
  assert_int_equal(count(got, "<div class=\"frames\""), 2); /* none for steps without */
  assert_null(strstr(got, fx->dir));
  free(r1);
  free(r2);
  free(got);
  for (int k = 0; k < 2; k++) {
    free(a[k]);
    free(b[k]);
  }
  free_run(fx);
}

/* A spent budget is said once above the table (how much, from which step
 * on) and in the row of each passed step that kept no frames. */
static void a_spent_budget_is_noted(void **st) {
  (void)st;
  fixture *fx = make_run();
  char *got = page_of(fx);
  assert_null(strstr(got, "frames of passed steps")); /* no budget: nothing to say */
  free(got);
  fx->run.pass_frames_budget = 2048;
  fx->run.pass_frames_written = 1536;
  fx->res[4].frames_skipped = 1;
  fx->res[5].frames_skipped = 1;
  got = page_of(fx);
  has(got, "<p class=\"meta frames\">frames of passed steps: 1.5 KiB written by this user "
           "(run budget 2.0 KiB); <b>budget spent</b>: 2 passed steps kept no frames, from "
           "<a href=\"#r-0-4\">cycle 2 step zoom-out</a> on</p>");
  for (int i = 4; i <= 5; i++) {
    char *r = row_of(got, "frames", i);
    has(r, "frames not kept: the run's budget for passed steps' frames (2.0 KiB) was spent");
    free(r);
  }
  assert_int_equal(count(got, "<p class=\"skipped\">"), 2);
  free(got);
  /* a budget that was not spent: how much was used */
  fx->res[4].frames_skipped = fx->res[5].frames_skipped = 0;
  got = page_of(fx);
  has(got, "frames of passed steps: 1.5 KiB written by this user (run budget 2.0 KiB)</p>");
  free(got);
  free_run(fx);
}

static void errors_name_the_path(void **st) {
  (void)st;
  fixture *fx = make_run();
  const char *bad = "/nonexistent-dir-sc/report.html";
  assert_int_equal(sc_report_html(bad, &fx->run), SC_EIO);
  assert_non_null(strstr(sc_errmsg(), bad));
  assert_int_equal(sc_report_html(NULL, &fx->run), SC_EINVAL);
  assert_int_equal(sc_report_html(fx->page, NULL), SC_EINVAL);
  assert_int_equal(sc_report_load_html(fx->page, NULL), SC_EINVAL);
  assert_int_equal(access(fx->page, F_OK), -1);
  free_run(fx);
}

static int call_html(void *ud) {
  fixture *fx = ud;
  return sc_report_html(fx->page, &fx->run);
}

/* Every allocation failing in turn: an error or the page, no leak; a
 * relative page path needs the working directory (allocated too). */
static void alloc_failure(void **st) {
  (void)st;
  fixture *fx = make_run();
  sc_test_oom_sweep(call_html, fx, 5000);
  char cwd[4096];
  assert_non_null(getcwd(cwd, sizeof cwd));
  assert_int_equal(chdir(fx->dir), 0);
  snprintf(fx->page, sizeof fx->page, "report.html");
  sc_test_oom_sweep(call_html, fx, 5000);
  assert_int_equal(chdir(cwd), 0);
  sc_set_allocator(NULL, NULL, NULL);
  free_run(fx);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(failure_images_and_reason),
      cmocka_unit_test(a_row_has_its_timings_and_scale),
      cmocka_unit_test(verdict_is_the_tables),
      cmocka_unit_test(summary_is_the_tables),
      cmocka_unit_test(chart_points_and_failures),
      cmocka_unit_test(hostile_text_is_text),
      cmocka_unit_test(image_urls),
      cmocka_unit_test(load_page),
      cmocka_unit_test(every_step_has_its_timeline),
      cmocka_unit_test(passed_frames_are_thumbnails_of_existing_files),
      cmocka_unit_test(a_spent_budget_is_noted),
      cmocka_unit_test(errors_name_the_path),
      cmocka_unit_test(alloc_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
