/* stepcheck CLI: argument parsing and dispatch only; the work is in the library. */
#include <stdio.h>
#include <string.h>

#include "stepcheck.h"

static void usage(FILE *f) {
  fprintf(f, "usage: stepcheck [--version] [--help] <command> [args]\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("stepcheck %s\n", sc_version());
    return 0;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    usage(stdout);
    return 0;
  }
  fprintf(stderr, "stepcheck: unknown command '%s'\n", argv[1]);
  return 2;
}
