/* stepcheck — where a scenario's points and regions land on the screen.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_INSPECT_H
#define STEPCHECK_INSPECT_H

#include "common.h"
#include "image.h"
#include "page.h"
#include "scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Capture the whole guest of page p once it is at rest and draw scenario s
 * on it: every region's outline and name (magenta), every point as a cross
 * with its name (cyan), the park point (yellow), and a ruler of guest
 * coordinates along the top and left edges (a tick every 10 px, longer
 * every 50, a number every 100). Labels never overlap one another nor
 * cover a point's cross; one with no free place nearby is left out (a
 * line says how many). For each point and region, line (optional) receives one line:
 * "point building_a 554,502 colour #e0e0e0" (the colour under it before
 * anything was drawn), "region map 1221x809 at 41,66". A scenario's
 * locators are found on the same capture first (one line each: "located
 * point building_a at 618.5,535 score 1.000"; a template's match is
 * outlined in the point's colour) and everything is drawn where they found
 * it. When a locator is not found or ambiguous the picture is drawn
 * anyway: what was found before it and what the file gives, and the failed
 * locator's best candidates outlined in red with their scores ("eye? #1
 * 0.912", and a line each: "candidate 1 for eye at 56,27 20x15 score
 * 0.912"); what depends on it is left out.
 * @param out the picture, the caller's (sc_image_free); also set with
 *        SC_ELOCATE.
 * @return 0; SC_ELOCATE (the locator's message in sc_errmsg(), *out set);
 *         SC_ETIMEDOUT when the guest did not come to rest within 10 s.
 */
SC_EXTERN int sc_inspect(sc_image **out, sc_page *p, const sc_scenario *s,
                         void (*line)(const char *text, void *userdata), void *userdata);

#ifdef __cplusplus
}
#endif
#endif
