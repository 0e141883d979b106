/**
 * The boot gate (issue 12, docs/web-performance.md "The page's scripts after its picture"): the
 * tiny inline script that starts the page's own scripts (Next's chunks) once the page's main
 * picture has been painted, instead of Next's `<script defer>`s, which run as soon as the HTML is
 * parsed and then hold the picture's paint while the framework is compiled and the page hydrated.
 *
 * The chunks are requested when the gate opens, not with the HTML: for every
 * `img[fetchpriority=high]` (the picture a page preloads: `/`'s featured title, a title page's key
 * art, /search's first cards, an article's cover) to have been decoded (`img.decode()`) or failed,
 * and for the browser to report one of them painted (a `largest-contentful-paint` entry whose
 * element it is: the browser's own word that the frame showing it was presented), else
 * GATE_PAINT_WAIT_MS after the decode and the page's first paint, and at most GATE_MAX_WAIT_MS
 * after the HTML was parsed. Only pages that preload a picture get the gate (pages/_document.tsx);
 * should one have no such `<img>`, the gate opens at its first contentful paint. The gate observes
 * only the entry types the browser lists (`PerformanceObserver.supportedEntryTypes`; none without
 * it): without `paint` the first paint counts as come once the picture is decoded (the browser
 * would never report it, and the gate would wait GATE_MAX_WAIT_MS), without
 * `largest-contentful-paint` GATE_PAINT_WAIT_MS after the decode and the first paint decides.
 * A visitor's first tap, click or key opens it at once (the page cannot answer before its scripts
 * run; the sooner they come). The scripts are inserted with `async = false`, which runs them in
 * the order given, as `defer` did. Why not download them at once and only hold their evaluation:
 * the picture then shares the phone's bandwidth with ~130 kB of script, and Lighthouse's
 * simulation counts every script that finished downloading before the picture was shown as holding
 * it whenever that script's evaluation was short (its trace task is pruned, docs/performance.md
 * "sixth round"). The cost is the hydration's start, about one round trip after the picture
 * instead of with it.
 *
 * The script is inline (no request before the chunks can start): a page rendered for a request
 * puts its nonce on it; a prerendered page's static policy allows it by its hash (`bootGateHash`,
 * which ./csp.ts `contentSecurityPolicy()` adds to every policy without a nonce), so this text
 * must not change per page. Server only (node:crypto); it imports nothing aliased, as
 * next.config.ts loads it through ./csp.ts.
 */
import { createHash } from 'node:crypto';

/** The id of the `<script type="application/json">` holding the chunk URLs in order. */
export const BOOT_LIST_ID = '__yc_boot';

/** The longest the chunks wait for the picture after the HTML was parsed. */
export const GATE_MAX_WAIT_MS = 2000;

/**
 * After the picture is decoded and the page's first paint reported, the longest the chunks wait
 * for the browser to report the picture painted (its largest-contentful-paint entry; none comes
 * when something larger was painted before it, or in a browser without the entry type). Until
 * the first paint is reported nothing has been shown: the wait does not start (a loaded machine
 * can hold a page's first frame for a second), only GATE_MAX_WAIT_MS bounds it. A browser without
 * the `paint` entry type cannot report it: there the wait starts at the decode.
 */
export const GATE_PAINT_WAIT_MS = 300;

/** The gate itself: plain ES5, no dependency, idempotent. */
export const BOOT_GATE_SCRIPT = `(function(){
var d=document,P=window.PerformanceObserver,types=(P&&P.supportedEntryTypes)||[],started=false,decoded=false,shown=false,painting=false,settling=false,none=false,nonce=d.currentScript&&d.currentScript.nonce;
function boot(){if(started)return;started=true;
var el=d.getElementById(${JSON.stringify(BOOT_LIST_ID)}),list=el?JSON.parse(el.textContent||'[]'):[];
for(var i=0;i<list.length;i++){var s=d.createElement('script');s.src=list[i];s.async=false;if(nonce)s.nonce=nonce;d.head.appendChild(s);}}
function ready(){if(decoded&&(shown||(none&&painting)))setTimeout(boot,0);if(decoded&&painting&&!none&&!settling){settling=true;setTimeout(boot,${GATE_PAINT_WAIT_MS});}}
function observe(type,f){if(types.indexOf(type)<0)return false;try{new P(function(l){var es=l.getEntries();for(var i=0;i<es.length;i++)f(es[i]);ready();})
.observe({type:type,buffered:true});return true;}catch(x){return false;}}
observe('largest-contentful-paint',function(e){var el=e.element;if(el&&el.getAttribute&&el.getAttribute('fetchpriority')==='high')shown=true;});
if(!observe('paint',function(e){if(e.name==='first-contentful-paint')painting=true;}))painting=true;
function gate(){setTimeout(boot,${GATE_MAX_WAIT_MS});
var imgs=d.querySelectorAll('img[fetchpriority=high]'),left=imgs.length;
function one(){if(--left===0){decoded=true;ready();}}
for(var i=0;i<imgs.length;i++){var img=imgs[i];
if(img.decode)img.decode().then(one,one);
else if(img.complete)one();
else{img.addEventListener('load',one);img.addEventListener('error',one);}}
if(imgs.length===0){none=true;decoded=true;ready();}}
var inputs=['pointerdown','keydown','touchstart'];for(var k=0;k<inputs.length;k++)addEventListener(inputs[k],boot,{capture:true,passive:true,once:true});
if(d.readyState==='loading')d.addEventListener('DOMContentLoaded',gate);else gate();
})();`;

/** The gate's hash, worked out once per process (the text is a constant). */
let gateHash: string | undefined;

/** 'sha256-…' of the gate, for the static Content-Security-Policy of prerendered pages. */
export function bootGateHash(): string {
  return (gateHash ??= `sha256-${createHash('sha256').update(BOOT_GATE_SCRIPT, 'utf8').digest('base64')}`);
}
