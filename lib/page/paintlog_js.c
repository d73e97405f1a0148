/* The paint log's page side (docs/design.md, "Paint log"): a script the
 * page runs before any script of its own (Page.addScriptToEvaluateOnNewDocument,
 * top frame only). It wraps every pixel-changing method of
 * CanvasRenderingContext2D and the canvas width/height setters, and
 * watches the document, so that every change of what a screenshot shows
 * is an entry: a sequence number, the page time and a dirty rectangle in
 * viewport CSS pixels. It keeps a counter, the last times and a ring of
 * SC_LOG_RING entries, and per canvas a ring of 16 boxes: memory per page
 * is bounded. Pixels are read only where a large rectangle is cleared and
 * refilled, and dropped at once.
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
 * (transferControlToOffscreen), an iframe, frame, object, embed or video
 * element, any of them over the guest.
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
    "if(window.top!==window||window.__stepcheck_log)return;"
    "var ORIGIN=performance.timeOrigin,CAP=" SC__LOG_RING_STR ",ring=new Array(CAP),seq=0,now=performance.now.bind(performance),"
    "epoch=0,kick=false,pend=[],waiters=[],anims=0,blindReason=null,BIG=1e9,"
    /* paint starts over the guest (the last wait's; before one, anywhere):
     * a ring of their times, how many ever, how many answers told */
    "G=null,ST=new Array(CAP),sn=0,told=0,etold=0,lastP=-BIG,GAP=" SC__LOG_START_GAP_STR ","
    "C2=window.CanvasRenderingContext2D,HC=window.HTMLCanvasElement;"
    /* A 2D call only widens its canvas's pending rectangle (canvas px);
     * at the end of the task (a microtask) each canvas drawn on becomes
     * one entry, mapped into the viewport. Our own evaluations are tasks
     * of their own: they never see a task's calls before its entry. */
    "function flushSoon(){if(!kick){kick=true;queueMicrotask(flush);}}"
    "function put(x0,y0,x1,y1,t,k){var u=now();ring[seq%CAP]={t:t,u:u,x0:x0,y0:y0,x1:x1,y1:y1,k:k};seq++;"
    "if(!G||!(x1<=G[0]||x0>=G[0]+G[2]||y1<=G[1]||y0>=G[1]+G[3])){"
    "if(t-lastP>=GAP){ST[sn%CAP]=t;sn++;}if(u>lastP)lastP=u;}"
    "for(var i=0;i<waiters.length;i++)waiters[i].poke();}"
    "function all(k){put(-BIG,-BIG,BIG,BIG,now(),typeof k==='string'?k:k&&k.type||'?');}"
    "function flush(){kick=false;epoch++;var p=pend;pend=[];if(SN){SN.__scV.snap=null;SN=null;}"
    "for(var i=0;i<p.length;i++){var c=p[i],d=c.__scD;if(!c.isConnected)continue;"
    "var b=c.getBoundingClientRect(),cw=c.width,ch=c.height;"
    "if(!(b.width>0&&b.height>0&&cw>0&&ch>0))continue;"
    "if(d.all||c.clientWidth!==b.width||c.clientHeight!==b.height){"
    "put(b.left-1,b.top-1,b.right+1,b.bottom+1,d.t,'canvas');continue;}"
    "var x0=Math.max(d.x0,0),y0=Math.max(d.y0,0),x1=Math.min(d.x1,cw),y1=Math.min(d.y1,ch);"
    "if(x1<=x0||y1<=y0)continue;var sx=b.width/cw,sy=b.height/ch;"
    "put(b.left+x0*sx-1,b.top+y0*sy-1,b.left+x1*sx+1,b.top+y1*sy+1,d.t,'canvas');}}"
    /* Where each canvas's pixels came from (docs/design.md, "Whole-buffer
     * draws"), for every canvas drawn on, attached or not: a version
     * record (c.__scV) with v, the changes ever (one per canvas per task,
     * sealed once read), a ring of the last VR changed boxes (canvas px,
     * [x0,y0,x1,y1]), bl (v when it was last blank: made, or resized), op
     * (a box holding every pixel whose alpha may be other than 0 or 255;
     * null: none), anc (when it was copied whole while blank: [id,
     * version, box of pixels that differ since] for the source and up to
     * VK-1 of its ancestors; at: v right after the copy), sh (the canvas
     * last drawn whole onto it, that canvas's version, and v right after:
     * while v is unchanged, a new whole draw changes only where the two
     * sources differ, and where the last had translucent pixels). */
    "var VR=16,VK=8,vid=0,ALL=[-BIG,-BIG,BIG,BIG];"
    "function vs(c){return c.__scV||(c.__scV={id:++vid,v:0,bl:0,ep:-1,open:false,"
    "R:new Array(VR),op:null,anc:null,at:0,sh:null,n:0,snap:null});}"
    "function join(a,b){if(!a)return b;if(!b)return a;return [Math.min(a[0],b[0]),"
    "Math.min(a[1],b[1]),Math.max(a[2],b[2]),Math.max(a[3],b[3])];}"
    "function covers(a,x0,y0,x1,y1){return !!a&&a[0]<=x0&&a[1]<=y0&&a[2]>=x1&&a[3]>=y1;}"
    /* a change of c's pixels; safe: it gives no pixel an alpha other than
     * 0 or 255 */
    "function note(c,x0,y0,x1,y1,safe){var s=c.__scV||vs(c),e;s.n++;s.snap=null;"
    "if(s.open&&s.ep===epoch&&(e=s.R[(s.v-1)%VR])){if(x0<e[0])e[0]=x0;if(y0<e[1])e[1]=y0;"
    "if(x1>e[2])e[2]=x1;if(y1>e[3])e[3]=y1;}"
    "else if(s.open&&s.ep===epoch)s.R[(s.v-1)%VR]=[x0,y0,x1,y1];"
    "else{s.v++;s.R[(s.v-1)%VR]=[x0,y0,x1,y1];s.ep=epoch;s.open=true;}"
    "if(!safe&&!covers(s.op,x0,y0,x1,y1))s.op=join(s.op,[x0,y0,x1,y1]);}"
    "function seal(c){var s=vs(c);s.open=false;s.snap=null;return s.v;}"
    "function blank(c){var s=vs(c);note(c,-BIG,-BIG,BIG,BIG,true);s.open=false;s.bl=s.v;"
    "s.op=null;s.anc=null;s.sh=null;}"
    /* the box where c's pixels at versions a and b may differ: null none,
     * false unknown (the ring lost them) */
    "function ch(s,a,b){if(a>b){var t=a;a=b;b=t;}if(a<s.v-VR)return false;var o=null;"
    "for(var k=a+1;k<=b;k++)o=join(o,s.R[(k-1)%VR]);return o;}"
    /* where canvas X at version x and canvas Y at version y may differ */
    "function diff(X,x,Y,y){var sx=vs(X),sy=vs(Y);if(X===Y)return ch(sx,x,y);"
    "if(!sy.anc)return false;var o=ch(sy,sy.at,y);if(o===false)return false;"
    "for(var i=0;i<sy.anc.length;i++){var a=sy.anc[i];if(a[0]!==sx.id)continue;"
    "var r=ch(sx,a[1],x);return r===false?false:join(join(o,a[2]),r);}return false;}"
    /* a canvas-pixel rectangle of context g (through its transform);
     * x undefined: the whole canvas. safe: see note. */
    "function mark(g,x,y,w,h,raw,safe){var c=g.__scC||(g.__scC=g.canvas);if(!c)return;"
    "var x0=-BIG,y0=-BIG,x1=BIG,y1=BIG;"
    "if(x!==undefined&&!g.__scX){if(w<0){x+=w;w=-w;}if(h<0){y+=h;h=-h;}"
    "if(!raw&&g.__scT){var m=g.getTransform();if(m.b!==0||m.c!==0)x=NaN;else{"
    "var xa=m.a*x+m.e,xb=m.a*(x+w)+m.e,ya=m.d*y+m.f,yb=m.d*(y+h)+m.f;"
    "x=Math.min(xa,xb);w=Math.abs(xb-xa);y=Math.min(ya,yb);h=Math.abs(yb-ya);}}"
    "if(x===x&&y===y&&w===w&&h===h){x0=x;y0=y;x1=x+w;y1=y+h;}else safe=false;}else safe=false;"
    "note(c,x0,y0,x1,y1,safe);var d=c.__scD;"
    "if(!d)d=c.__scD={ep:-1};"
    "if(d.ep!==epoch){d.ep=epoch;d.t=now();d.all=false;d.x0=d.y0=Infinity;d.x1=d.y1=-Infinity;"
    "pend.push(c);flushSoon();}"
    "if(d.all)return;if(x0===-BIG&&x1===BIG){d.all=true;return;}"
    "if(x0<d.x0)d.x0=x0;if(y0<d.y0)d.y0=y0;if(x1>d.x1)d.x1=x1;if(y1>d.y1)d.y1=y1;}"
    /* a draw that puts the source's pixels unchanged where they land: no
     * transform but a whole-pixel move, alpha 1, source-over, no clip,
     * shadow or filter */
    "function plain(g){if(g.__scX||g.__scK||g.globalAlpha!==1)return false;if(!g.__scT)return true;"
    "var m=g.getTransform();return m.a===1&&m.b===0&&m.c===0&&m.d===1&&m.e===0&&m.f===0;}"
    /* an image whose every pixel has alpha 0 or 255: a JPEG, or a PNG of
     * colour type 0 or 2 (a tRNS chunk there makes one colour fully
     * transparent), by its data: URL's header */
    "function binaryImage(i){var u=i.src;if(typeof u!=='string')return false;"
    "if(u.startsWith('data:image/jpeg;'))return true;if(!u.startsWith('data:image/png;base64,'))return false;"
    "var b;try{b=atob(u.substr(22,36));}catch(e){return false;}"
    "return b.length>=26&&b.substr(12,4)==='IHDR'&&(b.charCodeAt(25)===0||b.charCodeAt(25)===2);}"
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
    "function snap(g,x,y,w,h){var c=g.__scC||(g.__scC=g.canvas);"
    "if(!c||c.isConnected||g.__scT||!(w*h>=SNAP)||!Number.isInteger(x)||!Number.isInteger(y)||"
    "!Number.isInteger(w)||!Number.isInteger(h))return null;var s=vs(c),o=s.open&&s.ep===epoch,e=o&&s.R[(s.v-1)%VR],im;"
    "try{im=g.getImageData(x,y,w,h);}catch(err){return null;}"
    "return {x:x,y:y,w:w,h:h,im:im,open:o,before:e?e.slice():null,n:-1};}"
    "function changed(o,d,x,y){var w=d.width,h=d.height,a=new Uint32Array(o.data.buffer,o.data.byteOffset,w*h),"
    "b=new Uint32Array(d.data.buffer,d.data.byteOffset,w*h),x0=w,x1=-1,y0=-1,y1=-1,p=false;"
    "for(var j=0;j<h;j++){var r=j*w,f=-1,l=-1;for(var i=0;i<w;i++){var n=b[r+i],al=LE?n>>>24:n&255;"
    "if(al!==0&&al!==255)p=true;else if(n===a[r+i])continue;if(f<0)f=i;l=i;}"
    "if(f>=0){if(y0<0)y0=j;y1=j;if(f<x0)x0=f;if(l>x1)x1=l;}}"
    "return y0<0?null:{b:[x+x0,y+y0,x+x1+1,y+y1+1],p:p};}"
    /* the clear kept in q refilled on c with the pixels im (at x, y) */
    "function refill(c,q,im,x,y){var s=vs(c),D=changed(q.im,im,x,y);s.n++;"
    "s.R[(s.v-1)%VR]=q.open?join(q.before,D&&D.b):D&&D.b;if(D&&D.p)s.op=join(s.op,D.b);}"
    /* the clear kept on c, if the change being made is the very next one */
    "function kept(c){var s=c.__scV,q=s&&s.snap;if(!q)return null;s.snap=null;return q.n===s.n?q:null;}"
    "function binaryData(d){var a=d&&d.data;if(!a)return false;"
    "for(var k=3;k<a.length;k+=4){var q=a[k];if(q!==0&&q!==255)return false;}return true;}"
    /* canvas S drawn whole at (0, 0) onto canvas c of its size, plainly */
    "function whole(g,c,S){var s=vs(c),t=vs(S),v=seal(S),w=c.width,h=c.height,r=false;"
    "if(s.v===s.bl){mark(g,0,0,w,h,1,true);s.op=t.op;"
    "var o=ch(t,t.at,v),A=[[t.id,v,null]];"
    "if(t.anc&&o!==false)for(var k=0;k<t.anc.length&&A.length<VK;k++){var e=t.anc[k];"
    "A.push([e[0],e[1],join(e[2],o)]);}"
    "s.anc=A;s.at=seal(c);s.sh=[S,v,s.at];return;}"
    "if(s.sh&&s.sh[2]===s.v){r=diff(s.sh[0],s.sh[1],S,v);if(r!==false)r=join(join(r,vs(s.sh[0]).op),t.op);}"
    "if(r===false)mark(g,0,0,w,h,1,!t.op);"
    "else if(r){var x0=Math.max(0,Math.floor(r[0])),y0=Math.max(0,Math.floor(r[1])),"
    "x1=Math.min(w,Math.ceil(r[2])),y1=Math.min(h,Math.ceil(r[3]));"
    "if(x1>x0&&y1>y0)mark(g,x0,y0,x1-x0,y1-y0,1,!t.op);}"
    "s.sh=[S,v,seal(c)];}"
    "function drew(g,a){var i=a[0]||{},n=a.length,c=g.__scC||(g.__scC=g.canvas),safe=false;if(!c)return;"
    "var q=kept(c),iw=+(i.naturalWidth||i.videoWidth||i.displayWidth||i.width),"
    "ih=+(i.naturalHeight||i.videoHeight||i.displayHeight||i.height),pl=n===3&&plain(g);"
    "if(q&&pl&&+a[1]===q.x&&+a[2]===q.y&&iw===q.w&&ih===q.h){var im=null;try{im=g.getImageData(q.x,q.y,q.w,q.h);}catch(err){}"
    "if(im){refill(c,q,im,q.x,q.y);return;}}"
    "var cv=HC&&i instanceof HC&&!i.__scBlind;"
    "if(pl&&cv&&i!==c&&+a[1]===0&&+a[2]===0&&i.width===c.width&&i.height===c.height){"
    "whole(g,c,i);return;}"
    "if(pl&&Number.isInteger(+a[1])&&Number.isInteger(+a[2]))"
    "safe=cv?!vs(i).op:!!(window.HTMLImageElement&&i instanceof HTMLImageElement&&binaryImage(i));"
    "if(n>=9)mark(g,+a[5],+a[6],+a[7],+a[8]);"
    "else if(n>=5)mark(g,+a[1],+a[2],+a[3],+a[4]);"
    "else mark(g,+a[1],+a[2],iw,ih,0,safe);}"
    "function wrap(o,n,f){var d=o&&Object.getOwnPropertyDescriptor(o,n);"
    "if(!d||typeof d.value!=='function')return;var orig=d.value;"
    "o[n]=function(...a){var r=orig.apply(this,a);f(this,a);return r;};}"
    "function setter(o,n,f){var d=o&&Object.getOwnPropertyDescriptor(o,n);"
    "if(!d||!d.set)return;var s=d.set;"
    "Object.defineProperty(o,n,{configurable:true,enumerable:d.enumerable,get:d.get,"
    "set:function(v){s.call(this,v);f(this,v);}});}"
    "if(C2){var P=C2.prototype;"
    /* the hot ones (thousands a frame in some clients): four arguments,
     * no arguments object */
    "['fillRect','clearRect','strokeRect'].forEach(function(n){"
    "var d=Object.getOwnPropertyDescriptor(P,n);if(!d||typeof d.value!=='function')return;"
    "var o=d.value,k=n==='strokeRect',c=n==='clearRect';P[n]=function(x,y,w,h){"
    "var q=c?snap(this,x,y,w,h):null;o.call(this,x,y,w,h);"
    "if(k){var l=(+this.lineWidth||1)/2+1;mark(this,x-l,y-l,+w+2*l,+h+2*l);}"
    "else mark(this,+x,+y,+w,+h,0,c&&!this.__scT);if(q){var s=vs(this.__scC);q.n=s.n;"
    "if(SN&&SN!==this.__scC)vs(SN).snap=null;SN=this.__scC;s.snap=q;}};});"
    "wrap(P,'drawImage',drew);"
    "wrap(P,'putImageData',function(g,a){var d=a[0]||{},x=+a[1],y=+a[2],c=g.__scC||(g.__scC=g.canvas);"
    "if(!c)return;var s=vs(c),w=+d.width,h=+d.height,q=kept(c);"
    "if(a.length>=7){x+= +a[3];y+= +a[4];w=+a[5];h=+a[6];}"
    "else if(q&&q.x===x&&q.y===y&&q.w===w&&q.h===h&&d.data&&d.data.length===w*h*4){"
    "refill(c,q,d,x,y);return;}"
    "mark(g,x,y,w,h,1,covers(s.op,x,y,x+w,y+h)||binaryData(d));});"
    "wrap(P,'clip',function(g){g.__scK=1;});"
    "['fill','stroke','fillText','strokeText','reset','drawFocusIfNeeded']"
    ".forEach(function(n){wrap(P,n,function(g){mark(g);});});"
    "['setTransform','transform','translate','scale','rotate','restore','resetTransform']"
    ".forEach(function(n){wrap(P,n,function(g){g.__scT=1;});});"
    /* drawing that reaches past its rectangle: sticky, whole canvas from then on */
    "[['shadowBlur',0],['shadowOffsetX',0],['shadowOffsetY',0],['filter','none'],"
    "['globalCompositeOperation','source-over']].forEach(function(d){"
    "setter(P,d[0],function(g){if(g[d[0]]!==d[1])g.__scX=1;});});}"
    "if(window.ImageBitmapRenderingContext)wrap(ImageBitmapRenderingContext.prototype,"
    "'transferFromImageBitmap',function(g){mark(g);});"
    "if(HC){var H=HC.prototype;"
    "['width','height'].forEach(function(n){setter(H,n,function(c){blank(c);if(c.isConnected)all('canvas '+n);});});"
    "wrap(H,'getContext',function(c,a){var k=String(a[0]);"
    "if(k!=='2d')c.__scBlind='context:'+k;});"
    "wrap(H,'transferControlToOffscreen',function(c){"
    "c.__scBlind='offscreen';});}"
    /* the document: everything but a cursor and the title */
    "var scratch=null;"
    "function styleKey(s){var o=[];for(var i=0;i<s.length;i++){var k=s[i];"
    "if(k!=='cursor')o.push(k+':'+s.getPropertyValue(k)+s.getPropertyPriority(k));}"
    "return o.sort().join(';');}"
    "function onlyCursor(m){if(m.type!=='attributes'||m.attributeName!=='style'||"
    "!m.target.style)return false;if(!scratch)scratch=document.createElement('i');"
    "scratch.style.cssText=m.oldValue||'';return styleKey(scratch.style)===styleKey(m.target.style);}"
    "function inTitle(n){for(;n;n=n.parentNode)if(n.nodeName==='TITLE')return true;return false;}"
    /* An element that paints nothing and moves nothing: hidden, or out of
     * flow, childless and without background, border, shadow, outline,
     * filter or generated content (noVNC's mouse-capture div, shown on
     * every button press). Changing it, or adding it, changes no pixel
     * when it paints nothing before and after (inert: as last seen). */
    "var inert=new WeakMap();"
    "function none(v){return v==='none'||v==='normal'||v===undefined;}"
    "function paintsNothing(e){if(!e||e.nodeType!==1||!e.isConnected)return false;"
    "var c=getComputedStyle(e);if(c.display==='none')return true;"
    "if(e.childNodes.length||(c.position!=='fixed'&&c.position!=='absolute'))return false;"
    "if(!none(c.backgroundImage)||!/, 0\\)$|^transparent$/.test(c.backgroundColor)||"
    "!none(c.boxShadow)||!none(c.outlineStyle)||!none(c.filter)||!none(c.backdropFilter))return false;"
    "if(parseFloat(c.borderTopWidth)||parseFloat(c.borderRightWidth)||"
    "parseFloat(c.borderBottomWidth)||parseFloat(c.borderLeftWidth))return false;"
    "return none(getComputedStyle(e,'::before').content)&&none(getComputedStyle(e,'::after').content);}"
    "function harmless(m){if(onlyCursor(m)||inTitle(m.target))return true;var i,n;"
    "if(m.type==='attributes'){var was=inert.get(m.target)===true,is=paintsNothing(m.target);"
    "inert.set(m.target,is);return was&&is;}"
    "if(m.type!=='childList')return false;"
    "for(i=0;i<m.removedNodes.length;i++){n=m.removedNodes[i];"
    "if(n.nodeType===1?inert.get(n)!==true:n.nodeType===3&&n.data.trim())return false;}"
    "for(i=0;i<m.addedNodes.length;i++){n=m.addedNodes[i];"
    "if(n.nodeType===1){if(!paintsNothing(n))return false;inert.set(n,true);}"
    "else if(n.nodeType===3&&n.data.trim())return false;}"
    "return true;}"
    /* Where a mutation can change pixels: the boxes, before and after, of
     * the element it touched and of its subtree, of removed and added
     * elements, and of every element whose box moved (layout). Boxes are
     * learnt at the first wait (documents of up to BOXES elements; beyond,
     * or before, every mutation is the whole viewport). */
    "var boxes=new WeakMap(),known=false,BOXES=4000,hosts=[];"
    "function rectOf(e){var b=e.getBoundingClientRect();"
    "return b.width>0&&b.height>0?[b.left,b.top,b.right,b.bottom]:null;}"
    "function grow(d,r){if(!r)return;if(r[0]<d[0])d[0]=r[0];if(r[1]<d[1])d[1]=r[1];"
    "if(r[2]>d[2])d[2]=r[2];if(r[3]>d[3])d[3]=r[3];}"
    "function learn(){var q=document.querySelectorAll('*');if(q.length>BOXES)return false;"
    "for(var i=0;i<q.length;i++)boxes.set(q[i],rectOf(q[i]));return true;}"
    /* old and new boxes of e and its subtree into d; false: one unknown */
    "function both(d,e,gone){var q=[e],s=e.querySelectorAll?e.querySelectorAll('*'):[];"
    "if(s.length>BOXES)return false;for(var i=0;i<s.length;i++)q.push(s[i]);"
    "for(i=0;i<q.length;i++){var x=q[i];if(!boxes.has(x)&&!gone&&x!==e&&!x.isConnected)continue;"
    "if(gone){if(!boxes.has(x))return false;grow(d,boxes.get(x));boxes.delete(x);continue;}"
    "if(boxes.has(x))grow(d,boxes.get(x));var r=rectOf(x);grow(d,r);boxes.set(x,r);}return true;}"
    "function where(ms,hs){if(!known)return null;var d=[Infinity,Infinity,-Infinity,-Infinity],i,j;"
    "for(i=0;i<ms.length;i++){var m=ms[i];if(hs[i])continue;"
    "var e=m.target.nodeType===1?m.target:m.target.parentElement;"
    "if(!e||(!boxes.has(e)&&e.isConnected))return null;if(!both(d,e,false))return null;"
    "if(m.type==='childList'){for(j=0;j<m.removedNodes.length;j++)if(m.removedNodes[j].nodeType===1&&"
    "!both(d,m.removedNodes[j],true))return null;"
    "for(j=0;j<m.addedNodes.length;j++)if(m.addedNodes[j].nodeType===1)both(d,m.addedNodes[j],false);}}"
    "var q=document.querySelectorAll('*');if(q.length>BOXES)return null;"
    "for(i=0;i<q.length;i++){var x=q[i],o=boxes.get(x),r=rectOf(x);"
    "if(o===undefined)return null;"
    "if(String(o)!==String(r)){grow(d,o);grow(d,r);boxes.set(x,r);}}"
    "return d;}"
    "new MutationObserver(function(ms){var hs=ms.map(harmless),d=where(ms,hs),m=ms[hs.indexOf(false)];"
    "if(!m)return;var k='mutation '+m.type+' '+m.target.nodeName+(m.attributeName?' '+m.attributeName:'');"
    "if(!d){all(k);return;}"
    "if(d[2]>d[0]&&d[3]>d[1])put(d[0]-1,d[1]-1,d[2]+1,d[3]+1,now(),k);})"
    ".observe(document,{subtree:true,childList:true,attributes:true,characterData:true,"
    "attributeOldValue:true});"
    "if(window.Element&&Element.prototype.attachShadow)wrap(Element.prototype,'attachShadow',"
    "function(e){hosts.push(new WeakRef(e));});"
    "addEventListener('scroll',all,true);addEventListener('resize',all,true);"
    "['animationstart','transitionrun'].forEach(function(n){addEventListener(n,function(){"
    "anims++;all(n);},true);});"
    "['animationend','animationcancel','transitionend','transitioncancel'].forEach(function(n){"
    "addEventListener(n,function(){if(anims>0)anims--;all(n);},true);});"
    "function over(e,g){var b=e.getBoundingClientRect();"
    "return b.width>0&&b.height>0&&b.right>g[0]&&b.left<g[0]+g[2]&&b.bottom>g[1]&&b.top<g[1]+g[3];}"
    "function blind(g){if(blindReason)return blindReason;"
    "var q=document.querySelectorAll('canvas,iframe,frame,object,embed,video');"
    "for(var i=0;i<q.length;i++){var e=q[i];"
    "if(e.nodeName==='CANVAS'&&!e.__scBlind)continue;if(!over(e,g))continue;"
    "return e.nodeName==='CANVAS'?e.__scBlind:e.nodeName.toLowerCase();}"
    /* a shadow tree's mutations are not observed */
    "for(i=0;i<hosts.length;i++){var h=hosts[i].deref();if(h&&h.isConnected&&over(h,g))return 'shadow';}"
    "return null;}"
    "function running(){if(anims>0)return true;if(!document.getAnimations)return false;"
    "var a=document.getAnimations();for(var i=0;i<a.length;i++)"
    "if(a[i].playState==='running')return true;return false;}"
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
    "var t0=now(),timer=0,w={p:0},beat=t0,gap=0;G=g;if(!known)known=learn();"
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
    "var ef=Math.max(etold,seq-CAP),ea=[];for(i=ef;i<seq;i++)ea.push(ring[i%CAP].u);"
    "var el=ef-etold;etold=seq;"
    "done({seq:seq,n:o.n,first:o.first,last:o.last,now:t,gap:gap,"
    "timedOut:to,blind:b,lost:o.lost,doc:ORIGIN,st:st,sl:sl,ea:ea,el:el,t0:t0});};"
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
    "var INS=" SC__INPUT_RING_STR ",ins=new Array(INS),nin=0,sends=0,SOCKS=8,socks=[],sockSeen=new WeakSet();"
    "function sent(){sends++;var t=now();"
    "for(var i=nin-1;i>=0&&i>=nin-INS&&ins[i%INS].s<0;i--)ins[i%INS].s=t;}"
    /* A mouse event given to an element other than a canvas (a box over
     * the remote display's canvas) keeps its tag#id.class: a step that
     * fails names it. */
    "function given(t){if(!t||!t.nodeName||t.nodeName==='CANVAS')return '';"
    "var c=typeof t.className==='string'?t.className.trim().split(/\\s+/)[0]:'';"
    "return (t.nodeName.toLowerCase()+(t.id?'#'+t.id:'')+(c?'.'+c:'')).slice(0," SC__INPUT_OVER_STR ");}"
    "['mousedown','mouseup','wheel','keydown'].forEach(function(n){addEventListener(n,function(e){"
    "if(!e.isTrusted)return;var m=n!=='keydown';"
    "ins[nin%INS]={k:n,t:now(),x:m?e.clientX:-1,y:m?e.clientY:-1,d:n==='wheel'?Math.sign(e.deltaY):0,"
    "s:-1,b:sends,o:m?given(e.target):''};nin++;},{capture:true,passive:true});});"
    "if(window.WebSocket)wrap(WebSocket.prototype,'send',function(w){if(w.readyState!==1)return;"
    "if(!sockSeen.has(w)){sockSeen.add(w);socks.push(new WeakRef(w));if(socks.length>SOCKS)socks.shift();}"
    "sent();});"
    "if(window.Worker)wrap(Worker.prototype,'postMessage',sent);"
    "function inputs(g){var o=[],open=0,i;for(i=Math.max(0,nin-INS);i<nin;i++){var e=ins[i%INS];"
    "o.push([e.k,e.t,e.x,e.y,e.d,e.s,e.b,e.o]);}"
    "for(i=0;i<socks.length;i++){var w=socks[i].deref();if(w&&w.readyState===1)open++;}"
    "return {now:now(),doc:ORIGIN,blind:blind(g),open:open,sends:sends,n:nin,ev:o};}"
    "Object.defineProperty(window,'__stepcheck_log',{value:Object.freeze({wait:wait,inputs:inputs,"
    "seq:function(){return seq;},"
    /* the last n entries, for a person debugging a page (docs/design.md) */
    "tail:function(n){var o=[];for(var s=Math.max(0,seq-Math.min(n||16,CAP));s<seq;s++){"
    "var e=ring[s%CAP];o.push({seq:s+1,t:e.t,u:e.u,rect:[e.x0,e.y0,e.x1-e.x0,e.y1-e.y0],"
    "why:e.k});}return o;}}),enumerable:false});})();";
