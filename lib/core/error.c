/* Error table (one X-macro) and the per-thread detailed message. */
#include <stdarg.h>
#include <stdio.h>

#include "core.h"

static _Thread_local char t_msg[1024];

SC_EXTERN const char *sc_strerror(int err) {
  switch (err) {
  case SC_OK:
    return "success";
#define SC__ERR_CASE(name, code, msg) \
  case code:                          \
    return msg;
    SC_ERRNO_MAP(SC__ERR_CASE)
#undef SC__ERR_CASE
  default:
    return "unknown error";
  }
}

SC_EXTERN const char *sc_errmsg(void) { return t_msg; }

/* Every message is one line of text whatever it quotes (a path, a
 * server's message, a scenario's name): escaped here, once, for all. */
int sc__err(int err, const char *fmt, ...) {
  char raw[sizeof t_msg];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(raw, sizeof raw, fmt, ap);
  va_end(ap);
  sc__escape_ctl_to(t_msg, sizeof t_msg, raw);
  return err;
}

void sc__err_save(sc__errsave *e) { snprintf(e->msg, sizeof e->msg, "%s", t_msg); }

int sc__err_restore(const sc__errsave *e, int err) { return sc__err(err, "%s", e->msg); }

void sc__err_clear(void) { t_msg[0] = '\0'; }

SC_EXTERN const char *sc_version(void) { return SC_VERSION_STRING; }
