/* Failure images (run/artifacts.c): names made from ids stay inside the
 * report directory, never collide, and an image that could not be written
 * is named in the step's reason. */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/core.h"
#include "run/artifacts.h"
#include "run/runner.h"
#include "stepcheck.h"

static void kept_ids_are_used_as_they_are(void **st) {
  (void)st;
  char out[SC__NAME_PART_SIZE];
  assert_int_equal(sc__name_part(out, "zoom-in_2.b"), 0);
  assert_string_equal(out, "zoom-in_2.b");
}

static void unsafe_bytes_are_replaced_and_hashed(void **st) {
  (void)st;
  char out[SC__NAME_PART_SIZE];
  assert_int_equal(sc__name_part(out, "../../etc/x"), 1);
  assert_null(strchr(out, '/'));
  assert_null(strstr(out, ".."));
  assert_true(out[0] != '.');
  assert_int_equal(strncmp(out, "_._.__etc_x~", 12), 0);
  assert_int_equal(strlen(strchr(out, '~')), 17); /* "~" + 16 hex digits */
  /* a leading '.' or '-', and "..", are changed even without a '/' */
  assert_int_equal(sc__name_part(out, ".hidden"), 1);
  assert_int_equal(out[0], '_');
  assert_int_equal(sc__name_part(out, "-rf"), 1);
  assert_int_equal(out[0], '_');
  assert_int_equal(sc__name_part(out, "a..b"), 1);
  assert_null(strstr(out, ".."));
  assert_int_equal(sc__name_part(out, ""), 1);
  assert_int_equal(out[0], '_');
  assert_int_equal(sc__name_part(out, "tab\there"), 1);
  assert_null(strchr(out, '\t'));
}

static void two_ids_never_share_a_name(void **st) {
  (void)st;
  char a[SC__NAME_PART_SIZE], b[SC__NAME_PART_SIZE], c[SC__NAME_PART_SIZE];
  sc__name_part(a, "a/b");
  sc__name_part(b, "a_b");
  sc__name_part(c, "a:b");
  assert_string_not_equal(a, b);
  assert_string_not_equal(a, c);
  assert_string_not_equal(b, c);
  assert_string_equal(b, "a_b");
  /* long ids are cut, and ids that differ only after the cut still differ */
  char l1[200], l2[200];
  memset(l1, 'x', 150);
  l1[150] = '\0';
  memcpy(l2, l1, sizeof l1);
  l2[149] = 'y';
  sc__name_part(a, l1);
  sc__name_part(b, l2);
  assert_string_not_equal(a, b);
  assert_true(strlen(a) == SC__NAME_PART_MAX + 17);
  /* a hashed name cannot be picked as a kept id: '~' is never kept */
  char forged[SC__NAME_PART_SIZE];
  sc__name_part(forged, a);
  assert_string_not_equal(forged, a);
}

/* ---- writing the images */

typedef struct world {
  sc__runner r;
  sc_run_result rr;
  sc__frame before, after;
  char *root, *dir;
} world;

static void world_init(world *w, const char *sub) {
  memset(w, 0, sizeof *w);
  w->root = sc_test_mkdtemp();
  w->dir = sc__asprintf("%s/%s", w->root, sub);
  w->rr.user_name = "user-1";
  w->r.rr = &w->rr;
  w->r.report_dir = w->dir;
  assert_int_equal(sc_image_new(&w->before.img, 32, 16), 0);
  assert_int_equal(sc_image_new(&w->after.img, 32, 16), 0);
  w->before.clip = w->after.clip = (sc_rect){0, 0, 32, 16};
  memset(w->after.img->px, 0xff, 32 * 4 * 8); /* top half white */
}

static void world_free(world *w) {
  sc__frame_free(&w->before);
  sc__frame_free(&w->after);
  sc_test_rmtree(w->root);
  free(w->root);
  sc__free(w->dir);
}

static void result_clear(sc_step_result *res) {
  for (size_t i = 0; i < res->nartifacts; i++) sc__free(res->artifacts[i]);
  sc__free(res->artifacts);
  sc__free(res->reason);
  memset(res, 0, sizeof *res);
}

static void fail_step(world *w, sc_step_result *res, const char *id, const char *region) {
  memset(res, 0, sizeof *res);
  res->step_id = id;
  res->reason = sc__strdup("tags: 0 px changed, want >= 10");
  sc__runner_artifacts(&w->r, res, region, (sc_rect){0, 0, 32, 16}, &w->before, &w->after, 1);
}

/* Every regular file under root, found by walking it: each must be a
 * direct child of dir. Returns how many. */
static int files_under(const char *root, const char *dir) {
  DIR *d = opendir(root);
  assert_non_null(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char *p = sc__asprintf("%s/%s", root, e->d_name);
    struct stat sb;
    assert_int_equal(lstat(p, &sb), 0);
    if (S_ISDIR(sb.st_mode)) {
      n += files_under(p, dir);
    } else {
      if (strcmp(root, dir) != 0) fail_msg("%s written outside the report dir %s", p, dir);
      n++;
    }
    sc__free(p);
  }
  closedir(d);
  return n;
}

static void a_hostile_step_id_stays_in_the_report_dir(void **st) {
  (void)st;
  world w;
  world_init(&w, "a/b/report");
  /* the directories a traversal would need all exist */
  char *mk = sc__asprintf("mkdir -p '%s/a/b/report/user-1@c1-..' '%s/etc' '%s/a/etc'", w.root,
                          w.root, w.root);
  assert_int_equal(system(mk), 0);
  sc__free(mk);
  sc_step_result res;
  fail_step(&w, &res, "../../etc/x", "../r");
  if (res.nartifacts != 3) fail_msg("%zu images: %s", res.nartifacts, res.reason);
  for (size_t i = 0; i < 3; i++) {
    const char *name = res.artifacts[i] + strlen(w.dir) + 1;
    assert_int_equal(strncmp(res.artifacts[i], w.dir, strlen(w.dir)), 0);
    assert_null(strchr(name, '/'));
    sc_image *img = NULL;
    assert_int_equal(sc_image_load_png(&img, res.artifacts[i], NULL), 0);
    sc_image_free(img);
  }
  assert_int_equal(files_under(w.root, w.dir), 3);
  assert_non_null(strstr(res.reason, "[see "));
  result_clear(&res);
  world_free(&w);
}

static void a_collision_pair_gives_two_sets_of_images(void **st) {
  (void)st;
  world w;
  world_init(&w, "r");
  sc_step_result a, b;
  fail_step(&w, &a, "a/b", "map");
  fail_step(&w, &b, "a_b", "map");
  assert_int_equal(a.nartifacts, 3);
  assert_int_equal(b.nartifacts, 3);
  for (size_t i = 0; i < 3; i++) assert_string_not_equal(a.artifacts[i], b.artifacts[i]);
  assert_non_null(strstr(b.artifacts[1], "/user-1@c1-a_b@map-after.png"));
  assert_int_equal(files_under(w.root, w.dir), 6);
  /* the step and region parts cannot run into each other either */
  sc_step_result c, d;
  fail_step(&w, &c, "x-y", "z");
  fail_step(&w, &d, "x", "y-z");
  assert_string_not_equal(c.artifacts[0], d.artifacts[0]);
  assert_int_equal(files_under(w.root, w.dir), 12);
  result_clear(&a);
  result_clear(&b);
  result_clear(&c);
  result_clear(&d);
  world_free(&w);
}

static void an_image_not_written_is_named_in_the_reason(void **st) {
  (void)st;
  world w;
  world_init(&w, "file");
  FILE *f = fopen(w.dir, "w"); /* the report "dir" is a file: every write fails */
  assert_non_null(f);
  fclose(f);
  sc_step_result res;
  fail_step(&w, &res, "zoom-in", "map");
  assert_int_equal(res.nartifacts, 0);
  if (!strstr(res.reason, "3 of 3 failure images not written") ||
      !strstr(res.reason, "user-1@c1-zoom-in@map-before.png") ||
      !strstr(res.reason, strerror(ENOTDIR)))
    fail_msg("reason: %s", res.reason);
  assert_int_equal(strncmp(res.reason, "tags: 0 px changed", 18), 0); /* the cause stays first */
  result_clear(&res);
  sc__free(w.dir);
  /* a report dir that cannot be made */
  w.dir = sc__asprintf("%s/file/sub", w.root);
  w.r.report_dir = w.dir;
  fail_step(&w, &res, "zoom-in", "map");
  assert_int_equal(res.nartifacts, 0);
  if (!strstr(res.reason, "failure images not written") || !strstr(res.reason, "/file/sub"))
    fail_msg("reason: %s", res.reason);
  result_clear(&res);
  world_free(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(kept_ids_are_used_as_they_are),
      cmocka_unit_test(unsafe_bytes_are_replaced_and_hashed),
      cmocka_unit_test(two_ids_never_share_a_name),
      cmocka_unit_test(a_hostile_step_id_stays_in_the_report_dir),
      cmocka_unit_test(a_collision_pair_gives_two_sets_of_images),
      cmocka_unit_test(an_image_not_written_is_named_in_the_reason),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
