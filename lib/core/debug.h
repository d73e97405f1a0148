/* The debug flags set by sc_set_debug (SC_DEBUG_*). */
#ifndef SC_CORE_DEBUG_H
#define SC_CORE_DEBUG_H

#include "stepcheck/common.h"

unsigned sc__debug(void);

#endif
