/* The locate layer: a scenario's locators resolved against one capture of
 * the whole guest, for one user. Internal, not installed. */
#ifndef SC_LOCATE_H
#define SC_LOCATE_H

#include "stepcheck/image.h"
#include "stepcheck/scenario.h"
#include "scenario/model.h"

/* Resolve every locator of s on guest (a capture of the whole guest, the
 * guest's size). *out is a copy of s with its own points, regions and step
 * arrays, every located point and region filled in and every gesture and
 * park that names a located point moved there; strings, expectations and
 * the rest are s's (borrowed: s must outlive it). Free it with
 * sc__located_free. Where each was found goes to *found (n entries,
 * cycle set on each; free each and the array with sc__free).
 * SC_ELOCATE, message naming the locator, when one is not found, found in
 * more than one place, or lands outside the guest. */
int sc__locate(sc_scenario **out, sc_located ***found, size_t *n, const sc_scenario *s,
               const sc_image *guest, int cycle);
void sc__located_free(sc_scenario *resolved);

#endif
