/* Scenario loader internals: the checking context shared by the files of
 * lib/scenario (problems with positions, JSON path, typed field readers). */
#ifndef SC_SCENARIO_SCN_H
#define SC_SCENARIO_SCN_H

#include <jansson.h>

#include "core/core.h"
#include "core/jsonpos.h"
#include "stepcheck/scenario.h"
#include "scenario/model.h"

typedef struct sc__problem {
  sc__jpos at;
  size_t seq; /* discovery order, to keep it among problems at one position */
  char *text; /* "FILE:LINE:COL: message" */
} sc__problem;

/* Step ids of setup + cycle, gathered before steps are checked so that a
 * snapshot can be told "later step" from "no such step". */
typedef struct sc__stepid {
  const char *id; /* borrowed from the JSON */
  int in_cycle;
  size_t index;
  sc__jpos at; /* of the id value */
} sc__stepid;

#define SC__PATH_MAX 1024
#define SC__PATH_DEPTH 32

typedef struct sc__scn {
  const char *name; /* file name as given, for messages */
  char *dir;        /* its directory with a trailing '/', or "" */
  sc__jsonpos *ix;
  sc_scenario *s; /* the model being built */
  /* JSON pointer of the value being checked */
  char path[SC__PATH_MAX];
  size_t plen;
  size_t pstack[SC__PATH_DEPTH];
  int depth, over;
  /* message prefix: `cycle[3] "zoom-in": expect[1]: ` */
  char pre[256];
  /* defaults from "defaults", applied to steps and expectations */
  double threshold;
  long max_pixels;
  /* "regions" / "points" missing or misspelt: references to them are not
   * reported one by one */
  int no_regions, no_points;
  sc__stepid *ids;
  size_t nids;
  /* keys that unknown keys were taken as typos of: a typo is then not also
   * reported as a missing required key (a full table only costs that) */
  struct {
    char path[SC__PATH_MAX]; /* of the object */
    const char *key;         /* static */
  } fixes[16];
  int nfix;
  /* step ids, region and point names -> index: lookups in O(1) */
  sc__strmap idmap, regmap, pointmap;
  /* did-you-mean comparisons left (each costs up to 64 x 64 cells): a
   * scenario with thousands of bad names gets no more hints, not minutes */
  long suggest_budget;
  /* glyph-set and profile files tried so far: path -> index into setwhy,
   * why it did not load (NULL: it did), so each file is parsed once */
  sc__strmap setmap;
  char **setwhy;
  size_t nset;
  /* locators: points and regions given as objects, checked once every
   * name is known (locators.c); point references of steps and park */
  struct {
    const char *name; /* borrowed from the JSON */
    int is_region, index;
    json_t *v;        /* borrowed */
  } *locs;
  size_t nlocs;
  struct sc__bind *binds;
  size_t nbinds, bindcap;
  int last_point;     /* index of the point the last sc__scn_point named, -1 literal */
  int cur_section;    /* the step being checked: 0 setup, 1 cycle */
  size_t cur_step;
  sc__problem *pv;
  size_t pn, pcap;
  int oom;
} sc__scn;

/* Unknown keys reported one by one per object; the rest in one line. */
#define SC__UNKNOWN_MAX 20
/* Did-you-mean comparisons per check: far more than a hand-written file needs. */
#define SC__SUGGEST_BUDGET 20000

/* Range a number must lie in; the text says it in messages. */
typedef enum sc__range {
  SC__R_POS,     /* > 0 */
  SC__R_NONNEG,  /* >= 0 */
  SC__R_GE1,     /* >= 1 */
  SC__R_UNIT,    /* 0 .. 1 */
  SC__R_BYTE,    /* 0 .. 255 */
  SC__R_MS,      /* 0 .. SC__MS_MAX: a duration that may be 0 */
  SC__R_MS_POS,  /* > 0 .. SC__MS_MAX: a timeout */
  SC__R_DELTA,   /* > 0 .. SC__DELTA_MAX */
  SC__R_NOTCHES, /* -SC__COUNT_MAX .. SC__COUNT_MAX, not 0 */
  SC__R_REPEAT   /* 1 .. SC__REPEAT_MAX */
} sc__range;

/* Every millisecond field (timeouts, settles, spacings) is at most ten
 * minutes: a larger one is a typo, and 1e308 would overflow where it is
 * turned into an integer or spin a core waiting. */
#define SC__MS_MAX 600000.0
/* A wheel notch's deltaY in CSS pixels; browsers send 100 or 120. */
#define SC__DELTA_MAX 10000.0
/* Wheel notches and key repeats per step: each is an event and a wait
 * (the page layer sends at most 64 repeats). */
#define SC__COUNT_MAX 100
#define SC__REPEAT_MAX 64

/* Path: enter a member or an element of the value at the current path. */
void sc__scn_enter(sc__scn *c, const char *key);
void sc__scn_enter_index(sc__scn *c, size_t i);
void sc__scn_leave(sc__scn *c);
sc__jpos sc__scn_vpos(const sc__scn *c);
sc__jpos sc__scn_kpos(const sc__scn *c);

/* Record a problem at `at`; the prefix c->pre comes before the message. */
void sc__scn_problem(sc__scn *c, sc__jpos at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A problem at the value (or key) of the current path. */
#define SC__AT_VAL(c) sc__scn_vpos(c)
#define SC__AT_KEY(c) sc__scn_kpos(c)

/* Report every key of obj (the value at the current path) that is not in
 * allowed (NULL-terminated), with a did-you-mean suggestion. */
void sc__scn_keys(sc__scn *c, json_t *obj, const char *const *allowed);
/* Whether key is "note", the comment every scenario object may carry (a
 * string or an array of strings, never read); a note of another type is
 * reported. */
int sc__scn_note(sc__scn *c, const char *key, json_t *v);
/* Whether sc__scn_keys, for the object at the current path, reported a typo of key. */
int sc__scn_fixed(const sc__scn *c, const char *key);
/* Note that an unknown key of the object at the current path is a typo of key (static). */
void sc__scn_fix_add(sc__scn *c, const char *key);
/* Member key of obj, or NULL; when required and missing, report it (unless
 * sc__scn_keys already reported a typo of it: call that first). */
json_t *sc__scn_get(sc__scn *c, json_t *obj, const char *key, int required);
/* Typed members: 1 = read into *out, 0 = absent (*out untouched), -1 = bad (reported). */
int sc__scn_number(sc__scn *c, json_t *obj, const char *key, int required, sc__range r, double *out);
int sc__scn_integer(sc__scn *c, json_t *obj, const char *key, int required, sc__range r, long *out);
int sc__scn_bool(sc__scn *c, json_t *obj, const char *key, int *out);
/* A non-empty string, borrowed from obj. */
int sc__scn_string(sc__scn *c, json_t *obj, const char *key, int required, const char **out);
/* A copy of sc__scn_string's value into *out (sc__free); out of memory sets c->oom. */
int sc__scn_strdup(sc__scn *c, json_t *obj, const char *key, int required, char **out);
char *sc__scn_dup(sc__scn *c, const char *s);

/* A POINT (name from points or [x, y]) at the current path; label is the
 * key that holds it, for messages; with label NULL only [x, y] is accepted
 * (the definitions in "points"). Returns 0, or -1 (reported). */
int sc__scn_point(sc__scn *c, json_t *v, const char *label, sc_point *out);
/* The point the last sc__scn_point named is used by the current step's
 * gesture (section 0 setup, 1 cycle) or by park (section 2). */
void sc__scn_bind(sc__scn *c, int section);
/* A point or region value that is an object with a locator key: note it
 * for sc__scn_locators (1), or 0 when it is not one. */
int sc__scn_locator_note(sc__scn *c, const char *name, int is_region, int index, json_t *v);
/* Check the noted locators, once points, regions and steps are known. */
void sc__scn_locators(sc__scn *c, json_t *root);
/* A region name at the current path; index, or -1 (reported). */
int sc__scn_region_ref(sc__scn *c, json_t *v, const char *label);

/* Counting unknown keys of one object: sc__scn_unknown says whether the
 * next one is reported one by one (else it only counts it), and
 * sc__scn_unknown_done reports the rest in one line. */
typedef struct sc__unknown {
  size_t n;
  sc__jpos more_at; /* key of the first one not listed */
} sc__unknown;
int sc__scn_unknown(sc__scn *c, sc__unknown *u);
void sc__scn_unknown_done(sc__scn *c, const sc__unknown *u);

/* Did-you-mean: the closest candidate within a small edit distance, while
 * c's budget lasts. */
typedef struct sc__suggest {
  const char *word;
  const char *best;
  int bestd;
  long *budget;
} sc__suggest;
void sc__suggest_init(sc__suggest *sg, sc__scn *c, const char *word);
void sc__suggest_add(sc__suggest *sg, const char *cand);
/* " (did you mean \"x\"?)" into buf, or "" when nothing is close. */
const char *sc__suggest_text(const sc__suggest *sg, char *buf, size_t cap);

/* The parts of the check, in the order load runs them. */
void sc__scn_top(sc__scn *c, json_t *root);
void sc__scn_steps(sc__scn *c, json_t *root);
void sc__scn_step(sc__scn *c, json_t *v, int in_cycle, size_t index, sc_step *st);
void sc__scn_expect(sc__scn *c, json_t *v, const sc_step *st, int in_cycle, size_t index,
                    sc_expect *e);
/* Free what a step owns (not the step itself). */
void sc__scn_step_clear(sc_step *st);

#endif
