/* stepcheck validate: every problem of a scenario file, one per line. */
#include <stdio.h>

#include "cli.h"

static void print_problem(const char *line, void *ud) {
  (void)ud;
  char shown[CLI_SHOWN_MAX];
  fprintf(stderr, "%s\n", cli_shown(shown, sizeof shown, line));
}

int cmd_validate(int argc, char **argv) {
  if (argc != 2) return cli_err(EXIT_USAGE, "usage: stepcheck validate SCENARIO");
  int n = sc_scenario_validate(argv[1], print_problem, NULL);
  if (n < 0) return cli_input_err(n, argv[1]);
  char shown[CLI_SHOWN_MAX];
  cli_shown(shown, sizeof shown, argv[1]);
  if (n > 0) {
    fprintf(stderr, "%s: %d problem%s\n", shown, n, n == 1 ? "" : "s");
    return EXIT_USAGE;
  }
  sc_scenario *s = NULL;
  int rc = sc_scenario_load(&s, argv[1]);
  if (rc < 0) return cli_input_err(rc, argv[1]);
  printf("%s: ok (%s: %zu points, %zu regions, %zu setup steps, %zu steps per cycle)\n",
         shown, sc_scenario_app(s), sc_scenario_npoints(s), sc_scenario_nregions(s),
         sc_scenario_nsetup(s), sc_scenario_nsteps(s));
  sc_scenario_free(s);
  return EXIT_OK;
}
