/* A small regular-expression engine with bounded cost, for scenario
 * "match" patterns (docs/scenario.md, "Text patterns"). A restricted POSIX
 * extended syntax: literals, '.', bracket expressions with ranges and the
 * classes [:digit:] [:alpha:] [:space:] [:upper:] [:lower:] [:alnum:]
 * [:punct:], escapes of punctuation (\. \\ \( ...), groups, '|', '*' '+'
 * '?', counts {m} {m,} {m,n}, anchors '^' '$'. No backreferences, no GNU
 * escapes (\w \b \1 ...). Bytes, C locale, case-sensitive.
 *
 * Compiled to a Thompson NFA and run as a state-set (Pike) simulation:
 * matching costs O(len(text) x program size) time and O(program size)
 * memory whatever the pattern; compiling is bounded by the caps below.
 * Not installed. */
#ifndef SC_CORE_REGEX_H
#define SC_CORE_REGEX_H

#include <stddef.h>

/* Limits, documented in docs/scenario.md. */
#define SC__REGEX_MAX_PATTERN 256 /* bytes of pattern */
#define SC__REGEX_MAX_COUNT 100   /* m and n of {m,n} */
#define SC__REGEX_MAX_DEPTH 32    /* nested groups */
#define SC__REGEX_MAX_PROGRAM 4096 /* compiled instructions, counts expanded */

typedef struct sc__regex sc__regex;

/* Compile pat into *out (free with sc__regex_free). Returns 0;
 * SC_EFORMAT (bad syntax) or SC_ETOOBIG (over a limit) with a one-line
 * reason in err, "<reason> at offset N" (N counts bytes from 0); SC_ENOMEM.
 * err (errlen bytes) may be NULL. Sets no thread message. */
int sc__regex_compile(sc__regex **out, const char *pat, char *err, size_t errlen);

/* Whether re matches anywhere in text (search, like regexec with
 * REG_NOSUB: anchored only by ^ and $). 1 match, 0 no match, SC_ENOMEM. */
int sc__regex_match(const sc__regex *re, const char *text);

/* The same, adding the number of instructions the simulation visited to
 * *steps: at most (strlen(text) + 1) x 2 x sc__regex_size(re). For tests. */
int sc__regex_match_steps(const sc__regex *re, const char *text, unsigned long *steps);

/* Number of instructions in the compiled program. */
size_t sc__regex_size(const sc__regex *re);

void sc__regex_free(sc__regex *re);

#endif
