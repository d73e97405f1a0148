/* Versioned option structs: one rule for all of them (docs/api.md).
 *
 * Every public struct sc_<x> that carries `unsigned version` first is
 * defined in its layer with SC__OPTS_DEFINE(x, INIT, sizes...), where
 * sizes[v] is the end of version v's fields. That gives
 *   sc_<x>_init(opts, v)       (public) the INIT defaults cut to version v;
 *   sc__<x>_read(dst, src, fn) (internal) the caller's struct, or the
 *       defaults when src is NULL, copied into a whole current-version
 *       struct (its version set to the current one): fields the caller's
 *       version lacks keep their defaults, and nothing past the caller's
 *       end is ever read.
 * Both refuse version 0 and max + 1 with SC_EINVAL naming the function and
 * the struct. No other code looks at a version field. */
#ifndef SC_CORE_OPTS_H
#define SC_CORE_OPTS_H

#include <stddef.h>
#include <string.h>

#include "core/core.h"

#define SC__NVERSIONS(sizes) (sizeof(sizes) / sizeof(sizes)[0] - 1)

static inline int sc__opts_check(unsigned v, size_t max, const char *type, const char *fn) {
  if (v >= 1 && v <= max) return 0;
  return sc__err(SC_EINVAL, "%s: %s version %u, this library knows 1..%zu", fn, type, v, max);
}

static inline int sc__opts_init(void *opts, unsigned version, const void *tmpl,
                                const size_t *sizes, size_t max, const char *type,
                                const char *fn) {
  if (!opts) return sc__err(SC_EINVAL, "%s: opts is NULL", fn);
  int rc = sc__opts_check(version, max, type, fn);
  if (rc) return rc;
  memcpy(opts, tmpl, sizes[version]);
  memcpy(opts, &version, sizeof version); /* every struct starts with unsigned version */
  return 0;
}

static inline int sc__opts_read(void *dst, const void *src, const void *tmpl,
                                const size_t *sizes, size_t max, const char *type,
                                const char *fn) {
  memcpy(dst, tmpl, sizes[max]);
  if (!src) return 0;
  unsigned v;
  memcpy(&v, src, sizeof v);
  int rc = sc__opts_check(v, max, type, fn);
  if (rc) return rc;
  memcpy(dst, src, sizes[v]);
  unsigned whole = (unsigned)max; /* dst now has every field: pass it on as such */
  memcpy(dst, &whole, sizeof whole);
  return 0;
}

/* Declare sc__<x>_read in the layer's internal header. */
#define SC__OPTS_DECLARE(x) int sc__##x##_read(sc_##x *dst, const sc_##x *src, const char *fn)

#define SC__OPTS_DEFINE(x, tmpl_init, ...)                                                  \
  static const sc_##x sc__##x##_tmpl = tmpl_init;                                           \
  static const size_t sc__##x##_sizes[] = {0, __VA_ARGS__};                                 \
  SC_EXTERN int sc_##x##_init(sc_##x *opts, unsigned version) {                             \
    return sc__opts_init(opts, version, &sc__##x##_tmpl, sc__##x##_sizes,                   \
                         SC__NVERSIONS(sc__##x##_sizes), "sc_" #x, "sc_" #x "_init");       \
  }                                                                                         \
  int sc__##x##_read(sc_##x *dst, const sc_##x *src, const char *fn) {                      \
    return sc__opts_read(dst, src, &sc__##x##_tmpl, sc__##x##_sizes,                        \
                         SC__NVERSIONS(sc__##x##_sizes), "sc_" #x, fn);                     \
  }

#endif
