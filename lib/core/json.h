/* JSON text in the library's allocator (json.c). */
#ifndef SC_CORE_JSON_H
#define SC_CORE_JSON_H

#include <jansson.h>
#include <stddef.h>

/* j serialised with jansson's flags into a new NUL-terminated string of
 * ours (sc__free); NULL when j is NULL or memory ran out. */
char *sc__json_dump(const json_t *j, size_t flags);

#endif
