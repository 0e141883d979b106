/**
 * The paths of the pages' static origin (page-server.ts) that the agent's other modules name:
 * the page a runtime loads (runtime.ts), the bridge's script in it and what hides its canvas. Their own module, so a
 * runtime names its page without importing the server (Fastify, the bridge's bundler).
 */

/** The bridge bundle's path on the pages' origin. */
export const BRIDGE_PATH = '/host/bridge.js';

/** The page a runtime loads: the runtime's index.html with the bridge's script (page-server.ts). */
export const RUNTIME_HOST_PAGE = '/runtime/host.html';

/**
 * What hides the runtime's canvas (`#screen`, runtime/index.html) from the host page's layout.
 * Nobody looks at a host's screen: the picture leaves as the canvas's captured track (frames.ts)
 * and screenshots as the canvas's pixels, neither of which needs the canvas displayed. A displayed
 * canvas is painted and composited by Chromium on every draw (the renderer's compositor thread and
 * the GPU process's software compositing: ~6 % of a core while reading, docs/performance.md
 * "Issue 11, seventh round").
 */
export const HIDDEN_SCREEN_STYLE = '<style>#screen{display:none}</style>';

/**
 * The page a runtime loads, from the runtime's index.html: the bridge's script after the engine's
 * module (a deferred script after it runs after it, in document order), before the last `</body>`
 * or at the end; and, unless `paintScreen` (HOST_PAINT_SCREEN=1), HIDDEN_SCREEN_STYLE after the
 * page's own styles (before `</head>`, else before the bridge).
 */
export function hostPageHtml(indexHtml: string, opts: { paintScreen?: boolean } = {}): string {
  let html = indexHtml;
  let tag = `  <script defer src="${BRIDGE_PATH}"></script>\n`;
  if (!opts.paintScreen) {
    const head = html.indexOf('</head>');
    if (head < 0) tag = `  ${HIDDEN_SCREEN_STYLE}\n${tag}`;
    else html = `${html.slice(0, head)}  ${HIDDEN_SCREEN_STYLE}\n  ${html.slice(head)}`;
  }
  const at = html.lastIndexOf('</body>');
  return at < 0 ? `${html}\n${tag}` : `${html.slice(0, at)}${tag}  ${html.slice(at)}`;
}

/**
 * The native runtime's stream (issue 15): a runtime page playing a Ren'Py game opens this
 * WebSocket on the pages' origin with its session's key (native/stream-server.ts). The page opens
 * it natively, like the signalling (runtime-guards.ts): without the key nothing is served.
 */
export const NATIVE_STREAM_PATH = '/native/stream';
