/* Pages on real headless Chromium: input arrives exactly as sent (read back
 * from an event-recording page), clip captures are pixel-exact, and a canvas
 * of the wrong size is refused. */
#include "testutil.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "browser/handle.h"
#include "core/core.h"
#include "stepcheck.h"

static char *page_url(const char *rel) {
  static char buf[4096];
  snprintf(buf, sizeof buf, "file://%s", sc_test_fixture(rel));
  return buf;
}

static sc_page *open_events(void) {
  sc_page_options o = SC_PAGE_OPTIONS_INIT;
  o.guest_w = 1600;
  o.guest_h = 900;
  o.notch_spacing_ms = 250;
  sc_page *p = NULL;
  int rc = sc_page_open(&p, sc_test_b, page_url("pages/events.html"), &o);
  if (rc < 0) fprintf(stderr, "open: %s\n", sc_errmsg());
  assert_int_equal(rc, 0);
  return p;
}

/* The value of expr, a page expression that gives JSON.stringify(...). */
static json_t *eval_json(sc_page *p, const char *expr) {
  char *js = NULL;
  assert_int_equal(sc_page_eval(&js, p, expr), 0);
  json_t *s = json_loads(js, JSON_DECODE_ANY, NULL);
  sc_free(js);
  json_t *v = json_loads(json_string_value(s), 0, NULL);
  json_decref(s);
  assert_non_null(v);
  return v;
}

static json_t *events(sc_page *p) {
  json_t *arr = eval_json(p, "JSON.stringify(window.__events)");
  assert_int_equal(sc_page_eval(NULL, p, "window.__events.length = 0"), 0);
  return arr;
}

/* Events of one type, in order. */
static size_t of_type(json_t *arr, const char *type, json_t **out, size_t max) {
  size_t n = 0, i;
  json_t *e;
  json_array_foreach(arr, i, e) {
    if (!strcmp(json_string_value(json_object_get(e, "type")), type) && n < max) out[n++] = e;
  }
  return n;
}

static double num(json_t *e, const char *k) { return json_number_value(json_object_get(e, k)); }
static const char *str(json_t *e, const char *k) { return json_string_value(json_object_get(e, k)); }

static void canvas_geometry_is_measured(void **st) {
  (void)st;
  sc_page *p = open_events();
  double x, y;
  int w, h;
  sc_page_canvas(p, &x, &y, &w, &h);
  assert_true(x == 0.0);
  assert_true(y == 32.5);
  assert_int_equal(w, 1600);
  assert_int_equal(h, 900);
  sc_page_free(p);
}

static void click_lands_on_the_guest_pixel(void **st) {
  (void)st;
  sc_page *p = open_events();
  assert_int_equal(sc_page_click(p, (sc_point){100, 200}), 0);
  json_t *ev = events(p), *d[4];
  assert_int_equal(of_type(ev, "mousedown", d, 4), 1);
  /* The guest pixel the app computes (clientX - canvas left, floored). */
  assert_int_equal((int)floor(num(d[0], "clientX") - 0.0), 100);
  assert_int_equal((int)floor(num(d[0], "clientY") - 32.5), 200);
  assert_int_equal((int)num(d[0], "button"), 0);
  assert_int_equal((int)num(d[0], "buttons"), 1);
  assert_int_equal((int)num(d[0], "detail"), 1);
  assert_int_equal(of_type(ev, "mouseup", d, 4), 1);
  assert_int_equal((int)num(d[0], "buttons"), 0);
  assert_int_equal(of_type(ev, "click", d, 4), 1);
  assert_int_equal(of_type(ev, "dblclick", d, 4), 0);
  json_decref(ev);
  /* Edge pixels too: (0,0) and (1599,899) stay inside the canvas. */
  assert_int_equal(sc_page_click(p, (sc_point){1599, 899}), 0);
  ev = events(p);
  assert_int_equal(of_type(ev, "mousedown", d, 4), 1);
  assert_int_equal((int)floor(num(d[0], "clientX")), 1599);
  assert_int_equal((int)floor(num(d[0], "clientY") - 32.5), 899);
  json_decref(ev);
  sc_page_free(p);
}

/* Out-of-range arguments on a real page: refused with SC_EINVAL before any
 * event is sent (the page sees nothing), never clicked somewhere harmless. */
static void bad_points_and_clips_are_refused(void **st) {
  (void)st;
  sc_page *p = open_events();
  sc_point bad[] = {{NAN, 10}, {10, INFINITY}, {-1, 10}, {10, -0.6}, {1599.5, 10}, {10, 900}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_equal(sc_page_click(p, bad[i]), SC_EINVAL);
    assert_non_null(strstr(sc_errmsg(), "sc_page_click"));
    assert_int_equal(sc_page_move(p, bad[i]), SC_EINVAL);
    assert_int_equal(sc_page_wheel(p, bad[i], 1), SC_EINVAL);
  }
  json_t *ev = events(p), *d[4];
  assert_int_equal(json_array_size(ev), 0);
  json_decref(ev);
  sc_image *img = NULL;
  double scales[] = {0, -1, 1.5, NAN};
  for (size_t i = 0; i < sizeof scales / sizeof *scales; i++)
    assert_int_equal(sc_page_capture(&img, p, (sc_rect){0, 0, 10, 10}, scales[i], 0, NULL),
                     SC_EINVAL);
  sc_rect clips[] = {{0, 0, 0, 10}, {-1, 0, 10, 10}, {1595, 0, 10, 10}, {0, 895, 10, 10}};
  for (size_t i = 0; i < sizeof clips / sizeof *clips; i++)
    assert_int_equal(sc_page_capture(&img, p, clips[i], 1, 0, NULL), SC_EINVAL);
  assert_null(img);
  /* The edges themselves are fine. */
  assert_int_equal(sc_page_capture(&img, p, (sc_rect){1590, 890, 10, 10}, 1, 0, NULL), 0);
  sc_image_free(img);
  assert_int_equal(sc_page_click(p, (sc_point){1599.4, 899.4}), 0);
  ev = events(p);
  assert_int_equal(of_type(ev, "mousedown", d, 4), 1);
  json_decref(ev);
  sc_page_free(p);
}

/* Targets of browser b whose URL contains part. */
static int targets_at(sc_browser *b, const char *part) {
  json_t *res = NULL, *t;
  size_t i;
  int n = 0;
  assert_int_equal(
      sc__client_call(sc__browser_client(b), NULL, "Target.getTargets", NULL, 5000, &res), 0);
  json_array_foreach(json_object_get(res, "targetInfos"), i, t) {
    const char *url = json_string_value(json_object_get(t, "url"));
    n += url && strstr(url, part) != NULL;
  }
  json_decref(res);
  return n;
}

/* Freeing the browser before its page: the page's target is closed in the
 * browser (an attached browser keeps running, so this is visible), calls on
 * the page answer SC_ECLOSED, and sc_page_free still frees it. */
static void browser_freed_before_its_page(void **st) {
  (void)st;
  sc_browser *att = NULL;
  assert_int_equal(sc_browser_connect(&att, sc_browser_ws_url(sc_test_b), NULL), 0);
  sc_page_options o = SC_PAGE_OPTIONS_INIT;
  o.guest_w = 1600;
  o.guest_h = 900;
  sc_page *p = NULL, *q = NULL;
  assert_int_equal(sc_page_open(&p, att, page_url("pages/events.html"), &o), 0);
  assert_int_equal(sc_page_open(&q, att, page_url("pages/pattern.html"), NULL), 0);
  sc_page_free(q); /* freed in the right order: untracked */
  assert_int_equal(targets_at(sc_test_b, "events.html"), 1);
  sc_browser_free(att);
  assert_int_equal(targets_at(sc_test_b, "events.html"), 0);
  assert_int_equal(sc_page_click(p, (sc_point){10, 10}), SC_ECLOSED);
  assert_non_null(strstr(sc_errmsg(), "browser was freed"));
  sc_image *img = NULL;
  assert_int_equal(sc_page_capture(&img, p, (sc_rect){0, 0, 10, 10}, 1, 0, NULL), SC_ECLOSED);
  assert_int_equal(sc_page_eval(NULL, p, "1"), SC_ECLOSED);
  assert_int_equal(sc_page_key(p, "a", 1), SC_ECLOSED);
  sc_page_free(p);
}

/* The public waits: at rest means no paint over the region for the quiet
 * time (the page's paint log; a region animated every frame never is), a
 * change is dated at its first paint and returned settled, and no change
 * is a timeout. */
static void capture_at_rest_and_wait_change(void **st) {
  (void)st;
  sc_page *p = open_events();
  sc_rect clip = {0, 0, 100, 100};
  sc_image *before = NULL, *after = NULL;
  assert_int_equal(sc_page_capture_at_rest(&before, p, clip, 2000), 0);
  double first = -1;
  /* Nothing happens: a timeout, not a change. */
  assert_int_equal(sc_page_wait_change(&after, &first, p, clip, before, 600), SC_ETIMEDOUT);
  assert_null(after);
  /* Five frames 60 ms apart from 300 ms on; the last one is #123456. */
  assert_int_equal(
      sc_page_eval(NULL, p,
                   "(function(){var c=document.querySelector('canvas').getContext('2d'),i=0;"
                   "var cols=['#ff0000','#00ff00','#0000ff','#ffff00','#123456'];"
                   "setTimeout(function(){var t=setInterval(function(){c.fillStyle=cols[i];"
                   "c.fillRect(10,10,50,50);if(++i==5)clearInterval(t);},60);},300);})()"),
      0);
  assert_int_equal(sc_page_wait_change(&after, &first, p, clip, before, 5000), 0);
  /* the first frame is painted 360 ms after the script ran: dated by the
   * log to the millisecond (the call began a little before the script) */
  assert_true(first >= 355 && first < 500);
  /* Settled on the last frame: the frames come 60 ms apart, the log waits
   * for 150 ms without a paint (two equal screenshots in a row, the pairs
   * rule, could fall between two frames). */
  assert_int_equal(sc_image_pixel(after, 20, 20), 0x123456ffu);
  sc_image_free(after);
  /* Once the animation is over, the region settles on the last frame. */
  usleep(600 * 1000);
  assert_int_equal(sc_page_capture_at_rest(&after, p, clip, 2000), 0);
  assert_int_equal(sc_image_pixel(after, 20, 20), 0x123456ffu);
  sc_image_free(after);
  sc_image_free(before);
  /* Animated every frame: never at rest. */
  assert_int_equal(sc_page_eval(NULL, p,
                                "(function(){var c=document.querySelector('canvas')"
                                ".getContext('2d'),n=0;(function f(){c.fillStyle='rgb('+(n++%250)+',0,0)';"
                                "c.fillRect(10,10,50,50);requestAnimationFrame(f);})();})()"),
                   0);
  assert_int_equal(sc_page_capture_at_rest(&before, p, clip, 800), SC_ETIMEDOUT);
  assert_null(before);
  assert_non_null(strstr(sc_errmsg(), "still moving"));
  /* A wait for a change on it: it differs from the start, and never comes
   * to rest: "still moving", never "unchanged" (sabotage: the rest
   * object's deadline taken as no change says "unchanged after"). */
  assert_int_equal(sc_image_new(&before, clip.w, clip.h), 0);
  assert_int_equal(sc_page_wait_change(&after, &first, p, clip, before, 800), SC_ETIMEDOUT);
  assert_null(after);
  assert_non_null(strstr(sc_errmsg(), "still moving"));
  sc_image_free(before);
  sc_page_free(p);
}

/* The page's wait with regions the answer must reach (paintlog_js.c,
 * "must"): the left piece painted at 50 ms, the right one at 250 ms. With
 * the right region as a must, the short quiet time (40 ms) counts only
 * once the right piece came: both paints are in the answer. Sabotage
 * (the same wait without it): answered 40 ms after the left piece, with
 * one paint. Returns [n, last - first]. */
static json_t *two_piece_wait(sc_page *p, int with_must) {
  char expr[1200], *js = NULL;
  snprintf(expr, sizeof expr,
           "(function(){var c=document.querySelector('canvas'),b=c.getBoundingClientRect(),"
           "x=c.getContext('2d'),L=__stepcheck_log,s=L.seq(),g=[b.left,b.top,b.width,b.height];"
           "setTimeout(function(){x.fillStyle='#f00';x.fillRect(0,0,40,40);},50);"
           "setTimeout(function(){x.fillStyle='#0f0';x.fillRect(600,0,40,40);},250);"
           "return L.wait(g,[b.left,b.top,700,40],s,performance.timeOrigin,40,0,true,3000,false,"
           "%s,s,400).then(function(o){return [o.n,o.last-o.first];});})()",
           with_must ? "[b.left+500,b.top,200,40]" : "null");
  assert_int_equal(sc_page_eval(&js, p, expr), 0);
  json_t *v = json_loads(js, JSON_DECODE_ANY, NULL);
  sc_free(js);
  assert_non_null(v);
  return v;
}
static void a_wait_counts_its_quiet_once_every_must_region_was_painted(void **st) {
  (void)st;
  sc_page *p = open_events();
  json_t *v = two_piece_wait(p, 1);
  assert_int_equal(json_integer_value(json_array_get(v, 0)), 2);
  assert_true(json_number_value(json_array_get(v, 1)) >= 150);
  json_decref(v);
  usleep(300 * 1000);
  v = two_piece_wait(p, 0); /* sabotage: no must */
  assert_int_equal(json_integer_value(json_array_get(v, 0)), 1);
  json_decref(v);
  sc_page_free(p);
}

/* A back buffer drawn whole onto the page's canvas on every update, the
 * way Xpra's HTML5 client does it: each update is put into a fresh buffer
 * (a blank canvas that first copies the one before it whole), and at the
 * next frame the canvas draws the newest buffer whole over itself. Large
 * updates refill a rectangle in place (clearRect, then putImageData or
 * drawImage of an image of that rectangle) though only part of it changed.
 * The paint log's entry for the canvas is only where its pixels can have
 * changed: what the buffers changed since the one the canvas showed, and
 * where that one had translucent pixels. Each task's canvas entries,
 * canvas-relative, as [x, y, w, h] (one box per task: their union; -1:
 * none) into r; n tasks. */
static void buffers(sc_page *p, const char *steps, double r[][4], size_t n) {
  char expr[8192];
  snprintf(expr, sizeof expr,
           "(async function(){var v=document.querySelector('canvas'),g=v.getContext('2d'),W=v.width,H=v.height,"
           "L=__stepcheck_log,o=v.getBoundingClientRect(),out=[];"
           "function mk(){var c=document.createElement('canvas');c.width=W;c.height=H;return c;}"
           "var off=mk(),draw=null;"
           "function img(w,h,c,patch){var d=new ImageData(w,h);for(var y=0;y<h;y++)for(var x=0;x<w;x++){"
           "var q=c;for(var k=0;patch&&k<patch.length;k++){var P=patch[k];"
           "if(x>=P[0]&&x<P[0]+P[2]&&y>=P[1]&&y<P[1]+P[3])q=P[4];}"
           "var i=4*(y*w+x);d.data[i]=q[0];d.data[i+1]=q[1];d.data[i+2]=q[2];d.data[i+3]=q[3];}return d;}"
           "function put(x,y,w,h,c,patch){var t=off.getContext('2d');t.clearRect(x,y,w,h);"
           "t.putImageData(img(w,h,c,patch),x,y);}"
           "function swap(){draw=off;off=mk();off.getContext('2d').drawImage(draw,0,0);}"
           "function show(){g.drawImage(draw,0,0);}"
           "var B=[20,30,40,255],RED=[255,0,0,255],GRN=[0,255,0,255],HALF=[255,255,255,128];"
           "var tick=function(){return new Promise(function(r){setTimeout(r,20);});};"
           "async function step(f){var s=L.seq();f();await tick();"
           "var t=(L.seq()>s?L.tail(L.seq()-s):[]).filter(function(e){return e.why==='canvas';}),b=null;"
           "t.forEach(function(e){var x0=e.rect[0]-o.left,y0=e.rect[1]-o.top,x1=x0+e.rect[2],y1=y0+e.rect[3];"
           "b=b?[Math.min(b[0],x0),Math.min(b[1],y0),Math.max(b[2],x1),Math.max(b[3],y1)]:[x0,y0,x1,y1];});"
           "out.push(b?[Math.round(b[0]),Math.round(b[1]),Math.round(b[2]-b[0]),Math.round(b[3]-b[1])]:[-1,-1,-1,-1]);}"
           "%s return JSON.stringify(out);})()",
           steps);
  json_t *v = eval_json(p, expr);
  assert_int_equal(json_array_size(v), n);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 4; k++) r[i][k] = json_number_value(json_array_get(json_array_get(v, i), k));
  json_decref(v);
}
static int whole(const double *r) { return r[0] <= 0 && r[1] <= 0 && r[2] >= 1600 && r[3] >= 900; }
/* the box r is the rectangle (x, y, w, h), within 2 px */
static int near(const double *r, double x, double y, double w, double h) {
  return r[0] >= x - 2 && r[0] <= x && r[1] >= y - 2 && r[1] <= y && r[0] + r[2] >= x + w &&
         r[0] + r[2] <= x + w + 2 && r[1] + r[3] >= y + h && r[1] + r[3] <= y + h + 2;
}
static void a_buffer_drawn_whole_is_logged_where_it_changed(void **st) {
  (void)st;
  sc_page *p = open_events();
  double r[15][4];
  buffers(p,
          "await step(function(){put(0,0,W,H,B);swap();show();});"
          /* 1: a small update */
          "await step(function(){put(10,10,20,20,RED);swap();show();});"
          /* 2: the whole window refilled, one patch new */
          "await step(function(){put(0,0,W,H,B,[[10,10,20,20,RED],[200,300,30,40,GRN]]);swap();show();});"
          /* 3: drawn on the canvas itself; 4: the next draw restores that spot too */
          "await step(function(){g.fillStyle='#0f0';g.fillRect(300,0,10,10);});"
          "await step(function(){put(40,40,5,5,RED);swap();show();});"
          /* 5: nothing changed */
          "await step(function(){swap();show();});"
          /* 6: two updates in two buffers before one frame */
          "await step(function(){put(10,10,5,5,GRN);swap();put(400,400,5,5,GRN);swap();show();});"
          /* 7: a large image drawn in place of what was cleared */
          "var u=document.createElement('canvas');u.width=W;u.height=H;var ux=u.getContext('2d');"
          "ux.drawImage(draw,0,0);ux.fillStyle='#00f';ux.fillRect(700,500,10,10);var j=new Image();"
          "await new Promise(function(ok){j.onload=ok;j.src=u.toDataURL('image/png');});"
          "await step(function(){var t=off.getContext('2d');t.clearRect(0,0,W,H);t.drawImage(j,0,0);"
          "swap();show();});"
          /* 8: a buffer drawn on before it copied the last one: no copy */
          "await step(function(){draw=off;off=mk();var t=off.getContext('2d');t.fillRect(0,0,1,1);"
          "t.drawImage(draw,0,0);put(60,60,3,3,RED);swap();show();});"
          /* 9: the buffer resized (cleared) */
          "await step(function(){put(70,70,3,3,RED);off.width=W;put(0,0,5,5,RED);swap();show();});"
          /* 10: drawn translucent; 11: drawn again */
          "await step(function(){put(80,80,3,3,RED);swap();g.globalAlpha=0.5;show();g.globalAlpha=1;});"
          "await step(function(){show();});"
          /* 12-14: a translucent patch, then a change elsewhere, then none:
           * the translucent pixels blend again at every draw */
          "await step(function(){put(50,50,4,4,HALF);swap();show();});"
          "await step(function(){put(100,100,4,4,RED);swap();show();});"
          "await step(function(){swap();show();});",
          r, 15);
  assert_true(whole(r[0])); /* the first draw */
  assert_true(near(r[1], 10, 10, 20, 20));
  assert_true(near(r[2], 200, 300, 30, 40)); /* sabotage: no compare at the refill */
  assert_true(near(r[3], 300, 0, 10, 10));
  assert_true(whole(r[4])); /* sabotage: not checking that the canvas showed the last buffer */
  assert_true(r[5][2] < 0);
  assert_true(near(r[6], 10, 10, 395, 395)); /* sabotage: ancestors forgotten */
  assert_true(near(r[7], 700, 500, 10, 10)); /* sabotage: no compare after an image */
  assert_true(whole(r[8]));                  /* sabotage: no blank check */
  assert_true(whole(r[9]));                  /* sabotage: a resize not a change */
  assert_true(whole(r[10]));                 /* sabotage: alpha not checked */
  assert_true(whole(r[11]));
  assert_true(near(r[12], 50, 50, 4, 4));
  assert_true(near(r[13], 50, 50, 54, 54)); /* sabotage: translucent pixels not kept */
  assert_true(near(r[14], 50, 50, 4, 4));
  sc_page_free(p);
}

/* The asynchronous waits: two pages of one browser wait at once on its
 * loop, each for its own change; both callbacks fire once, with their own
 * settled picture and first-change time, and neither blocks the other. */
typedef struct awaited {
  int fired, status;
  sc_image *img;
  double first;
} awaited;

static void on_wait(int status, const char *errmsg, sc_image *img, double first, void *ud) {
  awaited *a = ud;
  (void)errmsg;
  a->fired++;
  a->status = status;
  a->img = img;
  a->first = first;
}

static void async_waits_run_side_by_side(void **st) {
  (void)st;
  sc_page *p[2] = {open_events(), open_events()};
  sc_rect clip = {0, 0, 100, 100};
  sc_image *before[2] = {NULL, NULL};
  awaited a[2];
  memset(a, 0, sizeof a);
  static const char *const paint[2] = {
      "setTimeout(function(){var c=document.querySelector('canvas').getContext('2d');"
      "c.fillStyle='#ff0000';c.fillRect(10,10,40,40);},300)",
      "setTimeout(function(){var c=document.querySelector('canvas').getContext('2d');"
      "c.fillStyle='#0000ff';c.fillRect(10,10,40,40);},900)"};
  for (int i = 0; i < 2; i++) assert_int_equal(sc_page_capture_at_rest(&before[i], p[i], clip, 2000), 0);
  for (int i = 0; i < 2; i++) assert_int_equal(sc_page_eval(NULL, p[i], paint[i]), 0);
  for (int i = 0; i < 2; i++)
    assert_int_equal(sc_page_wait_change_async(p[i], clip, before[i], 5000, on_wait, &a[i]), 0);
  sc_loop *l = sc_page_loop(p[0]);
  assert_ptr_equal(l, sc_page_loop(p[1])); /* one browser, one loop */
  double t0 = sc__now_ms();
  while ((!a[0].fired || !a[1].fired) && sc__now_ms() - t0 < 10000) sc_loop_run(l, 1000);
  for (int i = 0; i < 2; i++) {
    assert_int_equal(a[i].fired, 1);
    assert_int_equal(a[i].status, 0);
    assert_non_null(a[i].img);
  }
  assert_int_equal(sc_image_pixel(a[0].img, 20, 20), 0xff0000ffu);
  assert_int_equal(sc_image_pixel(a[1].img, 20, 20), 0x0000ffffu);
  assert_true(a[0].first >= 100 && a[0].first < 800);
  assert_true(a[1].first >= a[0].first + 300); /* the later paint, seen later */
  for (int i = 0; i < 2; i++) {
    sc_image_free(a[i].img);
    sc_image_free(before[i]);
    sc_page_free(p[i]);
  }
}

static void wheel_is_one_event_per_notch(void **st) {
  (void)st;
  sc_page *p = open_events();
  double t0 = sc__now_ms();
  assert_int_equal(sc_page_wheel(p, (sc_point){800, 450}, -3), 0);
  double dt = sc__now_ms() - t0;
  json_t *ev = events(p), *w[8];
  assert_int_equal(of_type(ev, "wheel", w, 8), 3);
  for (int i = 0; i < 3; i++) {
    assert_true(num(w[i], "deltaY") == -100.0);
    assert_true(num(w[i], "deltaX") == 0.0);
    assert_int_equal((int)num(w[i], "deltaMode"), 0);
    assert_int_equal((int)floor(num(w[i], "clientY") - 32.5), 450);
  }
  assert_true(dt >= 500.0); /* two gaps of 250 ms between three notches */
  json_decref(ev);
  assert_int_equal(sc_page_wheel(p, (sc_point){800, 450}, 2), 0);
  ev = events(p);
  assert_int_equal(of_type(ev, "wheel", w, 8), 2);
  assert_true(num(w[0], "deltaY") == 100.0);
  json_decref(ev);
  assert_int_equal(sc_page_wheel(p, (sc_point){800, 450}, 0), SC_EINVAL);
  sc_page_free(p);
}

static void keys_carry_code_keycode_location(void **st) {
  (void)st;
  sc_page *p = open_events();
  assert_int_equal(sc_page_click(p, (sc_point){10, 10}), 0); /* focus */
  json_decref(events(p));
  assert_int_equal(sc_page_key(p, "NumpadAdd", 1), 0);
  json_t *ev = events(p), *k[8];
  assert_int_equal(of_type(ev, "keydown", k, 8), 1);
  assert_string_equal(str(k[0], "key"), "+");
  assert_string_equal(str(k[0], "code"), "NumpadAdd");
  assert_int_equal((int)num(k[0], "keyCode"), 107);
  assert_int_equal((int)num(k[0], "location"), 3);
  assert_int_equal(of_type(ev, "keyup", k, 8), 1);
  assert_int_equal((int)num(k[0], "keyCode"), 107);
  json_decref(ev);

  assert_int_equal(sc_page_key(p, "Escape", 2), 0);
  ev = events(p);
  assert_int_equal(of_type(ev, "keydown", k, 8), 2);
  assert_string_equal(str(k[1], "key"), "Escape");
  assert_int_equal((int)num(k[1], "keyCode"), 27);
  json_decref(ev);

  assert_int_equal(sc_page_key(p, "Control+a", 1), 0);
  ev = events(p);
  assert_int_equal(of_type(ev, "keydown", k, 8), 2);
  assert_string_equal(str(k[0], "key"), "Control");
  assert_int_equal((int)num(k[0], "keyCode"), 17);
  assert_string_equal(str(k[1], "code"), "KeyA");
  assert_int_equal((int)num(k[1], "keyCode"), 65);
  assert_true(json_is_true(json_object_get(k[1], "ctrlKey")));
  assert_int_equal(of_type(ev, "keyup", k, 8), 2);
  assert_string_equal(str(k[1], "key"), "Control");
  json_decref(ev);

  assert_int_equal(sc_page_key(p, "Enter", 1), 0);
  ev = events(p);
  assert_int_equal(of_type(ev, "keydown", k, 8), 1);
  assert_int_equal((int)num(k[0], "keyCode"), 13);
  assert_string_equal(str(k[0], "code"), "Enter");
  json_decref(ev);

  /* Shift applied: "Shift+Equal" types "+", with shiftKey set. */
  assert_int_equal(sc_page_key(p, "Shift+Equal", 1), 0);
  ev = events(p);
  assert_int_equal(of_type(ev, "keydown", k, 8), 2);
  assert_string_equal(str(k[1], "key"), "+");
  assert_string_equal(str(k[1], "code"), "Equal");
  assert_true(json_is_true(json_object_get(k[1], "shiftKey")));
  json_decref(ev);
  /* A character that needs Shift gets it held, as typing it would. */
  assert_int_equal(sc_page_key(p, "A", 1), 0);
  ev = events(p);
  assert_int_equal(of_type(ev, "keydown", k, 8), 2);
  assert_string_equal(str(k[0], "key"), "Shift");
  assert_string_equal(str(k[1], "key"), "A");
  assert_string_equal(str(k[1], "code"), "KeyA");
  assert_int_equal(of_type(ev, "keyup", k, 8), 2);
  assert_string_equal(str(k[1], "key"), "Shift");
  json_decref(ev);
  /* Typing a string: one press per character, Enter for a newline. */
  assert_int_equal(sc_page_type(p, "Hi 7!\n"), 0);
  ev = events(p);
  json_t *d[16];
  size_t nd = of_type(ev, "keydown", d, 16);
  char typed[16] = "";
  size_t nt = 0;
  for (size_t i = 0; i < nd && nt < sizeof typed - 1; i++) {
    const char *key = str(d[i], "key");
    if (strcmp(key, "Shift")) typed[nt++] = strcmp(key, "Enter") ? key[0] : '|';
  }
  typed[nt] = '\0';
  assert_string_equal(typed, "Hi 7!|");
  json_decref(ev);
  assert_int_equal(sc_page_type(p, "a\x01b"), SC_EINVAL);
  ev = events(p);
  assert_int_equal(json_array_size(ev), 0); /* refused before anything was sent */
  json_decref(ev);

  assert_int_equal(sc_page_key(p, "NoSuchKey", 1), SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "NoSuchKey"));
  assert_int_equal(sc_page_key(p, "Banana+a", 1), SC_EINVAL);
  sc_page_free(p);
}

static void capture_is_pixel_exact(void **st) {
  (void)st;
  sc_page_options o = SC_PAGE_OPTIONS_INIT;
  o.guest_w = 1600;
  o.guest_h = 900;
  sc_page *p = NULL;
  assert_int_equal(sc_page_open(&p, sc_test_b, page_url("pages/pattern.html"), &o), 0);
  sc_rect clips[] = {{0, 0, 64, 32}, {100, 200, 160, 24}, {1536, 868, 64, 32}};
  for (size_t c = 0; c < 3; c++) {
    sc_image *img = NULL;
    double ms = 0;
    assert_int_equal(sc_page_capture(&img, p, clips[c], 1.0, c == 1, &ms), 0);
    assert_int_equal(img->width, clips[c].w);
    assert_int_equal(img->height, clips[c].h);
    assert_true(ms > 0);
    long bad = 0;
    for (int y = 0; y < img->height; y++)
      for (int x = 0; x < img->width; x++) {
        int gx = clips[c].x + x, gy = clips[c].y + y;
        uint32_t want = ((uint32_t)(gx & 255) << 24) | ((uint32_t)(gy & 255) << 16) |
                        ((uint32_t)((gx ^ gy) & 255) << 8) | 255u;
        if (sc_image_pixel(img, x, y) != want) bad++;
      }
    if (bad) fprintf(stderr, "clip %zu: %ld pixels differ\n", c, bad);
    assert_int_equal(bad, 0);
    sc_image_free(img);
  }
  /* A quarter-scale capture is a quarter of the size. */
  sc_image *small = NULL;
  assert_int_equal(sc_page_capture(&small, p, (sc_rect){0, 0, 400, 200}, 0.25, 0, NULL), 0);
  assert_int_equal(small->width, 100);
  assert_int_equal(small->height, 50);
  sc_image_free(small);
  /* Outside the canvas is refused, naming the region. */
  assert_int_equal(sc_page_capture(&small, p, (sc_rect){1590, 0, 20, 10}, 1.0, 0, NULL),
                   SC_EINVAL);
  assert_non_null(strstr(sc_errmsg(), "1590,0 20x10"));
  sc_page_free(p);
}

/* Failing fast: a canvas that stays the wrong size fails once it has not
 * changed for a while after the load (not at the 30 s load deadline), with
 * the real size; an HTTP error page fails at once with its status. */
static void open_fails_fast_with_what_it_saw(void **st) {
  (void)st;
  sc_page_options o = SC_PAGE_OPTIONS_INIT;
  o.guest_w = 1280;
  o.guest_h = 720;
  o.load_timeout_ms = 30000;
  sc_page *p = NULL;
  double t0 = sc__now_ms();
  assert_int_equal(sc_page_open(&p, sc_test_b, page_url("pages/events.html"), &o), SC_EGEOMETRY);
  double dt = sc__now_ms() - t0;
  assert_non_null(strstr(sc_errmsg(), "backing 1600x900"));
  assert_non_null(strstr(sc_errmsg(), "want 1280x720"));
  if (!strstr(sc_errmsg(), "unchanged for")) fprintf(stderr, "open: %s\n", sc_errmsg());
  assert_non_null(strstr(sc_errmsg(), "unchanged for"));
  assert_true(dt < 15000); /* the settled rule, not the 30 s deadline */

  sc_test_reply r[] = {{404, "<html><body>gone</body></html>", 0, NULL},
                       {404, "<html><body>gone</body></html>", 0, NULL},
                       {404, "<html><body>gone</body></html>", 0, NULL}};
  sc_test_http h = sc_test_http_start(r, 3);
  char url[64];
  snprintf(url, sizeof url, "http://127.0.0.1:%d/app.html", h.port);
  t0 = sc__now_ms();
  int rc = sc_page_open(&p, sc_test_b, url, &o);
  dt = sc__now_ms() - t0;
  free(sc_test_http_stop(&h));
  assert_int_equal(rc, SC_EIO);
  assert_non_null(strstr(sc_errmsg(), "HTTP 404"));
  assert_non_null(strstr(sc_errmsg(), url));
  assert_true(dt < 10000);
}

static void wrong_canvas_size_is_refused(void **st) {
  (void)st;
  sc_page_options o = SC_PAGE_OPTIONS_INIT;
  o.guest_w = 1280;
  o.guest_h = 720;
  o.load_timeout_ms = 1500;
  sc_page *p = NULL;
  assert_int_equal(sc_page_open(&p, sc_test_b, page_url("pages/events.html"), &o), SC_EGEOMETRY);
  assert_null(p);
  assert_non_null(strstr(sc_errmsg(), "want 1280x720"));
  /* A viewport too small to show the whole canvas is refused too. */
  o.guest_w = 1600;
  o.guest_h = 900;
  o.viewport_w = 1200;
  o.viewport_h = 800;
  assert_int_equal(sc_page_open(&p, sc_test_b, page_url("pages/events.html"), &o), SC_EGEOMETRY);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(canvas_geometry_is_measured),
      cmocka_unit_test(click_lands_on_the_guest_pixel),
      cmocka_unit_test(bad_points_and_clips_are_refused),
      cmocka_unit_test(browser_freed_before_its_page),
      cmocka_unit_test(capture_at_rest_and_wait_change),
      cmocka_unit_test(a_wait_counts_its_quiet_once_every_must_region_was_painted),
      cmocka_unit_test(a_buffer_drawn_whole_is_logged_where_it_changed),
      cmocka_unit_test(async_waits_run_side_by_side),
      cmocka_unit_test(wheel_is_one_event_per_notch),
      cmocka_unit_test(keys_carry_code_keycode_location),
      cmocka_unit_test(capture_is_pixel_exact),
      cmocka_unit_test(wrong_canvas_size_is_refused),
      cmocka_unit_test(open_fails_fast_with_what_it_saw),
  };
  return cmocka_run_group_tests(tests, sc_test_browser_up, sc_test_browser_down);
}
