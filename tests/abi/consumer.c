/* A program built against the baseline release's headers (abi/include/),
 * run against the library being tested (tests/cli/abi.sh): the ABI promise
 * exercised, not only checked. It touches what a harness touches without a
 * browser: versioned options, the scenario model through its accessors,
 * images and a diff, results read by pointer.
 *   consumer SCENARIO.json  -> prints one line, exit 0 when all held */
#include <stdio.h>
#include <string.h>

#include <stepcheck.h>

#define CHECK(c)                                                 \
  do {                                                           \
    if (!(c)) {                                                  \
      fprintf(stderr, "consumer: %s:%d: %s (%s)\n", __FILE__,    \
              __LINE__, #c, sc_errmsg());                        \
      return 1;                                                  \
    }                                                            \
  } while (0)

int main(int argc, char **argv) {
  CHECK(argc == 2);
  sc_page_options po;
  CHECK(sc_page_options_init(&po, SC_PAGE_OPTIONS_VERSION) == 0);
  sc_run_options ro = SC_RUN_OPTIONS_INIT;
  CHECK(ro.version == SC_RUN_OPTIONS_VERSION && ro.cycles == 1);

  sc_scenario *s = NULL;
  CHECK(sc_scenario_load(&s, argv[1]) == 0);
  size_t nexp = 0;
  for (size_t i = 0; i < sc_scenario_nsteps(s); i++) {
    const sc_step *st = sc_scenario_step(s, i);
    CHECK(sc_step_id(st) && *sc_step_id(st));
    for (size_t j = 0; j < sc_step_nexpect(st); j++) {
      char *js = sc_expect_json(s, sc_step_expect(st, j));
      CHECK(js && js[0] == '{');
      sc_free(js);
      nexp++;
    }
  }
  sc_run_page_options(&po, s);
  int gw = 0, gh = 0;
  sc_scenario_guest_size(s, &gw, &gh);
  CHECK(po.guest_w == gw && po.guest_h == gh);

  sc_image *a = NULL, *b = NULL;
  CHECK(sc_image_new(&a, 16, 16) == 0 && sc_image_new(&b, 16, 16) == 0);
  b->px[0] = 255;
  size_t nd = 0;
  sc_rect r = {0, 0, 16, 16};
  sc_diff_options dopt = SC_DIFF_OPTIONS_INIT;
  CHECK(sc_image_diff(&nd, NULL, NULL, a, r, b, r, &dopt) == 0 && nd == 1);
  printf("consumer: %s %s: %zu steps, %zu expectations, diff %zu px\n", sc_version(),
         sc_scenario_app(s), sc_scenario_nsteps(s), nexp, nd);
  sc_image_free(a);
  sc_image_free(b);
  sc_scenario_free(s);
  return 0;
}
