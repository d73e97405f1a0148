/* Report files are written to path.tmp and renamed, so a reader never sees
 * half a report. Errors name the report file first, then the temporary
 * file and the system's reason: "r/report.json: not written: cannot create
 * r/report.json.tmp: Read-only file system". */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "report/report_int.h"

int sc__report_open(sc__report_file *rf, const char *path) {
  memset(rf, 0, sizeof *rf);
  if (!path) return sc__err(SC_EINVAL, "report: NULL path");
  rf->path = path;
  int rc = sc__out_check(path);
  if (rc) { /* "PATH: not written: WHY", the path said once */
    sc__errsave e;
    sc__err_save(&e);
    size_t n = strlen(path);
    const char *why = strncmp(e.msg, path, n) == 0 && !strncmp(e.msg + n, ": ", 2) ? e.msg + n + 2 : e.msg;
    return sc__err(rc, "%s: not written: %s", path, why);
  }
  rf->tmp = sc__asprintf("%s.tmp", path);
  if (!rf->tmp) return sc__err(SC_ENOMEM, "%s: out of memory", path);
  rf->f = sc__out_open_tmp(rf->tmp);
  if (!rf->f) {
    rc = sc__err(SC_EIO, "%s: not written: cannot create %s: %s", path, rf->tmp,
                     strerror(errno));
    sc__free(rf->tmp);
    rf->tmp = NULL;
    return rc;
  }
  return 0;
}

int sc__report_close(sc__report_file *rf, int rc) {
  if (!rf->f) return rc;
  int werr = ferror(rf->f) || fflush(rf->f) != 0;
  int saved = errno;
  if (fclose(rf->f) != 0 && !werr) {
    werr = 1;
    saved = errno;
  }
  rf->f = NULL;
  if (!rc && werr)
    rc = sc__err(SC_EIO, "%s: not written: writing %s failed: %s", rf->path, rf->tmp,
                 strerror(saved));
  if (!rc && rename(rf->tmp, rf->path) != 0)
    rc = sc__err(SC_EIO, "%s: not written: rename from %s failed: %s", rf->path, rf->tmp,
                 strerror(errno));
  if (rc) unlink(rf->tmp);
  sc__free(rf->tmp);
  rf->tmp = NULL;
  return rc;
}
