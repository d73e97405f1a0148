/* What every fuzz target defines. Built two ways (tests/fuzz/CMakeLists.txt):
 * with clang's -fsanitize=fuzzer as a libFuzzer binary (scripts/fuzz.sh), and
 * with any compiler against replay_main.c, which runs a corpus directory
 * through the target as an ordinary unit test. A target signals a broken
 * invariant with abort(), so both builds report it. */
#ifndef SC_FUZZ_H
#define SC_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A broken invariant: say which and abort (libFuzzer saves the input). */
#define FUZZ_CHECK(cond)                                                        \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, \
              #cond);                                                           \
      abort();                                                                  \
    }                                                                           \
  } while (0)

#endif
