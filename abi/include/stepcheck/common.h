/* stepcheck — common definitions: export macro, versions, errors, allocator, geometry.
 * SPDX-License-Identifier: MIT
 *
 * Thread safety (the whole library):
 * - Distinct handles may be used from distinct threads at the same time
 *   (two threads each driving their own browser: tested under TSan).
 * - One handle, and everything on its loop (a loop, its browsers, pages
 *   and multi handles), is used by one thread at a time; the library takes
 *   no locks for it.
 * - Objects only read after they are made (sc_scenario, sc_glyphset,
 *   sc_image, results) may be read from several threads at once.
 * - sc_errmsg() is per thread. sc_set_debug() is safe at any time.
 *   sc_set_allocator() must be called before any other function, from one
 *   thread, and not again while anything the library allocated lives.
 * - Internal caches (the builtin glyph set, parsed once; the scale-bar
 *   reader's last file profile, per thread and freed when the thread
 *   exits) need nothing from the caller.
 * - sc_load_run reads /proc on a thread of its own (the generator's cost,
 *   off the loop thread), which allocates: an allocator given to
 *   sc_set_allocator must be thread-safe for load runs (malloc is). */
#ifndef STEPCHECK_COMMON_H
#define STEPCHECK_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SC_STATIC)
#define SC_EXTERN
#elif defined(__GNUC__)
#define SC_EXTERN __attribute__((visibility("default")))
#else
#define SC_EXTERN
#endif

#define SC_VERSION_MAJOR 0
#define SC_VERSION_MINOR 3
#define SC_VERSION_PATCH 0
#define SC_VERSION_STRING "0.3.0"
/** Version as one number: 0xMMmmpp. */
#define SC_VERSION_HEX ((SC_VERSION_MAJOR << 16) | (SC_VERSION_MINOR << 8) | SC_VERSION_PATCH)

/** Library version at run time, e.g. "0.3.0". Static string. */
SC_EXTERN const char *sc_version(void);


/* Error codes. The table only ever grows; codes are never renumbered.
 * XX(name, code, message) */
#define SC_ERRNO_MAP(XX)                                                     \
  XX(EINVAL, -1, "invalid argument")                                       \
  XX(ENOMEM, -2, "out of memory")                                          \
  XX(EIO, -3, "input/output error")                                        \
  XX(ETIMEDOUT, -4, "timed out")                                           \
  XX(ECLOSED, -5, "connection closed")                                     \
  XX(ECRASHED, -6, "target crashed")                                       \
  XX(EDETACHED, -7, "target detached")                                     \
  XX(EPROTO, -8, "protocol error")                                         \
  XX(ETOOBIG, -9, "too large")                                             \
  XX(EFORMAT, -10, "malformed data")                                       \
  XX(ELAUNCH, -11, "browser launch failed")                                \
  XX(ENOTFOUND, -12, "not found")                                          \
  XX(EGEOMETRY, -13, "canvas geometry mismatch")                           \
  XX(ESCENARIO, -14, "invalid scenario")                                   \
  XX(ENOTEXT, -15, "no text")                                              \
  XX(EUNREADABLE, -16, "text unreadable")                                  \
  XX(ECANCELED, -17, "canceled")                                           \
  XX(ENOSPACE, -18, "no space left")                                       \
  XX(EDATA, -19, "data does not fit")                                      \
  XX(ELOCATE, -20, "locator not found or ambiguous")                      \
  XX(EBUSY, -21, "the loop is already running")

/** Error codes returned (negated) by every function that returns int. */
typedef enum sc_error {
  SC_OK = 0,
#define SC__ERR_ENUM(name, code, msg) SC_##name = (code),
  SC_ERRNO_MAP(SC__ERR_ENUM)
#undef SC__ERR_ENUM
} sc_error;

/** Short static text for an error code ("timed out"); "unknown error" otherwise. */
SC_EXTERN const char *sc_strerror(int err);

/**
 * Detailed message of the last error on this thread: every function that
 * returns a negative sc_error sets it first ("chromium: DevToolsActivePort
 * not written within 20000 ms"). Never NULL; "" when nothing failed yet.
 * The string stays valid until the next failing call on this thread.
 */
SC_EXTERN const char *sc_errmsg(void);

/**
 * Replace the allocator used by the library: everything it allocates
 * (handles, results, images, strings it hands out) and libpng's work for
 * its decoders and encoders. Call before any other function; NULL pointers
 * restore the C library's. free_fn must accept NULL.
 * jansson and libwebsockets keep their own allocators: their settings are
 * process-wide and belong to the host program, so the library never
 * changes them, and never frees their memory with this hook nor its own
 * with theirs (JSON text it hands out is copied into this allocator).
 */
SC_EXTERN void sc_set_allocator(void *(*malloc_fn)(size_t),
                                void *(*realloc_fn)(void *, size_t),
                                void (*free_fn)(void *));

/**
 * Copy src into dst (size bytes) as one line safe for a terminal: C0
 * controls and DEL become \n, \t, \r or \xNN, C1 controls (U+0080 to
 * U+009F) \u00NN, bytes that are not valid UTF-8 \xNN; the rest is kept.
 * The copy is cut before an escape that does not fit and always ends with
 * a NUL (when size > 0). sc_errmsg() is already escaped this way; text a
 * program prints from elsewhere (names, reasons, paths) should pass through
 * this first. src may be NULL (""). Returns the length written.
 */
SC_EXTERN size_t sc_escape_ctl(char *dst, size_t size, const char *src);

/**
 * May path be written as an output (a report, an image, a glyph set)?
 * Writers put their bytes in PATH.tmp and rename it over PATH, so only a
 * regular file, or a new file in an existing folder, is ever replaced;
 * a device, FIFO, socket or directory (also through a symbolic link) is
 * refused. Every writer of the library checks this itself; a program calls
 * it up front, before a long run, to refuse a bad path at once.
 * Returns 0, SC_EINVAL for a path that is not replaced ("PATH: not
 * replaced: it is a character device (...)") or SC_EIO for a folder that
 * is missing or cannot be looked at ("PATH: the folder DIR does not
 * exist"), with sc_errmsg().
 */
SC_EXTERN int sc_output_check(const char *path);
/** dir exists and is a folder (for outputs written into it): 0 or SC_EIO. */
SC_EXTERN int sc_output_check_dir(const char *dir);

/** Free memory the library handed to the caller (strings, buffers). */
SC_EXTERN void sc_free(void *p);

/** Debug output on stderr, flags ORed (default 0: silent). */
#define SC_DEBUG_LWS 1u /**< libwebsockets' errors and warnings */
#define SC_DEBUG_CDP 2u /**< every CDP message, one JSON line each (fixtures/cdp format) */
#define SC_DEBUG_PROBE 4u /**< ignored since 0.3.0: the in-page pixel probes gave way to
                              the paint log (docs/design.md, "Paint log") */
#define SC_DEBUG_LOG_TRUST 8u /**< for tests of the fallback only: the paint log is
                                  trusted where it knows it is blind (a WebGL canvas, a
                                  frame over the guest, …), so a step may pass on a change
                                  nobody saw; never set it to measure an application */
#define SC_DEBUG_NO_WITNESS 16u /**< for the sabotage tests of the compositor witness only:
                                    pages open without it, so a change the paint log does
                                    not see (CSS, SVG, a form control) may pass a step;
                                    never set it to measure an application */
/**
 * Set the debug flags for connections made from now on. Process-wide; the
 * library reads no environment variable (the CLI maps SC_DEBUG=1 to
 * SC_DEBUG_LWS, SC_DEBUG=cdp to both flags, and adds SC_DEBUG_LOG_TRUST
 * when SC_DEBUG contains "log-trust"). Safe from any thread.
 */
SC_EXTERN void sc_set_debug(unsigned flags);

/** Integer rectangle, in guest (application window) pixels unless stated. */
typedef struct sc_rect {
  int x, y, w, h;
} sc_rect;

/** A point in guest coordinates; fractional values are kept. */
typedef struct sc_point {
  double x, y;
} sc_point;

#ifdef __cplusplus
}
#endif
#endif
