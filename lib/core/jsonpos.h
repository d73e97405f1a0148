/* Position index for JSON text: where every object key and every value
 * starts (line:column), by JSON path. jansson keeps no positions for values,
 * so semantic errors look them up here. Used by lib/scenario and lib/text (scale-bar profiles). */
#ifndef SC_CORE_JSONPOS_H
#define SC_CORE_JSONPOS_H

#include <stddef.h>

/* 1-based line and column; columns count UTF-8 characters, as jansson does. */
typedef struct sc__jpos {
  int line, col;
} sc__jpos;

typedef struct sc__jsonpos sc__jsonpos;

/* Index text. Paths are RFC 6901 JSON pointers: "" is the root,
 * "/cycle/3/expect/1/rgb" a member; '~' and '/' in keys are written "~0", "~1".
 * Returns 0; SC_EFORMAT when the text is not JSON (*out then indexes what came
 * before the error); SC_ENOMEM (*out NULL). */
int sc__jsonpos_build(sc__jsonpos **out, const char *text, size_t len);
void sc__jsonpos_free(sc__jsonpos *ix);

/* Where the value at path starts; for a path that is not indexed, where its
 * nearest indexed ancestor starts (1:1 at worst). */
sc__jpos sc__jsonpos_value(const sc__jsonpos *ix, const char *path);
/* Where the key of the member at path starts (its opening quote); for an
 * array element or the root, where the value starts. */
sc__jpos sc__jsonpos_key(const sc__jsonpos *ix, const char *path);

/* The first key (in text order) that repeats a key of the same object:
 * returns 1 and sets *path (borrowed from ix), *at (the repeat) and *first
 * (the earlier key); 0 when there is none. */
int sc__jsonpos_duplicate(const sc__jsonpos *ix, const char **path, sc__jpos *at,
                          sc__jpos *first);

/* Hash-table slots visited so far by building and lookups (for tests:
 * checking must do work linear in the number of keys). */
unsigned long sc__jsonpos_probes(const sc__jsonpos *ix);

/* Append "/" + key (escaped) to the path in buf[*len] (buf holds cap bytes).
 * Returns 0, or -1 when it does not fit (buf unchanged). */
int sc__jsonpath_push_key(char *buf, size_t cap, size_t *len, const char *key, size_t keylen);
/* Append "/" + index. Returns 0 or -1 as above. */
int sc__jsonpath_push_index(char *buf, size_t cap, size_t *len, size_t index);

#endif
