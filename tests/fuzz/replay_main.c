/* Corpus replay: runs every file of the given directories (or files)
 * through LLVMFuzzerTestOneInput once, so a fuzz corpus is an ordinary test
 * under any compiler, ASan+UBSan and valgrind. Without arguments it replays
 * $SC_SOURCE_DIR/tests/fuzz/corpus/SC_FUZZ_NAME (how scripts/valgrind-unit.sh
 * runs it). Each input gets a buffer of exactly its size, so reading past it
 * is caught. Fails when a directory holds no input: an empty corpus must not
 * pass silently. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
    fclose(f);
    fprintf(stderr, "replay: %s: not a regular file\n", path);
    return -1;
  }
  size_t n = (size_t)st.st_size;
  uint8_t *buf = malloc(n ? n : 1);
  if (!buf || fread(buf, 1, n, f) != n) {
    fprintf(stderr, "replay: %s: cannot read\n", path);
    free(buf);
    fclose(f);
    return -1;
  }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of dir, in name order (so a failure reproduces the
 * same way); returns how many ran, -1 on an error. */
static long run_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return run_file(dir) == 0 ? 1 : -1;
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 64;
      char **p = realloc(names, cap * sizeof *names);
      if (!p) abort();
      names = p;
    }
    size_t len = strlen(dir) + strlen(e->d_name) + 2;
    names[n] = malloc(len);
    if (!names[n]) abort();
    snprintf(names[n++], len, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_names);
  long ran = 0;
  for (size_t i = 0; i < n; i++) {
    if (ran >= 0) ran = run_file(names[i]) == 0 ? ran + 1 : -1;
    free(names[i]);
  }
  free(names);
  return ran;
}

int main(int argc, char **argv) {
  char deflt[4096];
  char *dflt_argv[] = {argv[0], deflt};
  if (argc < 2) {
    const char *src = getenv("SC_SOURCE_DIR");
    if (!src) {
      fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE... (or set SC_SOURCE_DIR)\n", argv[0]);
      return 2;
    }
    snprintf(deflt, sizeof deflt, "%s/tests/fuzz/corpus/%s", src, SC_FUZZ_NAME);
    argc = 2;
    argv = dflt_argv;
  }
  for (int i = 1; i < argc; i++) {
    long ran = run_dir(argv[i]);
    if (ran <= 0) {
      fprintf(stderr, "replay: %s: %s\n", argv[i], ran == 0 ? "no inputs" : "failed");
      return 1;
    }
    printf("replay: %s: %ld inputs\n", argv[i], ran);
  }
  return 0;
}
