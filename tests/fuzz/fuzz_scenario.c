/* Fuzz target: scenario loading (lib/scenario) from a NUL-terminated
 * string: JSON parsing with positions, every field check, did-you-mean
 * suggestions, cross-step references.
 * Invariants checked: success gives a scenario and failure none, with a
 * documented error and a message naming the file. */
#include <string.h>

#include "stepcheck/scenario.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *json = malloc(size + 1);
  if (!json) return 0;
  memcpy(json, data, size);
  json[size] = '\0';
  sc_scenario *s = (sc_scenario *)1;
  int rc = sc_scenario_parse(&s, json, "fuzz/scenario.json");
  if (rc == 0) {
    FUZZ_CHECK(s != NULL);
    (void)sc_scenario_region(s, "map");
    sc_scenario_free(s);
  } else {
    FUZZ_CHECK(s == NULL);
    FUZZ_CHECK(rc == SC_ESCENARIO || rc == SC_ENOMEM || rc == SC_ETOOBIG);
    FUZZ_CHECK(strncmp(sc_errmsg(), "fuzz/scenario.json", 18) == 0);
  }
  free(json);
  return 0;
}
