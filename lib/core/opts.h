/* Versioned option structs. A caller built against version v (1 <= v <=
 * the library's) is accepted, and nothing past the end of its version's
 * fields is read or written: sizes[v] is that end (sizes[0] unused). */
#ifndef SC_CORE_OPTS_H
#define SC_CORE_OPTS_H

#include <stddef.h>
#include <string.h>

#include "core/core.h"

#define SC__NVERSIONS(sizes) (sizeof(sizes) / sizeof(sizes)[0] - 1)

/* 0, or SC_EINVAL naming fn: a version this library does not know. */
static inline int sc__opts_version(unsigned v, size_t max, const char *fn) {
  if (v >= 1 && v <= max) return 0;
  return sc__err(SC_EINVAL, "%s: options version %u, this library knows 1..%zu", fn, v, max);
}

/* The body of every sc_<x>_options_init(opts, version): the defaults of the
 * current INIT template, cut to the caller's version. */
static inline int sc__opts_init(void *opts, unsigned version, const void *tmpl,
                                const size_t *sizes, size_t max, const char *fn) {
  if (!opts) return sc__err(SC_EINVAL, "%s: opts is NULL", fn);
  int rc = sc__opts_version(version, max, fn);
  if (rc) return rc;
  memcpy(opts, tmpl, sizes[version]);
  memcpy(opts, &version, sizeof version); /* every struct starts with unsigned version */
  return 0;
}

#define SC__OPTS_INIT_FN(fn, type, tmpl_init, ...)                                   \
  SC_EXTERN int fn(type *opts, unsigned version) {                                   \
    static const type tmpl = tmpl_init;                                              \
    static const size_t sizes[] = {0, __VA_ARGS__};                                  \
    return sc__opts_init(opts, version, &tmpl, sizes, SC__NVERSIONS(sizes), #fn);    \
  }

#endif
