/* Bounded regular expressions (regex.h): a recursive-descent parser whose
 * recursion is bounded by the group-nesting limit, building a tree that
 * knows the size of its program as it grows (so a counted repetition that
 * would expand too far is refused before anything is expanded), a Thompson
 * compiler, and a state-set simulation with an explicit stack. */
#include "core/regex.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"

/* ---- tree ---------------------------------------------------------------- */

enum { N_CHAR, N_ANY, N_CLASS, N_BOL, N_EOL, N_CAT, N_ALT, N_REP };

typedef struct node {
  uint8_t type;
  uint8_t ch;     /* N_CHAR */
  int cls;        /* N_CLASS: index into the class table */
  int min, max;   /* N_REP; max -1 = unbounded */
  int kid, next;  /* first child (N_CAT, N_ALT, N_REP); next sibling; -1 none */
  size_t size;    /* instructions it compiles to, saturated at MAX_PROGRAM + 1 */
} node;

typedef uint8_t byteset[32];

typedef struct parser {
  const char *p;
  size_t len, i;
  node *nv;
  size_t nn, ncap;
  byteset *cls;
  size_t ncls, clscap;
  int rc;          /* 0, SC_EFORMAT, SC_ETOOBIG, SC_ENOMEM */
  char *err;
  size_t errlen;
} parser;

#define TOO_BIG ((size_t)SC__REGEX_MAX_PROGRAM + 1)

static size_t sat_add(size_t a, size_t b) { return a + b > TOO_BIG ? TOO_BIG : a + b; }
static size_t sat_mul(size_t a, size_t k) {
  return k != 0 && a > TOO_BIG / k ? TOO_BIG : sat_add(a * k, 0);
}

static int fail(parser *ps, int rc, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(parser *ps, int rc, size_t at, const char *fmt, ...) {
  if (ps->rc) return -1;
  ps->rc = rc;
  if (ps->err && ps->errlen) {
    char why[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(ps->err, ps->errlen, "%s at offset %zu", why, at);
  }
  return -1;
}

static int new_node(parser *ps, int type, size_t size) {
  if (ps->nn == ps->ncap) {
    size_t cap = ps->ncap ? ps->ncap * 2 : 32;
    node *v = sc__realloc(ps->nv, cap * sizeof *v);
    if (!v) return ps->rc = SC_ENOMEM, -1;
    ps->nv = v;
    ps->ncap = cap;
  }
  ps->nv[ps->nn] = (node){(uint8_t)type, 0, -1, 0, 0, -1, -1, size};
  return (int)ps->nn++;
}

/* The program size check: after the tree grew by node k. */
static int check_size(parser *ps, int k, size_t at) {
  if (ps->nv[k].size < TOO_BIG) return k;
  return fail(ps, SC_ETOOBIG, at,
              "pattern expands to more than %d instructions (counted repetitions multiply)",
              SC__REGEX_MAX_PROGRAM);
}

static int parse_alt(parser *ps, int depth);

/* ---- bracket expressions ------------------------------------------------- */

static void set_bit(byteset s, unsigned c) { s[c >> 3] |= (uint8_t)(1u << (c & 7)); }
static int has_bit(const byteset s, unsigned c) { return (s[c >> 3] >> (c & 7)) & 1; }

/* ASCII definitions, whatever the process locale. */
static int in_class(const char *name, unsigned c) {
  int digit = c >= '0' && c <= '9', upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
  if (!strcmp(name, "digit")) return digit;
  if (!strcmp(name, "upper")) return upper;
  if (!strcmp(name, "lower")) return lower;
  if (!strcmp(name, "alpha")) return upper || lower;
  if (!strcmp(name, "alnum")) return upper || lower || digit;
  if (!strcmp(name, "space")) return c == ' ' || (c >= '\t' && c <= '\r');
  if (!strcmp(name, "punct")) return c > ' ' && c < 0x7f && !upper && !lower && !digit;
  return -1;
}

/* [...] at ps->i (on the '['). */
static int parse_bracket(parser *ps) {
  size_t start = ps->i++;
  const char *p = ps->p;
  byteset set;
  memset(set, 0, sizeof set);
  int negate = ps->i < ps->len && p[ps->i] == '^';
  if (negate) ps->i++;
  for (int first = 1;; first = 0) {
    if (ps->i >= ps->len) return fail(ps, SC_EFORMAT, start, "unmatched [");
    unsigned char c = (unsigned char)p[ps->i];
    if (c == ']' && !first) {
      ps->i++;
      break;
    }
    if (c == '[' && ps->i + 1 < ps->len && (p[ps->i + 1] == '=' || p[ps->i + 1] == '.'))
      return fail(ps, SC_EFORMAT, ps->i, "[%c...%c] is not supported", p[ps->i + 1], p[ps->i + 1]);
    if (c == '[' && ps->i + 1 < ps->len && p[ps->i + 1] == ':') {
      const char *end = NULL;
      for (size_t k = ps->i + 2; k + 1 < ps->len && !end; k++)
        if (p[k] == ':' && p[k + 1] == ']') end = p + k;
      char name[16];
      size_t n = end ? (size_t)(end - (p + ps->i + 2)) : 0;
      if (!end || n >= sizeof name) return fail(ps, SC_EFORMAT, ps->i, "unterminated [:class:]");
      memcpy(name, p + ps->i + 2, n);
      name[n] = '\0';
      if (in_class(name, 'a') < 0)
        return fail(ps, SC_EFORMAT, ps->i, "unknown class [:%s:]", name);
      for (unsigned b = 1; b < 256; b++)
        if (in_class(name, b)) set_bit(set, b);
      ps->i += n + 4;
      continue;
    }
    unsigned lo = c, hi = c;
    size_t at = ps->i++;
    if (ps->i + 1 < ps->len && p[ps->i] == '-' && p[ps->i + 1] != ']') {
      hi = (unsigned char)p[ps->i + 1];
      if (hi == '[' && ps->i + 2 < ps->len && strchr(":=.", p[ps->i + 2]))
        return fail(ps, SC_EFORMAT, at, "a range cannot end in a class");
      if (hi < lo) return fail(ps, SC_EFORMAT, at, "range %c-%c is backwards", (int)lo, (int)hi);
      ps->i += 2;
    }
    for (unsigned b = lo; b <= hi; b++) set_bit(set, b);
  }
  if (negate)
    for (size_t k = 0; k < sizeof set; k++) set[k] = (uint8_t)~set[k];
  set[0] &= (uint8_t)~1u; /* never NUL: texts end there */
  if (ps->ncls == ps->clscap) {
    size_t cap = ps->clscap ? ps->clscap * 2 : 4;
    byteset *v = sc__realloc(ps->cls, cap * sizeof *v);
    if (!v) return ps->rc = SC_ENOMEM, -1;
    ps->cls = v;
    ps->clscap = cap;
  }
  memcpy(ps->cls[ps->ncls], set, sizeof set);
  int k = new_node(ps, N_CLASS, 1);
  if (k >= 0) ps->nv[k].cls = (int)ps->ncls++;
  return k;
}

/* ---- atoms, repetition, concatenation, alternation ----------------------- */

static int parse_atom(parser *ps, int depth) {
  const char *p = ps->p;
  size_t at = ps->i;
  unsigned char c = (unsigned char)p[at];
  switch (c) {
  case '(': {
    if (depth >= SC__REGEX_MAX_DEPTH)
      return fail(ps, SC_ETOOBIG, at, "groups nested deeper than %d", SC__REGEX_MAX_DEPTH);
    ps->i++;
    int k = parse_alt(ps, depth + 1);
    if (k < 0) return -1;
    if (ps->i >= ps->len || p[ps->i] != ')') return fail(ps, SC_EFORMAT, at, "unmatched (");
    ps->i++;
    return k;
  }
  case '*': case '+': case '?': case '{':
    return fail(ps, SC_EFORMAT, at, "'%c' has nothing to repeat", c);
  case '[':
    return parse_bracket(ps);
  case '.':
    ps->i++;
    return new_node(ps, N_ANY, 1);
  case '^':
  case '$':
    ps->i++;
    return new_node(ps, c == '^' ? N_BOL : N_EOL, 1);
  case '\\':
    if (at + 1 >= ps->len) return fail(ps, SC_EFORMAT, at, "trailing backslash");
    c = (unsigned char)p[at + 1];
    /* \w, \b, \1 ... are GNU extensions or backreferences: refused, not
     * silently taken as the letter */
    if (!(c > ' ' && c < 0x7f) || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
        (c >= 'A' && c <= 'Z'))
      return fail(ps, SC_EFORMAT, at, "unsupported escape \\%c", c >= ' ' && c < 0x7f ? c : '?');
    ps->i += 2;
    break;
  default:
    ps->i++;
    break;
  }
  int k = new_node(ps, N_CHAR, 1);
  if (k >= 0) ps->nv[k].ch = c;
  return k;
}

/* "{m}", "{m,}" or "{m,n}" at ps->i. */
static int parse_count(parser *ps, int *min, int *max) {
  const char *p = ps->p;
  size_t start = ps->i++;
  int v[2] = {-1, -1}, nv = 0;
  for (;;) {
    if (ps->i < ps->len && p[ps->i] >= '0' && p[ps->i] <= '9') {
      size_t at = ps->i;
      long x = 0;
      while (ps->i < ps->len && p[ps->i] >= '0' && p[ps->i] <= '9') {
        if (x <= SC__REGEX_MAX_COUNT) x = x * 10 + (p[ps->i] - '0');
        ps->i++;
      }
      if (x > SC__REGEX_MAX_COUNT)
        return fail(ps, SC_ETOOBIG, at, "count over %d", SC__REGEX_MAX_COUNT);
      v[nv] = (int)x;
    } else if (nv == 0) {
      return fail(ps, SC_EFORMAT, start, "'{' must start a count like {2} or {1,3} (\\{ is a brace)");
    }
    if (ps->i < ps->len && p[ps->i] == ',' && nv == 0) {
      ps->i++;
      nv = 1;
      continue;
    }
    if (ps->i >= ps->len || p[ps->i] != '}') return fail(ps, SC_EFORMAT, start, "unterminated count");
    ps->i++;
    break;
  }
  *min = v[0];
  *max = nv == 0 ? v[0] : v[1]; /* {m,} leaves -1: unbounded */
  if (*max >= 0 && *max < *min)
    return fail(ps, SC_EFORMAT, start, "count {%d,%d} has its maximum below its minimum", *min, *max);
  return 0;
}

static size_t rep_size(size_t s, int min, int max) {
  if (max < 0) return min == 0 ? sat_add(s, 2) : sat_add(sat_mul(s, (size_t)min), 1);
  return sat_add(sat_mul(s, (size_t)min), sat_mul(s + 1, (size_t)(max - min)));
}

static int parse_repeat(parser *ps, int depth) {
  int k = parse_atom(ps, depth);
  while (k >= 0 && ps->i < ps->len && strchr("*+?{", ps->p[ps->i])) {
    size_t at = ps->i;
    int type = ps->nv[k].type, min = 0, max = 0;
    if (type == N_BOL || type == N_EOL)
      return fail(ps, SC_EFORMAT, at, "'%c' has nothing to repeat", ps->p[at]);
    switch (ps->p[ps->i]) {
    case '*': min = 0, max = -1, ps->i++; break;
    case '+': min = 1, max = -1, ps->i++; break;
    case '?': min = 0, max = 1, ps->i++; break;
    default:
      if (parse_count(ps, &min, &max) < 0) return -1;
    }
    int r = new_node(ps, N_REP, rep_size(ps->nv[k].size, min, max));
    if (r < 0) return -1;
    ps->nv[r].min = min;
    ps->nv[r].max = max;
    ps->nv[r].kid = k;
    k = check_size(ps, r, at);
  }
  return k;
}

/* A list node: N_ALT of N_CAT branches separated by '|', or N_CAT of
 * repeated atoms up to '|' or ')'. Each alternative after the first costs a
 * split and a jump besides its own size. */
static int parse_list(parser *ps, int depth, int type) {
  int list = new_node(ps, type, 0), last = -1;
  if (list < 0) return -1;
  for (;;) {
    size_t at = ps->i;
    int k;
    if (type == N_ALT) {
      k = parse_list(ps, depth, N_CAT);
    } else {
      if (ps->i >= ps->len || ps->p[ps->i] == '|' || ps->p[ps->i] == ')') break;
      k = parse_repeat(ps, depth);
    }
    if (k < 0) return -1;
    node *l = &ps->nv[list];
    l->size = sat_add(l->size, sat_add(ps->nv[k].size, type == N_ALT && last >= 0 ? 2 : 0));
    if (last < 0) l->kid = k;
    else ps->nv[last].next = k;
    last = k;
    if (check_size(ps, list, at) < 0) return -1;
    if (type == N_ALT) {
      if (ps->i >= ps->len || ps->p[ps->i] != '|') break;
      ps->i++;
    }
  }
  return list;
}

static int parse_alt(parser *ps, int depth) { return parse_list(ps, depth, N_ALT); }

/* ---- program ------------------------------------------------------------- */

enum { I_CHAR, I_ANY, I_CLASS, I_BOL, I_EOL, I_SPLIT, I_JMP, I_MATCH };

typedef struct inst {
  uint8_t op;
  uint8_t ch;
  uint16_t cls;
  int x, y; /* I_JMP: x; I_SPLIT: x then y */
} inst;

struct sc__regex {
  inst *prog;
  size_t n;
  byteset *cls;
};

typedef struct emitter {
  const parser *ps;
  inst *prog;
  size_t pc;
} emitter;

static size_t put(emitter *em, int op, int x, int y) {
  em->prog[em->pc] = (inst){(uint8_t)op, 0, 0, x, y};
  return em->pc++;
}

/* Recursion depth is bounded by the tree's, which the pattern length bounds. */
static void emit(emitter *em, int k) {
  const node *n = &em->ps->nv[k];
  switch (n->type) {
  case N_CHAR:
    em->prog[put(em, I_CHAR, 0, 0)].ch = n->ch;
    break;
  case N_ANY: put(em, I_ANY, 0, 0); break;
  case N_BOL: put(em, I_BOL, 0, 0); break;
  case N_EOL: put(em, I_EOL, 0, 0); break;
  case N_CLASS:
    em->prog[put(em, I_CLASS, 0, 0)].cls = (uint16_t)n->cls;
    break;
  case N_CAT:
    for (int c = n->kid; c >= 0; c = em->ps->nv[c].next) emit(em, c);
    break;
  case N_ALT: {
    /* split L1, L2; L1: a; jmp end; L2: split ...; last: z; end:
     * the jumps are chained through their targets until end is known */
    int chain = -1;
    for (int c = n->kid; c >= 0; c = em->ps->nv[c].next) {
      if (em->ps->nv[c].next < 0) {
        emit(em, c);
        break;
      }
      size_t split = put(em, I_SPLIT, (int)em->pc + 1, 0);
      emit(em, c);
      chain = (int)put(em, I_JMP, chain, 0);
      em->prog[split].y = (int)em->pc;
    }
    while (chain >= 0) {
      int prev = em->prog[chain].x;
      em->prog[chain].x = (int)em->pc;
      chain = prev;
    }
    break;
  }
  case N_REP:
    if (n->max < 0 && n->min == 0) { /* L: split body, end; body; jmp L; end: */
      size_t l = put(em, I_SPLIT, (int)em->pc + 1, 0);
      emit(em, n->kid);
      put(em, I_JMP, (int)l, 0);
      em->prog[l].y = (int)em->pc;
    } else if (n->max < 0) { /* m-1 copies, then L: body; split L, end */
      for (int j = 0; j + 1 < n->min; j++) emit(em, n->kid);
      size_t l = em->pc;
      emit(em, n->kid);
      put(em, I_SPLIT, (int)l, (int)em->pc + 1);
    } else { /* m copies, then max-m optional ones: split body, end; body */
      for (int j = 0; j < n->min; j++) emit(em, n->kid);
      for (int j = n->min; j < n->max; j++) {
        size_t s = put(em, I_SPLIT, (int)em->pc + 1, 0);
        emit(em, n->kid);
        em->prog[s].y = (int)em->pc;
      }
    }
    break;
  }
}

int sc__regex_compile(sc__regex **out, const char *pat, char *err, size_t errlen) {
  *out = NULL;
  if (err && errlen) err[0] = '\0';
  parser ps = {pat, strlen(pat), 0, NULL, 0, 0, NULL, 0, 0, 0, err, errlen};
  int root = -1;
  if (ps.len > SC__REGEX_MAX_PATTERN) {
    fail(&ps, SC_ETOOBIG, SC__REGEX_MAX_PATTERN, "pattern longer than %d bytes",
         SC__REGEX_MAX_PATTERN);
  } else if (sc__escape_ctl_len(pat) != ps.len) {
    /* OCR never reads one, and a message quoting the pattern stays one line */
    size_t at = 0;
    while ((unsigned char)pat[at] >= 0x20 && pat[at] != 0x7f) at++;
    fail(&ps, SC_EFORMAT, at, "control character 0x%02x", (unsigned char)pat[at]);
  } else {
    root = parse_alt(&ps, 0);
    if (root >= 0 && ps.i < ps.len) root = fail(&ps, SC_EFORMAT, ps.i, "unmatched )");
  }
  sc__regex *re = NULL;
  if (root >= 0) {
    re = sc__calloc(1, sizeof *re);
    size_t n = ps.nv[root].size + 1;
    if (re && (re->prog = sc__malloc(n * sizeof *re->prog))) {
      emitter em = {&ps, re->prog, 0};
      emit(&em, root);
      put(&em, I_MATCH, 0, 0);
      re->n = em.pc;
      re->cls = ps.cls;
      ps.cls = NULL;
    } else {
      sc__free(re);
      re = NULL;
      ps.rc = SC_ENOMEM;
    }
  }
  if (ps.rc == SC_ENOMEM && err && errlen) snprintf(err, errlen, "out of memory");
  sc__free(ps.nv);
  sc__free(ps.cls);
  if (!re) return ps.rc ? ps.rc : SC_ENOMEM;
  *out = re;
  return 0;
}

void sc__regex_free(sc__regex *re) {
  if (!re) return;
  sc__free(re->prog);
  sc__free(re->cls);
  sc__free(re);
}

size_t sc__regex_size(const sc__regex *re) { return re ? re->n : 0; }

/* ---- simulation ---------------------------------------------------------- */

typedef struct vm {
  const sc__regex *re;
  size_t *mark;  /* mark[pc] == gen: pc is already in the list being built */
  int *stack;    /* at most 2 pushes per marked pc, plus the first */
  size_t gen, pos, len;
  unsigned long steps;
} vm;

/* Add pc and everything reachable from it without reading a byte to list;
 * 1 when that reaches the match. */
static int add(vm *m, int *list, size_t *cnt, int pc) {
  size_t sp = 0;
  m->stack[sp++] = pc;
  while (sp > 0) {
    pc = m->stack[--sp];
    if (m->mark[pc] == m->gen) continue;
    m->mark[pc] = m->gen;
    m->steps++;
    const inst *in = &m->re->prog[pc];
    switch (in->op) {
    case I_MATCH: return 1;
    case I_JMP: m->stack[sp++] = in->x; break;
    case I_SPLIT:
      m->stack[sp++] = in->y;
      m->stack[sp++] = in->x;
      break;
    case I_BOL:
      if (m->pos == 0) m->stack[sp++] = pc + 1;
      break;
    case I_EOL:
      if (m->pos == m->len) m->stack[sp++] = pc + 1;
      break;
    default: list[(*cnt)++] = pc;
    }
  }
  return 0;
}

static int reads(const sc__regex *re, const inst *in, unsigned char c) {
  switch (in->op) {
  case I_CHAR: return in->ch == c;
  case I_ANY: return 1;
  case I_CLASS: return has_bit(re->cls[in->cls], c);
  }
  return 0;
}

int sc__regex_match_steps(const sc__regex *re, const char *text, unsigned long *steps) {
  size_t n = re->n;
  void *mem = sc__calloc(n, 3 * sizeof(int) + sizeof(size_t) + 2 * sizeof(int));
  if (!mem) return SC_ENOMEM;
  vm m = {re, mem, NULL, 1, 0, strlen(text), 0};
  int *cur = (int *)(m.mark + n), *nxt = cur + n;
  m.stack = nxt + n;
  size_t ncur = 0, nnxt;
  int found = 0;
  for (m.pos = 0; !found; m.pos++) {
    /* search: a new start at every position, deduplicated with the rest */
    if ((found = add(&m, cur, &ncur, 0)) || m.pos == m.len) break;
    unsigned char c = (unsigned char)text[m.pos];
    m.gen++;
    nnxt = 0;
    for (size_t t = 0; t < ncur && !found; t++) {
      m.steps++;
      const inst *in = &re->prog[cur[t]];
      if (reads(re, in, c)) {
        m.pos++; /* the closure is taken at the next position */
        found = add(&m, nxt, &nnxt, cur[t] + 1);
        m.pos--;
      }
    }
    int *t = cur;
    cur = nxt;
    nxt = t;
    ncur = nnxt;
  }
  sc__free(mem);
  if (steps) *steps += m.steps;
  return found;
}

int sc__regex_match(const sc__regex *re, const char *text) {
  return sc__regex_match_steps(re, text, NULL);
}
