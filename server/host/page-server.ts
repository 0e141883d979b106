/**
 * The pages' static origin: a second, loopback-only Fastify server that the agent's own
 * Chromium runtimes load from, read-only:
 *   /runtime/*       the built VN runtime (runtime/dist: index.html, engine.js, fonts, games/<id>.json)
 *   /games/<id>/*    game content (game.json, meta.json, art/, music/) from the games folders
 *   /host/bridge.js  the page-side bridge bundle
 *   /runtime/host.html  the runtime's index.html with the bridge's script in it (page-paths.ts):
 *                    what a runtime loads (one page load, not the page and then the bridge injected)
 *   /native/stream   a native title's stream (WebSocket, a session's key required: native/stream-server.ts)
 * It is a separate origin from the api-facing routes on purpose: a runtime page can reach only
 * this origin (and its signalling WebSocket), and nothing on this origin changes anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { bridgeBundle } from './bridge-bundle';
import type { NativeStreams } from './native/stream-server';
import { BRIDGE_PATH, RUNTIME_HOST_PAGE, hostPageHtml } from './page-paths';

export interface PageServerOptions {
  runtimeDir: string;
  gamesDirs: string[];
  port: number;
  /** HOST_PAINT_SCREEN: the host page shows its canvas (page-paths.ts hostPageHtml). */
  paintScreen?: boolean;
  /** The native titles' streams (native/stream-server.ts): a WebSocket route, keyed per session. */
  native?: NativeStreams;
}

export interface PageServer {
  app: FastifyInstance;
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): Promise<void>;
}

/** 127.0.0.0/8, ::1 and their IPv4-mapped form. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.startsWith('::ffff:') ? address.slice(7) : address;
  return a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.wav': 'audio/wav',
  '.ink': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The file under one of `roots` for a URL path, or null: no dot segments or dotfiles, no
 * escaping the root, regular files only (the first root that has it wins).
 */
export function resolveStatic(roots: string[], urlPath: string): string | null {
  let rel: string;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (rel.includes('\0') || rel.includes('\\')) return null;
  const segments = rel.split('/').filter(Boolean);
  if (segments.length === 0 || segments.some((seg) => seg.startsWith('.'))) return null;
  for (const root of roots) {
    const full = path.resolve(root, ...segments);
    if (!full.startsWith(root + path.sep)) continue;
    try {
      if (fs.statSync(full).isFile()) return full;
    } catch {
      /* not in this root */
    }
  }
  return null;
}

/** Static files only: GET or HEAD for a file; nothing with a body, no directory listing. */
export async function startPageServer(opts: PageServerOptions): Promise<PageServer> {
  const runtimeDir = path.resolve(opts.runtimeDir);
  const gamesDirs = opts.gamesDirs.map((d) => path.resolve(d)).filter((d) => fs.existsSync(d));
  if (!fs.existsSync(path.join(runtimeDir, 'index.html'))) {
    throw new Error(`the VN runtime is not built: ${runtimeDir}/index.html is missing (npx tsx runtime/build.ts)`);
  }
  const app = Fastify({ logger: false, bodyLimit: 1024 });
  app.addHook('onRequest', async (req, reply) => {
    if (!isLoopback(req.socket.remoteAddress)) return reply.code(403).send('forbidden');
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply.code(405).send('method not allowed');
  });

  const fileSchema = {
    params: { type: 'object', properties: { '*': { type: 'string', maxLength: 1024 } } },
    querystring: { type: 'object', additionalProperties: true },
  } as const;
  const sendFile = (roots: string[]) => async (req: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
    const file = resolveStatic(roots, req.params['*'] ?? '');
    if (!file) return reply.code(404).type('text/plain').send('not found');
    const st = fs.statSync(file);
    reply
      .type(MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream')
      .header('content-length', st.size)
      // a runtime lives for one session and starts with an empty cache: long max-age is safe
      .header('cache-control', 'public, max-age=86400')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'same-origin');
    if (req.method === 'HEAD') return reply.send();
    return reply.send(fs.createReadStream(file));
  };
  // read once: a runtime rebuilt under a running agent is served after the agent's restart
  const hostPage = hostPageHtml(fs.readFileSync(path.join(runtimeDir, 'index.html'), 'utf8'), { paintScreen: opts.paintScreen });
  app.get(RUNTIME_HOST_PAGE, { schema: { querystring: fileSchema.querystring } }, async (_req, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'same-origin')
      .send(hostPage),
  );
  app.get('/runtime/*', { schema: fileSchema }, sendFile([runtimeDir]));
  app.get('/games/*', { schema: fileSchema }, sendFile(gamesDirs));

  const bundle = await bridgeBundle();
  app.get(
    BRIDGE_PATH,
    {
      schema: {
        querystring: { type: 'object', additionalProperties: true },
        response: { 200: { type: 'string' } },
      },
    },
    async (_req, reply) => reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(bundle),
  );
  if (opts.native) await opts.native.register(app);
  await app.listen({ host: '127.0.0.1', port: opts.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  return { app, origin: `http://127.0.0.1:${port}`, close: () => app.close() };
}
