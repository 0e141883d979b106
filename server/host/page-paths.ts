/**
 * The paths of the pages' static origin (page-server.ts) that the agent's other modules name:
 * the page a runtime loads (runtime.ts) and the bridge's script in it. Their own module, so a
 * runtime names its page without importing the server (Fastify, the bridge's bundler).
 */

/** The bridge bundle's path on the pages' origin. */
export const BRIDGE_PATH = '/host/bridge.js';

/** The page a runtime loads: the runtime's index.html with the bridge's script (page-server.ts). */
export const RUNTIME_HOST_PAGE = '/runtime/host.html';

/**
 * The runtime's index.html with the bridge's script after the engine's module (a deferred script
 * after it runs after it, in document order): before the last `</body>`, or at the end.
 */
export function withBridge(indexHtml: string): string {
  const tag = `  <script defer src="${BRIDGE_PATH}"></script>\n`;
  const at = indexHtml.lastIndexOf('</body>');
  return at < 0 ? `${indexHtml}\n${tag}` : `${indexHtml.slice(0, at)}${tag}  ${indexHtml.slice(at)}`;
}
