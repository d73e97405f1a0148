/* Fuzz target: the JUnit and JTL writers (lib/report/junit.c, jtl.c,
 * xml.c, load_junit.c, load_jtl.c) on runs whose names and messages come
 * from the input, as a scenario, a server or the browser could send them.
 *
 * Input: pieces split at 0xff bytes: the app name, the URL, the run's
 * error, then per step result (up to 8) its id and its reason; the first
 * byte of a step's id piece (taken off it) holds its flags: & 1 passed,
 * & 2 cut off by a fault, & 4 a setup step.
 * Invariants checked: each file is written; JUnit is XML 1.0 characters
 * only (no C0 control but tab, LF, CR; no U+FFFE/U+FFFF, surrogates or
 * broken UTF-8), holds one <testcase per result (and one for a run error
 * no result carries) and no markup from the input; every JTL row has the 17
 * fields of its header (RFC 4180) and no cell starts a formula (=, +, -, @,
 * tab, CR) unless neutralised ("'...). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stepcheck/report.h"
#include "stepcheck/load.h"
#include "scenario/model.h"
#include "fuzz.h"

#define MAX_STEPS 8

/* One temporary directory per process, removed at exit (each file is
 * removed once read). */
static char g_dir[64];
static void dir_remove(void) { rmdir(g_dir); }
static const char *dir(void) {
  if (!g_dir[0]) {
    snprintf(g_dir, sizeof g_dir, "/tmp/sc-fuzz-report-XXXXXX");
    if (!mkdtemp(g_dir)) abort();
    atexit(dir_remove);
  }
  return g_dir;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  FUZZ_CHECK(f != NULL);
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  FUZZ_CHECK(b && fread(b, 1, (size_t)n, f) == (size_t)n);
  b[n] = '\0';
  fclose(f);
  unlink(path);
  return b;
}

/* The first byte where s stops being XML 1.0 characters in UTF-8, or NULL. */
static const char *xml_bad(const char *s) {
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    unsigned long u;
    int n;
    if (*p < 0x80) u = *p, n = 1;
    else if ((*p & 0xe0) == 0xc0) u = *p & 0x1f, n = 2;
    else if ((*p & 0xf0) == 0xe0) u = *p & 0x0f, n = 3;
    else if ((*p & 0xf8) == 0xf0) u = *p & 0x07, n = 4;
    else return (const char *)p;
    for (int i = 1; i < n; i++) {
      if ((p[i] & 0xc0) != 0x80) return (const char *)p;
      u = u << 6 | (p[i] & 0x3f);
    }
    static const unsigned long least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (u < least[n] || u > 0x10ffff || (u >= 0xd800 && u <= 0xdfff) || u == 0xfffe ||
        u == 0xffff || (u < 0x20 && u != '\t' && u != '\n' && u != '\r'))
      return (const char *)p;
    p += n;
  }
  return NULL;
}

static size_t count(const char *s, const char *what) {
  size_t n = 0;
  for (const char *p = s; (p = strstr(p, what)) != NULL; p++) n++;
  return n;
}

/* Every record of a JTL file: 17 fields, none a formula. */
static void check_jtl(const char *s) {
  const char *p = s;
  while (*p) {
    int fields = 0;
    for (;;) {
      const char *cell = p;
      if (*p == '"') {
        for (p++; *p && !(*p == '"' && p[1] != '"'); p += *p == '"' ? 2 : 1) {}
        FUZZ_CHECK(*p == '"');
        p++;
        FUZZ_CHECK(*p == ',' || *p == '\n');
        /* quoted: a neutralised cell starts with the single quote */
        FUZZ_CHECK(!cell[1] || !strchr("=+-@\t\r", cell[1]));
      } else {
        /* unquoted: text that starts no formula, or a number the writer
         * wrote itself (never negative) */
        FUZZ_CHECK(!*p || !strchr("=+-@\t\r", *p));
        p += strcspn(p, ",\n\"");
        FUZZ_CHECK(*p != '"');
      }
      fields++;
      if (*p == ',') {
        p++;
        continue;
      }
      FUZZ_CHECK(*p == '\n');
      p++;
      break;
    }
    FUZZ_CHECK(fields == 17);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *buf = malloc(size + 1);
  if (!buf) return 0;
  memcpy(buf, data, size);
  buf[size] = '\0';
  /* pieces at 0xff (NULs inside a piece end its C string early: fine) */
  char *piece[3 + 2 * MAX_STEPS];
  int np = 0;
  for (char *p = buf; np < (int)(sizeof piece / sizeof *piece);) {
    piece[np++] = p;
    char *e = memchr(p, 0xff, (size_t)(buf + size - p));
    if (!e) break;
    *e = '\0';
    p = e + 1;
  }
  sc_scenario sc;
  memset(&sc, 0, sizeof sc);
  sc.app = np > 0 ? piece[0] : "app";
  sc.default_timeout_ms = 5000;
  sc_step_result res[MAX_STEPS], *resp[MAX_STEPS];
  size_t n = 0;
  for (int i = 3; i + 1 < np && n < MAX_STEPS; i += 2, n++) {
    unsigned char flags = (unsigned char)piece[i][0];
    const char *id = piece[i][0] ? piece[i] + 1 : piece[i];
    res[n] = (sc_step_result){.step_id = id, .cycle = flags & 4 ? 0 : 1, .setup = flags & 4,
                              .passed = (flags & 3) == 1, .reason = piece[i + 1],
                              .started_unix_ms = 1700000000000.0 + 1000.0 * (double)n,
                              .gesture_ms = 10, .first_change_ms = -1,
                              .verified_ms = (flags & 3) == 1 ? 200 : -1,
                              .first_paint_ms = -1, .last_paint_ms = -1,
                              .fault = (flags & 3) == 2, .ran_ms = (flags & 3) == 2 ? 50 : 0};
    resp[n] = &res[n];
  }
  sc_run_result run;
  memset(&run, 0, sizeof run);
  run.scenario = &sc;
  run.url = np > 1 ? piece[1] : NULL;
  run.error = np > 2 && piece[2][0] ? piece[2] : NULL;
  run.cycles = 1;
  run.nresults = n;
  run.results = resp;
  run.user_name = "user-1";
  run.ended_unix_ms = 1700000100000.0;
  int faults = 0;
  for (size_t i = 0; i < n; i++) faults += res[i].fault;
  size_t cases = n + (run.error && !faults);

  char path[128];
  snprintf(path, sizeof path, "%s/out", dir());
  FUZZ_CHECK(sc_report_junit(path, &run) == 0);
  char *x = slurp(path);
  FUZZ_CHECK(xml_bad(x) == NULL);
  FUZZ_CHECK(count(x, "<testcase ") == cases);
  FUZZ_CHECK(count(x, "<testsuite ") == 1);
  free(x);
  FUZZ_CHECK(sc_report_jtl(path, &run) == 0);
  x = slurp(path);
  check_jtl(x);
  FUZZ_CHECK(count(x, "\n") >= 1 + cases);
  free(x);

  /* the same run as two users of a load */
  sc_run_result *users[2] = {&run, &run};
  sc_load_result load;
  memset(&load, 0, sizeof load);
  load.scenario = &sc;
  load.url = run.url;
  load.nusers = 2;
  load.users = users;
  load.error = np > 2 && piece[2][0] ? piece[2] : NULL;
  FUZZ_CHECK(sc_report_load_junit(path, &load) == 0);
  x = slurp(path);
  FUZZ_CHECK(xml_bad(x) == NULL);
  FUZZ_CHECK(count(x, "<testcase ") == 2 * cases + (load.error != NULL));
  free(x);
  FUZZ_CHECK(sc_report_load_jtl(path, &load) == 0);
  x = slurp(path);
  check_jtl(x);
  free(x);
  free(buf);
  return 0;
}
