/* Fuzz target: locator placement (lib/scenario/locators.c): the order in
 * which "from" and "between" locators are found, and the cycles among
 * them, on a scenario built from the input.
 *
 * Input: one byte pair (a, b) per point or region, at most 64; the first
 * half and one are points (p<i>), the rest regions (r<i>):
 *   a & 3    0 given in the file (no locator); 1 or 3 "from" the thing
 *            a >> 2 (modulo the count); 2 a region "between" a >> 2 and
 *            b (a point: "from" a >> 2)
 * Invariants checked: the scenario loads exactly when no locator depends on
 * itself, as an independent fixed-point (the placement of 0.2.0, slow and
 * obvious) finds; then every locator comes after each one it names;
 * otherwise the loader's problem is a locator that depends on itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/locators.h"
#include "stepcheck/scenario.h"
#include "fuzz.h"

#define MAXN 64

typedef struct thing {
  int region, kind, a, b; /* kind 0 given, 1 from, 2 between */
} thing;

static void name(char *buf, size_t cap, const thing *t, int i) {
  snprintf(buf, cap, "%c%d", t[i].region ? 'r' : 'p', i);
}

/* What locator i names that is a locator itself; how many. */
static int deps_of(const thing *t, int i, int d[2]) {
  int k = 0;
  if (t[t[i].a].kind) d[k++] = t[i].a;
  if (t[i].kind == 2 && t[t[i].b].kind) d[k++] = t[i].b;
  return k;
}

/* The scenario as JSON (the caller frees). */
static char *scenario_of(const thing *t, int n) {
  size_t cap = 256 + (size_t)n * 64, at = 0;
  char *j = malloc(cap);
  if (!j) return NULL;
  at += (size_t)snprintf(j, cap, "{\"app\": \"a\", \"url\": \"http://127.0.0.1:9/\", \"viewport\": "
                         "{\"width\": 800, \"height\": 600}, \"points\": {");
  for (int pass = 0; pass < 2; pass++) {
    if (pass) at += (size_t)snprintf(j + at, cap - at, "}, \"regions\": {\"map\": [0, 0, 800, 600]");
    int first = !pass;
    for (int i = 0; i < n; i++) {
      if (t[i].region != pass) continue;
      char nm[16], na[16], nb[16];
      name(nm, sizeof nm, t, i);
      name(na, sizeof na, t, t[i].a);
      name(nb, sizeof nb, t, t[i].b);
      at += (size_t)snprintf(j + at, cap - at, "%s\"%s\": ", first ? "" : ", ", nm);
      first = 0;
      if (t[i].kind == 0 && t[i].region)
        at += (size_t)snprintf(j + at, cap - at, "[%d, %d, 4, 4]", 10 + i, 10 + i);
      else if (t[i].kind == 0)
        at += (size_t)snprintf(j + at, cap - at, "[%d, %d]", 10 + i, 10 + i);
      else if (t[i].kind == 1 && t[i].region)
        at += (size_t)snprintf(j + at, cap - at, "{\"from\": \"%s\", \"size\": [4, 4]}", na);
      else if (t[i].kind == 1)
        at += (size_t)snprintf(j + at, cap - at, "{\"from\": \"%s\"}", na);
      else
        at += (size_t)snprintf(j + at, cap - at, "{\"between\": [\"%s\", \"%s\"]}", na, nb);
    }
  }
  at += (size_t)snprintf(j + at, cap - at, "}, \"cycle\": [{\"id\": \"s\", \"none\": true, "
                         "\"expect\": [{\"stable\": \"map\"}]}]}");
  FUZZ_CHECK(at < cap);
  return j;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  int n = (int)(size / 2);
  if (n < 2) return 0;
  if (n > MAXN) n = MAXN;
  thing t[MAXN];
  int npoints = n / 2 + 1;
  for (int i = 0; i < n; i++) {
    uint8_t a = data[2 * i], b = data[2 * i + 1];
    int kind = a & 3;
    t[i] = (thing){i >= npoints, kind == 3 ? 1 : kind, (a >> 2) % n, b % n};
    if (t[i].kind == 2 && !t[i].region) t[i].kind = 1; /* "between" is for regions */
  }
  char *json = scenario_of(t, n);
  if (!json) return 0;

  int placed[MAXN] = {0}, any = 1, nloc = 0, nplaced = 0;
  for (int i = 0; i < n; i++) nloc += t[i].kind != 0;
  while (any) {
    any = 0;
    for (int i = 0; i < n; i++) {
      if (!t[i].kind || placed[i]) continue;
      int d[2], k = deps_of(t, i, d), ok = 1;
      for (int j = 0; j < k; j++) ok &= placed[d[j]] && d[j] != i;
      if (ok) placed[i] = any = 1, nplaced++;
    }
  }

  sc_scenario *s = NULL;
  int rc = sc_scenario_parse(&s, json, "fuzz/locators.json");
  if (nplaced == nloc) {
    if (rc != 0) fprintf(stderr, "%s\n%s\n", json, sc_errmsg());
    FUZZ_CHECK(rc == 0);
    const struct sc_locators *L = s->locators;
    FUZZ_CHECK((L ? (int)L->n : 0) == nloc);
    int pos[MAXN];
    for (int i = 0; i < n; i++) pos[i] = -1;
    for (size_t k = 0; L && k < L->n; k++) {
      const sc__locator *l = &L->v[k];
      const char *nm = l->self.is_region ? s->regions[l->self.index].name
                                         : s->points[l->self.index].name;
      int i = atoi(nm + 1);
      FUZZ_CHECK(i >= 0 && i < n && pos[i] < 0 && t[i].kind);
      pos[i] = (int)k;
    }
    for (int i = 0; i < n; i++) {
      int d[2], k = t[i].kind ? deps_of(t, i, d) : 0;
      for (int j = 0; j < k; j++) FUZZ_CHECK(pos[d[j]] >= 0 && pos[d[j]] < pos[i]);
    }
    sc_scenario_free(s);
  } else {
    FUZZ_CHECK(rc == SC_ESCENARIO && s == NULL);
    FUZZ_CHECK(strstr(sc_errmsg(), "its locator depends on itself") != NULL);
  }
  free(json);
  return 0;
}
