/* Internal: a scale-bar profile (docs/text.md, "Scale-bar profiles"), as
 * loaded by scaleprofile.c and used by scalebar.c. Not installed. */
#ifndef SC_TEXT_SCALEPROFILE_PRIV_H
#define SC_TEXT_SCALEPROFILE_PRIV_H

#include "stepcheck/text.h"

enum { SC__TICKS_THROUGH, SC__TICKS_UP, SC__TICKS_DOWN };
enum { SC__LABEL_UNDER_RIGHT_TICK, SC__LABEL_RIGHT, SC__LABEL_INSIDE };
enum { SC__NUMBER_JOSM, SC__NUMBER_PLAIN };
enum { SC__ROUND_FLOOR, SC__ROUND_NEAREST };

#define SC__PROFILE_MAX_UNITS 8
#define SC__PROFILE_MAX_MANTISSAS 10

typedef struct sc__scale_unit {
  char name[8];  /* as drawn: "km" */
  double metres; /* one unit in metres */
  double min, max; /* label values this unit is drawn with: [min, max]; 0 = no bound */
} sc__scale_unit;

struct sc_scale_profile {
  char name[64];
  sc_glyphset *gs;      /* owned */
  uint32_t bar_rgb;     /* bar ink */
  int bar_tol;
  int ticks;            /* SC__TICKS_* */
  int tick_px;          /* rows an end tick reaches beyond the bar line */
  int tick_w;           /* columns of an end tick */
  int thick;            /* rows of the bar line */
  int offset;           /* app length = left-to-left tick distance - offset */
  int rounding;         /* SC__ROUND_*: how the app made its length whole */
  int zero;             /* a "0" centred under the left tick */
  int at;               /* SC__LABEL_* */
  int baseline;         /* label baseline, rows below the bar's top row */
  int top;              /* label rows start this far above the baseline; 0: the default */
  int dx;               /* label start, px right of the right tick ("right") or the left tick ("inside") */
  int centred;          /* "inside": centred between the end ticks, not dx from the left one */
  int slack;            /* px the label's start (or centre) may be off */
  int max_gap;          /* widest gap between the label's words */
  int number;           /* SC__NUMBER_* */
  double mant[SC__PROFILE_MAX_MANTISSAS];
  int nmant;
  int series_metres;    /* series of the distance in metres (JOSM), else of the label's number */
  int less_than;        /* "< 0.01 unit" labels exist */
  sc__scale_unit units[SC__PROFILE_MAX_UNITS];
  int nunits;
};

/* A profile name is a path when it has a '/' or ends in ".json". */
int sc__scale_profile_is_path(const char *s);

/* The builtin profile texts (scaleprofile_builtin.c). */
typedef struct sc__builtin_profile {
  const char *name;
  const char *json;
} sc__builtin_profile;
extern const sc__builtin_profile sc__builtin_profiles[];
extern const size_t sc__builtin_profiles_n;

#endif
