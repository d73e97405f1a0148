/* The injected paint-log script declares each function name once. It is
 * one scope of helpers: a second declaration of a name silently replaces
 * the first everywhere (a second over() once took the blind-spot check's
 * place, and a WebGL canvas over the guest passed unseen). Sabotage: a
 * declaration "function over(t){...}" added to the input record fails
 * each_function_is_declared_once. */
#include "testutil.h"

#include <ctype.h>
#include <string.h>

#include "page/paintlog.h"

#define MAXF 512

static void each_function_is_declared_once(void **st) {
  (void)st;
  static char names[MAXF][48];
  int n = 0;
  for (const char *p = strstr(sc__paintlog_js, "function "); p; p = strstr(p + 1, "function ")) {
    const char *q = p + 9;
    size_t len = 0;
    while (isalnum((unsigned char)q[len]) || q[len] == '_' || q[len] == '$') len++;
    if (!len || q[len] != '(') continue; /* function(...) expressions */
    assert_true(len < sizeof names[0]);
    char name[48];
    memcpy(name, q, len);
    name[len] = 0;
    for (int i = 0; i < n; i++)
      if (!strcmp(names[i], name)) fail_msg("paintlog_js.c declares function %s twice", name);
    assert_true(n < MAXF);
    strcpy(names[n++], name);
  }
  assert_true(n > 20); /* it did read the script's declarations */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(each_function_is_declared_once),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
