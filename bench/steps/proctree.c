/* CPU time of a process tree from /proc/<pid>/stat. */
#include "proctree.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct proc_row {
  int pid, ppid;
  double cpu_ms;
} proc_row;

/* Fields after "(comm) ": state ppid pgrp session tty tpgid flags minflt
 * cminflt majflt cmajflt utime stime cutime cstime ... */
static int read_stat(int pid, proc_row *row, double tick_ms) {
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  char *p = strrchr(buf, ')');
  if (!p) return -1;
  char state;
  int ppid;
  unsigned long long ut, st, cut, cst;
  if (sscanf(p + 2, "%c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu", &state,
             &ppid, &ut, &st, &cut, &cst) != 6)
    return -1;
  row->pid = pid;
  row->ppid = ppid;
  row->cpu_ms = (double)(ut + st + cut + cst) * tick_ms;
  return 0;
}

double bench_tree_cpu_ms(int root) {
  if (root <= 0) return -1;
  long hz = sysconf(_SC_CLK_TCK);
  double tick_ms = 1000.0 / (double)(hz > 0 ? hz : 100);
  DIR *d = opendir("/proc");
  if (!d) return -1;
  proc_row *rows = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    char *end;
    long pid = strtol(e->d_name, &end, 10);
    if (*end || pid <= 0) continue;
    if (n == cap) {
      cap = cap ? cap * 2 : 256;
      proc_row *nr = realloc(rows, cap * sizeof *nr);
      if (!nr) break;
      rows = nr;
    }
    if (read_stat((int)pid, &rows[n], tick_ms) == 0) n++;
  }
  closedir(d);
  /* Mark the tree: repeat until no new member (trees here are shallow). */
  char *in = calloc(n ? n : 1, 1);
  double total = 0;
  if (in) {
    int grew = 1;
    while (grew) {
      grew = 0;
      for (size_t i = 0; i < n; i++) {
        if (in[i]) continue;
        int member = rows[i].pid == root;
        for (size_t j = 0; j < n && !member; j++)
          if (in[j] && rows[j].pid == rows[i].ppid) member = 1;
        if (member) {
          in[i] = 1;
          grew = 1;
        }
      }
    }
    for (size_t i = 0; i < n; i++)
      if (in[i]) total += rows[i].cpu_ms;
  }
  free(in);
  free(rows);
  return total;
}
