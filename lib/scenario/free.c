/* Freeing the model, and looking regions up by name. */
#include <string.h>

#include "scenario/locators.h"
#include "scenario/scn.h"

void sc__scn_step_clear(sc_step *st) {
  sc__free(st->id);
  sc__free(st->action.key);
  for (size_t i = 0; i < st->nexpect; i++) {
    sc_expect *e = &st->expect[i];
    sc__free(e->snapshot);
    sc__free(e->baseline);
    sc__free(e->profile);
    sc__free(e->text_equals);
    sc__free(e->text_match);
    sc__free(e->glyphs);
  }
  sc__free(st->expect);
}

SC_EXTERN void sc_scenario_free(sc_scenario *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nsetup; i++) sc__scn_step_clear(&s->setup[i]);
  for (size_t i = 0; i < s->nsteps; i++) sc__scn_step_clear(&s->steps[i]);
  for (size_t i = 0; i < s->npoints; i++) sc__free(s->points[i].name);
  for (size_t i = 0; i < s->nregions; i++) sc__free(s->regions[i].name);
  sc__free(s->setup);
  sc__free(s->steps);
  sc__free(s->points);
  sc__free(s->regions);
  sc__free(s->drift_regions);
  sc__locators_free(s->locators);
  sc__free(s->path);
  sc__free(s->canvas);
  sc__free(s->app);
  sc__free(s->url);
  sc__free(s);
}

SC_EXTERN int sc_scenario_region(const sc_scenario *s, const char *name) {
  if (!s || !name) return -1;
  for (size_t i = 0; i < s->nregions; i++)
    if (s->regions[i].name && strcmp(s->regions[i].name, name) == 0) return (int)i;
  return -1;
}
