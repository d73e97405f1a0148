/* Did-you-mean for unknown keys and names: optimal string alignment distance
 * (Levenshtein plus adjacent transpositions, so "regoins" is 1 from "regions"). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "scenario/scn.h"

#define MAXW 64

static int osa(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b);
  if (n > MAXW || m > MAXW) return MAXW;
  int rows[3][MAXW + 1];
  int *pp = rows[0], *p = rows[1], *cur = rows[2];
  for (size_t j = 0; j <= m; j++) p[j] = (int)j;
  for (size_t i = 1; i <= n; i++) {
    cur[0] = (int)i;
    for (size_t j = 1; j <= m; j++) {
      int cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
      int d = p[j] + 1;
      if (cur[j - 1] + 1 < d) d = cur[j - 1] + 1;
      if (p[j - 1] + cost < d) d = p[j - 1] + cost;
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && pp[j - 2] + 1 < d)
        d = pp[j - 2] + 1;
      cur[j] = d;
    }
    int *t = pp;
    pp = p;
    p = cur;
    cur = t;
  }
  return p[m];
}

void sc__suggest_init(sc__suggest *sg, sc__scn *c, const char *word) {
  sg->word = word;
  sg->budget = &c->suggest_budget;
  sg->best = NULL;
  /* short words get one edit, longer ones two; "x" suggests nothing */
  size_t n = strlen(word);
  sg->bestd = n < 3 ? 0 : n < 5 ? 2 : 3;
}

void sc__suggest_add(sc__suggest *sg, const char *cand) {
  if (!cand || !*cand || *sg->budget <= 0) return;
  --*sg->budget;
  int d = osa(sg->word, cand);
  if (d < sg->bestd) {
    sg->bestd = d;
    sg->best = cand;
  }
}

const char *sc__suggest_text(const sc__suggest *sg, char *buf, size_t cap) {
  if (!sg->best) return "";
  snprintf(buf, cap, " (did you mean \"%s\"?)", sg->best);
  return buf;
}
