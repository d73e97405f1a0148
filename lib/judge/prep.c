/* What judging needs besides pixels, made once per scenario instead of on
 * every capture: each text expectation's compiled pattern and its glyph
 * set (loaded once per name). A pattern that does not compile or a set
 * that does not load is kept as its reason: that expectation fails with
 * it, the others are judged as usual. */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "judge.h"
#include "stepcheck/text.h"

typedef struct prep_entry {
  const sc_expect *e;
  sc__regex *re;
  sc_glyphset *gs;  /* owned when own_gs */
  int own_gs;
  char why[200];    /* the pattern or set could not be made: why */
} prep_entry;

struct sc__judge_prep {
  prep_entry *v;
  size_t n;
};

static int add(sc__judge_prep *p, const sc_expect *e) {
  prep_entry *v = sc__realloc(p->v, (p->n + 1) * sizeof *v);
  if (!v) return sc__err(SC_ENOMEM, "judge: out of memory");
  p->v = v;
  prep_entry *x = &p->v[p->n];
  memset(x, 0, sizeof *x);
  x->e = e;
  const char *name = e->glyphs ? e->glyphs : "josm";
  for (size_t i = 0; i < p->n && !x->gs; i++) {
    const sc_expect *o = p->v[i].e;
    if (p->v[i].gs && !strcmp(o->glyphs ? o->glyphs : "josm", name)) x->gs = p->v[i].gs;
  }
  if (!x->gs) {
    int rc = sc_glyphset_load(&x->gs, name);
    if (rc == SC_ENOMEM) return rc;
    if (rc < 0) snprintf(x->why, sizeof x->why, "%s", sc_errmsg());
    x->own_gs = x->gs != NULL;
  }
  if (e->text_match && !x->why[0]) {
    int rc = sc__regex_compile(&x->re, e->text_match, NULL, 0);
    if (rc == SC_ENOMEM) {
      p->n++; /* freed with the rest */
      return sc__err(SC_ENOMEM, "text pattern: out of memory");
    }
    if (rc != 0) snprintf(x->why, sizeof x->why, "bad pattern %s", e->text_match);
  }
  p->n++;
  return 0;
}

int sc__judge_prep_new(sc__judge_prep **out, const sc_scenario *s) {
  *out = NULL;
  sc__judge_prep *p = sc__calloc(1, sizeof *p);
  if (!p) return sc__err(SC_ENOMEM, "judge: out of memory");
  size_t nall = s->nsetup + s->nsteps;
  for (size_t i = 0; i < nall; i++) {
    const sc_step *st = i < s->nsetup ? &s->setup[i] : &s->steps[i - s->nsetup];
    for (size_t k = 0; k < st->nexpect; k++) {
      int rc = st->expect[k].kind == SC_EXPECT_TEXT ? add(p, &st->expect[k]) : 0;
      if (rc < 0) {
        sc__judge_prep_free(p);
        return rc;
      }
    }
  }
  *out = p;
  return 0;
}

void sc__judge_prep_free(sc__judge_prep *p) {
  if (!p) return;
  for (size_t i = 0; i < p->n; i++) {
    sc__regex_free(p->v[i].re);
    if (p->v[i].own_gs) sc_glyphset_free(p->v[i].gs);
  }
  sc__free(p->v);
  sc__free(p);
}

int sc__judge_prep_text(const sc__judge_prep *p, const sc_expect *e, const sc_glyphset **gs,
                        const sc__regex **re, const char **why) {
  for (size_t i = 0; p && i < p->n; i++) {
    const prep_entry *x = &p->v[i];
    if (x->e != e) continue;
    *gs = x->gs;
    *re = x->re;
    *why = x->why[0] ? x->why : NULL;
    return 0;
  }
  return -1;
}
