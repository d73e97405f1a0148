/* stepcheck CLI: argument parsing and dispatch only; the work is in the library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char k_usage[] =
    "usage: stepcheck <command> [options]\n"
    "\n"
    "commands:\n"
    "  run SCENARIO [--url URL] [--cycles N] [--report DIR] [--report-json F]\n"
    "               [--junit F] [--jtl F] [--browser ENDPOINT] [--quiet]\n"
    "                       run a scenario's steps and judge each on the pixels\n"
    "      many users from this process:\n"
    "               --users N [--ramp K --every SECONDS] [--cycles C | --duration SECONDS]\n"
    "               [--warmup C] [--browser ENDPOINT]... [--users-per-browser M]\n"
    "               [--grid http://HOST:PORT] [--allow-remote]\n"
    "  validate SCENARIO    check a scenario file without a browser\n"
    "  capture --url URL [--viewport WxH] [--guest WxH] [--region x,y,w,h]\n"
    "          [--scale PERCENT] [--timeout MS] -o OUT.png\n"
    "                       screenshot (a region of) the page's canvas\n"
    "  inspect SCENARIO [--url URL] -o OUT.png\n"
    "                       draw the scenario's points and regions on its page\n"
    "  cut (SCENARIO | --url URL) [--keep RRGGBB[,TOL]] -o DIR NAME=x,y,w,h[:RRGGBB[,TOL]]...\n"
    "                       cut templates from one settled capture, check each, print\n"
    "                       the locator JSON\n"
    "  glyphs learn --text TEXT IMAGE --region x,y,w,h [--ink RRGGBB] -o SET\n"
    "                       learn glyphs from a labelled crop into a glyph set\n"
    "  ocr IMAGE --glyphs SET [--region x,y,w,h]\n"
    "                       read text with a glyph set\n"
    "  read-scale IMAGE [--region x,y,w,h] [--profile NAME|FILE]\n"
    "                       read a scale bar: text, bar length, metres per pixel\n"
    "  scale learn --layout NAME|FILE -o OUT.json IMAGE=LABEL[@M_PER_PX]...\n"
    "                       a scale-bar profile for an app drawn like a known layout\n"
    "  --version, --help, COMMAND --help\n"
    "\n"
    "exit codes: 0 ok, 1 a step failed or a locator found nothing, 2 usage or\n"
    "configuration error, 3 browser or infrastructure error\n";

int main(int argc, char **argv) {
  /* SC_DEBUG=1: libwebsockets' warnings; SC_DEBUG=cdp: every CDP message too;
   * SC_DEBUG=log-trust: the paint log trusted where it is blind;
   * SC_DEBUG=no-witness: no compositor witness (both for sabotage tests
   * only; with other words: also the rest). */
  const char *dbg = getenv("SC_DEBUG");
  if (dbg && *dbg) {
    /* only sabotage words ("log-trust,no-witness"): no lws warnings */
    size_t n = strspn(dbg, " ,");
    int only = 1;
    while (dbg[n] && only) {
      size_t w = strcspn(dbg + n, " ,");
      only = (w == 9 && !strncmp(dbg + n, "log-trust", 9)) ||
             (w == 10 && !strncmp(dbg + n, "no-witness", 10));
      n += w;
      n += strspn(dbg + n, " ,");
    }
    sc_set_debug((only ? 0 : SC_DEBUG_LWS) | (strstr(dbg, "cdp") ? SC_DEBUG_CDP : 0) |
                 (strstr(dbg, "log-trust") ? SC_DEBUG_LOG_TRUST : 0) |
                 (strstr(dbg, "no-witness") ? SC_DEBUG_NO_WITNESS : 0));
  }
  if (argc < 2) {
    fputs(k_usage, stderr);
    return EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
    printf("stepcheck %s\n", sc_version());
    return EXIT_OK;
  }
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    if (argc > 2) return cli_help(argv[2]);
    fputs(k_usage, stdout);
    return EXIT_OK;
  }
  static const char *const known[] = {"run", "validate", "capture", "inspect", "cut", "glyphs",
                                      "ocr", "read-scale", "scale"};
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (!strcmp(cmd, known[i]) && cli_wants_help(argc - 1, argv + 1)) return cli_help(cmd);
  if (!strcmp(cmd, "run")) return cmd_run(argc - 1, argv + 1);
  if (!strcmp(cmd, "validate")) return cmd_validate(argc - 1, argv + 1);
  if (!strcmp(cmd, "capture")) return cmd_capture(argc - 1, argv + 1);
  if (!strcmp(cmd, "inspect")) return cmd_inspect(argc - 1, argv + 1);
  if (!strcmp(cmd, "cut")) return cmd_cut(argc - 1, argv + 1);
  if (!strcmp(cmd, "glyphs")) return cmd_glyphs(argc - 1, argv + 1);
  if (!strcmp(cmd, "ocr")) return cmd_ocr(argc - 1, argv + 1);
  if (!strcmp(cmd, "read-scale")) return cmd_read_scale(argc - 1, argv + 1);
  if (!strcmp(cmd, "scale")) return cmd_scale(argc - 1, argv + 1);
  return cli_err(EXIT_USAGE, "unknown command '%s' (see stepcheck --help)", cmd);
}
