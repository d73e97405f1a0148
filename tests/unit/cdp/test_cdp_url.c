/* DevTools endpoint URLs and the loopback check. */
#include <string.h>

#include "cdp/url.h"
#include "stepcheck.h"
#include "testutil.h"

static void parses_endpoints(void **st) {
  (void)st;
  sc__url u;
  assert_int_equal(sc__url_parse(&u, "ws://127.0.0.1:9222/devtools/browser/ab-12"), 0);
  assert_string_equal(u.scheme, "ws");
  assert_string_equal(u.host, "127.0.0.1");
  assert_int_equal(u.port, 9222);
  assert_string_equal(u.path, "/devtools/browser/ab-12");
  assert_int_equal(u.ipv6, 0);

  assert_int_equal(sc__url_parse(&u, "HTTP://localhost:9222"), 0);
  assert_string_equal(u.scheme, "http");
  assert_string_equal(u.path, "/");
  assert_int_equal(sc__url_parse(&u, "http://localhost:9222/"), 0);
  assert_string_equal(u.path, "/");
  assert_int_equal(sc__url_parse(&u, "http://127.0.0.1"), 0);
  assert_int_equal(u.port, 80);
  assert_int_equal(sc__url_parse(&u, "http://127.0.0.1:9222?x=1#frag"), 0);
  assert_string_equal(u.path, "/?x=1");

  assert_int_equal(sc__url_parse(&u, "ws://[::1]:9333/devtools/browser/x"), 0);
  assert_string_equal(u.host, "::1");
  assert_int_equal(u.ipv6, 1);
  assert_int_equal(u.port, 9333);
  char hp[300];
  sc__url_host_port(&u, hp, sizeof hp);
  assert_string_equal(hp, "[::1]:9333");
}

static void rejects_bad_urls(void **st) {
  (void)st;
  sc__url u;
  const char *bad[] = {"127.0.0.1:9222", "wss://127.0.0.1:9222/x", "https://127.0.0.1/",
                       "ws://", "ws://:9222/x", "ws://127.0.0.1:0/x", "ws://127.0.0.1:65536/",
                       "ws://127.0.0.1:92a2/", "ws://[::1/x", "ws://user@127.0.0.1:1/",
                       "http://127.0.0.1 :9222"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (sc__url_parse(&u, bad[i]) != SC_EINVAL) fail_msg("accepted %s", bad[i]);
    assert_true(strlen(sc_errmsg()) > 0);
  }
  assert_int_equal(sc__url_parse(&u, NULL), SC_EINVAL);
}

static void loopback_hosts(void **st) {
  (void)st;
  const char *yes[] = {"127.0.0.1", "127.1.2.3", "127.255.255.254", "localhost", "LocalHost",
                       "::1"};
  const char *no[] = {"10.1.2.3", "128.0.0.1", "0.0.0.0", "::", "fe80::1", "localhost.",
                      "evil.localhost", "127.0.0.1.nip.io", "::ffff:127.0.0.1", ""};
  for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
    if (!sc__url_host_is_loopback(yes[i])) fail_msg("%s not loopback", yes[i]);
  for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
    if (sc__url_host_is_loopback(no[i])) fail_msg("%s taken as loopback", no[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(parses_endpoints),
      cmocka_unit_test(rejects_bad_urls),
      cmocka_unit_test(loopback_hosts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
