/* Position index: a scanner over the same JSON text jansson parses, recording
 * for every key and value its JSON pointer and line:column. */
#include "core/jsonpos.h"

#include <stdio.h>
#include <string.h>

#include "core/core.h"

typedef struct entry {
  size_t off, len; /* path in pool */
  sc__jpos key, val;
} entry;

struct sc__jsonpos {
  char *pool;
  size_t plen, pcap;
  entry *v;
  size_t n, cap;
  sc__strmap map; /* path -> first entry with it: lookups in O(1) */
  long dup, first; /* the first entry repeating an earlier path, and that one; -1 */
};

/* jansson's own nesting limit; deeper text is not JSON it would accept. */
#define MAX_DEPTH 2048

typedef struct scan {
  const unsigned char *p, *end;
  int line, col;
  char *path; /* current pointer, NUL-terminated */
  size_t plen, pcap;
  sc__jsonpos *ix;
  int depth;
  int err; /* SC_EFORMAT or SC_ENOMEM */
} scan;

static size_t escaped_len(const char *key, size_t keylen) {
  size_t n = 1;
  for (size_t i = 0; i < keylen; i++) n += (key[i] == '~' || key[i] == '/') ? 2 : 1;
  return n;
}

int sc__jsonpath_push_key(char *buf, size_t cap, size_t *len, const char *key, size_t keylen) {
  size_t need = escaped_len(key, keylen);
  if (*len + need + 1 > cap) return -1;
  char *w = buf + *len;
  *w++ = '/';
  for (size_t i = 0; i < keylen; i++) {
    if (key[i] == '~') {
      *w++ = '~';
      *w++ = '0';
    } else if (key[i] == '/') {
      *w++ = '~';
      *w++ = '1';
    } else {
      *w++ = key[i];
    }
  }
  *w = '\0';
  *len += need;
  return 0;
}

int sc__jsonpath_push_index(char *buf, size_t cap, size_t *len, size_t index) {
  char tmp[32];
  int n = snprintf(tmp, sizeof tmp, "/%zu", index);
  if (n < 0 || *len + (size_t)n + 1 > cap) return -1;
  memcpy(buf + *len, tmp, (size_t)n + 1);
  *len += (size_t)n;
  return 0;
}

static int reserve_path(scan *s, size_t extra) {
  if (s->plen + extra + 1 <= s->pcap) return 0;
  size_t cap = s->pcap ? s->pcap : 64;
  while (cap < s->plen + extra + 1) cap *= 2;
  char *p = sc__realloc(s->path, cap);
  if (!p) return s->err = SC_ENOMEM;
  s->path = p;
  s->pcap = cap;
  return 0;
}

static sc__jpos here(const scan *s) { return (sc__jpos){s->line, s->col}; }

static void advance(scan *s) {
  unsigned char b = *s->p++;
  if (b == '\n') {
    s->line++;
    s->col = 1;
  } else if ((b & 0xC0) != 0x80) {
    s->col++; /* continuation bytes belong to the character already counted */
  }
}

static void skip_ws(scan *s) {
  while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
    advance(s);
}

/* New entry for the current path; returns its index or -1. */
static long add_entry(scan *s, sc__jpos key) {
  sc__jsonpos *ix = s->ix;
  if (ix->n == ix->cap) {
    size_t cap = ix->cap ? ix->cap * 2 : 64;
    entry *v = sc__realloc(ix->v, cap * sizeof *v);
    if (!v) return s->err = SC_ENOMEM, -1;
    ix->v = v;
    ix->cap = cap;
  }
  if (ix->plen + s->plen + 1 > ix->pcap) {
    size_t cap = ix->pcap ? ix->pcap : 1024;
    while (cap < ix->plen + s->plen + 1) cap *= 2;
    char *p = sc__realloc(ix->pool, cap);
    if (!p) return s->err = SC_ENOMEM, -1;
    ix->pool = p;
    ix->pcap = cap;
  }
  memcpy(ix->pool + ix->plen, s->path, s->plen + 1);
  ix->v[ix->n] = (entry){ix->plen, s->plen, key, key};
  ix->plen += s->plen + 1;
  return (long)ix->n++;
}

static int hexval(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static long read_u4(scan *s) {
  long v = 0;
  for (int i = 0; i < 4; i++) {
    if (s->p >= s->end || hexval(*s->p) < 0) return -1;
    v = v * 16 + hexval(*s->p);
    advance(s);
  }
  return v;
}

static size_t put_utf8(char *w, unsigned long cp) {
  if (cp < 0x80) {
    w[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    w[0] = (char)(0xC0 | (cp >> 6));
    w[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    w[0] = (char)(0xE0 | (cp >> 12));
    w[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    w[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  w[0] = (char)(0xF0 | (cp >> 18));
  w[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  w[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  w[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* Scan a string at s->p (on the quote). With out, decode it into a new
 * buffer (*out, *outlen); the decoded text is never longer than the source. */
static int scan_string(scan *s, char **out, size_t *outlen) {
  const unsigned char *start = s->p;
  advance(s); /* opening quote */
  const unsigned char *q = s->p;
  while (q < s->end && *q != '"') q += (*q == '\\' && q + 1 < s->end) ? 2 : 1;
  char *buf = NULL, *w = NULL;
  if (out) {
    buf = sc__malloc((size_t)(q - start) + 1);
    if (!buf) return s->err = SC_ENOMEM;
    w = buf;
  }
  while (s->p < s->end && *s->p != '"') {
    unsigned char c = *s->p;
    if (c < 0x20) break;
    if (c != '\\') {
      if (w) *w++ = (char)c;
      advance(s);
      continue;
    }
    advance(s);
    if (s->p >= s->end) break;
    c = *s->p;
    advance(s);
    char lit = 0;
    switch (c) {
    case '"': case '\\': case '/': lit = (char)c; break;
    case 'b': lit = '\b'; break;
    case 'f': lit = '\f'; break;
    case 'n': lit = '\n'; break;
    case 'r': lit = '\r'; break;
    case 't': lit = '\t'; break;
    case 'u': {
      long cp = read_u4(s);
      if (cp < 0) goto bad;
      if (cp >= 0xD800 && cp < 0xDC00 && s->end - s->p >= 6 && s->p[0] == '\\' && s->p[1] == 'u') {
        advance(s);
        advance(s);
        long lo = read_u4(s);
        if (lo < 0xDC00 || lo > 0xDFFF) goto bad;
        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
      }
      if (w) w += put_utf8(w, (unsigned long)cp);
      continue;
    }
    default:
      goto bad;
    }
    if (w) *w++ = lit;
  }
  if (s->p >= s->end || *s->p != '"') goto bad;
  advance(s);
  if (out) {
    *w = '\0';
    *out = buf;
    *outlen = (size_t)(w - buf);
  }
  return 0;
bad:
  sc__free(buf);
  return s->err = SC_EFORMAT;
}

static int scan_value(scan *s, long ent);

static int scan_object(scan *s) {
  advance(s); /* { */
  skip_ws(s);
  if (s->p < s->end && *s->p == '}') {
    advance(s);
    return 0;
  }
  for (;;) {
    skip_ws(s);
    if (s->p >= s->end || *s->p != '"') return s->err = SC_EFORMAT;
    sc__jpos kpos = here(s);
    char *key;
    size_t klen;
    if (scan_string(s, &key, &klen)) return s->err;
    size_t saved = s->plen;
    int rc = reserve_path(s, escaped_len(key, klen));
    if (!rc) sc__jsonpath_push_key(s->path, s->pcap, &s->plen, key, klen);
    sc__free(key);
    if (rc) return rc;
    long e = add_entry(s, kpos);
    if (e < 0) return s->err;
    skip_ws(s);
    if (s->p >= s->end || *s->p != ':') return s->err = SC_EFORMAT;
    advance(s);
    skip_ws(s);
    if (scan_value(s, e)) return s->err;
    s->plen = saved;
    s->path[saved] = '\0';
    skip_ws(s);
    if (s->p < s->end && *s->p == ',') {
      advance(s);
      continue;
    }
    if (s->p < s->end && *s->p == '}') {
      advance(s);
      return 0;
    }
    return s->err = SC_EFORMAT;
  }
}

static int scan_array(scan *s) {
  advance(s); /* [ */
  skip_ws(s);
  if (s->p < s->end && *s->p == ']') {
    advance(s);
    return 0;
  }
  for (size_t i = 0;; i++) {
    skip_ws(s);
    size_t saved = s->plen;
    if (reserve_path(s, 24)) return s->err;
    sc__jsonpath_push_index(s->path, s->pcap, &s->plen, i);
    long e = add_entry(s, here(s));
    if (e < 0) return s->err;
    if (scan_value(s, e)) return s->err;
    s->plen = saved;
    s->path[saved] = '\0';
    skip_ws(s);
    if (s->p < s->end && *s->p == ',') {
      advance(s);
      continue;
    }
    if (s->p < s->end && *s->p == ']') {
      advance(s);
      return 0;
    }
    return s->err = SC_EFORMAT;
  }
}

/* Scan the value at s->p; its start goes into entry ent. */
static int scan_value(scan *s, long ent) {
  if (s->p >= s->end) return s->err = SC_EFORMAT;
  s->ix->v[ent].val = here(s);
  if (*s->p == '{' || *s->p == '[') {
    if (++s->depth > MAX_DEPTH) return s->err = SC_EFORMAT;
    int rc = *s->p == '{' ? scan_object(s) : scan_array(s);
    s->depth--;
    return rc;
  }
  if (*s->p == '"') return scan_string(s, NULL, NULL);
  /* number, true, false, null: jansson has checked the spelling */
  const unsigned char *start = s->p;
  while (s->p < s->end && ((*s->p && strchr("+-.eE", *s->p)) || (*s->p >= '0' && *s->p <= '9') ||
                           (*s->p >= 'a' && *s->p <= 'z')))
    advance(s);
  return s->p == start ? (s->err = SC_EFORMAT) : 0;
}

int sc__jsonpos_build(sc__jsonpos **out, const char *text, size_t len) {
  *out = NULL;
  sc__jsonpos *ix = sc__calloc(1, sizeof *ix);
  if (!ix) return SC_ENOMEM;
  scan s = {(const unsigned char *)text, (const unsigned char *)text + len, 1, 1, NULL, 0, 0, ix, 0, 0};
  if (reserve_path(&s, 0) == 0) {
    s.path[0] = '\0';
    skip_ws(&s);
    long e = add_entry(&s, here(&s));
    if (e >= 0 && scan_value(&s, e) == 0) {
      skip_ws(&s);
      if (s.p != s.end) s.err = SC_EFORMAT;
    }
  }
  sc__free(s.path);
  /* index the paths once the pool no longer moves; in text order, so the
   * first path found already there is the first repeated key */
  ix->dup = ix->first = -1;
  if (s.err != SC_ENOMEM && sc__strmap_init(&ix->map, ix->n) != 0) s.err = SC_ENOMEM;
  for (size_t i = 0; s.err != SC_ENOMEM && i < ix->n; i++) {
    size_t old;
    if (sc__strmap_put(&ix->map, ix->pool + ix->v[i].off, ix->v[i].len, i, &old) == 0 &&
        ix->dup < 0) {
      ix->dup = (long)i;
      ix->first = (long)old;
    }
  }
  if (s.err == SC_ENOMEM) {
    sc__jsonpos_free(ix);
    return SC_ENOMEM;
  }
  *out = ix;
  return s.err;
}

void sc__jsonpos_free(sc__jsonpos *ix) {
  if (!ix) return;
  sc__strmap_free(&ix->map);
  sc__free(ix->pool);
  sc__free(ix->v);
  sc__free(ix);
}

static const entry *find(const sc__jsonpos *ix, const char *path, size_t len) {
  size_t i;
  return ix && sc__strmap_get(&ix->map, path, len, &i) ? &ix->v[i] : NULL;
}

/* The entry for path or for its nearest indexed ancestor. */
static const entry *find_up(const sc__jsonpos *ix, const char *path) {
  size_t len = strlen(path);
  for (;;) {
    const entry *e = find(ix, path, len);
    if (e || len == 0) return e;
    while (len > 0 && path[len - 1] != '/') len--;
    if (len > 0) len--;
  }
}

sc__jpos sc__jsonpos_value(const sc__jsonpos *ix, const char *path) {
  const entry *e = find_up(ix, path);
  return e ? e->val : (sc__jpos){1, 1};
}

sc__jpos sc__jsonpos_key(const sc__jsonpos *ix, const char *path) {
  const entry *e = find_up(ix, path);
  return e ? e->key : (sc__jpos){1, 1};
}

int sc__jsonpos_duplicate(const sc__jsonpos *ix, const char **path, sc__jpos *at,
                          sc__jpos *first) {
  if (!ix || ix->dup < 0) return 0;
  const entry *e = &ix->v[ix->dup];
  *path = ix->pool + e->off;
  *at = e->key;
  *first = ix->v[ix->first].key;
  return 1;
}

unsigned long sc__jsonpos_probes(const sc__jsonpos *ix) { return ix ? ix->map.probes : 0; }
