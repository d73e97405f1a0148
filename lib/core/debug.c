/* Debug output switches (sc_set_debug). The library reads no environment
 * variable: the CLI maps SC_DEBUG to these flags. */
#include "core/debug.h"

static unsigned g_debug;

SC_EXTERN void sc_set_debug(unsigned flags) { __atomic_store_n(&g_debug, flags, __ATOMIC_RELAXED); }

unsigned sc__debug(void) { return __atomic_load_n(&g_debug, __ATOMIC_RELAXED); }
