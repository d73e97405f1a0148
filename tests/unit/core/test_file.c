/* The one file slurper (core/file.c) and every loader built on it refuse a
 * FIFO, a directory or a device before anything could block: a FIFO with no
 * writer used to hang each of them forever. alarm() guards every test, so a
 * regression fails (SIGALRM) instead of hanging. */
#include "testutil.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "stepcheck.h"

typedef struct tmp {
  char *dir;
  char fifo[512], fifo_glyphs[512], file[512];
} tmp;

static int setup(void **st) {
  tmp *t = calloc(1, sizeof *t);
  t->dir = sc_test_mkdtemp();
  snprintf(t->fifo, sizeof t->fifo, "%s/pipe.json", t->dir);
  snprintf(t->fifo_glyphs, sizeof t->fifo_glyphs, "%s/pipe.glyphs", t->dir);
  snprintf(t->file, sizeof t->file, "%s/file.txt", t->dir);
  if (mkfifo(t->fifo, 0600) != 0 || mkfifo(t->fifo_glyphs, 0600) != 0) return -1;
  *st = t;
  alarm(10); /* a loader that blocks on the FIFO ends the test here */
  return 0;
}

static int teardown(void **st) {
  tmp *t = *st;
  alarm(0);
  sc_test_rmtree(t->dir);
  free(t->dir);
  free(t);
  return 0;
}

static void expect_refused(const char *path, int rc) {
  assert_int_equal(rc, SC_EIO);
  assert_non_null(strstr(sc_errmsg(), path));
  assert_non_null(strstr(sc_errmsg(), "not a regular file"));
  assert_null(strchr(sc_errmsg(), '\n'));
}

static void slurper_refuses_fifo_dir_device(void **st) {
  tmp *t = *st;
  char *buf = (char *)1;
  size_t n = 7;
  expect_refused(t->fifo, sc__file_read_all(t->fifo, 1024, &buf, &n));
  assert_null(buf);
  assert_int_equal(n, 0);
  assert_string_equal(strstr(sc_errmsg(), "("), "(a FIFO)");
  expect_refused(t->dir, sc__file_read_all(t->dir, 1024, &buf, &n));
  assert_string_equal(strstr(sc_errmsg(), "("), "(a directory)");
  expect_refused("/dev/null", sc__file_read_all("/dev/null", 1024, &buf, &n));
  assert_string_equal(strstr(sc_errmsg(), "("), "(a character device)");
}

static void slurper_reads_regular_files(void **st) {
  tmp *t = *st;
  FILE *f = fopen(t->file, "w");
  assert_non_null(f);
  fputs("hello, world", f);
  fclose(f);
  char *buf;
  size_t n;
  assert_int_equal(sc__file_read_all(t->file, 1024, &buf, &n), 0);
  assert_int_equal(n, 12);
  assert_string_equal(buf, "hello, world");
  sc__free(buf);
  /* exactly at the cap is allowed, one byte under it is not */
  assert_int_equal(sc__file_read_all(t->file, 12, &buf, &n), 0);
  sc__free(buf);
  assert_int_equal(sc__file_read_all(t->file, 11, &buf, &n), SC_ETOOBIG);
  assert_non_null(strstr(sc_errmsg(), "larger than 11 bytes"));
  /* empty file */
  f = fopen(t->file, "w");
  fclose(f);
  assert_int_equal(sc__file_read_all(t->file, 1024, &buf, &n), 0);
  assert_int_equal(n, 0);
  assert_string_equal(buf, "");
  sc__free(buf);
  /* missing file: open's reason */
  char missing[600];
  snprintf(missing, sizeof missing, "%s/none", t->dir);
  assert_int_equal(sc__file_read_all(missing, 1024, &buf, &n), SC_EIO);
  assert_non_null(strstr(sc_errmsg(), "No such file"));
  /* the name is shown with its control characters escaped: one line */
  snprintf(missing, sizeof missing, "%s/x\nforged.json:1:1: \x1b[2J", t->dir);
  assert_int_equal(sc__file_read_all(missing, 1024, &buf, &n), SC_EIO);
  assert_null(strchr(sc_errmsg(), '\n'));
  assert_null(strchr(sc_errmsg(), '\x1b'));
  assert_non_null(strstr(sc_errmsg(), "x\\nforged.json:1:1: \\x1b[2J"));
}

static void every_loader_refuses_a_fifo(void **st) {
  tmp *t = *st;
  sc_scenario *s = (sc_scenario *)1;
  expect_refused(t->fifo, sc_scenario_load(&s, t->fifo));
  assert_null(s);
  expect_refused(t->fifo, sc_scenario_validate(t->fifo, NULL, NULL));
  sc_glyphset *gs = (sc_glyphset *)1;
  expect_refused(t->fifo_glyphs, sc_glyphset_load(&gs, t->fifo_glyphs));
  assert_null(gs);
  sc_image *img = (sc_image *)1;
  expect_refused(t->fifo, sc_image_load_png(&img, t->fifo, NULL));
  assert_null(img);
  /* a scale-bar profile file goes through the glyph-set loader */
  sc_image *blank;
  assert_int_equal(sc_image_new(&blank, 8, 8), 0);
  sc_scale_reading rd;
  expect_refused(t->fifo_glyphs,
                 sc_scalebar_read(&rd, blank, (sc_rect){0, 0, 8, 8}, t->fifo_glyphs, NULL));
  sc_image_free(blank);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(slurper_refuses_fifo_dir_device, setup, teardown),
      cmocka_unit_test_setup_teardown(slurper_reads_regular_files, setup, teardown),
      cmocka_unit_test_setup_teardown(every_loader_refuses_a_fifo, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
