/* The probe: the probe hash (image/canvas_hash.h) of a rect of the guest
 * canvas, computed in the page over getImageData(). It costs the renderer
 * a copy of the rect and one pass over it (about 12 ms per megapixel
 * here) and sends back 64 bits, where a screenshot costs the browser a
 * composited frame, a PNG encode and the PNG's bytes (about 50 ms per
 * megapixel, 18 ms for the smallest clip). The runner uses it to see
 * whether anything changed and to prove that a screenshot showed a settled
 * canvas (lib/run/step.c); verdicts are still taken on screenshots only.
 *
 * The canvas is the one the page opened on, found again by its box and
 * backing size. No answer (have = 0, not an error) when there is no such
 * canvas or more than one, when it has no 2D context (WebGL, bitmap
 * renderer, transferred offscreen) or when its pixels may not be read (a
 * cross-origin image drawn on it): the runner then works from screenshots
 * alone.
 *
 * Each probe allocates an ImageData of the rect (4 MB for a megapixel)
 * that the renderer frees only at its next GC; V8 lets up to tens of MB of
 * such dead buffers pile up. Browsers stepcheck launches expose V8's GC as
 * __stepcheck_gc (lib/browser/launch.c): each probe first runs a young-
 * generation GC, which frees the previous probe's buffer (measured on the
 * map app, 200 probes of 1 MP: renderer peak +10 MiB instead of +27, 1.4 ms
 * more per probe). In browsers we attached to, the name is not there and
 * the probe works the same, with more memory. Probes are experimental and
 * off unless SC_DEBUG_PROBE is set (docs/design.md, "Probes"). */
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "page_internal.h"

/* (x0,y0): the canvas box in the viewport; (w0,h0) its backing size; the
 * rect in canvas pixels. Mirrors sc__canvas_hash word for word. */
static const char k_probe[] =
    "(function(x0,y0,w0,h0,rx,ry,rw,rh){"
    "var cs=document.querySelectorAll('canvas'),c=null;"
    "for(var i=0;i<cs.length;i++){var e=cs[i],b=e.getBoundingClientRect();"
    "if(Math.abs(b.left-x0)<0.01&&Math.abs(b.top-y0)<0.01&&e.width===w0&&e.height===h0){"
    "if(c)return null;c=e;}}"
    "if(!c)return null;var g,d;"
    "try{g=c.getContext('2d');if(!g)return null;d=g.getImageData(rx,ry,rw,rh).data;}"
    "catch(x){return null;}"
    "var u=new Uint32Array(d.buffer,d.byteOffset,d.length>>2),n=u.length,"
    "a=0x811c9dc5|0,h=0x9747b28c|0,w;"
    "for(var k=0;k<n;k++){w=u[k];a=Math.imul(a^w,0x01000193);h=Math.imul(h^w,0x5bd1e995);"
    "h^=h>>>15;}"
    "d=u=null;if(typeof __stepcheck_gc==='function')__stepcheck_gc({type:'minor'});"
    "return [a>>>0,h>>>0];})(%.17g,%.17g,%d,%d,%d,%d,%d,%d)";

typedef struct probe {
  sc__probe_cb cb;
  void *ud;
} probe;

static void probe_reply(int status, json_t *res, const char *errmsg, void *ud) {
  probe pr = *(probe *)ud;
  sc__free(ud);
  char msg[300];
  if (status) {
    snprintf(msg, sizeof msg, "probe (Runtime.evaluate): %s",
             errmsg ? errmsg : sc_strerror(status));
    pr.cb(status, msg, 0, 0, pr.ud);
    return;
  }
  json_t *v = json_object_get(json_object_get(res, "result"), "value");
  /* anything but two 32-bit numbers (null, an exception, a page that
   * redefined the globals we call) is "no answer" */
  if (json_object_get(res, "exceptionDetails") || !json_is_array(v) || json_array_size(v) != 2 ||
      !json_is_number(json_array_get(v, 0)) || !json_is_number(json_array_get(v, 1))) {
    pr.cb(0, NULL, 0, 0, pr.ud);
    return;
  }
  double a = json_number_value(json_array_get(v, 0)), b = json_number_value(json_array_get(v, 1));
  if (!(a >= 0 && a <= 4294967295.0 && b >= 0 && b <= 4294967295.0)) {
    pr.cb(0, NULL, 0, 0, pr.ud);
    return;
  }
  pr.cb(0, NULL, 1, (uint64_t)a << 32 | (uint64_t)b, pr.ud);
}

int sc__page_probe_async(sc_page *p, sc_rect r, double timeout_ms, sc__probe_cb cb, void *ud) {
  int rc = sc__page_check(p, "probe");
  if (rc < 0) return rc;
  if ((rc = sc__page_check_rect(p, r, "probe")) < 0) return rc;
  char *expr = sc__asprintf(k_probe, p->cx, p->cy, p->cw, p->ch, r.x, r.y, r.w, r.h);
  probe *pr = sc__malloc(sizeof *pr);
  json_t *params = expr ? json_pack("{s:s, s:b}", "expression", expr, "returnByValue", 1) : NULL;
  sc__free(expr);
  if (!params || !pr) {
    json_decref(params);
    sc__free(pr);
    return sc__err(SC_ENOMEM, "probe: out of memory");
  }
  pr->cb = cb;
  pr->ud = ud;
  rc = sc__cdp_send(sc__client_cdp(p->cl), p->session_id, "Runtime.evaluate", params,
                    timeout_ms > 0 ? timeout_ms : p->timeout_ms, probe_reply, pr, NULL);
  if (rc) {
    sc__free(pr);
    return sc__err(rc, "probe (Runtime.evaluate): %s", sc_strerror(rc));
  }
  return 0;
}
