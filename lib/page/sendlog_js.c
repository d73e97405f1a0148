/* The page's HTTP sends, for the lost-input rule (run/input_seen.c): the
 * paint log's script (paintlog_js.c) counts what the page hands to an open
 * WebSocket or to a worker; a client may send its input by HTTP instead
 * (fetch, XMLHttpRequest.send, navigator.sendBeacon; a new EventSource
 * counts too, as the GET that opens it leaves the page). This script, run
 * after the paint log's before any script of the page's (open.c), keeps
 * the time and kind of the last 16 of them on the page clock the paint log
 * uses (performance.now) and answers __stepcheck_sends.list(): {ok, n, ev:
 * [[t, kind], ...]}; ok is 0 when a wrapper could not be installed (then
 * the rule cannot say that nothing left). A send from another realm (a
 * frame's own fetch) is not seen: a worker's is, as the page's
 * postMessage to it (the paint log's sends). */
#include "inputlog.h"

const char sc__sendlog_js[] =
    ";(function () {\n"
    "  \"use strict\";\n"
    "  var W = window, now = performance.now.bind(performance), DEF = Object.defineProperty,\n"
    "      FRZ = Object.freeze, APPLY = Function.prototype.call.bind(Function.prototype.apply),\n"
    "      PUSH = Function.prototype.call.bind(Array.prototype.push),\n"
    "      N = 16, ring = [], n = 0, ok = 1;\n"
    "  function note(k) { ring[n % N] = [now(), k]; n++; }\n"
    "  function wrap(o, name, k) {\n"
    "    var f;\n"
    "    try { f = o && o[name]; } catch (e) { ok = 0; return; }\n"
    "    if (typeof f !== \"function\") return;\n"
    "    var g = function () { note(k); return APPLY(f, this, arguments); };\n"
    "    try { DEF(o, name, { value: g, writable: true, configurable: true, enumerable: false }); }\n"
    "    catch (e) { ok = 0; }\n"
    "  }\n"
    "  wrap(W, \"fetch\", \"fetch\");\n"
    "  wrap(W.XMLHttpRequest && W.XMLHttpRequest.prototype, \"send\", \"XHR\");\n"
    "  wrap(W.Navigator && W.Navigator.prototype, \"sendBeacon\", \"sendBeacon\");\n"
    "  if (typeof W.EventSource === \"function\") {\n"
    "    var ES = W.EventSource;\n"
    "    try {\n"
    "      var E = function EventSource(u, o) { note(\"EventSource\"); return new ES(u, o); };\n"
    "      E.prototype = ES.prototype;\n"
    "      E.CONNECTING = 0; E.OPEN = 1; E.CLOSED = 2;\n"
    "      DEF(W, \"EventSource\", { value: E, writable: true, configurable: true, enumerable: false });\n"
    "    } catch (e) { ok = 0; }\n"
    "  }\n"
    "  function list() {\n"
    "    var o = [], i;\n"
    "    for (i = Math.max(0, n - N); i < n; i++) PUSH(o, [ring[i % N][0], ring[i % N][1]]);\n"
    "    return { ok: ok, n: n, ev: o };\n"
    "  }\n"
    "  try {\n"
    "    DEF(W, \"__stepcheck_sends\", { value: FRZ({ list: FRZ(list) }), writable: false,\n"
    "                                  configurable: false, enumerable: false });\n"
    "  } catch (e) {}\n"
    "})();\n";
