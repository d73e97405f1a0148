/* Outputs are written to PATH.tmp and renamed over PATH, so whatever PATH
 * names is replaced: only a regular file, or a new file in an existing
 * folder, may be (core/outpath.c). A device, a FIFO, a directory, or a link
 * to any of them is refused before a byte is written, by the check and by
 * every writer. The device node is made in the test's own folder (mknod as
 * root; a link to /dev/null otherwise and always): the real /dev/null is
 * only looked at, and checked to be a character device still at the end. */
#include "testutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/core.h"
#include "stepcheck.h"

typedef struct outs {
  char *dir;
  char node[512], link[512], fifo[512], sub[512], file[512], fresh[512], missing[512];
  char dangling[512];
  int have_node;
} outs;

static int setup(void **st) {
  outs *o = calloc(1, sizeof *o);
  o->dir = sc_test_mkdtemp();
  snprintf(o->node, sizeof o->node, "%s/null-node", o->dir);
  snprintf(o->link, sizeof o->link, "%s/null-link", o->dir);
  snprintf(o->fifo, sizeof o->fifo, "%s/fifo", o->dir);
  snprintf(o->sub, sizeof o->sub, "%s/folder", o->dir);
  snprintf(o->file, sizeof o->file, "%s/old.png", o->dir);
  snprintf(o->fresh, sizeof o->fresh, "%s/new.png", o->dir);
  snprintf(o->missing, sizeof o->missing, "%s/no/such/folder/out.png", o->dir);
  snprintf(o->dangling, sizeof o->dangling, "%s/dangling", o->dir);
  /* a character device like /dev/null (1,3), in our own folder */
  o->have_node = geteuid() == 0 && mknod(o->node, S_IFCHR | 0666, makedev(1, 3)) == 0;
  if (symlink("/dev/null", o->link) || mkfifo(o->fifo, 0600) || mkdir(o->sub, 0700) ||
      symlink("nowhere", o->dangling))
    return -1;
  FILE *f = fopen(o->file, "w");
  if (!f) return -1;
  fputs("old", f);
  fclose(f);
  *st = o;
  alarm(10); /* a writer blocked on the FIFO ends here */
  return 0;
}

static int teardown(void **st) {
  outs *o = *st;
  alarm(0);
  sc_test_rmtree(o->dir);
  free(o->dir);
  free(o);
  struct stat sb; /* the machine's /dev/null was never touched */
  assert_int_equal(lstat("/dev/null", &sb), 0);
  assert_true(S_ISCHR(sb.st_mode));
  return 0;
}

/* Each refused path keeps what it was. */
static void assert_unchanged(const outs *o) {
  struct stat sb;
  if (o->have_node) {
    assert_int_equal(lstat(o->node, &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
  }
  assert_int_equal(lstat(o->link, &sb), 0);
  assert_true(S_ISLNK(sb.st_mode));
  assert_int_equal(lstat(o->fifo, &sb), 0);
  assert_true(S_ISFIFO(sb.st_mode));
  assert_int_equal(lstat(o->sub, &sb), 0);
  assert_true(S_ISDIR(sb.st_mode));
  char tmp[600];
  const char *all[] = {o->node, o->link, o->fifo, o->sub};
  for (size_t i = 0; i < 4; i++) {
    snprintf(tmp, sizeof tmp, "%s.tmp", all[i]);
    assert_int_equal(lstat(tmp, &sb), -1); /* nothing half-written left */
  }
}

static void the_check_says_what_is_there(void **st) {
  outs *o = *st;
  assert_int_equal(sc_output_check(o->file), 0);
  assert_int_equal(sc_output_check(o->fresh), 0);
  assert_int_equal(sc_output_check(o->dangling), 0); /* the rename replaces the link */
  assert_int_equal(sc_output_check("relative-new-file.png"), 0);
  assert_int_equal(sc_output_check(o->link), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "not replaced: it is a character device"));
  assert_non_null(strstr(sc_errmsg(), o->link));
  if (o->have_node) {
    assert_int_equal(sc_output_check(o->node), SC_EINVAL);
    assert_non_null(strstr(sc_errmsg(), "a character device"));
  }
  assert_int_equal(sc_output_check(o->fifo), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "it is a FIFO"));
  assert_int_equal(sc_output_check(o->sub), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "it is a directory"));
  assert_int_equal(sc_output_check(o->missing), SC_EIO);
  assert_non_null(strstr(sc_errmsg(), "does not exist"));
  char under_file[600];
  snprintf(under_file, sizeof under_file, "%s/x.png", o->file);
  assert_int_equal(sc_output_check(under_file), SC_EIO);
  assert_non_null(strstr(sc_errmsg(), strerror(ENOTDIR)));
  assert_int_equal(sc_output_check_dir(o->sub), 0);
  assert_int_equal(sc_output_check_dir(o->file), SC_EIO);
  assert_non_null(strstr(sc_errmsg(), strerror(ENOTDIR)));
  assert_int_equal(sc_output_check_dir(o->missing), SC_EIO);
  assert_int_equal(sc_output_check(NULL), SC_EINVAL);
  assert_int_equal(sc_output_check(""), SC_EINVAL);
  assert_unchanged(o);
}

/* The writers refuse by themselves (a C harness need not call the check). */
static void image_and_glyph_writers_refuse(void **st) {
  outs *o = *st;
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, 4, 4), 0);
  sc_glyphset *gs = NULL;
  assert_int_equal(sc_glyphset_new(&gs, 0x000000, 64), 0);
  const char *bad[] = {o->node, o->link, o->fifo, o->sub, o->missing};
  for (size_t i = 0; i < 5; i++) {
    if (i == 0 && !o->have_node) continue;
    int want = i == 4 ? SC_EIO : SC_EINVAL;
    assert_int_equal(sc_image_save_png(img, bad[i]), want);
    assert_int_equal(sc_glyphset_save(gs, bad[i]), want);
  }
  assert_unchanged(o);
  assert_int_equal(sc_image_save_png(img, o->file), 0); /* a regular file is replaced */
  assert_int_equal(sc_image_save_png(img, o->fresh), 0);
  struct stat sb;
  assert_int_equal(stat(o->file, &sb), 0);
  assert_true(S_ISREG(sb.st_mode) && sb.st_size > 3);
  sc_glyphset_free(gs);
  sc_image_free(img);
}

static int holds(const char *path, const char *want) {
  char buf[64] = "";
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  return strcmp(buf, want) == 0;
}

/* A link planted at PATH.tmp (issue 25) is not written through: the writers
 * create the temporary file afresh (O_EXCL | O_NOFOLLOW after removing what
 * was there), so the file the link pointed to keeps its bytes. A regular
 * file left at PATH.tmp by an earlier crash is simply replaced. */
static void a_link_at_the_temporary_path_is_not_followed(void **st) {
  outs *o = *st;
  char victim[600], tmp[600];
  snprintf(victim, sizeof victim, "%s/victim", o->dir);
  snprintf(tmp, sizeof tmp, "%s.tmp", o->fresh);
  FILE *f = fopen(victim, "w");
  assert_non_null(f);
  fputs("keep", f);
  fclose(f);
  sc_image *img = NULL;
  assert_int_equal(sc_image_new(&img, 4, 4), 0);
  sc_glyphset *gs = NULL;
  assert_int_equal(sc_glyphset_new(&gs, 0x000000, 64), 0);
  struct stat sb;
  for (int w = 0; w < 2; w++) {
    assert_int_equal(symlink(victim, tmp), 0);
    assert_int_equal(w == 0 ? sc_image_save_png(img, o->fresh) : sc_glyphset_save(gs, o->fresh), 0);
    assert_true(holds(victim, "keep"));
    assert_int_equal(lstat(o->fresh, &sb), 0);
    assert_true(S_ISREG(sb.st_mode) && sb.st_size > 4);
    assert_int_equal(lstat(tmp, &sb), -1);
    /* a stale regular temporary file */
    f = fopen(tmp, "w");
    assert_non_null(f);
    fputs("stale", f);
    fclose(f);
    assert_int_equal(w == 0 ? sc_image_save_png(img, o->fresh) : sc_glyphset_save(gs, o->fresh), 0);
    assert_int_equal(lstat(tmp, &sb), -1);
    assert_int_equal(unlink(o->fresh), 0);
  }
  /* the helper itself: a link planted at the path is never opened */
  assert_int_equal(symlink(victim, tmp), 0);
  f = sc__out_open_tmp(tmp);
  assert_non_null(f);
  fputs("new", f);
  fclose(f);
  assert_true(holds(victim, "keep"));
  assert_true(holds(tmp, "new"));
  sc_glyphset_free(gs);
  sc_image_free(img);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(the_check_says_what_is_there, setup, teardown),
      cmocka_unit_test_setup_teardown(image_and_glyph_writers_refuse, setup, teardown),
      cmocka_unit_test_setup_teardown(a_link_at_the_temporary_path_is_not_followed, setup,
                                      teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
