/* Process-tree usage from procfs: CPU from <pid>/stat, PSS from
 * <pid>/smaps_rollup; descendants found by the ppid of every <pid>/stat. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "host/host.h"

/* One process as read from procfs. */
typedef struct proc_row {
  int pid, ppid;
  size_t up; /* index of the parent's row after the sort, or NO_PARENT */
  double cpu_ms, reaped_ms;
} proc_row;

#define NO_PARENT ((size_t)-1)

/* Membership of a row while the trees are marked. */
enum { UNKNOWN = 0, IN, OUT };

/* Read name (a pid or "self") under root into row; -1 when the stat file
 * is missing or malformed (the process vanished). */
static int read_stat(proc_row *row, const char *root, const char *name) {
  char path[4096], buf[1024];
  snprintf(path, sizeof path, "%s/%s/stat", root, name);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  /* comm may hold spaces and ')': the fields start after the last ')'. */
  char *p = strrchr(buf, ')');
  unsigned long long ut, st, cut, cst;
  int pid, ppid;
  /* state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
   * utime(14) stime(15) cutime(16) cstime(17) */
  if (!p || sscanf(buf, "%d", &pid) != 1 ||
      sscanf(p + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
                   &ppid, &ut, &st, &cut, &cst) != 5)
    return -1;
  long hz = sysconf(_SC_CLK_TCK);
  double tick_ms = 1000.0 / (double)(hz > 0 ? hz : 100);
  row->pid = pid;
  row->ppid = ppid;
  row->up = NO_PARENT;
  row->cpu_ms = (double)(ut + st) * tick_ms;
  row->reaped_ms = (double)(cut + cst) * tick_ms;
  return 0;
}

/* "Pss:" of name's smaps_rollup in KiB; 0 when unreadable (gone, a zombie,
 * or a kernel without smaps_rollup). */
static double read_pss_kib(const char *root, const char *name) {
  char path[4096], buf[4096];
  snprintf(path, sizeof path, "%s/%s/smaps_rollup", root, name);
  FILE *f = fopen(path, "r");
  if (!f) return 0;
  double kib = 0;
  while (fgets(buf, sizeof buf, f))
    if (sscanf(buf, "Pss: %lf kB", &kib) == 1) break;
  fclose(f);
  return kib;
}

/* Add one process to out. */
static void add(sc__usage *out, const proc_row *row, const char *root, const char *name) {
  out->cpu_ms += row->cpu_ms;
  out->cpu_reaped_ms += row->reaped_ms;
  out->pss_kib += read_pss_kib(root, name);
  out->nproc++;
}

/* qsort/bsearch order of rows. */
static int by_pid(const void *a, const void *b) {
  int x = ((const proc_row *)a)->pid, y = ((const proc_row *)b)->pid;
  return (x > y) - (x < y);
}

/* Whether pid is one of roots[0..nroots). */
static int is_root(int pid, const int *roots, size_t nroots) {
  for (size_t i = 0; i < nroots; i++)
    if (roots[i] == pid) return 1;
  return 0;
}

/* Every process under root, sorted by pid, into *rows. */
static int scan(proc_row **rows, size_t *n, const char *root) {
  DIR *d = opendir(root);
  if (!d) return sc__err(SC_EIO, "proc: cannot read %s: %s", root, strerror(errno));
  size_t cap = 0;
  int rc = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    char *end;
    long pid = strtol(e->d_name, &end, 10);
    if (*end || pid <= 0) continue;
    if (*n == cap) {
      cap = cap ? cap * 2 : 256;
      proc_row *grown = sc__realloc(*rows, cap * sizeof *grown);
      if (!grown) {
        rc = sc__err(SC_ENOMEM, "proc: out of memory scanning %s", root);
        break;
      }
      *rows = grown;
    }
    if (read_stat(&(*rows)[*n], root, e->d_name) == 0) (*n)++;
  }
  closedir(d);
  if (rc || !*n) return rc;
  qsort(*rows, *n, sizeof **rows, by_pid);
  for (size_t i = 0; i < *n; i++) {
    proc_row key = {.pid = (*rows)[i].ppid};
    const proc_row *parent = bsearch(&key, *rows, *n, sizeof key, by_pid);
    (*rows)[i].up = parent ? (size_t)(parent - *rows) : NO_PARENT;
  }
  return 0;
}

/* Membership of row i: walk up the parents until a root, a row already
 * decided, or a parent that is not there; then mark the path walked. The walk
 * is bounded by n so a (fake) ppid cycle ends. */
static char mark(const proc_row *rows, size_t n, char *state, size_t i, const int *roots,
                 size_t nroots) {
  char found = OUT;
  size_t j = i;
  for (size_t steps = 0; steps <= n && j != NO_PARENT; steps++, j = rows[j].up) {
    if (state[j] != UNKNOWN) {
      found = state[j];
      break;
    }
    if (is_root(rows[j].pid, roots, nroots)) {
      found = IN;
      break;
    }
  }
  /* A root ends the path: its own parent is outside unless decided apart. */
  for (j = i; j != NO_PARENT && state[j] == UNKNOWN; j = rows[j].up) {
    state[j] = found;
    if (is_root(rows[j].pid, roots, nroots)) break;
  }
  return found;
}

/* The roots alone: no scan, but the proc root must be readable. */
static int roots_only(sc__usage *out, const char *root, const int *roots, size_t nroots) {
  if (access(root, R_OK | X_OK) != 0)
    return sc__err(SC_EIO, "proc: cannot read %s: %s", root, strerror(errno));
  for (size_t i = 0; i < nroots; i++) {
    if (is_root(roots[i], roots, i)) continue; /* repeated pid */
    char name[16];
    snprintf(name, sizeof name, "%d", roots[i]);
    proc_row row;
    if (read_stat(&row, root, name) == 0) add(out, &row, root, name);
  }
  return 0;
}

int sc__usage_trees(sc__usage *out, const char *proc_root, const int *roots, size_t nroots,
                    int include_root_children) {
  memset(out, 0, sizeof *out);
  const char *root = proc_root ? proc_root : "/proc";
  if (nroots && !roots) return sc__err(SC_EINVAL, "proc: NULL roots with nroots %zu", nroots);
  for (size_t i = 0; i < nroots; i++)
    if (roots[i] <= 0) return sc__err(SC_EINVAL, "proc: root pid %d at index %zu", roots[i], i);
  if (!include_root_children) return roots_only(out, root, roots, nroots);

  proc_row *rows = NULL;
  size_t n = 0;
  int rc = scan(&rows, &n, root);
  char *state = rc ? NULL : sc__calloc(n ? n : 1, 1);
  if (!rc && !state) rc = sc__err(SC_ENOMEM, "proc: out of memory scanning %s", root);
  for (size_t i = 0; !rc && i < n; i++) {
    if (mark(rows, n, state, i, roots, nroots) != IN) continue;
    char name[16];
    snprintf(name, sizeof name, "%d", rows[i].pid);
    add(out, &rows[i], root, name);
  }
  sc__free(state);
  sc__free(rows);
  return rc;
}

int sc__usage_self(sc__usage *out, const char *proc_root) {
  memset(out, 0, sizeof *out);
  const char *root = proc_root ? proc_root : "/proc";
  proc_row row;
  if (read_stat(&row, root, "self") != 0)
    return sc__err(SC_EIO, "proc: cannot read %s/self/stat", root);
  add(out, &row, root, "self");
  return 0;
}
