/* Internal helpers shared by every layer: allocation hook, error messages,
 * monotonic clock, base64. Not installed. */
#ifndef SC_CORE_H
#define SC_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stepcheck/common.h"

/* Allocation: every library allocation goes through these (sc_set_allocator). */
void *sc__malloc(size_t n);
void *sc__calloc(size_t n, size_t size);
void *sc__realloc(void *p, size_t n);
void sc__free(void *p);
char *sc__strdup(const char *s);
char *sc__strndup(const char *s, size_t n);
/* printf into a new string; NULL on failure. */
char *sc__asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with a va_list (for functions that take a format themselves). */
char *sc__vasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* Set this thread's detailed error message and return err (negative sc_error),
 * so failures read: return sc__err(SC_EIO, "open %s: %s", path, strerror(errno)); */
int sc__err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* This thread's message, kept across cleanup that may itself fail:
 *   sc__errsave e; sc__err_save(&e); thing_free(x); return sc__err_restore(&e, rc); */
typedef struct sc__errsave {
  char msg[1024];
} sc__errsave;
void sc__err_save(sc__errsave *e);
int sc__err_restore(const sc__errsave *e, int err);

/* Clear this thread's message (used by tests). */
void sc__err_clear(void);

/* CLOCK_MONOTONIC in milliseconds, 1 µs resolution. */
double sc__now_ms(void);
/* CLOCK_REALTIME in milliseconds since the epoch (wall-clock stamps for
 * reports; never for measuring intervals). */
double sc__unix_ms(void);

/* 64-bit hash of bytes (hash.c): never 0, so 0 can mean "none". */
uint64_t sc__hash64(const void *data, size_t len);
/* Sleep for ms (may be fractional). */
void sc__sleep_ms(double ms);
/* Replace the clock and sleep (tests); NULL restores the real ones. Not
 * thread-safe: set it before anything runs. */
void sc__set_clock(double (*now)(void), void (*sleep)(double));

/* String -> index map (strmap.c). Keys are
 * borrowed: they must outlive the map. probes counts slot visits of puts and
 * gets (tests assert on it: linear work, not wall time). */
struct sc__strmap_slot {
  const char *key; /* NULL: empty */
  size_t len, val;
};
typedef struct sc__strmap {
  struct sc__strmap_slot *slot;
  size_t cap, n;
  uint64_t seed;
  unsigned long probes;
} sc__strmap;
/* Room for n keys before it grows (0 is fine). 0 or SC_ENOMEM. */
int sc__strmap_init(sc__strmap *m, size_t n);
void sc__strmap_free(sc__strmap *m);
/* 1 added; 0 already there (*old, if not NULL, gets its value); -1 out of
 * memory (the map is unchanged). */
int sc__strmap_put(sc__strmap *m, const char *key, size_t len, size_t val, size_t *old);
/* 1 and *val when key is there, else 0. */
int sc__strmap_get(const sc__strmap *m, const char *key, size_t len, size_t *val);

/* A copy of s for a one-line message (escape.c): C0 controls and DEL
 * become \n, \t, \r or \xNN, C1 controls \u0080..\u009f, bytes that are
 * not valid UTF-8 \xNN; everything else stays (caller frees; NULL when out
 * of memory). _len: the copy's length (it differs from strlen(s) exactly
 * when s has something to escape). _to: into dst of size bytes, cut before
 * an escape that does not fit, always NUL-terminated; returns its length. */
char *sc__escape_ctl(const char *s);
size_t sc__escape_ctl_len(const char *s);
size_t sc__escape_ctl_to(char *dst, size_t size, const char *s);

/* Geometry on int input, without overflow (any int, INT_MAX included):
 * non-zero when r is non-empty and lies inside [0, w) x [0, h) (w, h >= 0).
 * Written as differences, never as r.x + r.w, which overflows for a width
 * near INT_MAX (issue 25). Every bounds check on a rect goes through it. */
static inline int sc__rect_within(sc_rect r, int w, int h) {
  return r.w > 0 && r.h > 0 && r.x >= 0 && r.y >= 0 && w >= 0 && h >= 0 && r.x < w &&
         r.y < h && r.w <= w - r.x && r.h <= h - r.y;
}

/* Outputs (outpath.c): 0 when path may be written by a temp-then-rename
 * (a regular file, or no file in an existing folder); SC_EINVAL naming
 * path and what it is otherwise ("PATH: not replaced: it is a character
 * device ..."), SC_EIO when its folder is missing or cannot be looked at.
 * _dir: dir exists and is a folder (else SC_EIO). */
int sc__out_check(const char *path);
int sc__out_check_dir(const char *dir);
/* The temporary file tmp (PATH.tmp), opened for writing ("wb") as a new
 * regular file, never through a link: a file or link left at tmp is
 * removed first (the link itself, never what it points to), then tmp is
 * created with O_EXCL | O_NOFOLLOW, so one planted in between makes this
 * fail (EEXIST) instead of writing through it. NULL with errno set on
 * failure. */
FILE *sc__out_open_tmp(const char *tmp);

/* Read the whole file at path into *out (NUL-terminated, *outlen bytes
 * without the NUL; the caller frees it with sc__free). The file must be a
 * regular file: anything else (a FIFO, a directory, a device) is refused
 * before any read could block. Returns 0; SC_EIO ("open PATH: reason",
 * "PATH: not a regular file (a FIFO)", "read PATH: reason"), SC_ETOOBIG
 * ("PATH: larger than N bytes") or SC_ENOMEM, with the message set. */
/* What a file type is, for messages: "a FIFO", "a directory", ... (st_mode). */
const char *sc__file_kind(unsigned mode);
int sc__file_read_all(const char *path, size_t max_bytes, char **out, size_t *outlen);

/* Per-thread scratch (scratch.c): a buffer of at least n bytes for slot,
 * kept by the calling thread and reused by its next call for that slot (the
 * contents are not kept when it grows); NULL when out of memory. For big
 * blocks that live only within one call. Freed when the thread exits, or
 * now by sc__scratch_release (the calling thread's). */
enum { SC__SCRATCH_PNG, SC__SCRATCH_PACK, SC__SCRATCH_SLOTS };
void *sc__scratch(int slot, size_t n);
void sc__scratch_release(void);
/* The thread's pool of big blocks (SC__POOL_MIN bytes or more; smaller
 * ones are plain malloc/free): take a block of at least n bytes (*cap says
 * how many; NULL when out of memory), give it back when done with it. The
 * pool keeps the SC__POOL_BLOCKS largest given back; freed when the thread
 * exits or by sc__scratch_release. */
#define SC__POOL_MIN ((size_t)256 << 10)
#define SC__POOL_BLOCKS 3
void *sc__pool_take(size_t n, size_t *cap);
void sc__pool_give(void *p, size_t cap);

/* Base64 (RFC 4648, standard alphabet, padding accepted and optional;
 * whitespace rejected). Decode writes *out (caller frees with sc__free). */
int sc__base64_decode(uint8_t **out, size_t *outlen, const char *in, size_t inlen);
/* The same into buf, which must hold sc__base64_max(inlen) bytes. */
size_t sc__base64_max(size_t inlen);
int sc__base64_decode_to(uint8_t *buf, size_t *outlen, const char *in, size_t inlen);
/* Encode into a new NUL-terminated string. */
char *sc__base64_encode(const uint8_t *in, size_t inlen);

#endif
