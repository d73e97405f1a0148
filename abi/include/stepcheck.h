/* stepcheck — verify Swing-in-browser steps over the Chrome DevTools Protocol.
 * Umbrella header: include this one.
 * SPDX-License-Identifier: MIT */
#ifndef STEPCHECK_H
#define STEPCHECK_H

#include "stepcheck/common.h"
#include "stepcheck/loop.h"
#include "stepcheck/image.h"
#include "stepcheck/browser.h"
#include "stepcheck/grid.h"
#include "stepcheck/text.h"
#include "stepcheck/page.h"
#include "stepcheck/scenario.h"
#include "stepcheck/builder.h"
#include "stepcheck/inspect.h"
#include "stepcheck/run.h"
#include "stepcheck/multi.h"
#include "stepcheck/load.h"
#include "stepcheck/report.h"

#endif
