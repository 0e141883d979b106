/**
 * The network guards of a runtime's browser context (docs/host.md "Isolation"): every request
 * that is not for the host's own static origin is aborted (context.route), and every WebSocket is
 * closed but the signalling's: the configured signalling endpoints (HOST_SIGNAL_URLS) match no
 * route pattern, so the page opens them natively; a session's own signal URL that is not one of
 * them is relayed through playwright (connectToServer), as every one was before issue 11's latency
 * round (each frame then crossed the agent's event loop: 25–360 ms when it was busy).
 */
import type { BrowserContext } from 'playwright-core';

export interface NetworkGuard {
  /** The host's static origin (http://127.0.0.1:<port>). */
  origin: string;
  /** HOST_SIGNAL_URLS: opened natively. */
  signalUrls: string[];
  /** The session's signal URL (without query) once attached: relayed when not in signalUrls. */
  allowedWs: ReadonlySet<string>;
  /** Counters of what was refused, and the last URL refused. */
  blocked: { requests: number; websockets: number; lastUrl: string };
  /** A WebSocket relayed through playwright. */
  onRelay(): void;
}

export async function guardNetwork(ctx: BrowserContext, g: NetworkGuard): Promise<void> {
  await ctx.route(new RegExp(`^(?!${escapeRegExp(g.origin)}/)`), (route) => {
    g.blocked.requests++;
    g.blocked.lastUrl = route.request().url().slice(0, 200);
    return route.abort('blockedbyclient');
  });
  await ctx.routeWebSocket(wsRoutePattern(g.signalUrls), (ws) => {
    const url = ws.url();
    if (g.allowedWs.has(url.split('?')[0])) {
      g.onRelay();
      ws.connectToServer();
    } else {
      g.blocked.websockets++;
      g.blocked.lastUrl = url.slice(0, 200);
      void ws.close({ code: 1008, reason: 'blocked' });
    }
  });
}

/**
 * The WebSocket URLs routed to the runtime's handler: all but `signalUrls` (without query),
 * which the page opens natively (playwright's routeWebSocket passes a URL no pattern matches).
 */
export function wsRoutePattern(signalUrls: string[]): RegExp {
  const bases = signalUrls.map((u) => u.split('?')[0]).filter(Boolean);
  return bases.length ? new RegExp(`^(?!(?:${bases.map(escapeRegExp).join('|')})(?:\\?|$))`) : /.*/;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
