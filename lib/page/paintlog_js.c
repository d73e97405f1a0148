/* The paint log's page side (docs/design.md, "Paint log"): a script the
 * page runs before any script of its own (Page.addScriptToEvaluateOnNewDocument;
 * in a frame it only hands the frame's realm to the top's log, see
 * "Frames" below). It wraps every pixel-changing method of
 * CanvasRenderingContext2D and the canvas width/height setters, and
 * watches the document, so that every change of what a screenshot shows
 * is an entry: a sequence number, the page time and a dirty rectangle in
 * viewport CSS pixels. It keeps a counter, the last times and a ring of
 * SC_LOG_RING entries, and per canvas a ring of 16 boxes: memory per page
 * is bounded. Pixels are read only where a large rectangle is cleared and
 * refilled, and dropped at once. Nothing it keeps holds a canvas or an
 * element alive once the page dropped it (issue 39): what it knows of
 * them is in WeakMaps, the hosts and blind canvases it must find again
 * are WeakRefs swept at every answer, and a canvas drawn whole from
 * another keeps that one's version record, not the canvas.
 *
 * What is an entry (a conservative superset of what can change pixels):
 * - a 2D-context call that changes pixels on a canvas attached to the
 *   document: fillRect/clearRect/strokeRect and drawImage/putImageData by
 *   their destination rectangle (through the context's transform; with a
 *   shadow or filter set, or a transform with rotation, the whole canvas),
 *   every other one (fill, stroke, text, reset, …) the whole canvas; calls
 *   on the same canvas in one task are one entry (their union); a canvas
 *   drawn whole from another, or a large rectangle refilled in place, only
 *   where its pixels can have changed (docs/design.md, "Whole-buffer
 *   draws": each canvas's version record);
 * - a canvas's width or height set (the whole canvas);
 * - a DOM mutation anywhere (the whole viewport), except a style attribute
 *   whose only change is `cursor` (a pointer shape is never in a
 *   screenshot) and the document's <title>;
 * - scrolling, a resize, a CSS animation or transition starting or ending
 *   (the whole viewport), and every check while one runs.
 * What the log cannot see makes the page "blind" (the runner then proves
 * rest by screenshot pairs, never by the log): a canvas with a WebGL,
 * WebGPU or bitmaprenderer context, or handed to a worker
 * (transferControlToOffscreen), an iframe, frame, object, embed, video,
 * audio or marquee element, a shadow host (attachShadow, open or closed; a
 * declarative root found open, or handed to a script by setHTMLUnsafe,
 * parseHTMLUnsafe or ElementInternals), any of them over the guest; and,
 * wherever they are, a same-origin frame whose realm the log did not wrap,
 * a window the page opened, markup with shadow roots written into the
 * document (document.write). Not found: a closed declarative shadow root
 * in the page's own HTML that no script is handed (issue 35).
 *
 * What page script cannot change (issue 35). The log keeps nothing on the
 * page's objects: what it knows of a context or canvas is in WeakMaps of
 * its own (cs, cst), whose methods, like those of its arrays, come from a
 * prototype the page cannot reach. __stepcheck_log is a non-writable,
 * non-configurable property holding a frozen object. Arguments are
 * converted once, before the original sees them (a valueOf answers once).
 * wait's answer has no prototype (Object.prototype.then cannot make it a
 * thenable). Taken at the start and called as taken: Math, Number.isInteger, Promise,
 * String, parseFloat, Reflect.apply, Function.prototype.call/bind,
 * Object's freeze/defineProperty/getPrototypeOf/setPrototypeOf,
 * WeakMap/WeakSet/WeakRef and their methods, the Array methods the log
 * uses, setTimeout/clearTimeout/setInterval/clearInterval,
 * queueMicrotask, performance.now, getComputedStyle, atob,
 * MutationObserver (two, made at the start), and the accessors and
 * methods of Node, Element, HTMLElement, Document, DocumentFragment,
 * ShadowRoot, CharacterData, NodeList, MutationRecord, DOMRectReadOnly,
 * CSSStyleDeclaration, CanvasRenderingContext2D (canvas, getTransform,
 * lineWidth, globalAlpha, getImageData, the shadow/filter/composite
 * getters), ImageBitmapRenderingContext, DOMMatrixReadOnly,
 * HTMLCanvasElement, ImageData, the typed arrays, the drawImage sources'
 * sizes (image, video, ImageBitmap, OffscreenCanvas, VideoFrame),
 * Animation.playState, Event.type, ElementInternals.shadowRoot,
 * WebSocket.readyState and String.prototype's startsWith, endsWith,
 * substr, charCodeAt, toLowerCase, indexOf, trim. Not taken: what only
 * names an element for a person (the input record's given()), and the
 * answer's st list in wait (Array.prototype.push). A hook of ours that
 * throws anyway is an entry over the whole viewport and turns off the
 * "drawn only where it changed" shortcuts for good.
 *
 * Frames. The script runs first in every same-origin frame's document
 * (measured on Chromium 156: also in about:blank and srcdoc frames, as
 * soon as the page first touches them, and in sandboxed ones without
 * scripts), and there it calls the top's adopt(window): the top wraps
 * that realm's prototypes with its own wrappers (one state, one log), so
 * frame.contentWindow.CanvasRenderingContext2D.prototype.fillRect.call(
 * guestContext, ...) is an entry like any other. A frame's own canvases
 * are not entries (they paint inside the frame, which is blind over the
 * guest). A same-origin realm the log did not wrap makes the page blind
 * ("frame-realm"): when the page reaches one through contentWindow,
 * contentDocument or getSVGDocument (for good: it may keep what it took),
 * or while one is among the frames. A window the page opens gets no
 * script of ours (another target): it makes the page blind for good.
 *
 * The runner asks with one Runtime.evaluate that awaits a promise:
 * __stepcheck_log.wait(g, r, after, doc, quiet, window, need, timeout,
 * blindOk, must, mafter, mquiet), where g
 * is the guest and r the watched rectangle ([x, y, w, h], viewport CSS
 * px), after a sequence number (-1: the position when the call starts). It resolves with {seq, n, first, last, now,
 * timedOut, blind, lost, st, sl}: n entries after `after` touch r, the first and
 * last of them at page times first and last (-1 none); it resolves when
 *   n > 0 and no entry touched r for `quiet` ms since the last one and
 *   since the call (an answer to the last input may still be on its way), or
 *   n = 0, `need` is false and `window` ms passed since the call, or
 *   `timeout` ms passed since the call, or the page turned blind (unless
 *   blindOk: SC_DEBUG_LOG_TRUST, tests of the fallback only).
 * quiet = window = 0 and need false answer at once (the counter read
 * around a capture). must (null, or rectangles flat [x, y, w, h, ...]):
 * until an entry after `mafter` touched every one of them, the quiet time
 * is mquiet, not quiet (a step's regions that must change: an answer
 * drawn in pieces is not captured between them).
 * Every answer also carries st, the page times of the paint starts
 * (an entry over the guest after SC__LOG_START_GAP_MS with none) since the
 * answer before it, and sl, how many of those the ring lost: the
 * runner's shared-session detection (lib/run/shared.h) matches them
 * across users.
 *
 * It also records the inputs the page was given and what it sent after
 * them (a ring of SC__INPUT_RING trusted mousedown/mouseup/wheel/keydown
 * events, sends to open WebSockets and to workers), read by
 * __stepcheck_log.inputs(g) when a step fails (inputlog.c,
 * run/input_seen.c). */
#include "paintlog.h"

const char sc__paintlog_js[] =
    "(function(){'use strict';"
    /* A frame's realm: the top's log wraps it (adopt) before any script of
     * the frame, or of the page reaching into it, can run; a frame whose
     * top is of another origin cannot reach the top's canvases. */
    "if(window.top!==window){try{window.top.__stepcheck_log.adopt(window);}catch(e){}return;}"
    "if(window.__stepcheck_log)return;"
    /* The builtins the log calls, taken before any script of the page runs
     * (the header lists them): page script that replaces one later changes
     * nothing here. U(f)(o, a...) calls the original f on o. Arrays and maps
     * of the log's own get a prototype the page cannot reach (arr, wm, ws);
     * records are literals with every field they ever get (own properties:
     * Object.prototype's accessors are never consulted). */
    "var W0=window,D=document,OB=Object,GPD=OB.getOwnPropertyDescriptor,DEF=OB.defineProperty,GPO=OB.getPrototypeOf,"
    "SPO=OB.setPrototypeOf,FRZ=OB.freeze,RA=Reflect.apply,U=Function.prototype.bind.bind(Function.prototype.call);"
    "function GET(o,n){var d=o&&GPD(o,n);return d&&d.get?U(d.get):null;}"
    "function FN(o,n){var d=o&&GPD(o,n);return d&&typeof d.value==='function'?U(d.value):null;}"
    "var Math=FRZ({__proto__:null,max:W0.Math.max,min:W0.Math.min,abs:W0.Math.abs,floor:W0.Math.floor,"
    "ceil:W0.Math.ceil,sign:W0.Math.sign}),Number=FRZ({__proto__:null,isInteger:W0.Number.isInteger}),"
    "PRC=W0.Promise,String=W0.String,parseFloat=W0.parseFloat,Array=W0.Array,WeakRef=W0.WeakRef,"
    "Uint8Array=W0.Uint8Array,Uint32Array=W0.Uint32Array,performance=W0.performance,"
    "setTimeout=W0.setTimeout.bind(W0),clearTimeout=W0.clearTimeout.bind(W0),setInterval=W0.setInterval.bind(W0),"
    "clearInterval=W0.clearInterval.bind(W0),queueMicrotask=W0.queueMicrotask.bind(W0),"
    "getComputedStyle=W0.getComputedStyle.bind(W0),atob=W0.atob.bind(W0),"
    "AR=W0.Array.prototype,AP=FRZ({__proto__:null,push:AR.push,indexOf:AR.indexOf,splice:AR.splice,shift:AR.shift,"
    "sort:AR.sort,join:AR.join}),MQ=W0.WeakMap.prototype,MP=FRZ({__proto__:null,get:MQ.get,set:MQ.set,has:MQ.has,"
    "delete:MQ['delete']}),SQ=W0.WeakSet.prototype,SP=FRZ({__proto__:null,add:SQ.add,has:SQ.has}),"
    "WMC=W0.WeakMap,WSC=W0.WeakSet,DEREF=U(W0.WeakRef.prototype.deref);"
    /* a promise whose value has no prototype: Object.prototype.then set by
     * the page cannot make wait's answer a thenable it resolves */
    "function Promise(ex){return new PRC(function(ok,no){ex(function(v){if(v&&typeof v==='object')SPO(v,null);ok(v);},no);});}"
    "function arr(a){SPO(a,AP);return a;}"
    "function wm(){var m=new WMC();SPO(m,MP);return m;}"
    "function ws(){var m=new WSC();SPO(m,SP);return m;}"
    /* Lists of what the log must find again but not keep alive (shadow
     * hosts, blind canvases): WeakRefs, and the ones whose object is gone
     * dropped at every answer (live, before the list is walked) and when
     * the list has doubled since it was last swept (hold: amortised O(1)
     * a push, though a page that makes hosts by the thousand in one task
     * keeps them all alive until it ends). Issue 39: swept only when a
     * host was added, the list kept a WeakRef per host ever made (500k:
     * +11 MB, 5.7 ms an answer), and a page adding hosts while the old
     * ones still lived swept all of them at every add. */
    "function refs(){return {a:arr([]),lim:64};}"
    "function sweep(l){var a=l.a,k=0;for(var i=0;i<a.length;i++)if(DEREF(a[i]))a[k++]=a[i];a.length=k;"
    "l.lim=Math.max(64,2*k);}"
    "function hold(l,o){l.a.push(new WeakRef(o));if(l.a.length>l.lim)sweep(l);}"
    "function live(l){sweep(l);return l.a;}"
    "var NP=W0.Node.prototype,EP=W0.Element.prototype,HEP=W0.HTMLElement.prototype,DCP=W0.Document.prototype,"
    "isConn=GET(NP,'isConnected'),nType=GET(NP,'nodeType'),nName=GET(NP,'nodeName'),parentOf=GET(NP,'parentNode'),"
    "parentEl=GET(NP,'parentElement'),firstOf=GET(NP,'firstChild'),ownerOf=GET(NP,'ownerDocument'),"
    "cData=GET(W0.CharacterData.prototype,'data'),bcr=FN(EP,'getBoundingClientRect'),cliW=GET(EP,'clientWidth'),"
    "cliH=GET(EP,'clientHeight'),locName=GET(EP,'localName'),nsOf=GET(EP,'namespaceURI'),shadowOf=GET(EP,'shadowRoot'),"
    "getAttr=FN(EP,'getAttribute'),qsaE=FN(EP,'querySelectorAll'),qsaD=FN(DCP,'querySelectorAll'),"
    "qsaF=FN(W0.DocumentFragment.prototype,'querySelectorAll'),createEl=FN(DCP,'createElement'),"
    "getAnims=FN(DCP,'getAnimations'),playState=W0.Animation&&GET(W0.Animation.prototype,'playState'),"
    "viewOf=GET(DCP,'defaultView'),docOf=GET(W0,'document'),rootHost=GET(W0.ShadowRoot.prototype,'host'),"
    "elStyle=GET(HEP,'style'),editable=GET(HEP,'isContentEditable'),nlLen=GET(W0.NodeList.prototype,'length'),"
    "RQ=W0.DOMRectReadOnly.prototype,rL=GET(RQ,'left'),rT=GET(RQ,'top'),rR=GET(RQ,'right'),rB=GET(RQ,'bottom'),"
    "rW=GET(RQ,'width'),rH=GET(RQ,'height'),CQ=W0.CSSStyleDeclaration.prototype,pv=FN(CQ,'getPropertyValue'),"
    "pp=FN(CQ,'getPropertyPriority'),sLen=GET(CQ,'length'),sItem=FN(CQ,'item'),setCss=U(GPD(CQ,'cssText').set),"
    "RM=W0.MutationRecord.prototype,mType=GET(RM,'type'),mTarget=GET(RM,'target'),mAttr=GET(RM,'attributeName'),"
    "mOld=GET(RM,'oldValue'),mAdded=GET(RM,'addedNodes'),mRemoved=GET(RM,'removedNodes'),"
    "evType=GET(W0.Event.prototype,'type'),evTarget=GET(W0.Event.prototype,'target'),TS=W0.String.prototype,sStarts=FN(TS,'startsWith'),"
    "sEnds=FN(TS,'endsWith'),sSub=FN(TS,'substr'),sCode=FN(TS,'charCodeAt'),sLower=FN(TS,'toLowerCase'),"
    "sIdx=FN(TS,'indexOf'),sTrim=FN(TS,'trim'),TA=GPO(W0.Uint8Array.prototype),taBuf=GET(TA,'buffer'),"
    "taOff=GET(TA,'byteOffset'),taLen=GET(TA,'length'),IDQ=W0.ImageData.prototype,idW=GET(IDQ,'width'),"
    "idH=GET(IDQ,'height'),idData=GET(IDQ,'data'),LEN=GET(W0,'length');"
    "var ORIGIN=performance.timeOrigin,CAP=" SC__LOG_RING_STR ",ring=arr(new Array(CAP)),seq=0,now=performance.now.bind(performance),"
    "epoch=0,kick=false,pend=arr([]),waiters=arr([]),anims=0,blindReason=null,BIG=1e9,trust=true,"
    /* paint starts over the guest (the last wait's; before one, anywhere):
     * a ring of their times, how many ever, how many answers told */
    "G=null,ST=arr(new Array(CAP)),sn=0,told=0,etold=0,lastP=-BIG,GAP=" SC__LOG_START_GAP_STR ","
    "C2=window.CanvasRenderingContext2D,HC=window.HTMLCanvasElement,C2Q=C2&&C2.prototype,"
    "IBR=W0.ImageBitmapRenderingContext,cvOf=GET(C2Q,'canvas'),ibrOf=IBR&&GET(IBR.prototype,'canvas'),"
    "getTf=FN(C2Q,'getTransform'),lineW=GET(C2Q,'lineWidth'),gAlpha=GET(C2Q,'globalAlpha'),"
    "getID=FN(C2Q,'getImageData'),MXQ=W0.DOMMatrixReadOnly.prototype,mxA=GET(MXQ,'a'),mxB=GET(MXQ,'b'),"
    "mxC=GET(MXQ,'c'),mxD=GET(MXQ,'d'),mxE=GET(MXQ,'e'),mxF=GET(MXQ,'f'),cW=GET(HC&&HC.prototype,'width'),"
    "cH=GET(HC&&HC.prototype,'height');"
    /* The log's state about the page's objects lives here, never on them:
     * per context (cs) its canvas c, and T (a transform was set), X
     * (drawing reaches past its rectangle: shadow, filter, composite
     * operation), K (a clip was set), all sticky; per canvas (cst) d, the
     * task's pending rectangle, v, its version record, b, why it is blind,
     * h, what it last drew whole (see whole()). */
    "var CX=wm(),CV=wm(),NOC=FRZ({c:null,T:1,X:1,K:1});"
    "function canvasOf(g){try{return cvOf(g);}catch(e){}try{return ibrOf?ibrOf(g):null;}catch(e){}return null;}"
    "function cs(g){var k=CX.get(g);if(!k){var c=canvasOf(g);if(!c)return NOC;k={c:c,T:0,X:0,K:0};CX.set(g,k);}return k;}"
    "function cst(c){var s=CV.get(c);if(!s){s={d:null,v:null,b:null,h:null};CV.set(c,s);}return s;}"
    /* a canvas of the top document (a frame's canvases paint inside the
     * frame, which is blind over the guest) */
    "function mine(c){return isConn(c)&&ownerOf(c)===D;}"
    /* our own bookkeeping failed (page state it did not expect): the whole
     * viewport changed, and no canvas is drawn "only where it changed" again */
    "function broken(){trust=false;all('paint log error');}"
    "function hook(f,g,a,r){try{f(g,a,r);}catch(e){broken();}}"
    /* A 2D call only widens its canvas's pending rectangle (canvas px);
     * at the end of the task (a microtask) each canvas drawn on becomes
     * one entry, mapped into the viewport. Our own evaluations are tasks
     * of their own: they never see a task's calls before its entry. */
    "function flushSoon(){if(!kick){kick=true;queueMicrotask(flush);}}"
    "function put(x0,y0,x1,y1,t,k){var u=now();ring[seq%CAP]={t:t,u:u,x0:x0,y0:y0,x1:x1,y1:y1,k:k};seq++;"
    "if(!G||!(x1<=G[0]||x0>=G[0]+G[2]||y1<=G[1]||y0>=G[1]+G[3])){"
    "if(t-lastP>=GAP){ST[sn%CAP]=t;sn++;}if(u>lastP)lastP=u;}"
    "for(var i=0;i<waiters.length;i++)try{waiters[i].poke();}catch(e){}}"
    "function all(k){var s='?';try{s=typeof k==='string'?k:k&&evType(k)||'?';}catch(e){}put(-BIG,-BIG,BIG,BIG,now(),s);}"
    "function flush(){kick=false;epoch++;var p=pend;pend=arr([]);if(SN){vs(SN).snap=null;SN=null;}"
    "for(var i=0;i<p.length;i++){var c=p[i],d=cst(c).d;try{if(!mine(c))continue;"
    "var b=bcr(c),bw=rW(b),bh=rH(b),bl=rL(b),bt=rT(b),cw=cW(c),ch=cH(c);"
    "if(!(bw>0&&bh>0&&cw>0&&ch>0))continue;"
    "if(d.all||cliW(c)!==bw||cliH(c)!==bh){"
    "put(bl-1,bt-1,rR(b)+1,rB(b)+1,d.t,'canvas');continue;}"
    "var x0=Math.max(d.x0,0),y0=Math.max(d.y0,0),x1=Math.min(d.x1,cw),y1=Math.min(d.y1,ch);"
    "if(x1<=x0||y1<=y0)continue;var sx=bw/cw,sy=bh/ch;"
    "put(bl+x0*sx-1,bt+y0*sy-1,bl+x1*sx+1,bt+y1*sy+1,d.t,'canvas');}catch(e){broken();}}}"
    /* Where each canvas's pixels came from (docs/design.md, "Whole-buffer
     * draws"), for every canvas drawn on, attached or not: a version
     * record (vs(c)) with v, the changes ever (one per canvas per task,
     * sealed once read), a ring of the last VR changed boxes (canvas px,
     * [x0,y0,x1,y1]), bl (v when it was last blank: made, or resized), op
     * (a box holding every pixel whose alpha may be other than 0 or 255;
     * null: none), anc (when it was copied whole while blank: [id,
     * version, box of pixels that differ since] for the source and up to
     * VK-1 of its ancestors; at: v right after the copy). Beside it, in the
     * canvas's state (cst(c).h), the record of the canvas last drawn whole
     * onto it, that record's version, and v right after: while v is
     * unchanged, a new whole draw changes only where the two sources
     * differ, and where the last had translucent pixels. h holds that
     * source's record, never the source canvas, and a record holds no
     * other record: a canvas keeps no canvas alive, and a chain of back
     * buffers each drawn from the one before (Xpra's) keeps at most one
     * record per living canvas (issue 39: each buffer kept the one before
     * it, all of them, 5.5 MiB each for a 1600x900 window). A canvas
     * with a record is watched for its width and height attributes (set,
     * they clear it, as the setters do): sync() reads what changed before
     * a record is trusted, and such a canvas is taken as changed all over,
     * every pixel maybe translucent (late, it can only widen). */
    "var VR=16,VK=8,vid=0,ALL=[-BIG,-BIG,BIG,BIG],AMO=new W0.MutationObserver(resized),"
    "amoWatch=FN(W0.MutationObserver.prototype,'observe'),amoTake=FN(W0.MutationObserver.prototype,'takeRecords');"
    "function resized(ms){for(var i=0;i<ms.length;i++){var c=mTarget(ms[i]);if(CV.has(c)&&cst(c).v)lost(c);}}"
    "function sync(){try{resized(amoTake(AMO));}catch(e){broken();}}"
    "function vs(c){var s=cst(c);if(s.v)return s.v;amoWatch(AMO,c,{attributes:true,attributeFilter:['width','height']});"
    "return s.v={id:++vid,v:0,bl:0,ep:-1,open:false,"
    "R:arr(new Array(VR)),op:null,anc:null,at:0,n:0,snap:null};}"
    "function join(a,b){if(!a)return b;if(!b)return a;return [Math.min(a[0],b[0]),"
    "Math.min(a[1],b[1]),Math.max(a[2],b[2]),Math.max(a[3],b[3])];}"
    "function covers(a,x0,y0,x1,y1){return !!a&&a[0]<=x0&&a[1]<=y0&&a[2]>=x1&&a[3]>=y1;}"
    /* a change of c's pixels; safe: it gives no pixel an alpha other than
     * 0 or 255 */
    "function note(c,x0,y0,x1,y1,safe){var s=vs(c),e;s.n++;s.snap=null;"
    "if(s.open&&s.ep===epoch&&(e=s.R[(s.v-1)%VR])){if(x0<e[0])e[0]=x0;if(y0<e[1])e[1]=y0;"
    "if(x1>e[2])e[2]=x1;if(y1>e[3])e[3]=y1;}"
    "else if(s.open&&s.ep===epoch)s.R[(s.v-1)%VR]=[x0,y0,x1,y1];"
    "else{s.v++;s.R[(s.v-1)%VR]=[x0,y0,x1,y1];s.ep=epoch;s.open=true;}"
    "if(!safe&&!covers(s.op,x0,y0,x1,y1))s.op=join(s.op,[x0,y0,x1,y1]);}"
    "function seal(c){var s=vs(c);s.open=false;s.snap=null;return s.v;}"
    "function blank(c){var s=vs(c);note(c,-BIG,-BIG,BIG,BIG,true);s.open=false;s.bl=s.v;"
    "s.op=null;s.anc=null;cst(c).h=null;}"
    /* c cleared at some moment not known (an attribute set): all of it
     * changed, anything may be translucent, nothing is known of its origin */
    "function lost(c){var s=vs(c);note(c,-BIG,-BIG,BIG,BIG,false);s.open=false;s.anc=null;cst(c).h=null;}"
    /* the box where c's pixels at versions a and b may differ: null none,
     * false unknown (the ring lost them) */
    "function ch(s,a,b){if(a>b){var t=a;a=b;b=t;}if(a<s.v-VR)return false;var o=null;"
    "for(var k=a+1;k<=b;k++)o=join(o,s.R[(k-1)%VR]);return o;}"
    /* where the canvas of record sx at version x and that of record sy at
     * version y may differ (one record per canvas: the same record, the
     * same canvas) */
    "function diff(sx,x,sy,y){if(sx===sy)return ch(sx,x,y);"
    "if(!sy.anc)return false;var o=ch(sy,sy.at,y);if(o===false)return false;"
    "for(var i=0;i<sy.anc.length;i++){var a=sy.anc[i];if(a[0]!==sx.id)continue;"
    "var r=ch(sx,a[1],x);return r===false?false:join(join(o,a[2]),r);}return false;}"
    /* a canvas-pixel rectangle of context g (through its transform);
     * x undefined: the whole canvas. safe: see note. */
    "function mark(g,x,y,w,h,raw,safe){var k=cs(g),c=k.c;if(!c)return;"
    "var x0=-BIG,y0=-BIG,x1=BIG,y1=BIG;"
    "if(x!==undefined&&!k.X){if(w<0){x+=w;w=-w;}if(h<0){y+=h;h=-h;}"
    "if(!raw&&k.T){var m=getTf(g);if(mxB(m)!==0||mxC(m)!==0)x=NaN;else{"
    "var ma=mxA(m),md=mxD(m),me=mxE(m),mf=mxF(m),xa=ma*x+me,xb=ma*(x+w)+me,ya=md*y+mf,yb=md*(y+h)+mf;"
    "x=Math.min(xa,xb);w=Math.abs(xb-xa);y=Math.min(ya,yb);h=Math.abs(yb-ya);}}"
    "if(x===x&&y===y&&w===w&&h===h){x0=x;y0=y;x1=x+w;y1=y+h;}else safe=false;}else safe=false;"
    "note(c,x0,y0,x1,y1,safe);var t=cst(c),d=t.d;"
    "if(!d)d=t.d={ep:-1,t:0,all:false,x0:0,y0:0,x1:0,y1:0};"
    "if(d.ep!==epoch){d.ep=epoch;d.t=now();d.all=false;d.x0=d.y0=Infinity;d.x1=d.y1=-Infinity;"
    "pend.push(c);flushSoon();}"
    "if(d.all)return;if(x0===-BIG&&x1===BIG){d.all=true;return;}"
    "if(x0<d.x0)d.x0=x0;if(y0<d.y0)d.y0=y0;if(x1>d.x1)d.x1=x1;if(y1>d.y1)d.y1=y1;}"
    /* a draw that puts the source's pixels unchanged where they land: no
     * transform but a whole-pixel move, alpha 1, source-over, no clip,
     * shadow or filter */
    "function plain(g){var k=cs(g);if(k.X||k.K||gAlpha(g)!==1)return false;if(!k.T)return true;"
    "var m=getTf(g);return mxA(m)===1&&mxB(m)===0&&mxC(m)===0&&mxD(m)===1&&mxE(m)===0&&mxF(m)===0;}"
    /* an image whose every pixel has alpha 0 or 255: a JPEG, or a PNG of
     * colour type 0 or 2 (a tRNS chunk there makes one colour fully
     * transparent), by its data: URL's header */
    "var imgSrc=W0.HTMLImageElement&&GET(W0.HTMLImageElement.prototype,'currentSrc');"
    "function binaryImage(i){var u=imgSrc(i);if(typeof u!=='string')return false;"
    "if(sStarts(u,'data:image/jpeg;'))return true;if(!sStarts(u,'data:image/png;base64,'))return false;"
    "var b;try{b=atob(sSub(u,22,36));}catch(e){return false;}"
    "return b.length>=26&&sSub(b,12,4)==='IHDR'&&(sCode(b,25)===0||sCode(b,25)===2);}"
    /* A back buffer refilled in place (Xpra's client: clearRect then
     * putImageData of the same rectangle, often the whole window though
     * only part of it changed): the clear of a large rectangle on a canvas
     * not attached keeps what it cleared; if the very next change of that
     * canvas puts an image on exactly that rectangle, the change is only
     * where the new pixels differ from the old ones (a pixel whose new
     * alpha is neither 0 nor 255 counts as changed: its stored value is
     * rounded). Read once, compared once, dropped at once: at the next
     * change of that canvas, when it is read, when another canvas keeps a
     * clear, or at the end of the task, whichever comes first. */
    "var SN=null,SNAP=65536,LE=new Uint8Array(new Uint32Array([1]).buffer)[0]===1;"
    "function snap(g,x,y,w,h){var k=cs(g),c=k.c;"
    "if(!c||!trust||isConn(c)||k.T||!(w*h>=SNAP)||!Number.isInteger(x)||!Number.isInteger(y)||"
    "!Number.isInteger(w)||!Number.isInteger(h))return null;var s=vs(c),o=s.open&&s.ep===epoch,e=o&&s.R[(s.v-1)%VR],im;"
    "try{im=getID(g,x,y,w,h);}catch(err){return null;}"
    "return {x:x,y:y,w:w,h:h,im:im,open:o,before:e?[e[0],e[1],e[2],e[3]]:null,n:-1};}"
    "function u32(d){var a=idData(d);return new Uint32Array(taBuf(a),taOff(a),idW(d)*idH(d));}"
    "function changed(o,d,x,y){var w=idW(d),h=idH(d),a=u32(o),"
    "b=u32(d),x0=w,x1=-1,y0=-1,y1=-1,p=false;"
    "for(var j=0;j<h;j++){var r=j*w,f=-1,l=-1;for(var i=0;i<w;i++){var n=b[r+i],al=LE?n>>>24:n&255;"
    "if(al!==0&&al!==255)p=true;else if(n===a[r+i])continue;if(f<0)f=i;l=i;}"
    "if(f>=0){if(y0<0)y0=j;y1=j;if(f<x0)x0=f;if(l>x1)x1=l;}}"
    "return y0<0?null:{b:[x+x0,y+y0,x+x1+1,y+y1+1],p:p};}"
    /* the clear kept in q refilled on c with the pixels im (at x, y) */
    "function refill(c,q,im,x,y){var s=vs(c),D=changed(q.im,im,x,y);s.n++;"
    "s.R[(s.v-1)%VR]=q.open?join(q.before,D&&D.b):D&&D.b;if(D&&D.p)s.op=join(s.op,D.b);}"
    /* the clear kept on c, if the change being made is the very next one */
    "function kept(c){var s=cst(c).v,q=s&&s.snap;if(!q)return null;s.snap=null;return q.n===s.n?q:null;}"
    "function binaryData(d){var a=d&&idData(d);if(!a)return false;"
    "for(var k=3,n=taLen(a);k<n;k+=4){var q=a[k];if(q!==0&&q!==255)return false;}return true;}"
    /* canvas S drawn whole at (0, 0) onto canvas c of its size, plainly */
    "function whole(g,c,S){var s=vs(c),t=vs(S),v=seal(S),w=cW(c),h=cH(c),r=false,kc=cst(c),l=kc.h;"
    "if(s.v===s.bl){mark(g,0,0,w,h,1,true);s.op=t.op;"
    "var o=ch(t,t.at,v),A=arr([[t.id,v,null]]);"
    "if(t.anc&&o!==false)for(var k=0;k<t.anc.length&&A.length<VK;k++){var e=t.anc[k];"
    "A.push([e[0],e[1],join(e[2],o)]);}"
    "s.anc=A;s.at=seal(c);kc.h=[t,v,s.at];return;}"
    "if(l&&l[2]===s.v){r=diff(l[0],l[1],t,v);if(r!==false)r=join(join(r,l[0].op),t.op);}"
    "if(r===false)mark(g,0,0,w,h,1,!t.op);"
    "else if(r){var x0=Math.max(0,Math.floor(r[0])),y0=Math.max(0,Math.floor(r[1])),"
    "x1=Math.min(w,Math.ceil(r[2])),y1=Math.min(h,Math.ceil(r[3]));"
    "if(x1>x0&&y1>y0)mark(g,x0,y0,x1-x0,y1-y0,1,!t.op);}"
    "kc.h=[t,v,seal(c)];}"
    /* a drawImage source's size (its own, by the getter of its kind: a
     * property the page defined on it is never read); -1: none known */
    "var DIMS=arr([cW,cH]),CVK=0,IMGK=-1;"
    "[['HTMLImageElement','naturalWidth','naturalHeight'],['HTMLVideoElement','videoWidth','videoHeight'],"
    "['ImageBitmap','width','height'],['OffscreenCanvas','width','height'],"
    "['VideoFrame','displayWidth','displayHeight']].forEach(function(k){var C=W0[k[0]],a=C&&GET(C.prototype,k[1]),"
    "b=C&&GET(C.prototype,k[2]);if(!a||!b)return;if(k[0]==='HTMLImageElement')IMGK=DIMS.length;DIMS.push(a,b);});"
    "function kind(i){for(var k=0;k<DIMS.length;k+=2){try{DIMS[k](i);return k;}catch(e){}}return -1;}"
    "function drew(g,a){var i=a[0],n=a.length,c=cs(g).c,safe=false;if(!c)return;sync();"
    "var q=kept(c),t=kind(i),iw=t<0?NaN:+DIMS[t](i),ih=t<0?NaN:+DIMS[t+1](i),pl=n===3&&plain(g);"
    "if(trust&&q&&pl&&a[1]===q.x&&a[2]===q.y&&iw===q.w&&ih===q.h){var im=null;try{im=getID(g,q.x,q.y,q.w,q.h);}catch(err){}"
    "if(im){refill(c,q,im,q.x,q.y);return;}}"
    "var cv=t===CVK&&!cst(i).b;"
    "if(trust&&pl&&cv&&i!==c&&a[1]===0&&a[2]===0&&iw===cW(c)&&ih===cH(c)){"
    "whole(g,c,i);return;}"
    "if(pl&&Number.isInteger(a[1])&&Number.isInteger(a[2]))"
    "safe=cv?!vs(i).op:t===IMGK&&binaryImage(i);"
    "if(n>=9)mark(g,a[5],a[6],a[7],a[8]);"
    "else if(n>=5)mark(g,a[1],a[2],a[3],a[4]);"
    "else if(!(iw>0&&ih>0))mark(g);"
    "else mark(g,a[1],a[2],iw,ih,0,safe);}"
    /* o[n] wrapped: f(this, the arguments, the result) after the original
     * (conv first turns the arguments into what the original takes, once:
     * a page's valueOf is not asked twice) */
    "function nums(a){for(var k=1;k<a.length;k++)a[k]=+a[k];}"
    "function wrap(o,n,f,conv){var d=o&&GPD(o,n);"
    "if(!d||typeof d.value!=='function')return;var orig=d.value;"
    "o[n]=function(...a){if(conv)conv(a);var r=RA(orig,this,a);hook(f,this,a,r);return r;};}"
    "function setter(o,n,f){var d=o&&GPD(o,n);"
    "if(!d||!d.set)return;var s=U(d.set);"
    "DEF(o,n,{configurable:true,enumerable:d.enumerable,get:d.get,"
    "set:function(v){s(this,v);hook(f,this,v);}});}"
    /* a getter wrapped: f(this, its value) */
    "function getter(o,n,f){var d=o&&GPD(o,n);"
    "if(!d||!d.get)return;var g=U(d.get);"
    "DEF(o,n,{configurable:true,enumerable:d.enumerable,set:d.set,"
    "get:function(){var v=g(this);hook(f,this,v);return v;}});}"
    /* 2D-context methods that change no pixel (the rest, known or not, are
     * the whole canvas) */
    "var NOPIX=FRZ({__proto__:null,constructor:1,save:1,getTransform:1,createLinearGradient:1,"
    "createRadialGradient:1,createConicGradient:1,createPattern:1,createImageData:1,getImageData:1,beginPath:1,"
    "closePath:1,moveTo:1,lineTo:1,quadraticCurveTo:1,bezierCurveTo:1,arcTo:1,rect:1,roundRect:1,arc:1,"
    "ellipse:1,isPointInPath:1,isPointInStroke:1,measureText:1,setLineDash:1,getLineDash:1,"
    "getContextAttributes:1,isContextLost:1,scrollPathIntoView:1,fillRect:1,clearRect:1,strokeRect:1,"
    "drawImage:1,putImageData:1,clip:1,setTransform:1,transform:1,translate:1,scale:1,rotate:1,restore:1,"
    "resetTransform:1});"
    /* The wrappers, put on the prototypes of a realm: the top's at once,
     * each same-origin frame's when its document starts (adopt). One log,
     * one state: a frame's own drawing on the top's canvas is logged as
     * the top's own. */
    "function install(W){var C=W.CanvasRenderingContext2D,H=W.HTMLCanvasElement;"
    "if(C){var P=C.prototype;"
    /* the hot ones (thousands a frame in some clients): four arguments,
     * no arguments object */
    "['fillRect','clearRect','strokeRect'].forEach(function(n){"
    "var d=GPD(P,n);if(!d||typeof d.value!=='function')return;"
    "var f=d.value,o=U(f),k=n==='strokeRect',c=n==='clearRect';P[n]=function(x,y,w,h){"
    "if(arguments.length<4)return RA(f,this,arguments);x=+x;y=+y;w=+w;h=+h;"
    "var q=c?snap(this,x,y,w,h):null;o(this,x,y,w,h);try{"
    "if(k){var l=(+lineW(this)||1)/2+1;mark(this,x-l,y-l,w+2*l,h+2*l);}"
    "else mark(this,x,y,w,h,0,c&&!cs(this).T);if(q){var v=cs(this).c,s=vs(v);q.n=s.n;"
    "if(SN&&SN!==v)vs(SN).snap=null;SN=v;s.snap=q;}}catch(e){broken();}};});"
    "wrap(P,'drawImage',drew,nums);"
    "wrap(P,'putImageData',function(g,a){var d=a[0],x=a[1],y=a[2],c=cs(g).c;"
    "if(!c)return;sync();var s=vs(c),w=+idW(d),h=+idH(d),q=kept(c);"
    "if(a.length>=7){x+=a[3];y+=a[4];w=a[5];h=a[6];}"
    "else if(trust&&q&&q.x===x&&q.y===y&&q.w===w&&q.h===h&&taLen(idData(d))===w*h*4){"
    "refill(c,q,d,x,y);return;}"
    "mark(g,x,y,w,h,1,covers(s.op,x,y,x+w,y+h)||binaryData(d));},nums);"
    "wrap(P,'clip',function(g){cs(g).K=1;});"
    "['setTransform','transform','translate','scale','rotate','restore','resetTransform']"
    ".forEach(function(n){wrap(P,n,function(g){cs(g).T=1;});});"
    /* fill, stroke, text, reset, drawFocusIfNeeded, and what a later
     * Chromium adds */
    "OB.getOwnPropertyNames(P).forEach(function(n){var d=GPD(P,n);"
    "if(!NOPIX[n]&&d&&typeof d.value==='function')wrap(P,n,function(g){mark(g);});});"
    /* drawing that reaches past its rectangle: sticky, whole canvas from then on */
    "[['shadowBlur',0],['shadowOffsetX',0],['shadowOffsetY',0],['filter','none'],"
    "['globalCompositeOperation','source-over']].forEach(function(d){var r=GET(P,d[0]);"
    "setter(P,d[0],function(g){if(r(g)!==d[1])cs(g).X=1;});});}"
    "if(W.ImageBitmapRenderingContext)wrap(W.ImageBitmapRenderingContext.prototype,"
    "'transferFromImageBitmap',function(g){mark(g);});"
    "if(H){var Q=H.prototype;"
    "['width','height'].forEach(function(n){setter(Q,n,function(c){sync();blank(c);if(mine(c))all('canvas '+n);});});"
    "wrap(Q,'getContext',function(c,a){var k=a[0];"
    "if(k!=='2d')blindAs(c,'context:'+k);},function(a){if(a.length)a[0]=String(a[0]);});"
    "wrap(Q,'transferControlToOffscreen',function(c){blindAs(c,'offscreen');});}"
    /* shadow roots, however made (their changes are not observed) */
    "var E=W.Element&&W.Element.prototype;"
    "wrap(E,'attachShadow',function(e,a,r){addHost(e,r);});"
    "wrap(E,'setHTMLUnsafe',function(e,a){if(dsd(a))maybeHosts(e,qsaE(e,'*'));});"
    "wrap(W.ShadowRoot&&W.ShadowRoot.prototype,'setHTMLUnsafe',function(r,a){var h=rootHost(r);addHost(h,r);"
    "if(dsd(a))maybeHosts(h,qsaF(r,'*'));});"
    "wrap(W.Document,'parseHTMLUnsafe',function(x,a,d){if(dsd(a))maybeHosts(null,qsaD(d,'*'));});"
    "['write','writeln'].forEach(function(n){wrap(W.Document&&W.Document.prototype,n,function(x,a){"
    "if(dsd(a))blindReason='shadow-unknown';});});"
    "wrap(W.HTMLElement&&W.HTMLElement.prototype,'attachInternals',function(e,a,i){var r=i&&intRoot(i);if(r)addHost(e,r);});"
    "getter(W.ElementInternals&&W.ElementInternals.prototype,'shadowRoot',function(i,r){if(r)addHost(rootHost(r),r);});"
    /* other realms: a frame's is checked when the page reaches it, a
     * window opened is not seen (its own scripts run unwrapped) */
    "['HTMLIFrameElement','HTMLFrameElement','HTMLObjectElement'].forEach(function(n){var Q=W[n]&&W[n].prototype;"
    "getter(Q,'contentWindow',function(e,w){if(w)realmSeen(w);});"
    "getter(Q,'contentDocument',function(e,d){if(d)realmSeen(viewOf(d));});"
    "wrap(Q,'getSVGDocument',function(e,a,d){if(d)realmSeen(viewOf(d));});});"
    "wrap(W.HTMLEmbedElement&&W.HTMLEmbedElement.prototype,'getSVGDocument',function(e,a,d){if(d)realmSeen(viewOf(d));});"
    "wrap(W,'open',function(x,a,w){if(w)blindReason='popup';});"
    "wrap(W.Document&&W.Document.prototype,'open',function(x,a,w){if(a.length>=3&&w)blindReason='popup';});"
    /* the input record's sends (see below) */
    "if(W.WebSocket)wrap(W.WebSocket.prototype,'send',function(w){if(wsState(w)!==1)return;"
    "if(!sockSeen.has(w)){sockSeen.add(w);socks.push(new WeakRef(w));if(socks.length>SOCKS)socks.shift();}"
    "sent();});"
    "if(W.Worker)wrap(W.Worker.prototype,'postMessage',sent);}"
    /* Realms: adopt(w) wraps a same-origin frame's (called by the script
     * in that frame, first thing in its document); AD holds every realm
     * wrapped, by its Window.prototype (a window's prototype cannot be
     * changed). A same-origin realm that is not in AD can draw on the
     * guest unseen: realmSeen makes the page blind for good (the page
     * reached one: it may keep its prototypes), blind() walks the frames. */
    "var AD=ws(),TRIED=ws(),intRoot=W0.ElementInternals&&GET(W0.ElementInternals.prototype,'shadowRoot'),"
    "wsState=W0.WebSocket&&GET(W0.WebSocket.prototype,'readyState');"
    "function realmOf(w){try{return GPO(w);}catch(e){return null;}}"
    "function adopt(w){var k;try{docOf(w);k=GPO(w);}catch(e){return;}if(!k||TRIED.has(k))return;TRIED.add(k);"
    "try{install(w);AD.add(k);}catch(e){}}"
    "function realmSeen(w){var k=w&&realmOf(w);if(k&&!AD.has(k))blindReason='frame-realm';}"
    "function realmsOk(w,depth){var n;try{n=LEN(w);}catch(e){try{n=w.length;}catch(e2){return false;}}"
    "for(var i=0;i<n;i++){var f;try{f=w[i];}catch(e){return false;}if(!f)continue;var k=realmOf(f);"
    "if(k&&!AD.has(k))return false;if(depth<8&&!realmsOk(f,depth+1))return false;}return true;}"
    /* the document: everything but a cursor and the title */
    "var scratch=null,scratch2=null;"
    "function styleKey(s){var o=arr([]),n=sLen(s);for(var i=0;i<n;i++){var k=sItem(s,i);"
    "if(k!=='cursor')o.push(k+':'+pv(s,k)+pp(s,k));}"
    "return o.sort().join(';');}"
    "function onlyCursor(m,t,ty){if(ty!=='attributes'||mAttr(m)!=='style'||nType(t)!==1)return false;"
    "if(!scratch){scratch=createEl(D,'i');scratch2=createEl(D,'i');}var a=elStyle(scratch),b=elStyle(scratch2);"
    "setCss(a,mOld(m)||'');setCss(b,getAttr(t,'style')||'');return styleKey(a)===styleKey(b);}"
    /* in the document's <title>, while it is not displayed */
    "function inTitle(n){for(;n;n=parentOf(n))if(nName(n)==='TITLE')return pv(getComputedStyle(n),'display')==='none';return false;}"
    /* An element that paints nothing and moves nothing: hidden, or out of
     * flow, childless and without background, border, shadow, outline,
     * filter or generated content (noVNC's mouse-capture div, shown on
     * every button press). Changing it, or adding it, changes no pixel
     * when it paints nothing before and after (inert: as last seen).
     * Never one that paints content of its own (selfPaint: replaced and
     * form elements, SVG, a shadow host), nor a list item (its marker) or
     * one being edited (its caret). */
    "var inert=wm(),SVGNS='http://www.w3.org/2000/svg',HTMLNS='http://www.w3.org/1999/xhtml',"
    "SELF=FRZ({__proto__:null,img:1,input:1,textarea:1,select:1,button:1,option:1,optgroup:1,video:1,audio:1,"
    "canvas:1,svg:1,object:1,embed:1,iframe:1,frame:1,fencedframe:1,picture:1,source:1,progress:1,meter:1,"
    "marquee:1,details:1,summary:1});"
    "function selfPaint(e){var n=nsOf(e);if(n===SVGNS||isHost(e))return true;return n===HTMLNS&&SELF[locName(e)]===1;}"
    "function none(v){return v==='none'||v==='normal'||v===''||v===undefined;}"
    "function clear(v){return v==='transparent'||sEnds(v,', 0)');}"
    "function paintsNothing(e){if(!e||nType(e)!==1||!isConn(e)||selfPaint(e))return false;"
    "var c=getComputedStyle(e),p=pv(c,'position'),s=pv(c,'display');if(s==='none')return true;"
    "if(firstOf(e)||s==='list-item'||(p!=='fixed'&&p!=='absolute'))return false;"
    "if(!none(pv(c,'background-image'))||!clear(pv(c,'background-color'))||!none(pv(c,'box-shadow'))||"
    "!none(pv(c,'outline-style'))||!none(pv(c,'filter'))||!none(pv(c,'backdrop-filter'))||!none(pv(c,'content')))return false;"
    "if(parseFloat(pv(c,'border-top-width'))||parseFloat(pv(c,'border-right-width'))||"
    "parseFloat(pv(c,'border-bottom-width'))||parseFloat(pv(c,'border-left-width')))return false;"
    "try{if(editable(e))return false;}catch(err){}"
    "return none(pv(getComputedStyle(e,'::before'),'content'))&&none(pv(getComputedStyle(e,'::after'),'content'));}"
    "function trimmed(n){return sTrim(cData(n));}"
    "function harmless(m){var t=mTarget(m),ty=mType(m),i,n,l,x;if(onlyCursor(m,t,ty)||inTitle(t))return true;"
    "if(ty==='attributes'){var was=inert.get(t)===true,is=paintsNothing(t);"
    "inert.set(t,is);return was&&is;}"
    "if(ty!=='childList')return false;"
    "for(l=mRemoved(m),i=0,n=nlLen(l);i<n;i++){x=l[i];"
    "if(nType(x)===1?inert.get(x)!==true:nType(x)===3&&trimmed(x))return false;}"
    "for(l=mAdded(m),i=0,n=nlLen(l);i<n;i++){x=l[i];"
    "if(nType(x)===1){if(!paintsNothing(x))return false;inert.set(x,true);}"
    "else if(nType(x)===3&&trimmed(x))return false;}"
    "return true;}"
    /* Where a mutation can change pixels: the boxes, before and after, of
     * the element it touched and of its subtree, of removed and added
     * elements, and of every element whose box moved (layout). Boxes are
     * learnt at the first wait (documents of up to BOXES elements; beyond,
     * or before, every mutation is the whole viewport). */
    "var boxes=wm(),known=false,BOXES=4000,hosts=refs(),hostSet=ws(),roots=wm();"
    "function rectOf(e){var b=bcr(e),w=rW(b),h=rH(b);"
    "return w>0&&h>0?[rL(b),rT(b),rR(b),rB(b)]:null;}"
    "function same(a,b){return a===b||!!a&&!!b&&a[0]===b[0]&&a[1]===b[1]&&a[2]===b[2]&&a[3]===b[3];}"
    "function grow(d,r){if(!r)return;if(r[0]<d[0])d[0]=r[0];if(r[1]<d[1])d[1]=r[1];"
    "if(r[2]>d[2])d[2]=r[2];if(r[3]>d[3])d[3]=r[3];}"
    "function learn(){var q=qsaD(D,'*'),n=nlLen(q);if(n>BOXES)return false;"
    "for(var i=0;i<n;i++){var x=q[i];boxes.set(x,rectOf(x));hostCheck(x);}return true;}"
    /* old and new boxes of e and its subtree into d; false: one unknown */
    "function both(d,e,gone){var q=arr([e]),s=nType(e)===1?qsaE(e,'*'):null,n=s?nlLen(s):0;"
    "if(n>BOXES)return false;for(var i=0;i<n;i++)q.push(s[i]);"
    "for(i=0;i<q.length;i++){var x=q[i];if(!boxes.has(x)&&!gone&&x!==e&&!isConn(x))continue;"
    "if(gone){if(!boxes.has(x))return false;grow(d,boxes.get(x));boxes['delete'](x);continue;}"
    "if(boxes.has(x))grow(d,boxes.get(x));var r=rectOf(x);grow(d,r);boxes.set(x,r);}return true;}"
    "function where(ms,hs){if(!known)return null;var d=[Infinity,Infinity,-Infinity,-Infinity],i,j,l,n;"
    "for(i=0;i<ms.length;i++){var m=ms[i];if(hs[i])continue;"
    "var t=mTarget(m),e=nType(t)===1?t:parentEl(t);"
    "if(!e||(!boxes.has(e)&&isConn(e)))return null;if(!both(d,e,false))return null;"
    "if(mType(m)==='childList'){for(l=mRemoved(m),j=0,n=nlLen(l);j<n;j++)if(nType(l[j])===1&&"
    "!both(d,l[j],true))return null;"
    "for(l=mAdded(m),j=0,n=nlLen(l);j<n;j++)if(nType(l[j])===1)both(d,l[j],false);}}"
    "var q=qsaD(D,'*');n=nlLen(q);if(n>BOXES)return null;"
    "for(i=0;i<n;i++){var x=q[i],o=boxes.get(x),r=rectOf(x);"
    "if(o===undefined)return null;"
    "if(!same(o,r)){grow(d,o);grow(d,r);boxes.set(x,r);}}"
    "return d;}"
    /* what a mutation tells besides pixels: shadow roots that came with
     * the elements added */
    "function seen(m,t,ty){if(ty!=='childList')return;for(var l=mAdded(m),i=0,n=nlLen(l);i<n;i++){var x=l[i];if(nType(x)!==1)continue;"
    "hostCheck(x);for(var q=qsaE(x,'*'),j=0,k=nlLen(q);j<k;j++)hostCheck(q[j]);}}"
    "new W0.MutationObserver(function(ms){try{var hs=arr(new Array(ms.length)),m=null;"
    "for(var i=0;i<ms.length;i++){var r=ms[i],t=mTarget(r),ty=mType(r);seen(r,t,ty);hs[i]=harmless(r);if(!hs[i]&&!m)m=r;}"
    "var d=where(ms,hs);"
    "if(!m)return;var k='mutation '+mType(m)+' '+nName(mTarget(m))+(mAttr(m)?' '+mAttr(m):'');"
    "if(!d){all(k);return;}"
    "if(d[2]>d[0]&&d[3]>d[1])put(d[0]-1,d[1]-1,d[2]+1,d[3]+1,now(),k);}catch(e){broken();}})"
    ".observe(document,{subtree:true,childList:true,attributes:true,characterData:true,"
    "attributeOldValue:true});"
    /* Shadow hosts (a shadow tree's mutations are not observed): made by
     * attachShadow (open or closed), declared in HTML (open ones are found
     * among the elements added; a closed one only when a script is handed
     * it, by setHTMLUnsafe, parseHTMLUnsafe or ElementInternals), and
     * where markup that declares one was parsed, every element of it may
     * be one (maybeHosts). */
    "function isHost(e){return hostSet.has(e)||!!shadowOf(e);}"
    "function addHost(e,r){if(!e)return;if(!hostSet.has(e)){hostSet.add(e);hold(hosts,e);}if(r)roots.set(e,r);}"
    "function hostCheck(e){var r=shadowOf(e);if(r)addHost(e,r);}"
    "function dsd(a){for(var i=0;i<a.length;i++){var h=a[i];if(typeof h!=='string'||sIdx(sLower(h),'shadowrootmode')>=0)return true;}return false;}"
    "function maybeHosts(e,q){var n=nlLen(q);if(n>BOXES){blindReason='shadow-unknown';return;}addHost(e,null);"
    "for(var i=0;i<n;i++)addHost(q[i],null);}"
    "addEventListener('scroll',all,true);addEventListener('resize',all,true);"
    /* an element's image or document arriving (an <img> whose new src
     * came: no mutation then), or failing (a broken-image icon) */
    "['load','error'].forEach(function(n){addEventListener(n,function(e){var t=evTarget(e);"
    "try{if(t&&t!==D&&t!==W0&&nType(t)===1&&isConn(t))all(n+' '+nName(t));}catch(err){all(n);}},true);});"
    /* animations: only the browser's own events count down */
    "['animationstart','transitionrun'].forEach(function(n){addEventListener(n,function(e){"
    "if(e.isTrusted)anims++;all(n);},true);});"
    "['animationend','animationcancel','transitionend','transitioncancel'].forEach(function(n){"
    "addEventListener(n,function(e){if(e.isTrusted&&anims>0)anims--;all(n);},true);});"
    "function over(e,g){var b=bcr(e),w=rW(b),h=rH(b);"
    "return w>0&&h>0&&rR(b)>g[0]&&rL(b)<g[0]+g[2]&&rB(b)>g[1]&&rT(b)<g[1]+g[3];}"
    /* a host, or anything of its shadow tree that the log knows, over g */
    "function hostOver(h,g){if(over(h,g))return true;var r=roots.get(h);if(!r)return false;"
    "var q=qsaF(r,'*'),n=nlLen(q);if(n>BOXES)return true;for(var i=0;i<n;i++)if(over(q[i],g))return true;return false;}"
    /* canvases the log cannot see (a context not 2D, or handed to a worker),
     * wherever they are (a shadow tree too) */
    "var blinds=refs();"
    "function blindAs(c,why){var s=cst(c);if(!s.b)hold(blinds,c);s.b=why;}"
    "function blind(g){if(blindReason)return blindReason;var i,b=live(blinds),h=live(hosts);"
    "for(i=0;i<b.length;i++){var c=DEREF(b[i]);if(c&&isConn(c)&&over(c,g))return cst(c).b;}"
    "var q=qsaD(D,'iframe,frame,object,embed,video,audio,marquee');"
    "for(i=0;i<nlLen(q);i++){var e=q[i];if(over(e,g))return locName(e);}"
    "for(i=0;i<h.length;i++){var e=DEREF(h[i]);if(e&&isConn(e)&&hostOver(e,g))return 'shadow';}"
    /* a same-origin frame's realm not wrapped: it can draw anywhere */
    "if(!realmsOk(W0,0))return 'frame-realm';"
    "return null;}"
    "function running(){if(anims>0)return true;if(!getAnims)return false;"
    "var a=getAnims(D);for(var i=0;i<a.length;i++)"
    "if(playState(a[i])==='running')return true;return false;}"
    /* entries after `after` touching r */
    "function scan(r,after,doc){var x0=r[0],y0=r[1],x1=r[0]+r[2],y1=r[1]+r[3],"
    "o={n:0,first:-1,last:-1,lost:false},from=after;"
    /* another document than the one `after` counts in (a reload): all is new */
    "if(doc!==ORIGIN||from>seq)from=0,o.lost=doc!==0;"
    "if(seq-from>CAP){o.lost=true;from=seq-CAP;}"
    "for(var s=from;s<seq;s++){var e=ring[s%CAP];"
    "if(e.x1<=x0||e.x0>=x1||e.y1<=y0||e.y0>=y1)continue;"
    "o.n++;if(o.first<0)o.first=e.t;if(e.u>o.last)o.last=e.u;}"
    "if(o.lost){o.n++;o.first=-1;if(o.last<0)o.last=now();}return o;}"
    /* has every rectangle of m (flat [x,y,w,h,...]) been touched by an
     * entry after `after`? (entries lost to the ring count as touching) */
    "function reached(m,after,doc){if(doc!==ORIGIN||after>seq||seq-after>CAP)return true;"
    "for(var i=0;i<m.length;i+=4){var x0=m[i],y0=m[i+1],x1=x0+m[i+2],y1=y0+m[i+3],hit=false;"
    "for(var s=after;s<seq&&!hit;s++){var e=ring[s%CAP];"
    "hit=!(e.x1<=x0||e.x0>=x1||e.y1<=y0||e.y0>=y1);}"
    "if(!hit)return false;}return true;}"
    "function wait(g,r,after,doc,quiet,win,need,timeout,blindOk,must,mafter,mquiet){"
    /* after < 0: from the position now (a wait with no seed) */
    "if(after<0){after=seq;doc=ORIGIN;}"
    "return new Promise(function(done){"
    "var t0=now(),timer=0,w={p:0,poke:null},beat=t0,gap=0;G=g;if(!known)known=learn();"
    /* a heartbeat while waiting: a frozen renderer shows as a long gap */
    "var hb=setInterval(function(){var t=now();if(t-beat>gap)gap=t-beat;beat=t;},100);"
    "function check(){timer=0;w.p=0;var t=now(),b=blind(g),o;"
    "if(running())all('animation running');o=scan(r,after,doc);"
    "var end=function(to){var i=waiters.indexOf(w);if(i>=0)waiters.splice(i,1);"
    "if(timer)clearTimeout(timer);clearInterval(hb);if(t-beat>gap)gap=t-beat;"
    "var f=Math.max(told,sn-CAP),st=[];for(var i=f;i<sn;i++)st.push(ST[i%CAP]);"
    "var sl=f-told;told=sn;"
    /* every entry's time since the last answer (the compositor witness
     * explains frames with them, page/witness.h), and how many were lost */
    "var ef=Math.max(etold,seq-CAP),ea=arr([]);for(i=ef;i<seq;i++)ea.push(ring[i%CAP].u);"
    "var el=ef-etold;etold=seq;"
    "done({seq:seq,n:o.n,first:o.first,last:o.last,now:t,gap:gap,"
    "timedOut:to,blind:b,lost:o.lost,doc:ORIGIN,st:st,sl:sl,ea:SPO(ea,AR),ef:ef,el:el,t0:t0});};"
    /* cut(): the witness saw a frame no entry explains: answer now */
    "if(w.c)return end(false);"
    "if(b&&!blindOk)return end(false);"
    "var q=must&&!reached(must,mafter,doc)?Math.max(quiet,mquiet):quiet;"
    "var at;if(o.n>0)at=Math.max(o.last,t0)+q;else if(!need)at=t0+win;else at=Infinity;"
    "if(at<=t&&!(q>0&&running()))return end(false);"
    "if(t-t0>=timeout)return end(true);"
    "if(at>t0+timeout)at=t0+timeout;if(running()&&at>t+50)at=t+50;"
    "timer=setTimeout(check,Math.max(0,at-t));}"
    "w.poke=function(){if(timer&&!w.p){w.p=1;clearTimeout(timer);timer=setTimeout(check,0);}};"
    "waiters.push(w);check();});}"
    /* The inputs the page was given and what it sent (inputlog.c): the
     * trusted mousedown, mouseup, wheel and keydown events (this listener
     * is the first of all, on window, capture phase), in a ring of INS
     * with their time, client position and the page's sends so far, and
     * every message the page hands to an open WebSocket or to a worker:
     * the inputs not yet followed by one get its time. Sockets sent on are
     * remembered weakly (the last SOCKS) to say whether one is still open. */
    "var INS=" SC__INPUT_RING_STR ",ins=arr(new Array(INS)),nin=0,sends=0,SOCKS=8,socks=arr([]),sockSeen=ws();"
    "function sent(){sends++;var t=now();"
    "for(var i=nin-1;i>=0&&i>=nin-INS&&ins[i%INS].s<0;i--)ins[i%INS].s=t;}"
    /* A mouse event given to an element other than a canvas (a box over
     * the remote display's canvas) keeps its tag#id.class: a step that
     * fails names it. */
    "function given(t){try{if(!t||!t.nodeName||t.nodeName==='CANVAS')return '';"
    "var c=typeof t.className==='string'?t.className.trim().split(/\\s+/)[0]:'';"
    "return (t.nodeName.toLowerCase()+(t.id?'#'+t.id:'')+(c?'.'+c:'')).slice(0," SC__INPUT_OVER_STR ");}catch(e){return '?';}}"
    "['mousedown','mouseup','wheel','keydown'].forEach(function(n){addEventListener(n,function(e){"
    "if(!e.isTrusted)return;var m=n!=='keydown';"
    "ins[nin%INS]={k:n,t:now(),x:m?e.clientX:-1,y:m?e.clientY:-1,d:n==='wheel'?Math.sign(e.deltaY):0,"
    "s:-1,b:sends,o:m?given(e.target):''};nin++;},{capture:true,passive:true});});"
    /* (the sends are wrapped by install, in every realm) */
    "install(W0);AD.add(GPO(W0));"
    "function inputs(g){var o=arr([]),open=0,i;for(i=Math.max(0,nin-INS);i<nin;i++){var e=ins[i%INS];"
    "o.push([e.k,e.t,e.x,e.y,e.d,e.s,e.b,e.o]);}"
    "for(i=0;i<socks.length;i++){var w=DEREF(socks[i]);if(w&&wsState(w)===1)open++;}"
    "return {now:now(),doc:ORIGIN,blind:blind(g),open:open,sends:sends,n:nin,ev:SPO(o,AR)};}"
    /* The compositor witness's probe (page/witness.h): the times of the
     * entries from position `after` on (without moving what the next
     * answer reports), and cut(): every wait answers at once. */
    "function entries(after){var f=Math.max(after,seq-CAP),a=arr([]);for(var i=f;i<seq;i++)a.push(ring[i%CAP].u);"
    "return {ef:f,ea:SPO(a,AR),el:f-after,now:now(),doc:ORIGIN};}"
    "function cut(){for(var i=0;i<waiters.length;i++){waiters[i].c=1;waiters[i].poke();}return waiters.length;}"
    /* the entry point: a property the page can neither write nor delete
     * nor redefine, an object it cannot change */
    "FRZ(wait);FRZ(inputs);FRZ(adopt);FRZ(entries);FRZ(cut);"
    "DEF(W0,'__stepcheck_log',{value:FRZ({wait:wait,inputs:inputs,adopt:adopt,entries:entries,cut:cut,"
    "seq:function(){return seq;},"
    /* the last n entries, for a person debugging a page (docs/design.md) */
    "tail:function(n){var o=arr([]);for(var s=Math.max(0,seq-Math.min(n||16,CAP));s<seq;s++){"
    "var e=ring[s%CAP];o.push({seq:s+1,t:e.t,u:e.u,rect:[e.x0,e.y0,e.x1-e.x0,e.y1-e.y0],"
    "why:e.k});}return SPO(o,AR);}}),enumerable:false});})();";
