/* File names of a step's images and their listing in its result
 * (artifacts.c). Internal. */
#ifndef SC_RUN_ARTIFACTS_H
#define SC_RUN_ARTIFACTS_H

#include <stddef.h>

#include "stepcheck/run.h"

/* Longest part of a name taken from an id before the hash is added. */
#define SC__NAME_PART_MAX 64
/* Room a made-safe part needs: the part, "~", 16 hex digits, NUL. */
#define SC__NAME_PART_SIZE (SC__NAME_PART_MAX + 18)

/* One part of a file name made from an id (a step id, a region name, a
 * user name) that cannot leave its directory: bytes other than
 * [A-Za-z0-9._-] become '_', as do a leading '.' or '-' and the second
 * '.' of ".."; at most SC__NAME_PART_MAX bytes are kept (an empty id is
 * "_"). When anything was changed or cut, "~" and 16 hex digits of a hash
 * of the whole id follow, so two different ids never give one name
 * (docs/design.md, "Failure images"). out has SC__NAME_PART_SIZE bytes.
 * Returns 1 when the id was changed, 0 when it is used as it is. */
int sc__name_part(char out[SC__NAME_PART_SIZE], const char *id);

/* List path in res->artifacts (copied). 0 or SC_ENOMEM. */
int sc__artifact_add(sc_step_result *res, const char *path);
/* Append " [note]" to res's reason ("failed" when it has none). */
void sc__artifact_note(sc_step_result *res, const char *note);

#endif
