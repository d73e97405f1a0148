/* The URL-scheme policy (sc_url_check): http and https by default,
 * file: and data: only when the run allows them, about:blank always, the
 * browser's own schemes never. */
#include "testutil.h"

#include <string.h>

#include "stepcheck.h"

static const struct {
  const char *url;
  unsigned allow;
  int ok;
  const char *why; /* part of the message when refused */
} CASES[] = {
    {"http://127.0.0.1:8000/", SC_URL_DEFAULT, 1, NULL},
    {"https://example.org/app?x=1#y", SC_URL_DEFAULT, 1, NULL},
    {"HTTP://EXAMPLE.ORG", SC_URL_DEFAULT, 1, NULL},
    {"http://user:pw@host:65535/", SC_URL_DEFAULT, 1, NULL},
    {"http://[::1]:6080/vnc.html", SC_URL_DEFAULT, 1, NULL},
    {"about:blank", SC_URL_DEFAULT, 1, NULL},
    {"about:blank", 0, 1, NULL},
    {"file:///tmp/app/index.html", SC_URL_DEFAULT | SC_URL_FILE, 1, NULL},
    {"data:text/html,<canvas>", SC_URL_DEFAULT | SC_URL_DATA, 1, NULL},
    /* refused: the schemes the probe loaded, and others */
    {"file:///etc/passwd", SC_URL_DEFAULT, 0, "scheme \"file\" is not allowed (allowed: http, https)"},
    {"data:text/html,<script>", SC_URL_DEFAULT, 0, "scheme \"data\" is not allowed"},
    {"chrome://settings", SC_URL_DEFAULT | SC_URL_FILE | SC_URL_DATA, 0,
     "scheme \"chrome\" is not allowed (allowed: http, https, file, data)"},
    {"view-source:http://x/", SC_URL_DEFAULT, 0, "scheme \"view-source\" is not allowed"},
    {"javascript:alert(1)", SC_URL_DEFAULT, 0, "scheme \"javascript\" is not allowed"},
    {"about:config", SC_URL_DEFAULT, 0, "scheme \"about\" is not allowed"},
    {"blob:http://x/1", SC_URL_DEFAULT, 0, "scheme \"blob\" is not allowed"},
    {"http://127.0.0.1:8000/", SC_URL_HTTPS, 0, "scheme \"http\" is not allowed (allowed: https)"},
    /* malformed */
    {"127.0.0.1:8000", SC_URL_DEFAULT, 0, "no scheme"},
    {"localhost:8000", SC_URL_DEFAULT, 0, "scheme \"localhost\" is not allowed"},
    {"/index.html", SC_URL_DEFAULT, 0, "no scheme"},
    {"", SC_URL_DEFAULT, 0, "no scheme"},
    {"http:/x", SC_URL_DEFAULT, 0, "no \"//\" after \"http:\""},
    {"http:///path", SC_URL_DEFAULT, 0, "no host"},
    {"http://:80/", SC_URL_DEFAULT, 0, "no host"},
    {"http://host:0/", SC_URL_DEFAULT, 0, "a bad port"},
    {"http://host:65536/", SC_URL_DEFAULT, 0, "a bad port"},
    {"http://host:8x/", SC_URL_DEFAULT, 0, "a bad port"},
    {"http://[::1/", SC_URL_DEFAULT, 0, "a bad [IPv6] host"},
    {"http://a b/", SC_URL_DEFAULT, 0, "a space or control character at byte 8"},
    {"http://host/\n", SC_URL_DEFAULT, 0, "control character"},
};

static void policy(void **st) {
  (void)st;
  for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
    int rc = sc_url_check(CASES[i].url, CASES[i].allow);
    if (CASES[i].ok && rc != 0) fail_msg("\"%s\" refused: %s", CASES[i].url, sc_errmsg());
    if (!CASES[i].ok) {
      if (rc != SC_EINVAL) fail_msg("\"%s\" allowed", CASES[i].url);
      if (!strstr(sc_errmsg(), CASES[i].why))
        fail_msg("\"%s\": \"%s\", want \"%s\"", CASES[i].url, sc_errmsg(), CASES[i].why);
    }
  }
  assert_int_equal(sc_url_check(NULL, SC_URL_DEFAULT), SC_EINVAL);
}

/* The loader applies the default policy to a scenario's own "url", with no
 * way for the file to opt out. */
static void scenario_url_is_checked(void **st) {
  (void)st;
  static const char *const bad[] = {"file:///etc/passwd", "data:text/html,x", "view-source:http://x/",
                                    "http://"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char j[512];
    snprintf(j, sizeof j,
             "{\"app\": \"a\", \"url\": \"%s\", \"viewport\": {\"width\": 10, \"height\": 10},"
             " \"guest\": {\"width\": 10, \"height\": 10}, \"regions\": {\"r\": [0, 0, 1, 1]},"
             " \"cycle\": [{\"id\": \"x\", \"none\": true, \"expect\": [{\"stable\": \"r\"}]}]}",
             bad[i]);
    sc_scenario *s = (sc_scenario *)1;
    assert_int_equal(sc_scenario_parse(&s, j, "t.json"), SC_ESCENARIO);
    assert_null(s);
    assert_non_null(strstr(sc_errmsg(), "t.json:1:21: \"url\" is not an http or https URL: "));
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(policy), cmocka_unit_test(scenario_url_is_checked)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
